// The RSS search benchmark: `npm run bench:rss -- [--items 1000000] [--seconds 10] [--clients 1,16] [--fresh]`.
// It builds its own embedded database under bench/.data-rss (kept between runs; --fresh starts
// over; when app_public.rss_feed_items does not hold the asked number of rows it is emptied and
// filled again). Two environments: the operator environment, whose API token is measured, with
// three rss monitors following 50 feeds between them (25 P2000 region feeds, 15 Dutch and 10
// English news feeds), and a second environment with one monitor following 10 feeds of its own
// and two of the first's. Monitors go in as the owner; their trigger (app_hidden.sync_rss_monitor)
// creates the feeds, which are then made due never (next_poll_at 'infinity'), so the poller of the
// service under measurement fetches nothing. Items (--items for the first environment's feeds, a
// tenth more for the second's, interleaved) go in as a few set-based INSERTs as the owner
// (generate_series): two years, heap and uuidv7 keys in time order as in a live table, titles and
// summaries from word lists (P2000 alerts, Dutch and English news) so that the common words
// (brand, ambulance, ongeval) are in 5-15% of the items and each rare street name in a few dozen.
// app.rss_notify is not set, so the statement trigger queues no matching. Then ANALYZE, VACUUM and
// a CHECKPOINT, and five reads are asked over HTTP with the first environment's API token at 1 and
// 16 connections (autocannon) after a warm-up, next to the same SQL functions through pg as
// app_visitor with the token's settings: rssFeedItems(q: common word), (q: rare word), (q: two
// words or a phrase), (no q), and rssFeedItemsCount(q: common word). The SQL time of one call is
// measured without round trips, and each function is explained as the visitor (auto_explain shows
// the statements inside the functions, with their cached plans). The goal (the issue): under 30 ms
// p99 over a million items (at 16 clients, as the other read benches). Figures go to
// bench/results/rss-latest.md (docs/benchmarks.md shows them) and a dated JSON file.
import { parseArgs } from "node:util";
import pg from "pg";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { pgUrl } from "../lib/db/pg-url.ts";
import {
  makeCpuSampler,
  cpuSplit,
  describeCpu,
  findServicePid,
  leastDisturbed,
  loadAverage as readLoadAverage,
  quietMoment,
} from "./cpu-accounting.ts";
import { openBenchDatabase, seeded } from "./bench-database.ts";
import { fillRssItems, fillRssMonitors, rssMonitorSpecs, RSS_FEEDS, RSS_RARE_STREETS } from "./feed-histories.ts";
import { autoExplain, type PlanNode } from "./explain.ts";
import { httpLoad as loadOverHttp } from "./http-load.ts";
import { closedLoop, machine, summary, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

const { values } = parseArgs({
  options: {
    items: { type: "string", default: "1000000" },
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "1,16" },
    fresh: { type: "boolean", default: false },
  },
});
const ITEMS = Number(values.items);
const SECONDS = Number(values.seconds);
const CLIENTS = values.clients!.split(",").map(Number);
// Every eleventh row belongs to the second environment's feeds: a tenth of ITEMS more.
const TOTAL = Math.round((ITEMS * 11) / 10);
const OTHER = Math.floor(TOTAL / 11);
const WARM_UP_SECONDS = 2;
const GOAL_P99_MS = 30;
const GOAL_CLIENTS = 16;
const log = (line: string) => console.log(line);

const { dataDir: DATA_DIR, config, database, owner } = await openBenchDatabase("rss", 54345, values.fresh ?? false);

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

// 1. Feeds and monitors, and 2. items (bench/feed-histories.ts): 50 feeds of the operator
// environment followed by three rss monitors, ten of a second environment, and --items items over
// two years, set-based.
const firstEnvironment = database.operatorEnvironmentUuid;
const secondEnvironment = await fillRssMonitors(owner, firstEnvironment, log);
const filling = await fillRssItems(owner, ITEMS, log);

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

// 3. What the tables hold, and how many items each word matches (as the owner: all items; and in
// the measured environment's feeds).
const COMMON = ["brand", "ambulance", "ongeval"];
const RARE = RSS_RARE_STREETS.map((s) => s.toLowerCase());
const TWO_WORDS = [
  "brand woning",
  '"ongeval wegvervoer"',
  "ambulance amsterdam",
  "fire house",
  "brand -container",
  '"brand woning" utrecht',
];
const { rows: sizes } = await owner.query<{ name: string; rows: string; mb: string }>(`
  select t.name, (xpath('/row/c/text()', query_to_xml(format('select count(*) as c from %s', t.name), false, true, '')))[1]::text as rows,
         round(pg_total_relation_size(t.name::regclass) / 1048576.0, 1)::text as mb
    from unnest(array['app_public.rss_feeds', 'app_public.rss_feed_items']) t(name)`);
