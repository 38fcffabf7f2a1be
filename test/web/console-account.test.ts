// The console's account journeys in Chromium against the real service and a real SMTP sink
// (issue 32): register → the verification link from the mail → sign in → an API token read once →
// revoked after a confirmation; a forgotten password through the e-mailed link; a magic link that
// returns signed in; the access token refreshed before it expires, and a reused refresh token
// signing the person out with a clear message; organisations and environments; a second person
// seeing none of it; screenshots at phone and desktop width.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import {
  launchBrowser,
  LAUNCH_TIMEOUT,
  newWatchedPage,
  PHONE,
  screenshot,
  seriousAxeViolations,
  type WatchedPage,
} from "../helpers/browser.ts";
import { openConsoleAs, SESSION_KEY } from "../helpers/console.ts";
import { startMailSink, type MailSink } from "../helpers/mail-sink.ts";
import { useTestService } from "../helpers/service.ts";
import { signUp } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";

let mail: MailSink;
beforeAll(async () => {
  mail = await startMailSink();
});
const ctx = useTestService(() => ({ delivery: { smtpUrl: mail.url } }));

const EMAIL = "ada@example.org";
const PASSWORD = "correct horse battery staple";
const NEW_PASSWORD = "a different horse entirely";
const RESET_PASSWORD = "yet another horse to ride";
let browser: Browser | undefined;
let base: string;
const pages: Page[] = [];

beforeAll(async () => {
  // The address the e-mailed links use (PUBLIC_URL), so the page and the links share an origin.
  base = ctx.service.url.replace("localhost", "127.0.0.1");
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  for (const page of pages) await page.close().catch(() => undefined);
  await browser?.close();
  await mail?.stop();
});

async function open(path: string, options: Parameters<typeof newWatchedPage>[1] = {}): Promise<WatchedPage> {
  const watched = await newWatchedPage(browser!, { language: "en-GB", ...options });
  pages.push(watched.page);
  await watched.page.goto(new URL(path, base).href, { waitUntil: "load" });
  return watched;
}

/** Types into a field found by its label, as a person does. */
async function fill(page: Page, label: string, value: string): Promise<void> {
  const field = page.locator(`::-p-aria([name='${label}'][role='textbox'])`);
  await field.fill(value);
}

async function press(page: Page, name: string): Promise<void> {
  await page.locator(`::-p-aria([name='${name}'][role='button'])`).click();
}

async function heading(page: Page, name: string): Promise<void> {
  await page.locator(`::-p-aria([name='${name}'][role='heading'])`).wait();
}

async function textOf(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (element) => element.textContent ?? "");
}

async function storedSession(page: Page): Promise<{ accessToken: string; refreshToken: string; expiresAt: number }> {
  return JSON.parse((await page.evaluate(`localStorage.getItem(${JSON.stringify(SESSION_KEY)})`)) as string);
}

