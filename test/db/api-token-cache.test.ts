// The API-token cache on a real database: answers are reused, and a change announced on
// api_token_changed (as the trigger on api_tokens does) makes the next lookup ask again.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import type pg from "pg";
import { resilientPool } from "../../lib/db/pool.ts";
import { ApiTokenCache } from "../../lib/auth/api-token-cache.ts";
import { useTestDatabase } from "../helpers/database.ts";
import { waitUntil } from "../helpers/wait.ts";

let pool: pg.Pool;
afterAll(async () => {
  await pool?.end(); // before the database is dropped
});
const ctx = useTestDatabase();
beforeAll(() => {
  pool = resilientPool({ connectionString: ctx.db.ownerUrl, max: 3 });
  pool.on("error", () => {});
});

const TOKEN = "7f3c2a9e-1111-4222-8333-944455556666";
/** A loader that counts its calls, answering a grant (or nothing). */
function loader(grant: { expiresAt: Date | null } | null = { expiresAt: null }) {
  const calls = { n: 0 };
  const load = async () => {
    calls.n++;
    return (
      grant && {
        apiTokenUuid: TOKEN,
        environmentUuid: ctx.db.operatorEnvironmentUuid,
        scopes: ["auth:login"],
        webClient: false,
        expiresAt: grant.expiresAt,
      }
    );
  };
  return { calls, load };
}

test("a started cache answers again from memory until the token's change is announced", async () => {
  const cache = new ApiTokenCache(pool);
  await cache.start();
  try {
    const { calls, load } = loader();
    const first = await cache.lookup("aa", load);
    expect(await cache.lookup("aa", load)).toEqual(first);
    expect(calls.n).toBe(1);
    await pool.query("select pg_notify('api_token_changed', $1)", [TOKEN]);
    await waitUntil(
      async () => (await cache.lookup("aa", load), calls.n),
      (n) => n === 2,
      "the announcement to evict the token",
    );
  } finally {
    await cache.stop();
  }
});

test("unknown secrets are remembered until any token changes; expiring tokens only until they expire", async () => {
  const cache = new ApiTokenCache(pool);
  await cache.start();
  try {
    const unknown = loader(null);
    expect(await cache.lookup("bb", unknown.load)).toBeNull();
    await cache.lookup("bb", unknown.load);
    expect(unknown.calls.n).toBe(1);
    await pool.query("select pg_notify('api_token_changed', gen_random_uuid()::text)");
    await waitUntil(
      async () => (await cache.lookup("bb", unknown.load), unknown.calls.n),
      (n) => n === 2,
      "any change to forget unknown secrets",
    );

    const expired = loader({ expiresAt: new Date(Date.now() - 1) });
    await cache.lookup("cc", expired.load);
    await cache.lookup("cc", expired.load);
    expect(expired.calls.n).toBe(2);
  } finally {
    await cache.stop();
  }
});

test("without a listener nothing is cached", async () => {
  const cache = new ApiTokenCache(pool);
  const { calls, load } = loader();
  await cache.lookup("dd", load);
  await cache.lookup("dd", load);
  expect(calls.n).toBe(2);
});
