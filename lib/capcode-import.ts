// Capcode lists in the common public CSV layout (cyberjunky db_capcodes.txt and others):
//   capcode,discipline,region,location,description,remark
// Rows are upserted through app_private.upsert_p2000_capcode (later lists complete earlier ones);
// a row without a valid capcode is counted and reported, never fatal.
import { parse } from "csv-parse";
import type pg from "pg";

export interface CapcodeImportResult {
  rows: number;
  imported: number;
  rejected: number;
}

const BATCH_SIZE = 500;

export async function importCapcodes(
  pool: pg.Pool | pg.ClientBase,
  input: NodeJS.ReadableStream,
  options: { onBatch?: (rows: number) => void; log?: (message: string) => void } = {},
): Promise<CapcodeImportResult> {
  const log = options.log ?? ((message) => console.error(message));
  const result: CapcodeImportResult = { rows: 0, imported: 0, rejected: 0 };
  const parser = input.pipe(parse({ columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()), trim: true, skip_empty_lines: true, relax_column_count: true, bom: true }));
  let batch: Record<string, string>[] = [];

  const store = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    await pool.query(
      `select app_private.upsert_p2000_capcode(r.capcode, r.discipline, r.region, r.location, r.description, r.remark)
         from json_to_recordset($1::json) as r (capcode text, discipline text, region text, location text, description text, remark text)`,
      [JSON.stringify(rows)],
    );
    result.imported += rows.length;
    options.onBatch?.(result.rows);
  };

  for await (const record of parser as AsyncIterable<Record<string, string>>) {
    result.rows++;
    if (!("capcode" in record)) throw new Error("The CSV has no capcode column (expected capcode,discipline,region,location,description,remark).");
    if (!/^\d{1,9}$/.test(record.capcode ?? "") || record.capcode.replace(/^0+/, "").length > 7) {
      result.rejected++;
      log(`Row ${result.rows}: "${record.capcode}" is not a capcode; skipped.`);
      continue;
    }
    batch.push(record);
    if (batch.length >= BATCH_SIZE) await store();
  }
  await store();
  return result;
}

/** The starter list (data/capcodes-starter.csv, from the research notes), on a database without capcode data. */
export async function loadStarterCapcodes(db: pg.Pool | pg.ClientBase, file: string): Promise<number> {
  const { rows: [{ described }] } = await db.query("select count(*)::int as described from app_public.p2000_capcodes where description is not null");
  if (described > 0) return 0;
  const { createReadStream } = await import("node:fs");
  return (await importCapcodes(db, createReadStream(file))).imported;
}
