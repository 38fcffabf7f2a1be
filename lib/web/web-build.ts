// How the web application (web/) is bundled, shared by `npm run build:web` (bin/build-web.ts) and
// the size budget of bench/web.ts, so that the bench measures the bundle people are served.
//
// Every file the page loads at once carries a hash of its content in its name (app-<hash>.js,
// app-<hash>.css, the chunks, the boundaries and the place names), so the service lets browsers
// keep them for a year (lib/web/web-routes.ts) and a new build is new names. The page's code
// imports the data files it fetches, and gets their hashed URLs: the boundaries (data/*.geojson)
// through esbuild's file loader, the place names through a plugin that makes them from
// data/woonplaatsen.csv.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import type { BuildOptions, Metafile, Plugin } from "esbuild";
import { ROOT_DIR } from "../paths.ts";

export const WEB_DIR = path.join(ROOT_DIR, "web");

/** Where the service serves the built files (lib/web/web-routes.ts). */
export const WEB_PATH = "/web/";

/**
 * The base map's place names without tiles or internet: the names of data/woonplaatsen.csv as
 * [name, latitude, longitude, population], the most populous first (the order in which the map
 * gives them room), as JSON.
 */
export function placesJson(csv: Buffer | string): string {
  const places = (parse(csv, { columns: true }) as Array<Record<string, string>>)
    .map((row) => [row.name, Number(row.latitude), Number(row.longitude), Number(row.population || 0)] as const)
    .sort((a, b) => b[3] - a[3] || a[0].localeCompare(b[0], "nl"));
  return JSON.stringify(places);
}

/** `import url from ".../woonplaatsen.csv"`: the URL of places-<hash>.json, made from that CSV. */
const placesPlugin: Plugin = {
  name: "places",
  setup(build) {
    build.onResolve({ filter: /[/\\]woonplaatsen\.csv$/ }, (args) => ({
      path: "places.json",
      namespace: "places",
      pluginData: path.resolve(args.resolveDir, args.path),
    }));
    build.onLoad({ filter: /.*/, namespace: "places" }, async (args) => {
      const csv = args.pluginData as string;
      return { contents: placesJson(await readFile(csv)), loader: "file", watchFiles: [csv] };
    });
  },
};

/** esbuild's options for the page's script and stylesheet, written to `outdir`. */
export function webBuildOptions(outdir: string): BuildOptions {
  return {
    // main.ts imports the stylesheets, which come out beside it as app-<hash>.css.
    entryPoints: { app: path.join(WEB_DIR, "src/main.ts") },
    entryNames: "[name]-[hash]",
    outdir,
    bundle: true,
    format: "esm",
    // A configured base map's MapLibre (web/src/map/base-style-layer.ts) is a chunk of its own,
    // fetched only when a style is configured; the chunks lie beside app.js, as MapLibre looks
    // for its worker beside the script that starts it.
    splitting: true,
    // Leaflet's stylesheet names the images of controls the page does not use; they are copied.
    // An imported GeoJSON file is copied as <name>-<hash>.geojson, its import its URL.
    loader: { ".png": "file", ".geojson": "file" },
    // What the file loader's imports and the stylesheet's url()s say: the files are at /web/.
    publicPath: WEB_PATH,
    plugins: [placesPlugin],
    target: ["es2022"],
    minify: process.env.NODE_ENV !== "development",
    sourcemap: true,
    legalComments: "linked",
    logLevel: "warning",
  };
}

/** The output file of the page's entry point (app-<hash>.js, metafile path) and its stylesheet. */
export function entryOutputs(metafile: Metafile): { script: string; stylesheet: string | undefined } {
  const entry = path.join(WEB_DIR, "src/main.ts");
  const script = Object.keys(metafile.outputs).find((file) => {
    const from = metafile.outputs[file].entryPoint;
    return from !== undefined && path.resolve(from) === entry;
  });
  if (!script) throw new Error("esbuild wrote no script for web/src/main.ts");
  return { script, stylesheet: metafile.outputs[script].cssBundle };
}

/**
 * The script files a visitor of the page loads at once: app-<hash>.js and, one after another, the chunks
 * it imports statically (metafile paths, as esbuild writes them). Chunks imported with import()
 * (a configured base map's MapLibre) are left out: they come only when asked for.
 */
export function initialScripts(metafile: Metafile): string[] {
  const outputs = metafile.outputs;
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const imported of outputs[file].imports) {
      if (imported.kind === "import-statement" && outputs[imported.path]) visit(imported.path);
    }
  };
  visit(entryOutputs(metafile).script);
  return [...loaded];
}
