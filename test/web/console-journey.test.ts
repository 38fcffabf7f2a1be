// Issue 32's journey in one go, as a new person takes it in Chromium, from nothing to a working
// alert without writing GraphQL: register → the verification link from the mail (a real SMTP
// sink) → sign in → an API token read once → a webhook channel (a local receiver) and its test →
// a P2000 monitor's circle drawn on the map, previewed (the past match appears) and saved → a FLEX
// message inside the circle → the webhook receives it → the delivery is in the monitor's log →
// the respond link from that notification answered → the responder on the monitor's page.
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import { createFlexIngester, FLEX_READER_CONNECTIONS } from "../../lib/p2000/flex-ingest.ts";
import { launchBrowser, LAUNCH_TIMEOUT, newWatchedPage, screenshot } from "../helpers/browser.ts";
import { fillCircleMonitor } from "../helpers/console.ts";
import { startMailSink, type MailSink } from "../helpers/mail-sink.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let mail: MailSink;
let hooks: WebhookReceiver;
beforeAll(async () => {
  mail = await startMailSink();
  hooks = await startWebhookReceiver();
});
// The webhook receiver is on this machine, so the service allows private targets.
const ctx = useTestService(() => ({ delivery: { smtpUrl: mail.url, allowPrivateTargets: true } }));

const EMAIL = "ilse@example.org";
const PASSWORD = "a kettle of fish and chips";
/** Three days ago, in Vlaardingen: what the preview finds. */
const PAST = "A2 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 8576";
/** Sent after the monitor is saved, in the same street. */
const LIVE = "A1 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 9911";
let browser: Browser | undefined;
let page: Page;
let problems: string[];

beforeAll(async () => {
  await storeP2000Pages(ctx.db, [
    { message: PAST, sended: new Date(Date.now() - 3 * 24 * 3_600_000).toISOString(), capcodes: ["001420007"] },
  ]);
  browser = await launchBrowser();
  ({ page, problems } = await newWatchedPage(browser, { language: "en-GB" }));
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await mail?.stop();
  await hooks?.stop();
});

const base = () => ctx.service.url.replace("localhost", "127.0.0.1");
const byName = (role: string, name: string) => page.locator(`::-p-aria([name='${name}'][role='${role}'])`);
const text = (selector: string) => page.$eval(selector, (element) => element.textContent ?? "");

test("from nothing to a working alert in the browser, and the respond link answered", async () => {
  // Register, verify, sign in.
  await page.goto(new URL("/console/register", base()).href, { waitUntil: "load" });
  await byName("textbox", "Your name").fill("Ilse");
  await byName("textbox", "E-mail address").fill(EMAIL);
  await byName("textbox", "Password").fill(PASSWORD);
  await byName("button", "Create account").click();
  const verification = await mail.waitFor(EMAIL, /Confirm your e-mail/);
  await page.goto(mail.linkIn(verification, `${base()}/auth/verify-email?token=`), { waitUntil: "load" });
  await page.locator("::-p-text(Your e-mail address is verified)").wait();
  await byName("textbox", "E-mail address").fill(EMAIL);
  await byName("textbox", "Password").fill(PASSWORD);
  await byName("button", "Sign in").click();
  await byName("heading", "How to get an alert").wait();

  // An API token, read once.
  await byName("link", "API tokens").click();
  await byName("textbox", "Name").fill("Home Assistant");
  await byName("button", "Make the token").click();
  await page.locator("#token-secret").wait();
  const secret = await page.$eval("#token-secret", (input) => (input as unknown as { value: string }).value);
  expect((await ctx.service.graphql("{ p2000Regions { number } }", { token: secret })).body.errors).toBeUndefined();

  // A webhook channel, and its test.
  await byName("link", "Channels").click();
  await page.locator("#channel-type").wait();
  await page.select("#channel-type", "webhook");
  await byName("textbox", "Name").fill("Dispatch board");
  await byName("textbox", "Webhook URL").fill(`${hooks.url}/hook`);
  await byName("button", "Make the channel").click();
  await page.locator("#channel-secret").wait();
  await byName("button", "Send a test: Dispatch board").click();
  await hooks.waitFor(() => true, 1, 30_000);
  await page.locator("::-p-text(The test was delivered)").wait();

  // A P2000 monitor: the circle around Vlaardingen, previewed, saved.
  await byName("link", "Monitors").click();
  await page.waitForSelector("a.button-link.primary");
  await page.click("a.button-link.primary");
  const {
    rows: [past],
  } = await ctx.db.asOwner<{ latitude: number; longitude: number }>(
    "select latitude, longitude from app_public.p2000_messages where message = $1",
    [PAST],
  );
  expect(
    await fillCircleMonitor(page, {
      name: "Near the office",
      centre: { lat: past.latitude, lon: past.longitude },
      radiusKm: 2,
      channel: "Dispatch board",
    }),
  ).toMatch(/^1 match in the past 30 days/);
  await page.click("#monitor-form button[type=submit]");
  await page.waitForFunction("/^\\/console\\/monitors\\/[0-9a-f-]{36}$/.test(location.pathname)");
  await page.waitForSelector("#monitor-state");

  // A FLEX message inside the circle reaches the webhook, and the monitor's log shows it.
  const pool = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: FLEX_READER_CONNECTIONS });
  try {
    const ingester = createFlexIngester(pool, { source: "test" });
    await ingester.push(
      `FLEX|${new Date().toISOString().slice(0, 19).replace("T", " ")}|1600/2/K/A|08.050|001420007|ALN|${LIVE}`,
    );
    await ingester.flush();
  } finally {
    await pool.end();
  }
  const [alert] = await hooks.waitFor((request) => request.body.includes("bon 9911"), 1, 30_000);
  const payload = JSON.parse(alert.body) as { respond: { url: string } };
  await waitUntil(
    async () => {
      await page.click("#monitor-deliveries-heading + button");
      return text("#monitor-deliveries");
    },
    (log) => log.includes("bon 9911") && log.includes("delivered"),
    "the delivery in the monitor's log",
    30_000,
  );
  const monitorPath = new URL(page.url()).pathname;

  // The respond link from that notification, answered; the monitor's page shows the responder.
  await page.goto(new URL(new URL(payload.respond.url).pathname + new URL(payload.respond.url).search, base()).href);
  await byName("button", "I am on my way").click();
  await page.locator("::-p-text(Saved: you are on your way.)").wait();
  await page.goto(new URL(monitorPath, base()).href, { waitUntil: "load" });
  await page.waitForSelector("#monitor-responders");
  await waitUntil(
    () => text("#monitor-responders"),
    (responders) => responders.includes(": going"),
    "the responder on the monitor's page",
  );
  await page.$eval("#monitor-responders", (element) => element.scrollIntoView({ block: "center" }));
  await screenshot(page, "console-journey-responders");
  expect(problems).toEqual([]);
}, 240_000);
