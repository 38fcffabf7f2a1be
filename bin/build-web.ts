// Builds the web application (web/) into web/dist (ignored by git), which the service serves at /web/
// (lib/web/web-routes.ts): `npm run build:web`, run by npm install (prepare) and by npm start and
// npm test, so the README's two commands need no extra step. esbuild bundles the TypeScript
// (types are stripped, not checked: `npm run typecheck` checks them against schema.graphql) and
// the CSS (Leaflet's stylesheet included) with the options of lib/web/web-build.ts.
import { cp, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { build } from "esbuild";
import { initialScripts, WEB_DIR, webBuildOptions } from "../lib/web/web-build.ts";

// Built beside web/dist and swapped in when complete: a running service (npm start again, or the
// tests, where test/start.test.ts runs npm start while other test files serve the page) never
// finds the folder emptied half-way.
const dist = path.join(WEB_DIR, "dist");
const out = `${dist}.building-${process.pid}`;
const old = `${dist}.old-${process.pid}`;

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const { metafile } = await build({ ...webBuildOptions(out), metafile: true });
// The chunks app.js imports (Leaflet, shared with the base-style-layer chunk) are named by their hash; the
// page asks for them beside app.js (modulepreload) instead of after app.js is parsed.
const preloads = initialScripts(metafile)
  .filter((file) => path.basename(file) !== "app.js")
  .map((file) => `<link rel="modulepreload" href="/web/${path.basename(file)}" />`);
const page = await readFile(path.join(WEB_DIR, "index.html"), "utf8");
const script = '<script type="module" src="/web/app.js"></script>';
if (!page.includes(script)) throw new Error(`web/index.html has no ${script}`);
await writeFile(path.join(out, "index.html"), page.replace(script, [...preloads, script].join("\n    ")));
// The base map without tiles or internet: the shipped province and safety-region boundaries, and
// the names of the places (data/woonplaatsen.csv) as [name, latitude, longitude, population],
// the most populous first (the order in which the map gives them room).
for (const file of ["nl-provinces.geojson", "safety-regions.geojson"]) {
  await cp(path.join(WEB_DIR, "..", "data", file), path.join(out, file));
}
const places = (
  parse(await readFile(path.join(WEB_DIR, "..", "data", "woonplaatsen.csv")), { columns: true }) as Array<
    Record<string, string>
  >
)
  .map((row) => [row.name, Number(row.latitude), Number(row.longitude), Number(row.population || 0)] as const)
  .sort((a, b) => b[3] - a[3] || a[0].localeCompare(b[0], "nl"));
await writeFile(path.join(out, "places.json"), JSON.stringify(places));
// A configured base map's MapLibre (a chunk beside app.js) starts its worker from
// maplibre-gl-worker.mjs beside the script that imported it (its import.meta.url), so the worker
// file is served from the same folder, with MapLibre's stylesheet, which that chunk links.
const maplibre = path.join(path.dirname(createRequire(import.meta.url).resolve("maplibre-gl/package.json")), "dist");
for (const file of ["maplibre-gl-worker.mjs", "maplibre-gl.css"]) {
  await cp(path.join(maplibre, file), path.join(out, file));
}

await rename(dist, old).catch((error: NodeJS.ErrnoException) => {
  if (error.code !== "ENOENT") throw error;
});
await rename(out, dist);
await rm(old, { recursive: true, force: true });
