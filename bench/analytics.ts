// The analytics benchmark (issue 28, part 5): `npm run bench:analytics -- [--years 10] [--seconds 10]
// [--clients 1,16] [--fresh]`. Goal: at the ten-year history (10 million messages), P2000 messages
// grouped by day and safety region over a year, and by month and discipline over ten years, p99
// under 100 ms at one client over HTTP (reported at 16).
//
// Both groupings read the daily roll-ups (p2000DayCountFacts over app_hidden.p2000_daily_counts),
// not the messages, so what they cost depends on the roll-ups' rows, not on the messages behind
// them. The database (bench/.data-analytics, kept between runs; --fresh starts over) therefore
// holds four weeks of synthetic FLEX traffic stored through the reader's path (2,700 messages a
// day, roll-ups kept by the real triggers), and those four weeks' roll-up rows repeated day by day
// back over --years years: the roll-ups of a ten-year history at 2,700 messages a day (about
// 10 million messages) without its messages (bench:p2000-history builds those, in 47 minutes).
// Beside them, p2000MessageFacts grouped by day and region over the four weeks of real messages
// shows what a grouping over the messages themselves costs. Figures go to
// bench/results/analytics-latest.md (docs/benchmarks.md shows them) and a dated JSON file.
import { parseArgs } from "node:util";
import pg from "pg";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { FLEX_READER_CONNECTIONS } from "../lib/p2000/flex-ingest.ts";
import { makeCpuSampler, findServicePid } from "./cpu-accounting.ts";
import { loadFlexHistory, openBenchDatabase, seeded } from "./bench-database.ts";
import { httpLoad } from "./http-load.ts";
import { machine, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

const { values } = parseArgs({
  options: {
    years: { type: "string", default: "10" },
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "1,16" },
    fresh: { type: "boolean", default: false },
  },
});
const YEARS = Number(values.years);
const SECONDS = Number(values.seconds);
const CLIENTS = values.clients!.split(",").map(Number);
const PER_DAY = 2700;
const REAL_DAYS = 28;
const GOAL_MS = 100;
const log = (line: string) => console.log(line);

const { dataDir, config, database, owner } = await openBenchDatabase("analytics", 54358, values.fresh ?? false);

// 1. Four weeks of messages through the FLEX reader's path, ending now.
{
  const loader = new pg.Pool({ connectionString: database.ownerUrl, max: 2 * FLEX_READER_CONNECTIONS });
  const history = await loadFlexHistory(owner, PER_DAY * REAL_DAYS, PER_DAY, loader);
  await loader.end();
  if (history) log(`  ${history.stored} messages in ${history.seconds.toFixed(0)} s`);
}

// 2. Their roll-up rows repeated back over the years: each earlier day gets the rows of the real
// day at the same place in the four-week cycle (a weekday's rows for a weekday).
const {
  rows: [span],
} = await owner.query<{ first: string }>(`
  select min(day)::text as first from app_hidden.p2000_daily_counts
   where day > current_date - ${REAL_DAYS + 2}`);
const begin = performance.now();
const { rowCount: repeated } = await owner.query(
  `
  insert into app_hidden.p2000_daily_counts (day, exercise_type, dimension, key, messages)
  select target.day::date, k.exercise_type, k.dimension, k.key, k.messages
    from generate_series($1::date - ($2::int * 365 + $2::int / 4), $1::date - 1, interval '1 day') as target (day),
         app_hidden.p2000_daily_counts k
   where k.day = $1::date + (((target.day::date - $1::date) % 28) + 28) % 28
  on conflict do nothing`,
  [span.first, YEARS],
);
if (repeated) {
  log(
    `  ${repeated} roll-up rows repeated over ${YEARS} years in ${((performance.now() - begin) / 1000).toFixed(1)} s`,
  );
  await owner.query("vacuum analyze app_hidden.p2000_daily_counts");
}
// 3. Every safety region on every day, as in real traffic: the synthetic traffic pages units of
// some regions only, so each region without rows gets the rows of one that has them (in turn).
// A grouping by day and region then has as many groups as the real one (25 a day).
const { rowCount: spread } = await owner.query(`
  insert into app_hidden.p2000_daily_counts (day, exercise_type, dimension, key, messages)
  select k.day, k.exercise_type, 'region', missing.key, k.messages
    from (select r.uuid::text as key, row_number() over (order by r.number) - 1 as n
            from app_public.p2000_regions r
           where not exists (select from app_hidden.p2000_daily_counts c
                              where c.dimension = 'region' and c.key = r.uuid::text)) missing
    join (select key, row_number() over (order by key) - 1 as n, count(*) over () as total
            from (select distinct key from app_hidden.p2000_daily_counts where dimension = 'region') d) present
      on present.n = missing.n % present.total
    join app_hidden.p2000_daily_counts k on k.dimension = 'region' and k.key = present.key
  on conflict do nothing`);
if (spread) {
  log(`  ${spread} roll-up rows copied to the safety regions the synthetic traffic does not page`);
  await owner.query("vacuum analyze app_hidden.p2000_daily_counts");
}
const {
  rows: [sizes],
} = await owner.query<{ rows: number; days: number; messages: number; from: string }>(`
  select count(*)::int as rows, count(distinct day)::int as days, min(day)::text as "from",
         (select count(*)::int from app_public.p2000_messages) as messages
    from app_hidden.p2000_daily_counts`);

