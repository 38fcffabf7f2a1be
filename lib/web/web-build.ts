// How the web application (web/) is bundled, shared by `npm run build:web` (bin/build-web.ts) and
// the size budget of bench/web.ts, so that the bench measures the bundle people are served.
import path from "node:path";
import type { BuildOptions, Metafile } from "esbuild";
import { ROOT_DIR } from "../db/migrate.ts";

export const WEB_DIR = path.join(ROOT_DIR, "web");

/** esbuild's options for the page's script and stylesheet, written to `outdir`. */
export function webBuildOptions(outdir: string): BuildOptions {
  return {
    // main.ts imports the stylesheets, which come out beside it as app.css.
    entryPoints: { app: path.join(WEB_DIR, "src/main.ts") },
    outdir,
    bundle: true,
    format: "esm",
    // A configured base map's MapLibre (web/src/map/base-style-layer.ts) is a chunk of its own,
    // fetched only when a style is configured; the chunks lie beside app.js, as MapLibre looks
    // for its worker beside the script that starts it.
    splitting: true,
    // Leaflet's stylesheet names the images of controls the page does not use; they are copied.
    loader: { ".png": "file" },
    target: ["es2022"],
    minify: process.env.NODE_ENV !== "development",
    sourcemap: true,
    legalComments: "linked",
    logLevel: "warning",
  };
}

/**
 * The script files a visitor of the page loads at once: app.js and, one after another, the chunks
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
  const app = Object.keys(outputs).find((file) => path.basename(file) === "app.js");
  if (!app) throw new Error("esbuild wrote no app.js");
  visit(app);
  return [...loaded];
}
