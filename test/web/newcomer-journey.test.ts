// Issue 44's newcomer journey, as a person new to the service takes it from the README alone, in
// Chromium on a desktop and on a phone: on an installation without SMTP_URL (as `npm start` runs),
// register → find the verification link in the service's log, as the console and the docs say →
// sign in → an API token → a webhook channel and its test → a monitor around an incident's place,
// previewed and saved → a page inside it reaches the webhook → the incident followed on the map
// (opened, and closed again with Back) → the respond link from the notification answered → the
// token used in GraphiQL on its example query. Each step's time is printed, so a slow one shows.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser, Viewport } from "puppeteer-core";
import { createFlexIngester, FLEX_READER_CONNECTIONS } from "../../lib/p2000/flex-ingest.ts";
import { writeLogTo } from "../../lib/ops/log.ts";
import { OUTBOX_PREFIX } from "../../tasks/emails__send.ts";
import { DESKTOP, launchBrowser, LAUNCH_TIMEOUT, newWatchedPage, PHONE, screenshot } from "../helpers/browser.ts";
import { fillCircleMonitor } from "../helpers/console.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { FEEDS_OFF, useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

/** The service's log as an operator reads it (the test service writes it here instead of stdout). */
const logLines: string[] = [];
const undoLog = writeLogTo((_level, line) => logLines.push(line));

let hooks: WebhookReceiver;
beforeAll(async () => {
  hooks = await startWebhookReceiver();
});
// No SMTP_URL, as `npm start` runs; the webhook receiver is on this machine, so private targets are allowed.
const ctx = useTestService(() => ({
  ...FEEDS_OFF,
  log: { level: "info" },
  delivery: { smtpUrl: undefined, allowPrivateTargets: true },
}));

const PASSWORD = "a kettle of fish and chips";
/** Three days ago, in Vlaardingen: what the monitor's preview finds. */
const PAST = "A2 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 8576";

let browser: Browser | undefined;
beforeAll(async () => {
  await storeP2000Pages(ctx.db, [
    { message: PAST, sended: new Date(Date.now() - 3 * 24 * 3_600_000).toISOString(), capcodes: ["001420007"] },
  ]);
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await hooks?.stop();
  undoLog();
});

const base = () => ctx.service.url.replace("localhost", "127.0.0.1");

/** Stores a page as the FLEX reader does, now. */
async function pagerSends(message: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: FLEX_READER_CONNECTIONS });
  try {
    const ingester = createFlexIngester(pool, { source: "test" });
    const now = new Date().toISOString().slice(0, 19).replace("T", " ");
    await ingester.push(`FLEX|${now}|1600/2/K/A|08.050|001420007|ALN|${message}`);
    await ingester.flush();
  } finally {
    await pool.end();
  }
}

