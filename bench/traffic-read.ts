// The traffic and alerts read benchmark: `npm run bench:traffic-read -- [--incidents 1000000]
// [--alerts 10000] [--seconds 10] [--clients 1,16] [--fresh]`.
// It builds its own embedded database under bench/.data-traffic-read (kept between runs; --fresh
// starts over; a table that does not hold the asked number of rows is emptied and filled again).
// Traffic incidents go in as a few set-based INSERTs as the owner (generate_series: 2% active,
// the rest closed over three years, heap and uuids in time order as a live table has them; the
// statement trigger records an "opened" event per active row and queues nothing, since
// app.traffic_notify is not set). NL-Alerts go through the real path: pages of the public list
// (lib/feeds/alerts/sample-documents.ts), the parser, and app_private.ingest_nl_alerts, which
// fills app_public.nl_alert_regions from the safety regions' areas. Then the tables are vacuumed
// and analysed and a CHECKPOINT written, and trafficIncidents(active: true) and
// nlAlerts(regionNumber[, activeOnly]) are asked over HTTP with an API token at 1 and 16
// connections (autocannon) after a warm-up, next to the same SQL functions through pg as
// app_visitor; the SQL time of one call is measured without round trips, and each function is
// explained as the visitor (auto_explain shows the statements inside the PL/pgSQL functions, with
// their cached plans). The goal: under 20 ms p99 at 16 clients. Figures go to
// bench/results/traffic-read-latest.md (docs/benchmarks.md shows them) and a dated JSON file.
import { parseArgs } from "node:util";
import pg from "pg";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { pgUrl } from "../lib/db/pg-url.ts";
import { makeCpuSampler, cpuSplit, describeCpu, findServicePid } from "./cpu-accounting.ts";
import { openBenchDatabase, seeded } from "./bench-database.ts";
import { fillNlAlerts, fillTrafficIncidents } from "./feed-histories.ts";
import { httpLoad as loadOverHttp } from "./http-load.ts";
import { closedLoop, machine, summary, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

const { values } = parseArgs({
  options: {
    incidents: { type: "string", default: "1000000" },
    alerts: { type: "string", default: "10000" },
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "1,16" },
    fresh: { type: "boolean", default: false },
  },
});
const INCIDENTS = Number(values.incidents);
const ALERTS = Number(values.alerts);
const SECONDS = Number(values.seconds);
const CLIENTS = values.clients!.split(",").map(Number);
const WARM_UP_SECONDS = 2;
const GOAL_P99_MS = 20;
const GOAL_CLIENTS = 16;
const ALERT_BATCH = 1000;
const SOURCE = "bench:traffic-read";
const log = (line: string) => console.log(line);

const {
  dataDir: DATA_DIR,
  config,
  database,
  owner,
} = await openBenchDatabase("traffic-read", 54344, values.fresh ?? false);

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

// 1. Traffic incidents and 2. NL-Alerts (bench/feed-histories.ts: a million incidents over three
// years, 2% active, set-based; ten thousand NL-Alerts over five years through ingest_nl_alerts).
const filling: Record<string, number> = {
  ...(await fillTrafficIncidents(owner, INCIDENTS, log)),
  ...(await fillNlAlerts(owner, ALERTS, SOURCE, log)),
};

const rootUrl = database.rootUrl;
if (!rootUrl) throw new Error("CHECKPOINT and auto_explain need the superuser URL of the embedded cluster.");
const superuserUrl = pgUrl(rootUrl, { database: config.database.name });
if (Object.keys(filling).length > 0) {
  // The load left a gigabyte of dirty pages and WAL: written now rather than by the checkpointer
  // in the middle of the measurements.
  const root = new pg.Client({ connectionString: superuserUrl });
  await root.connect();
  await root.query("checkpoint");
  await root.end();
}

// What the tables hold.
const { rows: sizes } = await owner.query<{ name: string; rows: string; mb: string }>(`
  select t.name, (xpath('/row/c/text()', query_to_xml(format('select count(*) as c from %s', t.name), false, true, '')))[1]::text as rows,
         round(pg_total_relation_size(t.name::regclass) / 1048576.0, 1)::text as mb
    from unnest(array['app_public.traffic_incidents', 'app_public.traffic_incident_events', 'app_public.nl_alerts',
                      'app_public.nl_alert_regions']) t(name)`);
