// The respond page (the web application's /respond screen, web/src/console/respond-screen.ts) in a
// real browser, the way a responder meets it: a P2000 message matches a
// monitor, the service mails a notification to a real SMTP sink, and headless Chromium on a phone
// sized screen opens the respond link from that mail. Opening it stores nothing (mail scanners
// follow links); tapping "going" or "not coming" records the responder and the page says so, and
// opening the link again shows that answer; an expired, cut-off, tampered or forged link is said as
// the page opens (no buttons), the last two after the service checked the signature (respondLink).
// After "going" an arrival estimate (its time stored); availability set from the same link.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import { launchBrowser, LAUNCH_TIMEOUT, screenshot } from "../helpers/browser.ts";
import { startMailSink, type MailSink } from "../helpers/mail-sink.ts";
import { useTestService } from "../helpers/service.ts";
import { respondLinkByMail } from "../helpers/respond-links.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

// The functions below that run in the page see the browser's globals; the project's TypeScript
// has no DOM library (it is server code), so these are the few this file uses, typed for it alone.
interface PageElement {
  textContent: string | null;
  disabled: boolean;
  value: string;
  getBoundingClientRect(): { left: number; right: number; width: number; height: number };
}
declare const document: {
  documentElement: { scrollWidth: number };
  body: PageElement & { scrollWidth: number; innerText: string };
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
};
declare const window: { innerWidth: number };
declare function getComputedStyle(element: PageElement): { fontSize: string };

const PHONE = { width: 375, height: 667, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

let mail: MailSink;
beforeAll(async () => {
  mail = await startMailSink();
});
const ctx = useTestService(() => ({ delivery: { smtpUrl: mail.url } }));

let browser: Browser | undefined;
let page: Page;
/** What the page itself reported: uncaught errors, console errors, CSP violations, failed requests. */
const problems: string[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.setViewport(PHONE);
  await page.setUserAgent({
    userAgent:
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/153.0.0.0 Mobile Safari/537.36",
  });
  page.on("pageerror", (error) => problems.push(`page error: ${String(error)}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("requestfailed", (request) =>
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`),
  );
}, LAUNCH_TIMEOUT);
afterAll(async () => {
  await browser?.close();
  await mail?.stop();
});

let ada: TestUser;
let monitorUuid: string;
let link: URL;

interface Stored {
  status: string;
  recipient: string;
  changed: Date;
}
async function storedResponders(): Promise<Stored[]> {
  return (
    await ctx.db.asOwner<Stored>("select status, recipient, changed from app_public.alert_responders order by created")
  ).rows;
}
async function respondersSeenByOwner(): Promise<Array<{ status: string; recipient: string }>> {
  const { body } = await ctx.service.graphql(
    "query ($u: String!) { monitor(uuid: $u) { responders { status recipient } } }",
    { token: ada.accessToken, variables: { u: monitorUuid } },
  );
  expect(body.errors).toBeUndefined();
  return body.data.monitor.responders;
}

/** Opens a URL like a phone does, and checks the answer is a page that fits the screen. */
async function open(url: URL | string): Promise<void> {
  problems.length = 0;
  const response = await page.goto(String(url), { waitUntil: "load" });
  expect(response?.status()).toBe(200);
  expect(response?.headers()["cache-control"]).toBe("no-store");
}

/** Taps a button and returns what the page then says in its output. */
async function tapAndRead(selector: string): Promise<string> {
  // The buttons come once the service has checked the link (respondLink), not with the page.
  await page.waitForSelector(selector, { visible: true });
  await page.tap(selector);
  // The buttons are disabled (and the output says "Sending…") until the answer is in.
  const said = await page.waitForFunction(
    () =>
      !document.querySelector(".respond button")!.disabled &&
      document.querySelector(".respond output")!.textContent!.trim(),
    { timeout: 15_000 },
  );
  return String(await said.jsonValue());
}

/** The page's visible text, for checks that no technical detail reaches the responder. */
async function visibleText(): Promise<string> {
  return page.evaluate(() => document.body.innerText);
}

function expectReadable(text: string) {
  expect(text).not.toMatch(/\bat .+:\d+:\d+|Error:|stack|SQL|undefined|null|\[object/i);
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org", { admin: true });
  ({ link, monitorUuid } = await respondLinkByMail(ctx.service, mail, ada));
  expect(link.pathname).toBe("/respond");
});

/** The same notification's link with another token. */
function withToken(token: string): URL {
  const other = new URL(link);
  other.searchParams.set("token", token);
  return other;
}

