// The monitor preview benchmark: `npm run bench:monitor-preview -- [--messages 1000000] [--days 30]
// [--seconds 10] [--clients 1,16] [--only p2000,accident,...] [--fresh] [--load-only] [--port 54348]
// [--data monitor-preview]` and the feed histories' sizes (--incidents, --jams, --rail, --nl-alerts,
// --amber, --meteo-years, --aircraft-days, --flights, --rss-items; defaults below, the other benches').
// It builds its own embedded database under bench/.data-<data> (kept between runs; --fresh starts
// over) with a P2000 history of --messages loaded through the FLEX reader's path (as bench/p2000.ts:
// 2,700 messages a day, so a million is a year and 30 days about 80,000 messages) and the history of
// every feed a monitor type reads, filled by the functions the feeds' own benches fill with
// (bench/feed-histories.ts; each fills only what is missing): a million traffic incidents over
// three years with their opened and closed events (bench/traffic-read.ts), 300,000 jams and 10,000
// railway disruptions over three years, 10,000 NL-Alerts over five years (bench/traffic-read.ts)
// and 300 AMBER alerts, ten years of daily KNMI warnings documents (bench/meteo.ts), four take-offs
// and landings a day of each tracked helicopter for 400 days, and a million RSS items in the 50
// feeds of three rss monitors over two years (bench/rss.ts). Then it starts the service as its
// own process and asks monitorPreview over HTTP with a user's access token for realistic monitors
// of every type: P2000 (keywords with throttle and quiet-hour rules, no indexed criterion: every
// message of the window is read; a region; a capcode), accident, matrix, rail_disruptions,
// meteo_weather, aircraft, rss, nl_alert (a circle, a region) and amber_alert, each at each client
// count; beside it, the SQL function alone through pg, and the plan of each feed preview's
// statements (auto_explain as the visitor). Goal: p99 under 300 ms for 30 days at one client.
// Figures go to bench/results/monitor-preview-latest.md (docs/benchmarks.md shows them) and a
// dated JSON file.
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { signAccessToken } from "../lib/auth/access-tokens.ts";
import { pgUrl } from "../lib/db/pg-url.ts";
import { jwtSecretFor } from "../lib/db/secrets.ts";
import { FLEX_READER_CONNECTIONS } from "../lib/p2000/flex-ingest.ts";
import { monitorPreviewCall } from "../lib/monitors/monitor-input.ts";
import { loadFlexHistory, openBenchDatabase } from "./bench-database.ts";
import { loadAverage } from "./cpu-accounting.ts";
import { autoExplain } from "./explain.ts";
import { FEED_HISTORY_SIZES, fillEveryFeedHistory, rssFeedUrls } from "./feed-histories.ts";
import { closedLoop, machine, percentile, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "1000000" },
    incidents: { type: "string", default: String(FEED_HISTORY_SIZES.incidents) },
    jams: { type: "string", default: String(FEED_HISTORY_SIZES.jams) },
    rail: { type: "string", default: String(FEED_HISTORY_SIZES.rail) },
    "nl-alerts": { type: "string", default: String(FEED_HISTORY_SIZES.nlAlerts) },
    amber: { type: "string", default: String(FEED_HISTORY_SIZES.amber) },
    "meteo-years": { type: "string", default: String(FEED_HISTORY_SIZES.meteoYears) },
    "aircraft-days": { type: "string", default: String(FEED_HISTORY_SIZES.aircraftDays) },
    // Flights a day of each tracked aircraft (a take-off and a landing each).
    flights: { type: "string", default: String(FEED_HISTORY_SIZES.flights) },
    "rss-items": { type: "string", default: String(FEED_HISTORY_SIZES.rssItems) },
    days: { type: "string", default: "30" },
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "1,16" },
    // Monitor types to measure (all by default).
    only: { type: "string" },
    fresh: { type: "boolean", default: false },
    // The embedded cluster's port, and the data directory's name (bench/.data-<data>), so that a
    // small trial database can sit beside the full one.
    port: { type: "string", default: "54348" },
    data: { type: "string", default: "monitor-preview" },
    // Only build the history (long; the measurements want a quiet machine, which may come later).
    "load-only": { type: "boolean", default: false },
  },
});
const TARGET = Number(values.messages);
const DAYS = Number(values.days);
const SECONDS = Number(values.seconds);
const CLIENTS = values.clients!.split(",").map(Number);
const ONLY = values.only?.split(",");
const PER_DAY = 2700;
const GOAL_MS = 300;
const SOURCE = "bench:monitor-preview";
const log = (line: string) => console.log(line);

