// The burst bench (issue 47): `npm run bench:fan-out -- [--monitors 20000] [--workers 1]
// [--concurrency 8] [--mix webhook=40,webpush=30,ntfy=10,discord=10,mqtt=10] [--api 0]
// [--viewers 1000] [--kill-worker] [--fresh]`. One P2000 page whose place lies inside the areas (circles of 1-3 km) of `monitors`
// monitors, each notifying a channel of its own, of the types in `mix` (percentages; the default is
// our guess at how people choose: webhooks for integrations, Web Push for the web application,
// ntfy and Discord for groups, MQTT for Home Assistant), each to a local receiver in its original's
// format: webhooks checked with the Standard Webhooks library, a push service over TLS that
// decrypts a sample and checks its VAPID token, ntfy's JSON publish, Discord's webhook API, an MQTT
// broker (bench/fan-out/receivers.ts). Then, in the same run, the limit: a minimal sender that does
// the same work for the same targets (the same signing, encryption and bodies, HTTP requests over
// kept-alive connections of at most as many sockets per receiver, an MQTT connection per target as
// the service makes) in a plain loop with as many in flight as the workers have (each job sends its
// batch of notifications at once), without a queue, in a process of its own as the worker is
// (bench/fan-out/minimal-sender.ts).
//
// It builds its own embedded database under bench/.data-fan-out (kept between runs; --fresh starts
// over). The service runs as `workers` worker processes (PROCESS_ROLE=worker, as `npm run worker`
// starts them); the page is stored through app_private.ingest_p2000_message, as a FLEX reader's
// would be. Measured: the time from the page's insert to the first and the last delivery,
// deliveries a second (between the first and the last), p50/p95/p99 from the insert to each
// arrival, per channel type and in all, CPU per delivery (the worker processes and PostgreSQL; the
// minimal sender's own) and the workers' highest RSS; and exactly-once: deliveries missing, webhook
// deliveries sent again under their Webhook-Id (which receivers de-duplicate on), pages that reached
// a monitor under two ids (a real double), and arrivals again at a target of a type without such an
// id. --kill-worker kills a worker process (SIGKILL) when half the deliveries have arrived and starts
// another, as a process supervisor would; the jobs it held are freed by the live workers after
// WORKER_LOST_AFTER_SECONDS (5 here; docs/operations.md). --api N starts N API processes against
// the same database, as an operator scales out (docs/operations.md), with `viewers` live viewers of
// the map spread over them (bench/fan-out/viewers.ts): when the page reached each, and the API
// processes' CPU during the burst.
// Figures go to bench/results/fan-out-latest.md (docs/benchmarks.md shows them) and a dated JSON file.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import webpush from "web-push";
import { SOCKETS_PER_HOST } from "../lib/http/outbound.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { makeCpuSampler, rssMb, TICK_MS } from "./cpu-accounting.ts";
import { runMinimalSender, type MinimalJob } from "./fan-out/minimal-sender.ts";
import { startViewers } from "./fan-out/viewers.ts";
import {
  Arrivals,
  PUSH_CERTIFICATE,
  startJsonReceiver,
  startMqttBroker,
  startPushService,
} from "./fan-out/receivers.ts";
import { machine, percentile, writeResults } from "./results.ts";
import { startServerProcess, type ServerProcess } from "./server-process.ts";
import { WebhookReceiver } from "./soak/receiver.ts";

const TYPES = ["webhook", "webpush", "ntfy", "discord", "mqtt"] as const;
type ChannelType = (typeof TYPES)[number];

