// Ten years of P2000 history: `npm run bench:p2000-history -- [--messages 10000000] [--seconds 10]
// [--clients 1,16] [--fresh] [--only text|text] [--results name]`.
// It builds its own embedded database under bench/.data-history (kept between runs; --fresh starts
// over) through the project's start path (bench-database.ts: migrations and reference data), then
// writes the history in SQL:
// 1. A pattern: thirteen weeks of realistic traffic (lib/p2000/traffic.ts, FLEX lines parsed by
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
//    connections load the two halves of the decade side by side (no dossier spans the middle), and
//    the tables are analysed as the rows arrive (lib/db/fresh-statistics.ts, the FLEX reader's rule).
//    A later run that finds the history more than a day old adds the missing days at the end.
// 3. A region monitor (safety region 17) in the operator environment, with the matches the
//    matcher would have stored over the decade (its real alerts), for the monitor filter.
// 4. VACUUM (ANALYZE) of the P2000 tables and a CHECKPOINT, the load time of each step measured.
// Then the service runs as its own process (server.ts) and each read is asked over HTTP with an
// API token (autocannon, closed loop, new arguments on every request) at 1 and 16 connections,
// 10 s each after a warm-up, at a quiet moment of the shared cores (as bench/rss.ts waits for
// one), with the CPU split of each run (bench/cpu-accounting.ts). p2000Messages(first: 50) and
// p2000MessagesCount with the spec's filters (none; capcodes; capcode names; a region through a
// monitor; sended of a day, a month and a year; disciplines; exerciseType; and combinations) have
// the goal: under 30 ms p99 at 16 clients. Dossiers, statistics and hub analytics are reported.
// The SQL time of one call is measured without round trips, and every operation over 30 ms p99 at
// 16 clients is explained as the visitor (auto_explain with the statements inside the functions).
// Figures go to bench/results/<name>-latest.md and a dated JSON file (name: --results, default
// p2000-history); --only measures the operations whose name contains one of the texts.
import fs from "node:fs";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { analyzeAsRowsArrive } from "../lib/db/fresh-statistics.ts";
import { pgUrl } from "../lib/db/pg-url.ts";
import { P2000_STORED_TABLES } from "../lib/p2000/batch-store.ts";
import { parseFlexLine } from "../lib/p2000/flex-parser.ts";
import { generateTraffic } from "../lib/p2000/traffic.ts";
import { makeCpuSampler, cpuSplit, describeCpu, findServicePid } from "./cpu-accounting.ts";
import { openBenchDatabase, seeded } from "./bench-database.ts";
import { machine, percentile, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

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
const DAY_SECONDS = 86_400;
// The pattern: thirteen weeks from a Monday (so that it repeats with the weekdays), about 2,740
// messages a day (10 million in ten years) once retransmissions and merged copies are counted.
const PATTERN = { anchor: "2025-01-06T00:00:00Z", days: 91, perDay: 2340, seed: 20261123 };
const PATTERN_SECONDS = PATTERN.days * DAY_SECONDS;
const SOURCE = "bench-history";
const MONITOR_REGION = "17";
const log = (line: string) => console.log(line);
const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const seconds = (since: number) => round((performance.now() - since) / 1000);

const { dataDir: DATA_DIR, config, database, owner } = await openBenchDatabase("history", 54357, values.fresh ?? false);
const rootUrl = database.rootUrl;
if (!rootUrl) throw new Error("CHECKPOINT and auto_explain need the superuser URL of the embedded cluster.");
const superuserUrl = pgUrl(rootUrl, { database: config.databaseName });

async function connect(url = database.ownerUrl): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  return client;
}

// 1. The pattern and its enrichment.
interface Meta { t0: string | null; loaded_until: string | null; complete: boolean; load: Record<string, number> }
await owner.query(`
  create schema if not exists bench_history;
  create table if not exists bench_history.meta (pattern jsonb not null, t0 timestamptz, loaded_until timestamptz,
    complete boolean not null default false, load jsonb not null default '{}');
  create table if not exists bench_history.enrichments (id serial primary key, message text not null, capcodes text[] not null,
    e app_hidden.p2000_enrichment, unique (message, capcodes));
  create table if not exists bench_history.pattern (n integer primary key, at_second integer not null, message text not null,
    capcodes text[] not null, enrichment_id integer references bench_history.enrichments, part smallint);
  create index if not exists pattern_at_second_idx on bench_history.pattern (at_second)`);
