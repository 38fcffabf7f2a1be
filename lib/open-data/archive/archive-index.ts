// Where the open archive's files lie and how the index of them is kept (docs/open-data.md). The
// worker writes, the API reads the same directory (one disk, or one shared volume, for both):
//   <dir>/index.json                             the index: every published day and its files
//   <dir>/<yyyy>/<yyyy-mm-dd>/<feed>.csv|parquet a published day's files, never changed again
//   <dir>/<yyyy>/<yyyy-mm-dd>/manifest.json      the day's files with their sizes, rows and SHA-256
//   <dir>/<yyyy>/.<yyyy-mm-dd>.partial/          a day being written; renamed to the above when whole
// A day is published once its directory is in place (its manifest inside); a killed run leaves
// only a .partial directory, which no index lists and the next run takes up.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ARCHIVE_FEEDS } from "./feeds.ts";

export const FILE_FORMATS = ["csv", "parquet"] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

export interface ArchiveFileEntry {
  feed: string;
  format: FileFormat;
  /** The file's address on this service: /archive/<yyyy>/<yyyy-mm-dd>/<feed>.<format>. */
  path: string;
  bytes: number;
  rows: number;
  /** SHA-256 of the file, hex (as sha256sum prints it); base64url of the same is its ETag. */
  sha256: string;
}

/** A published day: manifest.json in its directory. */
export interface ArchiveDay {
  /** The Dutch calendar day (Europe/Amsterdam), yyyy-mm-dd. */
  date: string;
  /** When it was published. */
  published: string;
  files: ArchiveFileEntry[];
}

export interface ArchiveIndex {
  timezone: "Europe/Amsterdam";
  delayHours: number;
  keepDays: number;
  /**
   * Where each column is explained: the data dictionary's address on this service as the worker
   * writes it; the API answers it as an absolute URL (PUBLIC_URL), which a client can fetch.
   */
  columns: string;
  feeds: { name: string; title: string }[];
  /** Newest first. */
  days: ArchiveDay[];
}

export const ARCHIVE_URL_PREFIX = "/archive";
/** The data dictionary (docs/archive-columns.md) as the API serves it. */
export const COLUMNS_ADDRESS = `${ARCHIVE_URL_PREFIX}/columns.md`;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function indexFile(dir: string): string {
  return path.join(dir, "index.json");
}

export function dayDirectory(dir: string, date: string): string {
  return path.join(dir, date.slice(0, 4), date);
}

export function partialDayDirectory(dir: string, date: string): string {
  return path.join(dir, date.slice(0, 4), `.${date}.partial`);
}

export function manifestFile(dayDir: string): string {
  return path.join(dayDir, "manifest.json");
}

export function fileName(feed: string, format: FileFormat): string {
  return `${feed}.${format}`;
}

export function fileAddress(date: string, feed: string, format: FileFormat): string {
  return `${ARCHIVE_URL_PREFIX}/${date.slice(0, 4)}/${date}/${fileName(feed, format)}`;
}

/** Writes `text` under a temporary name beside `file` and renames it: readers see the old or the new file, never half. */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  await fs.promises.writeFile(temporary, text);
  await fs.promises.rename(temporary, file);
}

/** The days whose directory is in place, newest first; what a year directory holds besides is skipped. */
export async function publishedDays(dir: string): Promise<ArchiveDay[]> {
  const days: ArchiveDay[] = [];
  const years = await fs.promises.readdir(dir).catch(() => [] as string[]);
  for (const year of years.filter((name) => /^\d{4}$/.test(name))) {
    for (const date of await fs.promises.readdir(path.join(dir, year))) {
      if (!DATE.test(date)) continue;
      const manifest = await fs.promises.readFile(manifestFile(path.join(dir, year, date)), "utf8").catch(() => null);
      if (manifest !== null) days.push(JSON.parse(manifest) as ArchiveDay);
    }
  }
  return days.sort((a, b) => b.date.localeCompare(a.date));
}

/** The index of the days in place, with the settings that made them. */
export function archiveIndex(days: ArchiveDay[], settings: { delayHours: number; keepDays: number }): ArchiveIndex {
  return {
    timezone: "Europe/Amsterdam",
    delayHours: settings.delayHours,
    keepDays: settings.keepDays,
    columns: COLUMNS_ADDRESS,
    feeds: ARCHIVE_FEEDS.map(({ name, title }) => ({ name, title })),
    days,
  };
}
