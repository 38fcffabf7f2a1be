// NL-Alert, as the public warning list behind the government's "actueel" page serves it
// (../shared/research/feed-formats.md): {"data": [ { id, message (Dutch, then ***, then English),
// type "nl-alert", start_at, stop_at (null while it runs), area: ["lat,lon lat,lon …", …],
// resource_uri } ]}, newest first, paged with ?after=<id>.
import { FeedDocumentError, isJsonObject, parseIsoTime, plausibleTime, skipRecord, type SkipLog } from "../records.ts";

export interface NlAlertRecord {
  alertId: string;
  message: string;
  startAt: Date;
  stopAt: Date | null;
  /** Each area as the source writes it, normalised ("lat,lon lat,lon …"). */
  areaTexts: string[];
  /** The same areas as PostgreSQL polygon literals: x is the longitude, y the latitude. */
  polygons: string[];
  resourceUri: string | null;
}

export interface NlAlertsDocument extends SkipLog {
  alerts: NlAlertRecord[];
}

/** A polygon needs three corners; a broadcast area with thousands is no longer plausible. */
const MAX_CORNERS = 5000;

function parseArea(area: unknown): { text: string; polygon: string } | null {
  if (typeof area !== "string") return null;
  const corners = area
    .trim()
    .split(/\s+/)
    .map((pair) => {
      const [lat, lon, extra] = pair.split(",").map((part) => Number(part));
      const valid =
        extra === undefined &&
        Number.isFinite(lat) &&
        Number.isFinite(lon) &&
        Math.abs(lat) <= 90 &&
        Math.abs(lon) <= 180;
      return valid ? { lat, lon } : null;
    });
  if (corners.length < 3 || corners.length > MAX_CORNERS || corners.some((corner) => corner === null)) return null;
  const points = corners as { lat: number; lon: number }[];
  return {
    text: points.map(({ lat, lon }) => `${lat},${lon}`).join(" "),
    polygon: `(${points.map(({ lat, lon }) => `(${lon},${lat})`).join(",")})`,
  };
}

export function parseNlAlerts(document: unknown): NlAlertsDocument {
  if (!isJsonObject(document) || !Array.isArray(document.data)) {
    throw new FeedDocumentError('An NL-Alert document is a JSON object with a "data" array.');
  }
  const result: NlAlertsDocument = { alerts: [], skipped: 0, problems: [] };
  document.data.forEach((item, index) => {
    if (!isJsonObject(item)) return skipRecord(result, `item ${index}: not an object`);
    const alertId =
      typeof item.id === "string" || typeof item.id === "number" ? String(item.id).trim().slice(0, 100) : "";
    if (!alertId) return skipRecord(result, `item ${index}: no id`);
    const message = typeof item.message === "string" ? item.message.trim().slice(0, 10_000) : "";
    if (!message) return skipRecord(result, `alert ${alertId}: no message`);
    const startAt = plausibleTime(parseIsoTime(item.start_at));
    if (!startAt)
      return skipRecord(
        result,
        `alert ${alertId}: start_at ${JSON.stringify(item.start_at)?.slice(0, 40)} is no time with a zone from 1970 on`,
      );
    const stopAt =
      item.stop_at === null || item.stop_at === undefined ? null : plausibleTime(parseIsoTime(item.stop_at));
    if (stopAt === null && item.stop_at != null)
      return skipRecord(
        result,
        `alert ${alertId}: stop_at ${JSON.stringify(item.stop_at)?.slice(0, 40)} is no time from 1970 on`,
      );
    const areas = Array.isArray(item.area) ? item.area.map(parseArea) : [];
    if (areas.some((area) => area === null))
      return skipRecord(result, `alert ${alertId}: an area is not a list of at least three "lat,lon" corners`);
    const parsed = areas as { text: string; polygon: string }[];
    result.alerts.push({
      alertId,
      message,
      startAt,
      stopAt,
      areaTexts: parsed.map((area) => area.text),
      polygons: parsed.map((area) => area.polygon),
      resourceUri:
        typeof item.resource_uri === "string" && /^https?:\/\//.test(item.resource_uri)
          ? item.resource_uri.slice(0, 2000)
          : null,
    });
  });
  return result;
}
