// The query parameters of /ogc/collections/{id}/items (OGC 17-069r4 §7.15), checked before the
// database is asked: limit (default 10, a larger value than the maximum is taken as the maximum,
// as the standard says), bbox (four or six numbers, longitude/latitude in CRS84), datetime (an
// RFC 3339 date-time or an interval of two, either end open as ".." or empty; each taken to UTC
// here, so the database never meets an offset it cannot read), and our paging keys
// after/before (the keys of the next and previous links). Anything else is refused with 400 and
// plain words: the standard lets a server refuse parameters it does not know, and a GIS client
// that sends one expects a filter we would silently ignore.

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1000;

/** The parameters /items knows; every endpoint knows f. */
export const ITEMS_PARAMETERS = ["f", "limit", "bbox", "datetime", "after", "before"] as const;

/** A page's position: after (or, backwards, before) the feature with this key. */
export interface PageKey {
  /** The key's time as the database wrote it (RFC 3339, UTC, microseconds). */
  time: string;
  id: string;
  backwards: boolean;
}

export interface ItemsQuery {
  limit: number;
  /** [minLongitude, minLatitude, maxLongitude, maxLatitude] */
  bbox?: [number, number, number, number];
  /** The datetime parameter's ends as RFC 3339 instants in UTC; undefined: open. */
  timeFrom?: string;
  timeTo?: string;
  key?: PageKey;
}

export class BadQuery extends Error {}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
// The key in a next/prev link: the time as app_private.ogc_features writes it, "_", the id.
const PAGE_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_([a-z0-9-]{1,100})$/;

/** One value of a parameter (repeating one is an error, not a choice). */
function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new BadQuery(`Give ${name} once, as one value.`);
  return value;
}

/** Names the parameters that are not in `known`. */
export function checkKnownParameters(query: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(query).filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new BadQuery(
      `Unknown query parameter${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `"${n.slice(0, 40)}"`).join(", ")}: ` +
        `this endpoint knows ${known.join(", ")}.`,
    );
}

function parseLimit(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LIMIT;
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1)
    throw new BadQuery(`limit must be a whole number from 1 (a larger one than ${MAX_LIMIT} counts as ${MAX_LIMIT}).`);
  return Math.min(Number(text), MAX_LIMIT);
}

function parseBbox(text: string | undefined): ItemsQuery["bbox"] {
  if (text === undefined) return undefined;
  const parts = text.split(",");
  const numbers = parts.map((part) =>
    /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(part) ? Number(part) : NaN,
  );
  if ((numbers.length !== 4 && numbers.length !== 6) || numbers.some((n) => !Number.isFinite(n)))
    throw new BadQuery(
      "bbox must be four numbers, minimum longitude, minimum latitude, maximum longitude, maximum latitude " +
        "(CRS84, e.g. bbox=4.7,52.3,5.0,52.4), or six with heights.",
    );
  // Six numbers carry heights after each corner; the features have none, so only the corners count.
  const [west, south, east, north] = numbers.length === 6 ? [numbers[0], numbers[1], numbers[3], numbers[4]] : numbers;
  if (south < -90 || north > 90 || south > north)
    throw new BadQuery("bbox latitudes must lie from -90 to 90, the minimum first.");
  if (west < -180 || east > 180) throw new BadQuery("bbox longitudes must lie from -180 to 180.");
  if (west > east)
    throw new BadQuery("A bbox across the antimeridian (minimum longitude above the maximum) is not served here.");
  return [west, south, east, north];
}

/**
 * The UTC instant an RFC 3339 date-time names (its fraction of a second kept as given), or
 * undefined when it names none: no 30 February, no hour 24, no offset beyond 23:59. The offset is
 * taken off here, because PostgreSQL reads only offsets up to 15:59 and would fail on the rest.
 */
function utcInstant(text: string): string | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  const offset = /^([+-])(\d{2}):(\d{2})$/.exec(m[8]);
  if (!real || hour > 23 || minute > 59 || second > 59 || (offset && (+offset[2] > 23 || +offset[3] > 59)))
    return undefined;
  const offsetMinutes = offset ? (offset[1] === "-" ? -1 : 1) * (+offset[2] * 60 + +offset[3]) : 0;
  const utc = new Date(date.getTime() - offsetMinutes * 60_000).toISOString();
  // Four-digit years only (9999-12-31T23:00:00-01:00 is in the year 10000).
  if (!/^\d{4}-/.test(utc)) return undefined;
  return `${utc.slice(0, 19)}${m[7] ?? ""}Z`;
}

/** The datetime parameter's date-time as a UTC instant, or BadQuery. */
function parseDateTime(text: string): string {
  const instant = utcInstant(text);
  if (instant === undefined)
    throw new BadQuery(
      `datetime "${text.slice(0, 40)}" is no RFC 3339 date-time: give e.g. 2026-11-01T00:00:00Z, ` +
        "or an interval such as 2026-11-01T00:00:00Z/2026-11-02T00:00:00Z, ../2026-11-01T00:00:00Z or 2026-11-01T00:00:00Z/..",
    );
  return instant;
}

function parseDatetime(text: string | undefined): Pick<ItemsQuery, "timeFrom" | "timeTo"> {
  if (text === undefined) return {};
  const ends = text.split("/");
  if (ends.length === 1) {
    const instant = parseDateTime(text);
    return { timeFrom: instant, timeTo: instant };
  }
  if (ends.length !== 2) throw new BadQuery("datetime is one date-time or two separated by one /.");
  const open = (end: string) => end === ".." || end === "";
  if (open(ends[0]) && open(ends[1])) throw new BadQuery("datetime: at most one end of an interval may be open.");
  const timeFrom = open(ends[0]) ? undefined : parseDateTime(ends[0]);
  const timeTo = open(ends[1]) ? undefined : parseDateTime(ends[1]);
  if (timeFrom !== undefined && timeTo !== undefined && Date.parse(timeFrom) > Date.parse(timeTo))
    throw new BadQuery("datetime: the interval's start is after its end.");
  return { timeFrom, timeTo };
}

function parseKey(after: string | undefined, before: string | undefined, idPattern: RegExp): PageKey | undefined {
  if (after !== undefined && before !== undefined) throw new BadQuery("Give after or before, not both.");
  const text = after ?? before;
  if (text === undefined) return undefined;
  const m = PAGE_KEY.exec(text);
  if (!m || !idPattern.test(m[2]) || utcInstant(m[1]) === undefined)
    throw new BadQuery(
      `${after !== undefined ? "after" : "before"} is no page key of this collection: follow the next and prev links.`,
    );
  return { time: m[1], id: m[2], backwards: before !== undefined };
}

/** The /items query (whose parameter names are checked), or BadQuery with plain words. */
export function parseItemsQuery(query: Record<string, unknown>, idPattern: RegExp): ItemsQuery {
  return {
    limit: parseLimit(single(query, "limit")),
    bbox: parseBbox(single(query, "bbox")),
    ...parseDatetime(single(query, "datetime")),
    key: parseKey(single(query, "after"), single(query, "before"), idPattern),
  };
}
