// The weather benchmark: `npm run bench:meteo -- [--years 10] [--every 1] [--observation-days 365]
// [--seconds 10] [--clients 1,16] [--fresh]`.
// It builds its own embedded database under bench/.data-meteo (kept between runs; --fresh starts
// over) and fills it through the real ingestion path (lib/feeds/meteo/ingest.ts): ten years of
// KNMI 48-hour warnings documents, one issued at 06:00 UTC every day (`--every 2`: every other day)
// from a deterministic synthetic climate, and a year of 10-minute observations of 50 stations as
// one document per day. A later run only adds the days that are missing since. Then it asks
// meteoSnapshot (a past day), meteoStatsMonthly (a year, all provinces or one) and
// meteoObservationHistory (a station's day) over HTTP with an API token, with other arguments on
// every request, at 1 and 16 connections (autocannon) after a warm-up, next to the same SQL
// functions through pg, and explains the three as the visitor (auto_explain shows the statements
// inside them). Figures go to bench/results/meteo-latest.md (docs/benchmarks.md shows them) and
// a dated JSON file.
import { parseArgs } from "node:util";
import pg from "pg";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { pgUrl } from "../lib/db/pg-url.ts";
import { openBenchDatabase, seeded } from "./bench-database.ts";
import { dayStart, daysFrom, fillMeteoWarnings, isoDay, loadMeteoDocuments } from "./feed-histories.ts";
import { httpLoad as loadOverHttp } from "./http-load.ts";
import { closedLoop, machine, summary, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

const { values } = parseArgs({
  options: {
    years: { type: "string", default: "10" },
    every: { type: "string", default: "1" },
    "observation-days": { type: "string", default: "365" },
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "1,16" },
    fresh: { type: "boolean", default: false },
  },
});
const YEARS = Number(values.years);
const EVERY = Number(values.every);
const OBSERVATION_DAYS = Number(values["observation-days"]);
const SECONDS = Number(values.seconds);
const CLIENTS = values.clients!.split(",").map(Number);
const WARM_UP_SECONDS = 2;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SOURCE = "bench:meteo";
const log = (line: string) => console.log(line);

const { dataDir: DATA_DIR, config, database, owner } = await openBenchDatabase("meteo", 54342, values.fresh ?? false);

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)];

// 1. The climate and its warnings documents: bench/feed-histories.ts.
// 2. The stations: KNMI's automatic stations by WMO id (06 + KNMI's number), positions rounded.
const STATIONS: Array<[string, string, number, number]> = [
  ["06209", "IJmond", 52.465, 4.518],
  ["06210", "Valkenburg Zh", 52.171, 4.43],
  ["06215", "Voorschoten", 52.141, 4.437],
  ["06225", "IJmuiden", 52.463, 4.555],
  ["06235", "De Kooy", 52.928, 4.781],
  ["06240", "Schiphol", 52.318, 4.79],
  ["06242", "Vlieland", 53.241, 4.921],
  ["06248", "Wijdenes", 52.634, 5.174],
  ["06249", "Berkhout", 52.644, 4.979],
  ["06251", "Hoorn Terschelling", 53.392, 5.346],
  ["06257", "Wijk aan Zee", 52.506, 4.603],
  ["06258", "Houtribdijk", 52.649, 5.401],
  ["06260", "De Bilt", 52.098, 5.18],
  ["06265", "Soesterberg", 52.13, 5.274],
  ["06267", "Stavoren", 52.898, 5.384],
  ["06269", "Lelystad", 52.458, 5.52],
  ["06270", "Leeuwarden", 53.224, 5.752],
  ["06273", "Marknesse", 52.703, 5.888],
  ["06275", "Deelen", 52.056, 5.873],
  ["06277", "Lauwersoog", 53.413, 6.2],
  ["06278", "Heino", 52.435, 6.259],
  ["06279", "Hoogeveen", 52.75, 6.574],
  ["06280", "Groningen/Eelde", 53.125, 6.585],
  ["06283", "Hupsel", 52.069, 6.657],
  ["06285", "Huibertgat", 53.575, 6.399],
  ["06286", "Nieuw Beerta", 53.196, 7.15],
  ["06290", "Twenthe", 52.274, 6.891],
  ["06308", "Cadzand", 51.381, 3.379],
  ["06310", "Vlissingen", 51.442, 3.596],
  ["06311", "Hoofdplaat", 51.379, 3.672],
  ["06312", "Oosterschelde", 51.768, 3.622],
  ["06313", "Vlakte van de Raan", 51.505, 3.242],
  ["06315", "Hansweert", 51.447, 3.998],
  ["06316", "Schaar", 51.657, 3.694],
  ["06319", "Westdorpe", 51.226, 3.861],
  ["06323", "Wilhelminadorp", 51.527, 3.884],
  ["06324", "Stavenisse", 51.596, 4.006],
  ["06330", "Hoek van Holland", 51.992, 4.122],
  ["06331", "Tholen", 51.48, 4.193],
  ["06340", "Woensdrecht", 51.449, 4.342],
  ["06343", "Rotterdam Geulhaven", 51.893, 4.313],
  ["06344", "Rotterdam", 51.962, 4.447],
  ["06348", "Cabauw", 51.97, 4.926],
  ["06350", "Gilze-Rijen", 51.566, 4.936],
  ["06356", "Herwijnen", 51.859, 5.146],
  ["06370", "Eindhoven", 51.451, 5.377],
  ["06375", "Volkel", 51.659, 5.707],
  ["06377", "Ell", 51.198, 5.763],
  ["06380", "Maastricht", 50.906, 5.762],
  ["06391", "Arcen", 51.498, 6.197],
];