const tables = Object.fromEntries(sizes.map((s) => [s.name, { rows: Number(s.rows), mb: Number(s.mb) }]));
const { rows: indexSizes } = await owner.query<{ name: string; mb: number }>(`
  select c.relname as name, round(pg_relation_size(c.oid) / 1048576.0, 1)::float8 as mb
    from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = 'app_public.rss_feed_items'::regclass order by c.relname`);
const firstFeeds = `(select f.uuid from app_public.rss_feeds f where f.url = any ($2::text[]))`;
const firstUrls = [
  ...new Set(
    rssMonitorSpecs(firstEnvironment, secondEnvironment)
      .filter((m) => m.environment === firstEnvironment)
      .flatMap((m) => m.query.feeds),
  ),
];
const matchCount = async (q: string) =>
  (
    await owner.query<{ all: number; first: number }>(
      `
  with q as (select websearch_to_tsquery('pg_catalog.dutch', $1) || websearch_to_tsquery('pg_catalog.english', $1) as query)
  select count(*)::int as all, (count(*) filter (where i.feed_uuid in ${firstFeeds}))::int as first
    from app_public.rss_feed_items i, q where i.search @@ q.query`,
      [q, firstUrls],
    )
  ).rows[0];
const matches: Record<string, { all: number; first: number }> = {};
for (const q of [...COMMON, ...TWO_WORDS]) matches[q] = await matchCount(q);
const rareCounts = await Promise.all(RARE.map((q) => matchCount(q)));
const rareFirst = rareCounts.map((c) => c.first).sort((a, b) => a - b);
const {
  rows: [shape],
} = await owner.query(
  `
  select (select count(*)::int from app_public.rss_feed_items where feed_uuid in ${firstFeeds}) as first_environment_items,
         (select count(*)::int from app_public.rss_feed_items where feed_uuid not in ${firstFeeds}) as other_items,
         (select min(sort_at)::date::text from app_public.rss_feed_items) as items_from,
         (select round(avg(length(title)))::int from app_public.rss_feed_items) as title_chars,
         (select round(avg(length(summary)))::int from app_public.rss_feed_items) as summary_chars,
         (select count(*)::int from app_public.monitors where type = 'rss') as monitors,
         (select count(*)::int from graphile_worker.jobs) as jobs, $1::int as total`,
  [TOTAL, firstUrls],
);
const share = (n: number) => `${round((100 * n) / shape.first_environment_items, 2)}%`;
log(
  `Items: ${shape.total.toLocaleString("en")} (${shape.first_environment_items.toLocaleString("en")} in the measured environment's 50 feeds, ` +
    `${shape.other_items.toLocaleString("en")} in the other's own), since ${shape.items_from}; ${JSON.stringify(tables)}; indexes ${JSON.stringify(indexSizes)}`,
);
log(
  `Matches in the measured environment: ${Object.entries(matches)
    .map(([q, c]) => `${q} ${c.first.toLocaleString("en")} (${share(c.first)})`)
    .join(", ")}; ` +
    `rare streets min/median/max ${rareFirst[0]}/${rareFirst[Math.floor(rareFirst.length / 2)]}/${rareFirst.at(-1)}`,
);
if (shape.jobs !== 0) log(`Warning: ${shape.jobs} graphile_worker jobs queued`);

