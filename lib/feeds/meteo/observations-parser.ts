// KNMI 10-minute station observations (dataset 10-minute-in-situ-meteorological-observations) as
// normalised JSON rows, one per station and time, with KNMI's variable names (see
// shared/research/feed-formats.md):
//   {"stationId":"06260","name":"De Bilt","lat":52.098,"lon":5.180,"observedAt":"2026-10-07T08:10:00Z",
//    "ta":12.4,"rh":87,"pp":1014.2,"dd":230,"ff":4.6,"gff":8.1,"vv":18000,"ww":null}
// A row that is wrong anywhere is skipped whole: a station reporting −999 °C or "warm" has a broken
// sensor or converter, and its other values from that row are not to be trusted either.
import { FeedDocumentError, parseIsoTime, skipRecord, stripBom } from "../records.ts";

export interface Observation {
  /** WMO station number, five digits with leading zeros ("06260"). */
  stationId: string;
  name: string | null;
  latitude: number | null;
  longitude: number | null;
  /** End of the 10-minute interval. */
  observedAt: Date;
  /** °C */
  temperature: number | null;
  /** °C */
  dewPoint: number | null;
  /** % */
  humidity: number | null;
  /** hPa at sea level */
  pressure: number | null;
  /** degrees the wind comes from */
  windDirection: number | null;
  /** m/s, 10-minute mean */
  windSpeed: number | null;
  /** m/s */
  windGust: number | null;
  /** m */
  visibility: number | null;
  /** mm in the last hour */
  precipitation: number | null;
  /** global radiation, W/m² */
  radiation: number | null;
  /** okta; 9 means sky not visible */
  cloudCover: number | null;
  /** minutes */
  sunshine: number | null;
  /** present weather code (WMO table 4680) */
  weatherCode: number | null;
}

export interface ObservationsDocument {
  kind: "observations";
  observations: Observation[];
  skipped: number;
  problems: string[];
}

type MeasuredField = Exclude<keyof Observation, "stationId" | "name" | "observedAt">;

interface Source {
  field: MeasuredField;
  /** KNMI variable names, the first present (not null) wins. */
  keys: string[];
  /** Physically possible range; anything outside is a sensor or conversion fault. */
  min: number;
  max: number;
}

const SOURCES: Source[] = [
  { field: "latitude", keys: ["lat"], min: -90, max: 90 },
  { field: "longitude", keys: ["lon"], min: -180, max: 180 },
  { field: "temperature", keys: ["ta"], min: -60, max: 60 },
  { field: "dewPoint", keys: ["td"], min: -60, max: 60 },
  { field: "humidity", keys: ["rh"], min: 0, max: 100 },
  { field: "pressure", keys: ["pp"], min: 850, max: 1100 },
  { field: "windDirection", keys: ["dd"], min: 0, max: 360 },
  { field: "windSpeed", keys: ["ff"], min: 0, max: Infinity },
  // Some converters name the gust fx rather than gff.
  { field: "windGust", keys: ["gff", "fx"], min: 0, max: Infinity },
  { field: "visibility", keys: ["vv"], min: 0, max: Infinity },
  { field: "precipitation", keys: ["R1H"], min: 0, max: Infinity },
  { field: "radiation", keys: ["qg"], min: 0, max: Infinity },
  { field: "cloudCover", keys: ["n"], min: 0, max: 9 },
  { field: "sunshine", keys: ["ss"], min: 0, max: Infinity },
  { field: "weatherCode", keys: ["ww"], min: 0, max: 99 },
];

type Row = Record<string, unknown>;

/** Five digits; a converter that wrote the id as a number lost the leading zero, so it is put back. */
function stationIdOf(value: unknown): string | null {
  if (typeof value === "string") return /^\d{5}$/.test(value.trim()) ? value.trim() : null;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 99_999) {
    return String(value).padStart(5, "0");
  }
  return null;
}

function measurementOf(row: Row, source: Source): number | null | string {
  for (const key of source.keys) {
    const value = row[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "number" || !Number.isFinite(value)) return `${key} is ${JSON.stringify(value)}, not a number`;
    if (value < source.min || value > source.max) return `${key} ${value} is outside ${source.min}..${source.max}`;
    return value;
  }
  return null;
}

function observationOf(row: unknown): Observation | string {
  if (typeof row !== "object" || row === null || Array.isArray(row)) return "not an object";
  const fields = row as Row;
  const stationId = stationIdOf(fields.stationId);
  if (!stationId)
    return `stationId ${JSON.stringify(fields.stationId) ?? "missing"} is not a five-digit station number`;
  const observedAt = parseIsoTime(fields.observedAt);
  if (!observedAt)
    return `${stationId}: observedAt ${JSON.stringify(fields.observedAt) ?? "missing"} is not an ISO time with a zone`;
  const measured = {} as Record<MeasuredField, number | null>;
  for (const source of SOURCES) {
    const value = measurementOf(fields, source);
    if (typeof value === "string") return `${stationId} ${fields.observedAt}: ${value}`;
    measured[source.field] = value;
  }
  const name = typeof fields.name === "string" && fields.name.trim() !== "" ? fields.name.trim() : null;
  return { stationId, name, observedAt, ...measured };
}

export function parseObservationsJson(text: string): ObservationsDocument {
  let rows: unknown;
  try {
    rows = JSON.parse(stripBom(text));
  } catch (error) {
    throw new FeedDocumentError(`observations JSON is malformed: ${(error as Error).message}`);
  }
  if (!Array.isArray(rows)) throw new FeedDocumentError("observations JSON is not an array of rows");
  const document: ObservationsDocument = { kind: "observations", observations: [], skipped: 0, problems: [] };
  rows.forEach((row, index) => {
    const observation = observationOf(row);
    if (typeof observation === "string") skipRecord(document, `row ${index + 1}: ${observation}`);
    else document.observations.push(observation);
  });
  return document;
}