const { dataDir, config, database, owner } = await openBenchDatabase(
  values.data!,
  Number(values.port),
  values.fresh ?? false,
);
const rootUrl = database.rootUrl;
if (!rootUrl) throw new Error("CHECKPOINT and auto_explain need the superuser URL of the embedded cluster.");
const superuserUrl = pgUrl(rootUrl, { database: config.database.name });

// 1. History: whatever is missing up to --messages, from now backwards, in two parallel halves
// (disjoint time ranges, so no dossier spans both) through the FLEX reader's path (loadFlexHistory,
// on a pool of its own: the owner pool has two connections).
const filling: Record<string, number> = {};
{
  const loader = new pg.Pool({ connectionString: database.ownerUrl, max: 2 * FLEX_READER_CONNECTIONS });
  const history = await loadFlexHistory(owner, TARGET, PER_DAY, loader);
  await loader.end();
  if (history) {
    log(`  in ${history.seconds.toFixed(0)} s`);
    filling.p2000Seconds = Math.round(history.seconds);
    await owner.query("vacuum analyze");
  }
}
// 2. The feeds' histories, each as its own bench fills it (bench/feed-histories.ts), whatever is missing.
Object.assign(
  filling,
  await fillEveryFeedHistory(
    owner,
    { ownerUrl: database.ownerUrl, environmentUuid: database.operatorEnvironmentUuid, source: SOURCE },
    {
      incidents: Number(values.incidents),
      jams: Number(values.jams),
      rail: Number(values.rail),
      nlAlerts: Number(values["nl-alerts"]),
      amber: Number(values.amber),
      meteoYears: Number(values["meteo-years"]),
      aircraftDays: Number(values["aircraft-days"]),
      flights: Number(values.flights),
      rssItems: Number(values["rss-items"]),
    },
    log,
  ),
);
if (Object.keys(filling).length > 0) {
  await owner.query("vacuum analyze");
  // The load left dirty pages and WAL: written now rather than by the checkpointer in the middle
  // of the measurements.
  const root = new pg.Client({ connectionString: superuserUrl });
  await root.connect();
  await root.query("checkpoint");
  await root.end();
}
if (values["load-only"]) {
  await owner.end();
  await database.close();
  process.exit(0);
}

// What the window holds of each history: the rows a preview of each type reads by time.
const WINDOW_START = `((now() at time zone 'Europe/Amsterdam')::date - ($1::int - 1))::timestamp at time zone 'Europe/Amsterdam'`;
const WINDOW_ROWS: Record<string, string> = {
  p2000: "select count(*) from app_public.p2000_messages where sended >= w.since",
  accident: "select count(*) from app_public.traffic_incident_events where created >= w.since",
  matrix: "select count(*) from app_public.traffic_jams where first_seen_at >= w.since",
  rail_disruptions:
    "select count(*) from app_public.rail_disruptions where greatest(first_seen_at, start_at) between w.since and now()",
  meteo_weather: "select count(*) from app_public.meteo_warning_events where created >= w.since",
  aircraft: "select count(*) from app_public.aircraft_events where at >= w.since",
  rss: "select count(*) from app_public.rss_feed_items where first_seen_at >= w.since",
  nl_alert: "select count(*) from app_public.nl_alerts where start_at >= w.since",
  amber_alert: "select count(*) from app_public.amber_alerts where started_at >= w.since",
};
const HISTORY_ROWS: Record<string, string> = {
  p2000: "app_public.p2000_messages",
  accident: "app_public.traffic_incident_events",
  matrix: "app_public.traffic_jams",
  rail_disruptions: "app_public.rail_disruptions",
  meteo_weather: "app_public.meteo_warning_events",
  aircraft: "app_public.aircraft_events",
  rss: "app_public.rss_feed_items",
  nl_alert: "app_public.nl_alerts",
  amber_alert: "app_public.amber_alerts",
};
const {
  rows: [sizes],
} = await owner.query<Record<string, { history: number; window: number }>>(
  `with w as (select ${WINDOW_START} as since)
   select ${Object.keys(WINDOW_ROWS)
     .map(
       (type) =>
         `json_build_object('history', (select count(*) from ${HISTORY_ROWS[type]}), 'window', (${WINDOW_ROWS[type]})) as ${type}`,
     )
     .join(", ")} from w`,
  [DAYS],
);
for (const [type, size] of Object.entries(sizes))
  log(`  ${type}: ${size.history.toLocaleString("en")} rows, ${size.window.toLocaleString("en")} in the window`);

