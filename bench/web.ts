// The web application's budgets (issue 31, part 6), measured with the browser: `npm run bench:web --
// [--incidents 500] [--runs 10] [--live 50] [--path /?lang=en] [--fresh] [--port 54369] [--data web]`.
// 1. Size: the page's script as `npm run build:web` bundles it (lib/web/web-build.ts), built again
//    into a temporary folder with esbuild's metafile, and a second time with the map libraries
//    (Leaflet, and MapLibre for a configured style) left out (external): app.js and the chunks it
//    imports, each gzipped (level 9, as a server would send them). Goal: the application's own
//    JavaScript, the map library apart, at most 150 KB gzipped. The bundle's share of each package
//    (minified bytes in the output) says what the rest is made of; the chunk fetched only with a
//    configured style (MapLibre) is reported apart.
// 2. First paint of the map: --incidents P2000 messages, each in a different place (the largest
//    places of app_public.places, so each gets coordinates and a dossier of its own), stored through
//    the FLEX reader's path (createFlexIngester), then the map opened --runs times in headless
//    Chromium (@sparticuz/chromium, as the browser tests; 1366×850) on the service in its own
//    process. Each run is a first visit (a new tab, the browser's cache emptied) and then a visit
//    back (another new tab, the files cached and revalidated: 304). --path opens another view of
//    the map (`/?lang=en&off=traffic,weather,alerts,aircraft` shows what the other layers cost). Measured in the page from navigation
//    start (performance.timeOrigin) to the map's first `data-idle="true"` (set by
//    web/src/map/base-map.ts in the animation frame after the canvases were redrawn) after the
//    incident list was filled and the incidents were handed to the map (which sets it "false"):
//    the markers are drawn and the list is full.
//    The page loads the newest MAP_INCIDENTS (500) dossiers, five pages of p2000Dossiers at once
//    (web/src/map/incidents.ts); the results say how many it drew. Before the measured browser
//    starts, one page is opened in a browser of its own and closed: the service's first requests
//    after it started (plans built, connections opened) are not what a visitor meets, while the
//    measured browser's first page is still a browser's first page. Goal: under 2 s.
// 3. A message on screen: with the map open, --live messages one at a time through the FLEX
//    reader's path (push a FLEX line, flush), each in a new place; from just before the push to the
//    first animation frame after its text is in the incident list (a MutationObserver in the page;
//    the page and this process share the machine's clock). Goal: p95 under 1 s.
// The database is the bench's own (bench/.data-<data>, kept between runs; --fresh starts over); each
// run starts from an empty P2000 history. Figures go to bench/results/web-latest.md (docs/benchmarks.md
// shows them) and a dated JSON file, with the load average: two shared cores, so measure on a quiet
// machine.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import pg from "pg";
import type { Browser, Page } from "puppeteer-core";
import { createFlexIngester, FLEX_READER_CONNECTIONS } from "../lib/p2000/flex-ingest.ts";
import { flexLine } from "../lib/p2000/synthetic-pager-traffic.ts";
import { entryOutputs, initialScripts, webBuildOptions } from "../lib/web/web-build.ts";
import { MAP_INCIDENTS } from "../web/src/map/map-limits.ts";
import { DESKTOP, launchBrowser } from "../test/helpers/browser.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { loadAverage, quietMoment } from "./cpu-accounting.ts";
import { machine, percentile, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

const { values } = parseArgs({
  options: {
    incidents: { type: "string", default: "500" },
    runs: { type: "string", default: "10" },
    live: { type: "string", default: "50" },
    path: { type: "string", default: "/?lang=en" },
    fresh: { type: "boolean", default: false },
    port: { type: "string", default: "54369" },
    data: { type: "string", default: "web" },
  },
});
const INCIDENTS = Number(values.incidents);
const RUNS = Number(values.runs);
const LIVE = Number(values.live);
const GOALS = { ownKb: 150, paintMs: 2000, liveP95Ms: 1000 };
const log = (line: string) => console.log(line);
const kb = (bytes: number) => +(bytes / 1024).toFixed(1);
const round = (ms: number) => Math.round(ms);
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1)!),
  };
};

// 1. Size.
/** The map libraries, left out of the application's own JavaScript. */
const MAP_LIBRARIES = ["leaflet", "maplibre-gl", "@maplibre/maplibre-gl-leaflet"];

