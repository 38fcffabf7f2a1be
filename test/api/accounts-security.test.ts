// The account rules that protect people: scopes, credential errors, lockout, rate limits, token
// hygiene (JWT forgery, refresh-token reuse), session ending, and tenant isolation. E-mail goes to
// the outbox here (no SMTP_URL), as in the embedded default.
import { beforeAll, describe, expect, test } from "@jest/globals";
import jwt from "jsonwebtoken";
import pg from "pg";
import { errorOf, useTestService, TEST_JWT_SECRET } from "../helpers/service.ts";

const ctx = useTestService();
let allScopes: string; // API token with every auth scope
let noScopes: string; // API token without scopes

beforeAll(async () => {
  allScopes = (await ctx.service.newToken({ scopes: ["auth:login", "auth:register", "auth:password_reset"] })).secret;
  noScopes = (await ctx.service.newToken({ scopes: [] })).secret;
});

async function gql(query: string, token?: string, variables?: Record<string, unknown>) {
  return (await ctx.service.graphql(query, { token, variables })).body;
}

async function register(email: string, password = "a long enough password") {
  const body = await gql(
    "mutation ($e: String!, $p: String) { register(input: { email: $e, password: $p }) { user { uuid } organization { uuid } environment { uuid } } }",
    allScopes,
    { e: email, p: password },
  );
  expect(body.errors).toBeUndefined();
  return body.data.register;
}

async function login(email: string, password = "a long enough password") {
  const body = await gql(
    "mutation ($e: String!, $p: String!) { login(input: { email: $e, password: $p }) { token refreshToken } }",
    allScopes,
    { e: email, p: password },
  );
  expect(body.errors).toBeUndefined();
  return body.data.login as { token: string; refreshToken: string };
}

describe("scopes", () => {
  test.each([
    ["register", 'mutation { register(input: { email: "s@example.org" }) { user { uuid } } }', "auth:register"],
    ["login", 'mutation { login(input: { email: "s@example.org", password: "x" }) { token } }', "auth:login"],
    [
      "requestMagicLinkLogin",
      'mutation { requestMagicLinkLogin(email: "s@example.org", returnTo: "http://localhost/") }',
      "auth:login",
    ],
    ["requestPasswordReset", 'mutation { requestPasswordReset(email: "s@example.org") }', "auth:password_reset"],
  ])("%s needs an API token holding its scope", async (_name, mutation, scope) => {
    expect(errorOf(await gql(mutation))).toEqual({
      message: `This operation needs an API token with scope ${scope}: send Authorization: Bearer <API token>.`,
      code: "UNAUTHENTICATED",
    });
    expect(errorOf(await gql(mutation, noScopes))).toEqual({
      message: `This API token lacks the scope ${scope}.`,
      code: "FORBIDDEN",
    });
  });
});

