// The soak: `npm run bench:soak -- --hours N` (or `--minutes N`) runs production-like load against
// the service for that long, with a fault every so often, and says whether anything was lost
// (issue 43, part 4; docs/benchmarks.md#soak). CI runs `--minutes 5`.
//
// The service runs as operators scale it out: an API process (PROCESS_ROLE=api) and a worker
// process (PROCESS_ROLE=worker), started as server.ts is by `npm start` (bench/server-process.ts),
// on an embedded PostgreSQL of its own under bench/.data-soak (kept between runs; --fresh starts
// over), with the live demo on (3 days of history, then every minute's synthetic traffic; --no-demo
// turns it off) and the response cache at its default. The load (bench/soak/):
// - a writer publishing --writes-per-second P2000 pages (2) through createP2000Message, each to
//   one to three capcodes of the monitors (writer.ts);
// - --monitors monitors (40), one capcode each, each delivering to a webhook channel of its own on
//   a local receiver that checks every Standard Webhooks signature (receiver.ts);
// - --readers clients (8) reading a mix of hot and uncached reads, each on its own API token, a
//   short pause between requests (readers.ts);
// - --subscribers graphql-ws subscribers (200) of the P2000 message subscription on --tokens API
//   tokens (10), resubscribing after any end (subscribers.ts).
// Faults (faults.ts), every --fault-every-minutes (10) in turn from --faults
// (postgres,worker,receiver; add disk to fill the database's disk for --disk-full-minutes (2) to
// --disk-reserve-mb (1) free, so that writes run out of room within it: then, as root, the
// cluster is new on a tmpfs of --disk-mb (2048)); a run shorter than two such intervals has one
// fault, the first of the list, at its midpoint. Each is given time to settle before the run ends.
// What it reports: writes acknowledged against stored (lost writes); webhook deliveries missing
// or doubled (each stored page to each of its monitors exactly once, by Webhook-Id, with a valid
// signature); subscribers not back --back-within-seconds (10) after each fault's recovery; 5xx
// outside the faults' windows; the RSS of the API and worker processes per window of time; the p99
// of each read; CPU per request; the service's log lines. The exit code is 1 when a write was lost,
// a delivery missed, doubled or badly signed, or subscribers did not come back; else 0.
// Figures: bench/results/soak-latest.md and a dated JSON file.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { queueDemoData } from "../lib/setup/demo-data.ts";
import { cpuSplit, describeCpu, makeCpuSampler, rssMb } from "./cpu-accounting.ts";
import { BENCH_DIR, openBenchDatabase } from "./bench-database.ts";
import { machine, summary, writeResults } from "./results.ts";
import { summariseHeapSnapshot } from "./heap-summary.ts";
import { startServerProcess } from "./server-process.ts";
import {
  DEFAULT_FAULT_KINDS,
  diskNearlyFull,
  FAULT_KINDS,
  killPostgres,
  killWorker,
  mountSoakDisk,
  receiverOutage,
  unmountSoakDisk,
  type Fault,
  type FaultKind,
} from "./soak/faults.ts";
import { checkReads, READ_NAMES, startReaders } from "./soak/readers.ts";
import { WebhookReceiver } from "./soak/receiver.ts";
import { RequestLog } from "./soak/requests.ts";
import { Subscribers } from "./soak/subscribers.ts";
import { letters, startWriter } from "./soak/writer.ts";

const { values } = parseArgs({
  allowNegative: true,
  options: {
    hours: { type: "string" },
    minutes: { type: "string" },
    "fault-every-minutes": { type: "string", default: "10" },
    faults: { type: "string", default: DEFAULT_FAULT_KINDS.join(",") },
    "receiver-down-minutes": { type: "string", default: "2" },
    "disk-mb": { type: "string", default: "2048" },
    "disk-full-minutes": { type: "string", default: "2" },
    "disk-reserve-mb": { type: "string", default: "1" },
    "writes-per-second": { type: "string", default: "2" },
    monitors: { type: "string", default: "40" },
    readers: { type: "string", default: "8" },
    "read-pause-ms": { type: "string", default: "100" },
    subscribers: { type: "string", default: "200" },
    tokens: { type: "string", default: "10" },
    "back-within-seconds": { type: "string", default: "10" },
    "drain-seconds": { type: "string", default: "60" },
    demo: { type: "boolean", default: true },
    fresh: { type: "boolean", default: false },
    "heap-snapshot": { type: "boolean", default: false },
  },
});
const RUN_MS = (values.hours ? Number(values.hours) * 60 : Number(values.minutes ?? 15)) * 60_000;
const FAULT_EVERY_MS = Number(values["fault-every-minutes"]) * 60_000;
const FAULTS = values.faults.split(",").filter(Boolean) as FaultKind[];
for (const kind of FAULTS)
  if (!FAULT_KINDS.includes(kind)) throw new Error(`--faults takes ${FAULT_KINDS.join(", ")} (got "${kind}")`);