const tables = Object.fromEntries(sizes.map((s) => [s.name, { rows: Number(s.rows), mb: Number(s.mb) }]));
const {
  rows: [shape],
} = await owner.query(`
  with per_region as (select r.number, count(ar.alert_uuid)::int as n from app_public.p2000_regions r
                        left join app_public.nl_alert_regions ar on ar.region_number = r.number group by r.number)
  select (select count(*)::int from app_public.traffic_incidents where closed_at is null) as active_incidents,
         (select min(sort_at)::date::text from app_public.traffic_incidents) as incidents_from,
         (select count(*)::int from app_public.nl_alerts where stop_at is null or stop_at > now()) as active_alerts,
         (select min(start_at)::date::text from app_public.nl_alerts) as alerts_from,
         (select round(avg(c), 2)::float8 from (select count(*) as c from app_public.nl_alert_regions group by alert_uuid) x) as regions_per_alert,
         (select min(n) from per_region) as region_min, (select percentile_disc(0.5) within group (order by n) from per_region) as region_median,
         (select max(n) from per_region) as region_max,
         (select count(*)::int from graphile_worker.jobs) as jobs`);
log(
  `Data: incidents ${tables["app_public.traffic_incidents"].rows.toLocaleString("en")} (${shape.active_incidents.toLocaleString("en")} active, ` +
    `since ${shape.incidents_from}), events ${tables["app_public.traffic_incident_events"].rows.toLocaleString("en")}, queued jobs ${shape.jobs}; ` +
    `NL-Alerts ${tables["app_public.nl_alerts"].rows.toLocaleString("en")} (since ${shape.alerts_from}, ${shape.active_alerts} active), ` +
    `${shape.regions_per_alert} regions per alert, per region ${shape.region_min} / ${shape.region_median} / ${shape.region_max} (min/median/max)`,
);
for (const [name, size] of Object.entries(tables))
  log(`  ${name}: ${size.rows.toLocaleString("en")} rows, ${size.mb} MB`);

// 3. The operations, with new arguments on every request: each as a GraphQL query (its variables)
// and as the SQL function the field calls (the same values, in this order, as parameters).
const random = seeded(2026);
const region = () => String(1 + Math.floor(random() * 25)).padStart(2, "0");
const INCIDENT_FIELDS = "uuid recordId type roadNumber latitude longitude startAt active";
const ALERT_FIELDS = "uuid alertId messageNl startAt stopAt active regionNumbers";
// `repeated`: the same call with every argument in turn, many times in one statement (the SQL
// time of a call without round trips or instrumentation).
const scenarios: Array<{
  name: string;
  query: string;
  sql: string;
  repeated: string;
  args: () => Record<string, unknown>;
}> = [
  {
    name: "trafficIncidents(active: true, first: 50, page 1-5)",
    query: `query ($page: Int!) { trafficIncidents(active: true, first: 50, page: $page) { ${INCIDENT_FIELDS} } }`,
    sql: "select * from app_public.traffic_incidents(true, 50, $1)",
    repeated: "app_public.traffic_incidents(true, 50, 1 + g % 5)",
    args: () => ({ page: 1 + Math.floor(random() * 5) }),
  },
  {
    name: "nlAlerts(regionNumber 01-25, first: 20)",
    query: `query ($region: String!) { nlAlerts(regionNumber: $region, first: 20) { ${ALERT_FIELDS} } }`,
    sql: "select * from app_public.nl_alerts(20, null, null, null, $1, null)",
    repeated: "app_public.nl_alerts(20, null, null, null, lpad((1 + g % 25)::text, 2, '0'), null)",
    args: () => ({ region: region() }),
  },
  {
    name: "nlAlerts(regionNumber 01-25, first: 20, activeOnly: true)",
    query: `query ($region: String!) { nlAlerts(regionNumber: $region, first: 20, activeOnly: true) { ${ALERT_FIELDS} } }`,
    sql: "select * from app_public.nl_alerts(20, null, null, null, $1, true)",
    repeated: "app_public.nl_alerts(20, null, null, null, lpad((1 + g % 25)::text, 2, '0'), true)",
    args: () => ({ region: region() }),
  },
];

// 4. HTTP: the service as its own process, an API token, connections that ask back to back; and
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

const cpuSample = makeCpuSampler(DATA_DIR);
const servicePid = findServicePid();

/** Closed-loop HTTP load (http-load.ts) with new arguments on every request; the latency of every answer, in ms. */
const httpLoad = (clients: number, seconds: number, query: string, args: () => Record<string, unknown>) =>
  loadOverHttp({
    url: service.graphqlUrl,
    headers,
    clients,
    seconds,
    body: () => JSON.stringify({ query, variables: args() }),
    cpu: { sample: cpuSample, servicePid },
  });

