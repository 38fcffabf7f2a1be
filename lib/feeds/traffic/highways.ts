// The motorway list of traffic monitors (data/highways.csv: value, label, description; the routes
// as the public list of Dutch motorways gives them, see docs/traffic.md), loaded on start when
// it changed, like the other reference data.
import fs from "node:fs";
import type pg from "pg";
import { csvRecords, text } from "../../db/table-import.ts";

export async function loadHighways(db: pg.Pool | pg.ClientBase, file: string): Promise<number> {
  const rows = [];
  for await (const record of csvRecords(fs.createReadStream(file))) {
    rows.push({ value: text(record.value), label: text(record.label), description: text(record.description), sort_order: rows.length + 1 });
  }
  const { rows: [{ changed }] } = await db.query<{ changed: number }>("select app_private.upsert_highways($1::jsonb) as changed", [JSON.stringify(rows)]);
  return changed;
}
