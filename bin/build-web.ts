// Builds the web application (web/) into web/dist (ignored by git), which the service serves at /web/
// (lib/web/web-routes.ts): `npm run build:web`, run by npm install (prepare) and by npm start and
// npm test, so the README's two commands need no extra step. esbuild bundles the TypeScript
// (types are stripped, not checked: `npm run typecheck` checks them against schema.graphql) and
// the CSS, MapLibre's stylesheet included.
import { cp, mkdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";

const web = path.join(import.meta.dirname, "..", "web");
const out = path.join(web, "dist");

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  // main.ts imports the stylesheets, which come out beside it as app.css.
  entryPoints: { app: path.join(web, "src/main.ts") },
  outdir: out,
  bundle: true,
  format: "esm",
  splitting: false,
  target: ["es2022"],
  minify: process.env.NODE_ENV !== "development",
  sourcemap: true,
  legalComments: "linked",
  logLevel: "warning",
});
await cp(path.join(web, "index.html"), path.join(out, "index.html"));
// The base map without tiles or internet: the shipped province and safety-region boundaries.
for (const file of ["nl-provinces.geojson", "safety-regions.geojson"]) {
  await cp(path.join(web, "..", "data", file), path.join(out, file));
}
// MapLibre 6 starts its worker from maplibre-gl-worker.mjs beside the script that imported it (its
// import.meta.url, here app.js), so the worker file is served from the same folder.
const maplibre = path.join(path.dirname(createRequire(import.meta.url).resolve("maplibre-gl/package.json")), "dist");
await cp(path.join(maplibre, "maplibre-gl-worker.mjs"), path.join(out, "maplibre-gl-worker.mjs"));
