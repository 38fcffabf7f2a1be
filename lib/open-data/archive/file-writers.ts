// The two files of a feed's day, written batch by batch as the rows come from the database, so
// memory holds one batch, never the day: CSV (UTF-8, RFC 4180: a header row, CRLF, a field quoted
// when it holds a comma, quote or line break; null is an empty field) and Parquet (one row group
// per batch, through hyparquet-writer's ParquetWriter, flushed to the file after each). Each writer
// counts and hashes the bytes it writes, so the index's size and SHA-256 cost no second read.
import { createHash, type Hash } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { FieldDef } from "pg";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";

/** What the files say a column holds; docs/archive-columns.md uses the same words. */
export type ColumnType = "text" | "integer" | "double" | "timestamp";

export interface ArchiveColumn {
  name: string;
  type: ColumnType;
}

/** PostgreSQL's type oids of the archive views' columns (migration 000126 casts to these). */
const COLUMN_TYPES: ReadonlyMap<number, ColumnType> = new Map([
  [25, "text"], // text
  [23, "integer"], // int4
  [701, "double"], // float8
  [1184, "timestamp"], // timestamptz
]);

/** The columns of a view's rows; a type the archive does not know is a mistake in the view. */
export function archiveColumns(fields: FieldDef[]): ArchiveColumn[] {
  return fields.map(({ name, dataTypeID }) => {
    const type = COLUMN_TYPES.get(dataTypeID);
    if (!type) throw new Error(`The archive cannot write column ${name} (PostgreSQL type oid ${dataTypeID}).`);
    return { name, type };
  });
}

/** A row as pg gives it with rowMode "array": strings, numbers, Dates and nulls. */
export type ArchiveRow = unknown[];

/** What the index says of a written file. */
export interface WrittenFile {
  bytes: number;
  sha256: string;
}

export interface DayFileWriter {
  writeBatch(rows: ArchiveRow[]): Promise<void>;
  /** Ends the file (flushed and closed); its size and SHA-256. */
  finish(): Promise<WrittenFile>;
  /** Closes the file after a failure, if it is still open (finished or not); the caller removes it. */
  abandon(): Promise<void>;
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = value instanceof Date ? value.toISOString() : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(values: readonly unknown[]): string {
  return values.map(csvField).join(",") + "\r\n";
}

export async function openCsvWriter(file: string, columns: ArchiveColumn[]): Promise<DayFileWriter> {
  const stream = fs.createWriteStream(file, { flags: "wx" });
  await once(stream, "open");
  const hash = createHash("sha256");
  let bytes = 0;
  const write = async (text: string) => {
    const chunk = Buffer.from(text, "utf8");
    hash.update(chunk);
    bytes += chunk.length;
    if (!stream.write(chunk)) await once(stream, "drain");
  };
  await write(csvLine(columns.map((column) => column.name)));
  return {
    writeBatch: (rows) => write(rows.map(csvLine).join("")),
    async finish() {
      await new Promise<void>((resolve, reject) =>
        stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      return { bytes, sha256: hash.digest("hex") };
    },
    async abandon() {
      // A stream that failed or was finished has closed already.
      if (stream.closed) return;
      stream.destroy();
      await once(stream, "close");
    },
  };
}

/** Parquet's description of a column: every column may be null. */
function parquetElement({ name, type }: ArchiveColumn) {
  const repetition_type = "OPTIONAL" as const;
  switch (type) {
    case "text":
      return {
        name,
        repetition_type,
        type: "BYTE_ARRAY" as const,
        converted_type: "UTF8" as const,
        logical_type: { type: "STRING" as const },
      };
    case "integer":
      return { name, repetition_type, type: "INT32" as const };
    case "double":
      return { name, repetition_type, type: "DOUBLE" as const };
    case "timestamp":
      // Milliseconds in UTC: what pg's Dates hold.
      return {
        name,
        repetition_type,
        type: "INT64" as const,
        converted_type: "TIMESTAMP_MILLIS" as const,
        logical_type: { type: "TIMESTAMP" as const, isAdjustedToUTC: true, unit: "MILLIS" as const },
      };
  }
}

/** hyparquet-writer's byte buffer, emptied into the file (and the hash) after each row group. */
class FileFlushingWriter extends ByteWriter {
  readonly hash: Hash = createHash("sha256");
  private readonly handle: FileHandle;
  constructor(handle: FileHandle) {
    super(1 << 20);
    this.handle = handle;
  }
  async flush(): Promise<void> {
    const bytes = new Uint8Array(this.buffer, 0, this.index);
    this.hash.update(bytes);
    await this.handle.write(bytes);
    this.index = 0;
  }
  override finish(): Promise<void> {
    return this.flush();
  }
}

export async function openParquetWriter(file: string, columns: ArchiveColumn[]): Promise<DayFileWriter> {
  const handle = await fs.promises.open(file, "wx");
  const output = new FileFlushingWriter(handle);
  const parquet = new ParquetWriter({
    writer: output,
    schema: [{ name: "root", num_children: columns.length }, ...columns.map(parquetElement)],
  });
  return {
    async writeBatch(rows) {
      if (rows.length === 0) return;
      const columnData = columns.map(({ name }, index) => ({ name, data: rows.map((row) => row[index]) }));
      await parquet.write({ columnData, rowGroupSize: rows.length });
    },
    async finish() {
      await parquet.finish();
      await handle.close();
      return { bytes: output.offset, sha256: output.hash.digest("hex") };
    },
    // Closing a FileHandle that is closed already does nothing.
    abandon: () => handle.close(),
  };
}
