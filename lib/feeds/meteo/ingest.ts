// Stores one weather document, whatever brought it (the poller, `npm run ingest:meteo`, the demo
// data, the benchmark): parsed here, stored by one SQL function in one transaction, so a broken
// document changes nothing and the same document twice is recognised by its hash.
import { createHash } from "node:crypto";
import type pg from "pg";
import { parseMeteoDocument } from "./document.ts";
import type { Observation } from "./observations-parser.ts";

/** What storing weather documents writes: bulk loads (the CLI, the demo) analyse them after. */
export const METEO_STORED_TABLES = [
  "app_public.meteo_warning_slices",
  "app_public.meteo_warning_events",
  "app_hidden.meteo_daily_levels",
  "app_hidden.meteo_documents",
  "app_public.meteo_observations",
  "app_public.meteo_stations",
] as const;

export interface MeteoIngestResult {
  kind: "warnings" | "observations";
  /** The same document (by content) was stored before: nothing changed. */
  duplicate: boolean;
  records: number;
  skipped: number;
  problems: string[];
  /** What the SQL function reports (warnings stored, events, observations stored …). */
  stored: Record<string, unknown>;
}

/** An observation as a row of app_public.meteo_observations (and its station's columns). */
function observationRow(o: Observation): Record<string, unknown> {
  return {
    station_id: o.stationId,
    name: o.name,
    latitude: o.latitude,
    longitude: o.longitude,
    observed_at: o.observedAt.toISOString(),
    temperature: o.temperature,
    dew_point: o.dewPoint,
    humidity: o.humidity,
    pressure: o.pressure,
    wind_direction: o.windDirection,
    wind_speed: o.windSpeed,
    wind_gust: o.windGust,
    visibility: o.visibility,
    precipitation: o.precipitation,
    radiation: o.radiation,
    cloud_cover: o.cloudCover,
    sunshine: o.sunshine,
    weather_code: o.weatherCode,
  };
}

/** Parses and stores a document; throws FeedDocumentError for a document unusable as a whole. */
export async function ingestMeteoDocument(
  db: pg.Pool | pg.ClientBase,
  text: string,
  source: string,
): Promise<MeteoIngestResult> {
  const document = parseMeteoDocument(text);
  const sha256 = createHash("sha256").update(text).digest();
  const [fn, rows] =
    document.kind === "warnings"
      ? [
          "ingest_meteo_warnings",
          document.slices.map((s) => ({
            location: s.location,
            phenomenon: s.phenomenon,
            start: s.start.toISOString(),
            status: s.status,
            text: s.text,
          })),
        ]
      : ["ingest_meteo_observations", document.observations.map(observationRow)];
  const {
    rows: [{ result }],
  } = await db.query<{ result: Record<string, unknown> }>(`select app_private.${fn}($1::jsonb, $2, $3) as result`, [
    JSON.stringify(rows),
    sha256,
    source,
  ]);
  return {
    kind: document.kind,
    duplicate: result.duplicate === true,
    records: rows.length,
    skipped: document.skipped,
    problems: document.problems,
    stored: result,
  };
}

/** One line for logs and the CLI. */
export function describeIngest(result: MeteoIngestResult): string {
  if (result.duplicate) return `${result.kind}: the same document was stored before; nothing changed.`;
  const skipped = result.skipped ? `, ${result.skipped} bad record(s) skipped` : "";
  if (result.kind === "warnings") {
    const s = result.stored as { warnings: number; events: number; ignoredLocations: number; backfill: boolean };
    return (
      `warnings: ${result.records} slices read${skipped}; ${s.warnings} warned hours stored, ${s.events} warning event(s)` +
      `${s.backfill ? " (an older document: only the hours before the newest one were filled)" : ""}.`
    );
  }
  const s = result.stored as { stored: number };
  return `observations: ${result.records} rows read${skipped}; ${s.stored} stored or updated.`;
}
