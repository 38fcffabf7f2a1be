// The account changes the web console needs (issue 32, additions to spec 4.2): updateMe,
// changePassword and updateEnvironment, over real HTTP against a real database. Each checks the
// caller first (UNAUTHENTICATED), refuses bad input (BAD_USER_INPUT), and changes only what
// belongs to the caller (NOT_FOUND otherwise); changePassword ends the user's other sessions and
// counts wrong current passwords toward login's per-address lock.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, TEST_PASSWORD, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService();
let authToken: string; // an app's API token with the auth scopes, as the web console holds one

beforeAll(async () => {
  authToken = (await ctx.service.newToken({ scopes: ["auth:login", "auth:register", "auth:password_reset"] })).secret;
});

async function gql(query: string, token?: string, variables?: Record<string, unknown>) {
  return (await ctx.service.graphql(query, { token, variables })).body;
}

async function ok(query: string, token?: string, variables?: Record<string, unknown>) {
  const body = await gql(query, token, variables);
  expect(body.errors).toBeUndefined();
  return body.data;
}

async function login(email: string, password: string) {
  return gql(
    "mutation ($e: String!, $p: String!) { login(input: { email: $e, password: $p }) { token refreshToken } }",
    authToken,
    { e: email, p: password },
  );
}

/** A session of a new magic-link-only account, by the e-mailed link (kept in the outbox here). */
async function magicLinkOnlyUser(email: string): Promise<string> {
  await ok("mutation ($e: String!) { register(input: { email: $e }) { user { uuid } } }", authToken, { e: email });
  await ok('mutation ($e: String!) { requestMagicLinkLogin(email: $e, returnTo: "http://localhost/cb") }', authToken, {
    e: email,
  });
  const mail = await waitUntil(
    async () =>
      (
        await ctx.db.asOwner<{ text_body: string }>(
          "select text_body from app_private.emails where to_address = $1 and text_body like '%/auth/magic-link?%'",
          [email],
        )
      ).rows[0],
    (row) => row !== undefined,
    "the magic-link e-mail",
  );
  const link = /https?:\/\/\S+\/auth\/magic-link\?token=\S+/.exec(mail.text_body)![0];
  const response = await fetch(link.replace(/^https?:\/\/[^/]+/, ctx.service.url), { redirect: "manual" });
  expect(response.status).toBe(302);
  return new URLSearchParams(new URL(response.headers.get("location")!).hash.slice(1)).get("access_token")!;
}

const NOT_AUTHENTICATED = {
  message: "Not authenticated. Send Authorization: Bearer <token>.",
  code: "UNAUTHENTICATED",
};
/** What an API token gets from an operation that needs a user's access token (issue 44). */
const USER_TOKEN_NEEDED = {
  message: "This operation needs a user's access token (from login); an API token cannot use it.",
  code: "UNAUTHENTICATED",
};

describe("updateMe", () => {
  const UPDATE_ME = "mutation ($n: String!) { updateMe(input: { displayName: $n }) { uuid displayName } }";
  let ada: TestUser;

  beforeAll(async () => {
    ada = await signUp(ctx.service, "ada@example.org");
  });

  test("changes the display name, trimmed, and answers the user", async () => {
    const { me } = await ok("{ me { uuid } }", ada.accessToken);
    const { updateMe } = await ok(UPDATE_ME, ada.accessToken, { n: "  Ada Lovelace  " });
    expect(updateMe).toEqual({ uuid: me.uuid, displayName: "Ada Lovelace" });
    expect((await ok("{ me { displayName } }", ada.accessToken)).me.displayName).toBe("Ada Lovelace");
    const longest = "é".repeat(100);
    expect((await ok(UPDATE_ME, ada.accessToken, { n: longest })).updateMe.displayName).toBe(longest);
  });

  test("without a user token: UNAUTHENTICATED, before the input is looked at", async () => {
    expect(errorOf(await gql(UPDATE_ME, undefined, { n: "Mallory" }))).toEqual(NOT_AUTHENTICATED);
    expect(errorOf(await gql(UPDATE_ME, ada.apiToken, { n: "Mallory" }))).toEqual(USER_TOKEN_NEEDED);
    expect(errorOf(await gql(UPDATE_ME, undefined, { n: "" }))).toEqual(NOT_AUTHENTICATED);
  });

  test.each([
    ["empty", ""],
    ["only spaces", "   "],
    ["101 characters", "a".repeat(101)],
    ["a line break", "Ada\nLovelace"],
    ["a tab", "Ada\tLovelace"],
    ["a C1 control character", "Ada\u0085"],
    ["DEL", "Ada\u007f"],
  ])("refuses a name that is %s with BAD_USER_INPUT naming displayName", async (_what, name) => {
    const before = (await ok("{ me { displayName } }", ada.accessToken)).me.displayName;
    const error = errorOf(await gql(UPDATE_ME, ada.accessToken, { n: name }));
    expect(error.code).toBe("BAD_USER_INPUT");
    expect(error.message).toMatch(/displayName/);
    expect((await ok("{ me { displayName } }", ada.accessToken)).me.displayName).toBe(before);
  });
});

