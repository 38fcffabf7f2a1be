// The live map in Chromium (issue 31, part 1), against the real service with data stored through the
// real ingestion from documents in the sources' formats: P2000 FLEX messages with a place, a DATEX II
// accident, a trauma helicopter's readsb documents, an NL-Alert, a KNMI warning and an AMBER Alert.
// The page shows the incidents in its list and as markers (counted in the map's pixels), a message
// stored while it is open appears without a reload, filters and the open incident live in the URL,
// the panel shows an incident's messages, timeline and related signals, the province with a warning
// is coloured, the page comes back by itself when the service ends its subscriptions (its database
// connection lost) and shows what it missed, and the page works at phone width and in dark mode
// with nothing reported.
import { gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import { pollAircraftOnce } from "../../lib/feeds/aircraft/poll.ts";
import { flightDocuments } from "../../lib/feeds/aircraft/sample-documents.ts";
import { storeAmberAlerts, storeNlAlerts } from "../../lib/feeds/alerts/ingest.ts";
import { parseAmberAlerts } from "../../lib/feeds/alerts/amber-parser.ts";
import { parseNlAlerts } from "../../lib/feeds/alerts/nl-alert-parser.ts";
import { amberAlertsJson, nlAlertsJson, squareAround } from "../../lib/feeds/alerts/sample-documents.ts";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml } from "../../lib/feeds/meteo/sample-documents.ts";
import { pollTraffic } from "../../lib/feeds/traffic/poll.ts";
import { datexV3Xml } from "../../lib/feeds/traffic/sample-documents.ts";
import { createFlexIngester, FLEX_READER_CONNECTIONS } from "../../lib/p2000/flex-ingest.ts";
import {
  DESKTOP,
  launchBrowser,
  LAUNCH_TIMEOUT,
  newWatchedPage,
  PHONE,
  screenshot,
  seriousAxeViolations,
  drawn,
  pixelsOf,
  type WatchedPage,
} from "../helpers/browser.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { startCuttableProxy } from "../helpers/tcp-proxy.ts";
import { useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const now = Date.now();
const ago = (minutes: number) => new Date(now - minutes * MINUTE).toISOString();
const log = { info: () => {}, error: (m: string) => console.error(m) };

let browser: Browser | undefined;
let feed: FeedServer;
/** The pages a test opened, closed after it (also when it failed), so their subscriptions end. */
const pages: Page[] = [];
/** The helicopter's documents still to come, polled while a page is open. */
let laterFlight: string[] = [];
const dossierOf: Record<string, string> = {};

async function ingestFlexLine(line: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: FLEX_READER_CONNECTIONS });
  try {
    const ingester = createFlexIngester(pool, { source: "test" });
    await ingester.push(line);
    await ingester.flush();
    expect(ingester.stats.stored).toBe(1);
  } finally {
    await pool.end();
  }
}

async function dossierUuid(text: string): Promise<string> {
  const { rows } = await ctx.db.asOwner(
    `select d.uuid, d.latitude from app_public.p2000_messages m join app_public.p2000_dossiers d on d.uuid = m.dossier_uuid
      where m.message = $1`,
    [text],
  );
  expect(rows[0]?.latitude).toEqual(expect.any(Number));
  return rows[0].uuid;
}

const FIRE = "P 1 BRT-01 BR woning Toscalaan Hoogvliet Rotterdam 173151 171631 173131";
const AMBULANCE = "A2 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 8576";
const UTRECHT = "A1 Ambulance Utrecht bon 81234";
const EXERCISE = "Oefening P 2 BRT-01 Brand woning Kerkstraat Schiedam";
const LIVE = "A1 Maerlantstraat 6531AT Nijmegen 69972";
/** Stored while the page's connection is cut. */
const MISSED = "A1 Assendorperstraat Zwolle 40123";
/** Stored while the service has ended the page's subscriptions (its LISTEN connection lost), and after. */
const MISSED_WHILE_ENDED = "A1 Ambulance Deventer bon 74123";
const LIVE_AGAIN = "A1 Ambulance Kampen bon 82612";