const round = (value: number, digits = 1) => Number(value.toFixed(digits));
/** Weather that changes over days, the same for every station (a sum of slow waves). */
const wave = (t: number, periods: number[], phase: number) =>
  periods.reduce((sum, p, i) => sum + Math.sin((2 * Math.PI * t) / (p * DAY) + phase * (i + 1)), 0) / periods.length;

/** A UTC day of 10-minute observations of every station, in the normalised JSON rows. */
function observationsDocument(day: number): string {
  const random = seeded(day / DAY + 1_000_003);
  const rows = [];
  for (let step = 0; step < 144; step++) {
    const time = day + step * 600_000;
    const date = new Date(time);
    const dayOfYear = (time - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY;
    const hourOfDay = date.getUTCHours() + date.getUTCMinutes() / 60;
    const summer = -Math.cos((2 * Math.PI * (dayOfYear - 20)) / 365.25); // -1 in January, 1 in July
    const sunUp = Math.max(0, Math.cos((2 * Math.PI * (hourOfDay - 12)) / 24) + 0.25 * summer);
    const anomaly = 4 * wave(time, [3.7, 7.3, 13.1], 1);
    const pressure = 1013 + 14 * wave(time, [2.9, 5.3, 11.7], 2);
    const windiness = Math.max(0, 1 + wave(time, [1.9, 4.1, 8.3], 3) - (pressure - 1013) / 30);
    const wetness = wave(time, [0.7, 2.3, 5.9], 4);
    for (const [index, [stationId, name, lat, lon]] of STATIONS.entries()) {
      const coast = lon < 4.7 || lat > 53.2 ? 1 : 0;
      const clouds = Math.min(8, Math.max(0, Math.round(4 + 4 * wetness + (random() - 0.5) * 2)));
      const ta =
        10.5 +
        7 * summer * (coast ? 0.8 : 1) +
        (3 + 2 * summer) * (sunUp - 0.5) * (1 - clouds / 12) +
        anomaly +
        (lat - 52.2) * -0.8 +
        (random() - 0.5) * 0.6;
      const spread = 1 + 5 * sunUp * (1 - clouds / 9);
      const td = ta - spread;
      const rh = Math.min(100, 100 * Math.exp((17.62 * td) / (243.12 + td) - (17.62 * ta) / (243.12 + ta)));
      const ff = Math.max(0, 2 + 5 * windiness + 2 * coast + sunUp + (random() - 0.5) * 1.5);
      const rain = wetness > 0.45 ? (wetness - 0.45) * (4 + random() * 6) : 0;
      const qg = Math.max(
        0,
        850 *
          (0.6 + 0.4 * summer) *
          Math.max(0, Math.cos((2 * Math.PI * (hourOfDay - 12)) / 24) + 0.2 * summer) *
          (1 - clouds / 10),
      );
      rows.push({
        stationId,
        name,
        lat,
        lon,
        observedAt: date.toISOString().replace(".000Z", "Z"),
        ta: round(ta),
        td: round(td),
        rh: Math.round(rh),
        pp: round(pressure - index * 0.05 + (random() - 0.5) * 0.4),
        dd: Math.round((((230 + 70 * wave(time, [2.3, 6.1], 5) + (random() - 0.5) * 30) % 360) + 360) % 360),
        ff: round(ff),
        gff: round(ff * 1.6 + random() * 2),
        vv: Math.round(Math.max(200, 25_000 - 12_000 * Math.max(0, wetness) - rain * 3000)),
        R1H: round(rain),
        qg: Math.round(qg),
        n: clouds,
        ss: round(qg > 120 ? Math.min(10, (qg / 60) * (1 - clouds / 9)) : 0),
        ww: rain > 0 ? (ta < 0.5 ? 71 : 61) : null,
      });
    }
  }
  return JSON.stringify(rows);
}

// 3. Loading: whatever is missing, oldest first, through ingestMeteoDocument on one connection:
// the warnings (bench/feed-histories.ts), then the observations.
const now = Date.now();
const ingestion = await fillMeteoWarnings(
  owner,
  database.ownerUrl,
  { years: YEARS, every: EVERY, source: SOURCE },
  log,
);
{
  const {
    rows: [newest],
  } = await owner.query<{ observations: Date | null }>(
    "select max(first_hour) as observations from app_hidden.meteo_documents where kind = 'observations'",
  );
  const yesterday = dayStart(now) - DAY; // whole days only
  const firstObserved = newest.observations
    ? dayStart(newest.observations.getTime()) + DAY
    : yesterday - (OBSERVATION_DAYS - 1) * DAY;
  Object.assign(
    ingestion,
    await loadMeteoDocuments(
      database.ownerUrl,
      "observations",
      daysFrom(firstObserved, yesterday, 1),
      observationsDocument,
      SOURCE,
      log,
    ),
  );
  if (Object.keys(ingestion).length > 0) {
    log("VACUUM (ANALYZE) of the weather tables ...");
    await owner.query(`vacuum (analyze) app_public.meteo_warning_slices, app_public.meteo_warning_events, app_hidden.meteo_daily_levels,
      app_hidden.meteo_documents, app_public.meteo_observations, app_public.meteo_stations, app_hidden.meteo_region_states`);
    await owner.query("analyze");
  }
}

// What the history holds: sizes, and the climate it came out as.
const { rows: sizes } = await owner.query<{ name: string; rows: string; mb: string }>(`
  select t.name, (xpath('/row/c/text()', query_to_xml(format('select count(*) as c from %s', t.name), false, true, '')))[1]::text as rows,
         round(pg_total_relation_size(t.name::regclass) / 1048576.0, 1)::text as mb
    from unnest(array['app_public.meteo_warning_slices', 'app_public.meteo_warning_events', 'app_hidden.meteo_daily_levels',
                      'app_public.meteo_observations', 'app_public.meteo_stations', 'app_hidden.meteo_documents']) t(name)`);
const tables = Object.fromEntries(sizes.map((s) => [s.name, { rows: Number(s.rows), mb: Number(s.mb) }]));
const {
  rows: [climate],
} = await owner.query(`
  with days as (select day, max(status_code) as level from app_hidden.meteo_daily_levels group by day)
  select min(d.first_hour) filter (where d.kind = 'warnings') as warnings_from, max(d.first_hour) filter (where d.kind = 'warnings') as warnings_to,
         min(d.first_hour) filter (where d.kind = 'observations') as observations_from,
         max(d.first_hour) filter (where d.kind = 'observations') as observations_to,
         (select count(*) from days)::int as warning_days, (select count(*) from days where level >= 2)::int as orange_days,
         (select count(*) from days where level = 3)::int as red_days
    from app_hidden.meteo_documents d`);
const historyYears = (climate.warnings_to - climate.warnings_from) / (365.25 * DAY);
log(
  `History: warnings ${isoDay(climate.warnings_from.getTime())} to ${isoDay(climate.warnings_to.getTime())} ` +
    `(${climate.warning_days} days with a warning, ${climate.orange_days} orange or red, ${climate.red_days} red: ` +
    `${(climate.warning_days / historyYears).toFixed(0)}/${(climate.orange_days / historyYears).toFixed(1)}/${(climate.red_days / historyYears).toFixed(1)} a year); ` +
    `observations ${isoDay(climate.observations_from.getTime())} to ${isoDay(climate.observations_to.getTime())}.`,
);
for (const [name, size] of Object.entries(tables))
  log(`  ${name}: ${size.rows.toLocaleString("en")} rows, ${size.mb} MB`);

// 4. The arguments: past days of the warning history, years and provinces, stations and their days.
const { rows: stationRows } = await owner.query<{ station_id: string }>(
  "select station_id from app_public.meteo_stations order by 1",
);
const { rows: provinceRows } = await owner.query<{ code: string }>(
  "select code from app_public.meteo_provinces order by sort_order",
);
const stationIds = stationRows.map((r) => r.station_id);
const provinces = provinceRows.map((r) => r.code);
const snapshotDays = daysFrom(dayStart(climate.warnings_from.getTime()) + 3 * DAY, dayStart(now) - 2 * DAY, 1).map(
  isoDay,
);
const firstYear = new Date(climate.warnings_from).getUTCFullYear();
const years = Array.from({ length: new Date(now).getUTCFullYear() - firstYear + 1 }, (_, i) => firstYear + i);
const observedDays = daysFrom(
  dayStart(climate.observations_from.getTime()),
  dayStart(climate.observations_to.getTime()),
  1,
);
const random = seeded(2026);
const SNAPSHOT = `query ($date: String!) { meteoSnapshot(date: $date) { regionCode name statusCode status { description }
  warnings { icon label periods { description status_code from to } } } }`;
const STATS =
  "query ($year: Int!, $region: String) { meteoStatsMonthly(year: $year, regionCode: $region) { year month yellowDays orangeDays redDays warningDays } }";
const HISTORY = `query ($station: String!, $from: Int!, $to: Int!) { meteoObservationHistory(stationId: $station, fromTs: $from, toTs: $to) {
  stationId observedAt temperature dewPoint humidity pressure windDirection windSpeed windGust visibility precipitation cloudCover weatherCode } }`;
// What a client drawing a day's chart asks for, beside every field of the type above.
const CHART = `query ($station: String!, $from: Int!, $to: Int!) { meteoObservationHistory(stationId: $station, fromTs: $from, toTs: $to) {
  observedAt temperature windSpeed windGust } }`;
const stationDay = () => {
  const day = pick(random, observedDays) / 1000;
  return { station: pick(random, stationIds), from: day, to: day + 86_400 - 600 };
};
// Each operation's arguments as one object: the GraphQL variables, and in this order the SQL parameters.
const scenarios: Array<{ name: string; query: string; sql: string; args: () => Record<string, unknown> }> = [
  {
    name: "meteoSnapshot (a past day)",
    query: SNAPSHOT,
    sql: "select * from app_public.meteo_snapshot($1)",
    args: () => ({ date: pick(random, snapshotDays) }),
  },
  {
    name: "meteoStatsMonthly (a year, all or one province)",
    query: STATS,
    sql: "select * from app_public.meteo_stats_monthly($1, $2)",
    args: () => ({ year: pick(random, years), region: random() < 0.25 ? null : pick(random, provinces) }),
  },
  {
    name: "meteoObservationHistory (a station's day, every field)",
    query: HISTORY,
    sql: "select * from app_public.meteo_observation_history($1, $2, $3)",
    args: stationDay,
  },
  {
    name: "meteoObservationHistory (a station's day, a chart's 4 fields)",
    query: CHART,
    sql: "select * from app_public.meteo_observation_history($1, $2, $3)",
    args: stationDay,
  },
];

// 5. HTTP: the service as its own process, an API token, connections that ask back to back; and
// the same SQL through pg with the visitor's settings, to tell the database's share.
const service = await startServerProcess({ dataDir: DATA_DIR, pgPort: config.database.embeddedPgPort });
const apiToken = (
  await createApiToken(owner, { environmentUuid: database.operatorEnvironmentUuid, name: "bench", scopes: [] })
).plainToken;
const headers = { "content-type": "application/json", authorization: `Bearer ${apiToken}` };

async function graphql(query: string, variables: Record<string, unknown>): Promise<Record<string, unknown[]>> {
  const response = await fetch(service.graphqlUrl, {
    method: "POST",
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data: Record<string, unknown[]>; errors?: Array<{ message: string }> };
  if (body.errors) throw new Error(body.errors[0].message);
  return body.data;
}

/** Closed-loop HTTP load (http-load.ts) with new arguments on every request; the latency of every answer, in ms. */
const httpLoad = (clients: number, seconds: number, query: string, args: () => Record<string, unknown>) =>
  loadOverHttp({
    url: service.graphqlUrl,
    headers,
    clients,
    seconds,
    body: () => JSON.stringify({ query, variables: args() }),
  });

const visitor = new pg.Pool({ connectionString: database.authUrl, max: Math.max(...CLIENTS) });
visitor.on("error", () => {});
/** Closed-loop load through pg: `clients` workers, each statement in a transaction as app_visitor as the server runs it. */
async function sqlLoad(clients: number, seconds: number, sql: string, args: () => Record<string, unknown>) {
  const { latencies, errors } = await closedLoop(clients, seconds, async () => {
    const client = await visitor.connect();
    try {
      await client.query("begin");
      await client.query("select set_config('role', 'app_visitor', true)");
      await client.query(sql, Object.values(args()));
      await client.query("commit");
    } finally {
      client.release();
    }
  });
  return { ...summary(latencies, seconds), errors };
}

{
  // One answer of each checked first.
  const orangeDay = (
    await owner.query("select max(day)::text as day from app_hidden.meteo_daily_levels where status_code >= 2")
  ).rows[0].day;
  const snapshot = (await graphql(SNAPSHOT, { date: orangeDay })).meteoSnapshot as Array<{ statusCode: number }>;
  const stats = (await graphql(STATS, { year: years.at(-2), region: null })).meteoStatsMonthly as Array<{
    warningDays: number;
  }>;
  const history = (await graphql(HISTORY, scenarios[2].args())).meteoObservationHistory;
  log(
    `Check: meteoSnapshot(${orangeDay}) levels ${snapshot.map((r) => r.statusCode).join("")}; meteoStatsMonthly(${years.at(-2)}) ` +
      `${stats.reduce((sum, m) => sum + m.warningDays, 0)} warning days; meteoObservationHistory ${history.length} observations`,
  );
}
const reads: Array<{
  operation: string;
  clients: number;
  seconds: number;
  http: Awaited<ReturnType<typeof httpLoad>>;
  sql: ReturnType<typeof summary>;
}> = [];
for (const scenario of scenarios) {
  // Every connection of the server's pool prepares its plans first.
  await httpLoad(Math.max(...CLIENTS), WARM_UP_SECONDS, scenario.query, scenario.args);
  for (const clients of CLIENTS) {
    const http = await httpLoad(clients, SECONDS, scenario.query, scenario.args);
    const sql = await sqlLoad(clients, SECONDS, scenario.sql, scenario.args);
    reads.push({ operation: scenario.name, clients, seconds: SECONDS, http, sql });
    log(
      `${scenario.name} @${clients}: HTTP ${http.rps}/s, p50 ${http.p50} ms, p95 ${http.p95} ms, p99 ${http.p99} ms, max ${http.max} ms, ` +
        `${http.bytesPerAnswer} bytes | SQL ${sql.rps}/s, p50 ${sql.p50} ms, p99 ${sql.p99} ms${http.errors ? ` (${http.errors} errors)` : ""}`,
    );
  }
}
await service.stop();
await visitor.end();

// 6. Plans: each SQL function as the visitor, its inner statements shown by auto_explain (as
// notices to this session), after a few calls with other arguments so that cached plans are the
// ones a busy server uses.
interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Function Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}
const rootUrl = database.rootUrl;
if (!rootUrl) throw new Error("auto_explain needs the superuser URL of the embedded cluster.");
const explainer = new pg.Client({ connectionString: pgUrl(rootUrl, { database: config.database.name }) });
await explainer.connect();
let notices: string[] = [];
explainer.on("notice", (notice) => notices.push(notice.message ?? ""));
await explainer.query("load 'auto_explain'");
await explainer.query(`set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on; set auto_explain.log_buffers = on;
  set auto_explain.log_timing = on; set auto_explain.log_nested_statements = on; set auto_explain.log_format = json;
  set auto_explain.log_level = notice; set role app_visitor`);
const typicalDay = (
  await owner.query(
    "select max(day)::text as day from app_hidden.meteo_daily_levels where status_code >= 2 and day < current_date - 7",
  )
).rows[0].day;
const typicalObservationDay = dayStart(climate.observations_to.getTime()) / 1000 - 86_400;
const explained = [
  { fn: "meteo_snapshot", scenario: scenarios[0], typical: [typicalDay] },
  { fn: "meteo_stats_monthly", scenario: scenarios[1], typical: [years.at(-2), null] },
  {
    fn: "meteo_observation_history",
    scenario: scenarios[2],
    typical: ["06260", typicalObservationDay, typicalObservationDay + 86_400 - 600],
  },
];
const describe = (node: PlanNode): string =>
  `${node["Node Type"]}${node["Index Name"] ? ` using ${node["Index Name"]}` : ""}${node["Relation Name"] ? ` on ${node["Relation Name"]}` : ""}` +
  `${node["Function Name"] ? ` ${node["Function Name"]}()` : ""} (${node["Actual Rows"]} rows${(node["Actual Loops"] ?? 1) > 1 ? ` × ${node["Actual Loops"]}` : ""})`;
const walk = (node: PlanNode, depth = 0): string[] => [
  `${"  ".repeat(depth)}${describe(node)}`,
  ...(node.Plans ?? []).flatMap((child) => walk(child, depth + 1)),
];
const plans: Array<{
  fn: string;
  arguments: unknown[];
  milliseconds: number;
  sharedHit: number;
  sharedRead: number;
  seqScans: string[];
  indexes: string[];
  statements: Array<{ query: string; milliseconds: number; plan: string[] }>;
}> = [];
for (const { fn, scenario, typical } of explained) {
  for (let i = 0; i < 8; i++)
    await explainer.query({ name: fn, text: scenario.sql, values: Object.values(scenario.args()) });
  notices = [];
  await explainer.query({ name: fn, text: scenario.sql, values: typical });
  const statements = notices.flatMap((text) => {
    const match = /^duration: ([\d.]+) ms\s+plan:\s*([\s\S]*)$/.exec(text);
    if (!match) return [];
    const explain = JSON.parse(match[2]) as { "Query Text": string; Plan: PlanNode };
    return [
      {
        query: explain["Query Text"].replace(/\s+/g, " ").trim().slice(0, 160),
        milliseconds: Number(match[1]),
        root: explain.Plan,
        plan: walk(explain.Plan),
      },
    ];
  });
  const all = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(all)];
  const nodes = statements.flatMap((s) => all(s.root));
  const top = statements.at(-1)!; // auto_explain reports the outer statement last
  plans.push({
    fn,
    arguments: typical,
    milliseconds: top.milliseconds,
    sharedHit: top.root["Shared Hit Blocks"] ?? 0,
    sharedRead: top.root["Shared Read Blocks"] ?? 0,
    seqScans: [...new Set(nodes.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]!))],
    indexes: [...new Set(nodes.filter((n) => n["Index Name"]).map((n) => `${n["Index Name"]}`))],
    statements: statements.map(({ query, milliseconds, plan }) => ({ query, milliseconds, plan })),
  });
  log(
    `\nEXPLAIN (ANALYZE, BUFFERS) app_public.${fn}(${typical.map((v) => JSON.stringify(v)).join(", ")}) as app_visitor: ` +
      `${top.milliseconds} ms, ${top.root["Shared Hit Blocks"] ?? 0} buffers hit, ${top.root["Shared Read Blocks"] ?? 0} read`,
  );
  for (const statement of statements) {
    log(`  ${statement.milliseconds} ms  ${statement.query}`);
    for (const line of statement.plan) log(`      ${line}`);
  }
}
await explainer.end();

