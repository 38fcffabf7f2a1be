// Streets of the national road register (NWB wegvakken, Rijkswaterstaat), as PDOK serves them:
// GeoJSON with LineString or MultiLineString geometries in RD New (EPSG:28992). The file may be a
// FeatureCollection (the WFS's outputFormat=application/json, or ogr2ogr's GeoJSON of the bulk
// download), several collections one after another (WFS pages appended to one file), or one feature
// or collection per line (GeoJSONSeq, newline-delimited). It is streamed: the national file is about
// 1.5 GB, and only one batch of segments is in memory at a time.
//
// Fields used, in any of the spellings seen (WVK_ID in shapefiles, wvk_id in the WFS and the
// GeoPackage, wvkId in PDOK's JSON): wvk_id, stt_naam (street), wpsnaam (woonplaats; wpsnaamnen in
// older releases), gme_naam (municipality), e_hnr_lnks / l_hnr_lnks / e_hnr_rhts / l_hnr_rhts (first
// and last house numbers left and right) and hnrstrlnks / hnrstrrhts (O odd, E even). Segments without
// a street name, or named by a road number only (A79), are skipped: hectometre posts place those.
//
// Each segment is stored with its begin, its middle (the point halfway along the line) and its end,
// converted to WGS84 (app_private.upsert_street_segments, by wvk_id, writing only what changed);
// then app_private.refresh_streets makes one row per street and woonplaats with its point.
import readline from "node:readline";
import { pipeline, type Readable } from "node:stream";
import type pg from "pg";
import { pick } from "stream-json/filters/pick.js";
import { streamValues } from "stream-json/streamers/stream-values.js";
import { analyzeTables } from "../db/fresh-statistics.ts";
import { number, text } from "../db/table-import.ts";
import { rdToWgs84 } from "../places/rd-new.ts";

export interface StreetSegment {
  wvk_id: number;
  street: string;
  woonplaats: string;
  municipality: string | null;
  length_m: number;
  begin_latitude: number;
  begin_longitude: number;
  mid_latitude: number;
  mid_longitude: number;
  end_latitude: number;
  end_longitude: number;
  left_first: number | null;
  left_last: number | null;
  left_parity: "O" | "E" | null;
  right_first: number | null;
  right_last: number | null;
  right_parity: "O" | "E" | null;
}

export interface StreetImportResult {
  /** Features read. */
  features: number;
  /** Segments with a street name, stored. */
  segments: number;
  /** Of those, new or changed (0 when the same file is imported again). */
  changed: number;
  /** Features without a street name (or named by a road number only). */
  unnamed: number;
  /** Features that could not be read (no wvk_id, no RD New line). */
  rejected: number;
  /** Rows of app_hidden.streets written or removed. */
  streetsChanged: number;
}

interface Feature {
  type?: string;
  properties?: Record<string, unknown> | null;
  geometry?: { type?: string; coordinates?: unknown } | null;
}

/** Properties by name without case and underscores: wvk_id, WVK_ID and wvkId are all "wvkid". */
function fieldsOf(properties: Record<string, unknown>): Map<string, unknown> {
  return new Map(Object.entries(properties).map(([key, value]) => [key.toLowerCase().replace(/_/g, ""), value]));
}

/** A house number; NWB writes 0 or "#" where there is none. */
function houseNumber(value: unknown): number | null {
  const parsed = number(value);
  return parsed !== null && Number.isInteger(parsed) && parsed > 0 && parsed < 100_000 ? parsed : null;
}

function parity(value: unknown): "O" | "E" | null {
  const code = text(value).toUpperCase();
  return code === "O" || code === "E" ? code : null;
}

/** The parts of a LineString or MultiLineString as lists of RD New points, or null. */
function linesOf(geometry: Feature["geometry"]): number[][][] | null {
  const parts =
    geometry?.type === "LineString"
      ? [geometry.coordinates]
      : geometry?.type === "MultiLineString" && Array.isArray(geometry.coordinates)
        ? geometry.coordinates
        : null;
  if (!parts) return null;
  const lines: number[][][] = [];
  for (const part of parts) {
    if (!Array.isArray(part)) return null;
    const line: number[][] = [];
    for (const point of part) {
      if (!Array.isArray(point)) return null;
      const [x, y] = point;
      if (typeof x !== "number" || typeof y !== "number" || x < -10_000 || x > 300_000 || y < 280_000 || y > 650_000) {
        return null;
      }
      line.push([x, y]);
    }
    if (line.length > 0) lines.push(line);
  }
  return lines.length > 0 ? lines : null;
}

/** Length, begin, end and the point halfway along the parts taken one after another (RD New, metres). */
function measure(lines: number[][][]): { length: number; begin: number[]; middle: number[]; end: number[] } {
  const steps: Array<[number[], number[], number]> = [];
  let length = 0;
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const step = Math.hypot(line[i][0] - line[i - 1][0], line[i][1] - line[i - 1][1]);
      steps.push([line[i - 1], line[i], step]);
      length += step;
    }
  }
  const begin = lines[0][0];
  const lastLine = lines[lines.length - 1];
  const end = lastLine[lastLine.length - 1];
  let middle = [(begin[0] + end[0]) / 2, (begin[1] + end[1]) / 2];
  let remaining = length / 2;
  for (const [from, to, step] of steps) {
    if (step > 0 && remaining <= step) {
      const f = remaining / step;
      middle = [from[0] + (to[0] - from[0]) * f, from[1] + (to[1] - from[1]) * f];
      break;
    }
    remaining -= step;
  }
  return { length, begin, middle, end };
}

