// The open archive's benchmark: `npm run bench:archive -- [--pages 100000] [--fresh]`. It builds its
// own embedded database under bench/.data-archive (kept between runs; --fresh starts over) with
// three Dutch days of P2000 pages stored through the FLEX reader's path (enrichment, dossiers), of
// a quarter, a half and all of --pages, and publishes each day (every feed, CSV and Parquet, as
// tasks/archive__publish.ts does) in a process of its own, so that each run's peak resident memory
// is its own: seconds, rows a second, the files' sizes, and the peak RSS beside the process's RSS
// before the run. The memory bound holds when the peak stays flat as the day's rows grow (a day is
// read through a cursor and written a batch, one Parquet row group, at a time). Figures go to
// bench/results/archive-latest.md and a dated JSON file.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { publishedDays } from "../lib/open-data/archive/archive-index.ts";
import { ARCHIVE_FEEDS } from "../lib/open-data/archive/feeds.ts";
import { publishArchive, ROWS_PER_BATCH } from "../lib/open-data/archive/publish.ts";
import { createFlexIngester } from "../lib/p2000/flex-ingest.ts";
import { generatePagerTraffic } from "../lib/p2000/synthetic-pager-traffic.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { machine, writeResults } from "./results.ts";

const { values } = parseArgs({
  options: {
    pages: { type: "string", default: "100000" },
    fresh: { type: "boolean", default: false },
    // Internal: the child that publishes one day (the owner's URL comes in ARCHIVE_BENCH_OWNER_URL).
    day: { type: "string" },
    dir: { type: "string" },
  },
});

