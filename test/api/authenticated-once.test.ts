// Issue 46: a request is authenticated once. The response cache's shortcut before grafserv, the
// API-token rule in grafserv's request-body middleware and the GraphQL context all read the one
// authentication service.ts begins as the request arrives (lib/auth/context.ts, authenticateOnce).
// A user's access token is checked against its session in the database on every authentication
// (nothing caches it: logout takes effect at once), so the session checks that reach the database
// count the authentications: one per request, whatever path the request takes.
import { describe, expect, test } from "@jest/globals";
import pg from "pg";
import { useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

// The response cache on, so that a request passes its shortcut, grafserv and the context.
const ctx = useTestService(() => ({ api: { responseCache: { maxBytes: 4 * 1024 * 1024, maxAgeMs: 15_000 } } }));

/** Counts the statements sent through any pg pool of this process whose text names `fn`. */
async function statementsNaming<T>(fn: string, during: () => Promise<T>): Promise<{ count: number; result: T }> {
  const query = pg.Pool.prototype.query;
  let count = 0;
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    if (text?.includes(fn)) count++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    const result = await during();
    return { count, result };
  } finally {
    pg.Pool.prototype.query = query;
  }
}

const sessionChecks = <T>(during: () => Promise<T>) => statementsNaming("app_private.authenticate_session", during);

describe("one authentication per request", () => {
  let user: TestUser;
  test("a user's read is checked against the session once", async () => {
    user = await signUp(ctx.service, "once@example.org");
    const { count, result } = await sessionChecks(() =>
      ctx.service.graphql("{ me { email { address } } }", { token: user.accessToken }),
    );
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.me.email.address).toBe("once@example.org");
    expect(count).toBe(1);
  });

  test("so is the same read again (the response cache's shortcut looks, then grafserv answers)", async () => {
    const { count, result } = await sessionChecks(() =>
      ctx.service.graphql("{ me { email { address } } }", { token: user.accessToken }),
    );
    expect(result.body.data.me.email.address).toBe("once@example.org");
    expect(count).toBe(1);
  });

  test("a user's mutation is checked once", async () => {
    const { count, result } = await sessionChecks(() =>
      ctx.service.graphql("mutation { deleteOtherSessions }", { token: user.accessToken }),
    );
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.deleteOtherSessions).toBe(0);
    expect(count).toBe(1);
  });

  test("a public read with an API token is answered after one token check", async () => {
    // A token the API-token cache has not seen: its one lookup reaches the database.
    const { secret } = await ctx.service.newToken({ name: "once" });
    const { count, result } = await statementsNaming("app_private.authenticate_api_token", () =>
      ctx.service.graphql("{ p2000Regions { number } }", { token: secret }),
    );
    expect(result.body.errors).toBeUndefined();
    expect(count).toBe(1);
  });

  test("a token whose session has ended is found out with one check", async () => {
    await ctx.service.graphql("mutation { logout }", { token: user.accessToken });
    const { count, result } = await sessionChecks(() =>
      ctx.service.graphql("{ me { email { address } } }", { token: user.accessToken }),
    );
    expect(result.body.data.me).toBeNull();
    expect(count).toBe(1);
  });
});
