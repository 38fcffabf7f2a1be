// A real base map (MAP_STYLE_URL, issue 31 part 4), as a browser meets it: the style comes from a
// tile server of the operator's (here a local HTTP server with CORS, as tile servers answer), the
// page's Content-Security-Policy lets exactly that origin in, MapLibre (loaded for it) draws the
// style under the shipped boundaries and the incidents, and the style's attribution is shown.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import type { Browser } from "puppeteer-core";
import { launchBrowser, LAUNCH_TIMEOUT, newWatchedPage, pixelsOf, screenshot } from "../helpers/browser.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

const ATTRIBUTION = "© Test Tiles contributors";
let tiles: FeedServer;
let browser: Browser | undefined;

// Before the service starts (useTestService's own beforeAll), so its configuration can name it.
beforeAll(async () => {
  tiles = await startFeedServer();
  tiles.documents.set("/styles/base.json", {
    contentType: "application/json",
    headers: { "access-control-allow-origin": "*" },
    body: JSON.stringify({
      version: 8,
      sources: {
        // A source whose only job is its attribution, as a vector tile source would carry it.
        base: { type: "geojson", data: { type: "FeatureCollection", features: [] }, attribution: ATTRIBUTION },
      },
      layers: [
        { id: "base-background", type: "background", paint: { "background-color": "#123456" } },
        { id: "base-nothing", type: "fill", source: "base" },
      ],
    }),
  });
});
const ctx = useTestService(() => ({ web: { mapStyleUrl: `${tiles.url}/styles/base.json` } }));

beforeAll(async () => {
  await storeP2000Pages(ctx.db, [
    { message: "A1 Ambulance Kerkstraat Utrecht bon 81234", sended: new Date().toISOString(), capcodes: ["0923002"] },
  ]);
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await tiles?.stop();
});

test("the configured style is drawn under the incidents with its attribution; the CSP lets its origin in", async () => {
  const response = await fetch(new URL("/", ctx.service.url));
  const policy = response.headers.get("content-security-policy") ?? "";
  expect(policy).toContain(`connect-src 'self' ${tiles.url} https:`);

  const { page, problems } = await newWatchedPage(browser!);
  await page.goto(new URL("/?lang=en", ctx.service.url).href, { waitUntil: "load" });
  await waitUntil(
    () => page.$$eval("button.incident", (buttons) => buttons.length),
    (count) => count === 1,
    "the incident in the list",
  );
  expect(await page.$eval(".incident-count", (element) => element.textContent)).toBe("1 incident");
  await page.locator(".map[data-idle='true']").wait();
  const attribution = await waitUntil(
    () => page.$eval(".leaflet-control-attribution", (element) => element.textContent ?? ""),
    (text) => text.includes(ATTRIBUTION),
    "the style's attribution",
  );
  expect(attribution).toContain(ATTRIBUTION);
  // The style's background fills the map where the offline style would draw sea and land (waited
  // for: the map may still be fading from the offline style into it, as it did on a busy CI).
  const map = (await (await page.$(".map"))!.boundingBox())!;
  await waitUntil(
    () => pixelsOf(page, [0x12, 0x34, 0x56], 6),
    (count) => count > map.width * map.height * 0.5,
    "the style's background over half the map",
  );
  expect(tiles.requests.map((request) => request.path)).toContain("/styles/base.json");
  // MapLibre came with the style: its chunk, its stylesheet and its worker, all from this origin.
  const fetched = await page.evaluate(() =>
    performance.getEntriesByType("resource").map((entry) => new URL(entry.name).pathname),
  );
  expect(fetched).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^\/web\/base-style-layer-\w+\.js$/),
      "/web/maplibre-gl.css",
      "/web/maplibre-gl-worker.mjs",
    ]),
  );
  await screenshot(page, "map-configured-style");
  expect(problems).toEqual([]);
  await page.close();
});
