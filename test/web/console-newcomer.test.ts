// The console as a newcomer meets it on an installation without SMTP_URL (issue 44), in Chromium
// against the real service and its worker:
// - registration says what an organisation and an environment are for, names the organisation as
//   the service will ("Eva de Vries's organization"), and says the verification link is in the
//   service's log (">>> E-MAIL"), as do the sign-in link and the forgotten-password screens;
// - the token form explains each scope in words, the auth:* ones apart ("for an app that signs
//   people up or in");
// - the channel form starts on this browser (Web Push), or ntfy where the browser cannot take
//   pushes, and lists e-mail, SMS, Telegram and Pushover as not set up here, with their settings;
//   a failed delivery is said in words ("refused the connection", "does not exist (DNS)"), and
//   attempts are counted in proper plurals, in English and Dutch;
// - a new monitor sends one notification per incident, urgency is "at least" (A1's level means A0
//   and A1, and P1), services and urgencies are in the page's language, and a catch-all monitor
//   asks before it is saved, with the number a day;
// - a monitor's page shows every criterion and rule it has, and its circle on a small map;
// - the respond page says at once that a link is not valid or has expired, without buttons, and
//   shows the incident of a valid one.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import {
  DESKTOP,
  launchBrowser,
  LAUNCH_TIMEOUT,
  newWatchedPage,
  PHONE,
  pixelsOf,
  screenshot,
  seriousAxeViolations,
  type WatchedPage,
} from "../helpers/browser.ts";
import { openConsoleAs, textOf } from "../helpers/console.ts";
import { freePort } from "../helpers/ports.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { useTestService } from "../helpers/service.ts";
import { QUIET_HOURS } from "../helpers/quiet-hours.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let hooks: WebhookReceiver;
beforeAll(async () => {
  hooks = await startWebhookReceiver();
});
// No SMTP_URL (the tests' default): e-mail goes to the log. The webhook receiver is local.
const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: true } }));

const HOUR = 3_600_000;
/** The circle's colour on the maps (circle-map.ts CIRCLE_COLOUR). */
const CIRCLE_RGB: [number, number, number] = [0x09, 0x69, 0xda];

let browser: Browser | undefined;
let ada: TestUser;
let boardUuid: string;
const pages: Page[] = [];

/** Words that keep the busy pages below apart (one incident each: the same text within 2 hours is one). */
const WORDS = ["woning", "winkel", "station", "school", "park", "kantoor", "garage", "haven", "markt", "kerk"];

/**
 * 330 ambulance pages in Utrecht over the past four weeks, 2 hours apart, each its own incident:
 * eleven a day, what a catch-all monitor previews.
 */
const BUSY = Array.from({ length: 330 }, (_, i) => ({
  message: `A2 Ambulance Utrecht ${WORDS[i % WORDS.length]} bon ${81000 + i}`,
  sended: new Date(Date.now() - (i + 1) * 2 * HOUR).toISOString(),
  capcodes: ["0923002"],
}));

beforeAll(async () => {
  await storeP2000Pages(ctx.db, BUSY);
  ada = await signUp(ctx.service, "ada@example.org");
  const { body } = await ctx.service.graphql(
    "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
    { token: ada.accessToken, variables: { i: { type: "webhook", name: "Board", url: `${hooks.url}/hook` } } },
  );
  expect(body.errors).toBeUndefined();
  boardUuid = body.data.createChannel.channel.uuid;
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  for (const page of pages) await page.close().catch(() => undefined);
  await browser?.close();
  await hooks?.stop();
});

async function open(path: string, options: Parameters<typeof openConsoleAs>[4] = {}): Promise<WatchedPage> {
  const watched = await openConsoleAs(browser!, ctx.service.url, ada, path, { language: "en-GB", ...options });
  pages.push(watched.page);
  return watched;
}

async function openSignedOut(path: string, language = "en-GB"): Promise<WatchedPage> {
  const watched = await newWatchedPage(browser!, { language });
  pages.push(watched.page);
  await watched.page.goto(new URL(path, ctx.service.url).href, { waitUntil: "load" });
  return watched;
}

async function fill(page: Page, label: string, value: string): Promise<void> {
  await page.locator(`::-p-aria([name='${label}'][role='textbox'])`).fill(value);
}

async function press(page: Page, name: string): Promise<void> {
  await page.locator(`::-p-aria([name='${name}'][role='button'])`).click();
}