/** Publishes one day alone: a delay of 0 and a day kept, at noon of the day after. */
async function publishOneDay(date: string, dir: string) {
  const owner = new pg.Pool({ connectionString: process.env.ARCHIVE_BENCH_OWNER_URL, max: 2 });
  await owner.query("select 1");
  const live = () => {
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
  };
  const before = process.memoryUsage().rss;
  let peak = before;
  let peakLive = live();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  // What the run holds (the heap and buffers after a full collection), once a second: unlike the
  // resident size it does not include garbage the collector has not come round to.
  const collector = setInterval(() => {
    globalThis.gc!();
    peakLive = Math.max(peakLive, live());
  }, 1000);
  const started = performance.now();
  const next = new Date(`${date}T12:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  const run = await publishArchive(owner, { enabled: true, dir, delayHours: 0, keepDays: 1, daysPerRun: 1 }, next);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  clearInterval(collector);
  await owner.end();
  const maxRss = process.resourceUsage().maxRSS * 1024;
  console.log(JSON.stringify({ published: run.published, seconds, before, peak: Math.max(peak, maxRss), peakLive }));
}

if (values.day) {
  await publishOneDay(values.day, values.dir!);
  process.exit(0);
}

const PAGES = Number(values.pages);
const DAYS = [
  { date: "2026-01-13", pages: Math.round(PAGES / 4) },
  { date: "2026-01-14", pages: Math.round(PAGES / 2) },
  { date: "2026-01-15", pages: PAGES },
];
const MB = 1024 * 1024;
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

const { database, owner } = await openBenchDatabase("archive", 54351, values.fresh ?? false);

/** The day's pages through the FLEX reader's path, unless the day already holds them. */
async function loadDay(date: string, pages: number): Promise<number> {
  // January: Amsterdam is UTC+1, so the Dutch day is 23:00 UTC to 23:00 UTC.
  const to = new Date(`${date}T23:00:00Z`);
  const from = new Date(to.getTime() - 86_400_000);
  const count = async () =>
    (
      await owner.query<{ n: number }>(
        "select count(*)::int as n from app_public.p2000_messages where sended >= $1 and sended < $2",
        [from, to],
      )
    ).rows[0].n;
  if ((await count()) >= pages * 0.9) return count();
  console.log(`Loading about ${pages.toLocaleString("en")} pages on ${date} ...`);
  const ingester = createFlexIngester(owner, { source: "bench" });
  for (const line of generatePagerTraffic({ from, to, perDay: pages, seed: from.getTime() })) await ingester.push(line);
  await ingester.flush();
  await owner.query("analyze app_public.p2000_messages");
  return count();
}

/** One day published by a child process; its figures and the day's files. */
async function publishInChild(date: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "archive-bench-"));
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const script = new URL(import.meta.url).pathname;
      const child = spawn(process.execPath, ["--expose-gc", script, "--day", date, "--dir", dir], {
        env: { ...process.env, ARCHIVE_BENCH_OWNER_URL: database.ownerUrl },
        stdio: ["ignore", "pipe", "inherit"],
      });
      let text = "";
      child.stdout.on("data", (chunk) => (text += chunk));
      child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`The child ended with ${code}.`))));
    });
    const figures = JSON.parse(output.trim().split("\n").at(-1)!) as {
      published: string[];
      seconds: number;
      before: number;
      peak: number;
      peakLive: number;
    };
    const [day] = await publishedDays(dir);
    if (figures.published[0] !== date || day?.date !== date) throw new Error(`${date} was not published.`);
    return { ...figures, day };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const runs = [];
for (const { date, pages } of DAYS) {
  const stored = await loadDay(date, pages);
  const { seconds, before, peak, peakLive, day } = await publishInChild(date);
  const file = (feed: string, format: string) => day.files.find((f) => f.feed === feed && f.format === format)!;
  const rows = file("p2000-messages", "csv").rows;
  runs.push({
    date,
    pages: stored,
    rows,
    dossiers: file("p2000-dossiers", "csv").rows,
    seconds: round(seconds, 2),
    rowsPerSecond: Math.round(rows / seconds),
    csvMB: round(file("p2000-messages", "csv").bytes / MB),
    parquetMB: round(file("p2000-messages", "parquet").bytes / MB),
    rssBeforeMB: round(before / MB),
    peakRssMB: round(peak / MB),
    peakLiveMB: round(peakLive / MB),
  });
  console.log(JSON.stringify(runs.at(-1)));
}
await owner.end();
await database.close();

const smallest = runs[0];
const largest = runs.at(-1)!;
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  rowsPerBatch: ROWS_PER_BATCH,
  runs,
  peakRssGrowthMB: round(largest.peakRssMB - smallest.peakRssMB),
  peakLiveGrowthMB: round(largest.peakLiveMB - smallest.peakLiveMB),
};
console.log(
  `\nWrote ${writeResults("archive", "archive-latest.md", result, [
    `Open archive benchmark, ${result.date.slice(0, 10)}, ${result.machine}: three Dutch days of synthetic P2000 pages stored through ` +
      `the FLEX reader's path, each day published alone (all ${ARCHIVE_FEEDS.length} feeds, CSV and Parquet, as tasks/archive__publish.ts does, ` +
      `the plain words in Dutch and English written out per page) in a process of its own, ${ROWS_PER_BATCH.toLocaleString("en")} rows ` +
      `a cursor read and a Parquet row group. Memory: the process's resident size before the run and at its peak, and the ` +
      `most it held (V8's heap and buffers after a full collection, once a second), which leaves out garbage not yet collected.`,
    "",
    "| day | pages | dossiers | seconds | pages a second | CSV MB | Parquet MB | RSS before MB | peak RSS MB | most held MB |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...runs.map(
      (run) =>
        `| ${run.date} | ${run.rows.toLocaleString("en")} | ${run.dossiers.toLocaleString("en")} | ${run.seconds} | ` +
        `${run.rowsPerSecond.toLocaleString("en")} | ${run.csvMB} | ${run.parquetMB} | ${run.rssBeforeMB} | ${run.peakRssMB} | **${run.peakLiveMB}** |`,
    ),
    "",
    `From ${smallest.rows.toLocaleString("en")} to ${largest.rows.toLocaleString("en")} pages a day (${largest.csvMB} MB of CSV) ` +
      `the most held moved by ${result.peakLiveGrowthMB} MB and the peak resident size by ${result.peakRssGrowthMB} MB ` +
      `(the collector lets garbage pile up longer in a longer run).`,
  ])}`,
);
