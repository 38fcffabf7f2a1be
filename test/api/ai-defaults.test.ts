// aiDefaults: the shipped file served as it is (API token required), a replacement file through
// AI_DEFAULTS_FILE, and files that would mislead a client (a credential, an undeclared
// placeholder) refused at start with the reason.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { loadAiDefaults, SHIPPED_AI_DEFAULTS } from "../../lib/ai/defaults.ts";
import { useTestService } from "../helpers/service.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ai-"));
const shipped = JSON.parse(fs.readFileSync(SHIPPED_AI_DEFAULTS, "utf8"));
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(content));
  return file;
};
const override = write("override.json", { ...shipped, defaultModel: "llama3.1:8b" });
const ctx = useTestService(() => ({ api: { aiDefaultsFile: override } }));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let token: string;
beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
});

const QUERY = `{ aiDefaults { defaultModel models { id provider label description }
  prompts { key label system user placeholders } placeholders { key description example } } }`;

describe("aiDefaults", () => {
  test("serves the configured file (AI_DEFAULTS_FILE over the shipped one), with an API token only", async () => {
    const { status, body } = await ctx.service.graphql(QUERY, { token });
    expect(status).toBe(200);
    expect(body.data.aiDefaults.defaultModel).toBe("llama3.1:8b");
    expect(body.data.aiDefaults.models).toEqual(
      shipped.models.map((m: Record<string, unknown>) => ({ description: null, ...m })),
    );
    expect(body.data.aiDefaults.prompts).toEqual(shipped.prompts);
    expect(body.data.aiDefaults.placeholders).toEqual(shipped.placeholders);
    expect((await ctx.service.graphql(QUERY)).status).toBe(401);
  });

  test("the shipped file is valid, and every prompt's {{placeholders}} are declared", () => {
    const defaults = loadAiDefaults(SHIPPED_AI_DEFAULTS);
    for (const prompt of defaults.prompts) {
      for (const [, key] of `${prompt.system} ${prompt.user}`.matchAll(/\{\{(\w+)\}\}/g))
        expect(prompt.placeholders).toContain(key);
    }
  });

  test("a file with a credential, an undeclared placeholder or an unknown default model is refused with the reason", () => {
    const withKey = write("key.json", { ...shipped, models: [{ ...shipped.models[0], apiKey: "sk-123" }] });
    expect(() => loadAiDefaults(withKey)).toThrow(/models\[0\]\.apiKey: no credentials in this file/);
    const undeclared = write("undeclared.json", { ...shipped, prompts: [{ ...shipped.prompts[0], user: "{{nope}}" }] });
    expect(() => loadAiDefaults(undeclared)).toThrow(/uses \{\{nope\}\} without listing it/);
    const unknownModel = write("model.json", { ...shipped, defaultModel: "gpt-9" });
    expect(() => loadAiDefaults(unknownModel)).toThrow(/"defaultModel" must be the id of one of the models/);
    expect(() => loadAiDefaults(path.join(dir, "missing.json"))).toThrow(/cannot read it as JSON/);
  });
});