// 4. The service in its own process, an API token, and the groupings with new arguments on every
// request (a year ending on another day, ten years ending on another day).
const service = await startServerProcess({ dataDir, pgPort: config.database.embeddedPgPort });
const apiToken = (
  await createApiToken(owner, { environmentUuid: database.operatorEnvironmentUuid, name: "bench", scopes: [] })
).plainToken;
const headers = { "content-type": "application/json", authorization: `Bearer ${apiToken}` };
const random = seeded(28);
const isoDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const reads = [
  {
    name: "p2000DayCountFacts: a year by day and safety region",
    query: `query ($s: Date!, $e: Date!) { p2000DayCountFacts(dimension: "region", windowStart: $s, windowEnd: $e) {
      groupedAggregates(groupBy: [DAY, NAME]) { keys sum { messages } } } }`,
    variables: () => {
      const end = Math.floor(random() * 365 * (YEARS - 1));
      return { s: isoDay(end + 365), e: isoDay(end) };
    },
  },
  {
    name: `p2000DayCountFacts: ${YEARS} years by month and discipline`,
    query: `query ($s: Date!, $e: Date!) { p2000DayCountFacts(dimension: "discipline", windowStart: $s, windowEnd: $e) {
      groupedAggregates(groupBy: [MONTH, NAME]) { keys sum { messages } } } }`,
    variables: () => {
      const end = Math.floor(random() * 30);
      return { s: isoDay(end + YEARS * 365), e: isoDay(end) };
    },
  },
  {
    name: `p2000MessageFacts (the messages themselves): ${REAL_DAYS} days by day and safety region`,
    query: `query ($s: DateTime!, $e: DateTime!) { p2000MessageFacts(windowStart: $s, windowEnd: $e) {
      groupedAggregates(groupBy: [SENT_DAY, REGION]) { keys distinctCount { uuid } } } }`,
    variables: () => {
      const end = Date.now() - Math.floor(random() * 3_600_000);
      return { s: new Date(end - REAL_DAYS * 86_400_000).toISOString(), e: new Date(end).toISOString() };
    },
  },
];
const body = (read: (typeof reads)[number]) => JSON.stringify({ query: read.query, variables: read.variables() });
const sampleCpu = makeCpuSampler(dataDir);
const servicePid = findServicePid();

const results: Array<{ read: string; groups: number; clients: number } & Awaited<ReturnType<typeof httpLoad>>> = [];
for (const read of reads) {
  const answer = (await (await fetch(service.graphqlUrl, { method: "POST", headers, body: body(read) })).json()) as {
    data?: Record<string, { groupedAggregates: unknown[] }>;
    errors?: Array<{ message: string }>;
  };
  if (answer.errors || !answer.data) throw new Error(`${read.name}: ${answer.errors?.[0]?.message}`);
  const groups = Object.values(answer.data)[0].groupedAggregates.length;
  // Warm-up: every connection of the service's pool plans the statement once.
  await httpLoad({
    url: service.graphqlUrl,
    headers,
    clients: Math.max(...CLIENTS),
    seconds: 2,
    body: () => body(read),
  });
  for (const clients of CLIENTS) {
    const load = await httpLoad({
      url: service.graphqlUrl,
      headers,
      clients,
      seconds: SECONDS,
      body: () => body(read),
      cpu: { sample: sampleCpu, servicePid },
    });
    results.push({ read: read.name, groups, clients, ...load });
    log(
      `${read.name} @${clients}: ${groups} groups, ${load.rps}/s p50 ${load.p50} ms p99 ${load.p99} ms, ${load.errors} errors`,
    );
  }
}

const result = {
  date: new Date().toISOString(),
  machine: machine(),
  years: YEARS,
  sizes,
  seconds: SECONDS,
  goalMs: GOAL_MS,
  results,
};
log(
  `Wrote ${writeResults("analytics", "analytics-latest.md", result, [
    `Analytics benchmark, ${result.date.slice(0, 10)}, ${result.machine}: daily roll-ups of ${sizes.days.toLocaleString("en")} days ` +
      `(${sizes.rows.toLocaleString("en")} rows from ${sizes.from}: ${YEARS} years at ${PER_DAY.toLocaleString("en")} messages a day, ` +
      `the last ${REAL_DAYS} days from ${sizes.messages.toLocaleString("en")} stored messages, the earlier days their roll-ups repeated); ` +
      `HTTP with an API token, new arguments on every request, ${SECONDS} s per measurement.`,
    "",
    `| grouping | groups | clients | req/s | p50 ms | p99 ms | p99 < ${GOAL_MS} ms |`,
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...results.map(
      (r) =>
        `| ${r.read} | ${r.groups.toLocaleString("en")} | ${r.clients} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.p99 < GOAL_MS ? "yes" : "no"} |`,
    ),
  ])}`,
);
await service.stop();
await owner.end();
await database.close();
process.exit(0);