describe("updateEnvironment", () => {
  const UPDATE =
    "mutation ($u: String!, $n: String!) { updateEnvironment(input: { uuid: $u, name: $n }) { uuid name } }";
  let eve: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    [eve, bob] = [await signUp(ctx.service, "eve@example.org"), await signUp(ctx.service, "bob@example.org")];
  });

  const environmentName = async (uuid: string) =>
    (await ctx.db.asOwner<{ name: string }>("select name from app_public.environments where uuid = $1", [uuid])).rows[0]
      .name;

  test("renames an environment of the user's organization, trimmed, read back as the Environment", async () => {
    const { updateEnvironment } = await ok(UPDATE, eve.accessToken, { u: eve.environmentUuid, n: "  live  " });
    expect(updateEnvironment).toEqual({ uuid: eve.environmentUuid, name: "live" });
    const { myOrganizations } = await ok("{ myOrganizations { environments { uuid name } } }", eve.accessToken);
    expect(myOrganizations[0].environments).toEqual([{ uuid: eve.environmentUuid, name: "live" }]);
  });

  test("a second environment, made by createEnvironment, can be renamed too", async () => {
    const { myOrganizations } = await ok("{ myOrganizations { uuid } }", eve.accessToken);
    const { createEnvironment } = await ok(
      'mutation ($o: String!) { createEnvironment(input: { organizationUuid: $o, name: " staging " }) { uuid name } }',
      eve.accessToken,
      { o: myOrganizations[0].uuid },
    );
    expect(createEnvironment.name).toBe("staging");
    const { updateEnvironment } = await ok(UPDATE, eve.accessToken, { u: createEnvironment.uuid, n: "s".repeat(200) });
    expect(updateEnvironment.name).toBe("s".repeat(200));
  });

  test("without a user token: UNAUTHENTICATED, also for a uuid that is not one", async () => {
    expect(errorOf(await gql(UPDATE, undefined, { u: eve.environmentUuid, n: "x" }))).toEqual(NOT_AUTHENTICATED);
    expect(errorOf(await gql(UPDATE, eve.apiToken, { u: eve.environmentUuid, n: "x" }))).toEqual(USER_TOKEN_NEEDED);
    expect(errorOf(await gql(UPDATE, undefined, { u: "garbage", n: "" }))).toEqual(NOT_AUTHENTICATED);
    expect(await environmentName(eve.environmentUuid)).toBe("live");
  });

  test.each([
    ["empty", ""],
    ["only spaces", "  "],
    ["201 characters", "e".repeat(201)],
  ])("refuses a name that is %s, with createEnvironment's answer", async (_what, name) => {
    const { myOrganizations } = await ok("{ myOrganizations { uuid } }", eve.accessToken);
    const rename = errorOf(await gql(UPDATE, eve.accessToken, { u: eve.environmentUuid, n: name }));
    const create = errorOf(
      await gql(
        "mutation ($o: String!, $n: String!) { createEnvironment(input: { organizationUuid: $o, name: $n }) { uuid } }",
        eve.accessToken,
        { o: myOrganizations[0].uuid, n: name },
      ),
    );
    expect(rename).toEqual({ message: "An environment name has 1 to 200 characters.", code: "BAD_USER_INPUT" });
    expect(create).toEqual(rename);
    expect(await environmentName(eve.environmentUuid)).toBe("live");
  });

  test("another user's environment, a uuid of none and a malformed one are NOT_FOUND", async () => {
    for (const uuid of [eve.environmentUuid, "00000000-0000-0000-0000-000000000000", "not a uuid"]) {
      expect(errorOf(await gql(UPDATE, bob.accessToken, { u: uuid, n: "pwned" }))).toEqual({
        message: "Environment not found.",
        code: "NOT_FOUND",
      });
    }
    expect(await environmentName(eve.environmentUuid)).toBe("live");
  });
});