describe("registration", () => {
  test("without a password, with defaults, and a verification e-mail kept in the outbox", async () => {
    const body = await gql(
      `mutation { register(input: { email: "Nopass@Example.org" }) {
      user { displayName hasPassword email { address verified } } organization { name } environment { name } } }`,
      allScopes,
    );
    expect(body.data.register).toEqual({
      user: { displayName: "nopass", hasPassword: false, email: { address: "nopass@example.org", verified: false } },
      organization: { name: "nopass's organization" },
      environment: { name: "production" },
    });
    const deadline = Date.now() + 10_000;
    let outbox: any[] = [];
    while (Date.now() < deadline && outbox.length === 0) {
      ({ rows: outbox } = await ctx.db.asOwner(
        "select status, text_body from app_private.emails where to_address = 'nopass@example.org' and status = 'outbox'",
      ));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(outbox[0].text_body).toMatch(/\/auth\/verify-email\?token=nlot_/);
  });

  test.each([
    ["an address taken", "nopass@example.org", null, "CONFLICT"],
    ["not an e-mail address", "not-an-address", null, "BAD_USER_INPUT"],
    ["a short password", "short@example.org", "short", "BAD_USER_INPUT"],
    ["a password with the address in it", "margaret@example.org", "margaret-1234567", "BAD_USER_INPUT"],
  ])("refuses %s", async (_what, email, password, code) => {
    const body = await gql(
      "mutation ($e: String!, $p: String) { register(input: { email: $e, password: $p }) { user { uuid } } }",
      allScopes,
      { e: email, p: password },
    );
    expect(errorOf(body).code).toBe(code);
  });
});

describe("login", () => {
  beforeAll(async () => {
    await register("lock@example.org");
  });

  test("a wrong password and an unknown address get the same answer", async () => {
    const wrong = errorOf(
      await gql(
        'mutation { login(input: { email: "lock@example.org", password: "wrong password!" }) { token } }',
        allScopes,
      ),
    );
    const unknown = errorOf(
      await gql(
        'mutation { login(input: { email: "ghost@example.org", password: "wrong password!" }) { token } }',
        allScopes,
      ),
    );
    expect(wrong).toEqual({ message: "These credentials do not match our records.", code: "INVALID_CREDENTIALS" });
    expect(unknown).toEqual(wrong);
  });

  test("failures are counted although the request fails, and five lock the address", async () => {
    for (let attempt = 2; attempt <= 5; attempt++) {
      await gql(
        'mutation { login(input: { email: "lock@example.org", password: "wrong password!" }) { token } }',
        allScopes,
      );
    }
    const {
      rows: [failures],
    } = await ctx.db.asOwner(
      "select failed_count, locked_until > now() as locked from app_private.login_failures where email_address = 'lock@example.org'",
    );
    expect(failures).toEqual({ failed_count: 5, locked: true });
    const right = errorOf(
      await gql(
        'mutation { login(input: { email: "lock@example.org", password: "a long enough password" }) { token } }',
        allScopes,
      ),
    );
    expect(right.code).toBe("RATE_LIMITED");
    await ctx.db.asOwner(
      "update app_private.login_failures set locked_until = now() - interval '1 second' where email_address = 'lock@example.org'",
    );
    await login("lock@example.org"); // the lock expires; a success clears the failures
    const { rows } = await ctx.db.asOwner(
      "select 1 from app_private.login_failures where email_address = 'lock@example.org'",
    );
    expect(rows).toEqual([]);
  });

  test("an unknown address is locked the same way: a lock tells nothing about who has an account", async () => {
    const attempt = (email: string) =>
      gql(`mutation { login(input: { email: "${email}", password: "wrong password!" }) { token } }`, allScopes);
    const known: unknown[] = [];
    const unknown: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      known.push(errorOf(await attempt("lock@example.org")));
      unknown.push(errorOf(await attempt("nobody-lock@example.org")));
    }
    expect(unknown).toEqual(known);
    expect(known.at(-1)).toEqual({ message: expect.stringMatching(/locked/), code: "RATE_LIMITED" });
  });
});

describe("password reset requests", () => {
  const ask = (email: string) =>
    gql("mutation ($e: String!) { requestPasswordReset(email: $e) }", allScopes, { e: email });

  test("answer the same for known and unknown addresses, and e-mail only the known", async () => {
    await register("reset@example.org");
    const known = await ask("reset@example.org");
    const unknown = await ask("nobody-here@example.org");
    expect(known).toEqual(unknown);
    expect(known.data.requestPasswordReset).toBe(
      "If an account exists for that address, we have sent it a link to reset the password.",
    );
    const { rows } = await ctx.db.asOwner(
      "select to_address::text from app_private.emails where subject = 'Reset your password'",
    );
    expect(rows.map((r) => r.to_address)).toEqual(["reset@example.org"]);
  });

  test("are limited per address, known or not", async () => {
    for (let i = 0; i < 2; i++) await ask("nobody-here@example.org");
    expect(errorOf(await ask("nobody-here@example.org"))).toEqual({
      message: "Too many requests; try again later.",
      code: "RATE_LIMITED",
    });
  });

  test("are limited per client", async () => {
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(errorOf(await ask(`client-${i}@example.org`)).code);
    expect(answers.at(-1)).toBe("RATE_LIMITED");
  });

  test("resetPassword refuses unknown tokens and is rate limited per client", async () => {
    const codes = [];
    for (let i = 0; i < 11; i++) {
      codes.push(
        errorOf(
          await gql(`mutation { resetPassword(token: "nlot_${"A".repeat(43)}", newPassword: "whatever password") }`),
        ).code,
      );
    }
    expect(codes.slice(0, 10)).toEqual(Array(10).fill("UNAUTHENTICATED"));
    expect(codes[10]).toBe("RATE_LIMITED");
  });
});

