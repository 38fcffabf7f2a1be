// The web application's credential (docs/web.md): the service makes it once, an ordinary API token
// with the auth scopes that GET /web/config.json hands to every page; it reads public data and
// logs people in; the token CLI rotates it (the old secret refused at once) and revokes it (pages
// get none, and a restart makes none); its requests spend their addresses' budgets, not a shared
// token budget, and its subscriptions count per address; under WEB_REQUIRE_SIGN_IN it serves the
// auth operations only and a signed-in user reads with an API token of their own.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import pg from "pg";
import { ensureWebClientToken } from "../../lib/auth/web-client-token.ts";
import type { ConfigOverrides } from "../../lib/config.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { untilHeard, watch, type Watch } from "../helpers/live-clients.ts";
import { errorOf, startTestService, useTestService, type TestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService();

const PUBLIC_READ = "{ p2000Regions { number } }";
const REGISTER =
  "mutation ($e: String!, $p: String) { register(input: { email: $e, password: $p }) { user { uuid } } }";
const LOGIN = "mutation ($e: String!, $p: String!) { login(input: { email: $e, password: $p }) { token } }";
const NEW_MESSAGES = "subscription { p2000Messages { uuid message } }";
const PASSWORD = "a long enough password";

interface WebConfig {
  graphqlPath: string;
  apiToken: string | null;
  requireSignIn: boolean;
  mapStyleUrl: string | null;
}

async function webConfig(service: TestService = ctx.service): Promise<WebConfig> {
  const response = await fetch(new URL("/web/config.json", service.url));
  expect(response.status).toBe(200);
  return (await response.json()) as WebConfig;
}

/** The API token rows named web-client, oldest first. */
async function webClientTokens() {
  const { rows } = await ctx.db.asOwner<{ uuid: string; scopes: string[]; revoked_at: Date | null }>(
    "select uuid, scopes, revoked_at from app_public.api_tokens where name = 'web-client' order by created",
  );
  return rows;
}

const token = (cli: { stdout: string; stderr: string; code: number | null }) => {
  expect(cli).toMatchObject({ code: 0, stderr: "" });
  return cli.stdout;
};

/** Waits until this instance's config hands out something else than `than` (its cache hears the change). */
const configChangedFrom = (than: string | null, service: TestService = ctx.service) =>
  waitUntil(
    () => webConfig(service),
    (config) => config.apiToken !== than,
    "the page's configuration to change",
  );

async function post(service: TestService, bearer: string | undefined, address: string) {
  const response = await fetch(service.graphqlUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-forwarded-for": address,
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify({ query: PUBLIC_READ }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** Budgets start afresh every minute of the clock: a test of one window needs enough of it left. */
async function startWithSecondsLeftInTheMinute(seconds: number): Promise<void> {
  const now = new Date();
  const left = 60 - now.getSeconds() - now.getMilliseconds() / 1000;
  if (left < seconds) await new Promise((r) => setTimeout(r, (left + 0.5) * 1000));
}

/** Another API instance on the same database, with its own settings. */
function useInstance(overrides: ConfigOverrides): { service: TestService } {
  const context = {} as { service: TestService };
  beforeAll(async () => {
    context.service = await startTestService(ctx.db, { processRole: "api", ...overrides });
  });
  afterAll(async () => {
    await context.service?.stop();
  });
  return context;
}

let sequence = 0;
const probe = () =>
  storeP2000Pages(ctx.db, [
    {
      message: `A2 Ambulance probe ${++sequence} Utrecht 12345`,
      sended: new Date().toISOString(),
      capcodes: ["0923001"],
    },
  ]);

describe("the credential the service makes", () => {
  test("the page's configuration hands out a token that reads public data and logs people in", async () => {
    const config = await webConfig();
    expect(config).toMatchObject({ graphqlPath: "/graphql", requireSignIn: false });
    expect(config.apiToken).toMatch(/^nlis_/);
    const read = await ctx.service.graphql(PUBLIC_READ, { token: config.apiToken! });
    expect(read.status).toBe(200);
    expect(read.body.data.p2000Regions.length).toBeGreaterThan(0);

    const variables = { e: "visitor@example.org", p: PASSWORD };
    const registered = await ctx.service.graphql(REGISTER, { token: config.apiToken!, variables });
    expect(registered.body.errors).toBeUndefined();
    const login = await ctx.service.graphql(LOGIN, { token: config.apiToken!, variables });
    expect(login.body.errors).toBeUndefined();
    expect(login.body.data.login.token).toMatch(/^ey/);
  });

  test("it is an ordinary token of the operator environment with exactly the auth scopes, listed like any", async () => {
    const [row, ...others] = await webClientTokens();
    expect(others).toEqual([]);
    expect(row.scopes).toEqual(["auth:login", "auth:password_reset", "auth:register"]);
    const list = token(await runCli("token.ts", ["list"], ctx.db.ownerUrl));
    expect(list).toMatch(
      new RegExp(`^${row.uuid}  nlis_…\\w{4}  "web-client"  auth:login,auth:password_reset,auth:register  active`, "m"),
    );
  });

  test("another instance starting on the same database keeps the same credential", async () => {
    const before = (await webConfig()).apiToken;
    const other = await startTestService(ctx.db, { processRole: "api" });
    try {
      expect((await webConfig(other)).apiToken).toBe(before);
    } finally {
      await other.stop();
    }
    expect(await webClientTokens()).toHaveLength(1);
  });

  test("instances starting at once on a new installation make one credential between them", async () => {
    const fresh = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: fresh.ownerUrl, max: 6 });
    try {
      const made = await Promise.all(Array.from({ length: 6 }, () => ensureWebClientToken(pool)));
      expect(made.filter(Boolean)).toHaveLength(1);
      const { rows } = await pool.query(
        "select (select count(*)::int from app_public.api_tokens where name = 'web-client') as tokens, (select count(*)::int from app_private.web_client_token) as kept",
      );
      expect(rows[0]).toEqual({ tokens: 1, kept: 1 });
    } finally {
      await pool.end();
      await fresh.drop();
    }
  });
});

describe("rotate and revoke with the token CLI", () => {
  test("rotate: the old secret is refused at once, and pages get the new one", async () => {
    const old = (await webConfig()).apiToken!;
    const output = token(await runCli("token.ts", ["web-client", "rotate"], ctx.db.ownerUrl));
    expect(output).toMatch(/^Rotated the web-client credential: API token [0-9a-f-]{36} nlis_…\w{4}\./m);
    expect(output).not.toMatch(/nlis_\w{46}/); // the preview, not the secret

    const refused = await ctx.service.graphql(PUBLIC_READ, { token: old });
    expect(refused.status).toBe(401);
    expect(errorOf(refused.body).code).toBe("UNAUTHENTICATED");
    const config = await configChangedFrom(old);
    expect(config.apiToken).toMatch(/^nlis_/);
    expect(output).toContain(config.apiToken!.slice(-4));
    expect((await ctx.service.graphql(PUBLIC_READ, { token: config.apiToken! })).status).toBe(200);
    expect((await webClientTokens()).map((t) => t.revoked_at === null)).toEqual([false, true]);
  });

  test("revoke: pages get no credential, a restart makes none, and rotate brings one back", async () => {
    const old = (await webConfig()).apiToken!;
    const output = token(await runCli("token.ts", ["web-client", "revoke"], ctx.db.ownerUrl));
    expect(output).toMatch(/^Revoked the web-client credential: API token /m);
    expect((await configChangedFrom(old)).apiToken).toBeNull();
    expect((await ctx.service.graphql(PUBLIC_READ, { token: old })).status).toBe(401);
    // The nightly purge deletes revoked tokens; the installation still remembers it had one.
    await ctx.db.asOwner("select app_private.purge_stale_api_tokens(interval '0 seconds')");
    expect(await webClientTokens()).toEqual([]);
    const { rows: kept } = await ctx.db.asOwner("select api_token_uuid, secret from app_private.web_client_token");
    expect(kept).toEqual([{ api_token_uuid: null, secret: null }]);

    const restarted = await startTestService(ctx.db, { processRole: "api" });
    try {
      expect((await webConfig(restarted)).apiToken).toBeNull();
    } finally {
      await restarted.stop();
    }
    expect(await webClientTokens()).toEqual([]);

    token(await runCli("token.ts", ["web-client", "rotate"], ctx.db.ownerUrl));
    const back = await configChangedFrom(null);
    expect((await ctx.service.graphql(PUBLIC_READ, { token: back.apiToken! })).status).toBe(200);
  });

  test("a wrong web-client command is a usage error", async () => {
    const wrong = await runCli("token.ts", ["web-client", "renew"], ctx.db.ownerUrl);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/web-client needs rotate or revoke\.\nUsage:/);
    expect(wrong.stderr).toContain("npm run token -- web-client rotate");
  });
});

describe("request budgets", () => {
  const instance = useInstance({ http: { requestBudgets: { perToken: 5, perAddress: 1_000_000, trustProxy: true } } });

  test("the web-client token spends no token budget: every visitor may read; an ordinary token is limited", async () => {
    await startWithSecondsLeftInTheMinute(20);
    const webClient = (await webConfig(instance.service)).apiToken!;
    for (let i = 0; i < 8; i++) {
      const visitor = `203.0.113.${i + 1}`;
      expect((await post(instance.service, webClient, visitor)).status).toBe(200);
    }
    // One address may send more than the token budget too.
    for (let i = 0; i < 3; i++) expect((await post(instance.service, webClient, "203.0.113.1")).status).toBe(200);
    const ordinary = (await ctx.service.newToken()).secret;
    for (let i = 0; i < 5; i++) expect((await post(instance.service, ordinary, "203.0.113.20")).status).toBe(200);
    const refused = await post(instance.service, ordinary, "203.0.113.21");
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].message).toMatch(/API token's budget of 5/);
  });

  describe("with a small budget per address", () => {
    const small = useInstance({ http: { requestBudgets: { perToken: 1_000_000, perAddress: 3, trustProxy: true } } });

    test("the web-client token is limited per address", async () => {
      await startWithSecondsLeftInTheMinute(15);
      const webClient = (await webConfig(small.service)).apiToken!;
      for (let i = 0; i < 3; i++) expect((await post(small.service, webClient, "198.51.100.40")).status).toBe(200);
      const refused = await post(small.service, webClient, "198.51.100.40");
      expect(refused.status).toBe(429);
      expect(refused.body.errors[0]).toMatchObject({ extensions: { code: "RATE_LIMITED" } });
      expect(refused.body.errors[0].message).toMatch(/address's budget of 3/);
      expect((await post(small.service, webClient, "198.51.100.41")).status).toBe(200);
    });
  });
});

describe("subscriptions", () => {
  const PER_TOKEN = 2;
  // Its own limit, above an ordinary token's: one map page holds up to 17.
  const PER_ADDRESS = 3;
  const instance = useInstance({
    api: { subscriptionsPerToken: PER_TOKEN, subscriptionsPerWebClientAddress: PER_ADDRESS },
    http: { requestBudgets: { trustProxy: true } },
  });

  test(`the web-client token's subscriptions count per address (${PER_ADDRESS} each)`, async () => {
    const webClient = (await webConfig(instance.service)).apiToken!;
    const from = (address: string, transport: "websocket" | "sse") =>
      watch(transport, instance.service.graphqlUrl, {
        token: webClient,
        query: NEW_MESSAGES,
        headers: { "x-forwarded-for": address },
      });
    const open: Watch[] = [from("192.0.2.50", "websocket"), from("192.0.2.50", "sse"), from("192.0.2.50", "websocket")];
    try {
      await untilHeard(() => Math.min(...open.map((subscriber) => subscriber.events.length)), probe);
      const extra = from("192.0.2.50", "sse");
      open.push(extra);
      await waitUntil(() => extra.ended, Boolean, "the refusal");
      expect(extra.errors.map((e) => e.code)).toEqual(["TOO_MANY_SUBSCRIPTIONS"]);
      expect(extra.errors[0].message).toMatch(
        /address 192\.0\.2\.50 .*web-client.*WEB_CLIENT_SUBSCRIPTIONS_PER_ADDRESS/,
      );
      // Another visitor, the same token: served.
      const other = from("192.0.2.51", "websocket");
      open.push(other);
      await untilHeard(() => other.events.length, probe);
      expect(other.errors).toEqual([]);
    } finally {
      await Promise.all(open.map((subscriber) => subscriber.stop()));
    }
  });
});

describe("WEB_REQUIRE_SIGN_IN", () => {
  const instance = useInstance({ web: { requireSignIn: true } });

  test("the configuration says so, and the web-client token serves the auth operations only", async () => {
    const config = await webConfig(instance.service);
    expect(config.requireSignIn).toBe(true);
    const webClient = config.apiToken!;
    const refused = await instance.service.graphql(PUBLIC_READ, { token: webClient });
    expect(refused.status).toBe(403);
    expect(errorOf(refused.body).code).toBe("FORBIDDEN");
    expect(errorOf(refused.body).message).toMatch(/signed-in users.*your own API token/);
    expect(refused.body.data ?? null).toBeNull();
    // What the sign-in screens read (where e-mail goes) it still may; with a public read beside it, not.
    const screen = await instance.service.graphql("{ installation { emailDelivery } }", { token: webClient });
    expect(screen.body).toEqual({ data: { installation: { emailDelivery: "log" } } });
    const mixed = await instance.service.graphql("{ installation { emailDelivery } p2000Regions { number } }", {
      token: webClient,
    });
    expect(mixed.status).toBe(403);

    const live = watch("sse", instance.service.graphqlUrl, { token: webClient, query: NEW_MESSAGES });
    await waitUntil(() => live.ended, Boolean, "the subscription's refusal");
    expect(live.errors.map((e) => e.code)).toEqual(["FORBIDDEN"]);

    // The same token still reads on an instance without the setting: the setting is the instance's.
    expect((await ctx.service.graphql(PUBLIC_READ, { token: webClient })).status).toBe(200);
  });

  test("a person registers and logs in with it, makes an API token of their own and reads with that", async () => {
    const webClient = (await webConfig(instance.service)).apiToken!;
    const variables = { e: "signed-in@example.org", p: PASSWORD };
    const registered = await instance.service.graphql(REGISTER, { token: webClient, variables });
    expect(registered.body.errors).toBeUndefined();
    const login = await instance.service.graphql(LOGIN, { token: webClient, variables });
    expect(login.body.errors).toBeUndefined();
    const created = await instance.service.graphql(
      'mutation { createApiToken(input: { name: "web page", validDays: 1 }) { plainToken } }',
      { token: login.body.data.login.token },
    );
    expect(created.body.errors).toBeUndefined();
    const own = created.body.data.createApiToken.plainToken as string;
    await probe();
    const read = await instance.service.graphql("{ p2000Messages(first: 5) { uuid message } }", { token: own });
    expect(read.status).toBe(200);
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.p2000Messages.length).toBeGreaterThan(0);
  });
});