async function bundleSizes() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-web-"));
  const gzip = (buffer: Buffer) => gzipSync(buffer, { level: 9 }).length;
  try {
    /**
     * The script a visitor of the map loads: app.js and the chunks it imports (Leaflet), each
     * gzipped as served; the chunks it imports only when asked (a configured style's MapLibre)
     * are counted apart.
     */
    const bundle = async (name: string, external: string[]) => {
      const out = path.join(dir, name);
      const { metafile } = await build({ ...webBuildOptions(out), sourcemap: false, metafile: true, external });
      const initial = new Set(initialScripts(metafile));
      const size = (files: string[]) => {
        const contents = files.map((file) => fs.readFileSync(path.join(process.cwd(), file)));
        return {
          minified: contents.reduce((sum, content) => sum + content.length, 0),
          gzipped: contents.reduce((sum, content) => sum + gzip(content), 0),
        };
      };
      const later = Object.keys(metafile.outputs).filter((file) => file.endsWith(".js") && !initial.has(file));
      // app-<hash>.css (lib/web/web-build.ts).
      const css = fs.readFileSync(path.join(process.cwd(), entryOutputs(metafile).stylesheet!));
      return { initial: size([...initial]), later: size(later), css, metafile, initialFiles: [...initial] };
    };
    const whole = await bundle("whole", []);
    const own = await bundle("own", MAP_LIBRARIES);
    // Minified bytes of the initial script by package (node_modules/<name>) or the application (web/).
    const byPackage = new Map<string, number>();
    for (const file of whole.initialFiles) {
      const inputs = whole.metafile.outputs[file].inputs as Metafile["outputs"][string]["inputs"];
      for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
        const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
        const key = match ? match[1] : "web/ (the application)";
        byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput);
      }
    }
    return {
      wholeJs: whole.initial,
      ownJs: own.initial,
      styleChunk: whole.later,
      css: { minified: whole.css.length, gzipped: gzip(whole.css) },
      byPackage: [...byPackage.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([name, bytes]) => ({ name, minified: bytes })),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const sizes = await bundleSizes();
log(
  `Script: ${kb(sizes.wholeJs.gzipped)} KB gzipped as loaded (${kb(sizes.wholeJs.minified)} KB minified), ` +
    `${kb(sizes.ownJs.gzipped)} KB gzipped without the map library (${kb(sizes.ownJs.minified)} KB minified); ` +
    `a configured style's MapLibre ${kb(sizes.styleChunk.gzipped)} KB gzipped more`,
);
for (const { name, minified } of sizes.byPackage.slice(0, 8)) log(`  ${name}: ${kb(minified)} KB minified`);

// 2. The database, with no P2000 history left from a previous run.
const { dataDir, config, database, owner } = await openBenchDatabase(
  values.data!,
  Number(values.port),
  values.fresh ?? false,
);
await owner.query("truncate app_public.p2000_messages, app_public.p2000_dossiers cascade");
// The largest places with a safety region: a name P2000 enrichment recognises, each its own point.
const { rows: places } = await owner.query<{ name: string }>(
  `select name from app_public.places where region_uuid is not null and name !~ '[^[:alpha:] .'']'
    group by name order by max(population) desc nulls last, name limit $1`,
  [INCIDENTS + LIVE],
);
if (places.length < INCIDENTS + LIVE) throw new Error(`only ${places.length} places to put incidents in`);
const URGENCIES = ["A1", "A2", "B1"];
let bon = 500000;
/** An ambulance call in a place, its bon number unique: a dossier of its own. */
const ambulanceCall = (place: string, at: Date, index: number) =>
  flexLine(
    at,
    ["2029568", "1420" + String(index % 1000).padStart(3, "0")],
    `${URGENCIES[index % 3]} AMBU 17101 Dorpsstraat ${place} bon ${++bon}`,
    index,
  );

const loader = new pg.Pool({ connectionString: database.ownerUrl, max: FLEX_READER_CONNECTIONS });
{
  const ingester = createFlexIngester(loader, { source: "bench:web", log });
  const now = Date.now();
  // Oldest first, one a minute up to a minute ago.
  for (let i = INCIDENTS - 1; i >= 0; i--)
    await ingester.push(ambulanceCall(places[i].name, new Date(now - (i + 1) * 60_000), i));
  await ingester.flush();
}
const {
  rows: [stored],
} = await owner.query<{ messages: number; dossiers: number; placed: number }>(
  `select (select count(*)::int from app_public.p2000_messages) as messages,
          (select count(*)::int from app_public.p2000_dossiers) as dossiers,
          (select count(*)::int from app_public.p2000_dossiers where latitude is not null) as placed`,
);
log(`Stored ${stored.messages} messages: ${stored.dossiers} dossiers, ${stored.placed} with a place on the map`);

const service = await startServerProcess({
  dataDir,
  pgPort: config.database.embeddedPgPort,
  // Every page of the bench comes from 127.0.0.1: the per-address subscription cap is not what is measured.
  // The offline base map (no tiles from PDOK): what is measured is the page's own drawing.
  env: { WEB_CLIENT_SUBSCRIPTIONS_PER_ADDRESS: "100000", MAP_TILE_URL: "" },
});
const origin = new URL(service.graphqlUrl).origin;
const MAP_URL = new URL(values.path!, origin).href;

// What the page is given: the map's own pages of p2000Dossiers (MAP_INCIDENTS of them), with the page's own credential.
const webConfig = (await (await fetch(`${origin}/web/config.json`)).json()) as { apiToken: string };
const given: Array<{ latitude: number | null }> = [];
for (let page = 1; page <= MAP_INCIDENTS / 100; page++) {
  const answer = (await (
    await fetch(service.graphqlUrl, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${webConfig.apiToken}` },
      body: JSON.stringify({ query: `{ p2000Dossiers(first: 100, page: ${page}) { latitude longitude } }` }),
    })
  ).json()) as { data: { p2000Dossiers: Array<{ latitude: number | null }> } };
  given.push(...answer.data.p2000Dossiers);
}
const expected = given.filter((d) => d.latitude !== null).length;
log(`The page is given ${given.length} dossiers, ${expected} with a place: the markers it draws`);

/**
 * Installed in every document before its scripts: the time (ms since navigation start) when the
 * list first held `expected` incidents, and the first time after that the map became idle again
 * after loading (the incidents' GeoJSON drawn). A record's new attribute value is the next
 * record's old one, or the attribute as it is now for the last.
 */
const paintProbe = (expected: number) => `(() => {
  const probe = (window.__paint = { canvasAt: null, listAt: null, loadingAfterList: false, paintedAt: null, listed: 0 });
  new MutationObserver((records) => {
    records.forEach((record, i) => {
      if (probe.paintedAt !== null) return;
      if (record.type === "childList") {
        if (probe.canvasAt === null && document.querySelector(".map canvas")) probe.canvasAt = performance.now();
        if (probe.listAt === null) {
          const listed = document.querySelectorAll("button.incident").length;
          if (listed >= ${expected}) { probe.listAt = performance.now(); probe.listed = listed; }
        }
        return;
      }
      if (record.attributeName !== "data-idle") return;
      const later = records.slice(i + 1).find((r) => r.target === record.target && r.attributeName === "data-idle");
      const value = later ? later.oldValue : record.target.getAttribute("data-idle");
      if (probe.listAt === null) return;
      if (value === "false") probe.loadingAfterList = true;
      else if (value === "true" && probe.loadingAfterList) probe.paintedAt = performance.now();
    });
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-idle"], attributeOldValue: true });
})()`;

interface Paint {
  /** The script (app.js) received, the map's first canvas made, the list filled, the incidents drawn. */
  scriptAt: number;
  canvasAt: number;
  listAt: number;
  paintedAt: number;
  listed: number;
  count: string;
}

async function paint(page: Page): Promise<Paint> {
  await page.goto(MAP_URL, { waitUntil: "load" });
  await page.waitForFunction("window.__paint.paintedAt !== null", { polling: 50, timeout: 60_000 });
  return (await page.evaluate(
    `({ ...window.__paint, count: document.querySelector(".incident-count")?.textContent ?? "",
        scriptAt: performance.getEntriesByType("resource").find((e) => e.name.includes("/web/app-") && e.name.endsWith(".js"))?.responseEnd ?? null })`,
  )) as Paint;
}

// The service warmed by one visit in a browser of its own (see the header).
{
  const warmUp = await launchBrowser();
  const page = await warmUp.newPage();
  await page.setViewport(DESKTOP);
  await page.evaluateOnNewDocument(paintProbe(expected));
  await paint(page);
  await warmUp.close();
}
const browser: Browser = await launchBrowser();

/**
 * A new tab with the probe; for a first visit with the browser's HTTP cache emptied
 * (@sparticuz/chromium runs as a single process, which cannot open a second browser context).
 */
async function openPage(firstVisit: boolean): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport(DESKTOP);
  await page.evaluateOnNewDocument(paintProbe(expected));
  if (firstVisit) {
    const session = await page.createCDPSession();
    await session.send("Network.clearBrowserCache");
    await session.detach();
  }
  return page;
}
const first: Paint[] = [];
const again: Paint[] = [];
// Up to a minute for a quiet second of the cores; the load average says how quiet it stayed.
await quietMoment(60);
const loadBefore = loadAverage();
try {
  for (let run = 1; run <= RUNS; run++) {
    const page = await openPage(true);
    first.push(await paint(page));
    await page.close();
    // Back in a new tab: the files in the cache, revalidated (304).
    const back = await openPage(false);
    again.push(await paint(back));
    log(
      `  run ${run}: first visit ${round(first.at(-1)!.paintedAt)} ms (script ${round(first.at(-1)!.scriptAt)} ms, ` +
        `canvas ${round(first.at(-1)!.canvasAt)} ms, list ${round(first.at(-1)!.listAt)} ms), ` +
        `back ${round(again.at(-1)!.paintedAt)} ms; "${first.at(-1)!.count}"`,
    );
    if (run === 1) {
      const shot = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "test-results", "screenshots");
      fs.mkdirSync(shot, { recursive: true });
      await back.screenshot({ path: path.join(shot, "bench-web-map.png") });
    }
    await back.close();
  }
} catch (error) {
  await browser.close();
  await service.stop();
  throw error;
}

// 3. A message on screen, with the map open (a first visit, painted).
const liveLatencies: number[] = [];
const storeLatencies: number[] = [];
{
  const page = await openPage(true);
  await paint(page);
  // The time (Date.now()) of the first animation frame after a list button holds the awaited text.
  await page.evaluate(`(() => {
    const live = (window.__live = { want: null, shownAt: null });
    new MutationObserver(() => {
      if (live.want === null || live.shownAt !== null || live.pending) return;
      const found = [...document.querySelectorAll("button.incident")].some((b) => b.textContent.includes(live.want));
      if (found) { live.pending = true; requestAnimationFrame(() => { live.shownAt = Date.now(); live.pending = false; }); }
    }).observe(document.querySelector(".incident-list"), { subtree: true, childList: true, characterData: true });
  })()`);
  const ingester = createFlexIngester(loader, { source: "bench:web", log });
  for (let i = 0; i < LIVE; i++) {
    const index = INCIDENTS + i;
    const line = ambulanceCall(places[index].name, new Date(), index);
    const want = `bon ${bon}`;
    await page.evaluate(`window.__live.want = ${JSON.stringify(want)}; window.__live.shownAt = null;`);
    const started = Date.now();
    await ingester.push(line);
    await ingester.flush();
    storeLatencies.push(Date.now() - started);
    await page.waitForFunction("window.__live.shownAt !== null", { polling: 20, timeout: 30_000 });
    liveLatencies.push(((await page.evaluate("window.__live.shownAt")) as number) - started);
    // A pause as between real messages (the network carries a few a minute).
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await page.close();
}
await browser.close();
await service.stop();
await loader.end();
await owner.end();
await database.close();

// Results.
const firstPaint = stats(first.map((p) => p.paintedAt));
const againPaint = stats(again.map((p) => p.paintedAt));
const live = stats(liveLatencies);
const store = stats(storeLatencies);
const loadAfter = loadAverage();
const met = {
  size: kb(sizes.ownJs.gzipped) <= GOALS.ownKb,
  paint: firstPaint.max < GOALS.paintMs,
  live: live.p95 < GOALS.liveP95Ms,
};
const date = new Date().toISOString();
const result = {
  date,
  machine: machine(),
  loadAverage: { before: loadBefore, after: loadAfter },
  goals: GOALS,
  met,
  sizes,
  incidents: { stored: stored.messages, dossiers: stored.dossiers, withPlace: stored.placed, givenToPage: expected },
  paint: { path: values.path, firstVisit: firstPaint, back: againPaint, runs: { first, again } },
  live: { onScreen: live, store, latencies: liveLatencies },
};
const yes = (ok: boolean) => (ok ? "met" : "**not met**");
const markdown = [
  `# Web application (bench/web.ts), ${date.slice(0, 10)}`,
  "",
  `${machine()}; headless Chromium (@sparticuz/chromium), 1366×850; load average ` +
    `${loadBefore.join(" / ")} before, ${loadAfter.join(" / ")} after (1 / 5 / 15 min).`,
  "",
  "| budget | goal | measured | |",
  "| --- | --- | --- | --- |",
  `| the application's own JavaScript (the map library apart), gzipped | ≤ ${GOALS.ownKb} KB | ${kb(sizes.ownJs.gzipped)} KB | ${yes(met.size)} |`,
  `| the map with its incidents painted, first visit (${RUNS} runs) | < ${GOALS.paintMs} ms | p50 ${firstPaint.p50} ms, p95 ${firstPaint.p95} ms, max ${firstPaint.max} ms | ${yes(met.paint)} |`,
  `| a stored P2000 message on screen (${LIVE} messages) | p95 < ${GOALS.liveP95Ms} ms | p50 ${live.p50} ms, p95 ${live.p95} ms, max ${live.max} ms | ${yes(met.live)} |`,
  "",
  "## Script size",
  "",
  "| bundle | minified | gzipped |",
  "| --- | --- | --- |",
  `| app.js and its chunks as loaded (Leaflet included) | ${kb(sizes.wholeJs.minified)} KB | ${kb(sizes.wholeJs.gzipped)} KB |`,
  `| the same with the map libraries left out | ${kb(sizes.ownJs.minified)} KB | ${kb(sizes.ownJs.gzipped)} KB |`,
  `| fetched only with a configured style (MAP_STYLE_URL: MapLibre and its Leaflet layer) | ${kb(sizes.styleChunk.minified)} KB | ${kb(sizes.styleChunk.gzipped)} KB |`,
  `| app.css (Leaflet's stylesheet included) | ${kb(sizes.css.minified)} KB | ${kb(sizes.css.gzipped)} KB |`,
  "",
  "Minified bytes of the script as loaded, by package: " +
    sizes.byPackage.map(({ name, minified }) => `${name} ${kb(minified)} KB`).join(", ") +
    ". (With a configured style, MapLibre's worker, maplibre-gl-worker.mjs, and stylesheet are files of their own.)",
  "",
  "## The map painted",
  "",
  `${stored.messages} messages stored in ${stored.dossiers} dossiers (${stored.placed} with a place); the page asks ` +
    `for ${MAP_INCIDENTS / 100} pages of p2000Dossiers(first: 100) at once (100 is the API's page cap), so it is given ${expected} with a place and draws ${expected} markers ` +
    `and ${expected} list items ("${first[0]?.count}"), at \`${values.path}\`. From navigation start:`,
  "",
  "| visit | script received p50 | map canvas made p50 | list filled p50 | painted p50 | p95 | max |",
  "| --- | --- | --- | --- | --- | --- | --- |",
  ...(
    [
      ["first (new tab, the browser's cache emptied)", first],
      ["back (a new tab, the files cached and revalidated)", again],
    ] as const
  ).map(([visit, paints]) => {
    const p50 = (key: keyof Paint) => stats(paints.map((p) => p[key] as number)).p50;
    const painted = stats(paints.map((p) => p.paintedAt));
    return `| ${visit} | ${p50("scriptAt")} ms | ${p50("canvasAt")} ms | ${p50("listAt")} ms | ${painted.p50} ms | ${painted.p95} ms | ${painted.max} ms |`;
  }),
  "",
  `Painted, first visits in order (the first is the browser's first page since it started): ${first.map((p) => round(p.paintedAt)).join(", ")} ms; ` +
    `visits back: ${again.map((p) => round(p.paintedAt)).join(", ")} ms.`,
  "",
  "## A message on screen",
  "",
  `${LIVE} messages, one at a time through the FLEX reader's path, each a new incident: from just before the ` +
    `push to the first animation frame with its text in the list.`,
  "",
  "| part | p50 | p95 | max |",
  "| --- | --- | --- | --- |",
  `| stored (push + flush: enrichment, dossier, INSERTs) | ${store.p50} ms | ${store.p95} ms | ${store.max} ms |`,
  `| on screen | ${live.p50} ms | ${live.p95} ms | ${live.max} ms |`,
];
log("");
log(markdown.join("\n"));
log(`\nWritten ${writeResults("web", "web-latest.md", result, markdown)}`);
