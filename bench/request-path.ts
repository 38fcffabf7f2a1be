// The request path against a minimal handler: `npm run bench:request-path -- [--messages 300000]
// [--rounds 8] [--seconds 5] [--warm-up 8] [--connections 16] [--profile] [--engine] [--baseline DIR] [--fresh]`.
// It builds its own embedded database under bench/.data-request-path (kept between runs; --fresh
// starts over) with a P2000 history loaded through the real ingestion path, then, in one run:
// - starts the service as its own process (server.ts, as `npm start` does: bench/server-process.ts);
// - reads, from PostgreSQL's statement log (log_statement = all for the moment), every message the
//   service sends for one `p2000Messages(first: 50, filter: { capcodes: [...] }) { uuid message
//   sended capcodes { uuid name } }` request: its transaction, role, settings and token check, and
//   the query with its parameters;
// - starts a minimal handler as its own process (this file with --serve-minimal: node:http and pg,
//   a pool as large as the service's request connections) that sends those statements on every
//   request the straightforward way (begin + settings, the query prepared, commit: what the
//   service sends today), with a fresh request uuid, and answers the same JSON; the bench checks
//   that both answers are equal and that both send as many messages as it expects. Should the
//   service send something else, a second handler replays its messages exactly;
// - with --baseline DIR, runs a checkout of the service from before a change beside it;
// - starts a second service process with the response cache on (RESPONSE_CACHE_MB; the first
//   runs without it, as every bench's service does) and measures beside the others the same read
//   answered from its cache: POSTed, as a GET, and as a GET with If-None-Match (304 Not Modified);
// - loads them all with autocannon at 16 connections in turn (the order reversed every other
//   round, so that the other work on the machine's two cores hits all alike) and prints req/s,
//   p50/p99, the CPU per request of each part (bench/cpu-accounting.ts) and the ratio API /
//   minimal (medians), also by CPU per request, which the other work disturbs less;
// - with --profile, starts the service and the minimal handler once more with --cpu-prof, loads
//   each alone, and sums the samples of the load window by area (HTTP, grafserv, auth, our
//   plugins, grafast, @dataplan/pg, pg, GC…); with --engine, times grafast alone in this process.
// - then measures the cache's stale window: a writer stores a P2000 message every 250 ms through the
//   FLEX reader's path while readers ask the cached service for the newest message without pause;
//   for each message, how long after its commit an answer without it could still start (issue 33's
//   goal: p99 under 100 ms).
// Figures go to bench/results/request-path-latest.md (docs/benchmarks.md shows them) and a dated
// JSON file.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { loadConfig, mergeConfig } from "../lib/config.ts";
import { FLEX_READER_CONNECTIONS } from "../lib/p2000/flex-ingest.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";
import { BENCH_DIR, loadFlexHistory } from "./bench-database.ts";
import { cpuSplit, describeCpu, makeCpuSampler, TICK_MS } from "./cpu-accounting.ts";
import { machine, percentile, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";
import { measureStaleWindow } from "./stale-window.ts";

const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "300000" },
    rounds: { type: "string", default: "8" },
    seconds: { type: "string", default: "5" },
    "warm-up": { type: "string", default: "8" },
    "stale-writes": { type: "string", default: "200" },
    connections: { type: "string", default: "16" },
    profile: { type: "boolean", default: false },
    "profile-seconds": { type: "string", default: "15" },
    // The engine alone: grafast executing the operation in this process against rows recorded once.
    engine: { type: "boolean", default: false },
    fresh: { type: "boolean", default: false },
    // A checkout of the service as it was before a change (`git archive HEAD | tar -x -C DIR`, with
    // DIR/node_modules linked to this one's): it runs beside this one on the same database and is
    // measured in the same rounds, so a before/after comparison meets the same noise.
    baseline: { type: "string" },
    // Internal: this file as the minimal handler's process.
    "serve-minimal": { type: "boolean", default: false },
  },
});

/** The service's pool for requests: 11 connections, one of which the API-token cache keeps for LISTEN (service.ts). */
const REQUEST_CONNECTIONS = 10;
const PG_PORT = 54347;
const DATA_DIR = path.join(BENCH_DIR, ".data-request-path");
const PER_DAY = 2700;
const QUERY =
  "query ($f: P2000MessageFilterInput) { p2000Messages(first: 50, filter: $f) { uuid message sended capcodes { uuid name } } }";
const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** One statement as the service sent it: a simple query (text) or a prepared one (name, text, parameters). */
interface Step {
  text: string;
  name?: string;
  values?: Array<string | null>;
}

/** What the minimal handler replays on every request. */
interface MinimalPlan {
  authUrl: string;
  port: number;
  steps: Step[];
  /** The request uuid as captured; each request replaces it with a new one. */
  capturedRequestUuid: string | null;
  /** Index of the step whose rows are the answer. */
  answerStep: number;
}

// ---------------------------------------------------------------------------------------------
// The minimal handler (its own process): node:http, one pg pool, the service's statements, JSON.
// ---------------------------------------------------------------------------------------------

/** The rows of PostGraphile's query as the API's JSON: `p2000Messages` with `capcodes { uuid name }`. */
function answerFrom(rows: Array<Record<string, unknown>>, columns: MinimalColumns): string {
  return JSON.stringify({
    data: {
      p2000Messages: rows.map((row) => ({
        uuid: row[columns.uuid],
        message: row[columns.message],
        sended: row[columns.sended],
        // PostGraphile selects a list as a text[][] literal, parsed here by pg's own text[] parser.
        capcodes: (parseTextArray(row[columns.capcodes] as string) as Array<[string, string]>).map(([uuid, name]) => ({
          uuid,
          name,
        })),
      })),
    },
  });
}

const parseTextArray = (pg.types.getTypeParser as (oid: number) => (text: string) => unknown)(1009 /* text[] */);

interface MinimalColumns {
  uuid: string;
  message: string;
  sended: string;
  capcodes: string;
}

async function serveMinimal(): Promise<void> {
  const plan = JSON.parse(process.env.REQUEST_PATH_PLAN!) as MinimalPlan & { columns: MinimalColumns };
  const pool = new pg.Pool({ connectionString: plan.authUrl, max: REQUEST_CONNECTIONS });
  pool.on("error", () => {});
  // As the service's adaptor (and PostGraphile's) does once per connection.
  pool.on("connect", (client) => void client.query("set jit_optimize_above_cost = -1").catch(() => {}));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      try {
        // The body is read and parsed as a GraphQL server must; its variables are the ones the plan was captured with.
        JSON.parse(Buffer.concat(chunks).toString("utf8"));
        const requestUuid = randomUUID();
        const client = await pool.connect();
        let rows: Array<Record<string, unknown>>;
        try {
          rows = await runSteps(client, plan, requestUuid);
        } catch (error) {
          await client.query("rollback").catch(() => {});
          throw error;
        } finally {
          client.release();
        }
        const body = answerFrom(rows, plan.columns);
        res.writeHead(200, {
          "content-type": "application/json; charset=utf-8",
          "content-length": Buffer.byteLength(body),
        });
        res.end(body);
      } catch (error) {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      }
    });
  });
  server.listen(plan.port, "127.0.0.1", () => console.log("Minimal handler ready"));
  process.on("SIGTERM", () => server.close(() => void pool.end().then(() => process.exit(0))));
}

