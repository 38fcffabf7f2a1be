// The burst bench (issue 47): `npm run bench:fan-out -- [--monitors 20000] [--workers 1]
// [--concurrency 8] [--kill-worker] [--fresh]`. One P2000 page whose place lies inside the areas
// (circles of 1-3 km) of `monitors` monitors, each notifying a webhook channel of its own on a
// local receiver that checks every Standard Webhooks signature; then, in the same run, the limit:
// a minimal sender that does the same work for the same number of targets (the same signing, the
// same body, HTTP POSTs over kept-alive connections to a receiver of the same code) in a plain loop
// with as many in flight as the workers have (each job sends its batch of notifications at once),
// without a queue.
//
// It builds its own embedded database under bench/.data-fan-out (kept between runs; --fresh starts
// over). The service runs as `workers` worker processes (PROCESS_ROLE=worker, as `npm run worker`
// starts them); the page is stored through app_private.ingest_p2000_message, as a FLEX reader's
// would be. Measured: the time from the page's insert to the first and the last delivery,
// deliveries a second (between the first and the last), p50/p95/p99 from the insert to each
// arrival, CPU per delivery (the worker processes and PostgreSQL; the minimal sender's own) and
// the workers' highest RSS; and exactly-once: deliveries missing, Webhook-Ids received twice (a
// delivery sent again under its id, which receivers de-duplicate on) and pages that reached a
// monitor under two ids (a real double). --kill-worker kills a worker process (SIGKILL) when half
// the deliveries have arrived and starts another, as a process supervisor would; the jobs it held
// are freed by the live workers after WORKER_LOST_AFTER_SECONDS (5 here; docs/operations.md).
// Only webhook channels so far: the other channel types of issue 47's mix are still to come.
// Figures go to bench/results/fan-out-latest.md (docs/benchmarks.md shows them) and a dated JSON file.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { SOCKETS_PER_HOST } from "../lib/http/outbound.ts";
import { signWebhook } from "../lib/monitors/webhook-signatures.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { makeCpuSampler, rssMb, TICK_MS } from "./cpu-accounting.ts";
import { machine, percentile, writeResults } from "./results.ts";
import { startServerProcess, type ServerProcess } from "./server-process.ts";
import { WebhookReceiver } from "./soak/receiver.ts";

const { values } = parseArgs({
  options: {
    monitors: { type: "string", default: "20000" },
    workers: { type: "string", default: "1" },
    concurrency: { type: "string", default: "8" },
    "kill-worker": { type: "boolean", default: false },
    fresh: { type: "boolean", default: false },
  },
});
const MONITORS = Number(values.monitors);
const WORKERS = Number(values.workers);
const CONCURRENCY = Number(values.concurrency);
/** Wait this long without a new delivery before calling the rest missing. */
const STALL_MS = 60_000;
/** The example secret of the Standard Webhooks specification: every channel's. */
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const PAGE = "P 1 BDH-01 Middelbrand woning Domplein Utrecht";
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

const { dataDir, config, owner, database } = await openBenchDatabase("fan-out", 54376, values.fresh);
const logFile = path.join(dataDir, "workers.log");
fs.writeFileSync(logFile, "");

// Where the page will be placed (its place's point): the monitors' circles are drawn around it.
const {
  rows: [at],
} = await owner.query<{ latitude: number | null; longitude: number | null }>(
  "select (e).latitude, (e).longitude from (select app_hidden.p2000_enrich($1, array[]::text[]) as e) x",
  [PAGE],
);
if (at.latitude === null || at.longitude === null) throw new Error(`The page "${PAGE}" gets no position.`);

// 1. The monitors and their channels, in an environment of the bench's own, made anew each run
//    (the receiver's port is new each run).
const receiver = new WebhookReceiver(0);
await receiver.open();
const hookBase = receiver.url("");
const {
  rows: [{ environment }],
} = await owner.query<{ environment: string }>(`
  with o as (insert into app_public.organizations (name) select 'fan-out bench'
              where not exists (select from app_public.organizations where name = 'fan-out bench') returning uuid),
       org as (select uuid from o union all select uuid from app_public.organizations where name = 'fan-out bench'),
       e as (insert into app_public.environments (organization_uuid, name) select uuid, 'fan-out' from org
              where not exists (select from app_public.environments where name = 'fan-out'
                                   and organization_uuid in (select uuid from org)) returning uuid)
  select uuid as environment from e
  union all select en.uuid from app_public.environments en join org on en.organization_uuid = org.uuid where en.name = 'fan-out'
  limit 1`);
