// Where it happened (issue "Where it happened", parts 3 and 4), as a browser shows it: the base map
// is raster tiles (MAP_TILE_URL; here a local tile server with real 256 × 256 PNG tiles in the z/x/y
// layout, standing in for PDOK's BRT-Achtergrondkaart) under the boundaries and the incidents, with
// the attribution its licence asks for, let in by the page's Content-Security-Policy; with the tile
// server out of reach the page draws the offline map with the places' names instead. Incidents
// placed on their street are drawn apart; those placed only at their place share its centre and
// are one sign with their number, which opens as a list (mouse and keyboard). Screenshots at the
// country, a city and its streets, online and offline.
import fs from "node:fs";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import { PDOK_TILE_ATTRIBUTION } from "../../lib/config.ts";
import { importStreets } from "../../lib/streets/import.ts";
import {
  DESKTOP,
  drawn,
  launchBrowser,
  LAUNCH_TIMEOUT,
  newWatchedPage,
  pixelsOf,
  screenshot,
  seriousAxeViolations,
  type WatchedPage,
} from "../helpers/browser.ts";
import { fixture } from "../helpers/cli.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { freePort } from "../helpers/ports.ts";
import { startTestService, useTestService, type TestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";
import { startTileServer, TILE_LAND, type TileServer } from "./tile-server.ts";

let tiles: TileServer;
/** The same data, served by a second instance whose tile server is out of reach (nothing listens there). */
let unreachable: TestService | undefined;
// Before the service starts (useTestService's own beforeAll), so its configuration can name it.
beforeAll(async () => {
  tiles = await startTileServer();
});
// Before useTestService's own afterAll drops the database the second instance uses.
afterAll(async () => {
  await unreachable?.stop();
});
const ctx = useTestService(() => ({
  web: { mapTileUrl: tiles.template, mapTileAttribution: PDOK_TILE_ATTRIBUTION },
}));

let deadTiles = "";
let browser: Browser | undefined;
const pages: Page[] = [];
const now = Date.now();
const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();

/** Placed on their street (the streets of test/fixtures/nwb-wegvakken.geojson), in Schiedam. */
const FIRE_ON_STREET = "P 1 BRT-01 BR woning Kerkstraat Schiedam 173151";
const POLICE_ON_STREET = "P 1 Politie Burg. Knappertlaan Schiedam 093131";
/** Placed only at Schiedam: they share its centre. */
const AT_PLACE = [
  "A1 Ambulance Schiedam bon 81234",
  "P 2 BRT-01 Buitenbrand Schiedam 173152",
  "A2 AMBU 17101 Schiedam bon 81299",
];
const FIRE_RED: [number, number, number] = [0xd1, 0x24, 0x2f];
const POLICE_BLUE: [number, number, number] = [0x1f, 0x6f, 0xeb];

beforeAll(async () => {
  const pool = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: 2 });
  try {
    await importStreets(pool, fs.createReadStream(fixture("nwb-wegvakken.geojson")), { log: () => {} });
  } finally {
    await pool.end();
  }
  await storeP2000Pages(ctx.db, [
    { message: FIRE_ON_STREET, sended: ago(50), capcodes: ["002029569"] },
    { message: POLICE_ON_STREET, sended: ago(45), capcodes: ["0730316"] },
    ...AT_PLACE.map((message, index) => ({ message, sended: ago(40 - index * 5), capcodes: ["001420007"] })),
  ]);
  const { rows } = await ctx.db.asOwner<{ message: string; position_precision: string }>(
    "select message, position_precision from app_public.p2000_messages",
  );
  const precision = Object.fromEntries(rows.map((row) => [row.message, row.position_precision]));
  // What the map is given to draw: the geocoder's precisions, not the test's assumption.
  expect(precision[FIRE_ON_STREET]).toBe("street");
  expect(precision[POLICE_ON_STREET]).toBe("street");
  for (const text of AT_PLACE) expect(precision[text]).toBe("place");

  deadTiles = `http://127.0.0.1:${await freePort()}`;
  unreachable = await startTestService(ctx.db, {
    web: { mapTileUrl: `${deadTiles}/tiles/{z}/{x}/{y}.png`, mapTileAttribution: PDOK_TILE_ATTRIBUTION },
  });
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterEach(async () => {
  for (const page of pages.splice(0)) await page.close();
});

afterAll(async () => {
  await browser?.close();
  await tiles?.stop();
});

async function openMap(origin: string, path: string, options: Parameters<typeof newWatchedPage>[1] = {}) {
  const watched = await newWatchedPage(browser!, options);
  pages.push(watched.page);
  await watched.page.goto(new URL(path, origin).href, { waitUntil: "load" });
  await waitUntil(
    () => watched.page.$$eval("button.incident", (buttons) => buttons.length),
    (count) => count === 5,
    "the five incidents in the list",
  );
  await mapIdle(watched.page);
  return watched;
}

/** Until the map has drawn what it was given, its tiles too (data-idle on the map). */
async function mapIdle(page: Page): Promise<void> {
  await page.locator(".map.leaflet-container canvas").wait();
  await new Promise((resolve) => setTimeout(resolve, 300));
  await page.locator(".map[data-idle='true']").wait();
}

const zoomOf = (page: Page) => page.$eval(".map", (map) => Number(map.getAttribute("data-zoom")));

/**
 * Zooms in with the keyboard (Shift + "+", 1.5 levels a press) around the map's centre to at least
 * `level`, centred on an incident before and after (a centre found at a lower zoom is less exact).
 */
async function zoomIn(page: Page, level: number, on: string): Promise<void> {
  await centreOn(page, on);
  while ((await zoomOf(page)) < level) {
    await page.focus(".map");
    await page.keyboard.down("Shift");
    await page.keyboard.press("Equal");
    await page.keyboard.up("Shift");
    await mapIdle(page);
  }
  await centreOn(page, on);
}

/** The incident panel (a dialog named by the incident in words) showing this page's text. */
const panelOf = (text: string) => `.incident-panel[role='dialog'] .page-text::-p-text(${text})`;

/** Opens an incident from the list (the map pans to it), then closes its panel: the map is centred on it. */
async function centreOn(page: Page, text: string): Promise<void> {
  await page.$$eval(
    "button.incident",
    (buttons, wanted) => buttons.find((button) => button.textContent?.includes(wanted))?.click(),
    text,
  );
  await page.locator(panelOf(text)).wait();
  await page.keyboard.press("Escape");
  await mapIdle(page);
}

const basemapOf = (page: Page) => page.$eval(".map", (map) => map.getAttribute("data-base-map"));
const placeNames = (page: Page) =>
  page.$eval(".place-labels", (canvas) => (canvas.getAttribute("data-names") ?? "").split("|"));

/** A test that zooms the map in step by step, each step animated and its tiles loaded. */
const ZOOMING = 180_000;
const CLUSTER = "3 incidents in Schiedam, at the centre of the place: show them";

describe("the base map with tiles", () => {
  test(
    "the tiles are drawn under the boundaries and the incidents, with Kadaster's attribution, at the country, a city and its streets",
    async () => {
      const policy = (await fetch(new URL("/", ctx.service.url))).headers.get("content-security-policy") ?? "";
      expect(policy).toContain(`img-src 'self' data: blob: ${tiles.url}`);
      expect(policy).toContain("connect-src 'self';");
      const config = (await (await fetch(new URL("/web/config.json", ctx.service.url))).json()) as Record<
        string,
        unknown
      >;
      expect(config).toMatchObject({ mapTileUrl: tiles.template, mapStyleUrl: null });

      const { page, problems } = await openMap(ctx.service.url, "/?lang=en&off=traffic,weather,alerts,aircraft");
      expect(await basemapOf(page)).toBe("tiles");
      // Tiles in view, as images of the tile server, loaded.
      expect(tiles.requests.length).toBeGreaterThan(3);
      expect(await page.$$eval(".base-tiles img.leaflet-tile-loaded", (images) => images.length)).toBeGreaterThan(3);
      // The tiles' land (as the tile server drew it), once Leaflet has faded them in.
      const map = (await (await page.$(".map"))!.boundingBox())!;
      await waitUntil(
        () => pixelsOf(page, [...TILE_LAND], 3),
        (count) => count > map.width * map.height * 0.1,
        "the tiles' land over a tenth of the map",
      );
      // No offline map under them: no place names of its own.
      expect(await page.$(".place-labels")).toBeNull();
      const attribution = await page.$eval(".leaflet-control-attribution", (element) => element.textContent ?? "");
      expect(attribution).toBe("Kaartgegevens © Kadaster (CC BY 4.0)");
      expect(
        await page.$$eval(".leaflet-control-attribution a", (links) => links.map((link) => link.getAttribute("href"))),
      ).toEqual(["https://www.kadaster.nl/", "https://creativecommons.org/licenses/by/4.0/deed.nl"]);
      await screenshot(page, "map-tiles-country");

      await zoomIn(page, 13, FIRE_ON_STREET);
      await screenshot(page, "map-tiles-city");
      // The two incidents on their streets, each at its own position; the three at Schiedam's centre one sign.
      const fire = await waitUntil(
        () => drawn(page, FIRE_RED),
        (found) => found.count > 20,
        "the fire's marker",
      );
      const police = await waitUntil(
        () => drawn(page, POLICE_BLUE),
        (found) => found.count > 20,
        "the police incident's marker",
      );
      expect(Math.hypot(fire.x - police.x, fire.y - police.y)).toBeGreaterThan(15);
      expect(
        await page.$$eval(".incident-cluster-icon", (signs) => signs.map((sign) => sign.getAttribute("aria-label"))),
      ).toEqual([CLUSTER]);
      await page.locator(`::-p-aria([role='button'][name='${CLUSTER}'])`).wait();

      await zoomIn(page, 16, FIRE_ON_STREET);
      expect(await page.$$eval(".base-tiles img.leaflet-tile-loaded", (images) => images.length)).toBeGreaterThan(3);
      await screenshot(page, "map-tiles-street");
      expect(problems).toEqual([]);
    },
    ZOOMING,
  );

  test(
    "the place's sign opens as a list of its incidents by mouse and keyboard; one of them opens its panel",
    async () => {
      const { page, problems } = await openMap(ctx.service.url, "/?lang=en&off=traffic,weather,alerts,aircraft");
      await zoomIn(page, 12, FIRE_ON_STREET);
      const sign = `::-p-aria([role='button'][name='${CLUSTER}'])`;
      await page.locator(sign).click();
      const items = () =>
        page.$$eval(".incident-cluster-popup button.cluster-incident", (buttons) => buttons.map((b) => b.textContent));
      const listed = await waitUntil(items, (found) => found.length === 3, "the sign's list");
      // Newest first, as the list beside the map; the incidents on their streets are not in it.
      expect(listed[0]).toContain(AT_PLACE[2]);
      expect(listed[2]).toContain(AT_PLACE[0]);
      expect(await page.$eval(".cluster-heading", (heading) => heading.textContent)).toBe("3 incidents in Schiedam");
      // The focus moved into the list.
      expect(await page.evaluate("document.activeElement?.className")).toBe("cluster-incident");
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, "map-cluster-open");

      // Escape closes it and gives the focus back to the sign; Enter opens it again.
      await page.keyboard.press("Escape");
      await waitUntil(items, (found) => found.length === 0, "the list to close");
      expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe(CLUSTER);
      await page.keyboard.press("Enter");
      await waitUntil(items, (found) => found.length === 3, "the list again, by keyboard");
      // Down the list and open the second.
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      await page.locator(panelOf(AT_PLACE[1])).wait();
      // The list fades out and is gone.
      await waitUntil(items, (found) => found.length === 0, "the list to close after a choice");
      expect(new URL(page.url()).searchParams.get("incident")).toEqual(expect.any(String));
      expect(problems).toEqual([]);
    },
    ZOOMING,
  );

  test(
    "in the dark the tiles are dimmed under the page's dark colours",
    async () => {
      const { page, problems } = await openMap(ctx.service.url, "/?lang=en&off=traffic,weather,alerts,aircraft", {
        viewport: DESKTOP,
        colorScheme: "dark",
      });
      expect(await page.evaluate("getComputedStyle(document.querySelector('.base-tiles')).filter")).toContain(
        "invert(1)",
      );
      expect(await pixelsOf(page, [...TILE_LAND], 3)).toBe(0);
      await zoomIn(page, 13, FIRE_ON_STREET);
      await screenshot(page, "map-tiles-city-dark");
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    },
    ZOOMING,
  );
});