describe("a new person in the console", () => {
  let signedIn: WatchedPage;

  test("registers, opens the verification link from the mail and signs in", async () => {
    const { page, problems } = await open("/console/register");
    await heading(page, "Create an account");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await fill(page, "Your name", "Ada");
    await fill(page, "E-mail address", EMAIL);
    // The API's own password rule, beside the password field, with what was typed kept.
    await fill(page, "Password", "short");
    await fill(page, "Organisation", "Lovelace & Co");
    await press(page, "Create account");
    await page.locator("#register-password-error:not([hidden])").wait();
    expect(await textOf(page, "#register-password-error")).toMatch(/password/i);
    expect(await page.$eval("#register-organization", (input) => (input as unknown as { value: string }).value)).toBe(
      "Lovelace & Co",
    );
    await screenshot(page, "console-register-error");
    await fill(page, "Password", PASSWORD);
    await press(page, "Create account");
    await page.locator("::-p-text(We have sent a verification link to ada@example.org)").wait();

    const verification = await mail.waitFor(EMAIL, /Confirm your e-mail/);
    const link = mail.linkIn(verification, `${base}/auth/verify-email?token=`);
    await page.goto(link, { waitUntil: "load" });
    await page.locator("::-p-text(Your e-mail address is verified)").wait();
    expect(new URL(page.url()).pathname).toBe("/console/sign-in");
    await screenshot(page, "console-sign-in-verified");

    // A wrong password: the API's message, the e-mail kept.
    await fill(page, "E-mail address", EMAIL);
    await fill(page, "Password", "not the password");
    await press(page, "Sign in");
    await page.locator("::-p-text(These credentials do not match our records.)").wait();
    await fill(page, "Password", PASSWORD);
    await press(page, "Sign in");
    await heading(page, "How to get an alert");
    await screenshot(page, "console-overview");
    expect(await textOf(page, ".console-who")).toContain("Ada");
    expect(await textOf(page, ".console-who")).toContain("Lovelace & Co");
    expect(problems).toEqual([]);
    signedIn = { page, problems };
  });

  test("makes an API token, reads it once, and revokes it after a confirmation", async () => {
    const { page, problems } = signedIn;
    await page.locator("::-p-aria([name='API tokens'][role='link'])").click();
    await heading(page, "New API token");
    await fill(page, "Name", "Home Assistant");
    await press(page, "Make the token");
    await page.locator("#token-secret").wait();
    const secret = await page.$eval("#token-secret", (input) => (input as unknown as { value: string }).value);
    // The secret works as an API token.
    const answer = await ctx.service.graphql("{ p2000Regions { number } }", { token: secret });
    expect(answer.body.errors).toBeUndefined();
    await screenshot(page, "console-tokens-secret");
    // Listed by its preview, never its secret.
    const listed = await textOf(page, "[aria-labelledby='tokens-list-heading']");
    expect(listed).toContain("Home Assistant");
    expect(listed).not.toContain(secret);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Cancel keeps it; confirm revokes it, and the API refuses it at once.
    await page.locator("::-p-aria([name='Revoke: Home Assistant'][role='button'])").click();
    await page.locator("dialog[open]").wait();
    await screenshot(page, "console-tokens-confirm");
    await press(page, "Cancel");
    expect(await textOf(page, "[aria-labelledby='tokens-list-heading']")).toContain("Home Assistant");
    await page.locator("::-p-aria([name='Revoke: Home Assistant'][role='button'])").click();
    await page.locator("dialog[open] button.danger").click();
    await page.locator("::-p-text(Token revoked.)").wait();
    expect(await textOf(page, "[aria-labelledby='tokens-list-heading']")).not.toContain("Home Assistant");
    const refused = await ctx.service.graphql("{ p2000Regions { number } }", { token: secret });
    expect(refused.status).toBe(401);
    expect(problems).toEqual([]);
  });

  test("makes an environment and switches to it", async () => {
    const { page, problems } = signedIn;
    await page.locator("::-p-aria([name='Organisations'][role='link'])").click();
    await heading(page, "Organisations and environments");
    await fill(page, "New environment", "staging");
    await press(page, "Add environment");
    await page.locator("::-p-aria([name='Switch to staging'][role='button'])").click();
    await waitUntil(
      () => textOf(page, ".console-who"),
      (who) => who.includes("staging"),
      "the console to show the new environment",
    );
    await screenshot(page, "console-organizations");
    expect(problems).toEqual([]);
  });

  test("renames the environment, changes the display name and the password (wrong current one said beside it)", async () => {
    const { page, problems } = signedIn;
    await page.locator("::-p-text(Rename: staging)").click();
    await page.locator("details[open] input").fill("acceptance");
    // Enter in the field submits its own form (the environment's Rename).
    await page.keyboard.press("Enter");
    await waitUntil(
      () => textOf(page, ".console-who"),
      (who) => who.includes("acceptance"),
      "the renamed environment in the console's header",
    );

    await page.locator("::-p-aria([name='Profile and sessions'][role='link'])").click();
    await heading(page, "Profile");
    await fill(page, "Display name", "Ada Lovelace");
    await press(page, "Save");
    await waitUntil(
      () => textOf(page, ".console-who"),
      (who) => who.includes("Ada Lovelace"),
      "the new display name in the console's header",
    );
    await fill(page, "Current password", "not my password");
    await fill(page, "New password", NEW_PASSWORD);
    await press(page, "Change password");
    await page.locator("#account-current-password-error:not([hidden])").wait();
    expect(await textOf(page, "#account-current-password-error")).toContain("The current password is not right.");
    expect(await page.$eval("#account-new-password", (input) => (input as unknown as { value: string }).value)).toBe(
      NEW_PASSWORD,
    );
    await fill(page, "Current password", PASSWORD);
    await press(page, "Change password");
    await page.locator("::-p-text(Your password is changed)").wait();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "console-account-profile");
    expect(problems).toEqual([]);
  });

  test("refreshes the access token before it expires; a reused refresh token signs out with a clear message", async () => {
    const { page, problems } = signedIn;
    const before = await storedSession(page);
    // As if the access token had 30 seconds left: the next request refreshes it first.
    await page.evaluate(
      `localStorage.setItem(${JSON.stringify(SESSION_KEY)}, JSON.stringify({ ...JSON.parse(localStorage.getItem(${JSON.stringify(SESSION_KEY)})), expiresAt: Date.now() + 30000 }))`,
    );
    await page.locator("::-p-aria([name='Profile and sessions'][role='link'])").click();
    await heading(page, "Where you are signed in");
    const after = await waitUntil(
      () => storedSession(page),
      (session) => session.refreshToken !== before.refreshToken,
      "the refresh",
    );
    // A new access token's expiry (the token itself can equal the last one, made in the same second).
    expect(after.expiresAt).toBeGreaterThan(Date.now() + 10 * 60_000);

    // The spent refresh token back in place (as a thief would use it): the service ends the whole
    // session, and the console says so.
    await page.evaluate(
      `localStorage.setItem(${JSON.stringify(SESSION_KEY)}, JSON.stringify({ ...JSON.parse(localStorage.getItem(${JSON.stringify(SESSION_KEY)})), refreshToken: ${JSON.stringify(before.refreshToken)}, expiresAt: Date.now() }))`,
    );
    await page.locator("::-p-aria([name='API tokens'][role='link'])").click();
    await page.locator("::-p-text(Your session has ended)").wait();
    expect(new URL(page.url()).pathname).toBe("/console/sign-in");
    expect(await page.evaluate(`localStorage.getItem(${JSON.stringify(SESSION_KEY)})`)).toBeNull();
    // The other token pair of that session is dead too.
    const me = await ctx.service.graphql("{ sessionValid }", { token: after.accessToken });
    expect(me.body.data).toEqual({ sessionValid: false });
    await screenshot(page, "console-session-ended");
    expect(problems.filter((problem) => !/401|UNAUTHENTICATED/.test(problem))).toEqual([]);
  });
});

