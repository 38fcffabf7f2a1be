// The web application (web/, built into web/dist by `npm run build:web`): its files under /web/,
// its configuration at /web/config.json, and its page (index.html) for any other GET a browser
// asks as a page, so a shared link (/dashboards?region=17) opens the right screen; the page itself
// says when a path is none of its screens. Every answer carries a strict Content-Security-Policy:
// scripts and styles of this origin only, nothing inline, nothing evaluated.
//
// The files (issue 44): those named with a hash of their content (app-<hash>.js, app-<hash>.css,
// the chunks, the boundaries, the place names; lib/web/web-build.ts) are kept by browsers for a
// year (immutable), the others (index.html, the few fixed names such as MapLibre's worker) are
// revalidated (no-cache, ETag). The build wrote brotli and gzip twins of the text files
// (bin/build-web.ts): a browser that takes one gets it (Content-Encoding, the original's
// Content-Type, Vary: Accept-Encoding), a client that sends no Accept-Encoding the plain file.
import { existsSync } from "node:fs";
import { access } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import path from "node:path";
import express from "express";
import { tileTemplateUrl, type WebConfig } from "../config.ts";
import { GRAPHQL_PATH } from "../paths.ts";

const DIST = path.join(import.meta.dirname, "..", "..", "web", "dist");

/** A built file named with esbuild's content hash (8 base32 letters before its extension): never changes. */
const HASHED_NAME = /-[A-Z2-7]{8}\.[a-z]+$/;
const IMMUTABLE = "public, max-age=31536000, immutable";

/** The precompressed twins the build writes, in the service's order of preference. */
const ENCODINGS = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
] as const;
type Encoding = (typeof ENCODINGS)[number]["encoding"];

/**
 * The encoding to send of those `available`, by the request's Accept-Encoding: the one with the
 * highest q-value above 0 (a coding named, else `*`), brotli before gzip when equal; none without
 * the header (a client that says nothing gets the plain file).
 */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  available: readonly Encoding[],
): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [coding, ...parameters] = part.trim().toLowerCase().split(";");
    if (!coding) continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(coding.trim(), Number.isFinite(weight) ? weight : 0);
  }
  let chosen: Encoding | undefined;
  let best = 0;
  for (const { encoding } of ENCODINGS) {
    if (!available.includes(encoding)) continue;
    const weight = weights.get(encoding) ?? weights.get("*") ?? 0;
    if (weight > best) [chosen, best] = [encoding, weight];
  }
  return chosen;
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Per file of the build, the encodings of the twins the build wrote beside it, looked up once: a
 * build's files never change (a hashed name is its content; a fixed name is a library's file,
 * compressed the same by every build). Only names of files that exist are kept, so what a client
 * asks for cannot grow it beyond the folder.
 */
const twinsOf = new Map<string, Encoding[]>();
async function twins(name: string): Promise<Encoding[]> {
  const known = twinsOf.get(name);
  if (known) return known;
  const [plain, ...found] = await Promise.all(
    [name, ...ENCODINGS.map(({ suffix }) => name + suffix)].map((file) => exists(path.join(DIST, file))),
  );
  const available = ENCODINGS.filter((_, i) => found[i]).map(({ encoding }) => encoding);
  if (plain) twinsOf.set(name, available);
  return available;
}

/** Screens of the page that e-mails and notifications link to with a token in the query. */
const LINK_PAGES = new Set(["/auth/reset-password", "/respond"]);

/**
 * The policy of the page. A configured base map (MAP_STYLE_URL) brings its style from its own
 * origin (which may be a tile server on the operator's network, over http) and its tiles, glyphs
 * and sprites from the hosts the style names, over HTTPS; MapLibre, which draws it, runs its parser
 * in a worker from its own script, served beside app.js (worker-src 'self'), and turns decoded
 * images into blob URLs (img-src blob:). Raster tiles (MAP_TILE_URL, by default PDOK's) are images
 * of their template's origin, a `{s}` sub-domain as a wildcard (img-src); nothing else is fetched
 * from there. A style overrides the tiles: then they are not drawn, and not allowed.
 */
