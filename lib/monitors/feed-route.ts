// GET /feeds/monitors/<secret>.atom and .geojson: a monitor's recent matches for feed readers and
// Home Assistant. The secret in the path is the credential (a capability URL); an unknown,
// malformed, rotated or revoked one answers the same 404. It sits behind the per-address request
// budget and the outage guard as every route does (service.ts), reads through the authenticator's
// pool one SECURITY DEFINER function keyed by the secret's hash (app_private.monitor_feed), and
// answers with a strong ETag, the hash of the body: a reader that sends it back in If-None-Match
// gets 304 without a body while nothing changed.
import { createHash } from "node:crypto";
import express from "express";
import type pg from "pg";
import { describeError } from "../graphql/errors.ts";
import { ifNoneMatchFails } from "../http/conditional-requests.ts";
import { RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from "../db/availability.ts";
import { atomDocument, geojsonDocument, type MonitorFeedRow } from "./feed-documents.ts";
import { feedUrl, FEED_PATH, hashFeedSecret, parseFeedFile, type FeedFormat } from "./feed-secrets.ts";

const CONTENT_TYPES: Record<FeedFormat, string> = {
  atom: "application/atom+xml; charset=utf-8",
  geojson: "application/geo+json",
};

// The URL is a secret: not in referrers, search indexes or shared caches. Readers revalidate
// every time (no-cache), which costs them a 304 while nothing changed, and a revoked URL stops
// at once for everyone.
const FEED_HEADERS = {
  "cache-control": "private, no-cache",
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex",
  "x-content-type-options": "nosniff",
};

function notFound(res: express.Response): void {
  res
    .status(404)
    .set({ ...FEED_HEADERS, "cache-control": "no-store" })
    .type("text/plain")
    .send("No such feed.\n");
}

export function feedRoute(authPool: pg.Pool, publicUrl: string): express.Router {
  const router = express.Router();
  router.get(`${FEED_PATH}/:file`, async (req, res) => {
    const parsed = parseFeedFile(req.params.file);
    if (!parsed) return notFound(res);
    try {
      const {
        rows: [feed],
      } = await authPool.query<MonitorFeedRow>("select * from app_private.monitor_feed($1)", [
        hashFeedSecret(parsed.secret),
      ]);
      if (!feed) return notFound(res);
      const links = {
        atom: feedUrl(publicUrl, parsed.secret, "atom"),
        geojson: feedUrl(publicUrl, parsed.secret, "geojson"),
      };
      const body = Buffer.from(parsed.format === "atom" ? atomDocument(feed, links) : geojsonDocument(feed));
      const etag = `"${createHash("sha256").update(body).digest("base64url")}"`;
      res.set({ ...FEED_HEADERS, etag });
      if (ifNoneMatchFails(req.get("if-none-match"), etag)) return void res.status(304).end();
      res.set("content-type", CONTENT_TYPES[parsed.format]).send(body);
    } catch (error) {
      const { message, extensions } = describeError(error, req.path.replace(parsed.secret, "…"));
      if (extensions.code === SERVICE_UNAVAILABLE.code)
        res.status(503).set("retry-after", String(RETRY_AFTER_SECONDS)).type("text/plain").send(`${message}\n`);
      else res.status(500).type("text/plain").send(`${message}\n`);
    }
  });
  return router;
}
