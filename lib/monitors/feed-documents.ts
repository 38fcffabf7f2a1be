// The documents of a monitor's feed (lib/monitors/feed-route.ts): Atom (RFC 4287) written by the
// feedsmith library, with a GeoRSS point where the item has a place, and GeoJSON (RFC 7946) as
// Home Assistant's geo_json_events integration reads it: a FeatureCollection of Point features in
// WGS 84 longitude, latitude order whose `title` property names the entity. Items without a place
// are in the Atom feed only. Both are pure functions of what app_private.monitor_feed answers, so
// equal data gives equal bytes, and the body's hash is a strong ETag.
import { createHash } from "node:crypto";
import { generateAtomFeed } from "feedsmith";

/** One matched item as app_hidden.monitor_items renders it. */
export interface FeedItem {
  kind: string;
  uuid: string;
  /** ISO time of the item (a message's time sent, an event's time). */
  at: string;
  title: string | null;
  latitude: number | null;
  longitude: number | null;
  link: string | null;
  /** A P2000 message in plain words (P2000Message.plainText) in the monitor's language; null for other kinds. */
  plainText: string | null;
}

/** A row of app_private.monitor_feed. */
export interface MonitorFeedRow {
  feed_uuid: string;
  name: string;
  created_at: Date;
  items: FeedItem[];
}

export interface FeedLinks {
  atom: string;
  geojson: string;
}

const SERVICE_NAME = "NL incidents";

/** What each kind of item is, in words (Atom's category label and a GeoJSON property). */
const KIND_LABELS: Record<string, string> = {
  p2000: "P2000 message",
  traffic: "Traffic incident",
  meteo: "Weather warning",
  nl_alert: "NL-Alert",
  amber_alert: "AMBER Alert",
  amber_alert_end: "AMBER Alert ended",
  aircraft: "Aircraft",
  traffic_jam: "Traffic jam",
  rail: "Rail disruption",
  rss: "RSS item",
  related_signal: "Related signal",
  escalation: "Incident raised",
  burst: "Burst of pages",
};

/** The end of an AMBER alert has the alert's uuid; its entry needs an id of its own. */
const SECOND_ITEMS_OF_A_UUID = new Set(["amber_alert_end"]);

const LOCAL_TIME = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  dateStyle: "short",
  timeStyle: "medium",
});

// Characters XML 1.0 does not allow (a control character in a pager text would make the whole
// feed unparsable), and halves of surrogate pairs without their other half.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xmlText(value: string): string {
  return value.replace(NOT_XML, "").replace(LONE_SURROGATE, "");
}

/** A name-based UUID (version 5, RFC 9562) of `name` in the namespace `namespace`. */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash("sha1")
    .update(Buffer.from(namespace.replaceAll("-", ""), "hex"))
    .update(name)
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The item's id in both formats: its uuid, or for the second item of a uuid one derived from it. */
export function itemId(item: FeedItem): string {
  return SECOND_ITEMS_OF_A_UUID.has(item.kind) ? uuidV5(item.uuid, item.kind) : item.uuid;
}

function label(item: FeedItem): string {
  return KIND_LABELS[item.kind] ?? item.kind;
}

/** What the item is called: a P2000 message in plain words, else its title, else its kind. */
function titleOf(item: FeedItem): string {
  return item.plainText?.trim() || item.title?.trim() || label(item);
}

/** The item's own text when its name is something else (a P2000 page as sent under its plain words). */
function originalOf(item: FeedItem): string | null {
  const original = item.title?.trim();
  return original && original !== titleOf(item) ? original : null;
}

function located(item: FeedItem): item is FeedItem & { latitude: number; longitude: number } {
  return item.latitude !== null && item.longitude !== null;
}

/** The feed's last change: its newest item, or when the URL was made. */
function updated(feed: MonitorFeedRow): Date {
  const times = feed.items.map((item) => Date.parse(item.at));
  return times.length ? new Date(Math.max(...times)) : new Date(feed.created_at);
}

export function atomDocument(feed: MonitorFeedRow, links: FeedLinks): string {
  return generateAtomFeed({
    id: `urn:uuid:${feed.feed_uuid}`,
    title: { value: xmlText(feed.name) },
    subtitle: { value: "The newest matches of a monitor: at most 50, of the last 30 days." },
    updated: updated(feed),
    authors: [{ name: SERVICE_NAME }],
    generator: { text: SERVICE_NAME },
    links: [
      { href: links.atom, rel: "self", type: "application/atom+xml" },
      { href: links.geojson, rel: "alternate", type: "application/geo+json" },
    ],
    entries: feed.items.map((item) => {
      const at = new Date(item.at);
      const place = located(item) ? `\n${item.latitude}, ${item.longitude}` : "";
      return {
        id: `urn:uuid:${itemId(item)}`,
        title: { value: xmlText(titleOf(item)), type: "text" },
        updated: at,
        published: at,
        categories: [{ term: item.kind, label: label(item) }],
        content: {
          value: xmlText(
            [titleOf(item), originalOf(item), `${label(item)}, ${LOCAL_TIME.format(at)}${place}`]
              .filter(Boolean)
              .join("\n"),
          ),
          type: "text",
        },
        links: item.link ? [{ href: item.link, rel: "alternate" }] : undefined,
        georss: located(item) ? { point: { lat: item.latitude, lng: item.longitude } } : undefined,
      };
    }),
  });
}

export function geojsonDocument(feed: MonitorFeedRow): string {
  return JSON.stringify({
    type: "FeatureCollection",
    features: feed.items.filter(located).map((item) => {
      const original = originalOf(item);
      return {
        type: "Feature",
        id: itemId(item),
        geometry: { type: "Point", coordinates: [item.longitude, item.latitude] },
        // geo_json_events names the entity by `title` and tells entries apart by `id`.
        properties: {
          id: itemId(item),
          title: titleOf(item),
          ...(original ? { text: original } : {}),
          kind: item.kind,
          label: label(item),
          time: new Date(item.at).toISOString(),
          ...(item.link ? { link: item.link } : {}),
        },
      };
    }),
  });
}