export function webContentSecurityPolicy(web: WebConfig): string {
  const remote = web.mapStyleUrl ? ` ${new URL(web.mapStyleUrl).origin} https:` : "";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${remote}${web.mapStyleUrl ? "" : tileSource(web.mapTileUrl)}`,
    `connect-src 'self'${remote}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The CSP source of a tile URL template's host (" https://*.tiles.example" for {s}), or "" for none. */
function tileSource(template: string | undefined): string {
  const url = template ? tileTemplateUrl(template) : undefined;
  if (!url) return "";
  // tileTemplateUrl read a sub-domain {s} as "s": every sub-domain of the rest is allowed.
  const host = template!.includes("://{s}.") ? `*.${url.host.slice(2)}` : url.host;
  return ` ${url.protocol}//${host}`;
}

export interface WebRouteOptions {
  web: WebConfig;
  /** The API token the public page reads with, or null when none is handed out. */
  webClientToken(): Promise<string | null>;
}

export function webRoutes(options: WebRouteOptions): express.Router {
  const router = express.Router();
  const policy = webContentSecurityPolicy(options.web);
  const security = (_req: express.Request, res: express.Response, next: express.NextFunction) => {
    res.set({
      "content-security-policy": policy,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    });
    next();
  };

  router.get("/web/config.json", security, async (_req, res, next) => {
    try {
      res.set("cache-control", "no-store");
      res.json({
        graphqlPath: GRAPHQL_PATH,
        apiToken: await options.webClientToken(),
        requireSignIn: options.web.requireSignIn,
        mapStyleUrl: options.web.mapStyleUrl ?? null,
        // A style overrides the tiles.
        mapTileUrl: (!options.web.mapStyleUrl && options.web.mapTileUrl) || null,
        mapTileAttribution: (!options.web.mapStyleUrl && options.web.mapTileAttribution) || null,
      });
    } catch (error) {
      next(error);
    }
  });
  // The built files. A file answered through its .br or .gz twin keeps its own Content-Type; every
  // answer's Cache-Control is set when a file is sent (a 404 is not kept).
  const files = express.static(DIST, {
    index: false,
    cacheControl: false,
    setHeaders(res: ServerResponse, file: string) {
      const twin = ENCODINGS.find(({ suffix }) => file.endsWith(suffix));
      const name = path.basename(twin ? file.slice(0, -twin.suffix.length) : file);
      if (twin) {
        res.setHeader("content-encoding", twin.encoding);
        (res as express.Response).type(path.extname(name));
      }
      res.setHeader("cache-control", HASHED_NAME.test(name) ? IMMUTABLE : "no-cache");
    },
  });
  router.use("/web", security, async (req, res, next) => {
    // The folder is flat; the twins are no address of their own.
    const name = /^\/([A-Za-z0-9][\w.-]*)$/.exec(req.path)?.[1];
    if (!name || ENCODINGS.some(({ suffix }) => name.endsWith(suffix))) return next();
    if (req.method === "GET" || req.method === "HEAD") {
      const available = await twins(name);
      if (available.length > 0) {
        res.vary("Accept-Encoding");
        const chosen = chooseEncoding(req.get("accept-encoding"), available);
        const twin = ENCODINGS.find(({ encoding }) => encoding === chosen);
        if (twin) req.url = `/${name}${twin.suffix}`;
      }
    }
    files(req, res, next);
  });
  // Mounted after every other route: what reaches it is a path of the page (no file extension).
  router.get(/^\/[^.]*$/, security, (req, res, next) => {
    if (!req.accepts("html")) return next();
    const index = path.join(DIST, "index.html");
    if (!existsSync(index)) {
      res.status(503).type("text/plain").send("The web application is not built: run `npm run build:web`.\n");
      return;
    }
    // The pages behind e-mailed links carry a credential in their URL: kept out of every cache.
    res.set("cache-control", LINK_PAGES.has(req.path) ? "no-store" : "no-cache");
    res.sendFile(index);
  });
  return router;
}