const RECEIVER_DOWN_S = Math.round(Number(values["receiver-down-minutes"]) * 60);
/** With the disk fault, the cluster lives on a file system of the soak's own (faults.ts), new each run. */
const DISK = FAULTS.includes("disk");
const DISK_FULL_S = Math.round(Number(values["disk-full-minutes"]) * 60);
const WRITES_PER_SECOND = Number(values["writes-per-second"]);
const MONITORS = Number(values.monitors);
const READERS = Number(values.readers);
const READ_PAUSE_MS = Number(values["read-pause-ms"]);
const SUBSCRIBERS = Number(values.subscribers);
const TOKENS = Math.min(Number(values.tokens), SUBSCRIBERS);
const BACK_WITHIN_MS = Number(values["back-within-seconds"]) * 1000;
const DRAIN_MS = Number(values["drain-seconds"]) * 1000;
/** Requests answered within this long after PostgreSQL is back belong to its fault's window (the service notices by its probe). */
const FAULT_GRACE_MS = 10_000;
/** What the API process should stay under at this load (issue 43; reported, not a failure of the run). */
const API_RSS_BUDGET_MB = 400;
/** RSS is reported per window of this length: ten minutes in a long run, a minute in a short one. */
const RSS_WINDOW_MS = RUN_MS >= 30 * 60_000 ? 10 * 60_000 : 60_000;
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The heap snapshot a process writes into `dir` (a file not in `before`), once its size stays put. */
async function waitForHeapSnapshot(dir: string, before: Set<string>): Promise<string> {
  let last = -1;
  for (const deadline = Date.now() + 5 * 60_000; Date.now() < deadline; await sleep(2000)) {
    const name = fs.readdirSync(dir).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    if (!name) continue;
    const size = fs.statSync(path.join(dir, name)).size;
    if (size > 0 && size === last) return path.join(dir, name);
    last = size;
  }
  throw new Error(`No heap snapshot in ${dir} after 5 minutes`);
}

checkReads();
/** Jobs left at the end are counted from here (an earlier run's may still be locked by the worker it killed). */
const runStartedAt = Date.now();

// The database, its logs, and the demo (queued once per data directory, loaded by the worker).
// With the disk fault, on a new file system of its own (its logs beside it, off the disk it fills).
const diskDir = path.join(BENCH_DIR, ".data-soak-disk");
if (DISK) mountSoakDisk(diskDir, Number(values["disk-mb"]));
const { dataDir, config, database, owner } = await openBenchDatabase(
  DISK ? "soak-disk" : "soak",
  54372,
  !DISK && (values.fresh ?? false),
);
const logDir = DISK ? `${dataDir}-logs` : path.join(dataDir, "logs");
fs.mkdirSync(logDir, { recursive: true });
const logFiles = { api: path.join(logDir, "api.log"), worker: path.join(logDir, "worker.log") };
for (const file of Object.values(logFiles)) fs.writeFileSync(file, "");
let demoQueued = false;
if (values.demo) {
  const {
    rows: [installation],
  } = await owner.query("select demo_live_until from app_private.installation");
  if (!installation?.demo_live_until) {
    await queueDemoData(owner);
    demoQueued = true;
  }
}
// What an earlier run left: its monitors and channels (their receiver is gone).
await owner.query("delete from app_public.monitors where name like 'soak %'");
await owner.query("delete from app_public.channels where name like 'soak %'");

const receiver = new WebhookReceiver(25);
await receiver.open();