describe("the e-mailed links", () => {
  test("a forgotten password: the link's page sets a new one, said beside the field when too weak", async () => {
    const { page, problems } = await open("/console/forgot-password");
    await fill(page, "E-mail address", EMAIL);
    await screenshot(page, "console-forgot-password");
    await press(page, "Send the link");
    await page.locator("::-p-text(If an account exists)").wait();
    const reset = await mail.waitFor(EMAIL, /Reset your password/);
    const link = mail.linkIn(reset, `${base}/auth/reset-password?token=`);
    const response = await page.goto(link, { waitUntil: "load" });
    expect(response?.headers()["cache-control"]).toBe("no-store");
    await heading(page, "Choose a new password");
    // The token is out of the address bar at once.
    expect(page.url()).not.toContain("token");
    await fill(page, "New password", "short");
    await press(page, "Save the password");
    await page.locator("#reset-password-error:not([hidden])").wait();
    await fill(page, "New password", RESET_PASSWORD);
    await press(page, "Save the password");
    await page.locator("::-p-text(password has been changed)").wait();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "console-reset-password");
    const login = await ctx.service.graphql(
      "mutation ($e: String!, $p: String!) { login(input: { email: $e, password: $p }) { token } }",
      {
        token: (await ctx.service.newToken({ scopes: ["auth:login"] })).secret,
        variables: { e: EMAIL, p: RESET_PASSWORD },
      },
    );
    expect(login.body.errors).toBeUndefined();
    expect(problems).toEqual([]);
  });

  test("a magic link returns to the console signed in, with the tokens out of the address bar", async () => {
    const { page, problems } = await open("/console/sign-in?next=%2Fconsole%2Ftokens", { viewport: PHONE });
    await fill(page, "E-mail address", EMAIL);
    await page.locator("#magic-link-email").fill(EMAIL);
    await press(page, "E-mail me a sign-in link");
    await page.locator("#magic-link-form .form-status:not(:empty)").wait();
    await screenshot(page, "console-sign-in-phone");
    const magic = await mail.waitFor(EMAIL, /Your login link/);
    const link = mail.linkIn(magic, `${base}/auth/magic-link?token=`);
    await page.goto(link, { waitUntil: "load" });
    await heading(page, "New API token");
    expect(new URL(page.url()).pathname).toBe("/console/tokens");
    expect(page.url()).not.toContain("access_token");
    expect(await page.evaluate("history.length")).toBeGreaterThan(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "console-tokens-phone");
    expect(problems).toEqual([]);
  });
});

