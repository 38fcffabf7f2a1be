// What the importers share: records from CSV (header row, any column order) or from a JSON
// array, handed to `store` in batches, with rejected records counted and reported, never fatal;
// and the small reference lists shipped in data/.
import fs from "node:fs";
import type pg from "pg";
import { parse } from "csv-parse";

export interface ImportResult {
  rows: number;
  imported: number;
  rejected: number;
}

export type RawRecord = Record<string, unknown>;

/** CSV records with lower-case, trimmed column names. */
export function csvRecords(input: NodeJS.ReadableStream): AsyncIterable<RawRecord> {
  return input.pipe(
    parse({
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      bom: true,
    }),
  ) as AsyncIterable<RawRecord>;
}

/** The whole input as text (JSON files are read at once). */
export async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Maps each record (null = rejected, with the reason), and stores the mapped ones in batches.
 * `onBatch` reports progress after each stored batch.
 */
export async function importInBatches<T>(
  records: AsyncIterable<RawRecord> | Iterable<RawRecord>,
  map: (record: RawRecord) => T | string,
  store: (batch: T[]) => Promise<void>,
  options: { batchSize?: number; onBatch?: () => void; log?: (message: string) => void } = {},
): Promise<ImportResult> {
  const log = options.log ?? ((message) => console.error(message));
  const result: ImportResult = { rows: 0, imported: 0, rejected: 0 };
  let batch: T[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    await store(rows);
    result.imported += rows.length;
    options.onBatch?.();
  };
  for await (const record of records) {
    result.rows++;
    const mapped = map(record);
    if (typeof mapped === "string") {
      result.rejected++;
      if (result.rejected <= 20) log(`Row ${result.rows}: ${mapped}; skipped.`);
      continue;
    }
    batch.push(mapped);
    if (batch.length >= (options.batchSize ?? 1000)) await flush();
  }
  await flush();
  if (result.rejected > 20) log(`... ${result.rejected} rows skipped in all.`);
  return result;
}

export const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value).trim());
export const number = (value: unknown): number | null => {
  const parsed = typeof value === "number" ? value : Number(text(value).replace(",", "."));
  return text(value) === "" || !Number.isFinite(parsed) ? null : parsed;
};

/**
 * A reference list shipped as CSV in data/ (highways, railway routes), handed whole to its SQL
 * upsert function in file order; returns how many rows changed.
 */
export async function loadReferenceList(
  db: pg.Pool | pg.ClientBase,
  file: string,
  upsertFunction: string,
  toRow: (record: RawRecord) => Record<string, unknown>,
): Promise<number> {
  const rows = [];
  for await (const record of csvRecords(fs.createReadStream(file)))
    rows.push({ ...toRow(record), sort_order: rows.length + 1 });
  const {
    rows: [{ changed }],
  } = await db.query<{ changed: number }>(`select ${upsertFunction}($1::jsonb) as changed`, [JSON.stringify(rows)]);
  return changed;
}