describe("token hygiene", () => {
  let user: { uuid: string };
  beforeAll(async () => {
    ({ user } = await register("tokens@example.org"));
  });

  const me = async (token: string) => (await gql("{ me { uuid } sessionValid }", token)).data;

  test("a replayed refresh token ends its whole family", async () => {
    const first = await login("tokens@example.org");
    const second = (await gql("mutation { refreshToken { accessToken refreshToken } }", first.refreshToken)).data
      .refreshToken;
    expect(await me(second.accessToken)).toEqual({ me: { uuid: user.uuid }, sessionValid: true });
    const replay = errorOf(await gql("mutation { refreshToken { accessToken } }", first.refreshToken));
    expect(replay).toEqual({
      message: "The refresh token was already used; the session has been ended. Log in again.",
      code: "UNAUTHENTICATED",
    });
    expect(errorOf(await gql("mutation { refreshToken { accessToken } }", second.refreshToken)).code).toBe(
      "UNAUTHENTICATED",
    );
    expect(await me(second.accessToken)).toEqual({ me: null, sessionValid: false });
  });

  test("access and refresh tokens are not interchangeable", async () => {
    const pair = await login("tokens@example.org");
    expect(errorOf(await gql("mutation { refreshToken { accessToken } }", pair.token))).toEqual({
      message: "An access token cannot refresh: send the refresh token as Bearer.",
      code: "UNAUTHENTICATED",
    });
    expect(await me(pair.refreshToken)).toEqual({ me: null, sessionValid: false });
    expect(errorOf(await gql("mutation { refreshToken { accessToken } }")).code).toBe("UNAUTHENTICATED");
  });

  test("forged, unsigned, expired and foreign-audience JWTs are refused", async () => {
    const pair = await login("tokens@example.org");
    const claims = jwt.decode(pair.token) as jwt.JwtPayload;
    const unsigned = [
      Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url"),
      Buffer.from(JSON.stringify(claims)).toString("base64url"),
      "",
    ].join(".");
    const { sid, typ, sub, iss, aud } = claims;
    const forged = jwt.sign({ sid, typ }, "another-secret-of-sufficient-length!", {
      subject: sub,
      issuer: iss,
      audience: aud as string,
    });
    const expired = jwt.sign({ sid, typ }, TEST_JWT_SECRET, {
      subject: sub,
      issuer: iss,
      audience: aud as string,
      expiresIn: -10,
    });
    const foreign = jwt.sign({ sid, typ }, TEST_JWT_SECRET, { subject: sub, issuer: iss, audience: "someone-else" });
    const hs512 = jwt.sign({ sid, typ }, TEST_JWT_SECRET, {
      subject: sub,
      issuer: iss,
      audience: aud as string,
      algorithm: "HS512",
    });
    for (const token of [unsigned, forged, expired, foreign, hs512]) {
      expect(await me(token)).toEqual({ me: null, sessionValid: false });
    }
    expect(await me(pair.token)).toEqual({ me: { uuid: user.uuid }, sessionValid: true });
  });

  test("deleteSession and deleteOtherSessions end sessions at once", async () => {
    const a = await login("tokens@example.org");
    const b = await login("tokens@example.org");
    const c = await login("tokens@example.org");
    const sessions = (await gql("{ mySessions { uuid isCurrent } }", a.token)).data.mySessions;
    const current = sessions.filter((s: any) => s.isCurrent);
    expect(current).toHaveLength(1);
    const bUuid = (jwt.decode(b.token) as jwt.JwtPayload).sid;
    expect(
      (await gql("mutation ($u: String!) { deleteSession(uuid: $u) }", a.token, { u: bUuid })).data.deleteSession,
    ).toBe(true);
    expect(await me(b.token)).toEqual({ me: null, sessionValid: false });
    const ended = (await gql("mutation { deleteOtherSessions }", a.token)).data.deleteOtherSessions;
    expect(ended).toBeGreaterThanOrEqual(1);
    expect(await me(c.token)).toEqual({ me: null, sessionValid: false });
    expect(await me(a.token)).toEqual({ me: { uuid: user.uuid }, sessionValid: true });
    expect((await gql("{ mySessions { uuid } }", a.token)).data.mySessions).toHaveLength(1);
  });
});

