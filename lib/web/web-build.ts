// How the web application (web/) is bundled, shared by `npm run build:web` (bin/build-web.ts) and
// the size budget of bench/web.ts, so that the bench measures the bundle people are served.
import path from "node:path";
import type { BuildOptions } from "esbuild";
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