// ---------------------------------------------------------------------------------------------
// The bench.
// ---------------------------------------------------------------------------------------------

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** What a failed run stops (newest first): the service, the minimal handler, PostgreSQL. */
const cleanUp: Array<() => Promise<void>> = [];

/** PostgreSQL's log entries (log_line_prefix marks where each starts), collected while `collecting`. */
const LOG_PREFIX = "@@rp ";
const logEntries: string[] = [];
let collecting = false;
function onPostgresLog(line: string) {
  if (!collecting) return;
  if (line.startsWith(LOG_PREFIX)) logEntries.push(line.slice(LOG_PREFIX.length));
  else if (logEntries.length > 0) logEntries[logEntries.length - 1] += "\n" + line;
}

/** A logged statement: `user pid LOG:  statement: …` or `… LOG:  execute name: …` (+ `DETAIL:  Parameters: $1 = '…'`). */
function parseStatements(entries: string[], user: string): Step[] {
  const steps: Step[] = [];
  for (const entry of entries) {
    const match = /^(\S+) (\d+) (LOG|DETAIL): {2}([\s\S]*)$/.exec(entry);
    if (!match || match[1] !== user) continue;
    const [, , , level, message] = match;
    if (level === "DETAIL") {
      const last = steps.at(-1);
      if (last?.name !== undefined && message.startsWith("Parameters: ")) {
        last.values = [...message.matchAll(/\$(\d+) = (NULL|'((?:[^']|'')*)')/g)].map((m) =>
          m[2] === "NULL" ? null : m[3].replace(/''/g, "'"),
        );
      }
      continue;
    }
    const simple = /^statement: ([\s\S]*)$/.exec(message);
    const prepared = /^execute ([^:]+): ([\s\S]*)$/.exec(message);
    if (simple) steps.push({ text: simple[1] });
    else if (prepared)
      steps.push({ name: prepared[1] === "<unnamed>" ? undefined : prepared[1], text: prepared[2], values: [] });
  }
  // The availability probe (service.ts) and the API-token cache's LISTEN are not the request's.
  return steps.filter((s) => s.text !== "select 1" && !/^(un)?listen /.test(s.text));
}