/** One NWB feature as a street segment; "unnamed" for a segment without a street name; or why it is rejected. */
export function segmentOf(feature: Feature): StreetSegment | "unnamed" | string {
  if (!feature || typeof feature !== "object" || !feature.properties) return "not a GeoJSON feature with properties";
  const fields = fieldsOf(feature.properties);
  const street = text(fields.get("sttnaam")).replace(/\s+/g, " ");
  if (!street || street === "#" || /^[ANSER]\s?\d{1,3}$/i.test(street)) return "unnamed";
  const wvkId = number(fields.get("wvkid"));
  if (wvkId === null || !Number.isInteger(wvkId) || wvkId <= 0) return "no wvk_id";
  const municipality = text(fields.get("gmenaam")).replace(/\s+/g, " ");
  const woonplaats =
    [fields.get("wpsnaam"), fields.get("wpsnaamnen")]
      .map((v) => text(v).replace(/\s+/g, " "))
      .find((v) => v && v !== "#") || municipality;
  if (!woonplaats) return "no woonplaats (wpsnaam) or municipality (gme_naam)";
  const lines = linesOf(feature.geometry);
  if (!lines) return "no LineString or MultiLineString in RD New";
  const { length, begin, middle, end } = measure(lines);
  const [b, m, e] = [begin, middle, end].map(([x, y]) => rdToWgs84(x, y));
  const leftFirst = houseNumber(fields.get("ehnrlnks"));
  const leftLast = houseNumber(fields.get("lhnrlnks"));
  const rightFirst = houseNumber(fields.get("ehnrrhts"));
  const rightLast = houseNumber(fields.get("lhnrrhts"));
  const left = leftFirst !== null && leftLast !== null;
  const right = rightFirst !== null && rightLast !== null;
  return {
    wvk_id: wvkId,
    street,
    woonplaats,
    municipality: municipality || null,
    length_m: Math.round(length * 10) / 10,
    begin_latitude: b.latitude,
    begin_longitude: b.longitude,
    mid_latitude: m.latitude,
    mid_longitude: m.longitude,
    end_latitude: e.latitude,
    end_longitude: e.longitude,
    left_first: left ? leftFirst : null,
    left_last: left ? leftLast : null,
    left_parity: left ? parity(fields.get("hnrstrlnks")) : null,
    right_first: right ? rightFirst : null,
    right_last: right ? rightLast : null,
    right_parity: right ? parity(fields.get("hnrstrrhts")) : null,
  };
}

/** The features of one or more FeatureCollections (or of a bare array of features), streamed. */
async function* jsonFeatures(input: Readable): AsyncIterable<unknown> {
  const values = streamValues.asStream();
  // Errors (a broken file) end the pipeline and are thrown by the loop below.
  pipeline(input, pick.withParserAsStream({ filter: /^(?:features\.)?\d+$/, jsonStreaming: true }), values, () => {});
  for await (const { value } of values as AsyncIterable<{ value: unknown }>) yield value;
}

/** One feature or FeatureCollection per line (GeoJSONSeq; a leading record separator is allowed). */
async function* lineFeatures(input: Readable): AsyncIterable<unknown> {
  for await (const raw of readline.createInterface({ input, crlfDelay: Infinity })) {
    const line = (raw.startsWith("\u001e") ? raw.slice(1) : raw).trim();
    if (!line) continue;
    const value = JSON.parse(line) as Feature & { features?: unknown[] };
    if (value.type === "FeatureCollection" && Array.isArray(value.features)) yield* value.features;
    else yield value;
  }
}

/** Newline-delimited files by their extension (ogr2ogr -f GeoJSONSeq writes .geojsonl / .geojsons). */
export const isLineDelimited = (file: string) => /\.(geojsonl|geojsons|geojsonseq|ndjson|jsonl)$/i.test(file);

export async function importStreets(
  pool: pg.Pool,
  input: Readable,
  options: { lineDelimited?: boolean; batchSize?: number; onBatch?: () => void; log?: (message: string) => void } = {},
): Promise<StreetImportResult> {
  const log = options.log ?? ((message) => console.error(message));
  const result: StreetImportResult = {
    features: 0,
    segments: 0,
    changed: 0,
    unnamed: 0,
    rejected: 0,
    streetsChanged: 0,
  };
  let batch: StreetSegment[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    const {
      rows: [{ changed }],
    } = await pool.query<{ changed: number }>("select app_private.upsert_street_segments($1::jsonb) as changed", [
      JSON.stringify(rows),
    ]);
    result.segments += rows.length;
    result.changed += changed;
    options.onBatch?.();
  };
  for await (const feature of options.lineDelimited ? lineFeatures(input) : jsonFeatures(input)) {
    result.features++;
    const segment = segmentOf(feature as Feature);
    if (segment === "unnamed") {
      result.unnamed++;
      continue;
    }
    if (typeof segment === "string") {
      result.rejected++;
      if (result.rejected <= 20) log(`Feature ${result.features}: ${segment}; skipped.`);
      continue;
    }
    batch.push(segment);
    if (batch.length >= (options.batchSize ?? 2000)) await flush();
  }
  await flush();
  if (result.rejected > 20) log(`... ${result.rejected} features skipped in all.`);
  const {
    rows: [{ changed }],
  } = await pool.query<{ changed: number }>("select app_private.refresh_streets() as changed");
  result.streetsChanged = changed;
  await analyzeTables(pool, ["app_hidden.street_segments", "app_hidden.streets"]);
  return result;
}