const mb = (name: string) => `${tables[name].rows.toLocaleString("en")} rows, ${tables[name].mb} MB`;
// The load as the documents table remembers it (received_at is each transaction's start), so that a
// run that found the history already there still reports how fast it went in; pauses between
// runs (a later top-up) are left out.
const { rows: loaded } = await owner.query<{ kind: string; documents: number; records: number; seconds: number }>(
  `
  with d as (select kind, records, received_at - lag(received_at) over (partition by kind order by received_at) as gap
               from app_hidden.meteo_documents where source = $1)
  select kind, count(*)::int as documents, sum(records)::float8 as records,
         extract(epoch from sum(gap) filter (where gap < interval '10 seconds'))::float8 as seconds
    from d group by kind`,
  [SOURCE],
);
const loadLine = (kind: string, unit: string) => {
  const l = loaded.find((row) => row.kind === kind);
  return l
    ? `${kind} ${l.documents.toLocaleString("en")} documents in ${Math.round(l.seconds)} s (${round(l.documents / l.seconds)} documents/s, ` +
        `${Math.round(l.records / l.seconds).toLocaleString("en")} ${unit}/s)`
    : `${kind}: none`;
};
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  clients: CLIENTS,
  seconds: SECONDS,
  every: EVERY,
  climate,
  tables,
  ingestion,
  loaded,
  reads,
  plans,
};
log(
  `\nWrote ${writeResults("meteo", "meteo-latest.md", result, [
    `Weather benchmark, ${result.date.slice(0, 10)}, ${result.machine}: warnings issued ${EVERY === 1 ? "daily" : `every ${EVERY} days`} from ` +
      `${isoDay(climate.warnings_from.getTime())} (${climate.warning_days} warning days, ${climate.orange_days} orange or red, ${climate.red_days} red), ` +
      `${stationIds.length} stations observed every 10 minutes from ${isoDay(climate.observations_from.getTime())}; all through the real ingestion path. ` +
      `Closed loops of ${CLIENTS.join(" and ")} connections over HTTP (API token; the service in its own process on the same two cores as the ` +
      `load generator and PostgreSQL), ${SECONDS} s per operation after ${WARM_UP_SECONDS} s of warm-up, other arguments on every request; ` +
      "beside it the same SQL function through pg as app_visitor.",
    "",
    "| operation | clients | HTTP req/s | HTTP p50 ms | HTTP p95 ms | HTTP p99 ms | answer bytes | SQL req/s | SQL p50 ms | SQL p99 ms |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...reads.map(
      (r) =>
        `| ${r.operation} | ${r.clients} | ${r.http.rps} | ${r.http.p50} | ${r.http.p95} | ${r.http.p99} | ${r.http.bytesPerAnswer} | ` +
        `${r.sql.rps} | ${r.sql.p50} | ${r.sql.p99} |`,
    ),
    "",
    `Errors (transport, non-200 or GraphQL errors): ${reads.reduce((sum, r) => sum + r.http.errors, 0)}.`,
    "",
    `Loading through ingestMeteoDocument on one connection, oldest first: ${loadLine("warnings", "slices read")}; ` +
      `${loadLine("observations", "observations")}.`,
    "",
    `Tables: warning slices ${mb("app_public.meteo_warning_slices")}; warning events ${mb("app_public.meteo_warning_events")}; ` +
      `daily levels ${mb("app_hidden.meteo_daily_levels")}; observations ${mb("app_public.meteo_observations")}.`,
    "",
    "| SQL function (as app_visitor, typical arguments) | execution ms | buffers hit/read | indexes | sequential scans |",
    "| --- | --- | --- | --- | --- |",
    ...plans.map(
      (p) =>
        `| ${p.fn}(${p.arguments.map((v) => JSON.stringify(v)).join(", ")}) | ${p.milliseconds} | ${p.sharedHit}/${p.sharedRead} | ` +
        `${p.indexes.join(", ") || "-"} | ${p.seqScans.join(", ") || "-"} |`,
    ),
  ])}`,
);
await owner.end();
await database.close();
process.exit(0);
