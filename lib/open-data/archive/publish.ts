// Publishing the open archive (tasks/archive__publish.ts; docs/open-data.md): each Dutch calendar
// day (Europe/Amsterdam, so 23 or 25 hours at the clock changes) becomes a CSV and a Parquet file
// per feed once the day is ARCHIVE_DELAY_HOURS past its end, so the archive is never taken for
// live alerts. Memory stays bounded: a feed's day comes from PostgreSQL through a cursor, a batch at
// a time, and each batch is written to both files (a Parquet row group) before the next is read.
// Resumable: a day is written in a .partial directory, each file under a temporary name renamed
// when whole, each finished feed noted beside its files, and the directory renamed into place
// when every feed is there; a killed run's partial day is taken up where it stopped, and a day in
// place is never written again. Newest days first, a bounded number per run, so on a fresh
// install with a long history yesterday comes out at once and the backfill follows run by run.
// Days older than ARCHIVE_KEEP_DAYS are deleted.
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import Cursor from "pg-cursor";
import {
  archiveIndex,
  dayDirectory,
  fileAddress,
  fileName,
  FILE_FORMATS,
  indexFile,
  manifestFile,
  partialDayDirectory,
  publishedDays,
  writeFileAtomically,
  type ArchiveDay,
  type ArchiveFileEntry,
} from "./archive-index.ts";
import { ARCHIVE_FEEDS, type ArchiveFeed } from "./feeds.ts";
import {
  archiveColumns,
  openCsvWriter,
  openParquetWriter,
  type ArchiveRow,
  type DayFileWriter,
} from "./file-writers.ts";

/** The open archive's settings (ARCHIVE_* in the README's configuration table). */
export interface ArchiveConfig {
  /** ARCHIVE_ENABLED: the worker publishes and the API serves /archive. */
  enabled: boolean;
  /** ARCHIVE_DIR: where the files lie; the API process reads what the worker process writes there. */
  dir: string;
  /** ARCHIVE_DELAY_HOURS: how long after a day's end its files come out. */
  delayHours: number;
  /** ARCHIVE_KEEP_DAYS: how many days (up to the newest published) are kept; older ones are deleted. */
  keepDays: number;
  /** ARCHIVE_DAYS_PER_RUN: how many days one run writes at most (the backfill of a long history). */
  daysPerRun: number;
}

/** Rows per cursor read and per Parquet row group: what memory holds of a day at once. */
export const ROWS_PER_BATCH = 10_000;

export interface PublishRun {
  /** The days written, newest first. */
  published: string[];
  /** The days deleted as older than keepDays. */
  deleted: string[];
  /** Days due but left for the next run (daysPerRun). */
  remaining: number;
}

/** The newest day due at `now` and the oldest one kept, yyyy-mm-dd. */
async function dueDays(pool: pg.Pool, config: ArchiveConfig, now: Date) {
  const { rows } = await pool.query<{ newest: string; oldest: string }>(
    `with due as (
       select ((($1::timestamptz - make_interval(hours => $2::integer)) at time zone 'Europe/Amsterdam')::date - 1) as newest)
     select newest::text, (newest - $3::integer + 1)::text as oldest from due`,
    [now, config.delayHours, config.keepDays],
  );
  return rows[0];
}

/** The Dutch day of the oldest row of any feed, or null with no rows at all. */
async function firstDayWithData(pool: pg.Pool): Promise<string | null> {
  const firsts = ARCHIVE_FEEDS.map(({ view, dayColumn }) => `(select min(${dayColumn}) from ${view})`);
  const { rows } = await pool.query<{ first: string | null }>(
    `select ((least(${firsts.join(", ")}) at time zone 'Europe/Amsterdam')::date)::text as first`,
  );
  return rows[0].first;
}

/** The days from `newest` back to `oldest`, newest first. */
function daysBack(newest: string, oldest: string): string[] {
  const days: string[] = [];
  for (let day = new Date(`${newest}T00:00:00Z`); day.toISOString().slice(0, 10) >= oldest;) {
    days.push(day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() - 1);
  }
  return days;
}

async function exists(file: string): Promise<boolean> {
  return fs.promises.access(file).then(
    () => true,
    () => false,
  );
}

/** A feed's rows of a Dutch day: from its Amsterdam midnight to the next one (23, 24 or 25 hours later). */
function dayRowsQuery({ view, dayColumn }: ArchiveFeed): string {
  return `select * from ${view}
           where ${dayColumn} >= ($1::date::timestamp at time zone 'Europe/Amsterdam')
             and ${dayColumn} < (($1::date + 1)::timestamp at time zone 'Europe/Amsterdam')
           order by ${dayColumn}, id`;
}

/** The next batch of a cursor, with the columns' descriptions. */
function readBatch(cursor: Cursor<ArchiveRow>): Promise<{ batch: ArchiveRow[]; fields: pg.FieldDef[] }> {
  return new Promise((resolve, reject) =>
    cursor.read(ROWS_PER_BATCH, (error, batch, result) =>
      error ? reject(error) : resolve({ batch, fields: result?.fields ?? [] }),
    ),
  );
}

/**
 * Reads a feed's day through a cursor, a batch at a time, into the files' writers, each opened
 * into `writers` (for the caller to abandon on a failure) once the first batch names the columns;
 * the number of rows.
 */
