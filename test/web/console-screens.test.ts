// The console's Screens and Crew screens in Chromium against the real service (issue 49): a member
// pairs a station screen with the code the screen shows (got here from requestScreenPairing, as the
// screen asks for it), its name, monitors, alarm minutes and the station's place picked from the
// address suggestions; a wrong code is said beside the code. The list shows the screen waiting,
// then connected and last seen once the screen took its credential and read itself. Change sets its
// name and monitors; Remove, after a confirmation (Cancel keeps it), revokes its credential. On the
// Crew screen a member sets who is available (until a time, in Dutch time) and the screen's own
// view of its crew shows it. axe-core; screenshots at desktop and phone width, Dutch and dark.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import {
  launchBrowser,
  LAUNCH_TIMEOUT,
  PHONE,
  screenshot,
  seriousAxeViolations,
  type WatchedPage,
} from "../helpers/browser.ts";
import { openConsoleAs, textOf, typeInto } from "../helpers/console.ts";
import { useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService();

let browser: Browser | undefined;
let ada: TestUser;
const pages: WatchedPage[] = [];
const channels: Record<string, string> = {};
const monitors: Record<string, string> = {};
/** The paired screen's credential, once it took it. */
let screenToken = "";

async function call(query: string, token: string, variables: Record<string, unknown> = {}) {
  const { body } = await ctx.service.graphql(query, { token, variables });
  if (body.errors) throw new Error(body.errors[0].message);
  return body.data;
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org");
  for (const [name, address] of [
    ["Ada", "ada@example.org"],
    ["Bert", "bert@example.org"],
  ]) {
    const { createChannel } = await call(
      "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
      ada.accessToken,
      { i: { type: "email", name, emailAddress: address } },
    );
    channels[name] = createChannel.channel.uuid;
  }
  for (const [name, capcode] of [
    ["Brand Oss", "002029569"],
    ["Ambulance Oss", "001420007"],
  ]) {
    const { createMonitor } = await call(
      "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
      ada.accessToken,
      {
        i: {
          name,
          type: "p2000",
          query: JSON.stringify({ capcodes: [capcode] }),
          channels: JSON.stringify(Object.values(channels)),
        },
      },
    );
    monitors[name] = createMonitor.uuid;
  }
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  for (const { page } of pages) await page.close().catch(() => undefined);
  await browser?.close();
});

async function open(path: string, options: Parameters<typeof openConsoleAs>[4] = {}): Promise<WatchedPage> {
  const watched = await openConsoleAs(browser!, ctx.service.url, ada, path, options);
  pages.push(watched);
  return watched;
}

/** A code as the screen shows it, and the secret the screen keeps. */
async function screenPairing(): Promise<{ code: string; pairingSecret: string }> {
  return (await call("mutation { requestScreenPairing { code pairingSecret } }", ada.apiToken)).requestScreenPairing;
}

const LIST = "[aria-labelledby='screens-list-heading'] ul";

/** Scrolls an element into view and waits for the frames that draw it there (a screenshot too soon shows half a scroll). */
async function scrollTo(page: Page, selector: string, block: "start" | "center" = "start"): Promise<void> {
  await page.$eval(selector, (element, where) => element.scrollIntoView({ block: where }), block);
  await page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))");
}

/** A moment as the console writes it, in Dutch time ("sv-SE" writes ISO's "2026-12-01 18:00"). */
const dutch = (at: Date, options: Intl.DateTimeFormatOptions, tag = "en-GB") =>
  new Intl.DateTimeFormat(tag, { ...options, timeZone: "Europe/Amsterdam" }).format(at);

/** Ticks (or unticks) the box of a monitor in the screen form. */
async function tick(page: Page, monitor: string): Promise<void> {
  await page.click(`#screen-monitors input[value="${monitors[monitor]}"]`);
}

let watched: WatchedPage;

