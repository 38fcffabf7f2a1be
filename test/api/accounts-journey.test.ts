// The account journey of docs/accounts.md, end to end over real HTTP with a real SMTP server: register,
// verify the e-mail, log in, refresh, list sessions, create an organization and an environment,
// switch to it, create an API token and read public data with it, delete the token (401), reset
// the password through the e-mailed link, and log out.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startMailSink, type MailSink } from "../helpers/mail-sink.ts";
import { isAllowedReturnTo, type AccountDeps } from "../../lib/accounts/flows.ts";
import { useTestService } from "../helpers/service.ts";

let mail: MailSink;
beforeAll(async () => {
  mail = await startMailSink();
});
const ctx = useTestService(() => ({ delivery: { smtpUrl: mail.url } }));
afterAll(async () => {
  await mail?.stop(); // after the service (hooks run in order), so no delivery hits a closed sink
});

const EMAIL = "ada@example.org";
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a much better passphrase";
const USER_FIELDS = "uuid displayName created changed email { address verified } hasPassword isAdmin";

let apiToken: string; // the operator's token with every auth scope, as an app would hold it

beforeAll(async () => {
  apiToken = (await ctx.service.newToken({ scopes: ["auth:login", "auth:register", "auth:password_reset"] })).secret;
});

async function ok(query: string, options: { token?: string; variables?: Record<string, unknown> } = {}) {
  const response = await ctx.service.graphql(query, options);
  expect(response.body.errors).toBeUndefined();
  expect(response.status).toBe(200);
  return response.body.data;
}

async function fails(query: string, options: { token?: string; variables?: Record<string, unknown> } = {}) {
  const response = await ctx.service.graphql(query, options);
  expect(response.body.errors).toBeDefined();
  return response.body.errors![0];
}