const { values } = parseArgs({
  options: {
    monitors: { type: "string", default: "20000" },
    workers: { type: "string", default: "1" },
    concurrency: { type: "string", default: "8" },
    mix: { type: "string", default: "webhook=40,webpush=30,ntfy=10,discord=10,mqtt=10" },
    api: { type: "string", default: "0" },
    viewers: { type: "string", default: "1000" },
    "kill-worker": { type: "boolean", default: false },
    fresh: { type: "boolean", default: false },
  },
});
const MONITORS = Number(values.monitors);
const WORKERS = Number(values.workers);
const CONCURRENCY = Number(values.concurrency);
const API_PROCESSES = Number(values.api);
const VIEWERS = API_PROCESSES > 0 ? Number(values.viewers) : 0;
/** Each channel type's share in percent, in TYPES' order. */
const MIX = new Map<ChannelType, number>();
for (const part of values.mix.split(",")) {
  const [type, share] = part.split("=");
  if (!TYPES.includes(type as ChannelType) || !(Number(share) >= 0))
    throw new Error(`--mix takes type=percent pairs of ${TYPES.join(", ")} (got "${part}").`);
  MIX.set(type as ChannelType, Number(share));
}
const SHARES = TYPES.filter((type) => MIX.get(type));
const TOTAL_SHARE = SHARES.reduce((sum, type) => sum + MIX.get(type)!, 0);
/**
 * Target i's channel type: the types take turns in proportion to their shares (by i modulo 100),
 * so every part of the burst, its first run of 1,000 among them, has the mix.
 */
function typeOf(i: number): ChannelType {
  let position = ((i - 1) % 100) * (TOTAL_SHARE / 100);
  for (const type of SHARES) {
    position -= MIX.get(type)!;
    if (position < 0) return type;
  }
  return SHARES.at(-1)!;
}
/** Wait this long without a new delivery before calling the rest missing. */
const STALL_MS = 60_000;
/** The example secret of the Standard Webhooks specification: every webhook channel's. */
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const VAPID = { subject: "mailto:bench@example.org", ...webpush.generateVAPIDKeys() };
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

/** A receiver of every type, each counting what reaches it per target. */
async function startReceivers() {
  const webhook = new WebhookReceiver(0);
  await webhook.open();
  for (let i = 1; i <= MONITORS; i++) webhook.addSecret(String(i), SECRET);
  const [push, ntfy, discord, broker] = await Promise.all([
    startPushService(VAPID.publicKey),
    startJsonReceiver("ntfy"),
    startJsonReceiver("discord"),
    startMqttBroker(),
  ]);
  return {
    webhook,
    push,
    ntfy,
    discord,
    broker,
    /** Each type's arrivals (the webhook's: first acceptances of its page, by channel). */
    arrivals(pageUuid: string | null): Record<ChannelType, Arrivals> {
      const hooks = new Arrivals();
      for (const d of webhook.deliveries.values())
        if (pageUuid === null || d.messageUuid === pageUuid) hooks.first.set(d.channel, d.at);
      hooks.again = [...webhook.doubled.values()].reduce((sum, n) => sum + n - 1, 0);
      hooks.bad = webhook.badSignatures;
      return {
        webhook: hooks,
        webpush: push.arrivals,
        ntfy: ntfy.arrivals,
        discord: discord.arrivals,
        mqtt: broker.arrivals,
      };
    },
    arrived(): number {
      return (
        webhook.deliveries.size +
        push.arrivals.first.size +
        ntfy.arrivals.first.size +
        discord.arrivals.first.size +
        broker.arrivals.first.size
      );
    },
    async close() {
      await Promise.all([webhook.close(), push.close(), ntfy.close(), discord.close(), broker.close()]);
    },
  };
}

// 1. The monitors and their channels, in an environment of the bench's own, made anew each run
//    (the receivers' ports are new each run).
const receivers = await startReceivers();
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
const counts = Object.fromEntries(TYPES.map((type) => [type, 0])) as Record<ChannelType, number>;
const channels = Array.from({ length: MONITORS }, (_, n) => {
  const i = n + 1;
  const type = typeOf(i);
  counts[type]++;
  const target = String(i);
  return {
    i,
    type,
    url: type === "webhook" ? receivers.webhook.url(target) : null,
    server_url: type === "ntfy" ? receivers.ntfy.base : type === "mqtt" ? receivers.broker.url : null,
    topic: type === "ntfy" ? `fanout-${i}` : type === "mqtt" ? `fanout/${i}` : null,
    credentials:
      type === "webpush"
        ? receivers.push.subscription(target)
        : type === "discord"
          ? { webhookUrl: receivers.discord.url(target) }
          : null,
  };
});
const mixLine = TYPES.filter((type) => counts[type])
  .map((type) => `${counts[type]} ${type}`)
  .join(", ");
