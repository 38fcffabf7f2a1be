// The monitor preview benchmark: `npm run bench:monitor-preview -- [--messages 1000000] [--days 30]
// [--seconds 10] [--clients 1,16] [--fresh] [--load-only]`.
// It builds its own embedded database under bench/.data-monitor-preview (kept between runs; --fresh
// starts over) with a P2000 history of --messages loaded through the FLEX reader's path (as
// bench/p2000.ts: 2,700 messages a day, so a million is a year and 30 days about 80,000 messages),
// starts the service as its own process, and asks monitorPreview over HTTP with a user's access
// token for: a keyword monitor (no indexed criterion: every message of the window is read) with
// throttle and quiet-hour rules, a region monitor (the region index) and a capcode monitor (the
// capcode index), each at each client count; beside it, the SQL function alone through pg. Goal:
// p99 under 300 ms for 30 days. Figures go to bench/results/monitor-preview-latest.md
// (docs/benchmarks.md shows them) and a dated JSON file.
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { signAccessToken } from "../lib/auth/access-tokens.ts";
import { jwtSecretFor } from "../lib/db/secrets.ts";
import { FLEX_READER_CONNECTIONS } from "../lib/p2000/flex-ingest.ts";
import { monitorPreviewCall } from "../lib/monitors/monitor-input.ts";
import { loadFlexHistory, openBenchDatabase } from "./bench-database.ts";
import { closedLoop, machine, percentile, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "1000000" },
    days: { type: "string", default: "30" },
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "1,16" },
    fresh: { type: "boolean", default: false },
    // Only build the history (long; the measurements want a quiet machine, which may come later).
    "load-only": { type: "boolean", default: false },
  },
});
const TARGET = Number(values.messages);
const DAYS = Number(values.days);
const SECONDS = Number(values.seconds);
const CLIENTS = values.clients!.split(",").map(Number);
const PER_DAY = 2700;
const GOAL_MS = 300;
const log = (line: string) => console.log(line);

const { dataDir, config, database, owner } = await openBenchDatabase("monitor-preview", 54348, values.fresh ?? false);

// 1. History: whatever is missing up to --messages, from now backwards, in two parallel halves
// (disjoint time ranges, so no dossier spans both) through the FLEX reader's path (loadFlexHistory,
// on a pool of its own: the owner pool has two connections).
{
  const loader = new pg.Pool({ connectionString: database.ownerUrl, max: 2 * FLEX_READER_CONNECTIONS });
  const history = await loadFlexHistory(owner, TARGET, PER_DAY, loader);
  await loader.end();
  if (history) {
    log(`  in ${history.seconds.toFixed(0)} s`);
    await owner.query("vacuum analyze");
  }
}
if (values["load-only"]) {
  await owner.end();
  await database.close();
  process.exit(0);
}
const {
  rows: [{ messages, inWindow }],
} = await owner.query(
  `
  select count(*)::int as messages,
         count(*) filter (where sended >= ((now() at time zone 'Europe/Amsterdam')::date - ($1::int - 1))::timestamp at time zone 'Europe/Amsterdam')::int as "inWindow"
    from app_public.p2000_messages`,
  [DAYS],
);

// 2. A member of the operator's organization with a session in its environment: monitorPreview
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
type MonitorInput = { name: string; query: string; notificationRules?: string };
const scenarios: Array<{ name: string; input: MonitorInput }> = [
  {
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
    name: `region ${busy.region}, Ambulance A1 (region index)`,
    input: {
      name: "region",
      query: JSON.stringify({ regions: [busy.region], disciplines: ["Ambulance"], urgencies: ["A1"] }),
      notificationRules: JSON.stringify({ maxPerDossier: 1 }),
    },
  },
  {
    name: `capcode ${busy.capcode} (capcode index)`,
    input: { name: "capcode", query: JSON.stringify({ capcodes: [busy.capcode] }) },
  },
];
const QUERY = `query ($i: CreateMonitorInput!, $d: Int) {
  monitorPreview(input: $i, days: $d) { matches notifications byDay { date matches notifications } messages { uuid message sended } }
}`;

// 3. The service, asked with the member's access token.
const service = await startServerProcess({ dataDir, pgPort: config.database.embeddedPgPort });
const headers = { "content-type": "application/json", authorization: `Bearer ${accessToken}` };
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

const reads: Array<{
  monitor: string;
  matches: number;
  notifications: number;
  clients: number;
  http: Awaited<ReturnType<typeof httpLoad>>;
  sql: { p50: number; p99: number };
}> = [];
for (const scenario of scenarios) {
  const answer = await preview(scenario.input);
  if (answer.byDay.length !== DAYS) throw new Error(`${scenario.name}: ${answer.byDay.length} days, not ${DAYS}`);
  // Warm-up: every connection of the server's pool plans the statements once; so does the SQL
  // alone's connection.
  await httpLoad(Math.max(...CLIENTS), 2, scenario.input);
  await sqlOnce(scenario.input);
  const { latencies } = await closedLoop(1, SECONDS, () => sqlOnce(scenario.input));
  const sql = { p50: +percentile(latencies, 50).toFixed(1), p99: +percentile(latencies, 99).toFixed(1) };
  for (const clients of CLIENTS) {
    const http = await httpLoad(clients, SECONDS, scenario.input);
    reads.push({
      monitor: scenario.name,
      matches: answer.matches,
      notifications: answer.notifications,
      clients,
      http,
      sql,
    });
    log(
      `${scenario.name} @${clients}: ${answer.matches} matches, ${answer.notifications} notifications | HTTP ${http.rps}/s ` +
        `p50 ${http.p50} ms p99 ${http.p99} ms | SQL alone p50 ${sql.p50} ms p99 ${sql.p99} ms${http.errors ? ` (${http.errors} errors)` : ""}`,
    );
  }
}

const result = {
  date: new Date().toISOString(),
  machine: machine(),
  messages,
  days: DAYS,
  messagesInWindow: inWindow,
  seconds: SECONDS,
  goalMs: GOAL_MS,
  reads,
};
const table = reads.map(
  (r) =>
    `| ${r.monitor} | ${r.matches} | ${r.notifications} | ${r.clients} | ${r.http.rps} | ${r.http.p50} | ${r.http.p99} | ${r.sql.p99} | ${r.http.p99 < GOAL_MS ? "yes" : "no"} |`,
);
log(
  `Wrote ${writeResults("monitor-preview", "monitor-preview-latest.md", result, [
    `Monitor preview benchmark, ${result.date.slice(0, 10)}, ${result.machine}: ${messages.toLocaleString("en")} messages, ` +
      `a window of ${DAYS} days (${inWindow.toLocaleString("en")} messages), ${SECONDS} s per measurement, HTTP with a user's access token.`,
    "",
    `| monitor | matches | notifications | clients | HTTP req/s | HTTP p50 ms | HTTP p99 ms | SQL alone p99 ms (1 client) | p99 < ${GOAL_MS} ms |`,
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...table,
  ])}`,
);
await service.stop();
await Promise.all([owner.end(), visitor.end()]);
await database.close();
process.exit(0);
