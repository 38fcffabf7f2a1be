// Ten years of P2000 history: `npm run bench:p2000-history -- [--messages 10000000] [--seconds 10]
// [--clients 1,16] [--fresh] [--only text|text] [--results name]`.
// It builds its own embedded database under bench/.data-history (kept between runs; --fresh starts
// over) through the project's start path (bench-database.ts: migrations and reference data), then
// writes the history in SQL:
// 1. A pattern: thirteen weeks of realistic traffic (lib/p2000/synthetic-pager-traffic.ts, FLEX lines parsed by
//    lib/p2000/flex-parser.ts; busy days, quiet nights, retransmissions with the same bon number,
//    weekly test alarms), about 250,000 pages, stored in bench_history.pattern. Each distinct
//    (text, capcodes) is enriched once by the ingestion's own enrichment
//    (app_hidden.p2000_enrich of the trimmed text and the cleaned capcodes, which is what
//    app_private.p2000_enrich_messages and the insert trigger compute), on two connections.
// 2. The history: the pattern repeated back to back (13 weeks keep the weekdays) from a start
//    chosen so that the history holds --messages messages, up to the last whole hour but one (so
//    that no message is young enough to queue monitor matching). One INSERT … SELECT into
//    app_public.p2000_messages per day, in time order, with the enrichment passed along as an
//    importer passes it: the row trigger still merges copies and groups dossiers (with their
//    timelines), the statement triggers still create capcodes, link them, add to the roll-ups and
//    learn fire vehicles. Keys are uuidv7 of the time sent, as a live feed makes them. Two
//    connections load the same days side by side, each the messages of its own safety regions (a
//    dossier never spans two regions), and the tables are analysed as the rows arrive
//    (lib/db/fresh-statistics.ts, the FLEX reader's rule). A later run that finds the history more
//    than a day old adds the missing days at the end (a top-up, whose figures are kept apart).
// 3. A region monitor (safety region 17) in the operator environment, with the matches the
//    matcher would have stored over the decade (its real alerts), for the monitor filter.
// 4. VACUUM (ANALYZE) of the P2000 tables and a CHECKPOINT, the load time of each step measured;
//    then every other feed's history at its own bench's size (bench/feed-histories.ts), for the
//    ten-year table.
// Then the service runs as its own process (server.ts) and each read is asked over HTTP with an
// API token (autocannon, closed loop, new arguments on every request) at 1 and 16 connections,
// 10 s each after a warm-up, at a quiet moment of the shared cores (as bench/rss.ts waits for
// one), with the CPU split of each run (bench/cpu-accounting.ts). p2000Messages(first: 50) and
// p2000MessagesCount with the spec's filters (none; capcodes; capcode names; a region through a
// monitor; sended of a day, a month and a year; disciplines; exerciseType; and combinations) have
// the goal: under 30 ms p99 at 16 clients. Dossiers, statistics and hub analytics are reported.
// The SQL time of one call is measured one call after another on one connection (a round trip each,
// about 0.1 ms), and every operation over 30 ms p99 at 16 clients is explained as the visitor
// (auto_explain with the statements inside the functions: bench/explain.ts).
// The ten-year table: every public read of the spec at one client, the P2000 reads above and the
// others with their default arguments (bench/spec-reads.ts), goal p99 under 100 ms; the others are
// measured at one client only, and their SQL time and plans are not taken.
// Figures go to bench/results/<name>-latest.md and a dated JSON file (name: --results, default
// p2000-history); --only measures the operations whose name contains one of the texts.
import { parseArgs } from "node:util";
import pg from "pg";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { analyzeAsRowsArrive } from "../lib/db/fresh-statistics.ts";
import { pgUrl } from "../lib/db/pg-url.ts";
import { P2000_STORED_TABLES, retryOnDeadlock } from "../lib/p2000/batch-store.ts";
import { parseFlexLine } from "../lib/p2000/flex-parser.ts";
import { generatePagerTraffic } from "../lib/p2000/synthetic-pager-traffic.ts";
import {
  makeCpuSampler,
  cpuSplit,
  describeCpu,
  findServicePid,
  leastDisturbed,
  loadAverage as readLoadAverage,
} from "./cpu-accounting.ts";
import { openBenchDatabase, seeded } from "./bench-database.ts";
import { autoExplain, type ExplainedStatement } from "./explain.ts";
import { FEED_HISTORY_SIZES, FEED_HISTORY_TABLES, fillEveryFeedHistory } from "./feed-histories.ts";
import { httpLoad as loadOverHttp } from "./http-load.ts";
import { machine, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";
import { specReads } from "./spec-reads.ts";

const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "10000000" },
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "1,16" },
    fresh: { type: "boolean", default: false },
    only: { type: "string" },
    results: { type: "string", default: "p2000-history" },
  },
});
const TARGET = Number(values.messages);
const SECONDS = Number(values.seconds);
const CLIENTS = values.clients!.split(",").map(Number);
const ONLY = values.only?.toLowerCase().split("|");
const RESULTS = values.results!;
const WARM_UP_SECONDS = 2;
const GOAL_P99_MS = 30;
const GOAL_CLIENTS = 16;
const TABLE_GOAL_P99_MS = 100;
const TABLE_CLIENTS = 1;
const DAY_SECONDS = 86_400;
// The pattern: thirteen weeks from a Monday (so that it repeats with the weekdays), about 2,740
// messages a day (10 million in ten years) once retransmissions and merged copies are counted.
const PATTERN = { anchor: "2025-01-06T00:00:00Z", days: 91, perDay: 2340, seed: 20261123 };
const PATTERN_SECONDS = PATTERN.days * DAY_SECONDS;
const SOURCE = "bench-history";
const MONITOR_REGION = "17";
// What loading the history writes (what storing P2000 messages writes, and the monitor's matches):
// vacuumed after a load, their sizes reported.
const HISTORY_TABLES = [...P2000_STORED_TABLES, "app_hidden.monitor_matches"];
const log = (line: string) => console.log(line);
const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const seconds = (since: number) => round((performance.now() - since) / 1000);

const { dataDir: DATA_DIR, config, database, owner } = await openBenchDatabase("history", 54357, values.fresh ?? false);
const rootUrl = database.rootUrl;
if (!rootUrl) throw new Error("CHECKPOINT and auto_explain need the superuser URL of the embedded cluster.");
const superuserUrl = pgUrl(rootUrl, { database: config.database.name });

async function connect(url = database.ownerUrl): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  return client;
}

// 1. The pattern and its enrichment.
/** Where the cores went during the INSERTs (% of both), where /proc tells. */
interface CoreShares {
  loadPostgresShare: number;
  loadOtherShare: number;
  loadIdleShare: number;
}
/** What the INSERTs measured (loadHistory). */
interface InsertFigures {
  stored: number;
  seconds: number;
  shares: CoreShares | undefined;
}
/** What the steps after the INSERTs measured. */
interface AfterInsertFigures {
  monitorMatches: number;
  monitorMatchesSeconds: number;
  vacuumAnalyzeSeconds: number;
  checkpointSeconds: number;
}
/**
 * What loading measured, kept in bench_history.meta.load: the first load's figures (the load line
 * reads them), and the last top-up's under topUp.
 */