test("pairing a screen: a wrong code said beside the code, then the code the screen shows, its monitors and place", async () => {
  watched = await open("/console/screens?lang=en");
  const { page } = watched;
  await page.locator("::-p-aria([name='Pair a screen'][role='heading'])").wait();
  await page.locator(`${LIST} > li`).wait();
  expect(await textOf(page, LIST)).toBe("No screens yet.");
  expect(await textOf(page, ".console-screen-how")).toContain(`Open ${ctx.service.url}/screen on the TV or tablet`);
  // The environment's monitors to tick, none ticked.
  expect(await page.$$eval("#screen-monitors input", (boxes) => boxes.length)).toBe(2);
  expect(await page.$eval("#screen-alarm-minutes", (input) => (input as unknown as { value: string }).value)).toBe(
    "30",
  );

  await page.locator("::-p-aria([name='Code on the screen'][role='textbox'])").fill("ZZZ-ZZZ");
  await page.locator("::-p-aria([name='Name'][role='textbox'])").fill("Kazerne Oss");
  // Without a monitor the API's refusal is said beside the monitors.
  await page.locator("::-p-aria([name='Pair the screen'][role='button'])").click();
  await page.waitForSelector("#screen-monitors-error:not([hidden])");
  expect(await textOf(page, "#screen-monitors-error")).toBe("A station screen shows 1 to 20 monitors.");
  await tick(page, "Brand Oss");
  await page.locator("::-p-aria([name='Pair the screen'][role='button'])").click();
  await page.waitForSelector("#screen-code-error:not([hidden])");
  expect(await textOf(page, "#screen-code-error")).toMatch(/^No screen shows this code/);
  expect(await page.$eval("#screen-code", (input) => input.getAttribute("aria-invalid"))).toBe("true");

  // The code the screen shows, typed as a person may (small letters, no dash).
  const pairing = await screenPairing();
  await typeInto(page, "#screen-code", pairing.code.replace("-", "").toLowerCase());
  await typeInto(page, "#screen-alarm-minutes", "20");
  // The station's place from the address suggestions, as the monitor form's circle is placed.
  await page.type("#screen-place", "Schied");
  await page.waitForSelector("#screen-place-options li");
  await page.keyboard.press("Enter");
  expect(await textOf(page, "#screen-place-chosen")).toMatch(/^The station: Schiedam.* \(51\.9\d+, 4\.3\d+\)\.$/);
  expect(await page.$eval("#screen-name", (input) => (input as unknown as { value: string }).value)).toBe(
    "Kazerne Oss",
  );
  await scrollTo(page, "#screen-form");
  await screenshot(page, "console-screens-pair");
  expect(await seriousAxeViolations(page)).toEqual([]);

  await page.locator("::-p-aria([name='Pair the screen'][role='button'])").click();
  await page.locator(`${LIST} li.console-screen-row`).wait();
  expect(await textOf(page, "[aria-labelledby='screens-list-heading'] [role=status]")).toBe(
    "Paired: “Kazerne Oss”. The screen connects within seconds.",
  );
  expect(await textOf(page, `${LIST} li.console-screen-row`)).toMatch(
    /^Kazerne OssWaiting for the screenshows Brand Oss · alarm for 20 minutes · not seen yet/,
  );
  // The form is empty again for the next screen.
  expect(await page.$eval("#screen-code", (input) => (input as unknown as { value: string }).value)).toBe("");
  const { rows } = await ctx.db.asOwner(
    "select name, alarm_minutes, latitude, longitude, api_token_uuid from app_public.station_screens",
  );
  expect(rows).toEqual([
    {
      name: "Kazerne Oss",
      alarm_minutes: 20,
      latitude: expect.closeTo(51.92, 1),
      longitude: expect.closeTo(4.39, 1),
      api_token_uuid: null,
    },
  ]);

  // The screen takes its credential and reads itself: the list says it is connected, and when.
  screenToken = (
    await call("mutation ($s: String!) { claimStationScreen(pairingSecret: $s) { token } }", ada.apiToken, {
      s: pairing.pairingSecret,
    })
  ).claimStationScreen.token;
  expect((await call("{ stationScreen { name } }", screenToken)).stationScreen.name).toBe("Kazerne Oss");
  await page.reload({ waitUntil: "load" });
  await page.locator(`${LIST} li.console-screen-row`).wait();
  expect(await textOf(page, `${LIST} li.console-screen-row`)).toMatch(
    /^Kazerne OssConnectedshows Brand Oss · alarm for 20 minutes · last seen \d+ \w+ \d{4}, \d\d:\d\dChangeRemove$/,
  );
  await scrollTo(page, LIST, "center");
  await screenshot(page, "console-screens-desktop");
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(watched.problems).toEqual([]);
}, 60_000);

