// GET /feeds/monitors/<secret>.atom, .geojson and .ics: a monitor's recent matches for feed readers
// and Home Assistant, and what it matched that has a period (planned rail works, warnings,
// NL-Alerts) for calendar apps. The secret in the path is the credential (a capability URL); an
// unknown, malformed, rotated or revoked one answers the same 404. It sits behind the per-address
// request budget and the outage guard as every route does (service.ts), reads through the
// authenticator's pool one SECURITY DEFINER function keyed by the secret's hash
// (app_private.monitor_feed, app_private.monitor_calendar), and answers with a strong ETag, the
// hash of the body: a reader that sends it back in If-None-Match gets 304 without a body while
// nothing changed.
import express from "express";
import type pg from "pg";
import { sendCacheable, sendReadFailure } from "../http/cacheable-document.ts";
import { monitorCalendar } from "../open-data/calendars/monitor-calendar.ts";
import { CALENDAR_CONTENT_TYPE } from "../open-data/calendars/document.ts";
import { atomDocument, geojsonDocument, type MonitorFeedRow } from "./feed-documents.ts";
import { feedUrl, FEED_PATH, hashFeedSecret, parseFeedFile, type FeedFormat } from "./feed-secrets.ts";

const CONTENT_TYPES: Record<FeedFormat, string> = {
  atom: "application/atom+xml; charset=utf-8",
  geojson: "application/geo+json",
  ics: CALENDAR_CONTENT_TYPE,
};

// The URL is a secret: not in referrers, search indexes or shared caches. Readers revalidate
// every time (no-cache), which costs them a 304 while nothing changed, and a revoked URL stops
// at once for everyone.
const FEED_CACHE_CONTROL = "private, no-cache";
const FEED_HEADERS = {
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex",
  "x-content-type-options": "nosniff",
};

/** The feed's body in its format, or undefined when the secret names no feed. */
async function feedBody(authPool: pg.Pool, publicUrl: string, secret: string, format: FeedFormat) {
  if (format === "ics") return monitorCalendar(authPool, hashFeedSecret(secret), new Date());
  const {
    rows: [feed],
  } = await authPool.query<MonitorFeedRow>("select * from app_private.monitor_feed($1)", [hashFeedSecret(secret)]);
  if (!feed) return undefined;
  const links = { atom: feedUrl(publicUrl, secret, "atom"), geojson: feedUrl(publicUrl, secret, "geojson") };
  return format === "atom" ? atomDocument(feed, links) : geojsonDocument(feed);
}

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
      const body = await feedBody(authPool, publicUrl, parsed.secret, parsed.format);
      if (body === undefined) return notFound(res);
      sendCacheable(req, res, {
        body,
        contentType: CONTENT_TYPES[parsed.format],
        cacheControl: FEED_CACHE_CONTROL,
        headers: FEED_HEADERS,
      });
    } catch (error) {
      sendReadFailure(req, res, error, req.path.replace(parsed.secret, "…"));
    }
  });
  return router;
}
