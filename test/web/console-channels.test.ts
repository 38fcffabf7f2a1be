// The console's Channels screen in Chromium against the real service (issue 32): a webhook channel
// made through the form (its signing secret shown once, and it verifies what the local receiver
// gets), a test send that the receiver gets and the page calls delivered, the delivery in the
// channel's list, the API's refusal beside the URL field with what was typed kept, only the fields
// of the picked type, Delete after a confirmation (Cancel keeps it), axe-core, screenshots at phone
// and desktop width, and "Notify this browser" (Web Push) as far as headless Chromium goes.
import { createECDH, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import { Webhook } from "standardwebhooks";
import {
  launchBrowser,
  LAUNCH_TIMEOUT,
  PHONE,
  screenshot,
  seriousAxeViolations,
  type WatchedPage,
} from "../helpers/browser.ts";
import { openConsoleAs } from "../helpers/console.ts";
import { TEST_VAPID_KEYS, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let hooks: WebhookReceiver;
beforeAll(async () => {
  hooks = await startWebhookReceiver();
});
// The webhook target (and the stand-in push endpoint) are local servers: private targets allowed.
// Every type is set up (settings that deliver nowhere: nothing is sent through them), so the form
// offers each; a console on an installation without them is test/web/console-newcomer.test.ts.
const ctx = useTestService(() => ({
  delivery: {
    allowPrivateTargets: true,
    smtpUrl: "smtp://127.0.0.1:9",
    sms: { providerUrl: "http://127.0.0.1:9/sms", providerToken: undefined, from: "Test" },
    telegram: { botToken: "123456:not-a-bot", apiUrl: "http://127.0.0.1:9" },
    pushover: { appToken: "azGDORePK8gMaC0QOYAMyEEuzJnyUi", apiUrl: "http://127.0.0.1:9" },
  },
}));

let browser: Browser | undefined;
let base: string;
let ada: TestUser;
const pages: Page[] = [];

beforeAll(async () => {
  base = ctx.service.url;
  ada = await signUp(ctx.service, "ada@example.org");
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  for (const page of pages) await page.close().catch(() => undefined);
  await browser?.close();
  await hooks?.stop();
});

async function open(
  options: Parameters<typeof openConsoleAs>[4] = {},
  newChannel = "New channel",
): Promise<WatchedPage> {
  const watched = await openConsoleAs(browser!, base, ada, "/console/channels", { language: "en-GB", ...options });
  pages.push(watched.page);
  await watched.page.locator(`::-p-aria([name='${newChannel}'][role='heading'])`).wait();
  // The list has been read once it shows a row or says it has none.
  await watched.page.locator(".channels > li").wait();
  return watched;
}

async function fill(page: Page, label: string, value: string): Promise<void> {
  await page.locator(`::-p-aria([name='${label}'][role='textbox'])`).fill(value);
}

async function press(page: Page, name: string): Promise<void> {
  await page.locator(`::-p-aria([name='${name}'][role='button'])`).click();
}

async function textOf(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (element) => element.textContent ?? "");
}

async function valueOf(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (input) => (input as unknown as { value: string }).value);
}

async function apiChannels(): Promise<Array<{ uuid: string; type: string; name: string }>> {
  const { body } = await ctx.service.graphql("{ channels { uuid type name } }", { token: ada.accessToken });
  expect(body.errors).toBeUndefined();
  return body.data.channels;
}

/** Brings an element to the top of the screen, below the page's sticky header. */
async function scrollTo(page: Page, selector: string): Promise<void> {
  await page.$eval(selector, (element) => element.scrollIntoView());
  await page.evaluate("window.scrollBy(0, -90)");
}

const LIST = "[aria-labelledby='channels-list-heading']";

