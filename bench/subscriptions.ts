// Live push at scale: `npm run bench:subscriptions -- [--subscribers 1000] [--tokens 10] [--rate 20]
// [--seconds 30] [--web] [--sse 0] [--minimal] [--fresh]`.
// The service runs as its own process (server.ts) on a database of its own (bench/.data-subscriptions).
// `--subscribers` graphql-ws clients, each on its own WebSocket, subscribe to
// `p2000Messages { uuid message sended }` with one of `--tokens` API tokens. Then messages arrive
// at `--rate` a second for `--seconds` through the FLEX reader's own path (lib/p2000/flex-ingest.ts:
// FLEX lines of realistic traffic, each made unique so that none merges into an earlier copy,
// stored in batches flushed every second as bin/ingest-flex.ts does). Every subscriber must get every
// message exactly once. Latency is measured from the start of the flush that stored a message
// (its batch's INSERTs included) to its arrival at each subscriber. Goals: p95 under 500 ms for
// 1,000 subscribers at 20 messages a second; for a crowd (every subscriber its own token, issue 33:
// 5,000 subscribers at 5 messages a second) p95 under 1 s. Also reported: the service's resident memory per
// subscriber (before and after they subscribe) and where the two cores went.
// --web subscribes as the web application's live map does (issue 47's ten thousand viewers): its
// own subscription document (MapMessages, web/src/map/queries.ts) with its shared credential (the
// web-client token of GET /web/config.json) instead of API tokens; --sse adds that many viewers on
// graphql-sse (an event stream each); --minimal then measures, in the same run, a minimal
// WebSocket server (bench/subscriptions/minimal-broadcaster.ts) sending the same frames to as many
// sockets at the same rate, and compares the CPU each takes a delivered message (the service's
// with PostgreSQL's): the service's share of the broadcaster's messages a second on the same cores.
// --library-viewers N keeps N of the viewers (spread over both protocols) on the graphql-ws and
// graphql-sse libraries, which parse and check every payload; the rest speak the same protocols but
// only look for each page's marker in the raw frame, as the minimal broadcaster's viewers do
// (bench/subscriptions/light-viewers.ts), so that on one machine the bench's own viewers do not
// take the cores the service is measured on.
// Figures: bench/results/subscriptions-latest.md and a dated JSON file.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { print } from "graphql";
import { createClient as createSseClient } from "graphql-sse";
import { createClient, type Client } from "graphql-ws";
import pg from "pg";
import WebSocket from "ws";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { createFlexIngester } from "../lib/p2000/flex-ingest.ts";
import { generatePagerTraffic } from "../lib/p2000/synthetic-pager-traffic.ts";
import { makeCpuSampler, cpuSplit, describeCpu } from "./cpu-accounting.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { machine, percentile, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";
import {
  frameText,
  lightSocket,
  lightSseViewer,
  lightWebSocketViewer,
  newHearing,
  noteMarkers,
  type Hearing,
} from "./subscriptions/light-viewers.ts";
import { startMinimalBroadcaster } from "./subscriptions/minimal-broadcaster.ts";
import { MessagesSubscription } from "../web/src/map/queries.ts";

const { values } = parseArgs({
  options: {
    subscribers: { type: "string", default: "1000" },
    tokens: { type: "string", default: "10" },
    rate: { type: "string", default: "20" },
    seconds: { type: "string", default: "30" },
    web: { type: "boolean", default: false },
    sse: { type: "string", default: "0" },
    minimal: { type: "boolean", default: false },
    "library-viewers": { type: "string" },
    fresh: { type: "boolean", default: false },
  },
});
const WS_VIEWERS = Number(values.subscribers);
const SSE_VIEWERS = Number(values.sse);
const SUBSCRIBERS = WS_VIEWERS + SSE_VIEWERS;
/** Every LIBRARY_EVERY-th viewer uses the client libraries (all of them unless --library-viewers says fewer). */
const LIBRARY_EVERY = values["library-viewers"]
  ? Math.max(1, Math.round(SUBSCRIBERS / Math.max(1, Number(values["library-viewers"]))))
  : 1;
