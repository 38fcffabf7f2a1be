// Builds the web application (web/) into web/dist (ignored by git), which the service serves at /web/
// (lib/web/web-routes.ts): `npm run build:web`, run by npm install (prepare) and by npm start and
// npm test, so the README's two commands need no extra step. esbuild bundles the TypeScript
// (types are stripped, not checked: `npm run typecheck` checks them against schema.graphql) and
// the CSS, MapLibre's stylesheet included, with the options of lib/web/web-build.ts.
import { cp, mkdir, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";
import { WEB_DIR, webBuildOptions } from "../lib/web/web-build.ts";

// Built beside web/dist and swapped in when complete: a running service (npm start again, or the
// tests, where test/start.test.ts runs npm start while other test files serve the page) never
// finds the folder emptied half-way.
const dist = path.join(WEB_DIR, "dist");
const out = `${dist}.building-${process.pid}`;
const old = `${dist}.old-${process.pid}`;

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build(webBuildOptions(out));
await cp(path.join(WEB_DIR, "index.html"), path.join(out, "index.html"));
// The base map without tiles or internet: the shipped province and safety-region boundaries.
for (const file of ["nl-provinces.geojson", "safety-regions.geojson"]) {
  await cp(path.join(WEB_DIR, "..", "data", file), path.join(out, file));
}
// MapLibre 6 starts its worker from maplibre-gl-worker.mjs beside the script that imported it (its
// import.meta.url, here app.js), so the worker file is served from the same folder.
const maplibre = path.join(path.dirname(createRequire(import.meta.url).resolve("maplibre-gl/package.json")), "dist");
await cp(path.join(maplibre, "maplibre-gl-worker.mjs"), path.join(out, "maplibre-gl-worker.mjs"));

await rename(dist, old).catch((error: NodeJS.ErrnoException) => {
  if (error.code !== "ENOENT") throw error;
});
await rename(out, dist);
await rm(old, { recursive: true, force: true });