interface LoadFigures extends Partial<CoreShares>, Partial<AfterInsertFigures> {
  patternSeconds?: number;
  enrichSeconds?: number;
  patternPages?: number;
  distinctTexts?: number;
  messagesStored?: number;
  insertSeconds?: number;
  messagesPerSecond?: number;
  totalSeconds?: number;
  topUp?: { messages: number; seconds: number } & Partial<CoreShares> & AfterInsertFigures;
}
interface Meta {
  pattern: Record<string, unknown>;
  target: number | null;
  t0: string | null;
  loaded_until: string | null;
  complete: boolean;
  load: LoadFigures;
}
await owner.query(`
  create schema if not exists bench_history;
  create table if not exists bench_history.meta (pattern jsonb not null, t0 timestamptz, loaded_until timestamptz,
    complete boolean not null default false, load jsonb not null default '{}');
  -- --messages of the load (a history loaded before this column came has none)
  alter table bench_history.meta add column if not exists target bigint;
  create table if not exists bench_history.enrichments (id serial primary key, message text not null, capcodes text[] not null,
    e app_hidden.p2000_enrichment, unique (message, capcodes));
  create table if not exists bench_history.pattern (n integer primary key, at_second integer not null, message text not null,
    capcodes text[] not null, enrichment_id integer references bench_history.enrichments, part smallint);
  create index if not exists pattern_at_second_idx on bench_history.pattern (at_second)`);
// This run's load figures: the first load's, or a top-up's (load.topUp).
const load: LoadFigures = {};
const cpuSample = makeCpuSampler(DATA_DIR);
const META = "select pattern, target::float8 as target, t0, loaded_until, complete, load from bench_history.meta";
let meta = (await owner.query<Meta>(META)).rows[0];
if (meta && !meta.complete) throw new Error("An earlier load of the history was interrupted; start over with --fresh.");
if (meta) {
  const stored = meta.pattern;
  const samePattern =
    Object.keys(stored).length === Object.keys(PATTERN).length &&
    Object.entries(PATTERN).every(([key, value]) => stored[key] === value);
  if (!samePattern || (meta.target !== null && meta.target !== TARGET)) {
    throw new Error(
      `The history under ${DATA_DIR} was loaded from the pattern ${JSON.stringify(stored)} for --messages ${meta.target ?? "(not kept)"}; ` +
        `this run asks for ${JSON.stringify(PATTERN)} and --messages ${TARGET}: start over with --fresh.`,
    );
  }
  if (meta.target === null) {
    log(`(The history's --messages was not kept when it was loaded: taken to be ${TARGET}.)`);
    await owner.query("update bench_history.meta set target = $1", [TARGET]);
  }
}
let patternPages: number | undefined; // counted when the pattern is made
if (!meta) {
  log(`Pattern: ${PATTERN.days} days of traffic from ${PATTERN.anchor}, parsed and enriched ...`);
  let started = performance.now();
  const anchor = new Date(PATTERN.anchor);
  const pages: Array<{ s: number; m: string; c: string[] }> = [];
  for (const line of generatePagerTraffic({
    from: anchor,
    to: new Date(anchor.getTime() + PATTERN_SECONDS * 1000),
    perDay: PATTERN.perDay,
    seed: PATTERN.seed,
  })) {
    const parsed = parseFlexLine(line);
    if (parsed.kind !== "page") throw new Error(`The traffic generator wrote a line the parser does not take: ${line}`);
    pages.push({
      s: Math.round((parsed.page.sended.getTime() - anchor.getTime()) / 1000),
      m: parsed.page.text,
      c: parsed.page.capcodes,
    });
  }
  await owner.query("truncate bench_history.pattern, bench_history.enrichments");
  for (let i = 0; i < pages.length; i += 20_000) {
    await owner.query(
      `
      insert into bench_history.pattern (n, at_second, message, capcodes)
      select p.n, p.s, p.m, array(select json_array_elements_text(p.c)) from json_to_recordset($1::json) p (n int, s int, m text, c json)`,
      [JSON.stringify(pages.slice(i, i + 20_000).map((page, k) => ({ n: i + k + 1, ...page })))],
    );
  }
  await owner.query(
    `insert into bench_history.enrichments (message, capcodes) select distinct message, capcodes from bench_history.pattern`,
  );
  await owner.query(`update bench_history.pattern p set enrichment_id = e.id from bench_history.enrichments e
                      where e.message = p.message and e.capcodes = p.capcodes`);
  load.patternSeconds = seconds(started);
  started = performance.now();
  // The ingestion's enrichment, on both cores.
  await Promise.all(
    [0, 1].map(async (part) => {
      const client = await connect();
      try {
        await client.query(
          `update bench_history.enrichments x
                             set e = app_hidden.p2000_enrich(btrim(x.message), app_hidden.p2000_clean_capcodes(x.capcodes))
                           where x.id % 2 = $1`,
          [part],
        );
      } finally {
        await client.end();
      }
    }),
  );
  load.enrichSeconds = seconds(started);
  // Two parts for the two loading connections, by whole safety regions: the regions ranked by their
  // pages (most first) are dealt in snake order, 1st and 4th to part 0, 2nd and 3rd to part 1, 5th
  // and 8th to part 0 and so on (messages without a region count as one region), which keeps the
  // parts about equal in size; every copy of a text goes to the part of its first copy's region.
  // A dossier never spans two regions, so each connection groups its own messages as if it were
  // alone (the FLEX reader splits a batch likewise, though differently: partitionByRegion of
  // lib/p2000/batch-store.ts gives each region to the smaller part).
  await owner.query(`
    with regions as (select coalesce((x.e).region_uuid::text, '') as region, count(*) as pages from bench_history.pattern p
                       join bench_history.enrichments x on x.id = p.enrichment_id group by 1),
         ranked as (select r.region, r.pages, row_number() over (order by r.pages desc, r.region) as k from regions r),
         parts as (select r.region, case when k % 4 in (1, 0) then 0 else 1 end as part from ranked r),
         first_copy as (select distinct on (p.message) p.message, pa.part from bench_history.pattern p
                          join bench_history.enrichments x on x.id = p.enrichment_id
                          join parts pa on pa.region = coalesce((x.e).region_uuid::text, '') order by p.message, p.n)
    update bench_history.pattern p set part = f.part from first_copy f where f.message = p.message`);
  const {
    rows: [counts],
  } = await owner.query<{ pages: number; texts: number }>(
    "select (select count(*)::int from bench_history.pattern) as pages, (select count(*)::int from bench_history.enrichments) as texts",
  );
  load.patternPages = patternPages = counts.pages;
  load.distinctTexts = counts.texts;
  log(
    `  ${counts.pages.toLocaleString("en")} pages, ${counts.texts.toLocaleString("en")} distinct texts with their capcodes: ` +
      `${load.patternSeconds} s to generate and store, ${load.enrichSeconds} s to enrich`,
  );
  await owner.query("analyze bench_history.pattern, bench_history.enrichments");
  await owner.query("insert into bench_history.meta (pattern, target) values ($1, $2)", [
    JSON.stringify(PATTERN),
    TARGET,
  ]);
  meta = { pattern: PATTERN, target: TARGET, t0: null, loaded_until: null, complete: false, load: {} };
}

