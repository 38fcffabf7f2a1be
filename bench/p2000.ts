// The P2000 benchmark: `npm run bench:p2000 -- [--messages 1000000] [--seconds 10] [--clients 1,16,64]`.
// It builds its own embedded database under bench/.data (kept between runs; --fresh starts over),
// loads a realistic history (lib/p2000/synthetic-pager-traffic.ts) through the real ingestion path, measures the
// ingestion rates (FLEX reader, createP2000Message), then each read operation over real HTTP at
// each client count next to the same SQL run directly through pg, and writes the figures to
// bench/results/ (JSON and Markdown, latest.md is what docs/benchmarks.md shows). The service runs as its
// own process (server.ts); autocannon, a lean load generator, sends the HTTP requests.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { signAccessToken } from "../lib/auth/access-tokens.ts";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { loadConfig, mergeConfig } from "../lib/config.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";
import { createFlexIngester, FLEX_READER_CONNECTIONS } from "../lib/p2000/flex-ingest.ts";
import { generatePagerTraffic } from "../lib/p2000/synthetic-pager-traffic.ts";
import { jwtSecretFor } from "../lib/db/secrets.ts";
import { forgetTrafficAhead, loadFlexHistory } from "./bench-database.ts";
import { closedLoop, machine, percentile, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "1000000" },
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "1,16,64" },
    fresh: { type: "boolean", default: false },
  },
});
const TARGET = Number(values.messages);
const SECONDS = Number(values.seconds);
const CLIENTS = values.clients!.split(",").map(Number);
const PER_DAY = 2700;
const BENCH_DIR = path.dirname(new URL(import.meta.url).pathname);
const DATA_DIR = path.join(BENCH_DIR, ".data");

if (values.fresh) fs.rmSync(DATA_DIR, { recursive: true, force: true });
fs.mkdirSync(DATA_DIR, { recursive: true, mode: 0o755 });
const config = mergeConfig(loadConfig(), {
  database: { url: undefined, dataDir: DATA_DIR, embeddedPgPort: 54339 },
  http: { port: 0 },
  log: { level: "error" },
});
const database = await prepareDatabase(config.database);
const owner = new pg.Pool({ connectionString: database.ownerUrl, max: 2 * FLEX_READER_CONNECTIONS }); // two readers load the history
owner.on("error", () => {}); // idle connections end when the embedded server stops at the end
const log = (line: string) => console.log(line);

/** Closed-loop load through pg: `clients` workers call `call` back to back for SECONDS. */
async function sqlLoad(clients: number, call: () => Promise<void>) {
  const { latencies, errors } = await closedLoop(clients, SECONDS, call);
  return {
    rps: Math.round(latencies.length / SECONDS),
    p50: +percentile(latencies, 50).toFixed(1),
    p99: +percentile(latencies, 99).toFixed(1),
    errors,
  };
}

// 1. History: whatever is missing up to TARGET, from now backwards, in two parallel halves (disjoint
// time ranges, so no dossier spans both) through the same path as the FLEX reader.
const ingestion: Record<string, number> = {};
const history = await loadFlexHistory(owner, TARGET, PER_DAY);
if (history) {
  ingestion.historyMessagesPerSecond = Math.round(history.stored / history.seconds);
  log(`  ${history.stored} messages at ${ingestion.historyMessagesPerSecond}/s with 2 parallel readers`);
  await owner.query("analyze");
}