/** The journey of one person, `who`, on `viewport`: each step's seconds, in order. */
async function journey(who: string, viewport: Viewport): Promise<Array<[string, number]>> {
  const email = `${who}@example.org`;
  const live = `A1 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon ${Date.now() % 1_000_000}`;
  const { page, problems } = await newWatchedPage(browser!, { viewport, language: "en-GB" });
  const byName = (role: string, name: string) => page.locator(`::-p-aria([name='${name}'][role='${role}'])`);
  const text = (selector: string) => page.$eval(selector, (element) => element.textContent ?? "");
  const steps: Array<[string, number]> = [];
  let started = performance.now();
  const step = async (name: string) => {
    await screenshot(page, `journey-${who}-${name}`);
    steps.push([name, (performance.now() - started) / 1000]);
    started = performance.now();
  };

  // Register; the console says where the verification link is, and it is there.
  await page.goto(new URL("/console/register", base()).href, { waitUntil: "load" });
  await byName("textbox", "Your name").fill(who);
  await byName("textbox", "E-mail address").fill(email);
  await byName("textbox", "Password").fill(PASSWORD);
  await page.locator("#register-mail-notice:not([hidden])").wait();
  expect(await text("#register-mail-notice")).toContain(OUTBOX_PREFIX);
  await byName("button", "Create account").click();
  await page.locator("#register-done").wait();
  expect(await text("#register-done")).toContain(OUTBOX_PREFIX);
  const line = await waitUntil(
    () => logLines.find((l) => l.includes(OUTBOX_PREFIX) && l.includes(email)),
    Boolean,
    "the verification link in the service's log",
    30_000,
  );
  const link = /https?:\/\/\S+/.exec(line!)![0];
  await page.goto(link.replace("localhost", "127.0.0.1"), { waitUntil: "load" });
  await page.locator("::-p-text(Your e-mail address is verified)").wait();
  await step("registered");

  // Sign in.
  await byName("textbox", "E-mail address").fill(email);
  await byName("textbox", "Password").fill(PASSWORD);
  await byName("button", "Sign in").click();
  await byName("heading", "How to get an alert").wait();
  await step("signed-in");

  // An API token, read once.
  await page.goto(new URL("/console/tokens", base()).href, { waitUntil: "load" });
  await byName("textbox", "Name").fill("My app");
  await byName("button", "Make the token").click();
  await page.locator("#token-secret").wait();
  const secret = await page.$eval("#token-secret", (input) => (input as unknown as { value: string }).value);
  await step("token");

  // A webhook channel (what this installation can deliver is offered), and its test.
  await page.goto(new URL("/console/channels", base()).href, { waitUntil: "load" });
  await page.locator("#channel-type").wait();
  await page.select("#channel-type", "webhook");
  await byName("textbox", "Name").fill("Dispatch board");
  await byName("textbox", "Webhook URL").fill(`${hooks.url}/${who}`);
  await byName("button", "Make the channel").click();
  await page.locator("#channel-secret").wait();
  await byName("button", "Send a test: Dispatch board").click();
  await page.locator("::-p-text(The test was delivered)").wait();
  await step("channel");

  // A monitor around the past incident's place: previewed (it finds that one), saved.
  await page.goto(new URL("/console/monitors/new", base()).href, { waitUntil: "load" });
  const {
    rows: [past],
  } = await ctx.db.asOwner<{ latitude: number; longitude: number }>(
    "select latitude, longitude from app_public.p2000_messages where message = $1",
    [PAST],
  );
  // The past page, and the live page of a journey before this one (same street).
  expect(
    await fillCircleMonitor(page, {
      name: "Near the office",
      centre: { lat: past.latitude, lon: past.longitude },
      radiusKm: 2,
      channel: "Dispatch board",
    }),
  ).toMatch(/^(1 match|2 matches) in the past 30 days/);
  await page.click("#monitor-form button[type=submit]");
  await page.waitForFunction("/^\\/console\\/monitors\\/[0-9a-f-]{36}$/.test(location.pathname)");
  await step("monitor");

  // A page inside the circle reaches the webhook, with its respond link.
  await pagerSends(live);
  const [alert] = await hooks.waitFor((request) => request.body.includes(live), 1, 30_000);
  const respondUrl = new URL((JSON.parse(alert.body) as { respond: { url: string } }).respond.url);
  await step("alerted");

  // The incident followed on the map: opened from the list, closed with Back.
  await page.goto(new URL("/", base()).href, { waitUntil: "load" });
  // The newest incident in Schiedamseweg (the phone's page joins the desktop journey's incident
  // there, as pages of one incident do); its panel shows the page.
  const id = await waitUntil(
    () =>
      page.$$eval(
        "button.incident",
        (all) => all.find((button) => button.textContent?.includes("Schiedamseweg"))?.getAttribute("data-id") ?? "",
      ),
    Boolean,
    "the incident in the map's list",
  );
  await page.locator(`button.incident[data-id='${id}']`).click();
  await waitUntil(
    () => page.$eval(".incident-panel", (panel) => (panel.hasAttribute("hidden") ? "" : (panel.textContent ?? ""))),
    (shown) => shown.includes(live),
    "the incident's panel",
  );
  await step("map-panel");
  await page.goBack();
  await waitUntil(
    () => page.$eval(".incident-panel", (panel) => panel.hasAttribute("hidden")),
    Boolean,
    "Back to close the panel",
  );
  expect(new URL(page.url()).pathname).toBe("/");

  // The respond link answered.
  await page.goto(new URL(respondUrl.pathname + respondUrl.search, base()).href, { waitUntil: "load" });
  await byName("button", "I am on my way").click();
  await page.locator("::-p-text(Saved: you are on your way.)").wait();
  await step("responded");

  // GraphiQL: its example query, with the token in the Authorization header it keeps in the browser.
  // (This person's own browser: what an earlier journey's GraphiQL kept in this one is cleared.)
  await page.evaluateOnNewDocument(
    `for (const key of Object.keys(localStorage)) if (key.startsWith("graphiql:")) localStorage.removeItem(key);
     localStorage.setItem("graphiql:headers", ${JSON.stringify(JSON.stringify({ Authorization: `Bearer ${secret}` }))});`,
  );
  await page.goto(new URL("/graphiql", base()).href, { waitUntil: "load" });
  await page.waitForSelector(".graphiql-execute-button");
  await waitUntil(
    () => page.$eval(".graphiql-query-editor", (editor) => editor.textContent ?? ""),
    (query) => query.includes("p2000Messages"),
    "the example query in the editor",
  );
  await page.click(".graphiql-execute-button");
  const result = await waitUntil(
    () => page.$eval(".result-window", (window) => window.textContent ?? "").catch(() => ""),
    (shown) => shown.includes('"p2000Messages"'),
    "the example's answer",
    30_000,
  );
  expect(result).not.toContain("errors");
  expect(result.replace(/\s+/g, " ")).toContain(live);
  await step("graphiql");

  expect(problems).toEqual([]);
  await page.close();
  return steps;
}

describe("a newcomer's first hour", () => {
  for (const [who, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    test(`on a ${who}: register, verify from the log, token, channel, monitor, alert, map, respond, GraphiQL`, async () => {
      const steps = await journey(`newcomer-${who}`, viewport);
      console.log(
        `The newcomer's journey on a ${who}: ` +
          steps.map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join(", ") +
          `; ${steps.reduce((sum, [, seconds]) => sum + seconds, 0).toFixed(0)} s in all.`,
      );
    }, 240_000);
  }
});