const valueOf = (page: Page, selector: string) =>
  page.$eval(selector, (input) => (input as unknown as { value: string }).value);

/** The page's text as a person reads it, for keys shown instead of words (t() answers the key). */
async function noKeysShown(page: Page): Promise<void> {
  const text = (await page.evaluate("document.body.innerText")) as string;
  expect(text).not.toMatch(
    /\b(register|installation|tokens|channels|push|failure|monitors|respond|signIn|forgot)\.[a-zA-Z.]+/,
  );
}

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const { body } = await ctx.service.graphql(query, { token: ada.accessToken, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
}

describe("registering without SMTP_URL", () => {
  test("the hints say what an organisation and an environment are for, and the organisation's name left empty", async () => {
    const { page, problems } = await openSignedOut("/console/register");
    await page.locator("#register-form").wait();
    const hint = (id: string) => textOf(page, `#${id}-hint`);
    expect(await hint("register-environment")).toMatch(
      /^An environment has its own monitors, channels and API tokens, apart from other environments/,
    );
    expect(await hint("register-organization")).toMatch(/^What your environments belong to/);
    // Left empty, the organisation is named after the name typed (migration 000084), and the hint says so.
    await fill(page, "Your name", "Eva de Vries");
    expect(await hint("register-organization")).toContain("Left empty: “Eva de Vries's organization”.");
    // Said before anything is sent: no e-mail leaves this installation.
    await page.locator("#register-mail-notice:not([hidden])").wait();
    expect(await textOf(page, "#register-mail-notice")).toMatch(
      /^This installation sends no e-mail \(no SMTP_URL is set\): your verification link will be in the service's log, on the line that starts with “>>> E-MAIL”\./,
    );
    await fill(page, "E-mail address", "eva.devries@example.org");
    await fill(page, "Password", "a kettle of fish and chips");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "console-newcomer-register");
    await press(page, "Create account");
    await page.locator("#register-done").wait();
    const done = await textOf(page, "#register-done");
    expect(done).toMatch(
      /^Your account is made\. Open the verification link for eva\.devries@example\.org, then sign in\./,
    );
    expect(done).toContain("the link is in the service's log, on the line that starts with “>>> E-MAIL”");
    expect(done).not.toContain("We have sent");
    await screenshot(page, "console-newcomer-registered");
    // The organisation is named as the hint said, and the link is where the page says (kept, not sent).
    const {
      rows: [made],
    } = await ctx.db.asOwner<{ name: string; kept: number }>(
      `select o.name, (select count(*)::int from app_private.emails e where e.to_address = 'eva.devries@example.org') as kept
         from app_public.organizations o where o.name like 'Eva%'`,
    );
    expect(made).toEqual({ name: "Eva de Vries's organization", kept: 1 });
    expect(problems).toEqual([]);
  });

  test("the sign-in link and the forgotten password say where their link is", async () => {
    const { page, problems } = await openSignedOut("/console/sign-in");
    await page.locator("#magic-link-email").fill("eva.devries@example.org");
    await press(page, "E-mail me a sign-in link");
    await page.locator("#magic-link-form .form-status::-p-text(>>> E-MAIL)").wait();
    expect(await textOf(page, "#magic-link-form .form-status")).toMatch(
      /^If an account exists for that address, a sign-in link was made for it\. This installation sends no e-mail/,
    );
    await page.goto(new URL("/console/forgot-password?lang=nl", ctx.service.url).href, { waitUntil: "load" });
    await page.locator("#forgot-email").fill("eva.devries@example.org");
    await press(page, "Stuur de link");
    await page.locator("#forgot-form .form-status::-p-text(>>> E-MAIL)").wait();
    expect(await textOf(page, "#forgot-form .form-status")).toMatch(
      /^Als er een account bij dit adres hoort, is er een link gemaakt .+ Deze installatie verstuurt geen e-mail \(er is geen SMTP_URL ingesteld\): de link staat in het log van de dienst/,
    );
    await screenshot(page, "console-newcomer-forgot-nl");
    await noKeysShown(page);
    expect(problems).toEqual([]);
  });

  test("in Dutch, the registration's hints and notice", async () => {
    const { page, problems } = await openSignedOut("/console/register", "nl-NL");
    await page.locator("#register-mail-notice:not([hidden])").wait();
    await fill(page, "Je naam", "Eva");
    expect(await textOf(page, "#register-organization-hint")).toBe(
      "Waar je omgevingen bij horen: je team, bedrijf of huishouden. Leeg: “Eva's organization”.",
    );
    expect(await textOf(page, "#register-environment-hint")).toMatch(/^Een omgeving heeft haar eigen monitors/);
    await noKeysShown(page);
    expect(problems).toEqual([]);
  });
});

