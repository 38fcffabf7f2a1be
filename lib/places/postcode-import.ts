// Postcode tables with centres, as the public registers publish them (CBS/PDOK PC4 and PC6, BAG
// extracts): CSV with a postcode column (postcode, pc4 or pc6; "3011", "3011 TX"), optional city
// (or woonplaats) and municipality (or gemeente), and either latitude/longitude (WGS84) or x/y
// (RD New). Upserted through app_private.upsert_postcodes.
import type pg from "pg";
import { rdToWgs84 } from "./rd-new.ts";
import { analyzeTables } from "../db/fresh-statistics.ts";
import { csvRecords, importInBatches, number, text, type ImportResult, type RawRecord } from "../db/table-import.ts";

export function postcodeOf(record: RawRecord) {
  const postcode = text(record.postcode ?? record.pc6 ?? record.pc4)
    .toUpperCase()
    .replace(/\s/g, "");
  if (!/^[1-9]\d{3}([A-Z]{2})?$/.test(postcode)) return `"${postcode}" is not a postcode`;
  let latitude = number(record.latitude ?? record.lat);
  let longitude = number(record.longitude ?? record.lon ?? record.lng);
  const x = number(record.x);
  const y = number(record.y);
  if ((latitude === null || longitude === null) && x !== null && y !== null)
    ({ latitude, longitude } = rdToWgs84(x, y));
  if (latitude === null || longitude === null || latitude < 50 || latitude > 54 || longitude < 3 || longitude > 8) {
    return `${postcode} has no coordinates in the Netherlands`;
  }
  return {
    postcode,
    latitude,
    longitude,
    city: text(record.city ?? record.woonplaats) || null,
    municipality: text(record.municipality ?? record.gemeente) || null,
  };
}

export async function importPostcodes(
  pool: pg.Pool,
  input: NodeJS.ReadableStream,
  options: { onBatch?: () => void; log?: (message: string) => void } = {},
): Promise<ImportResult> {
  const result = await importInBatches(
    csvRecords(input),
    postcodeOf,
    async (batch) => {
      await pool.query("select app_private.upsert_postcodes($1::jsonb)", [JSON.stringify(batch)]);
    },
    options,
  );
  await analyzeTables(pool, ["app_public.postcodes"]);
  return result;
}