const visitor = new pg.Pool({ connectionString: database.authUrl, max: Math.max(...CLIENTS) });
visitor.on("error", () => {});
/** Closed-loop load through pg: `clients` workers, each statement in a transaction as app_visitor as the server runs it. */
async function sqlLoad(clients: number, seconds: number, sql: string, args: () => Record<string, unknown>) {
  const before = cpuSample(undefined);
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
  return { ...summary(latencies, seconds), errors, cpu: cpuSplit(before, cpuSample(undefined), latencies.length) };
}

{
  // One answer of each checked first.
  const incidents = (await graphql(scenarios[0].query, { page: 1 })).trafficIncidents as Array<{ active: boolean }>;
  const alerts = (await graphql(scenarios[1].query, { region: "13" })).nlAlerts as Array<{ regionNumbers: string[] }>;
  const active = (await graphql(scenarios[2].query, { region: "13" })).nlAlerts;
  if (incidents.length !== 50 || incidents.some((i) => !i.active))
    throw new Error("trafficIncidents(active: true) did not give 50 active incidents");
  if (alerts.length !== 20 || alerts.some((a) => !a.regionNumbers.includes("13")))
    throw new Error('nlAlerts(regionNumber: "13") did not give 20 alerts of region 13');
  log(
    `Check: trafficIncidents(active: true) 50 active; nlAlerts(regionNumber: "13") 20 alerts of region 13; with activeOnly ${active.length}`,
  );
}
const reads: Array<{
  operation: string;
  clients: number;
  seconds: number;
  http: Awaited<ReturnType<typeof httpLoad>>;
  sql: Awaited<ReturnType<typeof sqlLoad>>;
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
    log(`  HTTP ${describeCpu(http.cpu)}`);
    log(`  SQL ${describeCpu(sql.cpu)}`);
  }
}
await service.stop();
await visitor.end();

// 5. The SQL time of one call: 2,000 calls (arguments in turn) in one statement as the visitor, the
// second of two runs; no round trips, no instrumentation.
const REPEAT = 2000;
const perCall: Record<string, number> = {};
{
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  await client.query("set role app_visitor");
  for (const scenario of scenarios) {
    const sql = `select count(*) from generate_series(1, ${REPEAT}) g, lateral ${scenario.repeated} t`;
    await client.query(sql);
    const started = performance.now();
    await client.query(sql);
    perCall[scenario.name] = round((performance.now() - started) / REPEAT, 3);
    log(`SQL per call (${REPEAT} in one statement): ${scenario.name} ${perCall[scenario.name]} ms`);
  }
  await client.end();
}

// 6. Plans: each SQL function as the visitor, its inner statements shown by auto_explain (as
// notices to this session) with ANALYZE and BUFFERS, after a few calls with other arguments so
// that the cached plans are the ones a busy server uses (PL/pgSQL switches to a generic plan
// after five calls).
interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Function Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Actual Total Time"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Index Cond"?: string;
  Filter?: string;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}
const explainer = new pg.Client({ connectionString: superuserUrl });
await explainer.connect();
let notices: string[] = [];
explainer.on("notice", (notice) => notices.push(notice.message ?? ""));
await explainer.query("load 'auto_explain'");
await explainer.query(`set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on; set auto_explain.log_buffers = on;
  set auto_explain.log_timing = on; set auto_explain.log_nested_statements = on; set auto_explain.log_format = json;
  set auto_explain.log_level = notice; set role app_visitor`);
const describe = (node: PlanNode): string =>
  `${node["Node Type"]}${node["Index Name"] ? ` using ${node["Index Name"]}` : ""}${node["Relation Name"] ? ` on ${node["Relation Name"]}` : ""}` +
  `${node["Function Name"] ? ` ${node["Function Name"]}()` : ""} (${node["Actual Rows"]} rows${(node["Actual Loops"] ?? 1) > 1 ? ` × ${node["Actual Loops"]}` : ""}, ` +
  `${node["Actual Total Time"]} ms, buffers ${node["Shared Hit Blocks"] ?? 0} hit/${node["Shared Read Blocks"] ?? 0} read)` +
  `${node["Index Cond"] ? ` cond ${node["Index Cond"]}` : ""}${node.Filter ? ` filter ${node.Filter}` : ""}` +
  `${node["Rows Removed by Filter"] ? ` (${node["Rows Removed by Filter"]} removed)` : ""}`;