const TOKENS = values.web ? 1 : Math.min(Number(values.tokens), SUBSCRIBERS);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
/** A crowd (a token per subscriber, or the web's viewers) has issue 33's and 47's goal; fewer tokens, the live push's. */
const GOAL_P95_MS = TOKENS === SUBSCRIBERS || values.web ? 1000 : 500;
const QUERY = values.web ? print(MessagesSubscription) : "subscription { p2000Messages { uuid message sended } }";
const log = (line: string) => console.log(line);

const { dataDir, config, database, owner } = await openBenchDatabase("subscriptions", 54365, values.fresh ?? false);
const perToken = Math.ceil(SUBSCRIBERS / TOKENS);
const service = await startServerProcess({
  dataDir,
  pgPort: config.database.embeddedPgPort,
  // All the bench's viewers come from one address: the web credential's per-address cap lets them.
  env: { SUBSCRIPTIONS_PER_TOKEN: String(perToken), WEB_CLIENT_SUBSCRIPTIONS_PER_ADDRESS: String(SUBSCRIBERS) },
});
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${service.pid}/status`, "utf8"))![1]) / 1024;

// The FLEX reader's path: lines in, batches out once a second (as bin/ingest-flex.ts flushes).
const readerPool = new pg.Pool({ connectionString: database.ownerUrl, max: 3 });
const reader = createFlexIngester(readerPool, { source: "bench-subscriptions", log: () => {} });
const lines = generatePagerTraffic({
  from: new Date("2025-03-03T00:00:00Z"),
  to: new Date("2025-03-10T00:00:00Z"),
  perDay: 20_000,
  seed: 18,
});
let sequence = 0;
/** The next FLEX line, sent now and unique (a marker at the end of its text). */
function nextLine(): { line: string; marker: string } {
  const line = lines.next().value as string;
  const fields = line.split("|");
  fields[1] = new Date().toISOString().slice(0, 19).replace("T", " ");
  const marker = `#${++sequence}`;
  return { line: `${fields.join("|")} ${marker}`, marker };
}
/** When the flush that stored each marker started. */
const flushStarted = new Map<string, number>();
let pending: string[] = [];
async function flush(): Promise<void> {
  const markers = pending;
  pending = [];
  const started = performance.now();
  for (const marker of markers) flushStarted.set(marker, started);
  await reader.flush();
}

// The subscribers: what each received, by marker, with the time it arrived.
interface Subscriber extends Hearing {
  client: Pick<Client, "dispose">;
}
const tokens = values.web
  ? [
      {
        plainToken: (
          (await (await fetch(new URL("/web/config.json", service.graphqlUrl))).json()) as { apiToken: string }
        ).apiToken,
      },
    ]
  : await Promise.all(
      Array.from({ length: TOKENS }, (_, i) =>
        createApiToken(owner, {
          environmentUuid: database.operatorEnvironmentUuid,
          name: `bench subscriptions ${i}`,
          scopes: [],
        }),
      ),
    );
/** The first message frame a viewer got, as graphql-ws sends it, its marker MARKER: what the minimal broadcaster sends. */
let sampleFrame: string | undefined;
const rssBefore = rssMb();
const subscribers: Subscriber[] = [];
const wsUrl = service.graphqlUrl.replace(/^http/, "ws");
const sseUrl = `${service.graphqlUrl}/stream`;
log(
  `${SUBSCRIBERS} subscribers (${TOKENS} tokens), ${RATE} messages/s for ${SECONDS} s; service RSS ${rssBefore.toFixed(0)} MB before`,
);
for (let i = 0; i < SUBSCRIBERS; i++) {
  const authorization = `Bearer ${tokens[i % TOKENS].plainToken}`;
  const hearing = newHearing();
  const client =
    i % LIBRARY_EVERY === 0
      ? libraryViewer(i < WS_VIEWERS, authorization, hearing)
      : i < WS_VIEWERS
        ? lightWebSocketViewer(wsUrl, authorization, QUERY, hearing)
        : lightSseViewer(sseUrl, authorization, QUERY, hearing);
  subscribers.push(Object.assign(hearing, { client }));
  if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 50)); // not 1,000 handshakes in one tick
}

