// The token CLI as an operator runs it: a real process against a real database; the printed
// secret then works (or, once revoked, does not) against the real HTTP endpoint.
import { describe, expect, test } from "@jest/globals";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT_DIR } from "../../lib/paths.ts";
import { useTestService } from "../helpers/service.ts";

const ctx = useTestService();

const exec = promisify(execFile);

async function token(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [path.join(ROOT_DIR, "bin", "token.ts"), ...args], {
      cwd: ROOT_DIR,
      env: { ...process.env, DATABASE_URL: ctx.db.ownerUrl, NODE_OPTIONS: "" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const lastLine = (text: string) => text.trim().split("\n").at(-1)!;
const REGIONS = "{ p2000Regions(first: 1) { name } }";

describe("npm run token", () => {
  test("create prints a working secret on its last line, in the operator environment", async () => {
    const result = await token("create", "--name", "dashboard", "--scopes", "auth:login, auth:register");
    expect(result.code).toBe(0);
    const secret = lastLine(result.stdout);
    expect(secret).toMatch(/^nlis_[0-9A-Za-z]{46}$/);
    expect(result.stdout).toContain(ctx.db.operatorEnvironmentUuid);
    const response = await ctx.service.graphql(REGIONS, { token: secret });
    expect(response.status).toBe(200);
    const {
      rows: [row],
    } = await ctx.db.asOwner("select scopes, expires_at from app_public.api_tokens where name = 'dashboard'");
    expect(row).toEqual({ scopes: ["auth:login", "auth:register"], expires_at: null });
  });

  test("--valid-days sets the expiry and --environment the environment", async () => {
    const {
      rows: [env],
    } = await ctx.db.asOwner(`
      with o as (insert into app_public.organizations (name) values ('Acme') returning uuid)
      insert into app_public.environments (organization_uuid, name) select uuid, 'production' from o returning uuid`);
    const result = await token(
      "create",
      "--name",
      "short",
      "--scopes",
      "",
      "--valid-days",
      "7",
      "--environment",
      env.uuid,
    );
    expect(result.code).toBe(0);
    const {
      rows: [row],
    } = await ctx.db.asOwner(
      "select environment_uuid, round(extract(epoch from expires_at - now()) / 86400) as days from app_public.api_tokens where name = 'short'",
    );
    expect(row).toEqual({ environment_uuid: env.uuid, days: "7" });
  });

  test("list shows tokens with preview and state, never the secret", async () => {
    const created = await token("create", "--name", "listed", "--scopes", "auth:login");
    const secret = lastLine(created.stdout);
    const result = await token("list");
    expect(result.code).toBe(0);
    const line = result.stdout.split("\n").find((l) => l.includes('"listed"'))!;
    expect(line).toContain(`nlis_…${secret.slice(-4)}`);
    expect(line).toContain("active");
    expect(result.stdout).not.toContain(secret);
  });

  test("revoke makes the next request with the token a 401", async () => {
    const created = await token("create", "--name", "to-revoke", "--scopes", "");
    const secret = lastLine(created.stdout);
    const uuid = /API token ([0-9a-f-]{36})/.exec(created.stdout)![1];
    expect((await ctx.service.graphql(REGIONS, { token: secret })).status).toBe(200);
    const result = await token("revoke", uuid);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Revoked API token ${uuid}`);
    expect((await ctx.service.graphql(REGIONS, { token: secret })).status).toBe(401);
    expect((await token("list")).stdout.split("\n").find((l) => l.includes(uuid))).toMatch(/revoked/);
  });

  test.each([
    [["create", "--name", "x", "--scopes", "admin:everything"], 1, /Unknown scope\(s\): admin:everything/],
    [["create", "--name", "x", "--valid-days", "0"], 1, /validDays must be between 1 and 3650/],
    [["create", "--name", "x", "--valid-days", "soon"], 2, /--valid-days must be a whole number/],
    [["create", "--scopes", "auth:login"], 2, /create needs --name/],
    [["revoke", "not-a-uuid"], 2, /revoke needs the token's uuid/],
    [["revoke", "00000000-0000-0000-0000-000000000000"], 1, /API token not found/],
    [["frobnicate"], 2, /Unknown command/],
  ])("%j fails clearly (exit %i)", async (args, code, message) => {
    const result = await token(...args);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});