describe("changePassword", () => {
  const CHANGE =
    "mutation ($c: String, $n: String!) { changePassword(input: { currentPassword: $c, newPassword: $n }) }";
  const NEW_PASSWORD = "a much better passphrase";
  const WRONG_CURRENT = { message: "The current password is not right.", code: "INVALID_CREDENTIALS" };

  const passwordHash = async (email: string) =>
    (
      await ctx.db.asOwner<{ password_hash: string | null }>(
        `select s.password_hash from app_private.user_secrets s
           join app_public.users u on u.uuid = s.user_uuid where u.email_address = $1`,
        [email],
      )
    ).rows[0].password_hash;

  describe("of a user with a password", () => {
    let grace: TestUser;
    let other: { token: string; refreshToken: string }; // a second session of the same user

    beforeAll(async () => {
      grace = await signUp(ctx.service, "grace@example.org");
      other = (await login("grace@example.org", TEST_PASSWORD)).data.login;
      await ok('mutation { requestPasswordReset(email: "grace@example.org") }', authToken);
    });

    const openResetLinks = async () =>
      (
        await ctx.db.asOwner(
          `select t.uuid from app_private.user_tokens t join app_public.users u on u.uuid = t.user_uuid
            where u.email_address = 'grace@example.org' and t.purpose = 'password_reset' and t.used_at is null`,
        )
      ).rows.length;

    test("without a user token: UNAUTHENTICATED, before the input is looked at", async () => {
      const variables = { c: TEST_PASSWORD, n: NEW_PASSWORD };
      expect(errorOf(await gql(CHANGE, undefined, variables))).toEqual(NOT_AUTHENTICATED);
      expect(errorOf(await gql(CHANGE, grace.apiToken, variables))).toEqual(USER_TOKEN_NEEDED);
      expect(errorOf(await gql(CHANGE, undefined, { c: "wrong", n: "short" }))).toEqual(NOT_AUTHENTICATED);
    });

    test("a wrong or missing current password is INVALID_CREDENTIALS and changes nothing", async () => {
      const before = await passwordHash("grace@example.org");
      expect(errorOf(await gql(CHANGE, grace.accessToken, { c: "not my password", n: NEW_PASSWORD }))).toEqual(
        WRONG_CURRENT,
      );
      expect(errorOf(await gql(CHANGE, grace.accessToken, { c: null, n: NEW_PASSWORD }))).toEqual(WRONG_CURRENT);
      expect(await passwordHash("grace@example.org")).toBe(before);
      expect((await ok("{ sessionValid }", other.token)).sessionValid).toBe(true);
      // Counted as a failed login of the address, as login counts its own.
      const { rows } = await ctx.db.asOwner(
        "select failed_count from app_private.login_failures where email_address = 'grace@example.org'",
      );
      expect(rows).toEqual([{ failed_count: 1 }]);
    });

    test.each([
      ["too short", "short", /password needs at least 10 characters/],
      ["with the address's name in it", "grace-is-my-name", /password must not contain your e-mail address/],
      ["of too few different characters", "aaaaaaaaaaaa", /password needs at least 4 different characters/],
    ])("a new password %s is BAD_USER_INPUT by the register policy", async (_what, password, message) => {
      const error = errorOf(await gql(CHANGE, grace.accessToken, { c: TEST_PASSWORD, n: password }));
      expect(error.code).toBe("BAD_USER_INPUT");
      expect(error.message).toMatch(message);
    });

    test("the right current password: a new argon2id hash, other sessions ended, this one kept", async () => {
      const before = await passwordHash("grace@example.org");
      expect(await openResetLinks()).toBe(1);
      const { changePassword } = await ok(CHANGE, grace.accessToken, { c: TEST_PASSWORD, n: NEW_PASSWORD });
      expect(changePassword).toBe("Your password is changed; your other sessions are signed out.");
      const after = await passwordHash("grace@example.org");
      expect(after).not.toBe(before);
      const parameters = /^\$argon2id\$v=19\$([^$]+)\$/.exec(after!)![1].split(",").sort();
      expect(parameters).toEqual(["m=19456", "p=1", "t=2"]);

      expect(await ok("{ me { email { address } hasPassword } sessionValid }", grace.accessToken)).toEqual({
        me: { email: { address: "grace@example.org" }, hasPassword: true },
        sessionValid: true,
      });
      expect(await ok("{ me { uuid } sessionValid }", other.token)).toEqual({ me: null, sessionValid: false });
      expect(errorOf(await gql("mutation { refreshToken { accessToken } }", other.refreshToken)).code).toBe(
        "UNAUTHENTICATED",
      );
      // As a reset does: the reset link e-mailed before is spent, and the address's failed logins cleared.
      expect(await openResetLinks()).toBe(0);
      const { rows } = await ctx.db.asOwner(
        "select 1 from app_private.login_failures where email_address = 'grace@example.org'",
      );
      expect(rows).toEqual([]);
    });

    test("afterwards the new password logs in and the old one does not", async () => {
      expect(errorOf(await login("grace@example.org", TEST_PASSWORD))).toEqual({
        message: "These credentials do not match our records.",
        code: "INVALID_CREDENTIALS",
      });
      const fresh = await login("grace@example.org", NEW_PASSWORD);
      expect(fresh.errors).toBeUndefined();
      expect((await ok("{ sessionValid }", fresh.data.login.token)).sessionValid).toBe(true);
      // The old password is no longer the current one either.
      expect(errorOf(await gql(CHANGE, grace.accessToken, { c: TEST_PASSWORD, n: "yet another passphrase" }))).toEqual(
        WRONG_CURRENT,
      );
    });
  });

  test("a magic-link-only account sets its first password without a current one", async () => {
    const token = await magicLinkOnlyUser("linus@example.org");
    expect((await ok("{ me { hasPassword } }", token)).me.hasPassword).toBe(false);
    expect(errorOf(await login("linus@example.org", NEW_PASSWORD)).code).toBe("INVALID_CREDENTIALS");
    const { changePassword } = await ok(CHANGE, token, { c: null, n: NEW_PASSWORD });
    expect(changePassword).toMatch(/password is changed/);
    expect(await ok("{ me { hasPassword } sessionValid }", token)).toEqual({
      me: { hasPassword: true },
      sessionValid: true,
    });
    expect((await login("linus@example.org", NEW_PASSWORD)).errors).toBeUndefined();
    // From now on the password it set is needed to change it.
    expect(errorOf(await gql(CHANGE, token, { c: null, n: "yet another passphrase" }))).toEqual(WRONG_CURRENT);
  });

  test("wrong current passwords lock the address as failed logins do, for changePassword and login alike", async () => {
    const alan = await signUp(ctx.service, "alan@example.org");
    const before = await passwordHash("alan@example.org");
    // A fresh budget of this client address, spent by the tests above.
    await ctx.db.asOwner("delete from app_private.rate_limit_counters where bucket like 'change_password:%'");
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(errorOf(await gql(CHANGE, alan.accessToken, { c: `wrong guess ${attempt}`, n: NEW_PASSWORD }))).toEqual(
        WRONG_CURRENT,
      );
    }
    const locked = errorOf(await gql(CHANGE, alan.accessToken, { c: TEST_PASSWORD, n: NEW_PASSWORD }));
    expect(locked.code).toBe("RATE_LIMITED");
    expect(locked.message).toMatch(/Too many failed logins for this address/);
    expect(errorOf(await login("alan@example.org", TEST_PASSWORD)).code).toBe("RATE_LIMITED");
    expect(await passwordHash("alan@example.org")).toBe(before);
  });

  test("a client address gets 10 attempts per 15 minutes", async () => {
    const kay = await signUp(ctx.service, "kay@example.org");
    await ctx.db.asOwner("delete from app_private.rate_limit_counters where bucket like 'change_password:%'");
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect(errorOf(await gql(CHANGE, kay.accessToken, { c: TEST_PASSWORD, n: "short" })).code).toBe("BAD_USER_INPUT");
    }
    expect(errorOf(await gql(CHANGE, kay.accessToken, { c: TEST_PASSWORD, n: NEW_PASSWORD }))).toEqual({
      message: "Too many requests; try again later.",
      code: "RATE_LIMITED",
    });
    expect((await login("kay@example.org", TEST_PASSWORD)).errors).toBeUndefined();
  });
});
