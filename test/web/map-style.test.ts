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
/** What the TileJSON says: a link (kept) and markup a page must not take from a tile host (dropped). */
const ATTRIBUTION_HTML = `<a href="https://tiles.example/copyright">${ATTRIBUTION}</a><img src="x" class="injected"><script>1</script>`;
let tiles: FeedServer;
let browser: Browser | undefined;

// Before the service starts (useTestService's own beforeAll), so its configuration can name it.
beforeAll(async () => {
  tiles = await startFeedServer();
  // The attribution comes with the source's TileJSON, as a tile provider's vector styles have it.
  tiles.documents.set("/tiles.json", {
    contentType: "application/json",
    headers: { "access-control-allow-origin": "*" },
    body: JSON.stringify({
      tilejson: "2.2.0",
      tiles: [`${tiles.url}/tiles/{z}/{x}/{y}.pbf`],
      attribution: ATTRIBUTION_HTML,
    }),
  });
  tiles.documents.set("/styles/base.json", {
    contentType: "application/json",
    headers: { "access-control-allow-origin": "*" },
    body: JSON.stringify({
      version: 8,
      sources: {
        // No layer draws it (no tiles are asked for); its TileJSON carries the attribution.
        base: { type: "vector", url: `${tiles.url}/tiles.json` },
      },
      layers: [{ id: "base-background", type: "background", paint: { "background-color": "#123456" } }],
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
  expect(attribution.trim()).toBe(ATTRIBUTION);
  // Its link is kept, opening elsewhere; nothing else of the tile host's markup reaches the page.
  expect(
    await page.$eval(".leaflet-control-attribution a", (link) => [link.getAttribute("href"), link.getAttribute("rel")]),
  ).toEqual(["https://tiles.example/copyright", "noopener noreferrer"]);
  expect(await page.$$(".leaflet-control-attribution img, .leaflet-control-attribution script, img.injected")).toEqual(
    [],
  );
  // The style's background fills the map where the offline style would draw sea and land (waited
  // for: the map may still be fading from the offline style into it, as it did on a busy CI).
  const map = (await (await page.$(".map"))!.boundingBox())!;
  await waitUntil(
    () => pixelsOf(page, [0x12, 0x34, 0x56], 6),
    (count) => count > map.width * map.height * 0.5,
    "the style's background over half the map",
    // Software WebGL on two busy cores: CI saw a quarter drawn after the default wait.
    60_000,
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
}, 120_000);

test("a style that cannot be loaded leaves the boundaries and the incidents, and the console says why", async () => {
  const style = tiles.documents.get("/styles/base.json")!;
  tiles.documents.delete("/styles/base.json");
  try {
    const { page, problems } = await newWatchedPage(browser!);
    await page.goto(new URL("/?lang=en", ctx.service.url).href, { waitUntil: "load" });
    // The map settles (what the tests and the bench wait for) without the style.
    await page.locator(".map[data-idle='true']").wait();
    await waitUntil(
      () => pixelsOf(page, [0xe3, 0xa0, 0x08]),
      (count) => count > 20,
      "the ambulance's marker",
    );
    expect(problems.filter((problem) => problem.includes("could not be loaded"))).not.toEqual([]);
    await page.close();
  } finally {
    tiles.documents.set("/styles/base.json", style);
  }
});
