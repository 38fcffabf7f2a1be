// Builds the web application (web/) into web/dist (ignored by git), which the service serves at /web/
// (lib/web/web-routes.ts): `npm run build:web`, run by npm install (prepare) and by npm start and
// npm test, so the README's two commands need no extra step. esbuild bundles the TypeScript
// (types are stripped, not checked: `npm run typecheck` checks them against schema.graphql) and
// the CSS (Leaflet's stylesheet included) with the options of lib/web/web-build.ts: the script,
// the stylesheet, the chunks and the data files the page fetches (boundaries, place names) are
// named by a hash of their content, and index.html is written with those names. Then every text
// file of 1 KB or more gets a brotli (.br) and a gzip (.gz) twin, which the service sends to
// browsers that take them (Accept-Encoding), so no request compresses anything.
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { build } from "esbuild";
import { entryOutputs, initialScripts, WEB_DIR, WEB_PATH, webBuildOptions } from "../lib/web/web-build.ts";

// Built beside web/dist and swapped in when complete: a running service (npm start again, or the
// tests, where test/start.test.ts runs npm start while other test files serve the page) never
// finds the folder emptied half-way.
const dist = path.join(WEB_DIR, "dist");
const out = `${dist}.building-${process.pid}`;
const old = `${dist}.old-${process.pid}`;

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const { metafile } = await build({ ...webBuildOptions(out), metafile: true });
const { script, stylesheet } = entryOutputs(metafile);
if (!stylesheet) throw new Error("esbuild wrote no stylesheet for web/src/main.ts");
const url = (file: string) => WEB_PATH + path.basename(file);
// The chunks the script imports (Leaflet, shared with the base-style-layer chunk) are asked for
// beside it (modulepreload) instead of after it is parsed.
const preloads = initialScripts(metafile)
  .filter((file) => file !== script)
  .map((file) => `<link rel="modulepreload" href="${url(file)}" />`);
// web/index.html names the script and the stylesheet as /web/app.js and /web/app.css: written
// with their hashed names.
const page = await readFile(path.join(WEB_DIR, "index.html"), "utf8");
const scriptTag = `<script type="module" src="${WEB_PATH}app.js"></script>`;
const stylesheetTag = `<link rel="stylesheet" href="${WEB_PATH}app.css" />`;
for (const tag of [scriptTag, stylesheetTag]) {
  if (!page.includes(tag)) throw new Error(`web/index.html has no ${tag}`);
}
await writeFile(
  path.join(out, "index.html"),
  page
    .replace(stylesheetTag, `<link rel="stylesheet" href="${url(stylesheet)}" />`)
    .replace(scriptTag, [...preloads, `<script type="module" src="${url(script)}"></script>`].join("\n    ")),
);
// A configured base map's MapLibre (a chunk beside the script) starts its worker from
// maplibre-gl-worker.mjs beside the script that imported it (its import.meta.url), so the worker
// file is served from the same folder, with MapLibre's stylesheet, which that chunk links. These
// two keep their names (the service has browsers revalidate them).
const maplibre = path.join(path.dirname(createRequire(import.meta.url).resolve("maplibre-gl/package.json")), "dist");
for (const file of ["maplibre-gl-worker.mjs", "maplibre-gl.css"]) {
  await cp(path.join(maplibre, file), path.join(out, file));
}

// Precompressed twins of the text files the page loads (not the source maps, which only developer
// tools fetch, nor index.html, which is small and answered with the page's own headers).
const COMPRESSED = new Set([".js", ".mjs", ".css", ".geojson", ".json", ".svg"]);
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
await Promise.all(
  (await readdir(out))
    .filter((file) => COMPRESSED.has(path.extname(file)))
    .map(async (file) => {
      const content = await readFile(path.join(out, file));
      if (content.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            // 10 rather than 11: within 2 % of its size at a third of the time (npm start builds).
            [constants.BROTLI_PARAM_QUALITY]: 10,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipped(content, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      await writeFile(path.join(out, `${file}.br`), br);
      await writeFile(path.join(out, `${file}.gz`), gz);
    }),
);

await rename(dist, old).catch((error: NodeJS.ErrnoException) => {
  if (error.code !== "ENOENT") throw error;
});
await rename(out, dist);
await rm(old, { recursive: true, force: true });