// 2. The history, one INSERT per day; seconds are counted from the pattern's anchor (a Monday).
const INSERT_DAY = `
  insert into app_public.p2000_messages (uuid, message, sended, capcode_names, source, urgency_uuid, discipline_uuid, region_uuid,
      category_uuid, street, postcode, city, place_uuid, latitude, longitude, road, hectometer, carriageway, grip_level, exercise_type,
      incident_number, normalized_text, call_numbers)
  select uuidv7(s.sended - now()), p.message, s.sended, p.capcodes, '${SOURCE}', (x.e).urgency_uuid, (x.e).discipline_uuid,
         (x.e).region_uuid, (x.e).category_uuid, (x.e).street, (x.e).postcode, (x.e).city, (x.e).place_uuid, (x.e).latitude,
         (x.e).longitude, (x.e).road, (x.e).hectometer, (x.e).carriageway, (x.e).grip_level, coalesce((x.e).exercise_type, 'none'),
         (x.e).incident_number, (x.e).normalized_text, coalesce((x.e).call_numbers, '{}')
    from generate_series(floor($1::bigint / ${PATTERN_SECONDS}::float8)::bigint, floor(($2::bigint - 1) / ${PATTERN_SECONDS}::float8)::bigint) r
   cross join lateral (select * from bench_history.pattern p
                        where p.at_second >= $1::bigint - r * ${PATTERN_SECONDS} and p.at_second < $2::bigint - r * ${PATTERN_SECONDS}
                          and p.part = $3) p
    join bench_history.enrichments x on x.id = p.enrichment_id
   cross join lateral (select '${PATTERN.anchor}'::timestamptz + (r * ${PATTERN_SECONDS} + p.at_second) * interval '1 second' as sended) s
   order by s.sended, p.n`;
const anchorMs = new Date(PATTERN.anchor).getTime();
const toSecond = (at: Date) => Math.round((at.getTime() - anchorMs) / 1000);
const historyEnd = (() => {
  const hour = new Date();
  hour.setUTCMinutes(0, 0, 0);
  return new Date(hour.getTime() - 3_600_000);
})();

/**
 * Loads the history from `from` up to `to`, a day per INSERT, in time order, on two connections at
 * once: both insert the same days, each only the messages of its part (its safety regions). Split
 * by region, not by time: a dossier lookup (app_hidden.p2000_assign_dossier) reads a region's
 * dossiers newest first from the message's time on, so when two connections loaded the older and
 * the newer half of the decade, the one writing the older half walked through every dossier the
 * other had written and slowed to a few hundred messages a second. Returns the messages stored, the
 * seconds it took, and where the cores went meanwhile.
 */
async function loadHistory(from: Date, to: Date): Promise<InsertFigures> {
  const started = performance.now();
  const days: Array<[number, number]> = [];
  for (let s = toSecond(from); s < toSecond(to); s += DAY_SECONDS)
    days.push([s, Math.min(s + DAY_SECONDS, toSecond(to))]);
  const statistics = analyzeAsRowsArrive(owner, P2000_STORED_TABLES, "app_public.p2000_messages");
  let analysing = Promise.resolve();
  let stored = 0;
  let doneDays = 0;
  let nextReport = 0.05;
  const cpuBefore = cpuSample(undefined);
  await Promise.all(
    [0, 1].map(async (part) => {
      const client = await connect();
      try {
        await client.query("set synchronous_commit = off");
        for (const [a, b] of days) {
          // A deadlock between the two parts: the day's INSERT again.
          const rowCount =
            (await retryOnDeadlock(() => client.query({ name: "insert-day", text: INSERT_DAY, values: [a, b, part] })))
              .rowCount ?? 0;
          stored += rowCount;
          doneDays += 0.5;
          // ANALYZE when the rows since the last one reach autovacuum's rule (one at a time).
          analysing = analysing.then(() => statistics.stored(rowCount));
          await analysing;
          if (doneDays / days.length >= nextReport) {
            nextReport += 0.05;
            const elapsed = (performance.now() - started) / 1000;
            log(
              `  ${Math.round((100 * doneDays) / days.length)}%: ${stored.toLocaleString("en")} messages, ${elapsed.toFixed(0)} s, ` +
                `${Math.round(stored / elapsed)}/s; load average ${readLoadAverage().join(" ")}`,
            );
          }
        }
      } finally {
        await client.end();
      }
    }),
  );
  // Where the cores went: PostgreSQL's share, and what other processes on the machine took.
  const cpu = cpuSplit(cpuBefore, cpuSample(undefined), stored);
  if (cpu)
    log(
      `  cores during the INSERTs: PostgreSQL ${cpu.postgres.share}%, other processes ${cpu.other.share}%, idle ${cpu.idle.share}%`,
    );
  return {
    stored,
    seconds: seconds(started),
    shares: cpu && {
      loadPostgresShare: cpu.postgres.share,
      loadOtherShare: cpu.other.share,
      loadIdleShare: cpu.idle.share,
    },
  };
}

// What this run's INSERTs measured, if it loaded any: the first load, or a top-up.
let inserted: InsertFigures | undefined;
let toppedUp = false;
if (!meta.loaded_until) {
  // Only right after the pattern was made: an earlier load that stopped before loaded_until was set is caught above.
  if (patternPages === undefined)
    throw new Error("The history has no end but its pattern is from an earlier run: start over with --fresh.");
  const historyDays = (TARGET / patternPages) * PATTERN.days;
  const t0 = new Date(Math.floor((historyEnd.getTime() - historyDays * DAY_SECONDS * 1000) / 3_600_000) * 3_600_000);
  log(
    `Loading the history: ${historyDays.toFixed(0)} days (${(historyDays / 365.25).toFixed(1)} years) from ${t0.toISOString()} ` +
      `to ${historyEnd.toISOString()}, about ${TARGET.toLocaleString("en")} messages, a day per INSERT on two connections (regions split between them) ...`,
  );
  await owner.query("update bench_history.meta set t0 = $1", [t0]);
  inserted = await loadHistory(t0, historyEnd);
  Object.assign(load, {
    messagesStored: inserted.stored,
    insertSeconds: inserted.seconds,
    messagesPerSecond: Math.round(inserted.stored / inserted.seconds),
    ...inserted.shares,
  });
  log(`  ${inserted.stored.toLocaleString("en")} messages in ${inserted.seconds} s (${load.messagesPerSecond}/s)`);
  await owner.query("update bench_history.meta set loaded_until = $1", [historyEnd]);
} else if (new Date(meta.loaded_until).getTime() < historyEnd.getTime() - DAY_SECONDS * 1000) {
  const from = new Date(meta.loaded_until);
  log(`Adding the history since ${from.toISOString()} up to ${historyEnd.toISOString()} ...`);
  // Incomplete until the steps after the INSERTs are done, as a first load is: a run after an
  // interrupted top-up says so.
  await owner.query("update bench_history.meta set complete = false");
  inserted = await loadHistory(from, historyEnd);
  toppedUp = true;
  await owner.query("update bench_history.meta set loaded_until = $1", [historyEnd]);
}