// 2. Ingestion rates on top of the history: the FLEX reader (one process) and createP2000Message.
// The reader's rate is its steady state: half a day is stored (and forgotten) first, so that the
// measured four days do not pay for a cold cache and connections that are still being planned.
async function readFlex(days: number): Promise<number> {
  const from = new Date(Date.now() + 86_400_000 * 30);
  const lines = [
    ...generatePagerTraffic({ from, to: new Date(from.getTime() + 86_400_000 * days), perDay: PER_DAY, seed: 7 }),
  ];
  const ingester = createFlexIngester(owner, { source: "bench" });
  const started = performance.now();
  for (const line of lines) await ingester.push(line);
  await ingester.flush();
  const rate = Math.round(lines.length / ((performance.now() - started) / 1000));
  await forgetTrafficAhead(owner);
  return rate;
}
{
  await readFlex(0.5);
  ingestion.flexReaderMessagesPerSecond = await readFlex(4);
  log(`FLEX reader: ${ingestion.flexReaderMessagesPerSecond} messages/s (enrichment and dossiers included)`);
}

const service = await startServerProcess({ dataDir: DATA_DIR, pgPort: config.database.embeddedPgPort });
const apiToken = (
  await createApiToken(owner, { environmentUuid: database.operatorEnvironmentUuid, name: "bench", scopes: [] })
).plainToken;
const {
  rows: [admin],
} = await owner.query(`
  with u as (insert into app_public.users (display_name, email_address, is_admin) values ('bench', 'bench-' || gen_random_uuid() || '@example.org', true) returning uuid),
       s as (insert into app_public.sessions (user_uuid, expires_at) select uuid, now() + interval '1 day' from u returning uuid, user_uuid)
  select uuid as session_uuid, user_uuid from s`);
const accessToken = signAccessToken(jwtSecretFor(config), {
  userUuid: admin.user_uuid,
  sessionUuid: admin.session_uuid,
});