log(`Making ${MONITORS} monitors (${mixLine}) around ${at.latitude}, ${at.longitude} ...`);
await owner.query("delete from app_public.monitors where environment_uuid = $1", [environment]);
await owner.query("delete from app_public.channels where environment_uuid = $1", [environment]);
await owner.query(
  `with x as (select * from jsonb_to_recordset($2::jsonb) as x (i integer, type text, url text, server_url text, topic text, credentials jsonb)),
        c as (insert into app_public.channels (environment_uuid, type, name, url, server_url, topic)
              select $1, x.type, 'fan-out ' || x.i, x.url, x.server_url, x.topic from x order by x.i returning uuid, name),
        cx as (select c.uuid, c.name, x.* from c join x on c.name = 'fan-out ' || x.i),
        s as (insert into app_private.channel_secrets select uuid, $3 from cx where type = 'webhook'),
        k as (insert into app_private.channel_credentials select uuid, credentials from cx where credentials is not null),
        m as (insert into app_public.monitors (environment_uuid, name, query)
              select $1, cx.name, jsonb_build_object('areas', jsonb_build_array(jsonb_build_object(
                       'type', 'circle', 'latitude', $4::float8, 'longitude', $5::float8, 'radius', 1 + cx.i % 3)))
                from cx returning uuid, name)
   insert into app_hidden.monitor_channels select m.uuid, c.uuid from m join c using (name)`,
  [environment, JSON.stringify(channels), SECRET, at.latitude, at.longitude],
);
// The last run's 20,000 monitors, channels and notifications were just deleted: cleaned up now, so
// that the burst does not meet autovacuum doing it (and the planner knows the tables' new sizes).
await owner.query(`vacuum (analyze) app_public.monitors, app_public.channels, app_hidden.monitor_channels,
  app_private.channel_secrets, app_private.channel_credentials, app_hidden.p2000_monitor_criteria, app_hidden.p2000_monitor_area_boxes,
  app_hidden.monitor_matches, app_hidden.monitor_daily_counts, app_private.notifications, app_private.notification_attempts`);

// 2. The worker processes, as `npm run worker` starts them, trusting the push service's certificate
//    as a machine trusts its CAs.
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
      VAPID_PUBLIC_KEY: VAPID.publicKey,
      VAPID_PRIVATE_KEY: VAPID.privateKey,
      VAPID_SUBJECT: VAPID.subject,
      NODE_EXTRA_CA_CERTS: PUSH_CERTIFICATE,
      LOG_LEVEL: "info",
    },
  });
const workers: ServerProcess[] = [];
for (let i = 0; i < WORKERS; i++) workers.push(await startWorker());
log(`${WORKERS} worker process(es), WORKER_CONCURRENCY ${CONCURRENCY}`);
// Deleting the last run's monitors queued jobs of their own (an MQTT channel's Home Assistant
// sensors cleared for each monitor that left it): the burst starts on an idle service, once they ran.
for (const until = Date.now() + 120_000; ;) {
  const {
    rows: [{ due }],
  } = await owner.query<{ due: number }>(
    "select count(*)::integer as due from graphile_worker._private_jobs where run_at <= now() and attempts < max_attempts",
  );
  if (due === 0) break;
  if (Date.now() > until) throw new Error(`${due} jobs are still due after two minutes: the service is not idle.`);
  await new Promise((resolve) => setTimeout(resolve, 250));
}

// With --api: API processes (PROCESS_ROLE=api, as `npm run api` starts them) sharing the database,
// and live viewers of the map spread over them, hearing a page that matches no monitor first.
const apis: ServerProcess[] = [];
for (let i = 0; i < API_PROCESSES; i++)
  apis.push(
    await startServerProcess({
      dataDir,
      pgPort: config.database.embeddedPgPort,
      logFile,
      env: { PROCESS_ROLE: "api", WEB_CLIENT_SUBSCRIPTIONS_PER_ADDRESS: String(VIEWERS), LOG_LEVEL: "info" },
    }),
  );
const viewers =
  API_PROCESSES > 0
    ? await startViewers(
        apis.map((api) => api.graphqlUrl),
        VIEWERS,
      )
    : undefined;
