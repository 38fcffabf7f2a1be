// Any feed an rss monitor names: RSS 2.0, Atom, RDF (RSS 1.0) or JSON Feed, parsed by feedsmith
// and brought to one item shape: title, link, summary (plain text), published time, guid, and
// coordinates where the feed gives them (W3C geo:lat/geo:long or GeoRSS georss:point).
import { parseFeed } from "feedsmith";
import { FeedDocumentError, htmlToPlainText, plausibleTime, webUrl } from "../records.ts";

export interface RssItemRecord {
  /** The item's identity in its feed: guid, else link, else title and time. */
  itemKey: string;
  guid: string | null;
  title: string | null;
  link: string | null;
  summary: string | null;
  publishedAt: Date | null;
  latitude: number | null;
  longitude: number | null;
}

export interface RssDocument {
  title: string | null;
  items: RssItemRecord[];
  /** Items with nothing to know them by (no guid, link or title). */
  skipped: number;
}

/** A document of a followed feed holds this many items at most (the newest first, as feeds list them). */
export const MAX_ITEMS = 500;

interface Candidate {
  guid?: string;
  title?: string;
  link?: string;
  summary?: string;
  date?: unknown;
  point?: { lat?: number; lng?: number };
}

const text = (value: unknown, max: number): string | null => {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, max) : null;
};

function coordinates(point: Candidate["point"]): { latitude: number | null; longitude: number | null } {
  const { lat, lng } = point ?? {};
  const valid = typeof lat === "number" && typeof lng === "number" && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
  return valid ? { latitude: lat, longitude: lng } : { latitude: null, longitude: null };
}

/** The items of each format as candidates: what every format calls title, link, summary, date, place. */
function candidates(parsed: ReturnType<typeof parseFeed>): { title?: string; items: Candidate[] } {
  const geo = (item: { geo?: { lat?: number; long?: number }; georss?: { point?: { lat?: number; lng?: number } } }) =>
    item.georss?.point ?? (item.geo ? { lat: item.geo.lat, lng: item.geo.long } : undefined);
  switch (parsed.format) {
    case "rss":
      return {
        title: parsed.feed.title,
        items: (parsed.feed.items ?? []).map((item) => ({
          guid: item.guid?.value,
          title: item.title,
          link: item.link,
          summary: item.description ?? item.content?.encoded,
          date: item.pubDate ?? item.dc?.dates?.[0],
          point: geo(item),
        })),
      };
    case "atom":
      return {
        title: parsed.feed.title?.value,
        items: (parsed.feed.entries ?? []).map((entry) => ({
          guid: entry.id,
          title: entry.title?.value,
          link: (entry.links?.find((l) => !l.rel || l.rel === "alternate") ?? entry.links?.[0])?.href,
          summary: entry.summary?.value ?? entry.content?.value,
          date: entry.published ?? entry.updated,
          point: geo(entry),
        })),
      };
    case "rdf":
      return {
        title: parsed.feed.title,
        items: (parsed.feed.items ?? []).map((item) => ({
          guid: item.rdf?.about,
          title: item.title,
          link: item.link,
          summary: item.description,
          date: item.dc?.dates?.[0],
          point: geo(item),
        })),
      };
    case "json":
      return {
        title: parsed.feed.title,
        items: (parsed.feed.items ?? []).map((item) => ({
          guid: item.id,
          title: item.title,
          link: item.url,
          summary: item.summary ?? item.content_text ?? item.content_html,
          date: item.date_published ?? item.date_modified,
        })),
      };
  }
}

export function parseRssDocument(body: string): RssDocument {
  let parsed: ReturnType<typeof parseFeed>;
  try {
    parsed = parseFeed(body);
  } catch (error) {
    throw new FeedDocumentError(`not an RSS, Atom, RDF or JSON feed (${(error as Error).name})`);
  }
  const { title, items } = candidates(parsed);
  const document: RssDocument = { title: text(title, 500), items: [], skipped: 0 };
  for (const item of items.slice(0, MAX_ITEMS)) {
    const publishedAt = plausibleTime(
      typeof item.date === "string" && !Number.isNaN(Date.parse(item.date)) ? new Date(item.date) : null,
    );
    const record = {
      guid: text(item.guid, 2000),
      title: text(item.title, 1000),
      link: webUrl(item.link),
      summary: typeof item.summary === "string" ? htmlToPlainText(item.summary, 10_000) : null,
      publishedAt,
      ...coordinates(item.point),
    };
    const itemKey =
      record.guid ?? record.link ?? (record.title ? `${record.title}|${publishedAt?.toISOString() ?? ""}` : null);
    if (!itemKey) {
      document.skipped += 1;
      continue;
    }
    document.items.push({ itemKey: itemKey.slice(0, 2000), ...record });
  }
  return document;
}
