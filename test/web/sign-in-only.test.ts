// The page for signed-in users only (WEB_REQUIRE_SIGN_IN), as a person meets it in Chromium: the
// sign-in form first; a wrong password is said beside the form with what was typed kept; the
// right one opens the map, which reads with the page's own API token (not the web-client
// credential, which reads nothing here), kept for the tab only; that token revoked, the page asks
// to sign in again.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import { launchBrowser, LAUNCH_TIMEOUT, newWatchedPage, screenshot, seriousAxeViolations } from "../helpers/browser.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { useTestService } from "../helpers/service.ts";

const ctx = useTestService(() => ({ web: { requireSignIn: true } }));
const EMAIL = "kaartlezer@example.org";
const PASSWORD = "correct horse battery staple";

let browser: Browser | undefined;
beforeAll(async () => {
  const { apiToken } = (await (await fetch(new URL("/web/config.json", ctx.service.url))).json()) as {
    apiToken: string;
  };
  const registered = await ctx.service.graphql(
    `mutation ($e: String!, $p: String!) {
       register(input: { organizationName: "Kaart", environmentName: "Thuis", email: $e, password: $p, displayName: "Lezer" }) { user { uuid } }
     }`,
    { token: apiToken, variables: { e: EMAIL, p: PASSWORD } },
  );
  expect(registered.body.errors).toBeUndefined();
  await storeP2000Pages(ctx.db, [
    {
      message: "A1 Ambulance Kerkstraat Utrecht bon 81234",
      sended: new Date().toISOString(),
      capcodes: ["0923002"],
    },
  ]);
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);
afterAll(async () => {
  await browser?.close();
});

async function pageTokens(): Promise<string[]> {
  const { rows } = await ctx.db.asOwner(
    "select name from app_public.api_tokens where name like 'Web page %' and revoked_at is null",
  );
  return rows.map((row: { name: string }) => row.name);
}

async function signIn(page: Page, password: string): Promise<void> {
  await page.locator("::-p-aria([name='E-mail address'][role='textbox'])").fill(EMAIL);
  await page.locator("#sign-in-password").fill(password);
  await page.locator("::-p-aria([name='Sign in'][role='button'])").click();
}

describe("a page for signed-in users only", () => {
  test("asks to sign in, says a wrong password beside the form, then opens the map with a token of its own", async () => {
    const { page, problems } = await newWatchedPage(browser!, { language: "en-GB" });
    await page.goto(new URL("/", ctx.service.url).href, { waitUntil: "load" });
    await page.locator("::-p-aria([name='Sign in'][role='heading'])").wait();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "sign-in-form");

    await signIn(page, "not the password");
    await page.waitForFunction(`document.querySelector("#sign-in-error").textContent.length > 0`);
    expect(await page.$eval("#sign-in-error", (element) => element.textContent)).toBe(
      "These credentials do not match our records.",
    );
    expect(await page.$eval("#sign-in-email", (input) => (input as unknown as { value: string }).value)).toBe(EMAIL);
    expect(await pageTokens()).toEqual([]);

    await signIn(page, PASSWORD);
    await page.locator("::-p-aria([name='Map'][role='link'])").wait();
    await page.waitForFunction(`document.body.innerText.includes("Kerkstraat Utrecht")`);
    expect(await pageTokens()).toHaveLength(1);
    // Kept for the tab, not in the URL nor where another tab or a later visit would find it.
    const stored = (await page.evaluate(`[sessionStorage.getItem("nlis.pageToken"), localStorage.length]`)) as [
      string,
      number,
    ];
    expect(stored[0]).toMatch(/^nlis_/);
    expect(stored[1]).toBe(0);
    expect(page.url()).not.toContain("nlis_");
    await screenshot(page, "sign-in-map");

    // A reload keeps the session of the tab; the page's token revoked, it asks again.
    await page.reload({ waitUntil: "load" });
    await page.locator("::-p-aria([name='Map'][role='link'])").wait();
    await ctx.db.asOwner("update app_public.api_tokens set revoked_at = now() where name like 'Web page %'");
    await page.reload({ waitUntil: "load" });
    await page.locator("::-p-aria([name='Sign in'][role='heading'])").wait({ timeout: 20_000 } as never);
    // The 401s that led there were the point.
    expect(problems.filter((problem) => !/401/.test(problem))).toEqual([]);
    await page.close();
  });

  test("the console signs in on its own; its reference lists are read with a page token of the person's", async () => {
    const { page, problems } = await newWatchedPage(browser!, { language: "en-GB" });
    await page.goto(new URL("/console/monitors/new", ctx.service.url).href, { waitUntil: "load" });
    await page.locator("::-p-aria([name='Sign in'][role='heading'])").wait();
    await page.locator("#sign-in-email").fill(EMAIL);
    await page.locator("#sign-in-password").fill(PASSWORD);
    await page.locator("#sign-in-form button.primary").click();
    // Back at the monitor form, whose safety regions come from p2000Regions (public data).
    await page.waitForFunction(`document.body.innerText.includes("Haaglanden")`, { timeout: 20_000 });
    expect(await page.evaluate(`sessionStorage.getItem("nlis.pageToken")`)).toMatch(/^nlis_/);
    // Signing out takes the page token too.
    await page.locator("::-p-aria([name='Sign out'][role='button'])").click();
    await page.locator("::-p-aria([name='Sign in'][role='heading'])").wait();
    expect(await page.evaluate(`sessionStorage.getItem("nlis.pageToken")`)).toBeNull();
    expect(problems.filter((problem) => !/401/.test(problem))).toEqual([]);
    await page.close();
  });
});
