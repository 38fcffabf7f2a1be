// CORS (the Fetch standard's HTTP side) for the API's routes, so that a page of another origin can
// call /graphql, its event streams and the account links with fetch. No credentials mode: the
// service sets no cookies and every call carries its token in a header, so
// Access-Control-Allow-Credentials is never sent and `*` is a safe default (CORS_ORIGINS narrows
// it). The `cors` package was not taken: it answers a preflight from a refused origin with 204
// and the allowed methods anyway, echoes any requested header unless told otherwise, and would
// be a new dependency for what fits in this file.
import type { IncomingMessage, ServerResponse } from "node:http";
import { GRAPHQL_SSE_TOKEN_HEADER } from "./graphql-sse.ts";
import { refuse } from "./refusals.ts";

/** A path prefix and the methods it serves (answered in Access-Control-Allow-Methods and Allow). */
export interface CorsRoute {
  /** `/graphql` matches `/graphql` only; `/auth/` matches everything under it. */
  path: string;
  methods: readonly string[];
}

export interface CorsOptions {
  /** "*" or the origins (scheme://host[:port], as browsers send them) that may call. */
  origins: "*" | readonly string[];
  routes: CorsRoute[];
  /** The request headers a preflight allows; the API's by default. */
  allowedHeaders?: string;
  /** The response headers a script may read besides the safelisted ones; Retry-After by default. */
  exposedHeaders?: string;
}

// A fixed list rather than an echo of Access-Control-Request-Headers: these are all a client of
// this API sends (the graphql-sse client adds its stream token in single connection mode).
const ALLOWED_HEADERS = ["Authorization", "Content-Type", "Accept", GRAPHQL_SSE_TOKEN_HEADER].join(", ");
// What a script may read besides the safelisted headers: when to retry after a 429 or 503.
const EXPOSED_HEADERS = "Retry-After";
// Chromium caps a preflight's cache at two hours (Firefox at one day).
const MAX_AGE_SECONDS = 7200;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Returns a function that adds the CORS headers to every answer of a route it covers (set now, so
 * that whatever answers later, a 401, 429 or 503 included, carries them) and answers OPTIONS
 * itself: a preflight from an allowed origin gets 204 with the allow headers, one from another
 * origin 403 without them, a plain OPTIONS 204 with Allow. Returns true when it answered.
 */
export function makeCors(options: CorsOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const anyOrigin = options.origins === "*";
  const allowedHeaders = options.allowedHeaders ?? ALLOWED_HEADERS;
  const exposedHeaders = options.exposedHeaders ?? EXPOSED_HEADERS;
  const allowed = new Set(anyOrigin ? [] : options.origins);
  return (req, res) => {
    const path = req.url?.split("?")[0] ?? "";
    const route = options.routes.find((r) => (r.path.endsWith("/") ? path.startsWith(r.path) : path === r.path));
    if (!route) return false;
    const origin = single(req.headers.origin);
    // With a list, the answer depends on the Origin header: caches must keep one per origin.
    if (!anyOrigin) res.appendHeader("vary", "Origin");
    const allowOrigin = anyOrigin ? "*" : origin !== undefined && allowed.has(origin) ? origin : undefined;
    if (allowOrigin !== undefined) {
      res.setHeader("access-control-allow-origin", allowOrigin);
      res.setHeader("access-control-expose-headers", exposedHeaders);
    }
    if (req.method !== "OPTIONS") return false;
    const methods = [...route.methods, "OPTIONS"].join(", ");
    const preflight = origin !== undefined && req.headers["access-control-request-method"] !== undefined;
    if (preflight && allowOrigin === undefined) {
      refuse(res, 403, `Origin ${origin} may not call this service (CORS_ORIGINS).`, "FORBIDDEN");
      return true;
    }
    if (preflight) {
      res.setHeader("access-control-allow-methods", methods);
      res.setHeader("access-control-allow-headers", allowedHeaders);
      res.setHeader("access-control-max-age", String(MAX_AGE_SECONDS));
    }
    res.writeHead(204, { allow: methods }).end();
    return true;
  };
}
