// The tracked fleet (data/aircraft-fleet.csv: icao, registration, kind, callsign, type, operator,
// base, content_slug) and the pages about it (data/aircraft-content.json), sources in
// data/AIRCRAFT-SOURCES.md; loaded on start when they changed, like the other reference data.
import fs from "node:fs";
import type pg from "pg";
import { loadReferenceList, text } from "../../db/table-import.ts";

export function loadAircraftFleet(db: pg.Pool | pg.ClientBase, file: string): Promise<number> {
  return loadReferenceList(db, file, "app_private.upsert_aircraft_fleet", (record) => ({
    icao: text(record.icao),
    registration: text(record.registration),
    kind: text(record.kind),
    callsign: text(record.callsign),
    type: text(record.type),
    operator: text(record.operator),
    base: text(record.base),
    content_slug: text(record.content_slug),
  }));
}

export async function loadAircraftContent(db: pg.Pool | pg.ClientBase, file: string): Promise<number> {
  const items = fs.readFileSync(file, "utf8");
  const {
    rows: [{ changed }],
  } = await db.query<{ changed: number }>("select app_private.upsert_aircraft_content($1::jsonb) as changed", [items]);
  return changed;
}
