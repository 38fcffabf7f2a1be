// The station screen (/screen, web/src/screen/) in Chromium on a TV-sized viewport, as a fire
// station meets it: the screen shows a pairing code; a member pairs it over the API with that code
// (as the console does) and the screen carries on by itself to idle (its name, the clock, the map,
// the latest matches). A page matching its monitor turns it into an alarm within a second or two;
// three crew members answer through their notifications' respond tokens and appear as they do;
// the reAlert rule's check marks a re-alert; the connection cut shows "Offline since", and a page
// matched meanwhile is there once it is back; a revoked screen shows a new pairing code. The page
// goes through a cuttable TCP proxy (test/helpers/tcp-proxy.ts) for the whole file, so its
// localStorage (the screen's credential) is the proxy's origin's throughout. Screenshots
// test-results/screenshots/screen-*.png.
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { storeNlAlerts } from "../../lib/feeds/alerts/ingest.ts";
import { parseNlAlerts } from "../../lib/feeds/alerts/nl-alert-parser.ts";
import { nlAlertsJson, squareAround } from "../../lib/feeds/alerts/sample-documents.ts";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml } from "../../lib/feeds/meteo/sample-documents.ts";
import { ingestTrafficDocument } from "../../lib/feeds/traffic/ingest.ts";
import { datexV2Xml } from "../../lib/feeds/traffic/sample-documents.ts";
import type { Browser, Page } from "puppeteer-core";
import { launchBrowser, LAUNCH_TIMEOUT, newWatchedPage, screenshot, seriousAxeViolations } from "../helpers/browser.ts";
import { FEEDS_OFF, useTestService } from "../helpers/service.ts";
import { startCuttableProxy, type CuttableProxy } from "../helpers/tcp-proxy.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";

// The functions below that run in the page see the browser's globals; the project's TypeScript
// has no DOM library (it is server code), so these are the few this file uses, typed for it alone.
interface PageElement {
  textContent: string | null;
  hidden: boolean;
}
declare function getComputedStyle(element: unknown): { backgroundColor: string; color: string };
declare const document: {
  documentElement: { dataset: Record<string, string | undefined> };
  querySelector(selector: string): (PageElement & { dataset: Record<string, string | undefined> }) | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
};

const TV = { width: 1280, height: 720 };
/** Schiedam's fire station, roughly: the pages below are in Schiedam. */
const STATION = { latitude: 51.9225, longitude: 4.3886 };
const CAPCODE = "001420007";

const ctx = useTestService(() => ({ feeds: FEEDS_OFF }));

let browser: Browser | undefined;
let page: Page;
let problems: string[];
let proxy: CuttableProxy;
let ada: TestUser;
let monitorUuid: string;
let screenUuid: string;
const channels: Array<{ uuid: string; name: string }> = [];

async function call(query: string, variables: Record<string, unknown> = {}, token = ada.accessToken) {
  const { body } = await ctx.service.graphql(query, { token, variables });
  if (body.errors) throw new Error(body.errors[0].message);
  return body.data;
}

/** A page to the monitor's capcode, sent now; its uuid. */
async function page2000(message: string): Promise<string> {
  const { createP2000Message } = await call(
    "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid } }",
    { i: { message, sended: new Date().toISOString(), capcodes: [{ name: CAPCODE }] } },
  );
  return createP2000Message.uuid;
}

const text = (selector: string) =>
  page.$eval(selector, (element) => (element as unknown as PageElement).textContent ?? "").catch(() => "");
const mode = () =>
  page
    .$eval(".station-screen", (element) => (element as unknown as { dataset: { mode: string } }).dataset.mode)
    .catch(() => "");
const responders = () =>
  page.$$eval(".alarm-responder", (items) => items.map((item) => (item as unknown as PageElement).textContent ?? ""));

beforeAll(async () => {
  browser = await launchBrowser();
  proxy = await startCuttableProxy(new URL(ctx.service.url));
  ({ page, problems } = await newWatchedPage(browser, { viewport: TV, language: "en" }));
  ada = await signUp(ctx.service, "ada@example.org", { admin: true });
  for (const name of ["Anna", "Bram", "Cor"]) {
    const { createChannel } = await call(
      "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
      { i: { type: "email", name, emailAddress: `${name.toLowerCase()}@example.org` } },
    );
    channels.push({ uuid: createChannel.channel.uuid, name });
  }
  const { createMonitor } = await call("mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }", {
    i: {
      name: "Ambulance Schiedam",
      type: "p2000",
      query: JSON.stringify({ capcodes: [CAPCODE] }),
      channels: JSON.stringify(channels.map((channel) => channel.uuid)),
      notificationRules: JSON.stringify({ reAlert: { coming: 3, minutes: 1 } }),
    },
  });
  monitorUuid = createMonitor.uuid;
}, LAUNCH_TIMEOUT);
afterAll(async () => {
  await browser?.close();
  await proxy?.stop();
});