// 4. The operations, with new arguments on every request: each as a GraphQL query (its variables)
// and as the SQL function the field calls (the same values, in this order, as parameters).
const random = seeded(2028);
const pickOf = (list: readonly string[]) => () => ({ q: list[Math.floor(random() * list.length)] });
const ITEM_FIELDS = "uuid feedUrl feedTitle title link summary publishedAt";
const filterOf = (q: string) => `row(null, null, ${q}, null)::app_public.rss_feed_item_filter`;
// `repeated`: the same call with the arguments in turn, many times in one statement (the SQL time
// of a call without round trips or instrumentation; every call depends on the series' g, or it
// would run once for all); `typical`: the arguments of the explained call.
const listQuery = `query ($q: String!) { rssFeedItems(filter: { q: $q }, first: 20) { ${ITEM_FIELDS} } }`;
const sqlArray = (list: readonly string[]) => `array[${list.map((s) => `'${s.replace(/'/g, "''")}'`).join(", ")}]`;
const scenarios: Array<{
  name: string;
  query: string;
  sql: string;
  repeated: string;
  typical: unknown[];
  args: () => Record<string, unknown>;
}> = [
  {
    name: "rssFeedItems(q: common word, first: 20)",
    query: listQuery,
    sql: `select * from app_public.rss_feed_items(20, null, ${filterOf("$1")})`,
    repeated: `app_public.rss_feed_items(20, null, ${filterOf(`(${sqlArray(COMMON)})[1 + g % ${COMMON.length}]`)})`,
    typical: ["brand"],
    args: pickOf(COMMON),
  },
  {
    name: "rssFeedItems(q: rare street, first: 20)",
    query: listQuery,
    sql: `select * from app_public.rss_feed_items(20, null, ${filterOf("$1")})`,
    repeated: `app_public.rss_feed_items(20, null, ${filterOf(`(${sqlArray(RARE)})[1 + g % ${RARE.length}]`)})`,
    typical: [RARE[0]],
    args: pickOf(RARE),
  },
  {
    name: "rssFeedItems(q: two words or a phrase, first: 20)",
    query: listQuery,
    sql: `select * from app_public.rss_feed_items(20, null, ${filterOf("$1")})`,
    repeated: `app_public.rss_feed_items(20, null, ${filterOf(`(${sqlArray(TWO_WORDS)})[1 + g % ${TWO_WORDS.length}]`)})`,
    typical: [TWO_WORDS[0]],
    args: pickOf(TWO_WORDS),
  },
  {
    name: "rssFeedItems(no q, first: 20)",
    query: `{ rssFeedItems(first: 20) { ${ITEM_FIELDS} } }`,
    sql: "select * from app_public.rss_feed_items(20, null, null)",
    repeated: "app_public.rss_feed_items(20 + 0 * g, null, null)",
    typical: [],
    args: () => ({}),
  },
  {
    name: "rssFeedItemsCount(q: common word)",
    query: "query ($q: String!) { rssFeedItemsCount(filter: { q: $q }) }",
    sql: `select app_public.rss_feed_items_count(${filterOf("$1")}) as n`,
    repeated: `app_public.rss_feed_items_count(${filterOf(`(${sqlArray(COMMON)})[1 + g % ${COMMON.length}]`)})`,
    typical: ["brand"],
    args: pickOf(COMMON),
  },
];

// 5. HTTP: the service as its own process, an API token of each environment, connections that ask
// back to back; and the same SQL through pg with the token's settings, to tell the database's share.
const service = await startServerProcess({ dataDir: DATA_DIR, pgPort: config.database.embeddedPgPort });
const apiToken = (await createApiToken(owner, { environmentUuid: firstEnvironment, name: "bench rss", scopes: [] }))
  .plainToken;
const otherToken = (
  await createApiToken(owner, { environmentUuid: secondEnvironment, name: "bench rss other", scopes: [] })
).plainToken;
const headers = { "content-type": "application/json", authorization: `Bearer ${apiToken}` };

async function graphql(
  query: string,
  variables: Record<string, unknown>,
  token = apiToken,
): Promise<Record<string, unknown>> {
  const response = await fetch(service.graphqlUrl, {
    method: "POST",
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data: Record<string, unknown>; errors?: Array<{ message: string }> };
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
    timeoutSeconds: 30,
    cpu: { sample: cpuSample, servicePid },
    rpsDigits: 1,
  });

// The settings the service gives a request with the measured environment's API token (lib/auth/context.ts).
const {
  rows: [tokenRow],
} = await owner.query<{ uuid: string }>(
  "select uuid from app_public.api_tokens where environment_uuid = $1 and name = 'bench rss' order by created desc limit 1",
  [firstEnvironment],
);
const visitorSettings = {
  role: "app_visitor",
  "app.environment_uuid": firstEnvironment,
  "app.api_token_uuid": tokenRow.uuid,
  "app.api_scopes": "",
};
const visitor = new pg.Pool({ connectionString: database.authUrl, max: Math.max(...CLIENTS) });
visitor.on("error", () => {});
/** Closed-loop load through pg: `clients` workers, each statement in a transaction with the token's settings as the server runs it. */
async function sqlLoad(clients: number, seconds: number, sql: string, args: () => Record<string, unknown>) {
  const before = cpuSample(undefined);
  const { latencies, errors } = await closedLoop(clients, seconds, async () => {
    const client = await visitor.connect();
    try {
      await client.query("begin");
      await client.query("select set_config(k, v, true) from json_each_text($1::json) s (k, v)", [
        JSON.stringify(visitorSettings),
      ]);
      await client.query(sql, Object.values(args()));
      await client.query("commit");
    } finally {
      client.release();
    }
  });
  return { ...summary(latencies, seconds, 1), errors, cpu: cpuSplit(before, cpuSample(undefined), latencies.length) };
}

