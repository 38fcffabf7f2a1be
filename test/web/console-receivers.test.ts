// The console's Receivers screen in Chromium against the real service (issue 48): an administrator
// registers a receiver through the form (its token shown once, with the command that runs it), the
// token publishes what a radio heard, and the screen shows the receiver's health (last heard, pages
// a minute, malformed lines, regions); a receiver never heard is marked quiet; Remove after a
// confirmation ends its token. axe-core and screenshots at phone and desktop width.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import type { Browser } from "puppeteer-core";
import {
  launchBrowser,
  LAUNCH_TIMEOUT,
  PHONE,
  screenshot,
  seriousAxeViolations,
  type WatchedPage,
} from "../helpers/browser.ts";
import { openConsoleAs, textOf } from "../helpers/console.ts";
import { useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

const ctx = useTestService();

let browser: Browser | undefined;
let operator: TestUser;
let watched: WatchedPage;
let token: string;

beforeAll(async () => {
  operator = await signUp(ctx.service, "operator@example.org", { admin: true });
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  await watched?.page.close().catch(() => undefined);
  await browser?.close();
});

const LIST = "[aria-labelledby='receivers-list-heading']";

async function publish(lines: string[]) {
  const { body } = await ctx.service.graphql(
    `mutation ($b: String!, $l: [String!]!) { publishP2000Lines(batchId: $b, lines: $l) { pages } }`,
    { token, variables: { b: `console-${Date.now()}`, l: lines } },
  );
  expect(body.errors).toBeUndefined();
}

test("registering a receiver: its token shown once, with the command that runs it", async () => {
  watched = await openConsoleAs(browser!, ctx.service.url, operator, "/console/receivers", { language: "en-GB" });
  const { page } = watched;
  await page.locator("::-p-aria([name='New receiver'][role='heading'])").wait();
  await page.locator(`${LIST} > li`).wait();
  expect(await textOf(page, LIST)).toContain("No receivers yet.");
  await page.locator("::-p-aria([name='Name'][role='textbox'])").fill("Zolder Utrecht");
  await page
    .locator("::-p-aria([name='Description (where, antenna, who)'][role='textbox'])")
    .fill("Dakantenne, RTL-SDR");
  await page.locator("::-p-aria([name='Register the receiver'][role='button'])").click();
  await page.locator("#receiver-token").wait();
  token = await page.$eval("#receiver-token", (input) => (input as unknown as { value: string }).value);
  expect(token).toMatch(/^nlis_/);
  expect(await textOf(page, "pre.command")).toContain(`npm run ingest:flex -- --to ${ctx.service.url}/graphql -`);
  await page.locator(`${LIST} li.receiver`).wait();
  expect(await textOf(page, `${LIST} li.receiver`)).toMatch(/^Zolder Utrecht\s*Quiet/);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await screenshot(page, "console-receivers-registered");
  expect(watched.problems).toEqual([]);
});

test("its health: last heard, pages a minute, malformed lines and regions", async () => {
  const now = new Date().toISOString().slice(0, 19).replace("T", " ");
  await publish([
    `FLEX|${now}|1600/2/K/A|12.077|001420059|ALN|P 1 BDH-01 Brand woning Kerkstraat Utrecht 10001`,
    `FLEX|${now}|1600/2/K/A|12.077|001420099|ALN|A1 Ambu 17101 Rit 10002 Utrecht`,
    "not a multimon-ng line",
  ]);
  const { page } = watched;
  await page.reload({ waitUntil: "load" });
  await page.locator(`${LIST} li.receiver`).wait();
  const row = await textOf(page, `${LIST} li.receiver`);
  expect(row).not.toContain("Quiet");
  expect(row).toMatch(
    /last heard .+ · 0[.,]03 pages a minute · 33[.,]3% malformed lines · 0% garbled pages · from Utrecht \(2\)/,
  );
  // A phone's viewport (isMobile) reloads the page: its list is drawn again first.
  await page.setViewport(PHONE);
  await page.locator(`${LIST} li.receiver`).wait();
  await page.$eval(LIST, (list) => list.scrollIntoView());
  await screenshot(page, "console-receivers-phone");
  expect(await seriousAxeViolations(page)).toEqual([]);
});

test("Remove, after a confirmation, ends its token", async () => {
  const { page } = watched;
  await page.locator("::-p-aria([name='Remove: Zolder Utrecht'][role='button'])").click();
  await page.locator("dialog[open]").wait();
  expect(await textOf(page, "dialog[open]")).toContain("Remove the receiver “Zolder Utrecht”?");
  await page.locator("dialog[open] button.danger").click();
  await page.locator(`${LIST} li.empty`).wait();
  expect(await textOf(page, LIST)).toContain("No receivers yet.");
  const { body } = await ctx.service.graphql(
    `mutation { publishP2000Lines(batchId: "after", lines: ["x"]) { pages } }`,
    { token },
  );
  expect(body.errors?.[0]?.extensions?.code).toMatch(/^(UNAUTHENTICATED|FORBIDDEN)$/);
});