test("the token form explains each scope in words, the sign-up and sign-in scopes apart", async () => {
  const { page, problems } = await open("/console/tokens");
  await page.locator(".token-auth-scopes").wait();
  const group = await textOf(page, ".token-auth-scopes");
  expect(group).toMatch(/^For an app that signs people up or in/);
  expect(group).toContain("A dashboard or Home Assistant needs none of them");
  expect(group).toContain(
    "auth:register: Register new users: makes an account, an organisation and an environment, and sends the verification e-mail.",
  );
  expect(group).toContain("auth:login: Sign users in with their e-mail address and password");
  expect(group).toContain("auth:password_reset: E-mail users who forgot their password");
  // Every scope the API has is in the group (none offered loose beside "read the public data").
  const loose = await page.$$eval("#token-form > fieldset > label.checkbox", (labels) => labels.length);
  expect(loose).toBe(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.$eval(".token-auth-scopes", (element) => element.scrollIntoView({ block: "center" }));
  await screenshot(page, "console-newcomer-token-scopes");
  expect(problems).toEqual([]);
});

describe("channels on an installation that cannot send e-mail, SMS, Telegram or Pushover", () => {
  test("a browser that blocks this site's notifications starts on ntfy", async () => {
    // Every permission not listed is denied: notifications blocked for this site.
    await browser!.defaultBrowserContext().overridePermissions(new URL(ctx.service.url).origin, []);
    const { page, problems } = await open("/console/channels");
    await page.locator("#channel-type").wait();
    expect(await valueOf(page, "#channel-type")).toBe("ntfy");
    // This browser stays on the list, and says it is blocked.
    await page.select("#channel-type", "webpush");
    await page.locator("#push-notice").wait();
    expect(await textOf(page, "#push-notice")).toMatch(/^Notifications from this site are blocked in this browser/);
    expect(problems).toEqual([]);
  });

  test("the form starts on this browser, lists what cannot be delivered here with its setting", async () => {
    // Headless Chromium takes pushes, notifications are allowed (or not yet asked: the same), and
    // the test service has VAPID keys: this browser first.
    await browser!.defaultBrowserContext().overridePermissions(new URL(ctx.service.url).origin, ["notifications"]);
    const { page, problems } = await open("/console/channels");
    await page.locator("#channel-type").wait();
    expect(await valueOf(page, "#channel-type")).toBe("webpush");
    await page.locator("#push-form").wait();
    const options = await page.$$eval("#channel-type option", (all) =>
      all.map((option) => {
        const o = option as unknown as { value: string; disabled: boolean; textContent: string };
        return [o.value, o.disabled, o.textContent];
      }),
    );
    expect(options.filter(([, disabled]) => !disabled).map(([value]) => value)).toEqual([
      "webpush",
      "webhook",
      "ntfy",
      "gotify",
      "discord",
      "slack",
      "mqtt",
    ]);
    expect(options.filter(([, disabled]) => disabled)).toEqual([
      ["email", true, "E-mail — needs SMTP_URL"],
      ["sms", true, "SMS — needs SMS_PROVIDER_URL"],
      ["telegram", true, "Telegram chat — needs TELEGRAM_BOT_TOKEN"],
      ["pushover", true, "Pushover — needs PUSHOVER_APP_TOKEN"],
    ]);
    expect(await page.$eval("#channel-type optgroup", (group) => group.getAttribute("label"))).toBe(
      "Not set up on this installation",
    );
    expect(await textOf(page, "#channel-unavailable")).toBe(
      "Not set up on this installation: E-mail (needs SMTP_URL), SMS (needs SMS_PROVIDER_URL), Telegram chat (needs TELEGRAM_BOT_TOKEN), Pushover (needs PUSHOVER_APP_TOKEN). Whoever runs the service enables each by giving the setting named and restarting it (the README lists the settings).",
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.$eval("#channel-new-heading", (element) => element.scrollIntoView());
    await screenshot(page, "console-newcomer-channel-types");
    expect(problems).toEqual([]);
  });

  test("a browser without push starts on ntfy", async () => {
    const { page, problems } = await open("/console/channels");
    // The same screen in a browser without the Push API (the session stays in its storage).
    await page.evaluateOnNewDocument("delete window.PushManager;");
    await page.reload({ waitUntil: "load" });
    await page.locator("#channel-type").wait();
    expect(await valueOf(page, "#channel-type")).toBe("ntfy");
    expect(await page.$("#channel-topic")).not.toBeNull();
    // This browser stays on the list, and says why it cannot.
    await page.select("#channel-type", "webpush");
    await page.locator("#push-notice").wait();
    expect(await textOf(page, "#push-notice")).toMatch(/^This browser cannot receive push notifications/);
    expect(problems).toEqual([]);
  });

  test("a failed delivery in words, in English and Dutch, and attempts counted properly", async () => {
    // A webhook to a port where nothing listens: a real refused connection.
    const closed = await freePort();
    const { createChannel } = await graphql(
      "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
      { i: { type: "webhook", name: "Nobody home", url: `http://127.0.0.1:${closed}/hook` } },
    );
    const { page, problems } = await open("/console/channels");
    await page.locator(`#channel-${createChannel.channel.uuid}`).wait();
    await press(page, "Send a test: Nobody home");
    const outcome = `#channel-${createChannel.channel.uuid}-outcome`;
    const said = await waitUntil(
      () => textOf(page, outcome),
      (text) => text.startsWith("The test was not delivered"),
      "the failed test in words",
    );
    expect(said).toBe(
      `The test was not delivered. The receiver at 127.0.0.1:${closed} refused the connection: nothing listens there.`,
    );
    expect(said).not.toContain("ECONNREFUSED");
    // The same delivery as an ntfy channel whose host does not exist would have stored it.
    await ctx.db.asOwner(
      `update app_private.notification_attempts a set error = 'getaddrinfo ENOTFOUND ntfy.sh'
         from app_private.notifications n where n.uuid = a.notification_uuid and n.channel_uuid = $1`,
      [createChannel.channel.uuid],
    );
    await press(page, "Send a test: Nobody home");
    const deliveries = `#channel-${createChannel.channel.uuid}-deliveries .deliveries`;
    const listed = await waitUntil(
      () => textOf(page, deliveries),
      (text) => text.includes("ntfy.sh"),
      "the stored error in words",
    );
    expect(listed).toContain("The receiver's host name ntfy.sh does not exist (DNS).");
    expect(listed).not.toContain("getaddrinfo");
    await page.$eval(outcome, (element) => element.scrollIntoView({ block: "center" }));
    await screenshot(page, "console-newcomer-failure-words");

    // In Dutch.
    await page.goto(new URL("/console/channels?lang=nl", ctx.service.url).href, { waitUntil: "load" });
    await page.locator(`#channel-${createChannel.channel.uuid}-deliveries summary`).click();
    const dutch = await waitUntil(
      () => textOf(page, deliveries),
      (text) => text.includes("ntfy.sh"),
      "the Dutch words",
    );
    expect(dutch).toContain("De hostnaam ntfy.sh van de ontvanger bestaat niet (DNS).");
    expect(dutch).toContain(`De ontvanger op 127.0.0.1:${closed} weigerde de verbinding: daar luistert niets.`);
    await noKeysShown(page);
    expect(problems).toEqual([]);
  });
});

describe("monitors", () => {
  test("a new monitor: one notification per incident, urgency at least, services and urgencies in English", async () => {
    const { page, problems } = await open("/console/monitors/new");
    await page.waitForSelector("#monitor-form");
    // One notification per incident unless raised.
    expect(await valueOf(page, "#rule-per-incident")).toBe("1");
    // Services and urgencies in the page's language, by slug and code, as the map says them.
    await page.waitForSelector("#monitor-disciplines-options input");
    const services = await textOf(page, "#monitor-disciplines-options");
    expect(services).toContain("Fire brigade");
    expect(services).toContain("Police");
    expect(services).toContain("Municipality");
    expect(services).not.toMatch(/Brandweer|Politie|Gemeente/);
    await page.waitForFunction('document.querySelectorAll("#rule-urgency option").length > 1');
    const minimum = await page.$$eval("#rule-urgency option", (all) => all.map((option) => option.textContent));
    expect(minimum).toContain("A1 Urgent");
    expect(minimum).not.toContain("A1 Spoed");
    // Urgency as "at least": each level takes the more urgent codes with it.
    await page.waitForFunction('document.querySelectorAll("#monitor-urgencies option").length > 1');
    const levels = await page.$$eval("#monitor-urgencies option", (all) =>
      all.map((option) => [(option as unknown as { value: string }).value, option.textContent]),
    );
    expect(levels).toEqual([
      ["", "any urgency"],
      ["0", "Immediate dispatch only: A0"],
      ["1", "Urgent or more urgent: A0, A1, P1"],
      ["2", "Less urgent or more urgent: A0, A1, P1, A2, P2"],
      ["3", "Every urgency code, planned transport too: A0, A1, P1, A2, P2, B1, B2, P3"],
    ]);
    await page.select("#monitor-urgencies", "1");
    await page.type("#monitor-name", "Urgent ones");
    await page.click("#monitor-form button[type=submit]");
    await page.waitForFunction("/^\\/console\\/monitors\\/[0-9a-f-]{36}$/.test(location.pathname)");
    const uuid = new URL(page.url()).pathname.split("/").at(-1);
    const {
      rows: [saved],
    } = await ctx.db.asOwner<{ query: unknown; notification_rules: unknown }>(
      "select query, notification_rules from app_public.monitors where uuid = $1",
      [uuid],
    );
    expect(saved).toEqual({ query: { urgencies: ["A0", "A1", "P1"] }, notification_rules: { maxPerDossier: 1 } });
    // Edited again, the level comes back as chosen.
    await page.goto(new URL(`/console/monitors/${uuid}/edit`, ctx.service.url).href, { waitUntil: "load" });
    await page.waitForFunction('document.querySelector("#monitor-urgencies")?.value === "1"');
    expect(problems).toEqual([]);
  });

  test("a catch-all monitor asks before it is saved, with the number a day", async () => {
    const { page, problems } = await open("/console/monitors/new");
    await page.waitForSelector("#monitor-form");
    await page.type("#monitor-name", "Everything");
    await page.$$eval(".monitor-channels label", (labels) =>
      labels
        .find((label) => label.textContent?.includes("Board"))
        ?.querySelector("input")
        ?.click(),
    );
    await page.click("#monitor-form button[type=submit]");
    await page.waitForSelector("dialog.confirm[open]");
    const question = await textOf(page, "dialog.confirm[open] #confirm-question");
    expect(question).toBe(
      "This monitor would send about 11 notifications a day (330 in the past 30 days), to each of its channels. Save it anyway?",
    );
    // The preview it asked is shown too, with its warning.
    expect(await textOf(page, ".monitor-preview-count")).toBe(
      "330 matches in the past 30 days, of which 330 would have been notified. That is about 11 a day.",
    );
    expect(await textOf(page, "#monitor-preview-noisy")).toMatch(/^That is many: about 11 notifications a day/);
    await screenshot(page, "console-newcomer-noisy-question");
    await page.click("dialog.confirm button:not(.danger)");
    await page.waitForSelector("dialog.confirm", { hidden: true });
    expect(await textOf(page, "#monitor-form .form-status")).toBe("Not saved: narrow the monitor, or save it anyway.");
    expect(new URL(page.url()).pathname).toBe("/console/monitors/new");
    expect((await graphql("{ monitors { name } }")).monitors.map((m: { name: string }) => m.name)).not.toContain(
      "Everything",
    );
    await page.click("#monitor-form button[type=submit]");
    await page.waitForSelector("dialog.confirm[open]");
    await page.click("dialog.confirm button.danger");
    await page.waitForFunction("/^\\/console\\/monitors\\/[0-9a-f-]{36}$/.test(location.pathname)");
    expect((await graphql("{ monitors { name } }")).monitors.map((m: { name: string }) => m.name)).toContain(
      "Everything",
    );
    expect(problems).toEqual([]);
  });

  describe("the monitor's page", () => {
    let regionMonitor: string;
    let circleMonitor: string;
    let utrecht: { slug: string; number: number; name: string };

    beforeAll(async () => {
      const { body } = await ctx.service.graphql("{ p2000Regions { slug number name } }", { token: ada.apiToken });
      const { p2000Regions } = body.data;
      utrecht = p2000Regions.find((region: { name: string }) => region.name === "Utrecht");
      const create = async (input: Record<string, unknown>) =>
        (
          await graphql("mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }", {
            i: { type: "p2000", channels: JSON.stringify([boardUuid]), ...input },
          })
        ).createMonitor.uuid as string;
      regionMonitor = await create({
        name: "Utrecht ambulances",
        query: JSON.stringify({
          regions: [utrecht.slug],
          disciplines: ["ambulance", "brandweer"],
          urgencies: ["A0", "A1", "P1"],
          keywords: ["reanimatie"],
          excludeKeywords: ["proefalarm"],
        }),
        notificationRules: JSON.stringify({ maxPerDossier: 1, quietHours: QUIET_HOURS }),
      });
      circleMonitor = await create({
        name: "Near the Dom",
        query: JSON.stringify({ capcodes: ["0923002"] }),
        notificationRules: JSON.stringify({ maxPerDossier: 2, minUrgency: "A1" }),
        location: { latitude: 52.0907, longitude: 5.1214 },
        radius: 3,
      });
    });

    test("a monitor of one region: every criterion and rule in words, not 'all of the Netherlands'", async () => {
      const { page, problems } = await open(`/console/monitors/${regionMonitor}`);
      await page.waitForSelector("#monitor-state");
      const facts = await textOf(page, "#monitor-facts");
      expect(facts).not.toContain("all of the Netherlands");
      expect(await textOf(page, "#monitor-where")).toBe(`the areas chosen: ${utrecht.number} ${utrecht.name}`);
      expect(await textOf(page, "#monitor-criterion-regions")).toBe(`${utrecht.number} ${utrecht.name}`);
      expect(await textOf(page, "#monitor-criterion-disciplines")).toBe("AmbulanceFire brigade");
      expect(await textOf(page, "#monitor-criterion-urgencies")).toBe("Urgent or more urgent: A0, A1, P1");
      expect(await textOf(page, "#monitor-criterion-keywords")).toBe("reanimatie");
      expect(await textOf(page, "#monitor-criterion-excludeKeywords")).toBe("proefalarm");
      expect(await textOf(page, "#monitor-rules")).toBe(
        `not between ${QUIET_HOURS.from} and ${QUIET_HOURS.to}at most 1 notification per incident`,
      );
      // No circle: no map.
      expect(await page.$("#monitor-area-map")).toBeNull();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, "console-newcomer-monitor-region");
      expect(problems).toEqual([]);
    });

    test("a monitor with a circle: its area on a small map, its rules; Dutch words", async () => {
      const { page, problems } = await open(`/console/monitors/${circleMonitor}`);
      await page.waitForSelector("#monitor-state");
      expect(await textOf(page, "#monitor-where")).toBe("within 3 km of 52.09070, 5.12140");
      expect(await textOf(page, "#monitor-criterion-capcodes")).toBe("0923002");
      expect(await textOf(page, "#monitor-rules")).toBe(
        "only messages at least as urgent as A1 Urgentat most 2 notifications per incident",
      );
      await page.waitForSelector('#monitor-area-map[data-idle="true"]');
      expect(await pixelsOf(page, CIRCLE_RGB)).toBeGreaterThan(100);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, "console-newcomer-monitor-map");
      // On a phone: the facts above the map, nothing wider than the screen.
      await page.setViewport(PHONE);
      await page.waitForSelector('#monitor-area-map[data-idle="true"]');
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
      await page.$eval("h1", (element) => element.scrollIntoView());
      await screenshot(page, "console-newcomer-monitor-phone");
      await page.setViewport(DESKTOP);

      await page.goto(new URL(`/console/monitors/${circleMonitor}?lang=nl`, ctx.service.url).href, {
        waitUntil: "load",
      });
      await page.waitForSelector("#monitor-state");
      expect(await textOf(page, "#monitor-rules")).toBe(
        "alleen meldingen die minstens zo urgent zijn als A1 Spoedhoogstens 2 meldingen per incident",
      );
      await noKeysShown(page);
      expect(problems).toEqual([]);
    });

    test("a delivered notification: '1 attempt', '1 poging', never 'attempt(s)'", async () => {
      await storeP2000Pages(ctx.db, [
        {
          message: "A1 Ambulance Utrecht reanimatie bon 99123",
          sended: new Date().toISOString(),
          capcodes: ["0923002"],
        },
      ]);
      await hooks.waitFor((request) => request.body.includes("bon 99123"), 1, 30_000);
      const { page, problems } = await open(`/console/monitors/${regionMonitor}`);
      await page.waitForSelector("#monitor-state");
      const log = await waitUntil(
        async () => {
          await page.click("#monitor-deliveries-heading + button");
          return textOf(page, "#monitor-deliveries");
        },
        (text) => text.includes("bon 99123") && text.includes("delivered"),
        "the delivery in the monitor's log",
        30_000,
      );
      expect(log).toContain(" · 1 attempt");
      expect(log).not.toContain("attempt(s)");
      await page.goto(new URL(`/console/monitors/${regionMonitor}?lang=nl`, ctx.service.url).href, {
        waitUntil: "load",
      });
      await page.waitForFunction('document.querySelector("#monitor-deliveries")?.textContent.includes("bon 99123")');
      expect(await textOf(page, "#monitor-deliveries")).toContain(" · 1 poging");
      expect(problems).toEqual([]);
    });
  });
});