const checks: string[] = [];
{
  // One answer of each checked first, and row-level security: each token sees its own environment's feeds only.
  type Item = { feedUrl: string; title: string; publishedAt: string | null };
  const list = async (q: string | null, token = apiToken) =>
    (await graphql(q === null ? scenarios[3].query : listQuery, q === null ? {} : { q }, token)).rssFeedItems as Item[];
  const common = await list("brand");
  const rare = await list(RARE[0]);
  const newest = await list(null);
  if (common.length !== 20 || !common.every((i) => firstUrls.includes(i.feedUrl)))
    throw new Error("rssFeedItems(q: brand) did not give 20 items of the environment's feeds");
  if (rare.length !== Math.min(20, rareCounts[0].first))
    throw new Error(
      `rssFeedItems(q: ${RARE[0]}) gave ${rare.length} items, expected ${Math.min(20, rareCounts[0].first)}`,
    );
  if (newest.length !== 20) throw new Error("rssFeedItems(first: 20) did not give 20 items");
  const count = (await graphql(scenarios[4].query, { q: "brand" })).rssFeedItemsCount as number;
  if (count !== matches.brand.first)
    throw new Error(`rssFeedItemsCount(q: brand) = ${count}, expected ${matches.brand.first}`);
  const otherOnly = RSS_FEEDS.find((f) => f.n === 51)!.url;
  const hidden = (await graphql(`{ rssFeedItems(filter: { feed: "${otherOnly}" }) { uuid } }`, {}))
    .rssFeedItems as unknown[];
  const otherSees = (await graphql(scenarios[4].query, { q: "brand" }, otherToken)).rssFeedItemsCount as number;
  const {
    rows: [{ n: otherExpected }],
  } = await owner.query<{ n: number }>(
    `
    select count(*)::int as n from app_public.rss_feed_items i
     where i.feed_uuid in (select f.uuid from app_public.rss_feeds f where f.url = any ($1::text[]))
       and i.search @@ (websearch_to_tsquery('pg_catalog.dutch', 'brand') || websearch_to_tsquery('pg_catalog.english', 'brand'))`,
    [rssMonitorSpecs(firstEnvironment, secondEnvironment)[3].query.feeds],
  );
  if (hidden.length !== 0 || otherSees !== otherExpected)
    throw new Error(
      `RLS: ${hidden.length} items of the other environment's feed seen; the other sees ${otherSees}, expected ${otherExpected}`,
    );
  checks.push(
    `rssFeedItems(q: "brand") 20 items of the environment's feeds, newest ${common[0].publishedAt}`,
    `rssFeedItems(q: "${RARE[0]}") ${rare.length} items`,
    `rssFeedItemsCount(q: "brand") ${count} as counted by the owner`,
    `the other environment's own feed: ${hidden.length} items`,
    `the other environment's token counts ${otherSees} "brand" items (its own feeds and the two shared)`,
  );
  log(`Check: ${checks.join("; ")}`);
}

// Two shared cores: anything else running (another bench, a test run) shows as "other" CPU and
// inflates every figure. Each measurement therefore waits (up to QUIET_WAIT_SECONDS) for a moment
// when the cores are at least 90% idle, and one whose HTTP run saw more than OTHER_SHARE_LIMIT% of
// the cores go elsewhere is repeated (at most RETRIES times; the least disturbed one is kept:
// leastDisturbed of cpu-accounting.ts). The load average before the measurements and every run's
// CPU split are kept with the results.
const QUIET_WAIT_SECONDS = 60;
const OTHER_SHARE_LIMIT = 10;
const RETRIES = 2;
const loadAverage = readLoadAverage();
if ((loadAverage[0] ?? 0) > 0.5)
  log(`Warning: load average ${loadAverage.join(" ")} before the measurements: something else is running.`);
