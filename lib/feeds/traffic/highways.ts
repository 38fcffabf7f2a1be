// The motorway list of traffic monitors (data/highways.csv: value, label, description; the routes
// as the public list of Dutch motorways gives them, see docs/traffic.md), loaded on start when
// it changed, like the other reference data.
import type pg from "pg";
import { loadReferenceList, text } from "../../db/table-import.ts";

export function loadHighways(db: pg.Pool | pg.ClientBase, file: string): Promise<number> {
  return loadReferenceList(db, file, "app_private.upsert_highways", (record) => ({
    value: text(record.value),
    label: text(record.label),
    description: text(record.description),
  }));
}
