// The railway routes of rail_disruptions monitors (data/rail-routes.csv: value, label, description,
// stations as space-separated station codes in order along the line; sources in
// docs/rail-disruptions-format.md), loaded on start when it changed, like the other reference data.
import type pg from "pg";
import { loadReferenceList, text } from "../../db/table-import.ts";

export function loadRailRoutes(db: pg.Pool | pg.ClientBase, file: string): Promise<number> {
  return loadReferenceList(db, file, "app_private.upsert_rail_routes", (record) => ({
    value: text(record.value),
    label: text(record.label),
    description: text(record.description),
    stations: text(record.stations).toUpperCase().split(/\s+/).filter(Boolean),
  }));
}