// 3. A monitor of safety region 17 in the operator environment, and the matches the matcher would
// have stored: the region's real alerts (the monitor does not include exercises).
const environment = database.operatorEnvironmentUuid;
const monitorUuid = await (async () => {
  const {
    rows: [found],
  } = await owner.query<{ uuid: string }>(
    "select uuid from app_public.monitors where environment_uuid = $1 and name = 'bench history region 17'",
    [environment],
  );
  if (found) return found.uuid;
  const {
    rows: [made],
  } = await owner.query<{ uuid: string }>(
    "insert into app_public.monitors (environment_uuid, name, query) values ($1, 'bench history region 17', $2) returning uuid",
    [environment, JSON.stringify({ regions: [MONITOR_REGION] })],
  );
  return made.uuid;
})();
if (inserted) {
  let started = performance.now();
  const { rowCount } = await owner.query(
    `
    insert into app_hidden.monitor_matches (monitor_uuid, message_uuid, dossier_uuid, sended, matched_at)
    select $1, m.uuid, m.dossier_uuid, m.sended, m.sended from app_public.p2000_messages m
     where m.region_uuid = (select g.uuid from app_public.p2000_regions g where g.number = $2) and m.exercise_type = 'none'
       and m.sended >= coalesce((select max(x.sended) from app_hidden.monitor_matches x where x.monitor_uuid = $1), '-infinity')
    on conflict do nothing`,
    [monitorUuid, MONITOR_REGION],
  );
  const monitorMatches = rowCount ?? 0;
  const monitorMatchesSeconds = seconds(started);
  log(
    `Monitor of region ${MONITOR_REGION}: ${monitorMatches.toLocaleString("en")} matches in ${monitorMatchesSeconds} s`,
  );

  // 4. Statistics and visibility maps for the reads; the load's dirty pages and WAL written now
  // rather than by the checkpointer during the measurements.
  started = performance.now();
  await owner.query(`vacuum (analyze) ${HISTORY_TABLES.join(", ")}`);
  const vacuumAnalyzeSeconds = seconds(started);
  started = performance.now();
  const root = await connect(superuserUrl);
  await root.query("checkpoint");
  await root.end();
  const checkpointSeconds = seconds(started);
  log(`  VACUUM (ANALYZE) ${vacuumAnalyzeSeconds} s, CHECKPOINT ${checkpointSeconds} s`);
  const after: AfterInsertFigures = { monitorMatches, monitorMatchesSeconds, vacuumAnalyzeSeconds, checkpointSeconds };
  if (toppedUp) {
    // Kept apart, so that the first load's figures (the load line) stay as they were.
    load.topUp = { messages: inserted.stored, seconds: inserted.seconds, ...inserted.shares, ...after };
  } else {
    Object.assign(load, after);
    load.totalSeconds = round(
      (load.patternSeconds ?? 0) +
        (load.enrichSeconds ?? 0) +
        inserted.seconds +
        monitorMatchesSeconds +
        vacuumAnalyzeSeconds +
        checkpointSeconds,
    );
    log(`Load: ${load.totalSeconds} s in all (${(load.totalSeconds / 60).toFixed(1)} minutes)`);
  }
  await owner.query("update bench_history.meta set complete = true, load = load || $1::jsonb", [JSON.stringify(load)]);
}
const loaded = (await owner.query<Meta>(META)).rows[0];
await owner.query("select app_private.refresh_analytics_cache()");

// 4b. The other feeds' histories for the ten-year table, each at its own bench's size, whatever is missing.
const feedFilling = await fillEveryFeedHistory(
  owner,
  { ownerUrl: database.ownerUrl, environmentUuid: database.operatorEnvironmentUuid, source: SOURCE },
  FEED_HISTORY_SIZES,
  log,
);
if (Object.keys(feedFilling).length > 0) {
  await owner.query("vacuum analyze");
  const root = await connect(superuserUrl);
  await root.query("checkpoint");
  await root.end();
}

// What the tables hold.
const { rows: sizes } = await owner.query<{ name: string; rows: number; mb: number; index_mb: number }>(
  `
  select t.name, c.reltuples::bigint::float8 as rows, round(pg_table_size(c.oid) / 1048576.0)::float8 as mb,
         round(pg_indexes_size(c.oid) / 1048576.0)::float8 as index_mb
    from unnest($1::text[]) t(name) join pg_class c on c.oid = t.name::regclass`,
  // The other feeds' histories (for the ten-year table): their sizes reported too.
  [[...HISTORY_TABLES, ...FEED_HISTORY_TABLES]],
);
const tables = Object.fromEntries(sizes.map((s) => [s.name, { rows: s.rows, mb: s.mb, indexMb: s.index_mb }]));
const { rows: indexSizes } = await owner.query<{ name: string; mb: number }>(`
  select c.relname as name, round(pg_relation_size(c.oid) / 1048576.0)::float8 as mb
    from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = 'app_public.p2000_messages'::regclass order by c.relname`);
const {
  rows: [shape],
} = await owner.query<{ messages: number; first: string; last: string }>(`
  select count(*)::int as messages, min(sended)::text as first, max(sended)::text as last from app_public.p2000_messages`);
log(
  `History: ${shape.messages.toLocaleString("en")} messages from ${shape.first} to ${shape.last}; ` +
    sizes.map((s) => `${s.name} ${s.rows.toLocaleString("en")} rows ${s.mb} MB + ${s.index_mb} MB indexes`).join("; "),
);

// 5. The arguments: capcodes and days drawn from the history (seeded, the same on every run).
const random = seeded(2030);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
// From the pattern (a thirteenth of a tenth of the history): every capcode's share of the pages.
const { rows: unitCapcodes } = await owner.query<{ name: string; pages: number }>(`
  select cc as name, count(*)::int as pages from bench_history.pattern p, unnest(app_hidden.p2000_clean_capcodes(p.capcodes)) cc
   where app_hidden.p2000_capcode_kind(cc, null) = 'unit' group by cc order by count(*) desc, cc`);
const busiestUnit = unitCapcodes[0].name;
const typicalUnitNames = unitCapcodes
  .slice(Math.floor(unitCapcodes.length / 4), Math.floor(unitCapcodes.length / 4) + 50)
  .map((c) => c.name);
const GROUP_CALL = "2029568";
// The uuids of the capcodes asked by uuid, in one query.
const capcodeUuids = new Map(
  (
    await owner.query<{ name: string; uuid: string }>(
      "select name, uuid from app_public.p2000_capcodes where name = any($1)",
      [[...typicalUnitNames, busiestUnit, GROUP_CALL]],
    )
  ).rows.map((c) => [c.name, c.uuid]),
);
const capcodeUuid = (name: string) => {
  const uuid = capcodeUuids.get(name);
  if (!uuid) throw new Error(`Capcode ${name} is not in the history`);
  return uuid;
};
const typicalUnits = typicalUnitNames.map(capcodeUuid);
const { rows: regionCapcodes } = await owner.query<{ name: string }>(
  `
  select cc as name from bench_history.pattern p join bench_history.enrichments x on x.id = p.enrichment_id,
         unnest(app_hidden.p2000_clean_capcodes(p.capcodes)) cc
   where (x.e).region_uuid = (select g.uuid from app_public.p2000_regions g where g.number = $1)
     and app_hidden.p2000_capcode_kind(cc, null) = 'unit'
   group by cc order by count(*) desc, cc limit 10`,
  [MONITOR_REGION],
);
const busiestUnitUuid = capcodeUuid(busiestUnit);
const groupCallUuid = capcodeUuid(GROUP_CALL);
const firstMs = new Date(shape.first).getTime();
const lastMs = new Date(shape.last).getTime();
/** A range of `days` days (a day, a month or a year) at a random place in the history, whole Dutch days as a client asks them. */
function range(days: number) {
  const start = firstMs + random() * (lastMs - firstMs - days * DAY_SECONDS * 1000);
  const day = new Date(start);
  day.setUTCHours(0, 0, 0, 0);
  const from = new Date(day.getTime() - 3_600_000); // midnight in Amsterdam (winter time; an hour off in summer)
  return { from: from.toISOString(), to: new Date(from.getTime() + days * DAY_SECONDS * 1000 - 1).toISOString() };
}