describe("a webhook channel", () => {
  let watched: WatchedPage;
  let secret: string;

  test("a URL the API refuses: its message beside the URL field, what was typed kept", async () => {
    watched = await open();
    const { page } = watched;
    expect(await textOf(page, LIST)).toContain("No channels yet.");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "console-channels-empty");
    // This browser (Web Push) is the kind picked first; a webhook here.
    expect(await valueOf(page, "#channel-type")).toBe("webpush");
    await page.select("#channel-type", "webhook");
    await fill(page, "Name", "Dispatch board");
    // A URL the browser takes (type=url) and the API does not (http(s) only).
    await fill(page, "Webhook URL", "ftp://example.org/hook");
    await press(page, "Make the channel");
    await page.locator("#channel-url-error:not([hidden])").wait();
    expect(await textOf(page, "#channel-url-error")).toBe("url must be an http(s) URL for a webhook channel.");
    expect(await page.$eval("#channel-url", (input) => input.getAttribute("aria-invalid"))).toBe("true");
    expect(await valueOf(page, "#channel-url")).toBe("ftp://example.org/hook");
    expect(await valueOf(page, "#channel-name")).toBe("Dispatch board");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "console-channels-url-error");
    expect(await apiChannels()).toEqual([]);
  });

  test("made through the form: the signing secret shown once, in the API's format", async () => {
    const { page, problems } = watched;
    await fill(page, "Webhook URL", `${hooks.url}/hook`);
    await fill(page, "Extra headers (optional)", "Authorization: Bearer receiver-secret");
    await press(page, "Make the channel");
    await page.locator("#channel-secret").wait();
    secret = await valueOf(page, "#channel-secret");
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/);
    await page.locator("::-p-text(Channel “Dispatch board” made.)").wait();
    // Listed with its type and target; the field errors are gone and the form is empty again.
    const listed = await textOf(page, LIST);
    expect(listed).toContain("Dispatch board");
    expect(listed).toContain("Webhook (signed HTTP POST)");
    expect(listed).toContain(`${hooks.url}/hook`);
    expect(listed).toContain("1 extra header");
    expect(listed).not.toContain("header(s)");
    expect(listed).not.toContain(secret);
    expect(listed).not.toContain("receiver-secret");
    expect(await page.$eval("#channel-url-error", (error) => (error as unknown as { hidden: boolean }).hidden)).toBe(
      true,
    );
    expect(await valueOf(page, "#channel-url")).toBe("");
    expect(await apiChannels()).toEqual([expect.objectContaining({ type: "webhook", name: "Dispatch board" })]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "console-channels-secret");
    // Shown once: a reload of the screen has it nowhere.
    await page.reload({ waitUntil: "load" });
    await page.locator(".channels > li.channel").wait();
    expect(await page.$("#channel-secret")).toBeNull();
    expect(await page.content()).not.toContain(secret);
    expect(problems).toEqual([]);
  });

  test("a test send reaches the receiver, signed with the secret shown; the page says delivered and lists it", async () => {
    const { page, problems } = watched;
    await press(page, "Send a test: Dispatch board");
    const outcome = await waitUntil(
      () => textOf(page, ".channel-outcome"),
      (text) => text.startsWith("The test was delivered"),
      "the test's outcome",
    );
    expect(outcome).toMatch(/^The test was delivered \(answer 200, \d+ ms\)\.$/);
    const [request] = await hooks.waitFor((received) => received.path === "/hook");
    expect(request.headers.authorization).toBe("Bearer receiver-secret");
    const body = new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    expect(body).toMatchObject({ event: "notification.test", test: true, channel: { name: "Dispatch board" } });
    // The channel's deliveries, opened by the test send: the test, delivered.
    const deliveries = await waitUntil(
      () => textOf(page, ".deliveries"),
      (text) => text.includes("delivered"),
      "the delivery in the channel's list",
    );
    expect(deliveries).toMatch(/^delivered · .+ · Test · answer 200$/);
    expect(await page.$eval(".channel-deliveries", (details) => (details as unknown as { open: boolean }).open)).toBe(
      true,
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "console-channels-test-delivered");

    // A receiver that fails: said in words with its answer, and the failed delivery listed.
    hooks.respondWith.status = 500;
    await press(page, "Send a test: Dispatch board");
    await waitUntil(
      () => textOf(page, ".channel-outcome"),
      (text) => text.startsWith("The test was not delivered. The receiver answered HTTP 500"),
      "the failed test's outcome",
    );
    hooks.respondWith.status = 200;
    await waitUntil(
      () => page.$$eval(".deliveries li", (items) => items.map((item) => item.textContent ?? "")),
      (items) => items.length === 2 && items[0].startsWith("failed") && items[1].startsWith("delivered"),
      "both deliveries, newest first",
    );
    expect(problems).toEqual([]);
  });

  test("at phone width", async () => {
    const { page, problems } = await open({ viewport: PHONE });
    await page.locator("::-p-aria([name='Channels'][role='link'])").wait();
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Nothing wider than the screen.
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
    await scrollTo(page, "#channels-list-heading");
    await screenshot(page, "console-channels-phone");
    await scrollTo(page, "#channel-new-heading");
    await screenshot(page, "console-channels-phone-form");
    expect(problems).toEqual([]);
  });

  test("Delete asks first: Cancel keeps the channel, Delete removes it", async () => {
    const { page, problems } = watched;
    await press(page, "Delete: Dispatch board");
    await page.locator("dialog[open]").wait();
    expect(await textOf(page, "dialog[open]")).toContain("Delete the channel “Dispatch board”?");
    await screenshot(page, "console-channels-confirm");
    await press(page, "Cancel");
    expect(await page.$("dialog")).toBeNull();
    expect(await textOf(page, LIST)).toContain("Dispatch board");
    expect(await apiChannels()).toHaveLength(1);
    await press(page, "Delete: Dispatch board");
    await page.locator("dialog[open] button.danger").click();
    await page.locator("::-p-text(Channel “Dispatch board” deleted.)").wait();
    expect(await textOf(page, LIST)).toContain("No channels yet.");
    expect(await page.evaluate("document.activeElement.id")).toBe("channels-list-heading");
    expect(await apiChannels()).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe("the other types", () => {
  test("each type shows only its own fields, labelled in words with a hint; an e-mail channel has no secret", async () => {
    const { page, problems } = await open();
    const types = await page.$$eval("#channel-type option", (options) =>
      options.map((option) => (option as unknown as { value: string }).value),
    );
    // Every type of the API, this browser first (made by the browser itself, below).
    expect(types).toEqual([
      "webpush",
      "email",
      "sms",
      "webhook",
      "telegram",
      "ntfy",
      "pushover",
      "gotify",
      "discord",
      "slack",
      "mqtt",
    ]);
    const seen: Record<string, string[]> = {};
    for (const type of types.filter((one) => one !== "webpush")) {
      await page.select("#channel-type", type);
      seen[type] = await page.$$eval("#channel-form .field", (fields) =>
        fields.map((field) => {
          const label = field.querySelector("label")?.textContent ?? "";
          const hint = field.querySelector(".field-hint")?.textContent ?? "";
          return `${label}${hint ? "" : " (no hint)"}`;
        }),
      );
    }
    expect(seen).toEqual({
      email: ["Name", "E-mail address"],
      sms: ["Name", "Phone number"],
      webhook: ["Name", "Webhook URL", "Extra headers (optional)"],
      telegram: ["Name", "Telegram chat id"],
      ntfy: ["Name", "ntfy topic", "ntfy server (optional)", "Access token (optional)"],
      pushover: ["Name", "Pushover user or group key"],
      gotify: ["Name", "Gotify server", "Application token"],
      discord: ["Name", "Incoming webhook URL"],
      slack: ["Name", "Incoming webhook URL"],
      mqtt: ["Name", "Broker URL", "Topic prefix (optional)", "User name (optional)", "Password (optional)"],
    });

    // An ntfy topic the API refuses lands beside the topic; then an e-mail channel, no secret shown.
    await page.select("#channel-type", "ntfy");
    await fill(page, "Name", "Phone");
    await fill(page, "ntfy topic", "no spaces allowed");
    await press(page, "Make the channel");
    await page.locator("#channel-topic-error:not([hidden])").wait();
    expect(await textOf(page, "#channel-topic-error")).toMatch(/^topic must be 1 to 64 letters/);
    await page.select("#channel-type", "email");
    await fill(page, "Name", "Duty officer");
    await fill(page, "E-mail address", "duty@example.org");
    await press(page, "Make the channel");
    await page.locator("::-p-text(Channel “Duty officer” made.)").wait();
    expect(await page.$("#channel-secret")).toBeNull();
    expect(await textOf(page, LIST)).toContain("duty@example.org");
    await screenshot(page, "console-channels-email");
    expect(problems).toEqual([]);
  });
});

test("in Dutch: every text of the screen has its Dutch words", async () => {
  const { page, problems } = await open({ language: "nl-NL" }, "Nieuw kanaal");
  await page.locator("#channel-type").wait();
  for (const type of ["webpush", "webhook", "mqtt"]) {
    await page.select("#channel-type", type);
    const text = await page.evaluate("document.body.innerText");
    // A key shown instead of its text (t() answers the key when it has none).
    expect(text).not.toMatch(/\b(channels|push)\.[a-zA-Z.]+/);
  }
  expect(await textOf(page, "#channel-form")).toContain("Broker-URL");
  await screenshot(page, "console-channels-nl");
  expect(problems).toEqual([]);
});

describe("Notify this browser (Web Push)", () => {
  test("without the notification permission (headless Chromium's default) the page says so", async () => {
    const { page, problems } = await open();
    // Not asked yet: the form starts on this browser.
    expect(await valueOf(page, "#channel-type")).toBe("webpush");
    await press(page, "Notify this browser");
    const said = await waitUntil(
      () => textOf(page, "#push-form-problem"),
      (text) => text.length > 0,
      "the refusal in words",
    );
    expect(said).toMatch(/^(Notifications from this site are blocked|No permission for notifications was given)/);
    expect((await apiChannels()).filter((channel) => channel.type === "webpush")).toEqual([]);
    expect(problems).toEqual([]);
  });

  test("with the permission: Chromium's push service cannot be reached from a test, and the page says so", async () => {
    await browser!.defaultBrowserContext().overridePermissions(new URL(base).origin, ["notifications"]);
    const { page, problems } = await open();
    // Allowed now: the form starts on this browser.
    expect(await valueOf(page, "#channel-type")).toBe("webpush");
    await press(page, "Notify this browser");
    const said = await waitUntil(
      () => textOf(page, "#push-form-problem"),
      (text) => text.length > 0,
      "the failure in words",
      30_000,
    );
    expect(said).toMatch(/^The browser could not subscribe at its push service: .+\. Try again later/);
    // The permission was given: the notice that notifications are blocked is gone.
    expect(await page.$("#push-notice")).toBeNull();
    // The worker the service serves is registered for the whole origin.
    const worker = await page.evaluate(
      "navigator.serviceWorker.ready.then((registration) => [registration.scope, registration.active.scriptURL])",
    );
    expect(worker).toEqual([`${base}/`, `${base}/push/sw.js`]);
    await scrollTo(page, "#channel-new-heading");
    await screenshot(page, "console-channels-push-failed");
    expect(problems).toEqual([]);
  });

  test("with the push service stood in: the subscription, made with webPushPublicKey, becomes a webpush channel", async () => {
    // Only PushManager.subscribe is replaced (Chromium's push service is Google's FCM): it hands back
    // what a browser would, a subscription with a P-256 key and an auth secret, and records the key.
    const ecdh = createECDH("prime256v1");
    const subscription = {
      endpoint: `${hooks.url.replace("http:", "https:")}/push/abc`,
      expirationTime: null,
      keys: { p256dh: ecdh.generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") },
    };
    const { page, problems } = await open();
    await page.evaluate(`(() => {
      const subscription = ${JSON.stringify(subscription)};
      PushManager.prototype.getSubscription = async () => null;
      PushManager.prototype.subscribe = async (options) => {
        window.subscribedWith = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)))
          .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
        return { toJSON: () => subscription, options };
      };
    })()`);
    await fill(page, "Name of this device", "Ada's laptop");
    await press(page, "Notify this browser");
    await page.locator("::-p-text(This browser now gets the notifications)").wait();
    expect(await page.evaluate("window.subscribedWith")).toBe(TEST_VAPID_KEYS.publicKey);
    await waitUntil(
      () => textOf(page, LIST),
      (text) => text.includes("Ada's laptop"),
      "the new channel in the list",
    );
    expect(await textOf(page, LIST)).toContain("This browser (Web Push)");
    expect((await apiChannels()).filter((channel) => channel.type === "webpush")).toEqual([
      expect.objectContaining({ name: "Ada's laptop" }),
    ]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await scrollTo(page, "#channel-new-heading");
    await screenshot(page, "console-channels-push");
    expect(problems).toEqual([]);
  });
});