log(`Making ${MONITORS} monitors with a webhook channel each, around ${at.latitude}, ${at.longitude} ...`);
await owner.query("delete from app_public.monitors where environment_uuid = $1", [environment]);
await owner.query("delete from app_public.channels where environment_uuid = $1", [environment]);
await owner.query(
  `with c as (insert into app_public.channels (environment_uuid, type, name, url)
              select $1, 'webhook', 'fan-out ' || i, $2 || i from generate_series(1, $3) i returning uuid, name),
        s as (insert into app_private.channel_secrets select uuid, $4 from c),
        m as (insert into app_public.monitors (environment_uuid, name, query)
              select $1, c.name, jsonb_build_object('areas', jsonb_build_array(jsonb_build_object(
                       'type', 'circle', 'latitude', $5::float8, 'longitude', $6::float8,
                       'radius', 1 + (substring(c.name from '\\d+$')::int % 3))))
                from c returning uuid, name)
   insert into app_hidden.monitor_channels select m.uuid, c.uuid from m join c using (name)`,
  [environment, hookBase, MONITORS, SECRET, at.latitude, at.longitude],
);
for (let i = 1; i <= MONITORS; i++) receiver.addSecret(String(i), SECRET);

// 2. The worker processes, as `npm run worker` starts them.
const startWorker = () =>
  startServerProcess({
    dataDir,
    pgPort: config.database.embeddedPgPort,
    logFile,
    env: {
      PROCESS_ROLE: "worker",
      WORKER_CONCURRENCY: String(CONCURRENCY),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      WORKER_HEARTBEAT_SECONDS: "1",
      WORKER_LOST_AFTER_SECONDS: "5",
      LOG_LEVEL: "info",
    },
  });
const workers: ServerProcess[] = [];
for (let i = 0; i < WORKERS; i++) workers.push(await startWorker());
log(`${WORKERS} worker process(es), WORKER_CONCURRENCY ${CONCURRENCY}`);

/** The highest RSS (MB) of any worker process, sampled every 250 ms while a burst runs. */
let workerRssMaxMb = 0;
const rssSampler = setInterval(() => {
  for (const worker of workers) workerRssMaxMb = Math.max(workerRssMaxMb, rssMb(worker.pid) || 0); // NaN: ended in between
}, 250);

// How many deliveries the workers have in flight at most: each of a worker's WORKER_CONCURRENCY jobs
// sends its batch at once, over at most SOCKETS_PER_HOST connections to one receiver. The minimal
// sender gets as many.
const {
  rows: [{ batch }],
} = await owner.query<{ batch: number }>("select app_hidden.notification_batch_size() as batch");
const IN_FLIGHT = WORKERS * Math.min(CONCURRENCY * batch, SOCKETS_PER_HOST);