async function main(): Promise<void> {
  const ROUNDS = Number(values.rounds);
  const SECONDS = Number(values.seconds);
  const WARM_UP = Number(values["warm-up"]);
  const CONNECTIONS = Number(values.connections);
  const TARGET = Number(values.messages);
  const log = (line: string) => console.log(line);

  if (values.fresh) fs.rmSync(DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(DATA_DIR, { recursive: true, mode: 0o755 });
  const config = mergeConfig(loadConfig(), {
    database: { url: undefined, dataDir: DATA_DIR, embeddedPgPort: PG_PORT },
    http: { port: 0 },
    log: { level: "error" },
    demoData: false,
  });
  // The statement log is read from the server's stderr, which only the process that starts it sees.
  const postmasterPid = path.join(DATA_DIR, "postgres", "postmaster.pid");
  if (fs.existsSync(postmasterPid)) {
    throw new Error(
      `A PostgreSQL is running on ${DATA_DIR} (pid ${fs.readFileSync(postmasterPid, "utf8").split("\n")[0]}); ` +
        "this bench reads the statement log of a server it starts itself: stop that one first.",
    );
  }
  const database = await prepareDatabase(config.database, onPostgresLog);
  cleanUp.push(() => database.close());
  const owner = new pg.Pool({ connectionString: database.ownerUrl, max: 2 * FLEX_READER_CONNECTIONS });
  owner.on("error", () => {});
  const root = new pg.Pool({ connectionString: database.rootUrl, max: 1 });
  root.on("error", () => {});

  // 1. History: whatever is missing up to --messages, from now backwards, in two parallel halves
  // through the FLEX reader's path (loadFlexHistory, as bench/p2000.ts loads it).
  const history = await loadFlexHistory(owner, TARGET, PER_DAY);
  if (history) {
    log(`  in ${history.seconds.toFixed(0)} s`);
    await owner.query("vacuum analyze");
  }
  await root.query("checkpoint");
  const {
    rows: [{ messages }],
  } = await owner.query("select count(*)::int as messages from app_public.p2000_messages");

  // The busiest unit capcode (the usual capcode page, as bench/p2000.ts asks it): its newest 50
  // messages fill the page. (Several capcodes take the function's dynamic path, which costs
  // PostgreSQL about 15 ms a call on this history: that measures the query, not the request path.)
  const { rows: busy } = await owner.query<{ uuid: string }>(`
    select c.uuid from app_public.p2000_message_capcodes mc join app_public.p2000_capcodes c on c.uuid = mc.capcode_uuid
     where c.kind = 'unit' group by c.uuid order by count(*) desc, c.uuid limit 1`);
  const variables = { f: { capcodes: busy.map((b) => b.uuid) } };
  const body = JSON.stringify({ query: QUERY, variables });
  const apiToken = (
    await createApiToken(owner, {
      environmentUuid: database.operatorEnvironmentUuid,
      name: "bench:request-path",
      scopes: [],
    })
  ).plainToken;
  const headers = { "content-type": "application/json", authorization: `Bearer ${apiToken}` };

  // 2. The service, with a statement log for the capture.
  const setLogging = async (on: boolean) => {
    for (const [name, value] of [
      ["log_statement", "all"],
      ["log_line_prefix", `${LOG_PREFIX}%u %p `],
      ["log_parameter_max_length", "-1"],
    ]) {
      await root.query(on ? `alter system set ${name} = '${value}'` : `alter system reset ${name}`);
    }
    await root.query("select pg_reload_conf()");
    await new Promise((resolve) => setTimeout(resolve, 500));
  };
  let service = await startServerProcess({ dataDir: DATA_DIR, pgPort: PG_PORT });
  cleanUp.push(() => service.stop());
  let servicePid = servicePidIn(ROOT_DIR);
  // The baseline's own server-process.ts starts its server.ts from its directory.
  const baseline = values.baseline
    ? await (async () => {
        const dir = path.resolve(values.baseline!);
        const module = (await import(
          path.join(dir, "bench", "server-process.ts")
        )) as typeof import("./server-process.ts");
        const started = await module.startServerProcess({ dataDir: DATA_DIR, pgPort: PG_PORT });
        cleanUp.push(() => started.stop());
        return { dir, ...started, pid: servicePidIn(dir) };
      })()
    : undefined;
  const cached = await startServerProcess({ dataDir: DATA_DIR, pgPort: PG_PORT, env: { RESPONSE_CACHE_MB: "64" } });
  cleanUp.push(() => cached.stop());
  const getUrl = `${cached.graphqlUrl}?${new URLSearchParams({ query: QUERY, variables: JSON.stringify(variables) })}`;
  const post = async (url: string) => {
    const response = await fetch(url, { method: "POST", headers, body });
    const text = await response.text();
    if (response.status !== 200 || text.includes('"errors"'))
      throw new Error(`${url} answered ${response.status}: ${text.slice(0, 300)}`);
    return text;
  };
  const apiAnswer = JSON.parse(await post(service.graphqlUrl));
  if (apiAnswer.data.p2000Messages.length !== 50) throw new Error("p2000Messages did not give 50 messages");
  for (let i = 0; i < 2; i++) {
    if (JSON.stringify(JSON.parse(await post(cached.graphqlUrl))) !== JSON.stringify(apiAnswer))
      throw new Error("The cached service's answer differs");
  }
  const cachedGet = await fetch(getUrl, { headers });
  const etag = cachedGet.headers.get("etag");
  if (!etag || JSON.stringify(await cachedGet.json()) !== JSON.stringify(apiAnswer))
    throw new Error("The cached GET has no ETag or another answer");
  const notModified = await fetch(getUrl, { headers: { ...headers, "if-none-match": etag } });
  if (notModified.status !== 304) throw new Error(`If-None-Match answered ${notModified.status}, not 304`);

  /** The statements of `count` sequential requests, as PostgreSQL logged them for the authenticator. */
  const CAPTURED_REQUESTS = 20;
  const capture = async (url: string): Promise<{ perRequest: number; steps: Step[] }> => {
    for (let i = 0; i < 3; i++) await post(url); // every statement prepared on the connections these use
    logEntries.length = 0;
    collecting = true;
    for (let i = 0; i < CAPTURED_REQUESTS; i++) await post(url);
    await new Promise((resolve) => setTimeout(resolve, 300));
    collecting = false;
    const all = parseStatements(logEntries, "app_authenticator");
    if (process.env.REQUEST_PATH_DEBUG)
      fs.writeFileSync(path.join(DATA_DIR, "statement-log.txt"), logEntries.join("\n---\n"));
    if (all.length === 0) throw new Error("PostgreSQL logged no statement of the requests");
    const perRequest = all.length / CAPTURED_REQUESTS;
    if (!Number.isInteger(perRequest))
      throw new Error(
        `${all.length} statements for ${CAPTURED_REQUESTS} requests: ${all.map((s) => s.text.slice(0, 60)).join(" | ")}`,
      );
    return { perRequest, steps: all.slice(-perRequest) };
  };
  await setLogging(true);
  const api = await capture(service.graphqlUrl);
  const requestUuidMatch = api.steps.map((s) => /app\.request_uuid\\?",\\?"([0-9a-f-]{36})/.exec(s.text)).find(Boolean);
  log(`The service sends ${api.perRequest} message(s) (round trips) per request:`);
  for (const step of api.steps) log(`  ${step.name ? `prepared ${step.name}` : "simple"}: ${oneLine(step.text, 400)}`);

  // The minimal handlers. "minimal" keeps RLS and the per-request role the straightforward way, as
  // the service did before (lib/graphql/pg-request-adaptor.ts): begin and the settings (and the
  // token check) in one message, the query as a prepared statement, commit: three round trips.
  // Where the service sends something else, "minimal, the service's messages" replays exactly that too.
  const reference = referenceSteps(api.steps);
  const variants: Array<{ key: MinimalKey; label: string; steps: Step[] }> = [
    { key: "minimal", label: "minimal, 3 round trips", steps: reference },
  ];
  if (JSON.stringify(reference) !== JSON.stringify(api.steps))
    variants.push({ key: "mirror", label: "minimal, the service's messages", steps: api.steps });
  const columns = await pickColumns(apiAnswer, database.authUrl, reference, answerIndex(reference));
  const handlers: Partial<
    Record<
      MinimalKey,
      {
        plan: MinimalPlan & { columns: MinimalColumns };
        url: string;
        pid: number;
        perRequest: number;
        stop(): Promise<void>;
      }
    >
  > = {};
  for (const variant of variants) {
    const port = await freePort();
    const plan = {
      authUrl: database.authUrl,
      port,
      steps: variant.steps,
      answerStep: answerIndex(variant.steps),
      capturedRequestUuid: requestUuidMatch?.[1] ?? null,
      columns,
    };
    const handler = await startMinimal(plan);
    cleanUp.push(() => handler.stop());
    const url = `http://127.0.0.1:${port}/graphql`;
    const captured = await capture(url);
    if (captured.perRequest !== variant.steps.length)
      throw new Error(`${variant.label} sent ${captured.perRequest} messages per request, not ${variant.steps.length}`);
    if (JSON.stringify(JSON.parse(await post(url))) !== JSON.stringify(apiAnswer))
      throw new Error(`The answer of ${variant.label} differs from the API's`);
    handlers[variant.key] = { plan, url, pid: handler.pid, perRequest: captured.perRequest, stop: handler.stop };
    log(`${variant.label}: ${captured.perRequest} message(s) per request, the same answer as the API.`);
  }
  await setLogging(false);

  // 3. Alternating load: every round asks each target in turn, the order reversed every other round.
  const cpuSample = makeCpuSampler(DATA_DIR);
  /** How a target is asked: POST with the body (the default), a GET of the query's URL, or that GET with If-None-Match. */
  type Ask = "post" | "get" | "ifNoneMatch";
  const requestOf = (ask: Ask): autocannon.Request =>
    ask === "post"
      ? { method: "POST", headers, body }
      : { method: "GET", headers: ask === "get" ? headers : { ...headers, "if-none-match": etag } };
  async function load(url: string, pid: number | undefined, seconds: number, ask: Ask = "post") {
    const latencies: number[] = [];
    const before = cpuSample(pid);
    const expected = ask === "ifNoneMatch" ? 304 : 200;
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        { url, connections: CONNECTIONS, duration: seconds, requests: [requestOf(ask)] },
        (error, finished) => (error ? reject(error) : resolve(finished)),
      );
      instance.on("response", (_client, status, _bytes, time) => {
        if (status === expected) latencies.push(time);
      });
    });
    const cpu = cpuSplit(before, cpuSample(pid), latencies.length);
    latencies.sort((a, b) => a - b);
    return {
      requests: latencies.length,
      rps: Math.round(latencies.length / seconds),
      p50: round(percentile(latencies, 50), 2),
      p99: round(percentile(latencies, 99), 2),
      errors: result.errors + (result.requests.total - latencies.length - result.errors),
      cpu,
    };
  }
  if (baseline && JSON.stringify(JSON.parse(await post(baseline.graphqlUrl))) !== JSON.stringify(apiAnswer))
    throw new Error("The baseline's answer differs");
  type Key = "api" | "baseline" | MinimalKey | CachedKey;
  const targets: Array<{ key: Key; label: string; url: string; pid: number | undefined; ask?: Ask }> = [
    { key: "api", label: "API", url: service.graphqlUrl, pid: servicePid },
    { key: "cached", label: "API, cached", url: cached.graphqlUrl, pid: cached.pid },
    { key: "cachedGet", label: "API, cached GET", url: getUrl, pid: cached.pid, ask: "get" },
    { key: "notModified", label: "API, 304", url: getUrl, pid: cached.pid, ask: "ifNoneMatch" },
    ...(baseline
      ? [{ key: "baseline" as const, label: "API before", url: baseline.graphqlUrl, pid: baseline.pid }]
      : []),
    ...variants.map((v) => ({ key: v.key, label: v.label, url: handlers[v.key]!.url, pid: handlers[v.key]!.pid })),
  ];
  log(`Warm-up: ${WARM_UP} s each at ${CONNECTIONS} connections.`);
  for (const target of targets) await load(target.url, target.pid, WARM_UP, target.ask);
  // What PostgreSQL spends with no request at all (the services' workers, rate-limit flushes and
  // probes, checkpoints): spread over the requests of a round, it would weigh more on the slower
  // target, so the CPU comparison below takes it out.
  const idleBefore = cpuSample(undefined);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idleAfter = cpuSample(undefined);
  const backgroundPostgresMsPerSecond =
    idleBefore && idleAfter ? round(((idleAfter.postgres - idleBefore.postgres) * TICK_MS) / 3, 1) : 0;
  log(`PostgreSQL without requests: ${backgroundPostgresMsPerSecond} ms of CPU a second.`);
  type Run = Awaited<ReturnType<typeof load>>;
  const runs: Array<{ round: number; results: Partial<Record<Key, Run>>; ratio: number; ratioToMirror?: number }> = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? targets : [...targets].reverse();
    const results: Partial<Record<Key, Run>> = {};
    for (const target of order) results[target.key] = await load(target.url, target.pid, SECONDS, target.ask);
    const ratio = round(results.api!.rps / results.minimal!.rps, 3);
    const ratioToMirror = results.mirror ? round(results.api!.rps / results.mirror.rps, 3) : undefined;
    runs.push({ round: r + 1, results, ratio, ratioToMirror });
    log(
      `Round ${r + 1}: ${targets.map((t) => `${t.label} ${results[t.key]!.rps} req/s (p50 ${results[t.key]!.p50} ms, p99 ${results[t.key]!.p99} ms)`).join(" | ")} ` +
        `| API / minimal ${ratio}${ratioToMirror ? `, API / the service's messages ${ratioToMirror}` : ""}`,
    );
    for (const target of targets) log(`  ${target.label}: ${describeCpu(results[target.key]!.cpu)}`);
  }
  const summarise = (key: Key) => {
    const list = runs.map((r) => r.results[key]!);
    const cpu = (
      part: "service" | "postgres" | "loadGenerator" | "interrupts" | "other" | "idle" | "steal",
      field: "msPerRequest" | "share",
    ) => round(median(list.map((run) => run.cpu?.[part][field] ?? NaN)), field === "share" ? 0 : 3);
    return {
      rps: median(list.map((run) => run.rps)),
      p50: round(median(list.map((run) => run.p50)), 2),
      p99: round(median(list.map((run) => run.p99)), 2),
      errors: list.reduce((sum, run) => sum + run.errors, 0),
      cpuMsPerRequest: {
        process: cpu("service", "msPerRequest"),
        postgres: cpu("postgres", "msPerRequest"),
        loadGenerator: cpu("loadGenerator", "msPerRequest"),
        interrupts: cpu("interrupts", "msPerRequest"),
        other: cpu("other", "msPerRequest"),
      },
      coreShare: {
        process: cpu("service", "share"),
        postgres: cpu("postgres", "share"),
        loadGenerator: cpu("loadGenerator", "share"),
        interrupts: cpu("interrupts", "share"),
        other: cpu("other", "share"),
        idle: cpu("idle", "share"),
        steal: cpu("steal", "share"),
      },
    };
  };
  const summary = Object.fromEntries(targets.map((t) => [t.key, summarise(t.key)])) as Record<
    Key,
    ReturnType<typeof summarise>
  >;
  /**
   * This run's own CPU per request (the process under test, PostgreSQL less its background, the
   * load generator, interrupts): what decides throughput on cores of its own.
   */
  const ownCpu = (key: Key) => {
    const c = summary[key].cpuMsPerRequest;
    return round(
      c.process +
        Math.max(0, c.postgres - backgroundPostgresMsPerSecond / summary[key].rps) +
        c.loadGenerator +
        c.interrupts,
      3,
    );
  };
  const ratioOfMedians = round(summary.api.rps / summary.minimal.rps, 3);
  const medianRatio = round(median(runs.map((r) => r.ratio)), 3);
  const cpuRatio = round(ownCpu("minimal") / ownCpu("api"), 3);
  const mirrorRatios = summary.mirror
    ? {
        ratioOfMedians: round(summary.api.rps / summary.mirror.rps, 3),
        medianRatio: round(median(runs.map((r) => r.ratioToMirror!)), 3),
        cpuRatio: round(ownCpu("mirror") / ownCpu("api"), 3),
      }
    : undefined;
  /** The cached targets against the minimal handler (which runs the SQL), and the 304 against the cached GET. */
  const cacheRatios = {
    cachedToMinimal: round(summary.cached.rps / summary.minimal.rps, 2),
    cachedGetToMinimal: round(summary.cachedGet.rps / summary.minimal.rps, 2),
    notModifiedToCachedGet: round(summary.notModified.rps / summary.cachedGet.rps, 2),
    rounds: runs.map((r) => round(r.results.cached!.rps / r.results.minimal!.rps, 2)),
  };
  const baselineRatios = summary.baseline
    ? {
        dir: baseline!.dir,
        ratioOfMedians: round(summary.baseline.rps / summary.minimal.rps, 3),
        medianRatio: round(median(runs.map((r) => r.results.baseline!.rps / r.results.minimal!.rps)), 3),
        cpuRatio: round(ownCpu("minimal") / ownCpu("baseline"), 3),
      }
    : undefined;
  log(
    `Medians of ${ROUNDS} rounds: ${targets
      .map(
        (t) =>
          `${t.label} ${summary[t.key].rps} req/s (p50 ${summary[t.key].p50} ms, p99 ${summary[t.key].p99} ms, ` +
          `${ownCpu(t.key)} ms of CPU per request)`,
      )
      .join("; ")}.`,
  );
  log(
    `API / minimal: ${ratioOfMedians} (median of the rounds' ratios ${medianRatio}; by CPU per request ${cpuRatio})` +
      (mirrorRatios
        ? `; API / minimal sending the service's messages: ${mirrorRatios.ratioOfMedians} (rounds ${mirrorRatios.medianRatio}; CPU ${mirrorRatios.cpuRatio})`
        : "") +
      (baselineRatios
        ? `; API before / minimal: ${baselineRatios.ratioOfMedians} (rounds ${baselineRatios.medianRatio}; CPU ${baselineRatios.cpuRatio}).`
        : "."),
  );
  log(
    `From the cache: cached / minimal ${cacheRatios.cachedToMinimal} (rounds ${cacheRatios.rounds.join(", ")}), cached GET / minimal ` +
      `${cacheRatios.cachedGetToMinimal}, 304 / cached GET ${cacheRatios.notModifiedToCachedGet}.`,
  );

  // The cached service's stale window, with its own writer and readers.
  const staleWindow = await measureStaleWindow({
    owner,
    graphqlUrl: cached.graphqlUrl,
    headers,
    writes: Number(values["stale-writes"]),
  });
  log(
    `Stale window of the cache over ${staleWindow.writes} new messages (${staleWindow.readers} readers, ${staleWindow.answers} answers, ` +
      `${staleWindow.staleAnswers} of them older than a committed message): p50 ${staleWindow.p50Ms} ms, p99 ${staleWindow.p99Ms} ms, max ${staleWindow.maxMs} ms.`,
  );
  await cached.stop();

  // 4. The profiles: the service and the minimal handler once more, each started with --cpu-prof
  // and loaded alone in turn; only the samples of each load window count. The profiler's samples
  // are wall-clock intervals of a running thread (on shared cores they include time the thread
  // waited for a core), so areas are given as shares and scaled to the CPU that /proc measured.
  const profiles: Partial<Record<"api" | "minimal", ProfileSummary>> = {};
  if (values.profile) {
    await Promise.all([service.stop(), ...Object.values(handlers).map((h) => h.stop()), baseline?.stop()]);
    const profileDir = fs.mkdtempSync(path.join(DATA_DIR, "profile-"));
    const profilerFlags = ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "--cpu-prof-interval=250"];
    const previous = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = [previous ?? "", ...profilerFlags].join(" ").trim();
    service = await startServerProcess({ dataDir: DATA_DIR, pgPort: PG_PORT });
    if (previous === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = previous;
    servicePid = servicePidIn(ROOT_DIR);
    // The reference handler (three round trips), on its own port as before.
    const profiledMinimal = await startMinimal(handlers.minimal!.plan, profilerFlags);
    cleanUp.push(() => profiledMinimal.stop());
    for (const which of ["api", "minimal"] as const) {
      const url = which === "api" ? service.graphqlUrl : handlers.minimal!.url;
      const pid = which === "api" ? servicePid : profiledMinimal.pid;
      await post(url);
      await load(url, pid, WARM_UP);
      const from = monotonicMicroseconds();
      const run = await load(url, pid, Number(values["profile-seconds"]));
      const to = monotonicMicroseconds();
      const before = new Set(fs.readdirSync(profileDir));
      await (which === "api" ? service.stop() : profiledMinimal.stop());
      const file = fs.readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile") && !before.has(f));
      if (!file) throw new Error(`The ${which} process wrote no CPU profile`);
      const summary = summariseProfile(
        JSON.parse(fs.readFileSync(path.join(profileDir, file), "utf8")),
        from,
        to,
        run.requests,
        run.cpu?.service.msPerRequest ?? NaN,
      );
      profiles[which] = summary;
      fs.copyFileSync(path.join(profileDir, file), path.join(DATA_DIR, `request-path-${which}.cpuprofile`));
      fs.writeFileSync(
        path.join(DATA_DIR, `request-path-${which}.window.json`),
        JSON.stringify({ from, to, requests: run.requests }),
      );
      log(
        `Profile of the ${which === "api" ? "service" : "minimal handler"}: ${run.rps} req/s under the profiler, ${describeCpu(run.cpu)}.`,
      );
      log(
        `  ${summary.cpuMsPerRequest} ms of CPU per request by area (self time, builtins counted with their caller):`,
      );
      for (const area of summary.areas) log(`    ${area.msPerRequest} ms (${area.share}%)  ${area.area}`);
      log("  Top self time:");
      for (const f of summary.topSelf.slice(0, 20)) log(`    ${f.msPerRequest} ms  ${f.function}  [${f.area}]`);
      if (which === "api") {
        log("  Top inclusive time:");
        for (const f of summary.topInclusive.slice(0, 40)) log(`    ${f.msPerRequest} ms  ${f.function}  [${f.area}]`);
      }
    }
    fs.rmSync(profileDir, { recursive: true, force: true });
  } else {
    await Promise.all([service.stop(), ...Object.values(handlers).map((h) => h.stop()), baseline?.stop()]);
  }
  const profile = values.profile ? profiles : undefined;
  const engine = values.engine ? await measureEngine(database.authUrl, variables) : undefined;
  if (engine) {
    log(
      `The engine alone (grafast, in this process, rows recorded once, no HTTP or PostgreSQL): ${engine.objectsMs} ms CPU per execution ` +
        `building the answer as objects, ${engine.textMs} ms writing it as JSON text (outputDataAsString).`,
    );
  }

  const result = {
    date: new Date().toISOString(),
    machine: machine(),
    messages,
    query: QUERY,
    variables,
    connections: CONNECTIONS,
    rounds: ROUNDS,
    seconds: SECONDS,
    requestConnections: REQUEST_CONNECTIONS,
    messagesPerRequest: Object.fromEntries([
      ["api", api.perRequest],
      ...variants.map((v) => [v.key, handlers[v.key]!.perRequest]),
    ]),
    statements: Object.fromEntries([["api", api.steps], ...variants.map((v) => [v.key, v.steps])]),
    summary,
    backgroundPostgresMsPerSecond,
    cpuMsPerRequestOwn: Object.fromEntries(targets.map((t) => [t.key, ownCpu(t.key)])),
    ratioOfMedians,
    medianRatio,
    cpuRatio,
    mirrorRatios,
    baselineRatios,
    cacheRatios,
    staleWindow,
    runs,
    profile,
    engine,
  };
  const cpuLine = (key: Key) => {
    const c = summary[key].cpuMsPerRequest;
    return `${c.process} / ${c.postgres} / ${c.loadGenerator} / ${c.interrupts} / ${c.other}`;
  };
  const markdown = [
    `Request path, ${result.date.slice(0, 10)}, ${result.machine}, ${messages.toLocaleString("en")} messages: \`p2000Messages(first: 50, filter: { capcodes: [the busiest unit capcode] })\` ` +
      `with \`uuid message sended capcodes { uuid name }\`, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s each (medians). ` +
      `The minimal handlers are node:http + pg with ${REQUEST_CONNECTIONS} connections (the service's request connections), each its own process.`,
    "",
    "| | req/s | p50 ms | p99 ms | round trips per request | CPU ms per request: process / PostgreSQL / load generator / interrupts / other work |",
    "| --- | --- | --- | --- | --- | --- |",
    `| API (server.ts) | ${summary.api.rps} | ${summary.api.p50} | ${summary.api.p99} | ${api.perRequest} | ${cpuLine("api")} |`,
    `| API, from its response cache (POST) | ${summary.cached.rps} | ${summary.cached.p50} | ${summary.cached.p99} | 0 | ${cpuLine("cached")} |`,
    `| API, from its response cache (GET) | ${summary.cachedGet.rps} | ${summary.cachedGet.p50} | ${summary.cachedGet.p99} | 0 | ${cpuLine("cachedGet")} |`,
    `| API, 304 Not Modified (GET, If-None-Match) | ${summary.notModified.rps} | ${summary.notModified.p50} | ${summary.notModified.p99} | 0 | ${cpuLine("notModified")} |`,
    ...(summary.baseline
      ? [
          `| API before (${path.basename(baseline!.dir)}) | ${summary.baseline.rps} | ${summary.baseline.p50} | ${summary.baseline.p99} | | ${cpuLine("baseline")} |`,
        ]
      : []),
    ...variants.map(
      (v) =>
        `| ${v.label} | ${summary[v.key].rps} | ${summary[v.key].p50} | ${summary[v.key].p99} | ${handlers[v.key]!.perRequest} | ${cpuLine(v.key)} |`,
    ),
    "",
    `**API / minimal (3 round trips): ${ratioOfMedians}** (ratio of the medians; median of the rounds' own ratios ${medianRatio}; rounds: ` +
      `${runs.map((r) => r.ratio).join(", ")}). By this run's own CPU per request (process + PostgreSQL less its background of ` +
      `${backgroundPostgresMsPerSecond} ms a second + load generator + interrupts, what decides throughput on cores of its own): ${cpuRatio}.`,
    "",
    `**From the response cache (issue 33): cached / minimal ${cacheRatios.cachedToMinimal}** (goal 4 or more; rounds ${cacheRatios.rounds.join(", ")}), ` +
      `cached GET / minimal ${cacheRatios.cachedGetToMinimal}; **304 / cached GET ${cacheRatios.notModifiedToCachedGet}** (goal 1 or more); ` +
      `cached p99 ${summary.cached.p99} ms at ${CONNECTIONS} clients (goal under 10 ms).`,
    "",
    `**Stale window** (a new P2000 message every 250 ms through the FLEX reader's path, ${staleWindow.readers} readers of the newest message ` +
      `without pause, ${staleWindow.answers} answers, ${staleWindow.staleAnswers} of them began after a commit and showed an older message): ` +
      `from the commit to the start of the last answer without it, p50 ${staleWindow.p50Ms} ms, **p99 ${staleWindow.p99Ms} ms** (goal under 100 ms), max ${staleWindow.maxMs} ms, over ${staleWindow.writes} messages.`,
    ...(baselineRatios
      ? [
          "",
          `API before / minimal (3 round trips), in the same rounds: ${baselineRatios.ratioOfMedians} (rounds ${baselineRatios.medianRatio}; by CPU ${baselineRatios.cpuRatio}).`,
        ]
      : []),
    ...(mirrorRatios
      ? [
          "",
          `API / minimal sending the service's own messages: ${mirrorRatios.ratioOfMedians} (rounds ${mirrorRatios.medianRatio}; by CPU ${mirrorRatios.cpuRatio}).`,
        ]
      : []),
    "",
    "What each sends per request (PostgreSQL's statement log):",
    "",
    ...[["API", api.steps] as const, ...variants.map((v) => [v.label, v.steps] as const)].flatMap(([label, steps]) =>
      steps.map((s) => `- ${label}: ${s.name ? "prepared" : "simple query"} \`${oneLine(s.text, 240)}\``),
    ),
    ...(engine
      ? [
          "",
          `The engine alone (grafast executing the operation in the bench process against rows recorded once; no HTTP, no PostgreSQL): ` +
            `${engine.objectsMs} ms of CPU per execution with the answer built as objects, ${engine.textMs} ms written as JSON text.`,
        ]
      : []),
    ...(profile?.api && profile.minimal
      ? [
          "",
          `Profiles (--cpu-prof, 250 µs; each process loaded alone; shares of the samples scaled to the CPU /proc measured per request): ` +
            `service ${profile.api.cpuMsPerRequest} ms, minimal handler ${profile.minimal.cpuMsPerRequest} ms.`,
          "",
          "| area | service ms per request | minimal ms per request |",
          "| --- | --- | --- |",
          ...[...new Set([...profile.api.areas, ...profile.minimal.areas].map((a) => a.area))].map(
            (area) =>
              `| ${area} | ${profile.api!.areas.find((a) => a.area === area)?.msPerRequest ?? 0} | ${profile.minimal!.areas.find((a) => a.area === area)?.msPerRequest ?? 0} |`,
          ),
          "",
          "| service: function (inclusive) | ms per request |",
          "| --- | --- |",
          ...profile.api.topInclusive.slice(0, 30).map((f) => `| ${f.function} [${f.area}] | ${f.msPerRequest} |`),
        ]
      : []),
  ];
  log(`Wrote ${writeResults("request-path", "request-path-latest.md", result, markdown)}`);
  await Promise.all([owner.end(), root.end()]);
  await database.close();
  process.exit(0);
}