describe("the respond page in Chromium on a phone", () => {
  test("fits a small screen: a viewport meta tag, no sideways scrolling, buttons large enough to tap", async () => {
    await open(link);
    await page.locator(".respond button").wait();
    expect(await page.title()).toContain("Are you going?");
    const viewport = await page.$eval('meta[name="viewport"]', (meta) => meta.getAttribute("content"));
    expect(viewport).toMatch(/width=device-width/);
    expect(viewport).toMatch(/initial-scale=1/);
    const layout = await page.evaluate(() => ({
      innerWidth: window.innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
      bodyScrollWidth: document.body.scrollWidth,
      fontSize: parseFloat(getComputedStyle(document.body).fontSize),
      buttons: [...document.querySelectorAll(".respond button")].map((button) => {
        const box = button.getBoundingClientRect();
        return {
          text: button.textContent,
          value: button.value,
          left: box.left,
          right: box.right,
          height: box.height,
          width: box.width,
        };
      }),
    }));
    // The layout viewport is the phone's width (no desktop-width page zoomed out) and nothing sticks out.
    expect(layout.innerWidth).toBe(PHONE.width);
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.innerWidth);
    expect(layout.bodyScrollWidth).toBeLessThanOrEqual(layout.innerWidth);
    expect(layout.fontSize).toBeGreaterThanOrEqual(16);
    expect(layout.buttons.map((b) => [b.value, b.text])).toEqual([
      ["going", "I am on my way"],
      ["cancelled", "I am not coming"],
    ]);
    for (const button of layout.buttons) {
      expect(button.left).toBeGreaterThanOrEqual(0);
      expect(button.right).toBeLessThanOrEqual(layout.innerWidth);
      // 44 CSS pixels: the usual smallest comfortable touch target.
      expect(button.height).toBeGreaterThanOrEqual(44);
    }
    // The smallest phones still in use (320 CSS pixels wide) do not scroll sideways either.
    await page.setViewport({ ...PHONE, width: 320, height: 568 });
    try {
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= window.innerWidth && window.innerWidth === 320,
        ),
      ).toBe(true);
    } finally {
      await page.setViewport(PHONE);
    }
    expect(problems).toEqual([]);
  });

  test("opening the link (and opening it again) stores nothing", async () => {
    expect(await storedResponders()).toEqual([]);
    await open(link);
    await page.reload({ waitUntil: "load" });
    // What a mail scanner does: a plain GET without running the page.
    expect((await fetch(link)).status).toBe(200);
    expect(await storedResponders()).toEqual([]);
    expect(await respondersSeenByOwner()).toEqual([]);
    await page.locator(".respond button").wait();
    expect(await page.$eval(".respond output", (output) => output.textContent)).toBe("");
    expect(problems).toEqual([]);
  });

  test('tapping "I am on my way" records the responder as going and the page says so', async () => {
    await open(link);
    const said = await tapAndRead('button[value="going"]');
    expect(said).toBe("Saved: you are on your way.");
    await screenshot(page, "respond-page-phone");
    expectReadable(await visibleText());
    expect((await storedResponders()).map(({ status, recipient }) => ({ status, recipient }))).toEqual([
      { status: "going", recipient: "responder@example.org" },
    ]);
    expect(await respondersSeenByOwner()).toEqual([{ status: "going", recipient: "responder@example.org" }]);
    expect(problems).toEqual([]);
  });

  test('tapping "I am not coming" changes the same responder to cancelled and the page says so', async () => {
    await open(link);
    // Opened again, the page shows the answer already given (respondLink's status).
    await page.waitForFunction(() => document.querySelector("#respond-current")?.textContent, { timeout: 15_000 });
    expect(await page.$eval("#respond-current", (current) => current.textContent)).toBe(
      "You said you are on your way.",
    );
    const said = await tapAndRead('button[value="cancelled"]');
    expect(said).toBe("Saved: you are not coming.");
    expect(await page.$eval("#respond-current", (current) => current.textContent)).toBe("You said you are not coming.");
    expect((await storedResponders()).map(({ status, recipient }) => ({ status, recipient }))).toEqual([
      { status: "cancelled", recipient: "responder@example.org" },
    ]);
    expect(await respondersSeenByOwner()).toEqual([{ status: "cancelled", recipient: "responder@example.org" }]);
    expect(problems).toEqual([]);
  });

  test("an expired link says so and stores nothing", async () => {
    // The same notification's token, correctly signed with the installation's key, that ran out a
    // minute ago (built as app_private.responder_token builds it, with another expiry).
    const notificationUuid = Buffer.from(link.searchParams.get("token")!.split(".")[0], "base64url")
      .toString()
      .split(".")[0];
    const {
      rows: [{ token }],
    } = await ctx.db.asOwner(
      `with payload as (
         select convert_to(concat_ws('.', n.uuid, n.monitor_uuid, coalesce(n.dossier_uuid, n.message_uuid), n.channel_uuid,
                                     extract(epoch from now() - interval '1 minute')::bigint), 'UTF8') as bytes
           from app_private.notifications n where n.uuid = $1)
       select translate(encode(p.bytes, 'base64'), E'+/=\\n', '-_') || '.'
           || translate(encode(public.hmac(p.bytes, k.key, 'sha256'), 'base64'), E'+/=\\n', '-_') as token
         from payload p, app_private.signing_keys k where k.purpose = 'responder'`,
      [notificationUuid],
    );
    const before = await storedResponders();
    await open(withToken(token));
    // Said as the page opens (the expiry is in the token), with no buttons that could only fail.
    await page.locator("#respond-problem").wait();
    expect(await page.$eval("#respond-problem", (problem) => problem.textContent)).toMatch(
      /^This respond link has expired\./,
    );
    expect(await page.$$(".respond button")).toEqual([]);
    expectReadable(await visibleText());
    expect(await storedResponders()).toEqual(before);
    expect(await respondersSeenByOwner()).toEqual([{ status: "cancelled", recipient: "responder@example.org" }]);
  });

  test("a tampered or forged link says at once that it is not valid, with no buttons, and stores nothing", async () => {
    // Both have the right form, so only the service can tell (the signature does not match).
    const [payload, signature] = link.searchParams.get("token")!.split(".");
    const claims = Buffer.from(payload, "base64url").toString().split(".");
    claims[4] = String(Number(claims[4]) + 365 * 24 * 3600);
    const before = await storedResponders();
    for (const token of [
      `${Buffer.from(claims.join(".")).toString("base64url")}.${signature}`, // its expiry pushed back a year
      `${payload}.${"A".repeat(43)}`, // a forged signature
    ]) {
      await open(withToken(token));
      await page.locator("#respond-problem").wait();
      expect(await page.$eval("#respond-problem", (problem) => problem.textContent)).toMatch(
        /^This respond link is not valid\./,
      );
      expect(await page.$$(".respond button")).toEqual([]);
      expect(await page.$$("#respond-incident")).toEqual([]);
      expectReadable(await visibleText());
    }
    expect(await storedResponders()).toEqual(before);
  });

  test("a link cut short (as some chat apps do) or without its token says it is not valid", async () => {
    const before = await storedResponders();
    for (const url of [withToken(link.searchParams.get("token")!.slice(0, 30)), new URL("/respond", link)]) {
      await open(url);
      // Said as the page opens, with no buttons.
      await page.locator("#respond-problem").wait();
      expect(await page.$eval("#respond-problem", (problem) => problem.textContent)).toMatch(
        /^This respond link is not valid\./,
      );
      expect(await page.$$(".respond button")).toEqual([]);
      expectReadable(await visibleText());
    }
    expect(await storedResponders()).toEqual(before);
  });

  test("a lost connection says the answer was not sent, and the buttons work again", async () => {
    await open(link);
    // The page asks what the link holds before it offers the buttons: the connection is lost only
    // once they are there (on a busy machine, going offline sooner failed that first read).
    await page.locator('button[value="going"]').wait();
    await page.setOfflineMode(true);
    try {
      expect(await tapAndRead('button[value="going"]')).toBe(
        "The service cannot be reached. Check the connection and try again.",
      );
    } finally {
      await page.setOfflineMode(false);
    }
    expect(await page.$$eval(".respond button", (buttons) => buttons.map((b) => b.disabled))).toEqual([false, false]);
    expect(await respondersSeenByOwner()).toEqual([{ status: "cancelled", recipient: "responder@example.org" }]);
  });

  test("after going, an arrival estimate: the same answer with arrivalMinutes, its time stored and said", async () => {
    await open(link);
    // The estimates are offered only once the answer is "going" (it is "cancelled" now).
    await page.locator('button[value="going"]').wait();
    expect(await page.$$("#respond-arrival button")).toEqual([]);
    expect(await tapAndRead('button[value="going"]')).toBe("Saved: you are on your way.");
    await page.locator("::-p-aria([name='When will you be there?'][role='group'])").wait();
    expect(await page.$$eval("#respond-arrival button", (buttons) => buttons.map((b) => b.textContent))).toEqual([
      "5 min",
      "10 min",
      "15 min",
      "30 min",
    ]);
    const asked = Date.now();
    await page.locator("::-p-aria([name='10 min'][role='button'])").click();
    await page.waitForFunction(
      () => document.querySelector(".respond output")!.textContent!.startsWith("Saved: you are on your way, there"),
      { timeout: 15_000 },
    );
    const {
      rows: [stored],
    } = await ctx.db.asOwner<{ status: string; arrives_at: Date }>(
      "select status, arrives_at from app_public.alert_responders",
    );
    expect(stored.status).toBe("going");
    // Ten minutes from the tap, as the service's clock had it.
    expect(stored.arrives_at.getTime() - asked).toBeGreaterThan(9.5 * 60_000);
    expect(stored.arrives_at.getTime() - asked).toBeLessThan(10.5 * 60_000);
    const time = new Intl.DateTimeFormat("en-GB", { timeStyle: "short", timeZone: "Europe/Amsterdam" }).format(
      stored.arrives_at,
    );
    expect(await page.$eval(".respond output", (output) => output.textContent)).toBe(
      `Saved: you are on your way, there around ${time}.`,
    );
    expect(await page.$eval("#respond-current", (current) => current.textContent)).toBe(
      `You said you are on your way, there around ${time}.`,
    );
    await screenshot(page, "respond-page-arrival-phone");
    expectReadable(await visibleText());
    expect(problems).toEqual([]);
  });

  test("availability from the link: not available until a time, stored for the channel the link went to", async () => {
    await open(link);
    await page.locator("::-p-aria([name='Are you available?'][role='heading'])").wait();
    await page.select("#respond-availability-form-status", "unavailable");
    // Tomorrow at 07:00 Dutch time, as the person picks it in the field.
    const day = new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Amsterdam" }).format(
      new Date(Date.now() + 24 * 3600_000),
    );
    await page.$eval(
      "#respond-availability-form-until",
      (input, value) => ((input as unknown as PageElement).value = value),
      `${day}T07:00`,
    );
    await page.$eval(".respond-availability", (section) =>
      (section as unknown as { scrollIntoView(): void }).scrollIntoView(),
    );
    await page.tap("#respond-availability-form button[type=submit]");
    await page.waitForFunction(() => document.querySelector("#respond-availability-form [role=status]")?.textContent, {
      timeout: 15_000,
    });
    const { rows } = await ctx.db.asOwner<{ status: string; until: Date; name: string; email_address: string }>(
      `select a.status, a.until, c.name, c.email_address from app_public.crew_availability a
         join app_public.channels c on c.uuid = a.channel_uuid`,
    );
    expect(rows.map(({ status, name, email_address }) => ({ status, name, email_address }))).toEqual([
      { status: "unavailable", name: "Phone", email_address: "responder@example.org" },
    ]);
    const dutch = (options: Intl.DateTimeFormatOptions, tag: string) =>
      new Intl.DateTimeFormat(tag, { ...options, timeZone: "Europe/Amsterdam" }).format(rows[0].until);
    expect(dutch({ dateStyle: "short", timeStyle: "short" }, "sv-SE")).toBe(`${day} 07:00`);
    expect(await page.$eval("#respond-availability-form [role=status]", (status) => status.textContent)).toBe(
      `Saved: not available until ${dutch({ dateStyle: "medium", timeStyle: "short" }, "en-GB")}.`,
    );
    await screenshot(page, "respond-page-availability-phone");
    // The console's crew list shows it to the team.
    const { body } = await ctx.service.graphql("{ crew { name availability until } }", { token: ada.accessToken });
    expect(body.data.crew).toEqual([{ name: "Phone", availability: "unavailable", until: expect.any(String) }]);
    // Opened again, the page starts from what is stored (respondLink): the answer with its arrival,
    // and the availability, so saving it unchanged keeps it.
    await open(link);
    await page.locator("::-p-aria([name='Are you available?'][role='heading'])").wait();
    expect(await page.$eval("#respond-current", (current) => current.textContent)).toMatch(
      /^You said you are on your way, there around \d\d:\d\d\.$/,
    );
    expect(
      await page.$eval("#respond-availability-form-status", (select) => (select as unknown as PageElement).value),
    ).toBe("unavailable");
    expect(
      await page.$eval("#respond-availability-form-until", (input) => (input as unknown as PageElement).value),
    ).toBe(`${day}T07:00`);
    expect(problems).toEqual([]);
  });

  test("without JavaScript the page says it needs it", async () => {
    await page.setJavaScriptEnabled(false);
    try {
      await open(link);
      expect(await visibleText()).toContain("This page needs JavaScript.");
    } finally {
      await page.setJavaScriptEnabled(true);
    }
  });
});