/** Closed-loop HTTP load: `clients` connections POST to /graphql back to back for `seconds`. */
async function httpLoad(clients: number, seconds: number, body: () => unknown, token: string) {
  const result = await autocannon({
    url: service.graphqlUrl,
    connections: clients,
    duration: seconds,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }),
      },
    ],
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function graphql(query: string, variables: Record<string, unknown> = {}, token = apiToken) {
  const response = await fetch(service.graphqlUrl, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { errors?: Array<{ message: string }> };
  if (body.errors) throw new Error(body.errors[0].message);
}

{
  let n = 0;
  const mutation = "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid } }";
  const variables = () => ({
    i: {
      message: `A1 AMBU 17106 Kerkstraat Schiedam bon ${900000 + n++}`,
      sended: new Date(Date.now() + 40 * 86_400_000 + n * 1000).toISOString(),
      capcodes: [{ name: "1420007" }],
    },
  });
  await graphql(mutation, variables(), accessToken);
  const result = await httpLoad(4, SECONDS, () => ({ query: mutation, variables: variables() }), accessToken);
  ingestion.createP2000MessagePerSecond = result.rps;
  await forgetTrafficAhead(owner);
  log(`createP2000Message: ${result.rps} messages/s at 4 clients (p99 ${result.p99} ms)`);
}

// 3. Reads: the same operation over HTTP and as SQL through pg with the visitor's settings, with
// the hub analytics cache filled as the hourly task keeps it in a running service.
await owner.query("select app_private.refresh_analytics_cache()");
const {
  rows: [busy],
} = await owner.query(`
  select c.uuid from app_public.p2000_message_capcodes mc join app_public.p2000_capcodes c on c.uuid = mc.capcode_uuid
   where mc.sended > now() - interval '7 days' and c.kind = 'unit' group by c.uuid order by count(*) desc limit 1`);
const week = { from: new Date(Date.now() - 7 * 86_400_000).toISOString(), to: new Date().toISOString() };
const visitor = new pg.Pool({ connectionString: database.authUrl, max: 64 });
visitor.on("error", () => {});
async function asVisitor(sql: string, params: unknown[]) {
  const client = await visitor.connect();
  try {
    await client.query("begin");
    await client.query("select set_config('role', 'app_visitor', true)");
    await client.query(sql, params);
    await client.query("commit");
  } finally {
    client.release();
  }
}
const scenarios: Array<{
  name: string;
  query: string;
  variables: Record<string, unknown>;
  sql: string;
  params: unknown[];
}> = [
  {
    name: "p2000Messages (first 50, week, capcode)",
    query: "query ($f: P2000MessageFilterInput) { p2000Messages(first: 50, filter: $f) { uuid message sended } }",
    variables: { f: { sended: week, capcodes: [busy.uuid] } },
    sql: "select uuid, message, sended from app_public.p2000_messages(50, 1, row(row($1, $2), array[$3], null, null, null, null, null, null)::app_public.p2000_message_filter)",
    params: [week.from, week.to, busy.uuid],
  },
  {
    name: "p2000MessagesCount (week)",
    query: "query ($f: P2000MessageFilterInput) { p2000MessagesCount(filter: $f) }",
    variables: { f: { sended: week } },
    sql: "select app_public.p2000_messages_count(row(row($1, $2), null, null, null, null, null, null, null)::app_public.p2000_message_filter)",
    params: [week.from, week.to],
  },
  {
    name: "p2000Dossiers (first 50)",
    query: "{ p2000Dossiers(first: 50) { uuid title messageCount } }",
    variables: {},
    sql: "select uuid, title, message_count from app_public.p2000_dossiers(50, 1, null)",
    params: [],
  },
  {
    name: "p2000Statistics",
    query: "{ p2000Statistics { total byDiscipline { name count } byRegion { key count } } }",
    variables: {},
    sql: "select * from app_public.p2000_statistics('LAST_7_DAYS')",
    params: [],
  },
  {
    name: "hubAnalyticsHourly",
    query: "{ hubAnalyticsHourly { total hours { hour total } } }",
    variables: {},
    sql: "select * from app_public.hub_analytics_hourly(28)",
    params: [],
  },
];
const reads: Array<Record<string, unknown>> = [];
for (const scenario of scenarios) {
  // One answer checked, then a warm-up: every connection of the server's pool prepares its plans.
  await graphql(scenario.query, scenario.variables);
  const request = () => ({ query: scenario.query, variables: scenario.variables });
  await httpLoad(Math.max(...CLIENTS), 2, request, apiToken);
  for (const clients of CLIENTS) {
    const http = await httpLoad(clients, SECONDS, request, apiToken);
    const sql = await sqlLoad(clients, () => asVisitor(scenario.sql, scenario.params));
    reads.push({ operation: scenario.name, clients, http, sql });
    log(
      `${scenario.name} @${clients}: HTTP ${http.rps}/s p50 ${http.p50} ms p99 ${http.p99} ms | SQL ${sql.rps}/s p99 ${sql.p99} ms${http.errors ? ` (${http.errors} errors)` : ""}`,
    );
  }
}

const {
  rows: [{ messages }],
} = await owner.query("select count(*)::int as messages from app_public.p2000_messages");
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  messages,
  seconds: SECONDS,
  ingestion,
  reads,
};
const table = reads.map(
  (r: any) =>
    `| ${r.operation} | ${r.clients} | ${r.http.rps} | ${r.http.p50} | ${r.http.p99} | ${r.sql.rps} | ${r.sql.p99} |`,
);
log(
  `Wrote ${writeResults("p2000", "latest.md", result, [
    `P2000 benchmark, ${result.date.slice(0, 10)}, ${result.machine}, ${messages.toLocaleString("en")} messages, ${SECONDS} s per measurement.`,
    "",
    `Ingestion: FLEX reader ${ingestion.flexReaderMessagesPerSecond} messages/s; createP2000Message ${ingestion.createP2000MessagePerSecond} messages/s (4 clients)` +
      (ingestion.historyMessagesPerSecond
        ? `; history load ${ingestion.historyMessagesPerSecond} messages/s (2 readers).`
        : "."),
    "",
    "| operation | clients | HTTP req/s | HTTP p50 ms | HTTP p99 ms | SQL req/s | SQL p99 ms |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...table,
  ])}`,
);
await service.stop();
await Promise.all([owner.end(), visitor.end()]);
await database.close();
process.exit(0);