// 3. The burst: one page, every monitor's delivery.
const sampleCpu = makeCpuSampler(dataDir);
const cpuTicks = () => {
  const samples = workers.map((w) => sampleCpu(w.pid));
  return {
    workers: samples.reduce((sum, s) => sum + (s?.service ?? 0), 0),
    postgres: samples[0]?.postgres ?? 0,
    bench: samples[0]?.bench ?? 0,
  };
};
const before = cpuTicks();
const killedTicks = { workers: 0 };
const insertedAt = Date.now();
const {
  rows: [{ uuid: pageUuid }],
} = await owner.query<{ uuid: string }>(
  "select app_private.ingest_p2000_message($1, now(), array['0999999'], 'bench') as uuid",
  [PAGE],
);
log(`Page ${pageUuid} stored; waiting for ${MONITORS} deliveries ...`);
let killed = false;
for (let lastCount = -1, lastChange = Date.now(); receiver.deliveries.size < MONITORS;) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  if (receiver.deliveries.size !== lastCount) [lastCount, lastChange] = [receiver.deliveries.size, Date.now()];
  if (Date.now() - lastChange > STALL_MS) break;
  if (values["kill-worker"] && !killed && receiver.deliveries.size >= MONITORS / 2) {
    killed = true;
    const victim = workers.shift()!;
    killedTicks.workers += sampleCpu(victim.pid)?.service ?? 0;
    process.kill(victim.pid, "SIGKILL");
    await victim.exited;
    log(`Killed worker process ${victim.pid} at ${receiver.deliveries.size} deliveries; starting another`);
    workers.push(await startWorker());
  }
}
const after = cpuTicks();
clearInterval(rssSampler);
const arrivals = [...receiver.deliveries.values()].filter((d) => d.messageUuid === pageUuid).map((d) => d.at);
arrivals.sort((a, b) => a - b);
const pagesByMonitor = new Map<string, number>();
for (const d of receiver.deliveries.values()) {
  const key = `${d.monitorUuid} ${d.messageUuid}`;
  pagesByMonitor.set(key, (pagesByMonitor.get(key) ?? 0) + 1);
}
const cpuMs = (ticks: number) => +((ticks * TICK_MS) / Math.max(1, arrivals.length)).toFixed(3);
const service = {
  deliveries: arrivals.length,
  missing: MONITORS - arrivals.length,
  webhookIdsTwice: receiver.doubled.size,
  pagesUnderTwoIds: [...pagesByMonitor.values()].filter((n) => n > 1).length,
  badSignatures: receiver.badSignatures,
  ...timings(arrivals, insertedAt),
  // A killed process's ticks up to its kill (counted then), and the live ones' in the window.
  cpuMsPerDelivery: {
    workers: cpuMs(after.workers - before.workers + killedTicks.workers),
    postgres: cpuMs(after.postgres - before.postgres),
    receiver: cpuMs(after.bench - before.bench),
  },
  workerRssMaxMb: Math.round(workerRssMaxMb),
};
log(
  `Service: ${service.deliveries} of ${MONITORS} delivered, first after ${service.firstMs} ms, last after ${service.lastMs} ms, ` +
    `${service.perSecond} a second`,
);
for (const worker of workers) await worker.stop();
const sampleBody = receiver.sampleBody;
await receiver.close();

// 4. The limit: the same work in a plain loop, as many in flight, kept-alive connections.
const minimalReceiver = new WebhookReceiver(0);
await minimalReceiver.open();
for (let i = 1; i <= MONITORS; i++) minimalReceiver.addSecret(String(i), SECRET);
if (!sampleBody) throw new Error("No delivery reached the receiver: nothing to send the same of.");
const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
const post = (url: string, headers: Record<string, string>, body: string) =>
  new Promise<number>((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers, agent }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
    request.end(body);
  });
const minimalBefore = process.cpuUsage();
const minimalStarted = Date.now();
let next = 0;
await Promise.all(
  Array.from({ length: IN_FLIGHT }, async () => {
    while (next < MONITORS) {
      const i = ++next;
      const id = randomUUID();
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        "content-type": "application/json",
        "user-agent": "fan-out-bench-minimal/1",
        "webhook-id": id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signWebhook(SECRET, id, timestamp, sampleBody),
      };
      const status = await post(minimalReceiver.url(String(i)), headers, sampleBody);
      if (status !== 204) throw new Error(`The minimal sender's POST got ${status}.`);
    }
  }),
);
const minimalCpu = process.cpuUsage(minimalBefore);
agent.destroy();
const minimalArrivals = [...minimalReceiver.deliveries.values()].map((d) => d.at).sort((a, b) => a - b);
await minimalReceiver.close();
const minimal = {
  deliveries: minimalArrivals.length,
  ...timings(minimalArrivals, minimalStarted),
  // This process: the sender and its receiver (the receiver alone is service.cpuMsPerDelivery.receiver).
  cpuMsPerDelivery: +((minimalCpu.user + minimalCpu.system) / 1000 / Math.max(1, minimalArrivals.length)).toFixed(3),
};
log(`Minimal sender: ${minimal.deliveries} delivered, ${minimal.perSecond} a second`);