// 6. The operations: each a GraphQL query with new variables on every request, and the SQL call the
// field makes (for the SQL time of one call and the plans).
type Filter = {
  sended?: { from: string; to: string };
  capcodes?: string[];
  disciplines?: string[];
  capcode?: { names: string[] };
  exerciseType?: string;
  monitor?: { uuid: string };
};
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const textArray = (list?: string[]) => (list ? `array[${list.map(lit).join(", ")}]::text[]` : "null");
const filterSql = (f: Filter) =>
  `row(${f.sended ? `row(${lit(f.sended.from)}, ${lit(f.sended.to)})::app_public.date_range` : "null"}, ` +
  `${textArray(f.capcodes)}, null, ${textArray(f.disciplines)}, null, ` +
  `${f.capcode ? `row(${textArray(f.capcode.names)})::app_public.p2000_capcode_names_filter` : "null"}, ` +
  `${f.exerciseType ? lit(f.exerciseType) : "null"}, ${f.monitor ? `row(${lit(f.monitor.uuid)})::app_public.monitor_ref` : "null"}` +
  `)::app_public.p2000_message_filter`;
const filters: Array<{ name: string; make: () => Filter }> = [
  { name: "no filter", make: () => ({}) },
  { name: `capcodes: the busiest unit capcode (${busiestUnit})`, make: () => ({ capcodes: [busiestUnitUuid] }) },
  { name: "capcodes: a typical unit capcode", make: () => ({ capcodes: [pick(typicalUnits)] }) },
  {
    name: `capcodes: a group call capcode (${GROUP_CALL}, every ambulance call)`,
    make: () => ({ capcodes: [groupCallUuid] }),
  },
  {
    name: `capcode names: region ${MONITOR_REGION}'s 10 busiest unit capcodes`,
    make: () => ({ capcode: { names: regionCapcodes.map((c) => c.name.padStart(9, "0")) } }),
  },
  { name: `monitor: safety region ${MONITOR_REGION}`, make: () => ({ monitor: { uuid: monitorUuid } }) },
  { name: "sended: a day", make: () => ({ sended: range(1) }) },
  { name: "sended: a month", make: () => ({ sended: range(30) }) },
  { name: "sended: a year", make: () => ({ sended: range(365) }) },
  { name: "disciplines: Brandweer", make: () => ({ disciplines: ["Brandweer"] }) },
  { name: "disciplines: KNRM (1%)", make: () => ({ disciplines: ["knrm"] }) },
  { name: "exerciseType: proefalarm", make: () => ({ exerciseType: "proefalarm" }) },
  { name: "exerciseType: all", make: () => ({ exerciseType: "all" }) },
  {
    name: "capcodes (typical unit) + sended: a year",
    make: () => ({ capcodes: [pick(typicalUnits)], sended: range(365) }),
  },
  { name: "disciplines: Brandweer + sended: a month", make: () => ({ disciplines: ["Brandweer"], sended: range(30) }) },
  {
    name: `monitor (region ${MONITOR_REGION}) + sended: a month`,
    make: () => ({ monitor: { uuid: monitorUuid }, sended: range(30) }),
  },
];
interface Scenario {
  name: string;
  goal: boolean;
  query: string;
  args: () => Record<string, unknown>;
  /** The field's SQL call, for the SQL time of one call and the plans (the P2000 reads). */
  sql?: (args: Record<string, unknown>) => string;
  /** Measured at one client only, for the ten-year table (the other spec reads). */
  tableOnly?: boolean;
}
const LIST = "query ($f: P2000MessageFilterInput) { p2000Messages(first: 50, filter: $f) { uuid message sended } }";
const COUNT = "query ($f: P2000MessageFilterInput) { p2000MessagesCount(filter: $f) }";
const STATS_FIELDS =
  "total perDay { date count } byDiscipline { name count } byUrgency { key count } byRegion { key count }";
const allScenarios: Scenario[] = [
  ...filters.map((f) => ({
    name: `p2000Messages(first: 50) ${f.name}`,
    goal: true,
    query: LIST,
    args: () => ({ f: f.make() }),
    sql: (a: Record<string, unknown>) =>
      `select count(*) from app_public.p2000_messages(50, 1, ${filterSql(a.f as Filter)})`,
  })),
  ...filters.map((f) => ({
    name: `p2000MessagesCount ${f.name}`,
    goal: true,
    query: COUNT,
    args: () => ({ f: f.make() }),
    sql: (a: Record<string, unknown>) => `select app_public.p2000_messages_count(${filterSql(a.f as Filter)})`,
  })),
  {
    name: "p2000Dossiers(first: 20)",
    goal: false,
    query: "{ p2000Dossiers(first: 20) { uuid title messageCount } }",
    args: () => ({}),
    sql: () => "select count(*) from app_public.p2000_dossiers(20, 1, null)",
  },
  {
    name: "p2000Dossiers(first: 20, orderBy: messageCountDesc)",
    goal: false,
    query: '{ p2000Dossiers(first: 20, filter: { orderBy: "messageCountDesc" }) { uuid title messageCount } }',
    args: () => ({}),
    sql: () =>
      "select count(*) from app_public.p2000_dossiers(20, 1, row('messageCountDesc', null, null, null, null)::app_public.p2000_dossier_filter)",
  },
  ...(["LAST_24_HOURS", "LAST_7_DAYS", "THIS_YEAR"] as const).map((period) => ({
    name: `p2000Statistics(${period})`,
    goal: false,
    query: `{ p2000Statistics(period: ${period}) { total byDiscipline { name count } byRegion { key count } byUrgency { key count } busiestHour${period === "THIS_YEAR" ? " byRoadThisYear { key count }" : ""} } }`,
    args: () => ({}),
    sql: () => `select (app_public.p2000_statistics('${period}')).total`,
  })),
  {
    name: "p2000MessageStatistics (no filter)",
    goal: false,
    query: `{ p2000MessageStatistics { ${STATS_FIELDS} } }`,
    args: () => ({}),
    sql: () => "select (app_public.p2000_message_statistics(null, 30)).total",
  },
  {
    name: "p2000MessageStatistics (a typical unit capcode)",
    goal: false,
    query: `query ($f: P2000MessageFilterInput) { p2000MessageStatistics(filter: $f) { ${STATS_FIELDS} } }`,
    args: () => ({ f: { capcodes: [pick(typicalUnits)] } }),
    sql: (a) => `select (app_public.p2000_message_statistics(${filterSql(a.f as Filter)}, 30)).total`,
  },
  {
    name: `p2000MessageStatistics (monitor: region ${MONITOR_REGION})`,
    goal: false,
    query: `query ($f: P2000MessageFilterInput) { p2000MessageStatistics(filter: $f) { ${STATS_FIELDS} } }`,
    args: () => ({ f: { monitor: { uuid: monitorUuid } } }),
    sql: (a) => `select (app_public.p2000_message_statistics(${filterSql(a.f as Filter)}, 30)).total`,
  },
  {
    name: "hubAnalyticsHourly",
    goal: false,
    query: "{ hubAnalyticsHourly { total hours { hour total } } }",
    args: () => ({}),
    sql: () => "select (app_public.hub_analytics_hourly(28)).total",
  },
  {
    name: "hubAnalyticsUrgency",
    goal: false,
    query: "{ hubAnalyticsUrgency { total urgent lessUrgent byCode { key count } } }",
    args: () => ({}),
    sql: () => "select (app_public.hub_analytics_urgency(28)).total",
  },
  {
    name: "hubAnalyticsWeekdays",
    goal: false,
    query: "{ hubAnalyticsWeekdays { yesterday yesterdayExpected weekdays { weekday total } } }",
    args: () => ({}),
    sql: () => "select (app_public.hub_analytics_weekdays(28)).yesterday",
  },
  ...(await specReads(owner, environment, random)).map((read) => ({ ...read, goal: false, tableOnly: true })),
];
const scenarios = ONLY
  ? allScenarios.filter((s) => ONLY.some((only) => s.name.toLowerCase().includes(only)))
  : allScenarios;