describe("the base map with the tile server out of reach", () => {
  /** What the page reported apart from the tiles it could not load (which is what this is about). */
  const besidesTiles = (watched: WatchedPage) =>
    watched.problems.filter((problem) => !problem.includes(deadTiles) && !/Failed to load resource/.test(problem));

  test(
    "the offline map is drawn instead, with the places' names, at the country, a city and its streets",
    async () => {
      const watched = await openMap(unreachable!.url, "/?lang=en&off=traffic,weather,alerts,aircraft");
      const { page } = watched;
      expect(await basemapOf(page)).toBe("offline");
      // The tiles were asked for and failed: the page went on without them.
      expect(watched.problems.some((problem) => problem.includes(deadTiles))).toBe(true);
      expect(await page.$$eval(".base-tiles", (layers) => layers.length)).toBe(0);
      const country = await placeNames(page);
      expect(country).toEqual(expect.arrayContaining(["Amsterdam", "Rotterdam", "Utrecht", "Groningen", "Maastricht"]));
      expect(country).not.toContain("Schiedam");
      expect(await page.$eval(".leaflet-control-attribution", (element) => element.textContent)).toBe(
        "Offline map · © CBS, GeoNames (CC BY 4.0)",
      );
      await screenshot(page, "map-offline-country");

      await zoomIn(page, 11.5, FIRE_ON_STREET);
      const city = await placeNames(page);
      expect(city).toEqual(expect.arrayContaining(["Schiedam", "Vlaardingen"]));
      await page.locator(`::-p-aria([role='button'][name='${CLUSTER}'])`).wait();
      await screenshot(page, "map-offline-city");

      await zoomIn(page, 16, FIRE_ON_STREET);
      await screenshot(page, "map-offline-street");
      expect(besidesTiles(watched)).toEqual([]);
    },
    ZOOMING,
  );

  test("in Dutch and dark, the offline map's names and attribution follow", async () => {
    const watched = await openMap(unreachable!.url, "/?lang=nl&off=traffic,weather,alerts,aircraft", {
      colorScheme: "dark",
    });
    const { page } = watched;
    await waitUntil(
      () => basemapOf(page),
      (mode) => mode === "offline",
      "the offline map",
    );
    expect(await page.$eval(".leaflet-control-attribution", (element) => element.textContent)).toBe(
      "Offline kaart · © CBS, GeoNames (CC BY 4.0)",
    );
    expect(await placeNames(page)).toContain("Amsterdam");
    await screenshot(page, "map-offline-country-dark");
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(besidesTiles(watched)).toEqual([]);
  });
});