test("Change: the screen's name, monitors and minutes, the form filled in", async () => {
  const { page } = watched;
  await page.locator("::-p-aria([name='Change: Kazerne Oss'][role='button'])").click();
  await page.locator("::-p-aria([name='Change the screen “Kazerne Oss”'][role='heading'])").wait();
  // No code to type for a screen that is paired; what it has is filled in.
  expect(await page.$("#screen-code")).toBeNull();
  expect(await page.$$eval("#screen-monitors input:checked", (boxes) => boxes.length)).toBe(1);
  expect(await page.$eval("#screen-alarm-minutes", (input) => (input as unknown as { value: string }).value)).toBe(
    "20",
  );
  expect(await textOf(page, "#screen-place-chosen")).toMatch(/^The station: 51\.9\d+, 4\.3\d+\.$/);
  await typeInto(page, "#screen-name", "Kazerne Oss-Noord");
  await tick(page, "Ambulance Oss");
  await typeInto(page, "#screen-alarm-minutes", "45");
  await page.locator("::-p-aria([name='Save'][role='button'])").click();
  await page.locator("::-p-aria([name='Pair a screen'][role='heading'])").wait();
  await waitUntil(
    () => textOf(page, LIST),
    (text) => text.includes("Kazerne Oss-Noord"),
    "the new name listed",
  );
  expect(await textOf(page, `${LIST} li.console-screen-row`)).toMatch(
    /^Kazerne Oss-NoordConnectedshows Brand Oss, Ambulance Oss · alarm for 45 minutes · /,
  );
  // The screen reads its change.
  const { stationScreen } = await call("{ stationScreen { name alarmMinutes monitors { name } } }", screenToken);
  expect(stationScreen).toEqual({
    name: "Kazerne Oss-Noord",
    alarmMinutes: 45,
    monitors: [{ name: "Brand Oss" }, { name: "Ambulance Oss" }],
  });
  expect(watched.problems).toEqual([]);
});

test("the crew: a member sets who is available, until a time in Dutch time; the list and the screen show it", async () => {
  const { page, problems } = await open("/console/crew?lang=en");
  const bert = `#crew-${channels.Bert}`;
  await page.waitForSelector(`${bert}-status`);
  expect(await textOf(page, `${bert}-now`)).toBe("not said");
  expect(await textOf(page, ".rows")).toMatch(/Ada \(E-mail\)not said.*Bert \(E-mail\)not said/s);
  // Bert is away until tomorrow, 18:00 Dutch time: as the person picks it in the field.
  const day = dutch(new Date(Date.now() + 24 * 3600_000), { dateStyle: "short" }, "sv-SE");
  const local = `${day}T18:00`;
  await page.select(`${bert}-status`, "unavailable");
  await page.$eval(`${bert}-until`, (input, value) => ((input as unknown as { value: string }).value = value), local);
  await page.click(`${bert} button[type=submit]`);
  await waitUntil(
    () => textOf(page, `${bert}-now`),
    (text) => text !== "not said",
    "Bert's availability shown",
  );
  const { rows } = await ctx.db.asOwner<{ status: string; until: Date }>(
    "select status, until from app_public.crew_availability where channel_uuid = $1",
    [channels.Bert],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0].status).toBe("unavailable");
  // 18:00 in Amsterdam (17:00 UTC in winter, 16:00 in summer), whatever the browser's zone.
  expect(dutch(rows[0].until, { dateStyle: "short", timeStyle: "short" }, "sv-SE")).toBe(local.replace("T", " "));
  const until = dutch(rows[0].until, { dateStyle: "medium", timeStyle: "short" });
  expect(await textOf(page, `${bert}-now`)).toBe(`not available until ${until}`);
  expect(await textOf(page, `${bert} [role=status]`)).toBe(`Saved: not available until ${until}.`);

  // Ada is available, without an end.
  const adaRow = `#crew-${channels.Ada}`;
  await page.select(`${adaRow}-status`, "available");
  await page.click(`${adaRow} button[type=submit]`);
  await waitUntil(
    () => textOf(page, `${adaRow}-now`),
    (text) => text === "available",
    "Ada available",
  );
  await screenshot(page, "console-crew-desktop");
  expect(await seriousAxeViolations(page)).toEqual([]);

  // The screen's own view of its crew: the channels of its monitors, with their availability.
  const { stationScreen } = await call("{ stationScreen { crew { name availability until } } }", screenToken);
  expect(stationScreen.crew).toEqual([
    { name: "Ada", availability: "available", until: null },
    { name: "Bert", availability: "unavailable", until: expect.any(String) },
  ]);
  expect(Date.parse(stationScreen.crew[1].until)).toBe(rows[0].until.getTime());

  // Not said again clears it.
  await page.select(`${adaRow}-status`, "");
  await page.click(`${adaRow} button[type=submit]`);
  await waitUntil(
    () => textOf(page, `${adaRow}-now`),
    (text) => text === "not said",
    "Ada not said",
  );
  expect(
    (await ctx.db.asOwner("select 1 from app_public.crew_availability where channel_uuid = $1", [channels.Ada])).rows,
  ).toEqual([]);
  expect(problems).toEqual([]);
});