const walk = (node: PlanNode, depth = 0): string[] => [
  `${"  ".repeat(depth)}${describe(node)}`,
  ...(node.Plans ?? []).flatMap((child) => walk(child, depth + 1)),
];
const explained: Array<{ scenario: (typeof scenarios)[number]; typical: unknown[]; label: string }> = [
  { scenario: scenarios[0], typical: [1], label: "traffic_incidents(true, 50, page 1)" },
  { scenario: scenarios[0], typical: [5], label: "traffic_incidents(true, 50, page 5)" },
  { scenario: scenarios[1], typical: ["13"], label: "nl_alerts(20, …, region '13', null)" },
  { scenario: scenarios[2], typical: ["13"], label: "nl_alerts(20, …, region '13', active only)" },
];
const plans: Array<{
  call: string;
  milliseconds: number;
  sharedHit: number;
  sharedRead: number;
  seqScans: string[];
  indexes: string[];
  statements: Array<{ query: string; milliseconds: number; plan: string[] }>;
  nestedCalls: number;
}> = [];
for (const { scenario, typical, label } of explained) {
  for (let i = 0; i < 8; i++)
    await explainer.query({ name: scenario.name, text: scenario.sql, values: Object.values(scenario.args()) });
  notices = [];
  await explainer.query({ name: scenario.name, text: scenario.sql, values: typical });
  const statements = notices.flatMap((text) => {
    const match = /^duration: ([\d.]+) ms\s+plan:\s*([\s\S]*)$/.exec(text);
    if (!match) return [];
    const explain = JSON.parse(match[2]) as { "Query Text": string; Plan: PlanNode };
    return [
      {
        query: explain["Query Text"].replace(/\s+/g, " ").trim().slice(0, 200),
        milliseconds: Number(match[1]),
        root: explain.Plan,
        plan: walk(explain.Plan),
      },
    ];
  });
  const all = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(all)];
  // Nodes that ran (a UNION's branches whose one-time filter is false never do).
  const nodes = statements.flatMap((s) => all(s.root)).filter((n) => (n["Actual Loops"] ?? 1) > 0);
  const top = statements.at(-1)!; // auto_explain reports the outer statement last
  plans.push({
    call: label,
    milliseconds: top.milliseconds,
    sharedHit: top.root["Shared Hit Blocks"] ?? 0,
    sharedRead: top.root["Shared Read Blocks"] ?? 0,
    seqScans: [...new Set(nodes.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]!))],
    indexes: [...new Set(nodes.filter((n) => n["Index Name"]).map((n) => `${n["Index Name"]}`))],
    statements: statements.map(({ query, milliseconds, plan }) => ({ query, milliseconds, plan })),
    nestedCalls: statements.length - 1,
  });
  log(
    `\nEXPLAIN (ANALYZE, BUFFERS) app_public.${label} as app_visitor: ${top.milliseconds} ms, ` +
      `${top.root["Shared Hit Blocks"] ?? 0} buffers hit, ${top.root["Shared Read Blocks"] ?? 0} read`,
  );
  // A function called per row (a SQL function that is not inlined) shows once, with its count.
  const shown = new Map<string, { milliseconds: number; calls: number; plan: string[] }>();
  for (const statement of statements) {
    const seen = shown.get(statement.query);
    if (seen) {
      seen.milliseconds += statement.milliseconds;
      seen.calls++;
    } else shown.set(statement.query, { milliseconds: statement.milliseconds, calls: 1, plan: statement.plan });
  }
  for (const [query, { milliseconds, calls, plan }] of shown) {
    log(`  ${round(milliseconds, 3)} ms${calls > 1 ? ` in ${calls} calls` : ""}  ${query}`);
    for (const line of plan) log(`      ${line}`);
  }
}
await explainer.end();