// 3. A member of the operator's organization with a session in its environment: monitorPreview
// takes a user's access token, as monitors does.
const {
  rows: [member],
} = await owner.query(
  `
  with u as (insert into app_public.users (display_name, email_address) values ('bench', 'bench-' || gen_random_uuid() || '@example.org') returning uuid),
       o as (insert into app_hidden.organization_memberships (organization_uuid, user_uuid)
             select e.organization_uuid, u.uuid from app_public.environments e, u where e.uuid = $1),
       s as (insert into app_public.sessions (user_uuid, environment_uuid, expires_at) select uuid, $1, now() + interval '1 day' from u returning uuid, user_uuid)
  select uuid as session_uuid, user_uuid from s`,
  [database.operatorEnvironmentUuid],
);
const accessToken = signAccessToken(jwtSecretFor(config), {
  userUuid: member.user_uuid,
  sessionUuid: member.session_uuid,
});

// The busiest unit capcode of the window and the busiest region: the monitors people make.
const {
  rows: [busy],
} = await owner.query(
  `
  select (select c.name from app_public.p2000_message_capcodes mc join app_public.p2000_capcodes c on c.uuid = mc.capcode_uuid
           where mc.sended > now() - make_interval(days => $1) and c.kind = 'unit' group by c.name order by count(*) desc, c.name limit 1) as capcode,
         (select g.number from app_public.p2000_messages m join app_public.p2000_regions g on g.uuid = m.region_uuid
           where m.sended > now() - make_interval(days => $1) group by g.number order by count(*) desc, g.number limit 1) as region`,
  [DAYS],
);
/** A CreateMonitorInput (the fields these monitors set). */
type MonitorInput = {
  name: string;
  type?: string;
  query: string;
  location?: { latitude: number; longitude: number };
  radius?: number;
  notificationRules?: string;
};
const UTRECHT = { latitude: 52.0907, longitude: 5.1214 };
const allScenarios: Array<{ type: string; name: string; input: MonitorInput }> = [
  {
    type: "p2000",
    name: "keywords (every message of the window read), throttle + quiet hours",
    input: {
      name: "keywords",
      query: JSON.stringify({ keywords: ["kerkstraat", "reanimatie"], excludeKeywords: ["proefalarm"] }),
      notificationRules: JSON.stringify({
        maxPerPeriod: { count: 3, minutes: 60 },
        quietHours: { from: "23:00", to: "07:00" },
      }),
    },
  },
  {
    type: "p2000",
    name: `region ${busy.region}, Ambulance A1 (region index)`,
    input: {
      name: "region",
      query: JSON.stringify({ regions: [busy.region], disciplines: ["Ambulance"], urgencies: ["A1"] }),
      notificationRules: JSON.stringify({ maxPerDossier: 1 }),
    },
  },
  {
    type: "p2000",
    name: `capcode ${busy.capcode} (capcode index)`,
    input: { name: "capcode", query: JSON.stringify({ capcodes: [busy.capcode] }) },
  },
  {
    type: "accident",
    name: "accidents on the A2 and A12, at most 5 an hour",
    input: {
      name: "A2 en A12",
      type: "accident",
      query: JSON.stringify({ types: ["accident"], roads: ["A2", "A12"] }),
      notificationRules: JSON.stringify({ maxPerPeriod: { count: 5, minutes: 60 } }),
    },
  },
  {
    type: "matrix",
    name: "jams of 10 minutes' delay or more, every road",
    input: { name: "Files", type: "matrix", query: JSON.stringify({ minDelayMinutes: 10 }) },
  },
  {
    type: "rail_disruptions",
    name: "route Amsterdam–Utrecht (and calamities)",
    input: {
      name: "Amsterdam–Utrecht",
      type: "rail_disruptions",
      query: JSON.stringify({ routes: ["amsterdam-utrecht"] }),
    },
  },
  {
    type: "meteo_weather",
    name: "province Utrecht, every level",
    input: { name: "Weer Utrecht", type: "meteo_weather", query: JSON.stringify({ regions: ["utrecht"] }) },
  },
  {
    type: "aircraft",
    name: "trauma helicopters within 25 km of Utrecht",
    input: {
      name: "Lifeliners Utrecht",
      type: "aircraft",
      query: JSON.stringify({ kinds: ["trauma"] }),
      location: UTRECHT,
      radius: 25,
    },
  },
  {
    type: "rss",
    name: "30 followed feeds, keywords brand/ongeval",
    input: {
      name: "Nieuws",
      type: "rss",
      query: JSON.stringify({ feeds: rssFeedUrls(1, 30), keywords: ["brand", "ongeval"] }),
    },
  },
  {
    type: "nl_alert",
    name: "a circle of 10 km around Utrecht",
    input: { name: "NL-Alert Utrecht", type: "nl_alert", query: "{}", location: UTRECHT, radius: 10 },
  },
  {
    type: "nl_alert",
    name: "safety region 09 (Utrecht)",
    input: { name: "NL-Alert regio Utrecht", type: "nl_alert", query: JSON.stringify({ regions: ["09"] }) },
  },
  {
    type: "amber_alert",
    name: "nationwide, every kind",
    input: { name: "AMBER", type: "amber_alert", query: "{}" },
  },
];
const scenarios = allScenarios.filter((s) => !ONLY || ONLY.includes(s.type));
const QUERY = `query ($i: CreateMonitorInput!, $d: Int) {
  monitorPreview(input: $i, days: $d) { matches notifications byDay { date matches notifications } messages { uuid message sended }
    items { kind uuid at title latitude longitude } }
}`;