type MinimalKey = "minimal" | "mirror";
type CachedKey = "cached" | "cachedGet" | "notModified";

/**
 * grafast executing the operation in this process, the schema built as the service builds it, its
 * query answered by rows recorded once from the database: the CPU per execution of the engine
 * alone (planning is cached after the first) up to the answer's JSON text, with the answer built
 * as objects (then JSON.stringify) and written as text by grafast (outputDataAsString).
 */
async function measureEngine(
  authUrl: string,
  variables: Record<string, unknown>,
): Promise<{ objectsMs: number; textMs: number }> {
  const [{ makeSchema }, grafast, { parse }, { schemaOnlyPreset }] = await Promise.all([
    import("postgraphile"),
    import("postgraphile/grafast"),
    import("graphql"),
    import("../graphile.config.ts"),
  ]);
  const authPool = new pg.Pool({ connectionString: authUrl, max: 2 });
  try {
    const { schema, resolvedPreset } = await makeSchema(schemaOnlyPreset(authPool));
    const document = parse(QUERY);
    const pgSettings = { role: "app_visitor", statement_timeout: "15s" };
    const service = (resolvedPreset as any).pgServices[0];
    const realWithPgClient = service.adaptor.createWithPgClient(service.adaptorSettings);
    let recorded: any;
    const recording = (settings: any, callback: any) =>
      realWithPgClient(settings, (client: any) =>
        callback({ ...client, query: async (options: any) => (recorded = await client.query(options)) }),
      );
    const canned = async (_settings: any, callback: any) =>
      callback({ query: async () => recorded, withTransaction: (work: any) => work(null) });
    const run = async (withPgClient: any, outputDataAsString: boolean): Promise<string> => {
      const args: any = {
        schema,
        document,
        variableValues: variables,
        contextValue: {},
        resolvedPreset,
        requestContext: {},
        outputDataAsString,
      };
      await grafast.hookArgs(args);
      Object.assign(args.contextValue, { withPgClient, pgSettings });
      const result: any = await grafast.execute(args);
      if (result.errors) throw new Error(result.errors[0].message);
      // The answer's text, as grafserv makes it (stringifyPayload).
      return outputDataAsString ? `{"data":${result.data}}` : JSON.stringify(result);
    };
    await run(recording, false);
    const time = async (outputDataAsString: boolean) => {
      for (let i = 0; i < 3000; i++) await run(canned, outputDataAsString);
      const started = process.cpuUsage();
      for (let i = 0; i < 10_000; i++) await run(canned, outputDataAsString);
      const used = process.cpuUsage(started);
      return (used.user + used.system) / 10_000 / 1000;
    };
    const objects: number[] = [];
    const text: number[] = [];
    for (let i = 0; i < 3; i++) {
      objects.push(await time(false));
      text.push(await time(true));
    }
    return { objectsMs: round(median(objects), 3), textMs: round(median(text), 3) };
  } finally {
    await authPool.end();
  }
}