// 7. The figures, against the goal.
const atGoal = reads.filter((r) => r.clients === GOAL_CLIENTS);
const verdicts = atGoal.map(
  (r) => `${r.operation}: p99 ${r.http.p99} ms, ${r.http.p99 < GOAL_P99_MS ? "met" : "NOT met"}`,
);
log(`\nGoal: under ${GOAL_P99_MS} ms p99 at ${GOAL_CLIENTS} clients over HTTP.`);
for (const line of verdicts) log(`  ${line}`);
const mb = (name: string) => `${tables[name].rows.toLocaleString("en")} rows, ${tables[name].mb} MB`;
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  clients: CLIENTS,
  seconds: SECONDS,
  incidents: INCIDENTS,
  alerts: ALERTS,
  shape,
  tables,
  filling,
  goal: { p99Ms: GOAL_P99_MS, clients: GOAL_CLIENTS },
  reads,
  perCall,
  plans,
};
log(
  `\nWrote ${writeResults("traffic-read", "traffic-read-latest.md", result, [
    `Traffic and alerts read benchmark, ${result.date.slice(0, 10)}, ${result.machine}: ${mb("app_public.traffic_incidents")} of traffic incidents ` +
      `(${shape.active_incidents.toLocaleString("en")} active, since ${shape.incidents_from}; filled by set-based SQL), ` +
      `${mb("app_public.nl_alerts")} of NL-Alerts (since ${shape.alerts_from}, ${shape.active_alerts} active; through ingest_nl_alerts) with ` +
      `${mb("app_public.nl_alert_regions")} of regions (${shape.regions_per_alert} per alert; ${shape.region_min}/${shape.region_median}/${shape.region_max} ` +
      `alerts per region, min/median/max). Closed loops over HTTP (API token; the service in its own process on the same two cores as the load ` +
      `generator and PostgreSQL), ${SECONDS} s per operation after ${WARM_UP_SECONDS} s of warm-up, other arguments on every request; beside it ` +
      "the same SQL function through pg as app_visitor.",
    "",
    "| operation | clients | HTTP req/s | HTTP p50 ms | HTTP p95 ms | HTTP p99 ms | answer bytes | SQL req/s | SQL p50 ms | SQL p99 ms | SQL ms per call |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...reads.map(
      (r) =>
        `| ${r.operation} | ${r.clients} | ${r.http.rps} | ${r.http.p50} | ${r.http.p95} | ${r.http.p99} | ${r.http.bytesPerAnswer} | ` +
        `${r.sql.rps} | ${r.sql.p50} | ${r.sql.p99} | ${perCall[r.operation]} |`,
    ),
    "",
    `SQL ms per call: ${REPEAT.toLocaleString("en")} calls with the arguments in turn in one statement as app_visitor (no round trips, no instrumentation).`,
    "",
    "Where the two cores went during the HTTP runs (ms of CPU per request, and share of the cores' time):",
    "",
    "| operation | clients | service process | PostgreSQL | load generator | kernel interrupts | other | idle | steal |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...reads
      .filter((r) => r.http.cpu)
      .map((r) => {
        const c = r.http.cpu!;
        const cell = (p: { msPerRequest: number; share: number }) => `${p.msPerRequest} (${p.share}%)`;
        return `| ${r.operation} | ${r.clients} | ${cell(c.service)} | ${cell(c.postgres)} | ${cell(c.loadGenerator)} | ${cell(c.interrupts)} | ${cell(c.other)} | ${c.idle.share}% | ${c.steal.share}% |`;
      }),
    "",
    `Errors (transport, non-200 or GraphQL errors): ${reads.reduce((sum, r) => sum + r.http.errors, 0)}.`,
    "",
    `Goal: under ${GOAL_P99_MS} ms p99 at ${GOAL_CLIENTS} clients over HTTP. ${verdicts.join("; ")}.`,
    "",
    filling.incidentsSeconds !== undefined || filling.alertsSeconds !== undefined
      ? `Filling (this run): ${filling.incidentsSeconds !== undefined ? `incidents ${filling.incidentsSeconds} s (+${filling.incidentsVacuumAnalyzeSeconds} s VACUUM and ANALYZE)` : "incidents kept"}; ` +
        `${filling.alertsSeconds !== undefined ? `NL-Alerts ${filling.alertsSeconds} s in pages of ${ALERT_BATCH} (+${filling.alertsVacuumAnalyzeSeconds} s)` : "NL-Alerts kept"}.`
      : "Filling: the tables were kept from an earlier run.",
    "",
    "| SQL function (as app_visitor, cached plan, under auto_explain) | execution ms | buffers hit/read | statements inside | indexes | sequential scans |",
    "| --- | --- | --- | --- | --- | --- |",
    ...plans.map(
      (p) =>
        `| ${p.call} | ${p.milliseconds} | ${p.sharedHit}/${p.sharedRead} | ${p.nestedCalls} | ${p.indexes.join(", ") || "-"} | ` +
        `${p.seqScans.join(", ") || "-"} |`,
    ),
  ])}`,
);
await owner.end();
await database.close();
process.exit(0);
