// Request budgets: a token over its budget gets 429 with Retry-After and RATE_LIMITED while
// another token is served; an address over its budget is refused whatever it sends; two API
// instances on one database share the counts (each sees the other's hits within a flush).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { loadConfig, mergeConfig } from "../../lib/config.ts";
import { startService, type Service } from "../../service.ts";
import { TEST_JWT_SECRET, useTestService } from "../helpers/service.ts";
import { freePort } from "../helpers/ports.ts";
import { waitUntil } from "../helpers/wait.ts";
import { hashApiTokenSecret } from "../../lib/auth/api-tokens.ts";

const ctx = useTestService(() => ({
  http: { requestBudgets: { perToken: 5, perAddress: 1_000_000, trustProxy: true } },
}));

const QUERY = JSON.stringify({ query: "{ p2000Regions(first: 1) { number } }" });

async function post(url: string, token: string | undefined, forwardedFor = "192.0.2.1") {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-forwarded-for": forwardedFor,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: QUERY,
  });
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: (await response.json()) as any,
  };
}

let first: string;
let second: string;
beforeAll(async () => {
  first = (await ctx.service.newToken()).secret;
  second = (await ctx.service.newToken()).secret;
});

/**
 * Budgets start afresh at every minute of the clock, so a test whose requests must fall in one window
 * starts only with enough of the minute left for them (a slow machine takes seconds, not one).
 */
async function startWithSecondsLeftInTheMinute(seconds: number): Promise<void> {
  const now = new Date();
  const left = 60 - now.getSeconds() - now.getMilliseconds() / 1000;
  if (left < seconds) await new Promise((r) => setTimeout(r, (left + 0.5) * 1000));
}

describe("a budget per API token", () => {
  test("the sixth request of a minute is refused with 429, Retry-After and RATE_LIMITED; another token is served", async () => {
    await startWithSecondsLeftInTheMinute(15);
    for (let i = 0; i < 5; i++) expect((await post(ctx.service.graphqlUrl, first)).status).toBe(200);
    const refused = await post(ctx.service.graphqlUrl, first);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    expect(refused.body.errors[0]).toMatchObject({
      extensions: { code: "RATE_LIMITED", retryAfter: Number(refused.retryAfter) },
    });
    expect(refused.body.errors[0].message).toMatch(/API token's budget of 5 requests a minute/);
    const other = await post(ctx.service.graphqlUrl, second);
    expect(other.status).toBe(200);
    expect(other.body.data.p2000Regions).toHaveLength(1);
  });
});

describe("shared by API instances through PostgreSQL", () => {
  let other: Service;
  beforeAll(async () => {
    other = await startService(
      mergeConfig(loadConfig(), {
        http: {
          port: await freePort(),
          host: "127.0.0.1",
          requestBudgets: { perToken: 5, perAddress: 4, trustProxy: true },
        },
        log: { level: "warning" },
        accounts: { jwtSecret: TEST_JWT_SECRET },
        delivery: { smtpUrl: undefined },
      }),
      ctx.db,
    );
  });
  afterAll(async () => {
    await other?.stop();
  });

  test("hits counted by one instance are refused by the other after a flush", async () => {
    await startWithSecondsLeftInTheMinute(30);
    const token = (await ctx.service.newToken()).secret;
    for (let i = 0; i < 5; i++) expect((await post(ctx.service.graphqlUrl, token, "192.0.2.2")).status).toBe(200);
    // The first instance adds its five hits to the shared counter within a second or so.
    const bucket = `api:token:${hashApiTokenSecret(token).toString("hex")}`;
    await waitUntil(
      async () =>
        (
          await ctx.db.asOwner(
            "select coalesce(max(hits), 0)::int as n from app_private.rate_limit_counters where bucket = $1",
            [bucket],
          )
        ).rows[0].n,
      (n) => n >= 5,
      "the first instance's flush",
      20_000,
    );
    // The second learns the total at its next flush of a bucket it has seen: a request there makes
    // the token one. It has counted at most four of its own when it refuses, under the budget of
    // five: a refusal can only come from the shared count.
    expect((await post(other.graphqlUrl, token, "192.0.2.2")).status).toBe(200);
    let refused: Awaited<ReturnType<typeof post>> | undefined;
    for (let tries = 0; tries < 3 && refused?.status !== 429; tries++) {
      await new Promise((r) => setTimeout(r, 2000));
      refused = await post(other.graphqlUrl, token, "192.0.2.3");
    }
    expect(refused!.status).toBe(429);
    expect(refused!.body.errors[0].extensions.code).toBe("RATE_LIMITED");
  }, 90_000);

  test("an address over its budget is refused whatever token it sends", async () => {
    await startWithSecondsLeftInTheMinute(15);
    for (let i = 0; i < 4; i++) expect((await post(other.graphqlUrl, undefined, "198.51.100.7")).status).toBe(401);
    const refused = await post(other.graphqlUrl, second, "198.51.100.7");
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].message).toMatch(/address's budget of 4 requests a minute/);
    // Another address is still served.
    expect((await post(other.graphqlUrl, second, "198.51.100.8")).status).toBe(200);
  });
});