const load: Record<string, number> = {};
const cpuSample = makeCpuSampler(DATA_DIR);
let meta = (await owner.query<Meta>("select t0, loaded_until, complete, load from bench_history.meta")).rows[0];
if (meta && !meta.complete) throw new Error("An earlier load of the history was interrupted; start over with --fresh.");
if (!meta) {
  log(`Pattern: ${PATTERN.days} days of traffic from ${PATTERN.anchor}, parsed and enriched ...`);
  let started = performance.now();
  const anchor = new Date(PATTERN.anchor);
  const pages: Array<{ s: number; m: string; c: string[] }> = [];
  for (const line of generateTraffic({ from: anchor, to: new Date(anchor.getTime() + PATTERN_SECONDS * 1000), perDay: PATTERN.perDay, seed: PATTERN.seed })) {
    const parsed = parseFlexLine(line);
    if (parsed.kind !== "page") throw new Error(`The traffic generator wrote a line the parser does not take: ${line}`);
    pages.push({ s: Math.round((parsed.page.sended.getTime() - anchor.getTime()) / 1000), m: parsed.page.text, c: parsed.page.capcodes });
  }
  await owner.query("truncate bench_history.pattern, bench_history.enrichments");
  for (let i = 0; i < pages.length; i += 20_000) {
    await owner.query(`
      insert into bench_history.pattern (n, at_second, message, capcodes)
      select p.n, p.s, p.m, array(select json_array_elements_text(p.c)) from json_to_recordset($1::json) p (n int, s int, m text, c json)`,
      [JSON.stringify(pages.slice(i, i + 20_000).map((page, k) => ({ n: i + k + 1, ...page })))]);
  }
  await owner.query(`insert into bench_history.enrichments (message, capcodes) select distinct message, capcodes from bench_history.pattern`);
  await owner.query(`update bench_history.pattern p set enrichment_id = e.id from bench_history.enrichments e
                      where e.message = p.message and e.capcodes = p.capcodes`);
  load.patternSeconds = seconds(started);
  started = performance.now();
  // The ingestion's enrichment, on both cores.
  await Promise.all([0, 1].map(async (part) => {
    const client = await connect();
    try {
      await client.query(`update bench_history.enrichments x
                             set e = app_hidden.p2000_enrich(btrim(x.message), app_hidden.p2000_clean_capcodes(x.capcodes))
                           where x.id % 2 = $1`, [part]);
    } finally {
      await client.end();
    }
  }));
  load.enrichSeconds = seconds(started);
  // Two parts for the two loading connections, as the FLEX reader splits a batch
  // (lib/p2000/batch-store.ts): whole safety regions, about equal in size (the biggest first, each
  // to the smaller part), and every copy of a text in the part of its first copy's region. A
  // dossier never spans two regions, so each connection groups its own messages as if it were alone.
  await owner.query(`
    with regions as (select coalesce((x.e).region_uuid::text, '') as region, count(*) as pages from bench_history.pattern p
                       join bench_history.enrichments x on x.id = p.enrichment_id group by 1),
         ranked as (select r.region, r.pages, row_number() over (order by r.pages desc, r.region) as k from regions r),
         parts as (select r.region, case when k % 4 in (1, 0) then 0 else 1 end as part from ranked r),
         first_copy as (select distinct on (p.message) p.message, pa.part from bench_history.pattern p
                          join bench_history.enrichments x on x.id = p.enrichment_id
                          join parts pa on pa.region = coalesce((x.e).region_uuid::text, '') order by p.message, p.n)
    update bench_history.pattern p set part = f.part from first_copy f where f.message = p.message`);
  const { rows: [counts] } = await owner.query<{ pages: number; texts: number }>(
    "select (select count(*)::int from bench_history.pattern) as pages, (select count(*)::int from bench_history.enrichments) as texts");
  load.patternPages = counts.pages;
  load.distinctTexts = counts.texts;
  log(`  ${counts.pages.toLocaleString("en")} pages, ${counts.texts.toLocaleString("en")} distinct texts with their capcodes: ` +
    `${load.patternSeconds} s to generate and store, ${load.enrichSeconds} s to enrich`);
  await owner.query("analyze bench_history.pattern, bench_history.enrichments");
  await owner.query("insert into bench_history.meta (pattern) values ($1)", [JSON.stringify(PATTERN)]);
  meta = { t0: null, loaded_until: null, complete: false, load: {} };
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
 * Loads [from, to) a day per statement, in time order, on two connections, each the messages of
 * its part (its regions). Both parts of one range were never loaded in parallel on two halves of
 * the decade: a dossier lookup (app_hidden.p2000_assign_dossier) reads a region's dossiers newest
 * first from the message's time on, so a connection writing the older half walked through every
 * dossier the other had written, and slowed to a few hundred messages a second.
 */
async function loadHistory(from: Date, to: Date): Promise<number> {
  const days: Array<[number, number]> = [];
  for (let s = toSecond(from); s < toSecond(to); s += DAY_SECONDS) days.push([s, Math.min(s + DAY_SECONDS, toSecond(to))]);
  const statistics = analyzeAsRowsArrive(owner, P2000_STORED_TABLES, "app_public.p2000_messages");
  let analysing = Promise.resolve();
  let stored = 0;
  let doneDays = 0;
  let nextReport = 0.05;
  const started = performance.now();
  const cpuBefore = cpuSample(undefined);
  await Promise.all([0, 1].map(async (part) => {
    const client = await connect();
    try {
      await client.query("set synchronous_commit = off");
      for (const [a, b] of days) {
        let rowCount = 0;
        for (let attempt = 1; ; attempt++) {
          try {
            rowCount = (await client.query({ name: "insert-day", text: INSERT_DAY, values: [a, b, part] })).rowCount ?? 0;
            break;
          } catch (error) {
            if ((error as { code?: string }).code !== "40P01" || attempt >= 5) throw error; // a deadlock between the parts: again
          }
        }
        stored += rowCount;
        doneDays += 0.5;
        // ANALYZE when the rows since the last one reach autovacuum's rule (one at a time).
        analysing = analysing.then(() => statistics.stored(rowCount));
        await analysing;
        if (doneDays / days.length >= nextReport) {
          nextReport += 0.05;
          const elapsed = (performance.now() - started) / 1000;
          log(`  ${Math.round((100 * doneDays) / days.length)}%: ${stored.toLocaleString("en")} messages, ${elapsed.toFixed(0)} s, ` +
            `${Math.round(stored / elapsed)}/s; load average ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
        }
      }
    } finally {
      await client.end();
    }
  }));
  // Where the cores went: PostgreSQL's share, and what other processes on the machine took.
  const cpu = cpuSplit(cpuBefore, cpuSample(undefined), stored);
  if (cpu) {
    Object.assign(load, { loadPostgresShare: cpu.postgres.share, loadOtherShare: cpu.other.share, loadIdleShare: cpu.idle.share });
    log(`  cores during the INSERTs: PostgreSQL ${cpu.postgres.share}%, other processes ${cpu.other.share}%, idle ${cpu.idle.share}%`);
  }
  return stored;
}

const { rows: [{ pages: patternPages }] } = await owner.query<{ pages: number }>("select count(*)::int as pages from bench_history.pattern");
const historyDays = (TARGET / patternPages) * PATTERN.days;
if (!meta.loaded_until) {
  const t0 = new Date(Math.floor((historyEnd.getTime() - historyDays * DAY_SECONDS * 1000) / 3_600_000) * 3_600_000);
  log(`Loading the history: ${historyDays.toFixed(0)} days (${(historyDays / 365.25).toFixed(1)} years) from ${t0.toISOString()} ` +
    `to ${historyEnd.toISOString()}, about ${TARGET.toLocaleString("en")} messages, a day per INSERT on two connections (regions split between them) ...`);
  await owner.query("update bench_history.meta set t0 = $1", [t0]);
  const started = performance.now();
  load.messagesStored = await loadHistory(t0, historyEnd);
  load.insertSeconds = seconds(started);
  load.messagesPerSecond = Math.round(load.messagesStored / load.insertSeconds);
  log(`  ${load.messagesStored.toLocaleString("en")} messages in ${load.insertSeconds} s (${load.messagesPerSecond}/s)`);
  await owner.query("update bench_history.meta set loaded_until = $1", [historyEnd]);
} else if (new Date(meta.loaded_until).getTime() < historyEnd.getTime() - DAY_SECONDS * 1000) {
  const from = new Date(meta.loaded_until);
  log(`Adding the history since ${from.toISOString()} up to ${historyEnd.toISOString()} ...`);
  const started = performance.now();
  load.topUpMessages = await loadHistory(from, historyEnd);
  load.topUpSeconds = seconds(started);
  await owner.query("update bench_history.meta set loaded_until = $1", [historyEnd]);
}

// 3. A monitor of safety region 17 in the operator environment, and the matches the matcher would
// have stored: the region's real alerts (the monitor does not include exercises).
const environment = database.operatorEnvironmentUuid;
const monitorUuid = await (async () => {
  const { rows: [found] } = await owner.query<{ uuid: string }>(
    "select uuid from app_public.monitors where environment_uuid = $1 and name = 'bench history region 17'", [environment]);
  if (found) return found.uuid;
  const { rows: [made] } = await owner.query<{ uuid: string }>(
    "insert into app_public.monitors (environment_uuid, name, query) values ($1, 'bench history region 17', $2) returning uuid",
    [environment, JSON.stringify({ regions: [MONITOR_REGION] })]);
  return made.uuid;
})();
if (load.messagesStored !== undefined || load.topUpMessages !== undefined) {
  const started = performance.now();
  const { rowCount } = await owner.query(`
    insert into app_hidden.monitor_matches (monitor_uuid, message_uuid, dossier_uuid, sended, matched_at)
    select $1, m.uuid, m.dossier_uuid, m.sended, m.sended from app_public.p2000_messages m
     where m.region_uuid = (select g.uuid from app_public.p2000_regions g where g.number = $2) and m.exercise_type = 'none'
       and m.sended >= coalesce((select max(x.sended) from app_hidden.monitor_matches x where x.monitor_uuid = $1), '-infinity')
    on conflict do nothing`, [monitorUuid, MONITOR_REGION]);
  load.monitorMatches = rowCount ?? 0;
  load.monitorMatchesSeconds = seconds(started);
  log(`Monitor of region ${MONITOR_REGION}: ${load.monitorMatches.toLocaleString("en")} matches in ${load.monitorMatchesSeconds} s`);

  // 4. Statistics and visibility maps for the reads; the load's dirty pages and WAL written now
  // rather than by the checkpointer during the measurements.
  let started2 = performance.now();
  await owner.query(`vacuum (analyze) ${[...P2000_STORED_TABLES, "app_hidden.monitor_matches"].join(", ")}`);
  load.vacuumAnalyzeSeconds = seconds(started2);
  started2 = performance.now();
  const root = await connect(superuserUrl);
  await root.query("checkpoint");
  await root.end();
  load.checkpointSeconds = seconds(started2);
  log(`  VACUUM (ANALYZE) ${load.vacuumAnalyzeSeconds} s, CHECKPOINT ${load.checkpointSeconds} s`);
  if (load.messagesStored !== undefined) {
    load.totalSeconds = round((load.patternSeconds ?? 0) + (load.enrichSeconds ?? 0) + load.insertSeconds + load.monitorMatchesSeconds +
      load.vacuumAnalyzeSeconds + load.checkpointSeconds);
    log(`Load: ${load.totalSeconds} s in all (${(load.totalSeconds / 60).toFixed(1)} minutes)`);
  }
  await owner.query("update bench_history.meta set complete = true, load = load || $1::jsonb", [JSON.stringify(load)]);
}
const loaded = (await owner.query<Meta>("select t0, loaded_until, complete, load from bench_history.meta")).rows[0];
await owner.query("select app_private.refresh_analytics_cache()");

// What the tables hold.
const P2000_TABLES = ["app_public.p2000_messages", "app_public.p2000_message_capcodes", "app_public.p2000_dossiers",
  "app_public.p2000_dossier_events", "app_public.p2000_capcodes", "app_hidden.monitor_matches", "app_hidden.p2000_hourly_counts",
  "app_hidden.p2000_daily_counts"];
const { rows: sizes } = await owner.query<{ name: string; rows: number; mb: number; index_mb: number }>(`
  select t.name, c.reltuples::bigint::float8 as rows, round(pg_table_size(c.oid) / 1048576.0)::float8 as mb,
         round(pg_indexes_size(c.oid) / 1048576.0)::float8 as index_mb
    from unnest($1::text[]) t(name) join pg_class c on c.oid = t.name::regclass`, [P2000_TABLES]);
const tables = Object.fromEntries(sizes.map((s) => [s.name, { rows: s.rows, mb: s.mb, indexMb: s.index_mb }]));
const { rows: indexSizes } = await owner.query<{ name: string; mb: number }>(`
  select c.relname as name, round(pg_relation_size(c.oid) / 1048576.0)::float8 as mb
    from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = 'app_public.p2000_messages'::regclass order by c.relname`);
const { rows: [shape] } = await owner.query<{ messages: number; first: string; last: string }>(`
  select count(*)::int as messages, min(sended)::text as first, max(sended)::text as last from app_public.p2000_messages`);
log(`History: ${shape.messages.toLocaleString("en")} messages from ${shape.first} to ${shape.last}; ` +
  sizes.map((s) => `${s.name} ${s.rows.toLocaleString("en")} rows ${s.mb} MB + ${s.index_mb} MB indexes`).join("; "));

// 5. The arguments: capcodes and days drawn from the history (seeded, the same on every run).
const random = seeded(2030);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
const capcodeUuid = async (name: string) =>
  (await owner.query<{ uuid: string }>("select uuid from app_public.p2000_capcodes where name = $1", [name])).rows[0].uuid;
// From the pattern (a thirteenth of a tenth of the history): every capcode's share of the pages.
const { rows: unitCapcodes } = await owner.query<{ name: string; pages: number }>(`
  select cc as name, count(*)::int as pages from bench_history.pattern p, unnest(app_hidden.p2000_clean_capcodes(p.capcodes)) cc
   where app_hidden.p2000_capcode_kind(cc, null) = 'unit' group by cc order by count(*) desc, cc`);
const busiestUnit = unitCapcodes[0].name;
const typicalUnits = await Promise.all(unitCapcodes.slice(Math.floor(unitCapcodes.length / 4), Math.floor(unitCapcodes.length / 4) + 50)
  .map((c) => capcodeUuid(c.name)));
const { rows: regionCapcodes } = await owner.query<{ name: string }>(`
  select cc as name from bench_history.pattern p join bench_history.enrichments x on x.id = p.enrichment_id,
         unnest(app_hidden.p2000_clean_capcodes(p.capcodes)) cc
   where (x.e).region_uuid = (select g.uuid from app_public.p2000_regions g where g.number = $1)
     and app_hidden.p2000_capcode_kind(cc, null) = 'unit'
   group by cc order by count(*) desc, cc limit 10`, [MONITOR_REGION]);
const busiestUnitUuid = await capcodeUuid(busiestUnit);
const groupCallUuid = await capcodeUuid("2029568");
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
type Filter = { sended?: { from: string; to: string }; capcodes?: string[]; disciplines?: string[]; capcode?: { names: string[] };
  exerciseType?: string; monitor?: { uuid: string } };
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const textArray = (list?: string[]) => (list ? `array[${list.map(lit).join(", ")}]::text[]` : "null");
const filterSql = (f: Filter) => `row(${f.sended ? `row(${lit(f.sended.from)}, ${lit(f.sended.to)})::app_public.date_range` : "null"}, ` +
  `${textArray(f.capcodes)}, null, ${textArray(f.disciplines)}, null, ` +
  `${f.capcode ? `row(${textArray(f.capcode.names)})::app_public.p2000_capcode_names_filter` : "null"}, ` +
  `${f.exerciseType ? lit(f.exerciseType) : "null"}, ${f.monitor ? `row(${lit(f.monitor.uuid)})::app_public.monitor_ref` : "null"}` +
  `)::app_public.p2000_message_filter`;
const filters: Array<{ name: string; make: () => Filter }> = [
  { name: "no filter", make: () => ({}) },
  { name: `capcodes: the busiest unit capcode (${busiestUnit})`, make: () => ({ capcodes: [busiestUnitUuid] }) },
  { name: "capcodes: a typical unit capcode", make: () => ({ capcodes: [pick(typicalUnits)] }) },
  { name: "capcodes: a group call capcode (2029568, every ambulance call)", make: () => ({ capcodes: [groupCallUuid] }) },
  { name: `capcode names: region ${MONITOR_REGION}'s 10 busiest unit capcodes`, make: () => ({ capcode: { names: regionCapcodes.map((c) => c.name.padStart(9, "0")) } }) },
  { name: `monitor: safety region ${MONITOR_REGION}`, make: () => ({ monitor: { uuid: monitorUuid } }) },
  { name: "sended: a day", make: () => ({ sended: range(1) }) },
  { name: "sended: a month", make: () => ({ sended: range(30) }) },
  { name: "sended: a year", make: () => ({ sended: range(365) }) },
  { name: "disciplines: Brandweer", make: () => ({ disciplines: ["Brandweer"] }) },
  { name: "disciplines: KNRM (1%)", make: () => ({ disciplines: ["knrm"] }) },
  { name: "exerciseType: proefalarm", make: () => ({ exerciseType: "proefalarm" }) },
  { name: "exerciseType: all", make: () => ({ exerciseType: "all" }) },
  { name: "capcodes (typical unit) + sended: a year", make: () => ({ capcodes: [pick(typicalUnits)], sended: range(365) }) },
  { name: "disciplines: Brandweer + sended: a month", make: () => ({ disciplines: ["Brandweer"], sended: range(30) }) },
  { name: `monitor (region ${MONITOR_REGION}) + sended: a month`, make: () => ({ monitor: { uuid: monitorUuid }, sended: range(30) }) },
];
interface Scenario { name: string; goal: boolean; query: string; args: () => Record<string, unknown>; sql?: (args: Record<string, unknown>) => string }
const LIST = "query ($f: P2000MessageFilterInput) { p2000Messages(first: 50, filter: $f) { uuid message sended } }";
const COUNT = "query ($f: P2000MessageFilterInput) { p2000MessagesCount(filter: $f) }";
const STATS_FIELDS = "total perDay { date count } byDiscipline { name count } byUrgency { key count } byRegion { key count }";
const allScenarios: Scenario[] = [
  ...filters.map((f) => ({ name: `p2000Messages(first: 50) ${f.name}`, goal: true, query: LIST, args: () => ({ f: f.make() }),
    sql: (a: Record<string, unknown>) => `select count(*) from app_public.p2000_messages(50, 1, ${filterSql(a.f as Filter)})` })),
  ...filters.map((f) => ({ name: `p2000MessagesCount ${f.name}`, goal: true, query: COUNT, args: () => ({ f: f.make() }),
    sql: (a: Record<string, unknown>) => `select app_public.p2000_messages_count(${filterSql(a.f as Filter)})` })),
  { name: "p2000Dossiers(first: 20)", goal: false, query: "{ p2000Dossiers(first: 20) { uuid title messageCount } }", args: () => ({}),
    sql: () => "select count(*) from app_public.p2000_dossiers(20, 1, null)" },
  { name: "p2000Dossiers(first: 20, orderBy: messageCountDesc)", goal: false,
    query: "{ p2000Dossiers(first: 20, filter: { orderBy: \"messageCountDesc\" }) { uuid title messageCount } }", args: () => ({}),
    sql: () => "select count(*) from app_public.p2000_dossiers(20, 1, row('messageCountDesc', null, null, null, null)::app_public.p2000_dossier_filter)" },
  ...(["LAST_24_HOURS", "LAST_7_DAYS", "THIS_YEAR"] as const).map((period) => ({
    name: `p2000Statistics(${period})`, goal: false,
    query: `{ p2000Statistics(period: ${period}) { total byDiscipline { name count } byRegion { key count } byUrgency { key count } busiestHour${period === "THIS_YEAR" ? " byRoadThisYear { key count }" : ""} } }`,
    args: () => ({}), sql: () => `select (app_public.p2000_statistics('${period}')).total` })),
  { name: "p2000MessageStatistics (no filter)", goal: false, query: `{ p2000MessageStatistics { ${STATS_FIELDS} } }`, args: () => ({}),
    sql: () => "select (app_public.p2000_message_statistics(null, 30)).total" },
  { name: "p2000MessageStatistics (a typical unit capcode)", goal: false,
    query: `query ($f: P2000MessageFilterInput) { p2000MessageStatistics(filter: $f) { ${STATS_FIELDS} } }`,
    args: () => ({ f: { capcodes: [pick(typicalUnits)] } }),
    sql: (a) => `select (app_public.p2000_message_statistics(${filterSql(a.f as Filter)}, 30)).total` },
  { name: `p2000MessageStatistics (monitor: region ${MONITOR_REGION})`, goal: false,
    query: `query ($f: P2000MessageFilterInput) { p2000MessageStatistics(filter: $f) { ${STATS_FIELDS} } }`,
    args: () => ({ f: { monitor: { uuid: monitorUuid } } }),
    sql: (a) => `select (app_public.p2000_message_statistics(${filterSql(a.f as Filter)}, 30)).total` },
  { name: "hubAnalyticsHourly", goal: false, query: "{ hubAnalyticsHourly { total hours { hour total } } }", args: () => ({}),
    sql: () => "select (app_public.hub_analytics_hourly(28)).total" },
  { name: "hubAnalyticsUrgency", goal: false, query: "{ hubAnalyticsUrgency { total urgent lessUrgent byCode { key count } } }", args: () => ({}),
    sql: () => "select (app_public.hub_analytics_urgency(28)).total" },
  { name: "hubAnalyticsWeekdays", goal: false, query: "{ hubAnalyticsWeekdays { yesterday yesterdayExpected weekdays { weekday total } } }",
    args: () => ({}), sql: () => "select (app_public.hub_analytics_weekdays(28)).yesterday" },
];
const scenarios = ONLY ? allScenarios.filter((s) => ONLY.some((only) => s.name.toLowerCase().includes(only))) : allScenarios;

// 7. HTTP: the service as its own process, the operator environment's API token.
const service = await startServerProcess({ dataDir: DATA_DIR, pgPort: config.embeddedPgPort });
const apiToken = (await createApiToken(owner, { environmentUuid: environment, name: "bench history", scopes: [] })).plainToken;
const headers = { "content-type": "application/json", authorization: `Bearer ${apiToken}` };
async function graphql(query: string, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(service.graphqlUrl, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  const body = (await response.json()) as { data: Record<string, unknown>; errors?: Array<{ message: string }> };
  if (body.errors) throw new Error(body.errors[0].message);
  return body.data;
}
const servicePid = findServicePid();

function summary(latencies: number[], secondsRun: number) {
  latencies.sort((a, b) => a - b);
  const at = (p: number) => +percentile(latencies, p).toFixed(1);
  return { requests: latencies.length, rps: round(latencies.length / secondsRun), p50: at(50), p95: at(95), p99: at(99),
    max: +(latencies.at(-1) ?? NaN).toFixed(1) };
}

/** Closed-loop HTTP load with new arguments on every request; the latency of every answer, in ms. */
async function httpLoad(clients: number, secondsRun: number, query: string, args: () => Record<string, unknown>) {
  const latencies: number[] = [];
  const before = cpuSample(servicePid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({
      url: service.graphqlUrl,
      connections: clients,
      duration: secondsRun,
      timeout: 30,
      requests: [{ method: "POST", headers, setupRequest: (request) => ({ ...request, body: JSON.stringify({ query, variables: args() }) }) }],
      // A GraphQL error comes with status 200: it counts as a mismatch.
      verifyBody: (body) => !String(body).includes('"errors"'),
    }, (error, finished) => (error ? reject(error) : resolve(finished)));
    instance.on("response", (_client, status, _bytes, time) => {
      if (status === 200) latencies.push(time);
    });
  });
  const cpu = cpuSplit(before, cpuSample(servicePid), latencies.length);
  return { ...summary(latencies, secondsRun), errors: result.errors + result.non2xx + result.mismatches + result.timeouts, cpu };
}

// One answer of each operation checked first, against what the owner counts.
const checks: string[] = [];
const failing: string[] = [];
{
  const list = (await graphql(LIST, {})).p2000Messages as Array<{ sended: string }>;
  const newest = await owner.query<{ sended: Date }>("select max(sended) as sended from app_public.p2000_messages where exercise_type = 'none'");
  if (list.length !== 50 || new Date(list[0].sended).getTime() !== newest.rows[0].sended.getTime()) throw new Error("p2000Messages did not start at the newest message");
  const month = range(30);
  const counted = (await graphql(COUNT, { f: { sended: month, disciplines: ["Brandweer"] } })).p2000MessagesCount as number;
  const { rows: [{ n }] } = await owner.query<{ n: number }>(`
    select count(*)::int as n from app_public.p2000_messages m join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
     where d.name = 'Brandweer' and m.exercise_type = 'none' and m.sended between $1 and $2`, [month.from, month.to]);
  if (counted !== n) throw new Error(`p2000MessagesCount (Brandweer, a month) = ${counted}, the owner counts ${n}`);
  const viaMonitor = (await graphql(COUNT, { f: { monitor: { uuid: monitorUuid }, sended: month } })).p2000MessagesCount as number;
  checks.push(`p2000Messages starts at the newest message (${list[0].sended})`, `p2000MessagesCount (Brandweer, ${month.from.slice(0, 10)} + 30 days) ${counted} as the owner counts`,
    `region ${MONITOR_REGION} through the monitor in that month: ${viaMonitor}`);
  // Every operation once: one that fails (the statement timeout) is measured all the same, its errors counted.
  for (const scenario of allScenarios) {
    const started = performance.now();
    try {
      await graphql(scenario.query, scenario.args());
    } catch (error) {
      failing.push(`${scenario.name}: ${(error as Error).message} after ${Math.round(performance.now() - started)} ms`);
    }
  }
  log(`Check: ${checks.join("; ")}; ${failing.length === 0 ? "every operation answers without errors" : `errors: ${failing.join("; ")}`}`);
}

// Two shared cores: each measurement waits (up to QUIET_WAIT_SECONDS) for a moment when the cores
// are at least 90% idle, and one whose HTTP run saw more than OTHER_SHARE_LIMIT% of the cores go
// to other processes is repeated (at most RETRIES times; the least disturbed one is kept).
const QUIET_WAIT_SECONDS = 30;
const OTHER_SHARE_LIMIT = 10;
const RETRIES = 1;
const loadAverage = fs.existsSync("/proc/loadavg") ? fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number) : [];
const busyShare = async (): Promise<number> => {
  const sample = () => fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const before = sample();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = sample();
  const total = after.reduce((sum, v, i) => sum + v - before[i], 0);
  return total > 0 ? 1 - (after[3] + after[4] - before[3] - before[4]) / total : 0;
};
async function quietMoment(): Promise<void> {
  if (!fs.existsSync("/proc/stat")) return;
  const until = performance.now() + QUIET_WAIT_SECONDS * 1000;
  let busy = await busyShare();
  while (busy > 0.1 && performance.now() < until) busy = await busyShare();
  if (busy > 0.1) log(`  (the cores are still ${Math.round(busy * 100)}% busy with something else after ${QUIET_WAIT_SECONDS} s; measuring anyway)`);
}
type Read = { operation: string; goal: boolean; clients: number; attempts: number; http: Awaited<ReturnType<typeof httpLoad>> };
const reads: Read[] = [];
for (const scenario of scenarios) {
  await httpLoad(Math.max(...CLIENTS), WARM_UP_SECONDS, scenario.query, scenario.args);
  for (const clients of CLIENTS) {
    let best: Read["http"] | undefined;
    let attempts = 0;
    while (attempts <= RETRIES) {
      attempts++;
      await quietMoment();
      const http = await httpLoad(clients, SECONDS, scenario.query, scenario.args);
      const other = http.cpu?.other.share ?? 0;
      if (!best || other < (best.cpu?.other.share ?? 0)) best = http;
      if (other <= OTHER_SHARE_LIMIT) break;
      if (attempts <= RETRIES) log(`  ${scenario.name} @${clients}: ${other}% of the cores went to other processes; measuring again`);
    }
    reads.push({ operation: scenario.name, goal: scenario.goal, clients, attempts, http: best! });
    log(`${scenario.name} @${clients}: ${best!.rps}/s, p50 ${best!.p50} ms, p95 ${best!.p95} ms, p99 ${best!.p99} ms, max ${best!.max} ms` +
      `${best!.errors ? ` (${best!.errors} errors)` : ""}; ${describeCpu(best!.cpu)}`);
  }
}
await service.stop();

// 8. The SQL time of one call: calls with new arguments in one statement each, one after another
// on one connection with the token's settings, the second of two rounds (as many calls as take
// about two seconds, 3 to 200); the round trip of each is in it (about 0.1 ms).
const { rows: [tokenRow] } = await owner.query<{ uuid: string }>(
  "select uuid from app_public.api_tokens where environment_uuid = $1 and name = 'bench history' order by created desc limit 1", [environment]);
const visitorSettings: Record<string, string> = { "app.environment_uuid": environment, "app.api_token_uuid": tokenRow.uuid, "app.api_scopes": "" };
const settingsSql = Object.entries(visitorSettings).map(([k, v]) => `set ${k} = '${v}'`).join("; ") + "; set role app_visitor";
// A call that takes over a second is timed once; one cancelled by the service's statement timeout
// (15 s) shows as "> 15000".
const STATEMENT_TIMEOUT_MS = 15_000;
const perCall: Record<string, number | string> = {};
{
  const client = await connect(superuserUrl);
  await client.query(`${settingsSql}; set statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
  for (const scenario of scenarios.filter((s) => s.sql)) {
    const timed = async (calls: number) => {
      const started = performance.now();
      for (let i = 0; i < calls; i++) await client.query(scenario.sql!(scenario.args()));
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
    } catch {
      perCall[scenario.name] = `> ${STATEMENT_TIMEOUT_MS}`;
    }
  }
  await client.end();
  log(`SQL ms per call: ${Object.entries(perCall).map(([k, v]) => `${k} ${v}`).join("; ")}`);
}

// 9. Plans of every operation over the goal at 16 clients: its SQL call with the token's settings,
// the statements inside shown by auto_explain with ANALYZE and BUFFERS, after a few calls with
// other arguments so that the cached plans are the ones a busy server uses.
interface PlanNode {
  "Node Type": string; "Relation Name"?: string; "Index Name"?: string; "Function Name"?: string; "Actual Rows"?: number;
  "Actual Loops"?: number; "Actual Total Time"?: number; "Shared Hit Blocks"?: number; "Shared Read Blocks"?: number;
  "Index Cond"?: string; "Recheck Cond"?: string; "Sort Method"?: string; "Sort Key"?: string[]; Filter?: string;
  "Rows Removed by Filter"?: number; "Heap Fetches"?: number; Plans?: PlanNode[];
}
const describe = (node: PlanNode): string =>
  `${node["Node Type"]}${node["Index Name"] ? ` using ${node["Index Name"]}` : ""}${node["Relation Name"] ? ` on ${node["Relation Name"]}` : ""}` +
  `${node["Function Name"] ? ` ${node["Function Name"]}()` : ""} (${node["Actual Rows"]} rows${(node["Actual Loops"] ?? 1) > 1 ? ` × ${node["Actual Loops"]}` : ""}, ` +
  `${node["Actual Total Time"]} ms, buffers ${node["Shared Hit Blocks"] ?? 0} hit/${node["Shared Read Blocks"] ?? 0} read)` +
  `${node["Index Cond"] ? ` cond ${node["Index Cond"]}` : ""}${node["Recheck Cond"] ? ` recheck ${node["Recheck Cond"]}` : ""}` +
  `${node["Sort Key"] ? ` by ${node["Sort Key"].join(", ")} (${node["Sort Method"]})` : ""}` +
  `${node.Filter ? ` filter ${node.Filter}` : ""}${node["Rows Removed by Filter"] ? ` (${node["Rows Removed by Filter"]} removed)` : ""}` +
  `${node["Heap Fetches"] !== undefined ? ` heap fetches ${node["Heap Fetches"]}` : ""}`;
const walk = (node: PlanNode, depth = 0): string[] => [`${"  ".repeat(depth)}${describe(node)}`, ...(node.Plans ?? []).flatMap((child) => walk(child, depth + 1))];
const slow = scenarios.filter((s) => s.sql && (reads.find((r) => r.operation === s.name && r.clients === GOAL_CLIENTS)?.http.p99 ?? 0) > GOAL_P99_MS);
const plans: Array<{ operation: string; call: string; milliseconds: number; statements: Array<{ query: string; milliseconds: number; plan: string[] }> }> = [];
if (slow.length > 0) {
  const explainer = await connect(superuserUrl);
  let notices: string[] = [];
  explainer.on("notice", (notice) => notices.push(notice.message ?? ""));
  await explainer.query("load 'auto_explain'");
  await explainer.query(`set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on; set auto_explain.log_buffers = on;
    set auto_explain.log_timing = on; set auto_explain.log_nested_statements = on; set auto_explain.log_format = json;
    set auto_explain.log_level = notice; ${settingsSql}`);
  await explainer.query(`set statement_timeout = ${2 * STATEMENT_TIMEOUT_MS}`);
  for (const scenario of slow) {
    const quick = typeof perCall[scenario.name] === "number" && (perCall[scenario.name] as number) < 1_000;
    const call = scenario.sql!(scenario.args());
    try {
      for (let i = 0; i < (quick ? 6 : 0); i++) await explainer.query(scenario.sql!(scenario.args()));
      notices = [];
      await explainer.query(call);
    } catch (error) {
      plans.push({ operation: scenario.name, call, milliseconds: NaN, statements: [] });
      log(`\nEXPLAIN ${scenario.name}: ${(error as Error).message}`);
      continue;
    }
    const statements = notices.flatMap((text) => {
      const match = /^duration: ([\d.]+) ms\s+plan:\s*([\s\S]*)$/.exec(text);
      if (!match) return [];
      const explain = JSON.parse(match[2]) as { "Query Text": string; Plan: PlanNode };
      return [{ query: explain["Query Text"].replace(/\s+/g, " ").trim().slice(0, 300), milliseconds: Number(match[1]), plan: walk(explain.Plan) }];
    });
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

// 10. The figures.
const at = (name: string, clients: number) => reads.find((r) => r.operation === name && r.clients === clients);
const goalRows = scenarios.filter((s) => s.goal);
const missed = goalRows.filter((s) => (at(s.name, GOAL_CLIENTS)?.http.p99 ?? Infinity) >= GOAL_P99_MS);
const verdict = goalRows.length === 0 ? "" : missed.length === 0
  ? `Goal met: every p2000Messages and p2000MessagesCount filter under ${GOAL_P99_MS} ms p99 at ${GOAL_CLIENTS} clients.`
  : `Goal NOT met for ${missed.length} of ${goalRows.length}: ${missed.map((s) => `${s.name} (p99 ${at(s.name, GOAL_CLIENTS)?.http.p99} ms)`).join("; ")}.`;
log(`\n${verdict}`);
const loadFigures = loaded.load;
const result = { date: new Date().toISOString(), machine: machine(), clients: CLIENTS, seconds: SECONDS, target: TARGET, pattern: PATTERN,
  history: { ...shape, t0: loaded.t0, loadedUntil: loaded.loaded_until }, load: loadFigures, thisRunLoad: load, tables, indexSizes, loadAverage,
  arguments: { busiestUnit, typicalUnits: typicalUnits.length, regionCapcodes: regionCapcodes.map((c) => c.name), monitorUuid },
  checks, failing, goal: { p99Ms: GOAL_P99_MS, clients: GOAL_CLIENTS }, reads, perCall, plans };
const cell = (r: Read | undefined) => (r ? `${r.http.p99}` : "-");
const loadLine = loadFigures.totalSeconds !== undefined
  ? `Load (${loadFigures.messagesStored?.toLocaleString("en")} messages): ${(loadFigures.totalSeconds / 60).toFixed(1)} minutes in all: pattern ` +
    `${loadFigures.patternSeconds} s (${loadFigures.patternPages?.toLocaleString("en")} pages), enrichment of ${loadFigures.distinctTexts?.toLocaleString("en")} ` +
    `distinct texts ${loadFigures.enrichSeconds} s, the INSERTs ${loadFigures.insertSeconds} s (${loadFigures.messagesPerSecond} messages/s on two ` +
    `connections, every trigger), monitor matches ${loadFigures.monitorMatchesSeconds} s, VACUUM (ANALYZE) ${loadFigures.vacuumAnalyzeSeconds} s, ` +
    `CHECKPOINT ${loadFigures.checkpointSeconds} s` +
    (loadFigures.loadOtherShare !== undefined ? `; during the INSERTs PostgreSQL had ${loadFigures.loadPostgresShare}% of the two cores, ` +
      `other processes on the machine ${loadFigures.loadOtherShare}%, idle ${loadFigures.loadIdleShare}%.` : ".")
  : "Load: not recorded.";
log(`Wrote ${writeResults(RESULTS, `${RESULTS}-latest.md`, result, [
  `P2000 history benchmark, ${result.date.slice(0, 10)}, ${result.machine} (load average ${loadAverage.join(" ")} before the measurements): ` +
    `${shape.messages.toLocaleString("en")} messages from ${shape.first.slice(0, 10)} to ${shape.last.slice(0, 10)} ` +
    `(${((lastMs - firstMs) / (365.25 * DAY_SECONDS * 1000)).toFixed(1)} years); ` +
    sizes.map((s) => `${s.name.replace(/^app_(public|hidden)\./, "")} ${s.rows.toLocaleString("en")} rows, ${s.mb} MB + ${s.index_mb} MB indexes`).join("; ") + ".",
  "",
  loadLine,
  "",
  `Closed loops over HTTP (API token; the service in its own process on the same two cores as the load generator and PostgreSQL), ${SECONDS} s per ` +
    `operation after ${WARM_UP_SECONDS} s of warm-up, new arguments on every request (days, months and years anywhere in the history). ` +
    `Goal: p2000Messages and p2000MessagesCount under ${GOAL_P99_MS} ms p99 at ${GOAL_CLIENTS} clients.`,
  "",
  `| operation | goal | ${CLIENTS.map((c) => `p99 ms @${c}`).join(" | ")} | ${CLIENTS.map((c) => `req/s @${c}`).join(" | ")} | p50 ms @${GOAL_CLIENTS} | SQL ms per call |`,
  `| --- | --- | ${CLIENTS.map(() => "---").join(" | ")} | ${CLIENTS.map(() => "---").join(" | ")} | --- | --- |`,
  ...scenarios.map((s) => `| ${s.name} | ${s.goal ? ((at(s.name, GOAL_CLIENTS)?.http.p99 ?? Infinity) < GOAL_P99_MS ? "met" : "**not met**") : "report"} | ` +
    `${CLIENTS.map((c) => cell(at(s.name, c))).join(" | ")} | ${CLIENTS.map((c) => `${at(s.name, c)?.http.rps ?? "-"}`).join(" | ")} | ` +
    `${at(s.name, GOAL_CLIENTS)?.http.p50 ?? "-"} | ${perCall[s.name] ?? "-"} |`),
  "",
  verdict,
  "",
  "SQL ms per call: the field's SQL function with new arguments, one call after another on one connection with the token's settings.",
  "",
  "Where the two cores went during the HTTP runs at 16 clients (ms of CPU per request, and share of the cores' time):",
  "",
  "| operation | service process | PostgreSQL | load generator | kernel interrupts | other | idle |",
  "| --- | --- | --- | --- | --- | --- | --- |",
  ...reads.filter((r) => r.clients === GOAL_CLIENTS && r.http.cpu).map((r) => {
    const c = r.http.cpu!;
    const part = (p: { msPerRequest: number; share: number }) => `${p.msPerRequest} (${p.share}%)`;
    return `| ${r.operation} | ${part(c.service)} | ${part(c.postgres)} | ${part(c.loadGenerator)} | ${part(c.interrupts)} | ${part(c.other)} | ${c.idle.share}% |`;
  }),
  "",
  ...(failing.length > 0 ? [`Operations that answered with an error when first asked: ${failing.join("; ")}.`, ""] : []),
  `Errors (transport, non-200, timeouts or GraphQL errors): ${reads.reduce((sum, r) => sum + r.http.errors, 0)}. Measurements repeated because other ` +
    `processes took more than ${OTHER_SHARE_LIMIT}% of the cores: ${reads.filter((r) => r.attempts > 1).map((r) => `${r.operation} @${r.clients} ` +
    `(${r.attempts} attempts)`).join(", ") || "none"}.`,
  "",
  `Indexes of p2000_messages: ${indexSizes.map((i) => `${i.name} ${i.mb} MB`).join(", ")}.`,
  ...(plans.length > 0 ? ["", "Plans of the operations over the goal (auto_explain as the visitor, cached plans):", "",
    ...plans.flatMap((p) => [`- ${p.operation}: ${p.milliseconds} ms`, "", "  ```",
      ...p.statements.flatMap((s) => [`  ${s.milliseconds} ms  ${s.query}`, ...s.plan.map((line) => `      ${line}`)]), "  ```", ""])] : []),
])}`);
await owner.end();
await database.close();
process.exit(0);
