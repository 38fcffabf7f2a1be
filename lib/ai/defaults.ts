// aiDefaults: read-only configuration for clients that summarise incidents with a language model
// (models to offer, prompts, the placeholders the prompts use). Shipped as data/ai-defaults.json;
// AI_DEFAULTS_FILE replaces it. Checked once at start, so a broken file stops the start with the
// reason instead of answering nonsense. It holds no secrets: keys that look like credentials are
// refused.
import fs from "node:fs";
import path from "node:path";
import { ROOT_DIR } from "../paths.ts";

/** The shipped file; AI_DEFAULTS_FILE (config.aiDefaultsFile) replaces it. */
export const SHIPPED_AI_DEFAULTS = path.join(ROOT_DIR, "data", "ai-defaults.json");

export interface AiModel {
  id: string;
  provider: string;
  label: string;
  description: string | null;
}
export interface AiPrompt {
  key: string;
  label: string;
  system: string;
  user: string;
  placeholders: string[];
}
export interface AiPlaceholder {
  key: string;
  description: string;
  example: string;
}
export interface AiDefaults {
  defaultModel: string;
  models: AiModel[];
  prompts: AiPrompt[];
  placeholders: AiPlaceholder[];
}

const SECRET_KEY = /api.?key|secret|password|token|credential/i;

function fail(file: string, problem: string): never {
  throw new Error(`${file}: ${problem}`);
}

function texts(
  file: string,
  where: string,
  value: unknown,
  fields: string[],
  optional: string[] = [],
): Record<string, string | null> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(file, `${where} is not an object`);
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (SECRET_KEY.test(key)) fail(file, `${where}.${key}: no credentials in this file`);
  const result: Record<string, string | null> = {};
  for (const field of [...fields, ...optional]) {
    const text = record[field];
    if (text === undefined && optional.includes(field)) result[field] = null;
    else if (typeof text !== "string" || text.trim() === "") fail(file, `${where}.${field} must be a non-empty string`);
    else result[field] = text;
  }
  return result;
}

function list(file: string, value: unknown, name: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0) fail(file, `"${name}" must be a non-empty array`);
  return value;
}

export function loadAiDefaults(file: string): AiDefaults {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    fail(file, `cannot read it as JSON (${(error as Error).message})`);
  }
  const models = list(file, json.models, "models").map(
    (m, i) => texts(file, `models[${i}]`, m, ["id", "provider", "label"], ["description"]) as unknown as AiModel,
  );
  const placeholders = list(file, json.placeholders, "placeholders").map(
    (p, i) => texts(file, `placeholders[${i}]`, p, ["key", "description", "example"]) as unknown as AiPlaceholder,
  );
  const known = new Set(placeholders.map((p) => p.key));
  const prompts = list(file, json.prompts, "prompts").map((p, i) => {
    const prompt = texts(file, `prompts[${i}]`, p, ["key", "label", "system", "user"]);
    const used = (p as { placeholders?: unknown }).placeholders;
    if (!Array.isArray(used) || used.some((key) => typeof key !== "string" || !known.has(key))) {
      fail(file, `prompts[${i}].placeholders must name placeholders of the "placeholders" list`);
    }
    // Every {{name}} in the texts is a declared placeholder, so a client can fill them all.
    for (const [, key] of `${prompt.system}\n${prompt.user}`.matchAll(/\{\{(\w+)\}\}/g)) {
      if (!used.includes(key)) fail(file, `prompts[${i}] uses {{${key}}} without listing it in its placeholders`);
    }
    return { ...prompt, placeholders: used } as AiPrompt;
  });
  const defaultModel = json.defaultModel;
  if (typeof defaultModel !== "string" || !models.some((m) => m.id === defaultModel))
    fail(file, `"defaultModel" must be the id of one of the models`);
  return { defaultModel, models, prompts, placeholders };
}
