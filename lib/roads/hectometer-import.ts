// NWB hectometre posts (hectopunten) of Rijkswaterstaat, as PDOK serves them: GeoJSON features
// (WFS nwbwegen:hectopunten, coordinates in RD New) or CSV with x,y columns. Fields used:
//   objectid, hectomtrng (hectometre × 10: 456 = km 45.6), zijde (L/R), hecto_lttr, and the road:
//   routeltr + routenr (A + 12) when present, else `road` ("A12"), else wegnummer ("012", a
//   rijksweg: taken as A12).
// Upserted by objectid through app_private.upsert_hectometer_markers; road marker counts follow.
import type pg from "pg";
import { rdToWgs84 } from "../places/rd-new.ts";
import { analyzeTables } from "../db/fresh-statistics.ts";
import {
  csvRecords,
  importInBatches,
  number,
  readAll,
  text,
  type ImportResult,
  type RawRecord,
} from "../db/table-import.ts";

interface Marker {
  source_id: number;
  road: string;
  hectometer: number;
  side: string | null;
  letter: string | null;
  latitude: number;
  longitude: number;
}

function roadOf(record: RawRecord): string | null {
  const letter = text(record.routeltr).toUpperCase();
  const routeNumber = text(record.routenr).replace(/^0+/, "");
  if (/^[ANSRE]$/.test(letter) && /^\d{1,3}$/.test(routeNumber)) return letter + routeNumber;
  const road = text(record.road).toUpperCase().replace(/\s/g, "");
  if (/^[ANSRE]0*\d{1,3}$/.test(road)) return road[0] + road.slice(1).replace(/^0+/, "");
  const wegnummer = text(record.wegnummer).replace(/^0+/, "");
  return /^\d{1,3}$/.test(wegnummer) ? `A${wegnummer}` : null;
}

export function markerOf(record: RawRecord): Marker | string {
  const sourceId = number(record.objectid);
  const tenths = number(record.hectomtrng);
  const x = number(record.x);
  const y = number(record.y);
  const road = roadOf(record);
  if (sourceId === null || !Number.isInteger(sourceId)) return "no objectid";
  if (tenths === null) return "no hectomtrng";
  if (!road) return "no road (routeltr/routenr, road or wegnummer)";
  if (x === null || y === null || x < -10_000 || x > 300_000 || y < 280_000 || y > 650_000)
    return "no RD New coordinates";
  const zijde = text(record.zijde).toUpperCase();
  const letter = text(record.hecto_lttr);
  return {
    source_id: sourceId,
    road,
    hectometer: tenths / 10,
    side: zijde === "L" ? "Li" : zijde === "R" ? "Re" : null,
    letter: letter && letter !== "#" ? letter : null,
    ...rdToWgs84(x, y),
  };
}

/** GeoJSON features as flat records (properties plus x, y of the point). */
function* geoJsonRecords(document: { type?: string; features?: unknown[] }): Iterable<RawRecord> {
  if (document.type !== "FeatureCollection" || !Array.isArray(document.features)) {
    throw new Error("Expected a GeoJSON FeatureCollection of hectopunten.");
  }
  for (const feature of document.features as Array<{ properties?: RawRecord; geometry?: { coordinates?: number[] } }>) {
    const properties = Object.fromEntries(
      Object.entries(feature.properties ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const [x, y] = feature.geometry?.coordinates ?? [];
    yield { ...properties, x, y };
  }
}

export async function importHectometers(
  pool: pg.Pool,
  input: NodeJS.ReadableStream,
  format: "geojson" | "csv",
  options: { onBatch?: () => void; log?: (message: string) => void } = {},
): Promise<ImportResult> {
  const records = format === "csv" ? csvRecords(input) : geoJsonRecords(JSON.parse(await readAll(input)));
  const result = await importInBatches(
    records,
    markerOf,
    async (batch) => {
      await pool.query("select app_private.upsert_hectometer_markers($1::jsonb)", [JSON.stringify(batch)]);
    },
    options,
  );
  await pool.query("select app_private.recount_road_markers()");
  await analyzeTables(pool, ["app_public.hectometer_markers", "app_public.roads"]);
  return result;
}
