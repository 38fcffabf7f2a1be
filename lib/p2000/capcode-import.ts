// Capcode lists in the common public CSV layout (cyberjunky db_capcodes.txt and others):
//   capcode,discipline,region,location,description,remark
// Rows are upserted through app_private.upsert_p2000_capcode (later lists complete earlier ones);
// a row without a valid capcode is counted and reported, never fatal.
import type pg from "pg";
import { analyzeTables } from "../db/fresh-statistics.ts";
import { csvRecords, importInBatches, text, type ImportResult, type RawRecord } from "../db/table-import.ts";

function capcodeOf(record: RawRecord) {
  if (!("capcode" in record))
    throw new Error("The CSV has no capcode column (expected capcode,discipline,region,location,description,remark).");
  const capcode = text(record.capcode);
  if (!/^\d{1,9}$/.test(capcode) || capcode.replace(/^0+/, "").length > 7) return `"${capcode}" is not a capcode`;
  return record;
}

export async function importCapcodes(
  pool: pg.Pool | pg.ClientBase,
  input: NodeJS.ReadableStream,
  options: { onBatch?: () => void; log?: (message: string) => void } = {},
): Promise<ImportResult> {
  const result = await importInBatches(
    csvRecords(input),
    capcodeOf,
    async (rows) => {
      await pool.query(
        `select app_private.upsert_p2000_capcode(r.capcode, r.discipline, r.region, r.location, r.description, r.remark)
         from json_to_recordset($1::json) as r (capcode text, discipline text, region text, location text, description text, remark text)`,
        [JSON.stringify(rows)],
      );
    },
    { ...options, batchSize: 500 },
  );
  await analyzeTables(pool, ["app_public.p2000_capcodes"]);
  return result;
}

/** The starter list (data/capcodes-starter.csv, from the research notes), on a database without capcode data. */
export async function loadStarterCapcodes(db: pg.Pool | pg.ClientBase, file: string): Promise<number> {
  const {
    rows: [{ described }],
  } = await db.query("select count(*)::int as described from app_public.p2000_capcodes where description is not null");
  if (described > 0) return 0;
  const { createReadStream } = await import("node:fs");
  return (await importCapcodes(db, createReadStream(file))).imported;
}