describe("the station screen in Chromium", () => {
  test("pairing: the screen shows a code, a member pairs it, and the screen goes to idle by itself", async () => {
    await page.goto(new URL("/screen?lang=en", proxy.url).href, { waitUntil: "load" });
    const code = await waitUntil(
      () => text(".pair-code"),
      (shown) => /^[A-Z2-9]{3}-[A-Z2-9]{3}$/.test(shown),
      "a code",
    );
    expect(await text(".screen-pairing h1")).toBe("Pair this screen");
    expect(await text(".pair-how")).toContain("Screens");
    // The secret is the screen's alone: nowhere on the page.
    expect(await page.evaluate(() => document.querySelector("body")!.textContent)).not.toMatch(/secret/i);
    await screenshot(page, "screen-pairing");
    expect(await seriousAxeViolations(page)).toEqual([]);

    const { pairStationScreen } = await call(
      "mutation ($i: PairStationScreenInput!) { pairStationScreen(input: $i) { uuid } }",
      { i: { code, name: "Kazerne Schiedam", monitorUuids: [monitorUuid], ...STATION, alarmMinutes: 30 } },
    );
    screenUuid = pairStationScreen.uuid;
    await waitUntil(
      () => text(".screen-name"),
      (name) => name === "Kazerne Schiedam",
      "the screen to be paired",
      20_000,
    );
    expect(await mode()).toBe("idle");
    expect(await text(".screen-clock")).toMatch(/^\d\d:\d\d$/);
    expect(await text("#screen-recent")).toBe("Latest incidents");
    expect(await text(".screen-recent .screen-none")).toBe("No incidents for this screen yet.");
    expect(await text("#screen-traffic")).toBe("Traffic (within 25 km)");
    // The credential is kept for reloads, and the service says the screen is paired.
    expect(await page.evaluate(() => localStorage.getItem("nlis.stationScreenToken"))).toMatch(/^nlis_/);
    const { stationScreens } = await call("{ stationScreens { uuid paired } }");
    expect(stationScreens).toEqual([{ uuid: screenUuid, paired: true }]);
    await page.waitForSelector('.screen-map[data-idle="true"]');
    expect(problems).toEqual([]);
  });

  test("idle: a page matched earlier is listed and on the map, with the feeds around the station; a reload keeps the pairing", async () => {
    // Around the station and far from it: the screen lists only the first (area.ts: 25 km, its province).
    const HOUR = 3_600_000;
    const thisHour = new Date(Math.floor(Date.now() / HOUR) * HOUR);
    const wind = (locations: string[], status: 1 | 2 | 3) => ({
      phenomenon: "wind",
      locations,
      status,
      text: "Zware windstoten.",
      from: thisHour,
      to: new Date(thisHour.getTime() + 4 * HOUR),
    });
    await ingestMeteoDocument(
      ctx.service.ownerPool,
      warningsXml(thisHour, [wind(["ZH"], 2), wind(["GR"], 1)], "wind"),
      "test wind",
    );
    const start = new Date(Date.now() - 30 * 60_000);
    await ingestTrafficDocument(
      ctx.service.ownerPool,
      Readable.from([
        Buffer.from(
          datexV2Xml(new Date(), [
            {
              id: "RWS03_700",
              version: 1,
              type: "accident",
              start,
              latitude: 51.93,
              longitude: 4.36,
              roadNumber: "A4",
            },
            {
              id: "RWS03_701",
              version: 1,
              type: "breakdown",
              start,
              latitude: 53.2,
              longitude: 6.56,
              roadNumber: "N7",
            },
          ]),
        ),
      ]),
      "test",
    );
    const alert = (id: string, messageNl: string, latitude: number, longitude: number) => ({
      id,
      startAt: new Date(Date.now() - 10 * 60_000),
      messageNl,
      messageEn: messageNl.replace("NL-Alert.", "NL-Alert (en)."),
      areas: [squareAround(latitude, longitude, 0.02)],
    });
    await storeNlAlerts(
      ctx.service.ownerPool,
      parseNlAlerts(
        JSON.parse(
          nlAlertsJson([
            alert("b7f2e1d3c901", "NL-Alert. Brand in de Europoort. Sluit ramen en deuren.", 51.95, 4.1),
            alert("b7f2e1d3c902", "NL-Alert. Storing drinkwater in Groningen.", 53.22, 6.57),
          ]),
        ),
      ),
      "test",
    );
    // Older than the alarm minutes: a recent match, not an alarm.
    const sended = new Date(Date.now() - 45 * 60_000).toISOString();
    await call("mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid } }", {
      i: { message: "A2 AMBU 17106 Lange Haven Schiedam SCHIDM bon 147001", sended, capcodes: [{ name: CAPCODE }] },
    });
    await waitUntil(
      () => text(".screen-recent .screen-list"),
      (list) => list.includes("Schiedam"),
      "the match listed",
    );
    // Two of the crew say whether they are available (the console's crew screen does this).
    for (const [name, status] of [
      ["Anna", "available"],
      ["Bram", "unavailable"],
    ]) {
      await call("mutation ($c: UUID!, $s: String) { setCrewAvailability(channel: $c, status: $s) { name } }", {
        c: channels.find((channel) => channel.name === name)!.uuid,
        s: status,
      });
    }
    await page.reload({ waitUntil: "load" });
    await waitUntil(
      () => text(".screen-recent .screen-list"),
      (list) => list.includes("Schiedam"),
      "the list after a reload",
    );
    expect(await mode()).toBe("idle");
    // The page in plain words, with when, where and which monitor.
    // In plain words in the screen's language (it is opened in English).
    expect(await text(".screen-match-title")).toBe("A2 less urgent, ambulance, Haven, Schiedam");
    expect(await text(".screen-match-meta")).toMatch(/^\d\d:\d\d · Haven, Schiedam · Ambulance Schiedam$/);
    expect(await page.$$eval(".screen-crew-member", (items) => items.map((item) => item.textContent))).toEqual([
      "Anna: available",
      "Bram: not available",
    ]);
    await waitUntil(
      () => text(".screen-traffic .screen-list"),
      (list) => list !== "",
      "the traffic around the station",
    );
    expect(await text(".screen-traffic .screen-list")).toBe("Accident A4");
    expect(await text("#screen-weather")).toBe("Weather warnings in Zuid-Holland");
    await waitUntil(
      () => text(".screen-weather .screen-list"),
      (list) => list !== "",
      "the weather warning",
    );
    expect(await text(".screen-weather .screen-list")).toBe("Zuid-Holland: code orange");
    await waitUntil(
      () => text(".screen-alerts .screen-list"),
      (list) => list !== "",
      "the NL-Alert around the station",
    );
    expect(await text(".screen-alerts .screen-list")).toBe(
      "NL-Alert (en). Brand in de Europoort. Sluit ramen en deuren.",
    );
    await page.waitForSelector('.screen-map[data-idle="true"]');
    await screenshot(page, "screen-idle");
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  let alarmMessage: string;
  test("an alarm within seconds of a matching page; three responders appear as they answer", async () => {
    const before = Date.now();
    alarmMessage = await page2000("A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008");
    await waitUntil(mode, (shown) => shown === "alarm", "the alarm", 10_000);
    const took = Date.now() - before;
    expect(took).toBeLessThan(3000);
    expect(await text(".alarm-badge")).toBe("A1");
    expect(await text(".alarm-raw")).toBe("A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008");
    expect(await text(".alarm-plain")).toMatch(/Bachplein/);
    expect(await text(".alarm-distance")).toMatch(
      /km as the crow flies from the station \(a straight line: no routing data at hand\)/,
    );
    expect(await text(".alarm-elapsed")).toMatch(/^\d+:\d\d$/);
    expect(await text(".alarm-coming")).toBe("0 of 3 coming");
    // The urgency's colour fills the screen: A1 is red, with white text.
    const colours = await page.$eval(".station-screen", (element) => {
      const style = getComputedStyle(element);
      return [style.backgroundColor, style.color];
    });
    expect(colours).toEqual(["rgb(220, 38, 38)", "rgb(255, 255, 255)"]);
    // Sound: playing, or the note saying how to allow it.
    const sound = await page.evaluate(() => document.documentElement.dataset.sound);
    if (sound !== "running") {
      // Blocked by the autoplay policy (as headless Chromium does): the note, until a click.
      expect(await text(".screen-sound-note")).toContain("Tap or click the screen once");
      await screenshot(page, "screen-alarm-sound-blocked");
      await page.click(".screen-name");
      await waitUntil(
        () => page.evaluate(() => document.documentElement.dataset.sound),
        (state) => state === "running",
        "the sound to be allowed",
      );
      expect(await page.$eval(".screen-sound-note", (element) => (element as unknown as PageElement).hidden)).toBe(
        true,
      );
    }
    // The alarm that came while the sound was blocked is played once it is allowed.
    await waitUntil(
      () => page.evaluate(() => document.documentElement.dataset.alarmsSounded),
      (count) => count === "1",
      "the alarm's beeps",
    );

    // Each channel's notification has its respond token; they answer one by one.
    const answers: Array<[string, string, number | null]> = [
      ["Anna", "going", 5],
      ["Bram", "cancelled", null],
      ["Cor", "going", 8],
    ];
    for (const [index, [name, status, minutes]] of answers.entries()) {
      const channel = channels.find((one) => one.name === name)!;
      const { rows } = await ctx.db.asOwner(
        `select app_private.responder_token(n.uuid) as token from app_private.notifications n
          where n.channel_uuid = $1 and n.message_uuid = $2`,
        [channel.uuid, alarmMessage],
      );
      expect(rows).toHaveLength(1);
      await call(
        "mutation ($t: String!, $s: String!, $m: Int) { respondOnTheWay(token: $t, status: $s, arrivalMinutes: $m) { status } }",
        { t: rows[0].token, s: status, m: minutes },
        undefined,
      );
      await waitUntil(responders, (list) => list.length === index + 1, `${name}'s answer on the screen`);
    }
    const shown = await responders();
    // Coming first, by arrival; then who is not coming.
    expect(shown[0]).toMatch(/^Anna coming · there at \d\d:\d\d \((4|5) min\)$/);
    expect(shown[1]).toMatch(/^Cor coming · there at \d\d:\d\d \((7|8) min\)$/);
    expect(shown[2]).toBe("Bram not coming");
    expect(await text(".alarm-coming")).toBe("2 of 3 coming");
    // The time since the alarm runs.
    await waitUntil(
      () => text(".alarm-elapsed"),
      (shown) => /^0:0[1-9]|^0:[1-5]\d|^[1-9]/.test(shown),
      "the clock to run",
    );
    await page.waitForSelector('.screen-map[data-idle="true"]');
    await screenshot(page, "screen-alarm");
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems.filter((problem) => !/AudioContext/.test(problem))).toEqual([]);
  });

  test("re-alert: too few coming after the rule's minutes is shown on the alarm", async () => {
    expect(await page.$eval(".alarm-re-alert", (element) => (element as unknown as PageElement).hidden)).toBe(true);
    const { rows } = await ctx.db.asOwner("select app_private.check_crew($1, $2) as queued", [
      monitorUuid,
      alarmMessage,
    ]);
    // All three have answered, so the page goes to nobody again; the screen shows the re-alert all
    // the same (too few are coming).
    expect(rows[0].queued).toBe(0);
    await waitUntil(
      () => text(".alarm-re-alert"),
      (shown) => /^Re-alert at \d\d:\d\d: too few people are coming\.$/.test(shown),
      "the re-alert",
    );
    expect(await mode()).toBe("alarm");
    await screenshot(page, "screen-re-alert");
  });

  test("back to idle with the button; a new page is a new alarm", async () => {
    await page.click(".alarm-back");
    await waitUntil(mode, (shown) => shown === "idle", "idle again");
    expect(await text(".screen-recent .screen-list")).toContain("Bachplein");
    await page2000("A1 AMBU 17108 Broersvest Schiedam SCHIDM bon 147010");
    await waitUntil(mode, (shown) => shown === "alarm", "the next alarm", 10_000);
    expect(await text(".alarm-raw")).toContain("Broersvest");
    expect(await text(".alarm-coming")).toBe("0 of 3 coming");
  });

  test("offline and back: the banner says since when, and a page matched meanwhile appears", async () => {
    proxy.cut();
    const banner = await waitUntil(
      () => text(".screen-offline"),
      (shown) => shown.startsWith("Offline since"),
      "the offline banner",
      30_000,
    );
    expect(banner).toMatch(/^Offline since \d\d:\d\d: the screen reconnects by itself/);
    await page.waitForSelector(".screen-offline", { visible: true });
    await screenshot(page, "screen-offline");
    await page2000("A1 AMBU 17109 Hoogstraat Schiedam SCHIDM bon 147011");
    proxy.restore();
    await waitUntil(
      () => page.$eval(".screen-offline", (element) => (element as unknown as PageElement).hidden),
      (hidden) => hidden,
      "the banner to go",
      60_000,
    );
    await waitUntil(
      () => text(".alarm-raw"),
      (shown) => shown.includes("Hoogstraat"),
      "the page missed while offline",
      15_000,
    );
    expect(await mode()).toBe("alarm");
    expect(
      problems.filter((problem) => !/WebSocket|ERR_CONNECTION|ERR_EMPTY_RESPONSE|net::|AudioContext/.test(problem)),
    ).toEqual([]);
  });

  test("revoked in the console: the screen forgets its credential and shows a new pairing code", async () => {
    await call("mutation ($u: UUID!) { deleteStationScreen(uuid: $u) }", { u: screenUuid });
    await waitUntil(
      () => text(".pair-code"),
      (shown) => /^[A-Z2-9]{3}-[A-Z2-9]{3}$/.test(shown),
      "a new code",
      20_000,
    );
    expect(await text(".pair-revoked")).toBe("This screen's pairing was revoked: pair it again.");
    expect(await page.evaluate(() => localStorage.getItem("nlis.stationScreenToken"))).toBeNull();
    await screenshot(page, "screen-revoked");
  });
});