beforeAll(async () => {
  feed = await startFeedServer();
  await storeP2000Pages(ctx.db, [
    { message: FIRE, sended: ago(30), capcodes: ["002029569", "001400349"] },
    { message: AMBULANCE, sended: ago(20), capcodes: ["001420007"] },
    { message: UTRECHT, sended: ago(40), capcodes: ["0923002"] },
    { message: EXERCISE, sended: ago(15), capcodes: ["1730001"] },
  ]);
  for (const text of [FIRE, AMBULANCE, UTRECHT]) dossierOf[text] = await dossierUuid(text);
  const { rows } = await ctx.db.asOwner("select latitude, longitude from app_public.p2000_dossiers where uuid = $1", [
    dossierOf[UTRECHT],
  ]);
  const at = { lat: rows[0].latitude as number, lon: rows[0].longitude as number };

  // DATEX II: an accident 300 m from the Utrecht incident, still going.
  feed.documents.set("/incidents.xml.gz", {
    body: gzipSync(
      datexV3Xml(new Date(now - 5 * MINUTE), [
        {
          id: "NLRWS_map",
          version: 1,
          type: "accident",
          start: new Date(now - 30 * MINUTE),
          latitude: at.lat + 300 / 111_195,
          longitude: at.lon,
          roadNumber: "A12",
        },
      ]),
    ),
  });
  await pollTraffic(
    ctx.service.ownerPool,
    { enabled: true, incidentsUrl: `${feed.url}/incidents.xml.gz`, jamsUrl: undefined },
    log,
  );

  // NL-Alert around the Utrecht incident; KNMI orange for wind in Utrecht; an AMBER Alert.
  await storeNlAlerts(
    ctx.service.ownerPool,
    parseNlAlerts(
      JSON.parse(
        nlAlertsJson([
          {
            id: "map-near",
            messageNl: "Grote brand in Utrecht. Sluit ramen en deuren.",
            messageEn: "Large fire in Utrecht. Close windows and doors.",
            startAt: new Date(now - 25 * MINUTE),
            areas: [squareAround(at.lat, at.lon, 0.05)],
          },
        ]),
      ),
    ),
    "test",
  );
  const hour = new Date(Math.floor((now - HOUR) / HOUR) * HOUR);
  await ingestMeteoDocument(
    ctx.service.ownerPool,
    warningsXml(
      hour,
      [
        {
          phenomenon: "wind",
          locations: ["UT"],
          status: 2,
          text: "Zware windstoten.",
          from: hour,
          to: new Date(hour.getTime() + 6 * HOUR),
        },
      ],
      "map test",
    ),
    "test map",
  );
  await storeAmberAlerts(
    ctx.service.ownerPool,
    parseAmberAlerts(
      JSON.parse(
        amberAlertsJson([
          {
            alertId: "map-amber",
            type: "Alert",
            level: 10,
            sent: new Date(now - HOUR),
            title: "AMBER Alert: Sanne (8) vermist",
            descriptionHtml: "<p>Sanne is sinds gisteren vermist.</p>",
          },
        ]),
      ),
    ),
    "test",
    { complete: true },
  );

  // readsb: a trauma helicopter from Amsterdam towards the Utrecht incident; its second half is
  // polled while a page is open, so the page sees it move.
  await ctx.db.asOwner(
    `insert into app_public.aircraft_fleet (icao, registration, kind, callsign, type, operator, base)
     values ('48ffa3', 'PH-MAP', 'trauma', 'LIFE8', 'EC35', 'Test', 'Amsterdam')`,
  );
  const documents = flightDocuments({
    hex: "48ffa3",
    flight: "LIFE8",
    registration: "PH-MAP",
    from: { lat: 52.3728, lon: 4.8936 },
    to: at,
    start: new Date(now - 20 * MINUTE),
    stepSeconds: 15,
  });
  const half = Math.floor(documents.length / 2);
  for (const document of documents.slice(0, half)) await pollFlight(document);
  laterFlight = documents.slice(half);

  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterEach(async () => {
  for (const page of pages.splice(0)) await page.close();
});

afterAll(async () => {
  await browser?.close();
  await feed?.stop();
});

async function pollFlight(document: string): Promise<void> {
  feed.documents.set("/data/aircraft.json", { body: document });
  await pollAircraftOnce(ctx.service.ownerPool, `${feed.url}/data/aircraft.json`, log);
}

async function openMap(path: string, options: Parameters<typeof newWatchedPage>[1] = {}): Promise<WatchedPage> {
  const watched = await newWatchedPage(browser!, options);
  pages.push(watched.page);
  await watched.page.goto(new URL(path, ctx.service.url).href, { waitUntil: "load" });
  await listed(watched.page, (names) => names.length > 0);
  await mapIdle(watched.page);
  return watched;
}

/** The incident list's button texts, once `done` accepts them. */
async function listed(page: Page, done: (names: string[]) => boolean): Promise<string[]> {
  let names: string[] = [];
  await waitUntil(
    async () => (names = await page.$$eval("button.incident", (buttons) => buttons.map((b) => b.textContent ?? ""))),
    done,
    "the incident list",
  );
  return names;
}

/** Until the map has drawn what it was given (which the page marks on the map as data-idle). */
async function mapIdle(page: Page): Promise<void> {
  await page.locator(".map.leaflet-container canvas").wait();
  await new Promise((resolve) => setTimeout(resolve, 300));
  await page.locator(".map[data-idle='true']").wait();
}

/** The incident panel (a dialog named by the incident in words) showing this page's text. */
const panelOf = (text: string) => `.incident-panel[role='dialog'] .page-text::-p-text(${text})`;

const FIRE_RED: [number, number, number] = [209, 36, 47];
/** KNMI orange at the weather layer's opacity over the light base map's land. */
const ORANGE_ON_LAND: [number, number, number] = [247, 188, 147];

describe("the live map", () => {
  test("shows the stored incidents in its list and as markers, newest first, with the AMBER banner; a marker opens its incident", async () => {
    const { page, problems } = await openMap("/?lang=en&off=traffic,weather,alerts,aircraft");
    const names = await listed(page, (list) => list.length === 3);
    expect(names[0]).toContain("Vlaardingen");
    expect(names[1]).toContain("Toscalaan");
    expect(names[2]).toContain("Utrecht");
    expect(
      await page.$eval(
        "::-p-aria([role='region'][name='Map of the Netherlands with P2000 incidents, traffic, weather warnings, NL-Alerts and helicopters'])",
        (e) => e.tagName,
      ),
    ).toBe("DIV");
    await waitUntil(
      () => pixelsOf(page, FIRE_RED),
      (count) => count > 20,
      "the fire's marker to be drawn",
    );
    const banner = await page.$eval("[role='alert']", (element) => element.textContent);
    expect(banner).toContain("Sanne");
    await screenshot(page, "map-desktop-incidents");
    // Drawn with Leaflet alone: without MAP_STYLE_URL, MapLibre (its chunk, worker and stylesheet)
    // is never fetched.
    const fetched = await page.evaluate(() => performance.getEntriesByType("resource").map((entry) => entry.name));
    expect(fetched.filter((name) => /base-style-layer|maplibre/.test(name))).toEqual([]);

    // A click on the (only) red marker opens the fire's panel, and the URL names it. The map is let
    // come to rest first, and the marker found again if a click lands while it still moved.
    await mapIdle(page);
    await waitUntil(
      async () => {
        const marker = await drawn(page, FIRE_RED);
        await page.mouse.click(marker.x, marker.y);
        return page.waitForSelector(panelOf(FIRE), { timeout: 3_000 }).catch(() => null);
      },
      Boolean,
      "the fire's panel after a click on its marker",
      30_000,
    );
    expect(new URL(page.url()).searchParams.get("incident")).toBe(dossierOf[FIRE]);

    // The incidents layer switched off in the URL: no marker is drawn.
    const off = await openMap("/?lang=en&off=incidents,traffic,weather,alerts,aircraft");
    expect(await pixelsOf(off.page, FIRE_RED)).toBe(0);
    expect(problems).toEqual([]);
    expect(off.problems).toEqual([]);
  });

  test("a P2000 message stored while the page is open appears without a reload; the helicopter moves", async () => {
    const { page, problems } = await openMap("/?lang=en");
    await listed(page, (list) => list.length === 3);
    await page.locator("[role='img'][aria-label='Trauma helicopter PH-MAP']").wait();
    const before = await page.$eval(".aircraft-marker", (element) => element.getBoundingClientRect().toJSON());
    // In the air since before the page opened: its track so far comes from its active route.
    await waitUntil(
      () => page.$eval(".aircraft-marker", (element) => Number(element.getAttribute("data-track-points"))),
      (points) => points > 5,
      "the helicopter's route so far drawn as its track",
    );

    // As a receiver's decoder writes it, through the FLEX reader's path.
    await ingestFlexLine(
      `FLEX|${new Date().toISOString().slice(0, 19).replace("T", " ")}|1600/2/K/A|08.050|000923129|ALN|${LIVE}`,
    );
    const names = await listed(page, (list) => list.length === 4);
    expect(names[0]).toContain("Nijmegen");

    for (const document of laterFlight.slice(0, 20)) await pollFlight(document);
    await waitUntil(
      () => page.$eval(".aircraft-marker", (element) => element.getBoundingClientRect().toJSON()),
      (after) => Math.abs(after.x - before.x) + Math.abs(after.y - before.y) > 3,
      "the helicopter to move on the map",
    );
    await screenshot(page, "map-desktop-live");
    expect(problems).toEqual([]);
  });

  test("a discipline filter narrows the list, is kept in the URL with the language and survives a reload", async () => {
    const { page, problems } = await openMap("/?lang=en");
    await page.locator("::-p-aria([name='Filters and layers'])").click();
    await page.select("#filter-discipline", "ambulance");
    await listed(page, (list) => list.every((name) => !name.includes("Toscalaan")));
    const url = new URL(page.url());
    expect(url.searchParams.get("discipline")).toBe("ambulance");
    expect(url.searchParams.get("lang")).toBe("en");
    await page.reload({ waitUntil: "load" });
    const names = await listed(page, (list) => list.length > 0 && list.every((name) => !name.includes("Toscalaan")));
    expect(names.some((name) => name.includes("Vlaardingen"))).toBe(true);
    expect(await page.$eval("#filter-discipline", (select) => (select as unknown as { value: string }).value)).toBe(
      "ambulance",
    );
    expect(problems).toEqual([]);
  });

  test("a kind-of-incident filter offers the service's kinds in the reader's language and keeps only that kind", async () => {
    const { page, problems } = await openMap("/?lang=en");
    await page.locator("::-p-aria([name='Filters and layers'])").click();
    await page.waitForSelector("#filter-category option[value='brand']");
    const options = await page.$$eval("#filter-category option", (items) => items.map((item) => item.textContent));
    expect(options).toEqual(expect.arrayContaining(["All", "Fire", "Accident", "Medical"]));
    await page.select("#filter-category", "brand");
    const names = await listed(page, (list) => list.length === 1);
    expect(names[0]).toContain("Toscalaan");
    expect(new URL(page.url()).searchParams.get("category")).toBe("brand");
    await page.select("#filter-category", "");
    await listed(page, (list) => list.length > 1);
    expect(new URL(page.url()).searchParams.get("category")).toBeNull();
    expect(problems).toEqual([]);
  });

  test("a list item opens the incident's panel with its messages, timeline and related signals; Escape closes it", async () => {
    const { page, problems } = await openMap("/?lang=en");
    const utrecht = (await page.$$("button.incident")).at(-1)!;
    expect(await utrecht.evaluate((b) => b.textContent)).toContain("Utrecht");
    await utrecht.click();
    const dialog = panelOf("A1 Ambulance Utrecht bon 81234");
    await page.locator(dialog).wait();
    expect(new URL(page.url()).searchParams.get("incident")).toBe(dossierOf[UTRECHT]);
    await waitUntil(
      () => page.$eval(".incident-panel", (panel) => panel.textContent ?? ""),
      (text) => text.includes("Traffic incident") && text.includes("NL-Alert") && text.includes("Weather warning"),
      "the related signals",
    );
    const text = await page.$eval(".incident-panel", (panel) => panel.textContent ?? "");
    expect(text).toContain("Messages");
    expect(text).toContain(UTRECHT);
    expect(text).toContain("Opened");
    expect(await page.evaluate("document.activeElement?.id")).toBe("incident-panel-heading");
    // "Tell me when this gets worse" is the console's follow of this incident, in the page's language.
    expect(await page.$eval("#incident-follow", (link) => [link.textContent, link.getAttribute("href")])).toEqual([
      "Tell me when this gets worse",
      `/console/monitors/follow/${dossierOf[UTRECHT]}?lang=en`,
    ]);
    await screenshot(page, "map-desktop-panel");
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.keyboard.press("Escape");
    await waitUntil(() => page.$eval(".incident-panel", (panel) => panel.hidden), Boolean, "the panel to close");
    expect(new URL(page.url()).searchParams.get("incident")).toBeNull();
    expect(await page.evaluate("document.activeElement?.textContent")).toContain("Utrecht");

    // The shared link opens the incident.
    await page.goto(new URL(`/?lang=en&incident=${dossierOf[FIRE]}`, ctx.service.url).href, { waitUntil: "load" });
    await page.locator(panelOf(FIRE)).wait();
    expect(problems).toEqual([]);
  });

  test("exercises are left out unless the URL asks for them", async () => {
    const { page, problems } = await openMap("/?lang=en&exercises=1");
    const names = await listed(page, (list) => list.some((name) => name.includes("Kerkstraat Schiedam")));
    expect(names.find((name) => name.includes("Kerkstraat Schiedam"))).toContain("Exercise");
    // A view with filters opens with its filters shown.
    await page.locator("::-p-aria([role='checkbox'][name='Show exercises'])").click();
    await listed(page, (list) => list.length > 0 && list.every((name) => !name.includes("Kerkstraat Schiedam")));
    expect(new URL(page.url()).searchParams.get("exercises")).toBeNull();
    expect(problems).toEqual([]);
  });

  test("the language switch redraws the map screen in the other language, keeping the filters", async () => {
    const { page, problems } = await openMap("/?lang=en&discipline=ambulance");
    await page.locator("::-p-aria([name='Nederlands'][role='button'])").click();
    await page.locator("::-p-aria([role='heading'][name='Nieuwste meldingen'])").wait();
    await listed(page, (list) => list.length > 0 && list.every((name) => !name.includes("Toscalaan")));
    const url = new URL(page.url());
    expect([url.searchParams.get("lang"), url.searchParams.get("discipline")]).toEqual(["nl", "ambulance"]);
    await mapIdle(page);
    expect(problems).toEqual([]);
  });

  test("the province with a warning is coloured and named", async () => {
    const { page, problems } = await openMap("/?lang=en&off=incidents,traffic,alerts,aircraft");
    await waitUntil(
      () => page.$eval(".weather-notes", (list) => list.textContent ?? ""),
      (text) => text.includes("code orange"),
      "the warning",
    );
    expect(await page.$eval(".weather-notes", (list) => list.textContent)).toBe("Utrecht: code orange");
    expect(await pixelsOf(page, ORANGE_ON_LAND, 10)).toBeGreaterThan(100);
    const without = await openMap("/?lang=en&off=incidents,traffic,alerts,aircraft,weather");
    expect(await pixelsOf(without.page, ORANGE_ON_LAND, 10)).toBeLessThan(20);
    expect(problems).toEqual([]);
    expect(without.problems).toEqual([]);
  });

  test("on a phone the list is under the map without sideways scrolling; dark mode; in Dutch; axe finds nothing serious", async () => {
    const phone = await openMap("/", { viewport: PHONE, language: "nl-NL,nl;q=0.9" });
    const layout = (await phone.page.evaluate(`({
      scrollWidth: document.documentElement.scrollWidth,
      width: document.documentElement.clientWidth,
      mapBottom: document.querySelector(".map").getBoundingClientRect().bottom,
      listTop: document.querySelector(".incident-list").getBoundingClientRect().top,
    })`)) as { scrollWidth: number; width: number; mapBottom: number; listTop: number };
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.width);
    expect(layout.listTop).toBeGreaterThan(layout.mapBottom);
    await phone.page.locator("::-p-aria([role='heading'][name='Nieuwste meldingen'])").wait();
    await screenshot(phone.page, "map-phone");
    expect(await seriousAxeViolations(phone.page)).toEqual([]);
    expect(phone.problems).toEqual([]);

    const dark = await openMap("/?lang=en", { viewport: DESKTOP, colorScheme: "dark" });
    await waitUntil(
      () => pixelsOf(dark.page, FIRE_RED),
      (count) => count > 20,
      "the markers in dark mode",
    );
    await screenshot(dark.page, "map-desktop-dark");
    expect(await seriousAxeViolations(dark.page)).toEqual([]);
    expect(dark.problems).toEqual([]);
  });

  test("a lost connection is shown; what was stored meanwhile is on the map once the connection is back", async () => {
    const proxy = await startCuttableProxy(new URL(ctx.service.url));
    try {
      const { page, problems } = await newWatchedPage(browser!, {});
      pages.push(page);
      await page.goto(new URL("/?lang=en", proxy.url).href, { waitUntil: "load" });
      await listed(page, (list) => list.length > 0);
      const status = () => page.$eval(".connection", (element) => element.textContent ?? "");
      await waitUntil(status, (text) => text === "Live", "the live connection");

      proxy.cut();
      await waitUntil(status, (text) => text === "Offline: reconnecting…", "the page to say it is offline");
      await storeP2000Pages(ctx.db, [{ message: MISSED, sended: new Date().toISOString(), capcodes: ["000923129"] }]);
      // Its subscription event went to no one: the page fetches what it missed when it is back.
      proxy.restore();
      await waitUntil(status, (text) => text === "Live", "the connection to come back", 60_000);
      const names = await listed(page, (list) => list.some((name) => name.includes("Zwolle")));
      expect(names[0]).toContain("Zwolle");
      // The refused reconnection attempts are what this test is about; nothing else may be reported.
      expect(problems.filter((problem) => !/WebSocket|ERR_CONNECTION|ERR_EMPTY_RESPONSE|net::/.test(problem))).toEqual(
        [],
      );
    } finally {
      await proxy.stop();
    }
  });

  test("subscriptions the service ends when its database connection goes come back by themselves, and fetch what was missed", async () => {
    const { page, problems } = await openMap("/?lang=en");
    await listed(page, (list) => list.length > 0);
    const status = () => page.$eval(".connection", (element) => element.textContent ?? "");
    await waitUntil(status, (text) => text === "Live", "the live connection");

    // The service's LISTEN connections cut, as a database restart does: the service ends every
    // subscription with SERVICE_UNAVAILABLE while the WebSocket stays open.
    const root = new pg.Client({ connectionString: ctx.db.rootUrl });
    await root.connect();
    try {
      const { rows } = await root.query(
        `select count(pg_terminate_backend(pid))::int as cut from pg_stat_activity
          where datname = $1 and query ~* '^\\s*(un)?listen '`,
        [ctx.db.name],
      );
      expect(rows[0].cut).toBeGreaterThan(0);
    } finally {
      await root.end();
    }
    // Nobody listens now: only the page's fetch after it subscribed again can show this one.
    await storeP2000Pages(ctx.db, [
      { message: MISSED_WHILE_ENDED, sended: new Date().toISOString(), capcodes: ["000923129"] },
    ]);
    await listed(page, (list) => list.some((name) => name.includes("Deventer")));
    expect(await status()).toBe("Live");
    // And live again: a message stored now appears without a reload (stored again until the
    // subscription's LISTEN is back: one stored before would only be fetched at the next resume).
    await waitUntil(
      async () => {
        await storeP2000Pages(ctx.db, [
          { message: LIVE_AGAIN, sended: new Date().toISOString(), capcodes: ["000923129"] },
        ]);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        return page.$$eval("button.incident", (buttons) =>
          buttons.some((b) => (b.textContent ?? "").includes("Kampen")),
        );
      },
      Boolean,
      "a live message after the subscriptions came back",
    );
    expect(problems).toEqual([]);
  });
});
