// The open-data routes (issue 50, docs/open-data.md): what people share and reuse outside GraphQL.
// Each part reads public data only, through the authenticator's pool and SECURITY DEFINER functions
// in app_private that return public columns and nothing personal; each sits behind the per-address
// request budget and the outage guard as every route does (service.ts).
import express from "express";
import type { CorsOptions } from "../http/cors.ts";
import { archiveRoutes } from "./archive/routes.ts";
import { calendarRoutes } from "./calendars/routes.ts";
import { OGC_PATH, ogcRoutes } from "./ogc/routes.ts";
import { sharePageRoutes } from "./share-pages/routes.ts";
import type { OpenDataDeps } from "./deps.ts";

/**
 * CORS for the open data a page of any origin may read (a browser's GIS client, DuckDB in a page,
 * a calendar web app): public, without credentials, so any origin, whatever CORS_ORIGINS narrows
 * for the API. The share pages are pages people open, not data a script reads. A Parquet reader in
 * a page asks for byte ranges (Range, a header that needs a preflight) and reads what came back
 * (Content-Range, Content-Length) and the validators it revalidates with.
 */
export const OPEN_DATA_CORS: CorsOptions = {
  origins: "*",
  allowedHeaders: "Range, If-None-Match, If-Modified-Since, Accept",
  exposedHeaders: "Retry-After, Content-Range, Content-Length, Accept-Ranges, ETag, Last-Modified",
  routes: [
    { path: OGC_PATH, methods: ["GET", "HEAD"] },
    { path: `${OGC_PATH}/`, methods: ["GET", "HEAD"] },
    { path: "/archive/", methods: ["GET", "HEAD"] },
    { path: "/calendars/", methods: ["GET", "HEAD"] },
  ],
};

export function openDataRoutes(deps: OpenDataDeps): express.Router {
  const router = express.Router();
  router.use(sharePageRoutes(deps));
  router.use(archiveRoutes(deps));
  router.use(calendarRoutes(deps));
  router.use(ogcRoutes(deps));
  return router;
}