const reads: Array<{
  operation: string;
  clients: number;
  seconds: number;
  attempts: number;
  http: Awaited<ReturnType<typeof httpLoad>>;
  sql: Awaited<ReturnType<typeof sqlLoad>>;
}> = [];
for (const scenario of scenarios) {
  // Every connection of the server's pool prepares its plans first.
  await httpLoad(Math.max(...CLIENTS), WARM_UP_SECONDS, scenario.query, scenario.args);
  for (const clients of CLIENTS) {
    const {
      best: { http, sql },
      attempts,
    } = await leastDisturbed(
      `${scenario.name} @${clients}`,
      { quietWaitSeconds: QUIET_WAIT_SECONDS, otherShareLimit: OTHER_SHARE_LIMIT, retries: RETRIES },
      async () => {
        const http = await httpLoad(clients, SECONDS, scenario.query, scenario.args);
        await quietMoment(QUIET_WAIT_SECONDS);
        return { http, sql: await sqlLoad(clients, SECONDS, scenario.sql, scenario.args) };
      },
      (measured) => measured.http.cpu?.other.share ?? 0,
    );
    reads.push({ operation: scenario.name, clients, seconds: SECONDS, attempts, http, sql });
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

// 6. The SQL time of one call: calls with the arguments in turn in one statement with the token's
// settings, the second of two runs (as many calls as take about a second, 10 to 2,000); no round
// trips, no instrumentation.
const perCall: Record<string, number> = {};
const settingsSql =
  Object.entries(visitorSettings)
    .filter(([k]) => k !== "role")
    .map(([k, v]) => `set ${k} = '${v}'`)
    .join("; ") + "; set role app_visitor";
{
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  await client.query(settingsSql);
  for (const scenario of scenarios) {
    const timed = async (repeat: number) => {
      const started = performance.now();
      await client.query(`select count(*) from generate_series(1, ${repeat}) g, lateral ${scenario.repeated} t`);
      return performance.now() - started;
    };
    const once = await timed(10);
    const repeat = Math.max(10, Math.min(2000, Math.round(10_000 / Math.max(once, 1))));
    await timed(repeat);
    await quietMoment(QUIET_WAIT_SECONDS);
    perCall[scenario.name] = round((await timed(repeat)) / repeat, 3);
    log(`SQL per call (${repeat} in one statement): ${scenario.name} ${perCall[scenario.name]} ms`);
  }
  await client.end();
}

// 7. Plans: each SQL function with the token's settings, its inner statements shown by
// auto_explain (as notices to this session) with ANALYZE and BUFFERS, after a few calls with other
// arguments so that the cached plans are the ones a busy server uses (PL/pgSQL and SQL functions
// may switch to a generic plan after five calls).
const explainer = new pg.Client({ connectionString: superuserUrl });
await explainer.connect();
const explain = await autoExplain(explainer, settingsSql);
// The environment's feeds appear in the plans as a literal array of 50 uuids: shown as their number.
const shorten = (line: string) =>
  line.replace(/\{[0-9a-f-]{36}(,[0-9a-f-]{36})+\}/g, (uuids) => `{${uuids.split(",").length} uuids}`);
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
for (const scenario of scenarios) {
  const label = `${scenario.sql.replace(/^select (\* from )?/, "").replace(/ as n$/, "")} with ${JSON.stringify(scenario.typical)}`;
  for (let i = 0; i < 8; i++)
    await explainer.query({ name: scenario.name, text: scenario.sql, values: Object.values(scenario.args()) });
  explain.clear();
  await explainer.query({ name: scenario.name, text: scenario.sql, values: scenario.typical });
  const statements = explain.statements(200).map((statement) => ({ ...statement, plan: statement.plan.map(shorten) }));
  const all = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(all)];
  const nodes = statements.flatMap((s) => all(s.root)).filter((n) => (n["Actual Loops"] ?? 1) > 0);
  const top = statements.at(-1)!; // auto_explain reports the outer statement last
  plans.push({
    call: scenario.name,
    milliseconds: top.milliseconds,
    sharedHit: top.root["Shared Hit Blocks"] ?? 0,
    sharedRead: top.root["Shared Read Blocks"] ?? 0,
    seqScans: [...new Set(nodes.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]!))],
    indexes: [...new Set(nodes.filter((n) => n["Index Name"]).map((n) => `${n["Index Name"]}`))],
    statements: statements.map(({ query, milliseconds, plan }) => ({ query, milliseconds, plan })),
    nestedCalls: statements.length - 1,
  });
  log(
    `\nEXPLAIN (ANALYZE, BUFFERS) ${label} with the token's settings: ${top.milliseconds} ms, ` +
      `${top.root["Shared Hit Blocks"] ?? 0} buffers hit, ${top.root["Shared Read Blocks"] ?? 0} read`,
  );
  // A statement run once per row or per call shows once, with its count.
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