if (viewers) {
  for (let attempt = 0; ; attempt++) {
    const {
      rows: [{ uuid: probe }],
    } = await owner.query<{ uuid: string }>(
      "select app_private.ingest_p2000_message($1, now(), array['0999998'], 'bench') as uuid",
      [`A2 Ambulance probe ${attempt} Stationsplein Groningen`],
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (viewers.seenBy(probe) === VIEWERS) break;
    if (attempt >= 60) throw new Error(`Only ${viewers.seenBy(probe)} of ${VIEWERS} viewers hear after a minute.`);
  }
  log(`${VIEWERS} viewers of the map on ${API_PROCESSES} API process(es), all hearing`);
}

/** The highest RSS (MB) of any worker process, sampled every 250 ms while a burst runs. */
let workerRssMaxMb = 0;
const rssSampler = setInterval(() => {
  for (const worker of workers) workerRssMaxMb = Math.max(workerRssMaxMb, rssMb(worker.pid) || 0); // NaN: ended in between
}, 250);

// How many deliveries the workers have in flight at most: each of a worker's WORKER_CONCURRENCY jobs
// sends its batch at once (a burst's batches as the service makes them after its first 1,000), over
// at most SOCKETS_PER_HOST connections to one receiver. The minimal sender gets as many, and as many
// sockets per receiver.
const {
  rows: [{ batch }],
} = await owner.query<{ batch: number }>("select app_hidden.delivery_batch_size($1) as batch", [MONITORS]);
const IN_FLIGHT = WORKERS * CONCURRENCY * batch;

// 3. The burst: one page, every monitor's delivery.
const sampleCpu = makeCpuSampler(dataDir);
const cpuTicks = () => {
  const samples = workers.map((w) => sampleCpu(w.pid));
  return {
    workers: samples.reduce((sum, s) => sum + (s?.service ?? 0), 0),
    apis: apis.reduce((sum, api) => sum + (sampleCpu(api.pid)?.service ?? 0), 0),
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
for (let lastCount = -1, lastChange = Date.now(); receivers.arrived() < MONITORS;) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  const arrived = receivers.arrived();
  if (arrived !== lastCount) [lastCount, lastChange] = [arrived, Date.now()];
  if (Date.now() - lastChange > STALL_MS) break;
  if (values["kill-worker"] && !killed && arrived >= MONITORS / 2) {
    killed = true;
    const victim = workers.shift()!;
    killedTicks.workers += sampleCpu(victim.pid)?.service ?? 0;
    process.kill(victim.pid, "SIGKILL");
    await victim.exited;
    log(`Killed worker process ${victim.pid} at ${arrived} deliveries; starting another`);
    workers.push(await startWorker());
  }
}
// The viewers: the page on every open map (or missing after 10 s more).
for (const until = Date.now() + 10_000; viewers && viewers.seenBy(pageUuid) < VIEWERS && Date.now() < until;)
  await new Promise((resolve) => setTimeout(resolve, 100));
const after = cpuTicks();
clearInterval(rssSampler);
const live = viewers && {
  apiProcesses: API_PROCESSES,
  viewers: VIEWERS,
  missing: VIEWERS - viewers.seenBy(pageUuid),
  ...timings(viewers.arrivals(pageUuid), insertedAt),
  apiCpuMs: Math.round((after.apis - before.apis) * TICK_MS),
};
await viewers?.close();
for (const api of apis) await api.stop();
const serviceByType = receivers.arrivals(pageUuid);
const pagesByMonitor = new Map<string, number>();
for (const d of receivers.webhook.deliveries.values()) {
  const key = `${d.monitorUuid} ${d.messageUuid}`;
  pagesByMonitor.set(key, (pagesByMonitor.get(key) ?? 0) + 1);
}
const serviceAll = allOf(serviceByType, insertedAt);
const cpuMs = (ticks: number) => +((ticks * TICK_MS) / Math.max(1, serviceAll.deliveries)).toFixed(3);
const service = {
  ...serviceAll,
  missing: MONITORS - serviceAll.deliveries,
  pagesUnderTwoIds: [...pagesByMonitor.values()].filter((n) => n > 1).length,
  // A killed process's ticks up to its kill (counted then), and the live ones' in the window.
  cpuMsPerDelivery: {
    workers: cpuMs(after.workers - before.workers + killedTicks.workers),
    postgres: cpuMs(after.postgres - before.postgres),
    receivers: cpuMs(after.bench - before.bench),
  },
  workerRssMaxMb: Math.round(workerRssMaxMb),
  byType: byType(serviceByType, insertedAt),
};
log(
  `Service: ${service.deliveries} of ${MONITORS} delivered, first after ${service.firstMs} ms, last after ${service.lastMs} ms, ` +
    `${service.perSecond} a second`,
);
for (const worker of workers) await worker.stop();
// What reached each receiver first: the minimal sender sends the same.
const samples: MinimalJob["samples"] = {
  webhook: receivers.webhook.sampleBody,
  push: receivers.push.sample(),
  ntfy: receivers.ntfy.sample(),
  discord: receivers.discord.sample(),
  mqtt: receivers.broker.sample(),
};
const sampleOf: Record<ChannelType, keyof MinimalJob["samples"]> = {
  webhook: "webhook",
  webpush: "push",
  ntfy: "ntfy",
  discord: "discord",
  mqtt: "mqtt",
};
const unsampled = TYPES.filter((type) => counts[type] && !samples[sampleOf[type]]);
if (unsampled.length > 0)
  throw new Error(`No ${unsampled.join(", ")} delivery arrived: the minimal sender has nothing to send the same of.`);
await receivers.close();

// 4. The limit: the same work in a plain loop in a process of its own (as the worker is), as many
//    in flight, kept-alive connections (bench/fan-out/minimal-sender.ts).
const minimalReceivers = await startReceivers();
const job: MinimalJob = {
  inFlight: Math.min(IN_FLIGHT, MONITORS),
  secret: SECRET,
  vapid: VAPID,
  samples,
  targets: channels.map(({ i, type }) => {
    const target = String(i);
    if (type === "webhook") return { type, target, url: minimalReceivers.webhook.url(target) };
    if (type === "webpush") return { type, target, subscription: minimalReceivers.push.subscription(target) };
    if (type === "ntfy") return { type, target, url: minimalReceivers.ntfy.url(target) };
    if (type === "discord") return { type, target, url: minimalReceivers.discord.url(target) };
    return { type, target, url: minimalReceivers.broker.url };
  }),
};
const minimalStarted = Date.now();
const minimalCpuMs = await runMinimalSender(job);
const minimalByType = minimalReceivers.arrivals(null);
await minimalReceivers.close();
const minimalAll = allOf(minimalByType, minimalStarted);
const minimal = {
  ...minimalAll,
  cpuMsPerDelivery: +(minimalCpuMs / Math.max(1, minimalAll.deliveries)).toFixed(3),
  byType: byType(minimalByType, minimalStarted),
};
log(`Minimal sender: ${minimal.deliveries} delivered, ${minimal.perSecond} a second`);

/** All types' arrivals together, timed from `from`. */
function allOf(arrivals: Record<ChannelType, Arrivals>, from: number) {
  const times = Object.values(arrivals).flatMap((a) => [...a.first.values()]);
  return {
    deliveries: times.length,
    ...timings(times, from),
    sentAgain: Object.values(arrivals).reduce((sum, a) => sum + a.again, 0),
    bad: Object.values(arrivals).reduce((sum, a) => sum + a.bad, 0),
  };
}

/** Each type's channels, deliveries, timings from `from`, arrivals again and bad ones. */
function byType(arrivals: Record<ChannelType, Arrivals>, from: number) {
  return Object.fromEntries(
    TYPES.filter((type) => counts[type]).map((type) => [
      type,
      {
        channels: counts[type],
        deliveries: arrivals[type].first.size,
        ...timings([...arrivals[type].first.values()], from),
        sentAgain: arrivals[type].again,
        bad: arrivals[type].bad,
      },
    ]),
  );
}

/** First and last arrival after `from` (ms), deliveries a second between them, and latencies from `from`. */
function timings(arrivals: number[], from: number) {
  const sorted = [...arrivals].sort((a, b) => a - b);
  const latencies = sorted.map((t) => t - from);
  const spanS = sorted.length > 1 ? (sorted.at(-1)! - sorted[0]) / 1000 : 0;
  return {
    firstMs: latencies[0] ?? null,
    lastMs: latencies.at(-1) ?? null,
    perSecond: spanS > 0 ? Math.round(sorted.length / spanS) : null,
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
  service.missing === 0 && service.pagesUnderTwoIds === 0 && service.bad === 0
    ? "nothing lost or doubled: met"
    : `nothing lost or doubled: **not met** (${service.missing} missing, ${service.pagesUnderTwoIds} under two ids, ${service.bad} bad)`,
];
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  monitors: MONITORS,
  mix: Object.fromEntries(MIX),
  workers: WORKERS,
  concurrency: CONCURRENCY,
  batch,
  inFlight: IN_FLIGHT,
  socketsPerHost: SOCKETS_PER_HOST,
  killWorker: values["kill-worker"],
  service,
  live,
  minimal,
  ratio,
};
type Timed = ReturnType<typeof timings> & { deliveries: number };
const cells = (r: Timed) =>
  `${r.deliveries} | ${r.firstMs} | ${r.lastMs} | ${r.perSecond} | ${r.p50Ms} | ${r.p95Ms} | ${r.p99Ms}`;
const markdown = [
  `Burst, ${result.date.slice(0, 10)}, ${result.machine}: ${MONITORS} monitors (circles of 1-3 km around one page's place), ` +
    `a channel each (${mixLine}); ${WORKERS} worker process(es) × WORKER_CONCURRENCY ${CONCURRENCY}, ` +
    `batches of ${batch}, at most ${IN_FLIGHT} deliveries in flight over at most ${SOCKETS_PER_HOST} connections a receiver ` +
    `(the minimal sender: as many)` +
    `${values["kill-worker"] ? "; a worker process killed (SIGKILL) at half the deliveries and another started" : ""}.`,
  "",
  "| sender | delivered | first ms | last ms | per s | p50 ms | p95 ms | p99 ms | CPU ms per delivery |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  `| the service | ${cells(service)} | ${service.cpuMsPerDelivery.workers} workers + ${service.cpuMsPerDelivery.postgres} PostgreSQL |`,
  `| minimal sender | ${cells(minimal)} | ${minimal.cpuMsPerDelivery} sender |`,
  "",
  `The service at **${ratio}** of the minimal sender's deliveries a second; ${goals.join("; ")}.`,
  "",
  "By channel type:",
  "",
  "| type | channels | delivered | first ms | last ms | per s | p95 ms | minimal sender's per s | its p95 ms | arrived again | bad |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ...Object.entries(service.byType).map(
    ([type, r]) =>
      `| ${type} | ${r.channels} | ${r.deliveries} | ${r.firstMs} | ${r.lastMs} | ${r.perSecond} | ${r.p95Ms} | ` +
      `${minimal.byType[type]?.perSecond} | ${minimal.byType[type]?.p95Ms} | ${r.sentAgain} | ${r.bad} |`,
  ),
  "",
  ...(live
    ? [
        `Live viewers during the burst: ${live.viewers} graphql-ws viewers of the map (MapMessages, the web credential) on ` +
          `${live.apiProcesses} API process(es) against the same PostgreSQL: ${live.viewers - live.missing} saw the page, ` +
          `p50 ${live.p50Ms} ms, p95 ${live.p95Ms} ms, last ${live.lastMs} ms after its insert; the API processes took ` +
          `${live.apiCpuMs} ms of CPU during the burst.`,
        "",
      ]
    : []),
  `Exactly once: ${service.missing} missing, ${service.sentAgain} arrivals again (webhooks under their Webhook-Id, which ` +
    `receivers de-duplicate on; other types at their target), ${service.pagesUnderTwoIds} pages to a monitor under two ` +
    `ids, ${service.bad} bad (a signature, VAPID token or encryption that did not check out, in the sample checked). ` +
    `Workers' highest RSS ${service.workerRssMaxMb} MB; during the service's burst this process (the receivers, and ` +
    `its wait) took ${service.cpuMsPerDelivery.receivers} ms of CPU a delivery.`,
];
for (const line of markdown) console.log(line);
log(`Wrote ${writeResults("fan-out", "fan-out-latest.md", result, markdown)}`);
await owner.end();
await database.close();
process.exit(0);