/** First and last arrival after `from` (ms), deliveries a second between them, and latencies from `from`. */
function timings(sortedArrivals: number[], from: number) {
  const latencies = sortedArrivals.map((t) => t - from);
  const spanS = sortedArrivals.length > 1 ? (sortedArrivals.at(-1)! - sortedArrivals[0]) / 1000 : 0;
  return {
    firstMs: latencies[0] ?? null,
    lastMs: latencies.at(-1) ?? null,
    perSecond: spanS > 0 ? Math.round(sortedArrivals.length / spanS) : null,
    p50Ms: latencies.length ? percentile(latencies, 50) : null,
    p95Ms: latencies.length ? percentile(latencies, 95) : null,
    p99Ms: latencies.length ? percentile(latencies, 99) : null,
  };
}

// 5. The figures.
const ratio = service.perSecond && minimal.perSecond ? +(service.perSecond / minimal.perSecond).toFixed(2) : null;
const goals = [
  ratio !== null && ratio >= 0.7
    ? "≥ 0.7 of the minimal sender: met"
    : `≥ 0.7 of the minimal sender: **not met** (${ratio})`,
  service.firstMs !== null && service.firstMs <= 2000
    ? "first delivery within 2 s: met"
    : `first delivery within 2 s: **not met** (${service.firstMs} ms)`,
  service.missing === 0 && service.pagesUnderTwoIds === 0
    ? "nothing lost or doubled: met"
    : `nothing lost or doubled: **not met** (${service.missing} missing, ${service.pagesUnderTwoIds} under two ids)`,
];
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  monitors: MONITORS,
  workers: WORKERS,
  concurrency: CONCURRENCY,
  batch,
  inFlight: IN_FLIGHT,
  killWorker: values["kill-worker"],
  service,
  minimal,
  ratio,
};
const row = (name: string, r: ReturnType<typeof timings> & { deliveries: number }, cpu: string) =>
  `| ${name} | ${r.deliveries} | ${r.firstMs} | ${r.lastMs} | ${r.perSecond} | ${r.p50Ms} | ${r.p95Ms} | ${r.p99Ms} | ${cpu} |`;
const markdown = [
  `Burst, ${result.date.slice(0, 10)}, ${result.machine}: ${MONITORS} monitors (circles of 1-3 km around one page's place), ` +
    `a webhook channel each; ${WORKERS} worker process(es) × WORKER_CONCURRENCY ${CONCURRENCY}, ` +
    `batches of ${batch}, at most ${IN_FLIGHT} deliveries in flight (the minimal sender: as many)` +
    `${values["kill-worker"] ? "; a worker process killed (SIGKILL) at half the deliveries and another started" : ""}.`,
  "",
  "| sender | delivered | first ms | last ms | per s | p50 ms | p95 ms | p99 ms | CPU ms per delivery |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  row(
    "the service",
    service,
    `${service.cpuMsPerDelivery.workers} workers + ${service.cpuMsPerDelivery.postgres} PostgreSQL`,
  ),
  row("minimal sender", minimal, `${minimal.cpuMsPerDelivery} sender and receiver`),
  "",
  `The service at **${ratio}** of the minimal sender's deliveries a second; ${goals.join("; ")}.`,
  "",
  `Exactly once: ${service.missing} missing, ${service.webhookIdsTwice} Webhook-Ids received twice (sent again under ` +
    `their id), ${service.pagesUnderTwoIds} pages to a monitor under two ids, ${service.badSignatures} bad signatures. ` +
    `Workers' highest RSS ${service.workerRssMaxMb} MB; during the service's burst this process (the receiver, ` +
    `and its wait) took ${service.cpuMsPerDelivery.receiver} ms of CPU a delivery.`,
];
for (const line of markdown) console.log(line);
log(`Wrote ${writeResults("fan-out", "fan-out-latest.md", result, markdown)}`);
await owner.end();
await database.close();
process.exit(0);