// 4. The service, asked with the member's access token.
const service = await startServerProcess({ dataDir, pgPort: config.database.embeddedPgPort });
const headers = { "content-type": "application/json", authorization: `Bearer ${accessToken}` };
// The first request builds the schema, and the check that lets a user's access token ask
// monitorPreview learns the account fields from that build (plugins/require-api-token.ts): a first
// request for monitorPreview is refused as public data. One request that needs no token first.
{
  const response = await fetch(service.graphqlUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ __typename }" }),
  });
  if (!response.ok) throw new Error(`{ __typename }: HTTP ${response.status}`);
}
const requestBody = (input: MonitorInput) => JSON.stringify({ query: QUERY, variables: { i: input, d: DAYS } });
async function preview(input: MonitorInput) {
  const response = await fetch(service.graphqlUrl, { method: "POST", headers, body: requestBody(input) });
  const body = (await response.json()) as {
    data?: { monitorPreview: { matches: number; notifications: number; byDay: unknown[] } };
    errors?: Array<{ message: string }>;
  };
  if (body.errors || !body.data) throw new Error(body.errors?.[0]?.message ?? `HTTP ${response.status}`);
  return body.data.monitorPreview;
}

/** Closed-loop HTTP load: `clients` connections POST to /graphql back to back for `seconds`. */
async function httpLoad(clients: number, seconds: number, input: MonitorInput) {
  const result = await autocannon({
    url: service.graphqlUrl,
    connections: clients,
    duration: seconds,
    requests: [{ method: "POST", headers, body: requestBody(input) }],
  });
  return {
    rps: +result.requests.average.toFixed(1),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

// The SQL function alone, as the visitor with the member's session: the plugin's statement with the
// plugin's arguments (plugins/monitor-preview.ts).
const visitor = new pg.Pool({ connectionString: database.authUrl, max: 1 });
visitor.on("error", () => {});
async function sqlOnce(input: MonitorInput) {
  const client = await visitor.connect();
  try {
    await client.query("begin");
    await client.query("select set_config('role', 'app_visitor', true), set_config('app.session_uuid', $1, true)", [
      member.session_uuid,
    ]);
    const call = monitorPreviewCall(DAYS, input);
    await client.query({ text: `select * from ${call.text}`, values: call.values });
    await client.query("commit");
  } finally {
    client.release();
  }
}

const loadAtStart = loadAverage();
const reads: Array<{
  type: string;
  monitor: string;
  windowRows: number;
  matches: number;
  notifications: number;
  clients: number;
  http: Awaited<ReturnType<typeof httpLoad>>;
  sql: { p50: number; p99: number };
}> = [];
for (const scenario of scenarios) {
  const answer = await preview(scenario.input);
  if (answer.byDay.length !== DAYS) throw new Error(`${scenario.name}: ${answer.byDay.length} days, not ${DAYS}`);
  // A preview that finds nothing still reads its window, but says little: told, not fatal (a
  // month without a weather warning in a province happens).
  if (answer.matches === 0) log(`${scenario.type} ${scenario.name}: no matches in ${DAYS} days`);
  // Warm-up: every connection of the server's pool plans the statements once; so does the SQL
  // alone's connection.
  await httpLoad(Math.max(...CLIENTS), 2, scenario.input);
  await sqlOnce(scenario.input);
  const { latencies } = await closedLoop(1, SECONDS, () => sqlOnce(scenario.input));
  const sql = { p50: +percentile(latencies, 50).toFixed(1), p99: +percentile(latencies, 99).toFixed(1) };
  for (const clients of CLIENTS) {
    const http = await httpLoad(clients, SECONDS, scenario.input);
    reads.push({
      type: scenario.type,
      monitor: scenario.name,
      windowRows: sizes[scenario.type].window,
      matches: answer.matches,
      notifications: answer.notifications,
      clients,
      http,
      sql,
    });
    log(
      `${scenario.type}: ${scenario.name} @${clients}: ${answer.matches} matches, ${answer.notifications} notifications | HTTP ${http.rps}/s ` +
        `p50 ${http.p50} ms p99 ${http.p99} ms | SQL alone p50 ${sql.p50} ms p99 ${sql.p99} ms${http.errors ? ` (${http.errors} errors)` : ""}`,
    );
  }
}
await service.stop();

// 5. Plans: each preview once as the visitor with the member's session, the statements inside the
// functions shown by auto_explain with ANALYZE and BUFFERS, after two calls that plan them. A
// statement run once per item (a match definition that is not inlined) is reported once, with its
// number of runs and their total time; the four that took longest are kept. (auto_explain's
// instrumentation makes each statement slower than it is unobserved, the per-item ones most.)
const explainer = new pg.Client({ connectionString: superuserUrl });
await explainer.connect();
const explain = await autoExplain(
  explainer,
  `set role app_visitor; select set_config('app.session_uuid', '${member.session_uuid}', false)`,
);
const plans: Array<{
  type: string;
  monitor: string;
  statements: Array<{ query: string; runs: number; milliseconds: number; plan: string[] }>;
}> = [];
for (const scenario of scenarios) {
  const call = monitorPreviewCall(DAYS, scenario.input);
  for (let i = 0; i < 2; i++) await explainer.query({ text: `select * from ${call.text}`, values: call.values });
  explain.clear();
  await explainer.query({ text: `select * from ${call.text}`, values: call.values });
  const byQuery = new Map<string, { query: string; runs: number; milliseconds: number; plan: string[] }>();
  for (const { query, milliseconds, plan } of explain.statements(160)) {
    const seen = byQuery.get(query);
    if (seen) {
      seen.runs++;
      seen.milliseconds += milliseconds;
    } else byQuery.set(query, { query, runs: 1, milliseconds, plan });
  }
  const statements = [...byQuery.values()]
    .map((s) => ({ ...s, milliseconds: +s.milliseconds.toFixed(1) }))
    .sort((x, y) => y.milliseconds - x.milliseconds)
    .slice(0, 4);
  plans.push({ type: scenario.type, monitor: scenario.name, statements });
  log(`Plan of ${scenario.type}: ${scenario.name}`);
  for (const statement of statements) {
    log(`  ${statement.milliseconds} ms in ${statement.runs} run(s): ${statement.query}`);
    for (const line of statement.plan) log(`    ${line}`);
  }
}
await explainer.query("reset role"); // auto_explain's settings are the superuser's to change
await explain.stop();
await explainer.end();

const result = {
  date: new Date().toISOString(),
  machine: machine(),
  loadAverage: { start: loadAtStart, end: loadAverage() },
  days: DAYS,
  sizes,
  filling,
  seconds: SECONDS,
  goalMs: GOAL_MS,
  reads,
  plans,
};
const table = reads.map(
  (r) =>
    `| ${r.type} | ${r.monitor} | ${r.windowRows.toLocaleString("en")} | ${r.matches} | ${r.notifications} | ${r.clients} | ${r.http.rps} | ${r.http.p50} | ${r.http.p99}${r.http.errors ? ` (${r.http.errors} errors or timeouts)` : ""} | ${r.sql.p50} | ${r.sql.p99} | ${!r.http.errors && r.http.p99 < GOAL_MS ? "yes" : "no"} |`,
);
const history = Object.entries(sizes)
  .map(([type, size]) => `${type} ${size.history.toLocaleString("en")} (${size.window.toLocaleString("en")})`)
  .join(", ");
log(
  `Wrote ${writeResults("monitor-preview", "monitor-preview-latest.md", result, [
    `Monitor preview benchmark, ${result.date.slice(0, 10)}, ${result.machine}, load average ${result.loadAverage.start.join(" ")} ` +
      `before the measurements and ${result.loadAverage.end.join(" ")} after (other work shares the two cores): ` +
      `a window of ${DAYS} days, ${SECONDS} s per measurement, HTTP with a user's access token. History rows of each type ` +
      `(in the window): ${history}.`,
    "",
    `| type | monitor | rows in window | matches | notifications | clients | HTTP req/s | HTTP p50 ms | HTTP p99 ms | SQL alone p50 ms | SQL alone p99 ms (1 client) | p99 < ${GOAL_MS} ms |`,
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...table,
  ])}`,
);
await Promise.all([owner.end(), visitor.end()]);
await database.close();
process.exit(0);