// 7. HTTP: the service as its own process, the operator environment's API token.
const service = await startServerProcess({ dataDir: DATA_DIR, pgPort: config.database.embeddedPgPort });
const { token: apiTokenRow, plainToken: apiToken } = await createApiToken(owner, {
  environmentUuid: environment,
  name: "bench history",
  scopes: [],
});
const headers = { "content-type": "application/json", authorization: `Bearer ${apiToken}` };
async function graphql(query: string, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(service.graphqlUrl, {
    method: "POST",
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data: Record<string, unknown>; errors?: Array<{ message: string }> };
  if (body.errors) throw new Error(body.errors[0].message);
  return body.data;
}
const servicePid = findServicePid();

/**
 * Closed-loop HTTP load (http-load.ts) with new arguments on every request; the latency of every
 * answer, in ms (errors: autocannon's, its timeouts among them, non-200 answers and GraphQL errors).
 */
async function httpLoad(clients: number, secondsRun: number, query: string, args: () => Record<string, unknown>) {
  // The answers' size is not among this bench's figures.
  const { bytesPerAnswer: _bytes, ...http } = await loadOverHttp({
    url: service.graphqlUrl,
    headers,
    clients,
    seconds: secondsRun,
    body: () => JSON.stringify({ query, variables: args() }),
    timeoutSeconds: 30,
    cpu: { sample: cpuSample, servicePid },
    rpsDigits: 1,
  });
  return http;
}

// One answer of each operation checked first, against what the owner counts.
const checks: string[] = [];
const failing: string[] = [];
{
  const list = (await graphql(LIST, {})).p2000Messages as Array<{ sended: string }>;
  const newest = await owner.query<{ sended: Date }>(
    "select max(sended) as sended from app_public.p2000_messages where exercise_type = 'none'",
  );
  if (list.length !== 50 || new Date(list[0].sended).getTime() !== newest.rows[0].sended.getTime())
    throw new Error("p2000Messages did not start at the newest message");
  const month = range(30);
  const counted = (await graphql(COUNT, { f: { sended: month, disciplines: ["Brandweer"] } }))
    .p2000MessagesCount as number;
  const {
    rows: [{ n }],
  } = await owner.query<{ n: number }>(
    `
    select count(*)::int as n from app_public.p2000_messages m join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
     where d.name = 'Brandweer' and m.exercise_type = 'none' and m.sended between $1 and $2`,
    [month.from, month.to],
  );
  if (counted !== n) throw new Error(`p2000MessagesCount (Brandweer, a month) = ${counted}, the owner counts ${n}`);
  const viaMonitor = (await graphql(COUNT, { f: { monitor: { uuid: monitorUuid }, sended: month } }))
    .p2000MessagesCount as number;
  checks.push(
    `p2000Messages starts at the newest message (${list[0].sended})`,
    `p2000MessagesCount (Brandweer, ${month.from.slice(0, 10)} + 30 days) ${counted} as the owner counts`,
    `region ${MONITOR_REGION} through the monitor in that month: ${viaMonitor}`,
  );
  // Every operation to be measured asked once: one that fails (the statement timeout) is measured all the same, its errors counted.
  for (const scenario of scenarios) {
    const started = performance.now();
    try {
      await graphql(scenario.query, scenario.args());
    } catch (error) {
      failing.push(`${scenario.name}: ${(error as Error).message} after ${Math.round(performance.now() - started)} ms`);
    }
  }
  log(
    `Check: ${checks.join("; ")}; ${failing.length === 0 ? "every operation answers without errors" : `errors: ${failing.join("; ")}`}`,
  );
}

// Two shared cores: each measurement waits (up to QUIET_WAIT_SECONDS) for a moment when the cores
// are at least 90% idle, and one whose HTTP run saw more than OTHER_SHARE_LIMIT% of the cores go
// to other processes is repeated (at most RETRIES times; the least disturbed one is kept:
// leastDisturbed of cpu-accounting.ts).
const QUIET_WAIT_SECONDS = 30;
const OTHER_SHARE_LIMIT = 10;
const RETRIES = 1;
const loadAverage = readLoadAverage();
type Read = {
  operation: string;
  goal: boolean;
  clients: number;
  attempts: number;
  http: Awaited<ReturnType<typeof httpLoad>>;
};
const reads: Read[] = [];
for (const scenario of scenarios) {
  await httpLoad(
    scenario.tableOnly ? TABLE_CLIENTS : Math.max(...CLIENTS),
    WARM_UP_SECONDS,
    scenario.query,
    scenario.args,
  );
  for (const clients of scenario.tableOnly ? [TABLE_CLIENTS] : CLIENTS) {
    const { best: http, attempts } = await leastDisturbed(
      `${scenario.name} @${clients}`,
      { quietWaitSeconds: QUIET_WAIT_SECONDS, otherShareLimit: OTHER_SHARE_LIMIT, retries: RETRIES },
      () => httpLoad(clients, SECONDS, scenario.query, scenario.args),
      (measured) => measured.cpu?.other.share ?? 0,
    );
    reads.push({ operation: scenario.name, goal: scenario.goal, clients, attempts, http });
    log(
      `${scenario.name} @${clients}: ${http.rps}/s, p50 ${http.p50} ms, p95 ${http.p95} ms, p99 ${http.p99} ms, max ${http.max} ms` +
        `${http.errors ? ` (${http.errors} errors)` : ""}; ${describeCpu(http.cpu)}`,
    );
  }
}
await service.stop();
/** The read of an operation at a number of clients. */
const at = (name: string, clients: number) => reads.find((r) => r.operation === name && r.clients === clients);
/** The goal: under GOAL_P99_MS p99 at GOAL_CLIENTS clients (a p99 of the goal or more: not met). */
const metGoal = (p99: number) => p99 < GOAL_P99_MS;
/** The ten-year table's goal: every spec read under TABLE_GOAL_P99_MS p99 at TABLE_CLIENTS client. */
const metTableGoal = (p99: number) => p99 < TABLE_GOAL_P99_MS;

// 8. The SQL time of one call: calls with new arguments in one statement each, one after another
// on one connection with the token's settings, the second of two rounds (as many calls as take
// about two seconds, 3 to 200); the round trip of each is in it (about 0.1 ms).
const visitorSettings: Record<string, string> = {
  "app.environment_uuid": environment,
  "app.api_token_uuid": apiTokenRow.uuid,
  "app.api_scopes": "",
};
const settingsSql =
  Object.entries(visitorSettings)
    .map(([k, v]) => `set ${k} = '${v}'`)
    .join("; ") + "; set role app_visitor";
// A call that takes over a second is timed once; one cancelled by the service's statement timeout
// (15 s) shows as "> 15000", one that fails otherwise as "error" (its message in the log).
const STATEMENT_TIMEOUT_MS = 15_000;
const perCall: Record<string, number | string> = {};
{
  const client = await connect(superuserUrl);
  await client.query(`${settingsSql}; set statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
  for (const scenario of scenarios) {
    const sql = scenario.sql;
    if (!sql) continue;
    const timed = async (calls: number) => {
      const started = performance.now();
      for (let i = 0; i < calls; i++) await client.query(sql(scenario.args()));
      return performance.now() - started;
    };
    try {
      const first = await timed(1);
      if (first > 1_000) {
        perCall[scenario.name] = round(first, 0);
        continue;
      }
      const calls = Math.max(3, Math.min(200, Math.round(2_000 / Math.max(first, 0.1))));
      await timed(calls);
      perCall[scenario.name] = round((await timed(calls)) / calls, 2);
    } catch (error) {
      if ((error as { code?: string }).code === "57014")
        perCall[scenario.name] = `> ${STATEMENT_TIMEOUT_MS}`; // query_canceled
      else {
        log(`SQL per call, ${scenario.name}: ${(error as Error).message}`);
        perCall[scenario.name] = "error";
      }
    }
  }
  await client.end();
  log(
    `SQL ms per call: ${Object.entries(perCall)
      .map(([k, v]) => `${k} ${v}`)
      .join("; ")}`,
  );
}

// 9. Plans of every operation over the goal at 16 clients: its SQL call with the token's settings,
// the statements inside shown by auto_explain with ANALYZE and BUFFERS, after a few calls with
// other arguments so that the cached plans are the ones a busy server uses. (Not measured at
// GOAL_CLIENTS clients: not explained.)
const slow = scenarios.filter((s) => {
  const p99 = at(s.name, GOAL_CLIENTS)?.http.p99;
  const tableP99 = at(s.name, TABLE_CLIENTS)?.http.p99;
  return s.sql && ((p99 !== undefined && !metGoal(p99)) || (tableP99 !== undefined && !metTableGoal(tableP99)));
});
const plans: Array<{
  operation: string;
  call: string;
  milliseconds: number;
  statements: Array<Omit<ExplainedStatement, "root">>;
}> = [];
if (slow.length > 0) {
  const explainer = await connect(superuserUrl);
  const explain = await autoExplain(explainer, settingsSql);
  await explainer.query(`set statement_timeout = ${2 * STATEMENT_TIMEOUT_MS}`);
  for (const scenario of slow) {
    const sql = scenario.sql!;
    const quick = typeof perCall[scenario.name] === "number" && (perCall[scenario.name] as number) < 1_000;
    const call = sql(scenario.args());
    try {
      for (let i = 0; i < (quick ? 6 : 0); i++) await explainer.query(sql(scenario.args()));
      explain.clear();
      await explainer.query(call);
    } catch (error) {
      plans.push({ operation: scenario.name, call, milliseconds: NaN, statements: [] });
      log(`\nEXPLAIN ${scenario.name}: ${(error as Error).message}`);
      continue;
    }
    const statements = explain.statements(300).map(({ query, milliseconds, plan }) => ({ query, milliseconds, plan }));
    const top = statements.at(-1);
    plans.push({ operation: scenario.name, call, milliseconds: top?.milliseconds ?? NaN, statements });
    log(`\nEXPLAIN (ANALYZE, BUFFERS) ${scenario.name}: ${top?.milliseconds} ms\n  ${call}`);
    for (const statement of statements) {
      log(`  ${statement.milliseconds} ms  ${statement.query}`);
      for (const line of statement.plan) log(`      ${line}`);
    }
  }
  await explainer.end();
}

// 10. The figures (an operation not measured at GOAL_CLIENTS clients has not met the goal).
const goalRows = scenarios.filter((s) => s.goal);
const missed = goalRows.filter((s) => !metGoal(at(s.name, GOAL_CLIENTS)?.http.p99 ?? Infinity));
const verdict =
  goalRows.length === 0
    ? ""
    : !CLIENTS.includes(GOAL_CLIENTS)
      ? `The goal at ${GOAL_CLIENTS} clients was not measured in this run (--clients ${CLIENTS.join(",")}).`
      : missed.length === 0
        ? `Goal met: every p2000Messages and p2000MessagesCount filter under ${GOAL_P99_MS} ms p99 at ${GOAL_CLIENTS} clients.`
        : `Goal NOT met for ${missed.length} of ${goalRows.length}: ${missed.map((s) => `${s.name} (p99 ${at(s.name, GOAL_CLIENTS)?.http.p99} ms)`).join("; ")}.`;
log(`\n${verdict}`);
const tableRows = scenarios.map((s) => ({ scenario: s, read: at(s.name, TABLE_CLIENTS) }));
/** Met: measured, without an error, and under the goal (an answer that fails fast is not a fast read). */
const tableMet = (read: Read | undefined) =>
  read !== undefined && read.http.errors === 0 && metTableGoal(read.http.p99);
const tableMissed = tableRows.filter((r) => !tableMet(r.read));
const tableVerdict =
  tableMissed.length === 0
    ? `Ten-year table: every one of the ${tableRows.length} reads under ${TABLE_GOAL_P99_MS} ms p99 at ${TABLE_CLIENTS} client.`
    : `Ten-year table: ${tableMissed.length} of ${tableRows.length} reads at ${TABLE_GOAL_P99_MS} ms p99 or more at ${TABLE_CLIENTS} client: ` +
      `${tableMissed.map((r) => `${r.scenario.name} (${r.read ? `p99 ${r.read.http.p99} ms, ${r.read.http.errors} errors` : "not measured"})`).join("; ")}.`;
log(tableVerdict);
const loadFigures = loaded.load;
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  clients: CLIENTS,
  seconds: SECONDS,
  target: TARGET,
  pattern: PATTERN,
  history: { ...shape, t0: loaded.t0, loadedUntil: loaded.loaded_until },
  load: loadFigures,
  thisRunLoad: load,
  tables,
  indexSizes,
  loadAverage,
  arguments: {
    busiestUnit,
    typicalUnits: typicalUnits.length,
    regionCapcodes: regionCapcodes.map((c) => c.name),
    monitorUuid,
  },
  checks,
  failing,
  goal: { p99Ms: GOAL_P99_MS, clients: GOAL_CLIENTS },
  tableGoal: { p99Ms: TABLE_GOAL_P99_MS, clients: TABLE_CLIENTS },
  feedFilling,
  reads,
  perCall,
  plans,
};
const cell = (r: Read | undefined) => (r ? `${r.http.p99}` : "-");
const loadLine =
  loadFigures.totalSeconds !== undefined
    ? `Load (${loadFigures.messagesStored?.toLocaleString("en")} messages): ${(loadFigures.totalSeconds / 60).toFixed(1)} minutes in all: pattern ` +
      `${loadFigures.patternSeconds} s (${loadFigures.patternPages?.toLocaleString("en")} pages), enrichment of ${loadFigures.distinctTexts?.toLocaleString("en")} ` +
      `distinct texts ${loadFigures.enrichSeconds} s, the INSERTs ${loadFigures.insertSeconds} s (${loadFigures.messagesPerSecond} messages/s on two ` +
      `connections, every trigger), monitor matches ${loadFigures.monitorMatchesSeconds} s, VACUUM (ANALYZE) ${loadFigures.vacuumAnalyzeSeconds} s, ` +
      `CHECKPOINT ${loadFigures.checkpointSeconds} s` +
      (loadFigures.loadOtherShare !== undefined
        ? `; during the INSERTs PostgreSQL had ${loadFigures.loadPostgresShare}% of the two cores, ` +
          `other processes on the machine ${loadFigures.loadOtherShare}%, idle ${loadFigures.loadIdleShare}%.`
        : ".")
    : "Load: not recorded.";
log(
  `Wrote ${writeResults(RESULTS, `${RESULTS}-latest.md`, result, [
    `P2000 history benchmark, ${result.date.slice(0, 10)}, ${result.machine} (load average ${loadAverage.join(" ")} before the measurements): ` +
      `${shape.messages.toLocaleString("en")} messages from ${shape.first.slice(0, 10)} to ${shape.last.slice(0, 10)} ` +
      `(${((lastMs - firstMs) / (365.25 * DAY_SECONDS * 1000)).toFixed(1)} years); ` +
      sizes
        .map(
          (s) =>
            `${s.name.replace(/^app_(public|hidden)\./, "")} ${s.rows.toLocaleString("en")} rows, ${s.mb} MB + ${s.index_mb} MB indexes`,
        )
        .join("; ") +
      ".",
    "",
    loadLine,
    "",
    `Closed loops over HTTP (API token; the service in its own process on the same two cores as the load generator and PostgreSQL), ${SECONDS} s per ` +
      `operation after ${WARM_UP_SECONDS} s of warm-up, new arguments on every request (days, months and years anywhere in the history). ` +
      `Goal: p2000Messages and p2000MessagesCount under ${GOAL_P99_MS} ms p99 at ${GOAL_CLIENTS} clients.`,
    "",
    `| operation | goal | ${CLIENTS.map((c) => `p99 ms @${c}`).join(" | ")} | ${CLIENTS.map((c) => `req/s @${c}`).join(" | ")} | p50 ms @${GOAL_CLIENTS} | SQL ms per call |`,
    `| --- | --- | ${CLIENTS.map(() => "---").join(" | ")} | ${CLIENTS.map(() => "---").join(" | ")} | --- | --- |`,
    ...scenarios
      .filter((s) => !s.tableOnly)
      .map(
        (s) =>
          `| ${s.name} | ${!s.goal || !CLIENTS.includes(GOAL_CLIENTS) ? "report" : metGoal(at(s.name, GOAL_CLIENTS)?.http.p99 ?? Infinity) ? "met" : "**not met**"} | ` +
          `${CLIENTS.map((c) => cell(at(s.name, c))).join(" | ")} | ${CLIENTS.map((c) => `${at(s.name, c)?.http.rps ?? "-"}`).join(" | ")} | ` +
          `${at(s.name, GOAL_CLIENTS)?.http.p50 ?? "-"} | ${perCall[s.name] ?? "-"} |`,
      ),
    "",
    verdict,
    "",
    `The ten-year table: every public read of the spec (interface-spec.md 4.3) at ${TABLE_CLIENTS} client with its default arguments (the ` +
      `required ones drawn anywhere in the histories: bench/spec-reads.ts) and the P2000 filters above; the other feeds' histories at their ` +
      `own benches' sizes (bench/feed-histories.ts). Goal: p99 under ${TABLE_GOAL_P99_MS} ms.`,
    "",
    `| operation | p50 ms | p99 ms | req/s | errors | goal |`,
    "| --- | --- | --- | --- | --- | --- |",
    ...tableRows.map(
      ({ scenario, read }) =>
        `| ${scenario.name} | ${read?.http.p50 ?? "-"} | ${read?.http.p99 ?? "-"} | ${read?.http.rps ?? "-"} | ` +
        `${read?.http.errors ?? "-"} | ${!read ? "not measured" : tableMet(read) ? "met" : "**not met**"} |`,
    ),
    "",
    tableVerdict,
    "",
    "SQL ms per call: the field's SQL function with new arguments, one call after another on one connection with the token's settings.",
    "",
    "Where the two cores went during the HTTP runs at 16 clients (ms of CPU per request, and share of the cores' time):",
    "",
    "| operation | service process | PostgreSQL | load generator | kernel interrupts | other | idle |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...reads
      .filter((r) => r.clients === GOAL_CLIENTS && r.http.cpu)
      .map((r) => {
        const c = r.http.cpu!;
        const part = (p: { msPerRequest: number; share: number }) => `${p.msPerRequest} (${p.share}%)`;
        return `| ${r.operation} | ${part(c.service)} | ${part(c.postgres)} | ${part(c.loadGenerator)} | ${part(c.interrupts)} | ${part(c.other)} | ${c.idle.share}% |`;
      }),
    "",
    ...(failing.length > 0
      ? [`Operations that answered with an error when first asked: ${failing.join("; ")}.`, ""]
      : []),
    `Errors (transport, non-200, timeouts or GraphQL errors): ${reads.reduce((sum, r) => sum + r.http.errors, 0)}. Measurements repeated because other ` +
      `processes took more than ${OTHER_SHARE_LIMIT}% of the cores: ${
        reads
          .filter((r) => r.attempts > 1)
          .map((r) => `${r.operation} @${r.clients} ` + `(${r.attempts} attempts)`)
          .join(", ") || "none"
      }.`,
    "",
    `Indexes of p2000_messages: ${indexSizes.map((i) => `${i.name} ${i.mb} MB`).join(", ")}.`,
    ...(plans.length > 0
      ? [
          "",
          "Plans of the operations over the goal (auto_explain as the visitor, cached plans):",
          "",
          ...plans.flatMap((p) => [
            `- ${p.operation}: ${p.milliseconds} ms`,
            "",
            "  ```",
            ...p.statements.flatMap((s) => [
              `  ${s.milliseconds} ms  ${s.query}`,
              ...s.plan.map((line) => `      ${line}`),
            ]),
            "  ```",
            "",
          ]),
        ]
      : []),
  ])}`,
);
await owner.end();
await database.close();
process.exit(0);