function oneLine(text: string, length: number): string {
  const line = text
    .replace(/\s+/g, " ")
    .replace(/json_array_elements\( ?E?'(?:[^']|'')*'::json\)/, "json_array_elements('[…]'::json)");
  return line.length > length ? `${line.slice(0, length)} …` : line;
}

/** The step whose rows answer: the prepared one, or else the one that calls the query's function. */
function answerIndex(steps: Step[]): number {
  const prepared = steps.findIndex((s) => s.name !== undefined);
  return prepared >= 0 ? prepared : steps.findIndex((s) => /\bp2000_messages\b/.test(s.text));
}

/**
 * The straightforward three round trips for the service's statements: begin + the settings (and
 * the token check), the query as a prepared statement, commit. Where the service sends those (the
 * adaptor before it put the first query into the opening message), they are its own; where it
 * sends the opening statements and the query (its parameters written in) as one message, that
 * message is cut in two.
 */
const OPENING =
  /^(?:set jit_optimize_above_cost = -1; )?(begin; select set_config\(el->>0, el->>1, true\) from json_array_elements\( ?E?'(?:[^']|'')*'::json\) el(?:; select app_hidden\.assert_api_token_live\(\))?); /;
function referenceSteps(steps: Step[]): Step[] {
  if (steps.length === 3 && steps[0].text.startsWith("begin;") && steps[2].text === "commit") return steps;
  const opening = steps.length === 2 && steps[1].text === "commit" ? OPENING.exec(steps[0].text) : null;
  if (!opening) throw new Error(`Not a shape this bench knows: ${steps.map((s) => oneLine(s.text, 200)).join(" | ")}`);
  return [
    { text: opening[1] },
    { name: "request_path_reference", text: steps[0].text.slice(opening[0].length), values: [] },
    { text: "commit" },
  ];
}

