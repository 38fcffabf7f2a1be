// Fire station and vehicle lists. CSV with a header row:
//   stations: slug,name,region,post,street,house_number,zip_code,city,latitude,longitude
//   vehicles: call_number,station,material_function,status
// (the header tells which), or JSON { "stations": [...], "vehicles": [...] } with the same field
// names. region is a safety-region number or slug; post the two digits of call numbers RR-PPTV;
// a vehicle's station is a station slug (else found by region and post). Upserted by slug and call
// number; stations go first, so vehicles find theirs.
import type pg from "pg";
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

function stationOf(record: RawRecord) {
  const slug = text(record.slug).toLowerCase();
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug)) return `"${slug}" is not a slug (a-z, 0-9 and hyphens)`;
  if (!text(record.name)) return "no name";
  return {
    slug,
    name: text(record.name),
    region: text(record.region),
    post: text(record.post) || null,
    street: text(record.street) || null,
    house_number: text(record.house_number) || null,
    zip_code: text(record.zip_code) || null,
    city: text(record.city) || null,
    latitude: number(record.latitude),
    longitude: number(record.longitude),
  };
}

function vehicleOf(record: RawRecord) {
  const callNumber = text(record.call_number).replace(/[\s-]/g, "");
  if (!/^(0[1-9]|1\d|2[0-5])\d{4}$/.test(callNumber))
    return `"${text(record.call_number)}" is not a call number (RR-PPTV)`;
  const status = text(record.status).toLowerCase() || "active";
  if (!["active", "reserve", "out_of_service", "retired"].includes(status))
    return `status "${status}" is not active, reserve, out_of_service or retired`;
  return {
    call_number: callNumber,
    station: text(record.station) || null,
    material_function: text(record.material_function) || null,
    status,
  };
}

const STORE_STATIONS = `select app_private.upsert_fire_station(r.slug, r.name, r.region, r.post, r.street, r.house_number, r.zip_code, r.city, r.latitude, r.longitude)
  from jsonb_to_recordset($1::jsonb) as r (slug text, name text, region text, post text, street text, house_number text, zip_code text,
       city text, latitude double precision, longitude double precision)`;
const STORE_VEHICLES = `select app_private.upsert_fire_vehicle(r.call_number, r.station, r.material_function, r.status)
  from jsonb_to_recordset($1::jsonb) as r (call_number text, station text, material_function text, status text)`;

export async function importFireBrigade(
  pool: pg.Pool,
  input: NodeJS.ReadableStream,
  format: "csv" | "json",
  options: { onBatch?: () => void; log?: (message: string) => void } = {},
): Promise<{ stations: ImportResult; vehicles: ImportResult }> {
  const result = await importStationsOrVehicles(pool, input, format, options);
  await analyzeTables(pool, ["app_public.fire_stations", "app_public.fire_vehicles"]);
  return result;
}

async function importStationsOrVehicles(
  pool: pg.Pool,
  input: NodeJS.ReadableStream,
  format: "csv" | "json",
  options: { onBatch?: () => void; log?: (message: string) => void },
): Promise<{ stations: ImportResult; vehicles: ImportResult }> {
  const empty: ImportResult = { rows: 0, imported: 0, rejected: 0 };
  const store = (sql: string) => async (batch: unknown[]) => {
    await pool.query(sql, [JSON.stringify(batch)]);
  };
  if (format === "json") {
    const document = JSON.parse(await readAll(input)) as { stations?: RawRecord[]; vehicles?: RawRecord[] };
    const stations = await importInBatches(document.stations ?? [], stationOf, store(STORE_STATIONS), options);
    const vehicles = await importInBatches(document.vehicles ?? [], vehicleOf, store(STORE_VEHICLES), options);
    return { stations, vehicles };
  }
  // Lists are small (a few thousand rows): read them whole, then the header says what they hold.
  const records: RawRecord[] = [];
  for await (const record of csvRecords(input)) records.push(record);
  if (records.length === 0) return { stations: empty, vehicles: empty };
  if ("call_number" in records[0])
    return { stations: empty, vehicles: await importInBatches(records, vehicleOf, store(STORE_VEHICLES), options) };
  if ("slug" in records[0])
    return { stations: await importInBatches(records, stationOf, store(STORE_STATIONS), options), vehicles: empty };
  throw new Error("The CSV has neither a slug column (stations) nor a call_number column (vehicles).");
}