describe("tenant isolation", () => {
  let alice: { token: string; organization: string; environment: string; apiToken: string; session: string };
  let bob: { token: string };

  beforeAll(async () => {
    const a = await register("alice@example.org");
    const aliceLogin = await login("alice@example.org");
    const created = await gql(
      'mutation { createApiToken(input: { name: "alice" }) { token { uuid } } }',
      aliceLogin.token,
    );
    alice = {
      token: aliceLogin.token,
      organization: a.organization.uuid,
      environment: a.environment.uuid,
      apiToken: created.data.createApiToken.token.uuid,
      session: (jwt.decode(aliceLogin.token) as jwt.JwtPayload).sid,
    };
    await register("bob@example.org");
    bob = { token: (await login("bob@example.org")).token };
  });

  test("another user sees none of it and changes none of it", async () => {
    const orgs = (await gql("{ myOrganizations { uuid } }", bob.token)).data.myOrganizations.map((o: any) => o.uuid);
    expect(orgs).not.toContain(alice.organization);
    const attempts: Array<[string, Record<string, unknown>]> = [
      [
        'mutation ($u: String!) { updateOrganization(input: { uuid: $u, name: "pwned" }) { uuid } }',
        { u: alice.organization },
      ],
      [
        'mutation ($u: String!) { createEnvironment(input: { organizationUuid: $u, name: "pwned" }) { uuid } }',
        { u: alice.organization },
      ],
      ["mutation ($u: String!) { setCurrentEnvironment(environmentUuid: $u) { uuid } }", { u: alice.environment }],
      ["mutation ($u: String!) { switchEnvironment(environmentUuid: $u) { accessToken } }", { u: alice.environment }],
      ["mutation ($u: String!) { deleteSession(uuid: $u) }", { u: alice.session }],
      ['mutation ($u: String!) { updateApiToken(uuid: $u, name: "pwned") { uuid } }', { u: alice.apiToken }],
      ["mutation ($u: String!) { deleteApiToken(uuid: $u) }", { u: alice.apiToken }],
    ];
    for (const [mutation, variables] of attempts) {
      expect(errorOf(await gql(mutation, bob.token, variables)).code).toBe("NOT_FOUND");
    }
    expect(
      (await gql("query ($u: String!) { apiToken(uuid: $u) { uuid } }", bob.token, { u: alice.apiToken })).data
        .apiToken,
    ).toBeNull();
    expect((await gql("{ apiTokens { uuid } }", bob.token)).data.apiTokens).toEqual([]);
    // Alice still has everything, unchanged.
    expect(
      (await gql("{ me { email { address } } apiTokens { uuid name } myOrganizations { uuid name } }", alice.token))
        .data,
    ).toEqual({
      me: { email: { address: "alice@example.org" } },
      apiTokens: [{ uuid: alice.apiToken, name: "alice" }],
      myOrganizations: [{ uuid: alice.organization, name: "alice's organization" }],
    });
  });

  test.each([
    ["anonymous", () => undefined],
    ["an API token of another environment", () => allScopes],
  ])("%s gets UNAUTHENTICATED for account data and null for me", async (_who, token) => {
    const body = await gql("{ me { uuid } sessionValid }", token());
    expect(body.data).toEqual({ me: null, sessionValid: false });
    for (const query of [
      "{ mySessions { uuid } }",
      "{ myOrganizations { uuid } }",
      "{ apiTokens { uuid } }",
      "{ currentEnvironment { uuid } }",
      'mutation { createOrganization(input: { name: "x" }) { uuid } }',
      "mutation { deleteOtherSessions }",
      'mutation { deleteSession(uuid: "00000000-0000-0000-0000-000000000000") }',
      "mutation { logout }",
    ]) {
      // An API token is told the operation wants a user's access token (issue 44).
      expect(errorOf(await gql(query, token()))).toEqual({
        message: token()
          ? "This operation needs a user's access token (from login); an API token cannot use it."
          : "Not authenticated. Send Authorization: Bearer <token>.",
        code: "UNAUTHENTICATED",
      });
    }
  });

  test("a user's access token does not read public data: that needs an API token (401)", async () => {
    const response = await ctx.service.graphql("{ p2000Regions { number } }", { token: alice.token });
    expect(response.status).toBe(401);
    expect(response.body.errors![0].message).toMatch(/needs an API token, not a user's access token/);
  });

  test("row-level security as the visitor: each table shows only the session's own rows", async () => {
    const client = new pg.Client({ connectionString: ctx.db.authUrl });
    await client.connect();
    try {
      await client.query("begin");
      await client.query("select set_config('role', 'app_visitor', true), set_config('app.session_uuid', $1, true)", [
        alice.session,
      ]);
      const count = async (table: string) => (await client.query(`select count(*)::int as n from ${table}`)).rows[0].n;
      expect(await count("app_public.users")).toBe(1);
      expect(await count("app_public.organizations")).toBe(1);
      expect(await count("app_public.environments")).toBe(1);
      expect(await count("app_hidden.organization_memberships")).toBe(1);
      expect(await count("app_public.api_tokens")).toBe(1);
      expect(await count("app_public.sessions")).toBeGreaterThanOrEqual(1);
      const { rows } = await client.query("select distinct user_uuid from app_public.sessions");
      expect(rows).toHaveLength(1);
      await expect(client.query("select * from app_private.user_secrets")).rejects.toThrow(/permission denied/);
      await client.query("rollback");
    } finally {
      await client.end();
    }
  });

  test("the analyst reads no account data", async () => {
    const analyst = new pg.Client({ connectionString: ctx.db.analystUrl });
    await analyst.connect();
    try {
      for (const table of [
        "app_public.users",
        "app_public.sessions",
        "app_public.api_tokens",
        "app_hidden.organization_memberships",
        "app_private.user_secrets",
        "app_private.refresh_tokens",
        "app_private.emails",
      ]) {
        await expect(analyst.query(`select 1 from ${table} limit 1`)).rejects.toThrow(/permission denied/);
      }
    } finally {
      await analyst.end();
    }
  });
});