/** Runs the steps on a client (a fresh request uuid in the settings) and gives the rows of the answering step. */
async function runSteps(
  client: pg.ClientBase,
  plan: Pick<MinimalPlan, "steps" | "answerStep" | "capturedRequestUuid">,
  requestUuid: string,
) {
  let rows: Array<Record<string, unknown>> = [];
  for (let i = 0; i < plan.steps.length; i++) {
    const step = plan.steps[i];
    const result = step.name
      ? await client.query({ name: step.name, text: step.text, values: step.values })
      : await client.query(
          plan.capturedRequestUuid ? step.text.replace(plan.capturedRequestUuid, requestUuid) : step.text,
        );
    if (i === plan.answerStep) rows = (Array.isArray(result) ? (result as pg.QueryResult[]).at(-1)! : result).rows;
  }
  return rows;
}

/** The server.ts this process started from `dir` (its working directory tells them apart). */
function servicePidIn(dir: string): number | undefined {
  try {
    return fs
      .readdirSync("/proc")
      .map(Number)
      .find((pid) => {
        if (!(pid > 0)) return false;
        try {
          return (
            fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1] === String(process.pid) &&
            fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("server.ts") &&
            fs.realpathSync(`/proc/${pid}/cwd`) === fs.realpathSync(dir)
          );
        } catch {
          return false;
        }
      });
  } catch {
    return undefined;
  }
}