/** A viewer on the graphql-ws or graphql-sse library, which parses and checks every payload. */
function libraryViewer(webSocket: boolean, authorization: string, hearing: Hearing) {
  // The web's viewers retry a connection that failed, as the web application does (its clients'
  // default); a subscription that breaks during the load still counts what it missed.
  const retryAttempts = values.web ? 5 : 0;
  const client = webSocket
    ? createClient({
        url: wsUrl,
        webSocketImpl: WebSocket,
        connectionParams: { authorization },
        retryAttempts,
      })
    : createSseClient({ url: sseUrl, headers: { authorization }, retryAttempts });
  client.subscribe<{ p2000Messages: Array<{ message: string }> }>(
    { query: QUERY },
    {
      next(result) {
        const now = performance.now();
        if (result.errors) hearing.errors.push(result.errors[0].message);
        for (const message of result.data?.p2000Messages ?? []) {
          const marker = /#\d+$/.exec(message.message)?.[0];
          if (!marker) continue;
          sampleFrame ??= JSON.stringify({ id: "1", type: "next", payload: result }).replaceAll(marker, "MARKER");
          if (hearing.received.has(marker)) hearing.duplicates++;
          else hearing.received.set(marker, now);
        }
      },
      error: (error) => hearing.errors.push(String((error as Error)?.message ?? error)),
      complete: () => {},
    },
  );
  return client;
}

// Until every subscriber hears: one probe message a second, stored like the rest.
const listening = performance.now();
for (let attempt = 0; ; attempt++) {
  const { line, marker } = nextLine();
  await reader.push(line);
  pending.push(marker);
  await flush();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const hearing = subscribers.filter((s) => s.received.has(marker)).length;
  if (hearing === SUBSCRIBERS) break;
  if (attempt >= 60)
    throw new Error(
      `Only ${hearing} of ${SUBSCRIBERS} subscribers hear after a minute; errors: ${subscribers
        .flatMap((s) => s.errors)
        .slice(0, 3)
        .join("; ")}`,
    );
}
const rssSubscribed = rssMb();
log(
  `All subscribed and hearing in ${((performance.now() - listening) / 1000).toFixed(1)} s; service RSS ${rssSubscribed.toFixed(0)} MB ` +
    `(${(((rssSubscribed - rssBefore) * 1024) / SUBSCRIBERS).toFixed(1)} KB per subscriber)`,
);
for (const subscriber of subscribers) subscriber.received.clear();
flushStarted.clear();