const serviceEnv = (role: "api" | "worker") => ({
  PROCESS_ROLE: role,
  DEMO_DATA: String(values.demo),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
  // As deployed: the response cache at its default size, the log at its default level.
  RESPONSE_CACHE_MB: "64",
  LOG_LEVEL: "info",
  SUBSCRIPTIONS_PER_TOKEN: String(Math.ceil(SUBSCRIBERS / TOKENS)),
  // --heap-snapshot: the API writes one on SIGUSR2, into the logs' directory
  ...(role === "api" && values["heap-snapshot"]
    ? { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${logDir}` }
    : {}),
});
const startWorkerProcess = () =>
  startServerProcess({
    dataDir,
    pgPort: config.database.embeddedPgPort,
    env: serviceEnv("worker"),
    logFile: logFiles.worker,
  });
const api = await startServerProcess({
  dataDir,
  pgPort: config.database.embeddedPgPort,
  env: serviceEnv("api"),
  logFile: logFiles.api,
});
let worker = await startWorkerProcess();
// Nothing restarts the API: its end before the run's is a failure, said with its log's last lines.
let apiStopping = false;
let apiEndedEarly: number | NodeJS.Signals | null | undefined;
void api.exited.then((how) => {
  if (apiStopping) return;
  apiEndedEarly = how;
  log(`The API process ended (${how}) during the run; its log: ${logFiles.api}`);
});
log(`API process ${api.pid}, worker process ${worker.pid} (logs in ${path.relative(process.cwd(), logDir)})`);

if (demoQueued) {
  log("Waiting for the demo load (3 days of history) ...");
  for (const deadline = Date.now() + 15 * 60_000; ;) {
    if (Date.now() > deadline) throw new Error(`The demo load did not finish in 15 minutes (see ${logFiles.worker}).`);
    const {
      rows: [{ left }],
    } = await owner.query("select count(*)::int as left from graphile_worker.jobs where key like '%\\_demo'");
    if (left === 0) break;
    await sleep(2000);
  }
}

// Set-up through the API, as a user does it: an administrator with 40 webhook channels and monitors.
const setup = new RequestLog(api.graphqlUrl);
const call = async (token: string, query: string, variables?: Record<string, unknown>) => {
  const { status, body } = await setup.post("setup", token, query, variables);
  if (status !== 200 || body.errors?.length)
    throw new Error(`Set-up failed (${status}): ${body.errors?.[0]?.message ?? "no answer"}`);
  return body.data as Record<string, any>;
};
const newToken = async (name: string, scopes: string[] = []) =>
  (await createApiToken(owner, { environmentUuid: database.operatorEnvironmentUuid, name, scopes })).plainToken;
const authToken = await newToken("soak auth", ["auth:register", "auth:login"]);
const runWord = letters(Math.floor(Date.now() / 1000) % 26 ** 5);
const email = `soak-${runWord}@example.org`;
const password = "a long enough soak password";
await call(
  authToken,
  "mutation ($e: String!, $p: String) { register(input: { email: $e, password: $p }) { environment { uuid } } }",
  {
    e: email,
    p: password,
  },
);
await owner.query("update app_public.users set is_admin = true where email_address = $1", [email]);
const login = async () =>
  (
    await call(
      authToken,
      "mutation ($e: String!, $p: String!) { login(input: { email: $e, password: $p }) { token } }",
      { e: email, p: password },
    )
  ).login.token as string;
const accessToken = await login();
/** Monitor uuid → its capcode; capcode 09990NN is monitor NN's alone (no real or demo traffic uses the block). */
const monitorCapcode = new Map<string, string>();
const capcodes: string[] = [];
for (let i = 1; i <= MONITORS; i++) {
  const capcode = `0999${String(i).padStart(3, "0")}`;
  const { createChannel } = await call(
    accessToken,
    "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } signingSecret } }",
    { i: { type: "webhook", name: `soak ${i}`, url: receiver.url(String(i)) } },
  );
  receiver.addSecret(String(i), createChannel.signingSecret);
  const { createMonitor } = await call(
    accessToken,
    "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
    {
      i: {
        name: `soak ${i}`,
        query: JSON.stringify({ capcodes: [capcode] }),
        channels: JSON.stringify([createChannel.channel.uuid]),
      },
    },
  );
  monitorCapcode.set(createMonitor.uuid, capcode);
  capcodes.push(capcode);
}
const readerTokens = await Promise.all(Array.from({ length: READERS }, (_, i) => newToken(`soak reader ${i}`)));
const subscriberTokens = await Promise.all(Array.from({ length: TOKENS }, (_, i) => newToken(`soak live ${i}`)));
log(`${MONITORS} monitors with webhook channels, ${READERS} reader tokens, ${TOKENS} subscriber tokens`);

// The load. The writer first: subscribers are live when they hear its pages.
const requests = new RequestLog(api.graphqlUrl);
const writer = startWriter({
  log: requests,
  login,
  accessToken,
  perSecond: WRITES_PER_SECOND,
  capcodes,
  runWord,
});
const subscribers = new Subscribers(api.graphqlUrl.replace(/^http/, "ws"), subscriberTokens);
const subscribing = Date.now();
await subscribers.start(SUBSCRIBERS);
const initial = await subscribers.waitBack(subscribing, 60_000, 60_000);
log(
  initial.allBackAfterMs === undefined
    ? `Only ${initial.backWithin} of ${SUBSCRIBERS} subscribers hear after a minute; going on`
    : `${SUBSCRIBERS} subscribers hearing after ${(initial.allBackAfterMs / 1000).toFixed(1)} s`,
);
const readers = startReaders({ log: requests, tokens: readerTokens, pauseMs: READ_PAUSE_MS, recent: writer.recent });

// Samples every 10 s: RSS of both processes (VmRSS; the worker's current process) and PostgreSQL's backends.
/**
 * What the API's RSS is made of, from its /metrics (prom-client's process metrics): V8's heap
 * (used, and the young generation's size: the semi-spaces the service's V8 flags let grow) and
 * memory outside it (Buffers: the response cache's answers, sockets).
 */
const apiHeapMb = async (): Promise<{ heapUsed: number; newSpace: number; external: number } | undefined> => {
  try {
    const text = await (await fetch(api.graphqlUrl.replace(/\/graphql$/, "/metrics"))).text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN) / 2 ** 20;
    return {
      heapUsed: value(/^nodejs_heap_size_used_bytes (\S+)$/m),
      newSpace: value(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\S+)$/m),
      external: value(/^nodejs_external_memory_bytes (\S+)$/m),
    };
  } catch {
    return undefined; // not answering in between
  }
};
const started = Date.now();
const samples: Array<{
  at: number;
  api: number;
  worker: number;
  backends?: number;
  heap?: Awaited<ReturnType<typeof apiHeapMb>>;
}> = [];
const sample = async () => {
  const at = Date.now() - started;
  const backends = await owner
    .query("select count(*)::int as n from pg_stat_activity where backend_type = 'client backend'")
    .then(({ rows }) => rows[0].n as number)
    .catch(() => undefined);
  samples.push({ at, api: rssMb(api.pid), worker: rssMb(worker.pid), backends, heap: await apiHeapMb() });
};
await sample();
const sampler = setInterval(() => void sample(), 10_000);
const cpuSample = makeCpuSampler(dataDir);
const cpuBefore = cpuSample(api.pid);

// The faults' schedule: every FAULT_EVERY_MS in turn, each leaving time to settle before the end.
// A receiver that was away has deliveries in graphile-worker's backoff (e^attempts seconds: after
// 30 s away the next try may be 55 s off, after longer up to 148 s, the sixth and last attempt).
const RETRY_AFTER_OUTAGE_MS = RECEIVER_DOWN_S <= 30 ? 60_000 : 180_000;
const settleMs = (kind: FaultKind) =>
  kind === "receiver"
    ? RECEIVER_DOWN_S * 1000 + RETRY_AFTER_OUTAGE_MS
    : kind === "disk"
      ? DISK_FULL_S * 1000 + 60_000
      : 60_000;
const schedule: Array<{ at: number; kind: FaultKind }> = [];
if (FAULTS.length > 0) {
  if (RUN_MS >= 2 * FAULT_EVERY_MS) {
    for (let k = 1; k * FAULT_EVERY_MS < RUN_MS; k++) {
      const kind = FAULTS[(k - 1) % FAULTS.length];
      if (k * FAULT_EVERY_MS + settleMs(kind) <= RUN_MS) schedule.push({ at: k * FAULT_EVERY_MS, kind });
    }
  } else schedule.push({ at: RUN_MS / 2, kind: FAULTS[0] });
}
log(
  `Soak for ${(RUN_MS / 60_000).toFixed(1)} minutes; faults: ${
    schedule.map((f) => `${f.kind} at ${(f.at / 60_000).toFixed(1)} min`).join(", ") || "none"
  }`,
);

const faults: Array<Fault & { subscribersBack?: number; allBackAfterMs?: number }> = [];
const watching: Promise<void>[] = [];
for (const planned of schedule) {
  await sleep(started + planned.at - Date.now());
  log(`Fault: ${planned.kind}`);
  let fault: Fault;
  if (planned.kind === "postgres") fault = await killPostgres(dataDir, database.ownerUrl);
  else if (planned.kind === "worker") {
    const killed = await killWorker(worker, receiver, startWorkerProcess);
    worker = killed.worker;
    fault = killed.fault;
  } else if (planned.kind === "disk")
    fault = await diskNearlyFull(dataDir, database.ownerUrl, DISK_FULL_S, Number(values["disk-reserve-mb"]));
  else fault = await receiverOutage(receiver, RECEIVER_DOWN_S);
  const entry: (typeof faults)[number] = fault;
  faults.push(entry);
  log(`  ${fault.detail}; back after ${((fault.recoveredAt - fault.startedAt) / 1000).toFixed(1)} s`);
  watching.push(
    subscribers.waitBack(fault.recoveredAt, BACK_WITHIN_MS, 60_000).then(({ backWithin, allBackAfterMs }) => {
      entry.subscribersBack = backWithin;
      entry.allBackAfterMs = allBackAfterMs;
      log(
        `  after the ${fault.kind} fault: ${backWithin} of ${SUBSCRIBERS} subscribers back within ${BACK_WITHIN_MS / 1000} s; ` +
          (allBackAfterMs === undefined ? "not all within 60 s" : `all after ${(allBackAfterMs / 1000).toFixed(1)} s`),
      );
    }),
  );
}
await sleep(started + RUN_MS - Date.now());
const ended = Date.now();
// What the API's heap holds at the end of the load (before the drain), when asked for: it pauses
// the API for seconds, so the run's latencies are taken with it.
let heap: ReturnType<typeof summariseHeapSnapshot> | undefined;
if (values["heap-snapshot"]) {
  const before = new Set(fs.readdirSync(logDir));
  process.kill(api.pid, "SIGUSR2");
  const file = await waitForHeapSnapshot(logDir, before);
  heap = summariseHeapSnapshot(file);
  log(`Heap snapshot of the API: ${path.relative(process.cwd(), file)} (${heap.totalMb} MB of objects)`);
}
log("Load over; stopping the writer and readers, waiting for deliveries ...");
await writer.stop();
await readers.stop();
await Promise.all(watching);
clearInterval(sampler);
await sample();
const cpuAfter = cpuSample(api.pid);

// What the database stored of the writer's pages: each page's number is in its text.
const pageRegex = new RegExp(`(\\d+) soak${runWord}[a-z]+$`);
const { rows: storedRows } = await owner.query<{ uuid: string; message: string }>(
  "select uuid, message from app_public.p2000_messages where message like $1",
  [`%soak${runWord}%`],
);
const storedByNumber = new Map<number, string>();
for (const row of storedRows) {
  const n = Number(pageRegex.exec(row.message)?.[1]);
  if (n) storedByNumber.set(n, row.uuid);
}
const storedUuids = new Set(storedByNumber.values());
const pages = writer.pages;
const acknowledged = pages.filter((p) => p.uuid);
const lostWrites = acknowledged.filter((p) => !storedUuids.has(p.uuid!));
const storedUnacknowledged = pages.filter((p) => !p.uuid && storedByNumber.has(p.n)).length;

// Expected deliveries: every stored page to the monitor of each of its capcodes.
const monitorOf = new Map([...monitorCapcode].map(([monitor, capcode]) => [capcode, monitor]));
const expected = new Set<string>();
for (const page of pages) {
  const uuid = storedByNumber.get(page.n);
  if (uuid) for (const capcode of page.capcodes) expected.add(`${uuid} ${monitorOf.get(capcode)}`);
}
const receivedPairs = () => {
  const pairs = new Map<string, number>();
  for (const d of receiver.deliveries.values()) {
    const key = `${d.messageUuid} ${d.monitorUuid}`;
    pairs.set(key, (pairs.get(key) ?? 0) + 1);
  }
  return pairs;
};
const missingNow = () => {
  const pairs = receivedPairs();
  return [...expected].filter((key) => !pairs.has(key)).length;
};
// Deliveries still on their way (a retry in backoff after the receiver was away) get time to arrive.
const lastReceiverFault = faults.filter((f) => f.kind === "receiver").at(-1);
const drainUntil = Math.max(
  Date.now() + DRAIN_MS,
  lastReceiverFault ? lastReceiverFault.recoveredAt + RETRY_AFTER_OUTAGE_MS : 0,
);
while (missingNow() > 0 && Date.now() < drainUntil) await sleep(1000);
const pairs = receivedPairs();
const missing = [...expected].filter((key) => !pairs.has(key));
const unexpected = [...pairs.keys()].filter((key) => !expected.has(key)).length;
const sameMessageTwice = [...pairs.values()].filter((count) => count > 1).length;
const doubledIds = receiver.doubled.size;
// Where the missing ones are, by the service's own record of them.
const { rows: notificationRows } = await owner.query<{ key: string; status: string; attempts: number }>(
  `select message_uuid || ' ' || monitor_uuid as key, status, attempts
     from app_private.notifications where monitor_uuid = any ($1::uuid[])`,
  [[...monitorCapcode.keys()]],
);
const notificationOf = new Map(notificationRows.map((row) => [row.key, row]));
const missingByStatus: Record<string, number> = {};
for (const key of missing) {
  const status = notificationOf.get(key)?.status ?? "no notification";
  missingByStatus[status] = (missingByStatus[status] ?? 0) + 1;
}
// Deliver jobs of this run still there: a job locked by a killed worker stays locked until a live
// worker frees it (WORKER_LOST_AFTER_SECONDS, lib/db/worker-heartbeat.ts) and then runs again: a
// second delivery under the same Webhook-Id where the receiver already has it and its
// notification is still queued.
const { rows: leftJobs } = await owner
  .query<{ key: string; locked: boolean; status: string | null }>(
    `select j.key, j.locked_at is not null as locked, n.status
       from graphile_worker.jobs j left join app_private.notifications n on 'notification:' || n.uuid = j.key
      where j.task_identifier = 'notifications__deliver' and j.created_at >= $1`,
    [new Date(runStartedAt)],
  )
  .catch(() => ({ rows: [] }));
const deliverJobsLeft = {
  jobs: leftJobs.length,
  locked: leftJobs.filter((job) => job.locked).length,
  lockedQueuedAndReceived: leftJobs.filter(
    (job) => job.locked && job.status === "queued" && receiver.deliveries.has(job.key.replace(/^notification:/, "")),
  ).length,
};

await subscribers.stop();
await receiver.close();
apiStopping = true;
await api.stop();
await worker.stop();
await owner.end();
await database.close();
if (DISK) unmountSoakDisk(diskDir);

// Requests: those that ended inside a window of PostgreSQL's absence or want of disk (from the
// kill or the filling to FAULT_GRACE_MS after it answers again) are counted apart; latencies are
// of 200s without a GraphQL error, outside the windows. The other faults must not touch the API or
// its subscribers: what happens during them counts as outside.
const windows = faults
  .filter((f) => f.kind === "postgres" || f.kind === "disk")
  .map((f) => [f.startedAt, f.recoveredAt + FAULT_GRACE_MS]);
const inFault = (at: number) => windows.some(([from, to]) => at >= from && at <= to);
const seconds = (ended - started) / 1000;
const byKind = new Map<string, { latencies: number[]; failed: number; failedInFaults: number }>();
const serverErrors = { outside: 0, inside: 0, noAnswerOutside: 0, noAnswerInside: 0 };
const serverErrorsOutside: string[] = [];
for (let i = 0; i < requests.size; i++) {
  const kind = requests.kinds[requests.kind[i]];
  const entry = byKind.get(kind) ?? { latencies: [], failed: 0, failedInFaults: 0 };
  byKind.set(kind, entry);
  const status = requests.status[i];
  const fault = inFault(requests.endedAt[i]);
  const ok = status === 200 && requests.graphqlError[i] === 0;
  if (ok && !fault) entry.latencies.push(requests.latency[i]);
  if (!ok) entry[fault ? "failedInFaults" : "failed"]++;
  if (status >= 500) serverErrors[fault ? "inside" : "outside"]++;
  if (status === 0) serverErrors[fault ? "noAnswerInside" : "noAnswerOutside"]++;
  if (status >= 500 && !fault && serverErrorsOutside.length < 5)
    serverErrorsOutside.push(`${status} ${kind} at ${((requests.endedAt[i] - started) / 60_000).toFixed(1)} min`);
}
const reads = [...READ_NAMES, "createP2000Message"]
  .filter((kind) => byKind.has(kind))
  .map((kind) => {
    const entry = byKind.get(kind)!;
    return {
      kind,
      ...summary(entry.latencies, seconds, 1),
      failed: entry.failed,
      failedInFaults: entry.failedInFaults,
      errors: [...(requests.errorSamples.get(kind) ?? [])],
    };
  });
const cpu = cpuSplit(cpuBefore, cpuAfter, requests.size);

// RSS per window: the highest sample of each process in it.
const rss: Array<{
  fromMinute: number;
  apiMaxMb: number;
  apiHeapUsedMaxMb: number;
  apiNewSpaceMaxMb: number;
  apiExternalMaxMb: number;
  workerMaxMb: number;
  backendsMax: number | null;
}> = [];
for (let from = 0; from < ended - started; from += RSS_WINDOW_MS) {
  // while the load ran (a heap snapshot after it takes hundreds of megabytes to write)
  const inWindow = samples.filter((s) => s.at >= from && s.at < from + RSS_WINDOW_MS && s.at <= ended - started);
  if (inWindow.length === 0) continue;
  const max = (values: number[]) => Math.round(Math.max(...values.filter((v) => !Number.isNaN(v))));
  const backends = inWindow.map((s) => s.backends).filter((n): n is number => n !== undefined);
  rss.push({
    fromMinute: from / 60_000,
    apiMaxMb: max(inWindow.map((s) => s.api)),
    apiHeapUsedMaxMb: max(inWindow.map((s) => s.heap?.heapUsed ?? NaN)),
    apiNewSpaceMaxMb: max(inWindow.map((s) => s.heap?.newSpace ?? NaN)),
    apiExternalMaxMb: max(inWindow.map((s) => s.heap?.external ?? NaN)),
    workerMaxMb: max(inWindow.map((s) => s.worker)),
    backendsMax: backends.length ? Math.max(...backends) : null,
  });
}
const logLines = Object.fromEntries(
  Object.entries(logFiles).map(([role, file]) => {
    const lines = fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
    return [role, { lines, errorLines: lines.filter((line) => /error/i.test(line)).length }];
  }),
) as Record<"api" | "worker", { lines: string[]; errorLines: number }>;

const subscriptionEndsOutsideFaults = subscribers.endTimes.filter((at) => !inFault(at)).length;
const subscribersNotBack = faults.filter((f) => (f.subscribersBack ?? 0) < SUBSCRIBERS);
const failures = [
  lostWrites.length > 0 && `${lostWrites.length} acknowledged writes lost`,
  missing.length > 0 && `${missing.length} webhook deliveries missing`,
  doubledIds + sameMessageTwice > 0 &&
    `${doubledIds} Webhook-Ids accepted more than once, ${sameMessageTwice} pages delivered to a monitor under two ids`,
  receiver.badSignatures > 0 && `${receiver.badSignatures} deliveries with a signature that does not verify`,
  initial.allBackAfterMs === undefined && `only ${initial.backWithin} of ${SUBSCRIBERS} subscribers heard at the start`,
  subscribersNotBack.length > 0 &&
    `subscribers not back ${BACK_WITHIN_MS / 1000} s after ${subscribersNotBack
      .map((f) => `the ${f.kind} fault (${f.subscribersBack ?? 0} of ${SUBSCRIBERS})`)
      .join(", ")}`,
  apiEndedEarly !== undefined && `the API process ended during the run (${apiEndedEarly})`,
].filter((failure): failure is string => typeof failure === "string");

const minutes = (ms: number) => +(ms / 60_000).toFixed(2);
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  minutes: minutes(ended - started),
  load: {
    demo: values.demo,
    writesPerSecond: WRITES_PER_SECOND,
    monitors: MONITORS,
    readers: READERS,
    readPauseMs: READ_PAUSE_MS,
    subscribers: SUBSCRIBERS,
    subscriberTokens: TOKENS,
  },
  faults: faults.map((f) => ({
    kind: f.kind,
    atMinute: minutes(f.startedAt - started),
    backAfterSeconds: +((f.recoveredAt - f.startedAt) / 1000).toFixed(1),
    detail: f.detail,
    subscribersBackWithin: f.subscribersBack,
    allSubscribersBackAfterSeconds: f.allBackAfterMs === undefined ? null : +(f.allBackAfterMs / 1000).toFixed(1),
  })),
  writes: {
    sent: pages.length,
    acknowledged: acknowledged.length,
    stored: storedByNumber.size,
    lost: lostWrites.length,
    storedUnacknowledged,
  },
  deliveries: {
    expected: expected.size,
    received: pairs.size,
    missing: missing.length,
    missingByNotificationStatus: missingByStatus,
    doubledWebhookIds: doubledIds,
    pagesUnderTwoIds: sameMessageTwice,
    badSignatures: receiver.badSignatures,
    unexpected,
    receiverRequests: receiver.requests,
    deliverJobsLeft,
  },
  subscribers: {
    count: SUBSCRIBERS,
    initialAllHearingAfterSeconds:
      initial.allBackAfterMs === undefined ? null : +(initial.allBackAfterMs / 1000).toFixed(1),
    subscriptionsMade: subscribers.subscriptions,
    events: subscribers.events,
    duplicates: subscribers.duplicates,
    ends: Object.fromEntries(subscribers.ends),
    endsOutsideFaults: subscriptionEndsOutsideFaults,
  },
  serverErrors: { ...serverErrors, firstOutside: serverErrorsOutside },
  reads,
  rss,
  rssMaxMb: {
    api: Math.round(Math.max(...rss.map((r) => r.apiMaxMb))),
    worker: Math.round(Math.max(...rss.map((r) => r.workerMaxMb))),
  },
  heap,
  cpu,
  log: {
    apiLines: logLines.api.lines.length,
    apiErrorLines: logLines.api.errorLines,
    workerLines: logLines.worker.lines.length,
    workerErrorLines: logLines.worker.errorLines,
  },
  failures,
};

const markdown = [
  `Soak, ${result.date.slice(0, 10)}, ${result.machine}: ${result.minutes} minutes, API and worker as separate processes; ` +
    `${values.demo ? "the live demo on, " : ""}a writer at ${WRITES_PER_SECOND} pages/s (createP2000Message), ${MONITORS} monitors ` +
    `delivering to webhooks, ${READERS} readers (pause ${READ_PAUSE_MS} ms), ${SUBSCRIBERS} subscribers on ${TOKENS} tokens.`,
  "",
  `**${failures.length === 0 ? "Nothing lost, nothing doubled, every subscriber back." : `Failed: ${failures.join("; ")}.`}**`,
  "",
  "| fault | at min | back after s | subscribers back within " + `${BACK_WITHIN_MS / 1000} s | all back after s |`,
  "| --- | --- | --- | --- | --- |",
  ...result.faults.map(
    (f) =>
      `| ${f.kind}: ${f.detail} | ${f.atMinute} | ${f.backAfterSeconds} | ${f.subscribersBackWithin} of ${SUBSCRIBERS} | ${f.allSubscribersBackAfterSeconds ?? "not within 60"} |`,
  ),
  "",
  ...(DISK ? [] : ["Disk nearly full: not run (`--faults …,disk` runs it, as root, on a file system of its own).", ""]),
  `Writes: ${result.writes.sent} sent, ${result.writes.acknowledged} acknowledged, ${result.writes.stored} stored, ` +
    `**${result.writes.lost} lost**, ${storedUnacknowledged} stored without an acknowledgement.`,
  "",
  `Webhook deliveries: ${expected.size} expected, ${pairs.size} received with a valid signature, **${missing.length} missing**` +
    (missing.length ? ` (by notification status: ${JSON.stringify(missingByStatus)})` : "") +
    `, **${doubledIds} Webhook-Ids twice**, ${sameMessageTwice} pages to a monitor under two ids, ${receiver.badSignatures} bad signatures, ` +
    `${unexpected} not expected. Deliver jobs left: ${deliverJobsLeft.jobs}, ${deliverJobsLeft.locked} locked, ` +
    `${deliverJobsLeft.lockedQueuedAndReceived} of them locked with their notification still queued though the receiver has it ` +
    `(sent again under the same Webhook-Id when a live worker frees a dead one's jobs, after WORKER_LOST_AFTER_SECONDS).`,
  "",
  `Subscribers: ${subscribers.subscriptions} subscriptions made, ${subscribers.events} events, ${subscribers.duplicates} duplicates; ` +
    `ends: ${[...subscribers.ends].map(([code, n]) => `${code} ${n}`).join(", ") || "none"} ` +
    `(${subscriptionEndsOutsideFaults} outside the faults' windows).`,
  "",
  `HTTP 5xx: **${serverErrors.outside} outside the faults' windows**, ${serverErrors.inside} inside; no answer: ` +
    `${serverErrors.noAnswerOutside} outside, ${serverErrors.noAnswerInside} inside` +
    (serverErrorsOutside.length ? ` (first outside: ${serverErrorsOutside.join("; ")})` : "") +
    `. A window runs from PostgreSQL's kill or the disk's filling to ${FAULT_GRACE_MS / 1000} s after it answers again (the other faults must not touch the API).`,
  "",
  "| request | answers | per s | p50 ms | p95 ms | p99 ms | max ms | failed outside faults | failed inside |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ...reads.map(
    (r) =>
      `| ${r.kind} | ${r.requests} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.max} | ${r.failed} | ${r.failedInFaults} |`,
  ),
  ...reads.filter((r) => r.errors.length).map((r) => `- ${r.kind}: ${r.errors.join(" / ")}`),
  "",
  `RSS (VmRSS, highest sample of each ${RSS_WINDOW_MS / 60_000}-minute window; of the API's, the highest V8 heap in use, ` +
    `young generation and memory outside the heap; PostgreSQL client backends):`,
  "",
  "| from min | API MB | API heap used | API young generation | API external | worker MB | backends |",
  "| --- | --- | --- | --- | --- | --- | --- |",
  ...rss.map(
    (r) =>
      `| ${r.fromMinute} | ${r.apiMaxMb} | ${r.apiHeapUsedMaxMb} | ${r.apiNewSpaceMaxMb} | ${r.apiExternalMaxMb} | ` +
      `${r.workerMaxMb} | ${r.backendsMax ?? ""} |`,
  ),
  "",
  `Highest RSS: API ${result.rssMaxMb.api} MB (issue 43's budget: ${API_RSS_BUDGET_MB} MB, ` +
    `${result.rssMaxMb.api <= API_RSS_BUDGET_MB ? "within" : "**over**"}), worker ${result.rssMaxMb.worker} MB.`,
  "",
  ...(heap
    ? [
        `The API's heap at the end of the load (a snapshot, ${heap.totalMb} MB of objects; own sizes by kind):`,
        "",
        "| kind | constructor | objects | MB |",
        "| --- | --- | --- | --- |",
        ...heap.groups.map(
          (g) => `| ${g.type} | ${g.name.replace(/\|/g, "\\|").slice(0, 60)} | ${g.count} | ${g.selfMb} |`,
        ),
        "",
      ]
    : []),
  `${describeCpu(cpu)} (per HTTP request; the worker process counts as other).`,
  "",
  `Log lines: API ${result.log.apiLines} (${result.log.apiErrorLines} with "error"), worker ${result.log.workerLines} ` +
    `(${result.log.workerErrorLines} with "error").`,
];
for (const line of markdown) console.log(line);
// A failed run says what the processes said last (CI keeps only this output).
if (failures.length > 0) {
  for (const [role, { lines }] of Object.entries(logLines)) {
    console.log(`\nThe ${role}'s last log lines (${logFiles[role as "api" | "worker"]}):`);
    for (const line of lines.slice(-40)) console.log(`  ${line}`);
  }
}
log(`Wrote ${writeResults("soak", "soak-latest.md", result, markdown)}`);
process.exit(failures.length === 0 ? 0 : 1);
