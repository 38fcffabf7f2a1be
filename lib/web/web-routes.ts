// The web application (web/, built into web/dist by `npm run build:web`): its files under /web/,
// its configuration at /web/config.json, and its page (index.html) for any other GET a browser
// asks as a page, so a shared link (/dashboards?region=17) opens the right screen; the page itself
// says when a path is none of its screens. Every answer carries a strict Content-Security-Policy:
// scripts and styles of this origin only, nothing inline, nothing evaluated.
import { existsSync } from "node:fs";
import path from "node:path";
import express from "express";
import { tileTemplateUrl, type WebConfig } from "../config.ts";
import { GRAPHQL_PATH } from "../http/graphql-sse.ts";

const DIST = path.join(import.meta.dirname, "..", "..", "web", "dist");

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
  // app.js, app.css and the other files keep their names from build to build (only the chunks
  // carry a hash): revalidated every time (ETag), which costs a 304.
  router.use("/web", security, express.static(DIST, { index: false, cacheControl: true, maxAge: 0 }));
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