describe("the respond page checks its link as it opens", () => {
  /** A token of the form respond_on_the_way takes, with the payload given (its signature not the service's). */
  const forged = (claims: string[]) =>
    `${Buffer.from(claims.join(".")).toString("base64url")}.${Buffer.alloc(32, 1).toString("base64url")}`;
  const someUuid = "0190f5a0-0000-7000-8000-000000000001";

  async function openRespond(query: string, language = "en-GB"): Promise<WatchedPage> {
    return openSignedOut(`/respond${query}`, language);
  }

  test("without a token, or cut short: not valid, said at once, no buttons", async () => {
    for (const query of [
      "",
      "?token=eyJhbGciOi",
      `?token=${forged([someUuid, someUuid, someUuid, someUuid]).slice(0, 40)}`,
    ]) {
      const { page, problems } = await openRespond(query);
      await page.locator("#respond-problem").wait();
      expect(await textOf(page, "#respond-problem")).toMatch(
        /^This respond link is not valid\.It is incomplete or was changed\./,
      );
      expect(await page.$$(".respond button")).toEqual([]);
      expect(problems).toEqual([]);
    }
  });

  test("an expired link: said at once with when it ran out, no buttons; in Dutch too", async () => {
    const expiry = Math.floor(Date.now() / 1000) - 3600;
    const token = forged([someUuid, someUuid, someUuid, someUuid, String(expiry)]);
    const { page, problems } = await openRespond(`?token=${token}`);
    await page.locator("#respond-problem").wait();
    expect(await textOf(page, "#respond-problem")).toMatch(
      /^This respond link has expired\.Answers are taken until 24 hours after the notification; this link was valid until /,
    );
    expect(await page.$$(".respond button")).toEqual([]);
    // The token is out of the address bar all the same.
    expect(new URL(page.url()).search).toBe("");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "console-newcomer-respond-expired");
    const dutch = await openRespond(`?token=${token}`, "nl-NL");
    await dutch.page.locator("#respond-problem").wait();
    expect(await textOf(dutch.page, "#respond-problem")).toMatch(/^Deze reageerlink is verlopen\./);
    expect(problems).toEqual([]);
  });

  test("a valid link shows its incident and the buttons", async () => {
    // The notification the monitor's page test delivered: its own respond link.
    const {
      rows: [{ token }],
    } = await ctx.db.asOwner<{ token: string }>(
      `select app_private.responder_token(n.uuid) as token from app_private.notifications n
         join app_public.p2000_messages m on m.uuid = n.message_uuid
        where m.message like '%bon 99123' limit 1`,
    );
    const { page, problems } = await openRespond(`?token=${token}`);
    await page.locator("#respond-incident").wait();
    const incident = await textOf(page, "#respond-incident");
    expect(incident).toContain("bon 99123");
    expect(incident).toContain("A1 Urgent");
    expect(await page.$$eval(".respond button", (buttons) => buttons.map((b) => b.textContent))).toEqual([
      "I am on my way",
      "I am not coming",
    ]);
    expect(await textOf(page, ".respond")).toMatch(/You can answer until /);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "console-newcomer-respond-incident");
    expect(problems).toEqual([]);
  });
});
