// Spec 5.3 and 7: public reads need a valid API token; without one, HTTP 401 and a JSON GraphQL error.
import { describe, expect, test } from "@jest/globals";
import { generateApiTokenSecret } from "../../lib/auth/api-tokens.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService();

const REGIONS = "{ p2000Regions { number } }";

// A change to a token reaches the server's token cache as a notification, a moment after the
// change commits: the next answers reflect it within that moment, far below the cache's 30 s.
const ANNOUNCED_MS = 2000;

function expectUnauthenticated(response: { status: number; body: any }, message: RegExp) {
  expect(response.status).toBe(401);
  expect(response.body.data).toBeUndefined();
  expect(response.body.errors).toHaveLength(1);
  expect(response.body.errors[0].message).toMatch(message);
  expect(response.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
}

describe("public read operations", () => {
  test("answer with data for a valid API token", async () => {
    const { secret } = await ctx.service.newToken();
    const response = await ctx.service.graphql(REGIONS, { token: secret });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.p2000Regions).toHaveLength(25);
  });

  test("answer 401 without a token", async () => {
    expectUnauthenticated(await ctx.service.graphql(REGIONS), /needs an API token/);
  });

  test("answer 401 for a value that is not a Bearer token", async () => {
    expectUnauthenticated(await ctx.service.graphql(REGIONS, { authorization: "Basic dXNlcjpwYXNz" }), /not valid/);
  });

  test("answer 401 for a token with a bad checksum, without a database lookup", async () => {
    const { secret } = await ctx.service.newToken();
    const tampered = secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A");
    expectUnauthenticated(await ctx.service.graphql(REGIONS, { token: tampered }), /not valid/);
  });

  test("answer 401 for a well-formed token that was never issued", async () => {
    expectUnauthenticated(await ctx.service.graphql(REGIONS, { token: generateApiTokenSecret() }), /not valid/);
  });

  test("answer 401 for a user access token (JWT): public reads need an API token", async () => {
    const jwtShaped = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
    expectUnauthenticated(await ctx.service.graphql(REGIONS, { token: jwtShaped }), /not valid/);
  });

  test("answer 401 once the token is revoked", async () => {
    const { uuid, secret } = await ctx.service.newToken();
    expect((await ctx.service.graphql(REGIONS, { token: secret })).status).toBe(200);
    await ctx.db.asOwner("select app_private.revoke_api_token($1)", [uuid]);
    const answer = await waitUntil(
      () => ctx.service.graphql(REGIONS, { token: secret }),
      (r) => r.status !== 200,
      "revocation",
      ANNOUNCED_MS,
    );
    expectUnauthenticated(answer, /not valid/);
  });

  test("refuse a revoked token whose announcement this instance missed: each request checks it in its own first statement", async () => {
    const { uuid, secret } = await ctx.service.newToken();
    expect(
      (await ctx.service.graphql("{ p2000Regions(first: 1) { number } }", { token: secret })).body.errors,
    ).toBeUndefined(); // cached now
    // Revoked without the announcement (as if the request arrived before the NOTIFY was read).
    await ctx.db.asOwner(`begin; alter table app_public.api_tokens disable trigger _900_notify_change;
      update app_public.api_tokens set revoked_at = now() where uuid = '${uuid}';
      alter table app_public.api_tokens enable trigger _900_notify_change; commit`);
    const { body } = await ctx.service.graphql("{ p2000Regions(first: 1) { number } }", { token: secret });
    expect(errorOf(body)).toEqual({
      message: "The API token is not valid (unknown, revoked or expired).",
      code: "UNAUTHENTICATED",
    });
  });

  test("answer 401 once the token has expired", async () => {
    const { uuid, secret } = await ctx.service.newToken({ validDays: 1 });
    expect((await ctx.service.graphql(REGIONS, { token: secret })).status).toBe(200);
    await ctx.db.asOwner("update app_public.api_tokens set expires_at = now() - interval '1 second' where uuid = $1", [
      uuid,
    ]);
    const answer = await waitUntil(
      () => ctx.service.graphql(REGIONS, { token: secret }),
      (r) => r.status !== 200,
      "expiry",
      ANNOUNCED_MS,
    );
    expectUnauthenticated(answer, /not valid/);
  });

  test("a change of scopes applies at once, although answers are cached", async () => {
    const { uuid, secret } = await ctx.service.newToken();
    const login = 'mutation { login(input: { email: "nobody@example.org", password: "whatever it is" }) { token } }';
    expect((await ctx.service.graphql(login, { token: secret })).body.errors![0].extensions!.code).toBe("FORBIDDEN");
    await ctx.db.asOwner("update app_public.api_tokens set scopes = '{auth:login}' where uuid = $1", [uuid]);
    const code = (r: { body: any }) => r.body.errors![0].extensions!.code;
    const answer = await waitUntil(
      () => ctx.service.graphql(login, { token: secret }),
      (r) => code(r) !== "FORBIDDEN",
      "the new scopes",
      ANNOUNCED_MS,
    );
    expect(code(answer)).toBe("INVALID_CREDENTIALS");
  });

  test("are found behind fragments and aliases too", async () => {
    const sneaky = "query { ...F } fragment F on Query { __typename r: p2000Regions { number } }";
    expectUnauthenticated(await ctx.service.graphql(sneaky), /needs an API token/);
  });

  test("record when a token was last used", async () => {
    const { uuid, secret } = await ctx.service.newToken();
    await ctx.service.graphql(REGIONS, { token: secret });
    const {
      rows: [row],
    } = await ctx.db.asOwner("select last_used_at from app_public.api_tokens where uuid = $1", [uuid]);
    expect(row.last_used_at).toBeInstanceOf(Date);
  });
});

describe("requests that need no API token", () => {
  test("introspection works without a token (the IDE needs it)", async () => {
    const response = await ctx.service.graphql("{ __schema { queryType { name } } }");
    expect(response.status).toBe(200);
    expect(response.body.data.__schema.queryType.name).toBe("Query");
  });

  test("the GraphiQL IDE is served", async () => {
    const response = await fetch(ctx.service.graphiqlUrl!, { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/ruru|graphiql/i);
  });
});