// The load: RATE messages a second, evenly spaced, flushed once a second.
const cpuSample = makeCpuSampler(dataDir);
const cpuBefore = cpuSample(service.pid);
const markers: string[] = [];
const loadStarted = performance.now();
const flushing: Promise<void>[] = [];
const flusher = setInterval(() => flushing.push(flush()), 1000);
for (let i = 0; i < RATE * SECONDS; i++) {
  const due = loadStarted + (i * 1000) / RATE;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const { line, marker } = nextLine();
  await reader.push(line);
  pending.push(marker);
  markers.push(marker);
}
clearInterval(flusher);
flushing.push(flush());
await Promise.all(flushing);
// Everything in flight arrives (or is missing after 10 s).
const deadline = performance.now() + 10_000;
while (performance.now() < deadline && subscribers.some((s) => s.received.size < markers.length)) {
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const cpu = cpuSplit(cpuBefore, cpuSample(service.pid), markers.length * SUBSCRIBERS);
const rssAfter = rssMb();

const latencies: number[] = [];
let missing = 0;
for (const subscriber of subscribers) {
  for (const marker of markers) {
    const at = subscriber.received.get(marker);
    if (at === undefined) missing++;
    else latencies.push(at - flushStarted.get(marker)!);
  }
}
latencies.sort((a, b) => a - b);
const at = (p: number) => +percentile(latencies, p).toFixed(0);
const duplicates = subscribers.reduce((sum, s) => sum + s.duplicates, 0);
const errors = subscribers.flatMap((s) => s.errors);
const figures = {
  deliveries: latencies.length,
  expected: markers.length * SUBSCRIBERS,
  missing,
  duplicates,
  errors: errors.length,
  p50: at(50),
  p95: at(95),
  p99: at(99),
  max: +(latencies.at(-1) ?? NaN).toFixed(0),
};
const met = figures.p95 < GOAL_P95_MS && missing === 0 && duplicates === 0;
log(
  `Deliveries ${figures.deliveries} of ${figures.expected} (missing ${missing}, duplicates ${duplicates}, errors ${errors.length}); ` +
    `stored → subscriber p50 ${figures.p50} ms, p95 ${figures.p95} ms, p99 ${figures.p99} ms, max ${figures.max} ms; ${describeCpu(cpu)}`,
);
log(`Goal (p95 < ${GOAL_P95_MS} ms, each message once to every subscriber): ${met ? "met" : "NOT met"}`);

await Promise.all(subscribers.map(async (s) => s.client.dispose()));
await service.stop();

// The limit: the same frames to as many sockets at the same rate, from a minimal broadcaster.
const minimal = values.minimal && sampleFrame ? await measureMinimalBroadcaster(sampleFrame) : undefined;
const serviceCpuMs = cpu ? +(cpu.service.msPerRequest + cpu.postgres.msPerRequest).toFixed(4) : undefined;
const ratio = minimal && serviceCpuMs ? +(minimal.cpuMsPerDelivery / serviceCpuMs).toFixed(2) : undefined;
if (minimal)
  log(
    `Minimal broadcaster: ${minimal.deliveries} of ${minimal.expected} delivered, p95 ${minimal.p95} ms, ` +
      `${minimal.cpuMsPerDelivery} ms of CPU a delivery against the service's ${serviceCpuMs} (with PostgreSQL): ` +
      `the service at ${ratio} of its messages a second on the same cores (goal ≥ 0.5: ${ratio! >= 0.5 ? "met" : "NOT met"})`,
  );

/**
 * As many plain WebSocket viewers of the minimal broadcaster, each noting when each message's
 * marker first reached it; the broadcaster sends RATE × SECONDS frames over SECONDS.
 */
async function measureMinimalBroadcaster(frame: string) {
  const broadcaster = await startMinimalBroadcaster();
  const viewers: Hearing[] = [];
  const sockets: WebSocket[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const hearing = newHearing();
    const socket = lightSocket(broadcaster.url);
    socket.on("message", (data) => noteMarkers(frameText(data), hearing, Date.now()));
    viewers.push(hearing);
    sockets.push(socket);
    if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await Promise.all(
    sockets.map((socket) =>
      socket.readyState === WebSocket.OPEN ? Promise.resolve() : new Promise((resolve) => socket.once("open", resolve)),
    ),
  );
  const count = RATE * SECONDS;
  const { sentAt, cpuMs } = await broadcaster.broadcast(frame, count, SECONDS);
  const until = Date.now() + 10_000;
  while (Date.now() < until && viewers.some((v) => v.received.size < count))
    await new Promise((r) => setTimeout(r, 100));
  const delays = viewers
    .flatMap((v) => [...v.received].map(([marker, at]) => at - sentAt[marker]))
    .sort((a, b) => a - b);
  for (const socket of sockets) socket.terminate();
  await broadcaster.stop();
  const p = (q: number) => +percentile(delays, q).toFixed(0);
  return {
    deliveries: delays.length,
    expected: count * SUBSCRIBERS,
    missing: count * SUBSCRIBERS - delays.length,
    p50: p(50),
    p95: p(95),
    p99: p(99),
    cpuMsPerDelivery: +(cpuMs / Math.max(1, delays.length)).toFixed(4),
  };
}
await readerPool.end();
await owner.end();
await database.close();

const memoryPerSubscriberKb = +(((rssSubscribed - rssBefore) * 1024) / SUBSCRIBERS).toFixed(1);
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  subscribers: SUBSCRIBERS,
  tokens: TOKENS,
  rate: RATE,
  seconds: SECONDS,
  figures,
  goal: { p95Ms: GOAL_P95_MS, met },
  memory: {
    rssBeforeMb: +rssBefore.toFixed(0),
    rssSubscribedMb: +rssSubscribed.toFixed(0),
    rssAfterMb: +rssAfter.toFixed(0),
    perSubscriberKb: memoryPerSubscriberKb,
  },
  cpu,
  errors: errors.slice(0, 5),
  viewers: {
    webSocket: WS_VIEWERS,
    sse: SSE_VIEWERS,
    web: values.web,
    onLibraries: Math.ceil(SUBSCRIBERS / LIBRARY_EVERY),
  },
  frameBytes: sampleFrame ? Buffer.byteLength(sampleFrame) : undefined,
  minimal,
  ratio,
};
log(
  `Wrote ${writeResults("subscriptions", "subscriptions-latest.md", result, [
    `Subscriptions benchmark, ${result.date.slice(0, 10)}, ${result.machine}: ${WS_VIEWERS} graphql-ws subscribers` +
      `${SSE_VIEWERS ? ` and ${SSE_VIEWERS} graphql-sse subscribers` : ""} of ` +
      `${values.web ? "the web application's MapMessages with its shared credential" : `p2000Messages (${TOKENS} API tokens)`} ` +
      `(each its own connection; ${result.viewers.onLibraries} of them on the client libraries, the rest reading the same protocols' raw frames), ` +
      `${RATE} messages a second for ${SECONDS} s through the FLEX reader's path (batches flushed every second); a frame of about ${result.frameBytes} bytes.`,
    "",
    `| subscribers | messages/s | deliveries | missing | duplicates | p50 ms | p95 ms | p99 ms | max ms | goal (p95 < ${GOAL_P95_MS} ms) |`,
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    `| ${SUBSCRIBERS} | ${RATE} | ${figures.deliveries} | ${missing} | ${duplicates} | ${figures.p50} | ${figures.p95} | ${figures.p99} | ${figures.max} | ${met ? "met" : "**not met**"} |`,
    "",
    `Latency: from the start of the flush that stored a message (its INSERTs included) to its arrival at a subscriber. ` +
      `Memory: service RSS ${result.memory.rssBeforeMb} MB before the subscribers, ${result.memory.rssSubscribedMb} MB with them ` +
      `(${memoryPerSubscriberKb} KB per subscriber), ${result.memory.rssAfterMb} MB after the load.`,
    "",
    `Where the cores went during the load (per delivery): ${describeCpu(cpu)}.`,
    ...(minimal
      ? [
          "",
          `Minimal broadcaster (the same frames to ${SUBSCRIBERS} WebSockets at the same rate, a process of its own): ` +
            `${minimal.deliveries} of ${minimal.expected} delivered, p50 ${minimal.p50} ms, p95 ${minimal.p95} ms, p99 ${minimal.p99} ms ` +
            `from its send; ${minimal.cpuMsPerDelivery} ms of CPU a delivery against the service's ${serviceCpuMs} (with PostgreSQL): ` +
            `the service at **${ratio}** of its messages a second on the same cores (issue 47's goal ≥ 0.5: ${ratio! >= 0.5 ? "met" : "**not met**"}).`,
        ]
      : []),
  ])}`,
);
process.exit(0);