test("on a phone, in Dutch and dark: the screens and the crew", async () => {
  const screens = await open("/console/screens?lang=nl", { viewport: PHONE, colorScheme: "dark", language: "nl-NL" });
  await screens.page.locator(`${LIST} li.console-screen-row`).wait();
  expect(await textOf(screens.page, `${LIST} li.console-screen-row`)).toMatch(/^Kazerne Oss-NoordVerbondentoont /);
  await scrollTo(screens.page, "#screen-form-heading");
  await screenshot(screens.page, "console-screens-phone-form");
  await scrollTo(screens.page, LIST, "center");
  await screenshot(screens.page, "console-screens-phone");
  expect(await seriousAxeViolations(screens.page)).toEqual([]);
  const crew = await open("/console/crew?lang=nl", { viewport: PHONE, colorScheme: "dark", language: "nl-NL" });
  await crew.page.waitForSelector(`#crew-${channels.Bert}-now`);
  expect(await textOf(crew.page, `#crew-${channels.Bert}-now`)).toMatch(/^niet beschikbaar tot /);
  await scrollTo(crew.page, ".rows");
  await screenshot(crew.page, "console-crew-phone");
  expect(await seriousAxeViolations(crew.page)).toEqual([]);
  expect([...screens.problems, ...crew.problems]).toEqual([]);
});

test("Remove, after a confirmation (Cancel keeps it), revokes the screen's credential", async () => {
  const { page } = watched;
  await page.locator("::-p-aria([name='Remove: Kazerne Oss-Noord'][role='button'])").click();
  await page.locator("dialog[open]").wait();
  expect(await textOf(page, "dialog[open] p")).toBe(
    "Remove the screen “Kazerne Oss-Noord”? It can read nothing more from now on, and goes back to showing a pairing code.",
  );
  await screenshot(page, "console-screens-confirm");
  await page.locator("dialog[open] ::-p-aria([name='Cancel'][role='button'])").click();
  await page.waitForSelector("dialog", { hidden: true });
  expect(await textOf(page, `${LIST} li.console-screen-row`)).toMatch(/^Kazerne Oss-Noord/);
  expect((await call("{ stationScreen { name } }", screenToken)).stationScreen.name).toBe("Kazerne Oss-Noord");

  await page.locator("::-p-aria([name='Remove: Kazerne Oss-Noord'][role='button'])").click();
  await page.locator("dialog[open] button.danger").click();
  await page.locator(`${LIST} li.empty`).wait();
  expect(await textOf(page, "[aria-labelledby='screens-list-heading'] [role=status]")).toBe("Screen removed.");
  const { body } = await ctx.service.graphql("{ stationScreen { name } }", { token: screenToken });
  expect(body.errors?.[0]?.extensions?.code).toMatch(/^(UNAUTHENTICATED|FORBIDDEN)$/);
  expect(watched.problems).toEqual([]);
});