// 8. The figures, against the goal.
const verdict = (p99: number) => (p99 < GOAL_P99_MS ? "met" : "NOT met");
const verdicts = scenarios.map((s) => {
  const at = (clients: number) => reads.find((r) => r.operation === s.name && r.clients === clients);
  return `${s.name}: ${CLIENTS.map((c) => `p99 ${at(c)?.http.p99} ms at ${c} (${verdict(at(c)?.http.p99 ?? Infinity)})`).join(", ")}`;
});
log(`\nGoal: under ${GOAL_P99_MS} ms p99 over HTTP (at ${GOAL_CLIENTS} clients; also shown at 1).`);
for (const line of verdicts) log(`  ${line}`);
const mb = (name: string) => `${tables[name].rows.toLocaleString("en")} rows, ${tables[name].mb} MB`;
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  clients: CLIENTS,
  seconds: SECONDS,
  items: ITEMS,
  other: OTHER,
  loadAverage,
  shape,
  tables,
  indexSizes,
  matches,
  rareFirst,
  checks,
  filling,
  goal: { p99Ms: GOAL_P99_MS, clients: GOAL_CLIENTS },
  reads,
  perCall,
  plans,
};
const matchLine = Object.entries(matches)
  .map(([q, c]) => `\`${q}\` ${c.first.toLocaleString("en")} (${share(c.first)})`)
  .join(", ");
log(
  `\nWrote ${writeResults("rss", "rss-latest.md", result, [
    `RSS search benchmark, ${result.date.slice(0, 10)}, ${result.machine} (load average ${loadAverage.join(" ")} before the measurements): ` +
      `${mb("app_public.rss_feed_items")} (indexes: ` +
      `${indexSizes.map((i) => `${i.name} ${i.mb} MB`).join(", ")}): ${shape.first_environment_items.toLocaleString("en")} in the 50 feeds the ` +
      `measured environment's three rss monitors follow, ${shape.other_items.toLocaleString("en")} in a second environment's own feeds; two years ` +
      `since ${shape.items_from}, filled by set-based SQL. Items the measured query words match in the environment's feeds: ${matchLine}; ` +
      `each of the ${RARE.length} rare street names ${rareFirst[0]}-${rareFirst.at(-1)} (median ${rareFirst[Math.floor(rareFirst.length / 2)]}). ` +
      `Closed loops over HTTP (API token; the service in its own process on the same two cores as the load generator and PostgreSQL), ${SECONDS} s ` +
      `per operation after ${WARM_UP_SECONDS} s of warm-up, other arguments on every request; beside it the same SQL function through pg with the token's settings.`,
    "",
    "| operation | clients | HTTP req/s | HTTP p50 ms | HTTP p95 ms | HTTP p99 ms | answer bytes | SQL req/s | SQL p50 ms | SQL p99 ms | SQL ms per call |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...reads.map(
      (r) =>
        `| ${r.operation} | ${r.clients} | ${r.http.rps} | ${r.http.p50} | ${r.http.p95} | ${r.http.p99} | ${r.http.bytesPerAnswer} | ` +
        `${r.sql.rps} | ${r.sql.p50} | ${r.sql.p99} | ${perCall[r.operation]} |`,
    ),
    "",
    "SQL ms per call: calls with the arguments in turn in one statement with the token's settings (no round trips, no instrumentation).",
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
    `Errors (transport, non-200 or GraphQL errors): ${reads.reduce((sum, r) => sum + r.http.errors, 0)}. Measurements repeated because ` +
      `other processes took more than ${OTHER_SHARE_LIMIT}% of the cores: ${
        reads
          .filter((r) => r.attempts > 1)
          .map((r) => `${r.operation} @${r.clients} ` + `(${r.attempts} attempts)`)
          .join(", ") || "none"
      }.`,
    "",
    `Goal: under ${GOAL_P99_MS} ms p99 over HTTP at ${GOAL_CLIENTS} clients (also shown at 1). ${verdicts.join("; ")}.`,
    "",
    filling.itemsSeconds !== undefined
      ? `Filling (this run): ${filling.itemsSeconds} s (+${filling.vacuumAnalyzeSeconds} s VACUUM and ANALYZE).`
      : "Filling: the items were kept from an earlier run.",
    "",
    "| SQL function (with the token's settings, cached plan, under auto_explain) | execution ms | buffers hit/read | statements inside | indexes | sequential scans |",
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