async function writeDayRows(
  pool: pg.Pool,
  feed: ArchiveFeed,
  date: string,
  temporaries: readonly string[],
  writers: DayFileWriter[],
): Promise<number> {
  const client = await pool.connect();
  const cursor = client.query(new Cursor<ArchiveRow>(dayRowsQuery(feed), [date], { rowMode: "array" }));
  let rows = 0;
  let failed = false;
  try {
    for (;;) {
      const { batch, fields } = await readBatch(cursor);
      if (writers.length === 0) {
        const columns = archiveColumns(fields);
        writers.push(await openCsvWriter(temporaries[0], columns));
        writers.push(await openParquetWriter(temporaries[1], columns));
      }
      for (const writer of writers) await writer.writeBatch(batch);
      rows += batch.length;
      if (batch.length < ROWS_PER_BATCH) return rows;
    }
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // A connection whose read failed is not given back to the pool.
    if (!failed) await cursor.close();
    client.release(failed);
  }
}

/**
 * Writes a feed's two files of a day into the partial directory; their index entries. The files
 * are written under temporary names and renamed when whole; whatever fails (opening either file,
 * a read, a write, ending or renaming one), both are closed before the error goes on.
 */
async function publishFeedDay(
  pool: pg.Pool,
  partial: string,
  feed: ArchiveFeed,
  date: string,
): Promise<ArchiveFileEntry[]> {
  const files = FILE_FORMATS.map((format) => {
    const final = path.join(partial, fileName(feed.name, format));
    return { format, final, temporary: `${final}.tmp` };
  });
  // A killed run's half files.
  for (const { temporary } of files) await fs.promises.rm(temporary, { force: true });
  const writers: DayFileWriter[] = [];
  try {
    const rows = await writeDayRows(
      pool,
      feed,
      date,
      files.map((file) => file.temporary),
      writers,
    );
    const entries: ArchiveFileEntry[] = [];
    for (const [index, { format, final, temporary }] of files.entries()) {
      const written = await writers[index].finish();
      await fs.promises.rename(temporary, final);
      entries.push({ feed: feed.name, format, path: fileAddress(date, feed.name, format), rows, ...written });
    }
    return entries;
  } catch (error) {
    // The next run removes the temporary files; an error in closing one must not hide this one.
    await Promise.allSettled(writers.map((writer) => writer.abandon()));
    throw error;
  }
}

/** Writes every feed's files of a day (taking up what a killed run finished) and puts the day in place. */
async function publishDay(pool: pg.Pool, dir: string, date: string, now: Date): Promise<void> {
  const partial = partialDayDirectory(dir, date);
  await fs.promises.mkdir(partial, { recursive: true });
  const files: ArchiveFileEntry[] = [];
  for (const feed of ARCHIVE_FEEDS) {
    const done = path.join(partial, `${feed.name}.done.json`);
    const kept = await fs.promises.readFile(done, "utf8").catch(() => null);
    if (kept !== null) {
      files.push(...(JSON.parse(kept) as ArchiveFileEntry[]));
      continue;
    }
    const entries = await publishFeedDay(pool, partial, feed, date);
    await writeFileAtomically(done, JSON.stringify(entries));
    files.push(...entries);
  }
  for (const feed of ARCHIVE_FEEDS) await fs.promises.rm(path.join(partial, `${feed.name}.done.json`));
  const day: ArchiveDay = { date, published: now.toISOString(), files };
  await writeFileAtomically(manifestFile(partial), JSON.stringify(day, null, 2) + "\n");
  await fs.promises.rename(partial, dayDirectory(dir, date));
}

/** Deletes the days (in place or partial) older than `oldest`, and year directories left empty. */
async function deleteOlderThan(dir: string, oldest: string): Promise<string[]> {
  const deleted: string[] = [];
  const years = await fs.promises.readdir(dir).catch(() => [] as string[]);
  for (const year of years.filter((name) => /^\d{4}$/.test(name) && name <= oldest.slice(0, 4))) {
    const yearDir = path.join(dir, year);
    const entries = await fs.promises.readdir(yearDir);
    for (const entry of entries) {
      const date = /^\.?(\d{4}-\d{2}-\d{2})(\.partial)?$/.exec(entry);
      if (!date || date[1] >= oldest) continue;
      await fs.promises.rm(path.join(yearDir, entry), { recursive: true, force: true });
      if (!date[2]) deleted.push(date[1]);
    }
    if ((await fs.promises.readdir(yearDir)).length === 0) await fs.promises.rmdir(yearDir);
  }
  return deleted.sort().reverse();
}

/**
 * One run: deletes what is past keeping, writes up to daysPerRun due days not yet published
 * (newest first, none before the oldest row of any feed), and rewrites the index when it changed.
 * `now` is the clock's time; tests set it.
 */
export async function publishArchive(pool: pg.Pool, config: ArchiveConfig, now = new Date()): Promise<PublishRun> {
  const { dir } = config;
  await fs.promises.mkdir(dir, { recursive: true });
  const { newest, oldest } = await dueDays(pool, config, now);
  const deleted = await deleteOlderThan(dir, oldest);
  const first = await firstDayWithData(pool);
  const due: string[] = [];
  if (first !== null && first <= newest) {
    for (const date of daysBack(newest, first > oldest ? first : oldest)) {
      if (!(await exists(manifestFile(dayDirectory(dir, date))))) due.push(date);
    }
  }
  const published = due.slice(0, config.daysPerRun);
  try {
    for (const date of published) await publishDay(pool, dir, date, now);
  } finally {
    // The days this run put in place are listed even when a later one failed.
    await writeIndex(config);
  }
  return { published, deleted, remaining: due.length - published.length };
}

/** Rewrites index.json from the days in place, when it changed (so its ETag changes only then). */
async function writeIndex(config: ArchiveConfig): Promise<void> {
  const index = JSON.stringify(archiveIndex(await publishedDays(config.dir), config), null, 2) + "\n";
  const current = await fs.promises.readFile(indexFile(config.dir), "utf8").catch(() => null);
  if (index !== current) await writeFileAtomically(indexFile(config.dir), index);
}