describe("in Dutch, dark", () => {
  test("the register and sign-in screens speak Dutch in the dark, and axe finds nothing serious", async () => {
    const { page, problems } = await open("/console/register", {
      language: "nl-NL,nl;q=0.9",
      colorScheme: "dark",
      viewport: PHONE,
    });
    await heading(page, "Account aanmaken");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "console-register-nl-dark");
    await page.locator("::-p-aria([name='Al een account? Log in'][role='link'])").click();
    await heading(page, "Inloggen");
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe("when things go wrong", () => {
  test("a lost connection is said with a retry, and nothing typed is lost; too many failed sign-ins are said as such", async () => {
    const { page, problems } = await open("/console/sign-in");
    await fill(page, "E-mail address", "mallory@example.org");
    await fill(page, "Password", "guessing again");
    await page.setOfflineMode(true);
    try {
      await press(page, "Sign in");
      await page.locator("::-p-text(The service cannot be reached)").wait();
      expect(await page.$eval("#sign-in-email", (input) => (input as unknown as { value: string }).value)).toBe(
        "mallory@example.org",
      );
      await screenshot(page, "console-offline");
    } finally {
      await page.setOfflineMode(false);
    }
    // Back online, "Try again" sends the same form: a wrong password, then the address's lock.
    await press(page, "Try again");
    await page.locator("::-p-text(These credentials do not match our records.)").wait();
    for (let attempt = 0; attempt < 5; attempt++) await press(page, "Sign in");
    await page.locator("::-p-text(Too many failed logins)").wait();
    await page.locator("::-p-aria([name='Try again'][role='button'])").wait();
    expect(problems.filter((problem) => !/ERR_INTERNET_DISCONNECTED/.test(problem))).toEqual([]);
  });
});

describe("another person", () => {
  test("sees none of the first one's tokens; signs other sessions out and signs out", async () => {
    const grace = await signUp(ctx.service, "grace@example.org");
    const second = await signUp(ctx.service, "grace@example.org".replace("grace", "grace2"));
    // Grace has one more session (another device) to sign out from the console.
    const other = await openConsoleAs(browser!, base, grace, "/console/tokens", { language: "en-GB" });
    pages.push(other.page);
    await heading(other.page, "Tokens of this environment");
    // The heading is drawn before the list's answer arrives: wait for its first row.
    await other.page.locator("ul[aria-labelledby='tokens-list-heading'] li").wait();
    // signUp made one token ("app") in Grace's environment; Ada's are not there.
    expect(await textOf(other.page, "ul[aria-labelledby='tokens-list-heading']")).not.toContain("Home Assistant");
    expect(await textOf(other.page, "ul[aria-labelledby='tokens-list-heading']")).toContain("app");

    const login = await ctx.service.graphql(
      "mutation ($e: String!, $p: String!) { login(input: { email: $e, password: $p }) { token } }",
      {
        token: (await ctx.service.newToken({ scopes: ["auth:login"] })).secret,
        variables: { e: "grace@example.org", p: "a long enough password" },
      },
    );
    const elsewhere = login.body.data.login.token as string;
    await other.page.locator("::-p-aria([name='Profile and sessions'][role='link'])").click();
    await heading(other.page, "Where you are signed in");
    await press(other.page, "Sign out everywhere else");
    await other.page.locator("dialog[open] button.danger").click();
    await other.page.locator("::-p-text(other session(s) signed out)").wait();
    expect((await ctx.service.graphql("{ sessionValid }", { token: elsewhere })).body.data).toEqual({
      sessionValid: false,
    });
    expect(await seriousAxeViolations(other.page)).toEqual([]);
    await screenshot(other.page, "console-account");

    await press(other.page, "Sign out");
    await other.page.locator("::-p-text(You are signed out.)").wait();
    expect((await ctx.service.graphql("{ sessionValid }", { token: grace.accessToken })).body.data).toEqual({
      sessionValid: false,
    });
    expect(second.email).toBe("grace2@example.org");
    expect(other.problems).toEqual([]);
  });
});