describe("a new user's journey", () => {
  let accessToken: string;
  let refreshToken: string;
  let organizationUuid: string;
  let environmentUuid: string;

  test("register creates user, organization and environment, and e-mails a verification link", async () => {
    const { register } = await ok(
      `mutation ($input: RegisterInput!) { register(input: $input) {
         user { ${USER_FIELDS} } organization { uuid name } environment { uuid name } } }`,
      {
        token: apiToken,
        variables: {
          input: { email: EMAIL, password: PASSWORD, displayName: "Ada", organizationName: "Analytical Engines" },
        },
      },
    );
    expect(register.user).toMatchObject({
      displayName: "Ada",
      email: { address: EMAIL, verified: false },
      hasPassword: true,
      isAdmin: false,
    });
    expect(register.organization.name).toBe("Analytical Engines");
    expect(register.environment.name).toBe("production");
    const {
      rows: [secret],
    } = await ctx.db.asOwner("select password_hash from app_private.user_secrets where user_uuid = $1", [
      register.user.uuid,
    ]);
    const parameters = /^\$argon2id\$v=19\$([^$]+)\$/.exec(secret.password_hash)![1].split(",").sort();
    expect(parameters).toEqual(["m=19456", "p=1", "t=2"]);

    const verification = await mail.waitFor(EMAIL, /Confirm your e-mail/);
    const link = mail.linkIn(
      verification,
      `${ctx.service.url.replace("localhost", "127.0.0.1")}/auth/verify-email?token=`,
    );
    // Verified, then on to the console's sign-in screen, which says so (test/web/console-account.test.ts).
    const page = await fetch(link, { redirect: "manual" });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/console/sign-in?verified=1");
    // Single use: the second time the screen says the link is not valid.
    expect((await fetch(link, { redirect: "manual" })).headers.get("location")).toBe("/console/sign-in?verified=0");
  });

  test("login returns the user, an access token and a refresh token", async () => {
    const { login } = await ok(
      `mutation ($input: LoginInput!) { login(input: $input) { user { ${USER_FIELDS} } token refreshToken message } }`,
      { token: apiToken, variables: { input: { email: "ADA@example.org ", password: PASSWORD } } },
    );
    expect(login.user.email).toEqual({ address: EMAIL, verified: true });
    expect(login.token.split(".")).toHaveLength(3);
    expect(login.refreshToken).toMatch(/^nlrt_/);
    expect(login.message).toBe("Logged in.");
    accessToken = login.token;
    refreshToken = login.refreshToken;
    const { me, sessionValid } = await ok(`{ me { uuid email { address verified } } sessionValid }`, {
      token: accessToken,
    });
    expect(me.email).toEqual({ address: EMAIL, verified: true });
    expect(sessionValid).toBe(true);
  });

  // That the spent refresh token then fails (and ends the session) is in accounts-security.test.ts:
  // doing it here would end the session this journey continues with.
  test("refreshToken returns a new pair that works", async () => {
    const { refreshToken: pair } = await ok("mutation { refreshToken { accessToken refreshToken } }", {
      token: refreshToken,
    });
    expect(pair.refreshToken).not.toBe(refreshToken);
    expect((await ok("{ me { displayName } }", { token: pair.accessToken })).me.displayName).toBe("Ada");
    accessToken = pair.accessToken;
    refreshToken = pair.refreshToken;
  });

  test("mySessions lists the session with the request's details", async () => {
    const { mySessions } = await ok("{ mySessions { uuid ipAddress userAgent lastActivityAt expiresAt isCurrent } }", {
      token: accessToken,
    });
    expect(mySessions).toHaveLength(1);
    expect(mySessions[0]).toMatchObject({ isCurrent: true, ipAddress: expect.stringMatching(/127\.0\.0\.1/) });
    expect(new Date(mySessions[0].expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000);
  });

  test("createOrganization and createEnvironment; myOrganizations shows both organizations", async () => {
    const { createOrganization } = await ok(
      `mutation { createOrganization(input: { name: "Difference Engines" }) { uuid name created changed } }`,
      { token: accessToken },
    );
    organizationUuid = createOrganization.uuid;
    const { createEnvironment } = await ok(
      `mutation ($o: String!) { createEnvironment(input: { organizationUuid: $o, name: "staging" }) { uuid name created changed organization { uuid name } } }`,
      { token: accessToken, variables: { o: organizationUuid } },
    );
    expect(createEnvironment.organization).toEqual({ uuid: organizationUuid, name: "Difference Engines" });
    environmentUuid = createEnvironment.uuid;
    const { updateOrganization } = await ok(
      `mutation ($o: String!) { updateOrganization(input: { uuid: $o, name: "Difference Engine Ltd" }) { name } }`,
      { token: accessToken, variables: { o: organizationUuid } },
    );
    expect(updateOrganization.name).toBe("Difference Engine Ltd");
    const { myOrganizations } = await ok("{ myOrganizations { name environments { name } } }", { token: accessToken });
    expect(myOrganizations).toEqual([
      { name: "Analytical Engines", environments: [{ name: "production" }] },
      { name: "Difference Engine Ltd", environments: [{ name: "staging" }] },
    ]);
  });

  test("switchEnvironment binds the new environment and issues new tokens", async () => {
    const { switchEnvironment } = await ok(
      "mutation ($e: String!) { switchEnvironment(environmentUuid: $e) { accessToken refreshToken environment { uuid name } } }",
      { token: accessToken, variables: { e: environmentUuid } },
    );
    expect(switchEnvironment.environment).toEqual({ uuid: environmentUuid, name: "staging" });
    accessToken = switchEnvironment.accessToken;
    refreshToken = switchEnvironment.refreshToken;
    const { currentEnvironment } = await ok("{ currentEnvironment { uuid name organization { name } } }", {
      token: accessToken,
    });
    expect(currentEnvironment).toEqual({
      uuid: environmentUuid,
      name: "staging",
      organization: { name: "Difference Engine Ltd" },
    });
  });

  test("setCurrentEnvironment rebinds without new tokens", async () => {
    const { myOrganizations } = await ok("{ myOrganizations { environments { uuid name } } }", { token: accessToken });
    const production = myOrganizations.flatMap((o: any) => o.environments).find((e: any) => e.name === "production");
    const { setCurrentEnvironment } = await ok(
      "mutation ($e: String!) { setCurrentEnvironment(environmentUuid: $e) { uuid name } }",
      { token: accessToken, variables: { e: production.uuid } },
    );
    expect(setCurrentEnvironment).toEqual(production);
    expect((await ok("{ currentEnvironment { name } }", { token: accessToken })).currentEnvironment.name).toBe(
      "production",
    );
    await ok("mutation ($e: String!) { setCurrentEnvironment(environmentUuid: $e) { uuid } }", {
      token: accessToken,
      variables: { e: environmentUuid },
    });
  });

  test("an API token created by the user reads public data until it is deleted", async () => {
    const { createApiToken } = await ok(
      `mutation { createApiToken(input: { name: "dashboard", scopes: ["auth:login"], validDays: 30 }) {
         token { uuid name tokenPreview scopes expiresAt created } plainToken } }`,
      { token: accessToken },
    );
    const { token, plainToken } = createApiToken;
    expect(plainToken).toMatch(/^nlis_/);
    expect(token).toMatchObject({
      name: "dashboard",
      scopes: ["auth:login"],
      tokenPreview: `nlis_…${plainToken.slice(-4)}`,
    });
    expect(new Date(token.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000);

    const read = await ctx.service.graphql("{ p2000Regions(first: 1) { name } }", { token: plainToken });
    expect(read.status).toBe(200);

    const { apiTokens } = await ok("{ apiTokens { uuid name tokenPreview } }", { token: accessToken });
    expect(apiTokens).toEqual([{ uuid: token.uuid, name: "dashboard", tokenPreview: token.tokenPreview }]);
    expect(JSON.stringify(apiTokens)).not.toContain(plainToken);
    const { updateApiToken } = await ok(
      `mutation ($u: String!) { updateApiToken(uuid: $u, name: "wallboard", scopes: ["auth:login", "auth:register"]) { name scopes } }`,
      { token: accessToken, variables: { u: token.uuid } },
    );
    expect(updateApiToken).toEqual({ name: "wallboard", scopes: ["auth:login", "auth:register"] });
    expect(
      (
        await ok("query ($u: String!) { apiToken(uuid: $u) { name } }", {
          token: accessToken,
          variables: { u: token.uuid },
        })
      ).apiToken.name,
    ).toBe("wallboard");

    expect(
      (
        await ok("mutation ($u: String!) { deleteApiToken(uuid: $u) }", {
          token: accessToken,
          variables: { u: token.uuid },
        })
      ).deleteApiToken,
    ).toBe(true);
    expect((await ctx.service.graphql("{ p2000Regions(first: 1) { name } }", { token: plainToken })).status).toBe(401);
    expect((await ok("{ apiTokens { uuid } }", { token: accessToken })).apiTokens).toEqual([]);
  });

  test("apiScopes lists every scope with a description", async () => {
    const { apiScopes } = await ok("{ apiScopes { name description } }", { token: accessToken });
    // p2000:publish and screen:read are listed (the complete list) though only createP2000Receiver
    // and a paired station screen get them.
    expect(apiScopes.map((s: any) => s.name)).toEqual([
      "auth:login",
      "auth:password_reset",
      "auth:register",
      "p2000:publish",
      "screen:read",
    ]);
    for (const scope of apiScopes) expect(scope.description.length).toBeGreaterThan(10);
  });

  test("a password reset through the e-mailed link ends every session", async () => {
    const answer = await ok('mutation { requestPasswordReset(email: "ada@example.org") }', { token: apiToken });
    const resetMail = await mail.waitFor(EMAIL, /Reset your password/);
    const link = new URL(mail.linkIn(resetMail, "http://127.0.0.1:"));
    expect(link.pathname).toBe("/auth/reset-password");
    // The web application's screen for a new password (web/src/console/reset-password-screen.ts).
    const formPage = await fetch(link);
    expect(await formPage.text()).toMatch(/\/web\/app-[A-Z2-7]{8}\.js/);
    expect(formPage.headers.get("cache-control")).toBe("no-store");

    const weak = await fails('mutation ($t: String!) { resetPassword(token: $t, newPassword: "short") }', {
      variables: { t: link.searchParams.get("token") },
    });
    expect(weak.extensions!.code).toBe("BAD_USER_INPUT");
    const { resetPassword } = await ok(
      "mutation ($t: String!, $p: String!) { resetPassword(token: $t, newPassword: $p) }",
      { variables: { t: link.searchParams.get("token"), p: NEW_PASSWORD } },
    );
    expect(resetPassword).toMatch(/password has been changed/);
    expect(answer.requestPasswordReset).toMatch(/If an account exists/);

    expect(await ok("{ me { uuid } sessionValid }", { token: accessToken })).toEqual({ me: null, sessionValid: false });
    const again = await fails("mutation ($t: String!, $p: String!) { resetPassword(token: $t, newPassword: $p) }", {
      variables: { t: link.searchParams.get("token"), p: NEW_PASSWORD },
    });
    expect(again).toMatchObject({
      message: "This link is invalid, expired or already used.",
      extensions: { code: "UNAUTHENTICATED" },
    });
    const refreshed = await fails("mutation { refreshToken { accessToken } }", { token: refreshToken });
    expect(refreshed.extensions!.code).toBe("UNAUTHENTICATED");
  });

  test("logging in with the new password, then logging out", async () => {
    const old = await fails(`mutation { login(input: { email: "${EMAIL}", password: "${PASSWORD}" }) { token } }`, {
      token: apiToken,
    });
    expect(old).toMatchObject({
      message: "These credentials do not match our records.",
      extensions: { code: "INVALID_CREDENTIALS" },
    });
    const { login } = await ok(
      `mutation { login(input: { email: "${EMAIL}", password: "${NEW_PASSWORD}" }) { token } }`,
      { token: apiToken },
    );
    expect((await ok("mutation { logout }", { token: login.token })).logout).toBe("Logged out.");
    expect(await ok("{ me { uuid } sessionValid }", { token: login.token })).toEqual({ me: null, sessionValid: false });
    const anonymous = await fails("mutation { logout }");
    expect(anonymous).toMatchObject({
      message: "Not authenticated. Send Authorization: Bearer <token>.",
      extensions: { code: "UNAUTHENTICATED" },
    });
  });
});

describe("magic-link login", () => {
  const returnTo = "http://localhost:3000/auth/callback";

  test("e-mails a single-use link that redirects to returnTo with tokens in the fragment", async () => {
    // An organization left unnamed is named after the person, not the e-mail address.
    const { register } = await ok(
      `mutation { register(input: { email: "grace@example.org", displayName: "Grace Hopper" }) {
         organization { name } } }`,
      { token: apiToken },
    );
    expect(register.organization).toEqual({ name: "Grace Hopper's organization" });
    const { requestMagicLinkLogin } = await ok(
      'mutation ($r: String!) { requestMagicLinkLogin(email: "grace@example.org", returnTo: $r) }',
      { token: apiToken, variables: { r: returnTo } },
    );
    expect(requestMagicLinkLogin).toBe("MAGIC_LINK_SENT");
    const magic = await mail.waitFor("grace@example.org", /login link/);
    const link = mail.linkIn(magic, "http://127.0.0.1:");
    const response = await fetch(link, { redirect: "manual" });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(returnTo);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get("token_type")).toBe("Bearer");
    const { me } = await ok("{ me { email { address verified } hasPassword } }", {
      token: fragment.get("access_token")!,
    });
    expect(me).toEqual({ email: { address: "grace@example.org", verified: true }, hasPassword: false });
    expect(fragment.get("refresh_token")).toMatch(/^nlrt_/);
    expect((await fetch(link, { redirect: "manual" })).status).toBe(400);
  });

  test("answers in Dutch or English when the request asks for it, and the same for unknown addresses", async () => {
    const ask = (language: string, email: string) =>
      ctx.service.graphql("mutation ($e: String!, $r: String!) { requestMagicLinkLogin(email: $e, returnTo: $r) }", {
        token: apiToken,
        variables: { e: email, r: returnTo },
        headers: { "accept-language": language },
      });
    expect((await ask("nl-NL,nl;q=0.9", "grace@example.org")).body.data.requestMagicLinkLogin).toMatch(
      /^Als er een account/,
    );
    expect((await ask("en-GB", "nobody@example.org")).body.data.requestMagicLinkLogin).toMatch(/^If an account exists/);
  });

  test.each([
    ["a relative URL", "/callback"],
    ["a foreign https origin", "https://evil.example/steal"],
    ["plain http off localhost", "http://example.org/callback"],
    ["a URL with a fragment", "http://localhost:3000/cb#x"],
  ])("refuses %s as returnTo", async (_what, url) => {
    const error = await fails(
      'mutation ($r: String!) { requestMagicLinkLogin(email: "grace@example.org", returnTo: $r) }',
      { token: apiToken, variables: { r: url } },
    );
    expect(error.extensions!.code).toBe("BAD_USER_INPUT");
  });
});

describe("the magic link's returnTo", () => {
  test("the service's own https origin (its web console) is allowed without being listed; its http form is not", () => {
    const deps = { publicUrl: "https://incidents.example.nl", magicLinkAllowedOrigins: [] } as unknown as AccountDeps;
    expect(isAllowedReturnTo(deps, "https://incidents.example.nl/console/magic-link")).toBe(true);
    expect(isAllowedReturnTo(deps, "http://incidents.example.nl/console/magic-link")).toBe(false);
    expect(isAllowedReturnTo(deps, "https://other.example.nl/console/magic-link")).toBe(false);
  });
});