function monotonicMicroseconds(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Which of the query's columns hold uuid, message, sended and the capcodes (found by matching the API's first row). */
async function pickColumns(
  apiAnswer: any,
  authUrl: string,
  steps: Step[],
  answerStep: number,
): Promise<MinimalColumns> {
  const client = new pg.Client({ connectionString: authUrl });
  await client.connect();
  try {
    const rows = await runSteps(client, { steps, answerStep, capturedRequestUuid: null }, randomUUID());
    const columns = Object.keys(rows[0]);
    const first = apiAnswer.data.p2000Messages[0];
    const find = (test: (value: unknown) => boolean) => {
      const column = columns.find((c) => test(rows[0][c]));
      if (!column) throw new Error(`No column of the query matches (${columns.join(", ")})`);
      return column;
    };
    return {
      uuid: find((v) => v === first.uuid),
      message: find((v) => v === first.message),
      sended: find((v) => v === first.sended),
      capcodes: find((v) => typeof v === "string" && v.startsWith("{") && v.includes(first.capcodes[0].uuid)),
    };
  } finally {
    await client.end();
  }
}

async function startMinimal(
  plan: MinimalPlan,
  nodeFlags: string[] = [],
): Promise<{ pid: number; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeFlags, new URL(import.meta.url).pathname, "--serve-minimal"],
    {
      env: { ...process.env, REQUEST_PATH_PLAN: JSON.stringify(plan) },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("Minimal handler ready")) resolve();
    });
    void exited.then((code) => reject(new Error(`the minimal handler exited (code ${code}) before it was ready`)));
  });
  return {
    pid: child.pid!,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The profile, summed by area.
// ---------------------------------------------------------------------------------------------

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface ProfileSummary {
  requests: number;
  /** Wall-clock time of the samples (the thread running or waiting for a core). */
  sampledMsPerRequest: number;
  /** CPU time /proc counted; the per-area figures add up to it. */
  cpuMsPerRequest: number;
  areas: Array<{ area: string; msPerRequest: number; share: number }>;
  topSelf: Array<{ function: string; area: string; msPerRequest: number }>;
  topInclusive: Array<{ function: string; area: string; msPerRequest: number }>;
}

const ROOT_DIR = path.join(BENCH_DIR, "..");

/** The area of a frame's source: a package, a file of ours, or Node's own. */
export function areaOf(url: string, functionName: string): string | undefined {
  if (!url) {
    if (functionName === "(garbage collector)") return "garbage collection";
    if (functionName === "(program)") return "V8 and native (program)";
    if (functionName === "(idle)") return "idle";
    if (functionName === "stringify" || functionName === "parse") return "JSON (builtin stringify/parse)";
    return undefined; // a builtin (JSON.stringify…): its caller's area
  }
  const file = url.replace(/^file:\/\//, "");
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
  if (pkg) {
    if (pkg === "grafserv") return "grafserv (HTTP, body, output)";
    if (pkg === "grafast") return "grafast (planning, execution, output)";
    if (pkg === "@dataplan/pg") return "@dataplan/pg (SQL building, pg steps)";
    if (
      [
        "pg",
        "pg-protocol",
        "pg-pool",
        "pg-types",
        "postgres-array",
        "postgres-date",
        "postgres-interval",
        "postgres-bytea",
        "pg-cloudflare",
        "pgpass",
        "pg-int8",
      ].includes(pkg)
    )
      return "pg driver (protocol)";
    if (pkg === "graphql") return "graphql-js";
    if (pkg.startsWith("@escape.tech/")) return "query limits (graphql-armor)";
    if (pkg === "prom-client" || pkg === "tdigest" || pkg === "bintrees") return "metrics (prom-client)";
    if (
      pkg.startsWith("graphile-build") ||
      pkg === "postgraphile" ||
      pkg === "pg-sql2" ||
      pkg === "@dataplan/json" ||
      pkg === "tamedevil"
    )
      return `${pkg}`;
    if (pkg === "graphile-worker") return "graphile-worker";
    return `other packages (${pkg})`;
  }
  if (file.startsWith("node:")) {
    if (/^node:(_http|internal\/http|http)/.test(file)) return "Node HTTP";
    if (/^node:(net|internal\/(net|stream_base|streams|stream)|stream)/.test(file)) return "Node net and streams";
    return "Node (other)";
  }
  const relative = path.relative(ROOT_DIR, file);
  if (relative.startsWith("plugins/")) return `plugin ${relative.slice("plugins/".length)}`;
  if (relative.startsWith("lib/auth/")) return "auth (lib/auth)";
  if (relative.startsWith("lib/")) return relative;
  if (relative === "bench/request-path.ts") return "the minimal handler (bench/request-path.ts)";
  return relative || file;
}

function summariseProfile(
  profile: CpuProfile,
  fromUs: number,
  toUs: number,
  requests: number,
  cpuMsPerRequest: number,
): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (n: CpuProfileNode) => {
    const file = n.callFrame.url
      ? path.relative(ROOT_DIR, n.callFrame.url.replace(/^file:\/\//, "")).replace(/^node_modules\//, "")
      : "";
    return `${n.callFrame.functionName || "(anonymous)"}${file ? ` ${file}:${n.callFrame.lineNumber + 1}` : ""}`;
  };
  const selfMs = new Map<string, number>();
  const inclusiveMs = new Map<string, number>();
  const areaMs = new Map<string, number>();
  const functionArea = new Map<string, string>();
  let t = profile.startTime;
  let sampled = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < fromUs || t > toUs) continue;
    const ms = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i]) / 1000;
    const leaf = byId.get(profile.samples[i])!;
    if (leaf.callFrame.functionName === "(idle)") continue;
    sampled += ms;
    // The area: the innermost frame with a source; builtins count for their caller.
    let area: string | undefined;
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id)!;
      area ??= areaOf(node.callFrame.url, node.callFrame.functionName);
      const name = label(node);
      if (!seen.has(name)) {
        seen.add(name);
        inclusiveMs.set(name, (inclusiveMs.get(name) ?? 0) + ms);
        if (!functionArea.has(name))
          functionArea.set(name, areaOf(node.callFrame.url, node.callFrame.functionName) ?? "builtin");
      }
    }
    area ??= "builtin";
    areaMs.set(area, (areaMs.get(area) ?? 0) + ms);
    const leafName = label(leaf);
    selfMs.set(leafName, (selfMs.get(leafName) ?? 0) + ms);
    if (!functionArea.has(leafName)) functionArea.set(leafName, area);
  }
  // Samples are wall-clock intervals: scaled so that they add up to the CPU /proc counted.
  const scale = Number.isFinite(cpuMsPerRequest) && sampled > 0 ? (cpuMsPerRequest * requests) / sampled : 1;
  const perRequest = (ms: number) => round((ms * scale) / requests, 3);
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return {
    requests,
    sampledMsPerRequest: round(sampled / requests, 3),
    cpuMsPerRequest,
    areas: sorted(areaMs).map(([area, ms]) => ({
      area,
      msPerRequest: perRequest(ms),
      share: round((100 * ms) / sampled, 1),
    })),
    topSelf: sorted(selfMs)
      .slice(0, 60)
      .map(([name, ms]) => ({ function: name, area: functionArea.get(name)!, msPerRequest: perRequest(ms) })),
    topInclusive: sorted(inclusiveMs)
      .filter(([name]) => !/^\((root|program)\)/.test(name))
      .slice(0, 120)
      .map(([name, ms]) => ({ function: name, area: functionArea.get(name)!, msPerRequest: perRequest(ms) })),
  };
}

// Last, so that every declaration above is initialised.
if (values["serve-minimal"]) {
  await serveMinimal();
} else {
  const stopAll = async (code: number) => {
    for (const stop of cleanUp.reverse()) await stop().catch(() => {});
    process.exit(code);
  };
  // Stopped from outside: the service, the handlers and PostgreSQL stop too.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.removeAllListeners(signal);
    process.once(signal, () => void stopAll(1));
  }
  try {
    await main();
  } catch (error) {
    console.error(error);
    await stopAll(1);
  }
}
