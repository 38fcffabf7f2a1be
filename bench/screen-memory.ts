// The station screen's memory over a long run (issue 49, part 5: "keeps working for days without
// a reload"): `npm run bench:screen -- [--minutes 60] [--every 2] [--port 54375] [--fresh]`.
// The service runs in its own process (server-process.ts) on the bench's own database
// (bench/.data-screen), with the offline base map. An administrator makes a P2000 monitor with
// three e-mail channels (the crew; their mail goes nowhere, their respond links are what counts)
// and pairs a screen to it, as the console does, with the code headless Chromium (@sparticuz
// /chromium, 1280×720) shows at /screen; the screen's alarm lasts one minute (alarmMinutes 1).
// Then, for --minutes, a page matching the monitor every --every seconds: each 60th is sent now
// (an alarm, which the three answer a few seconds apart: coming, not coming, coming), the others
// sent three minutes ago (older than the alarm: each a new line in the idle list and a marker on
// the map), so the screen goes alarm → idle every two minutes. Every minute the page's JS heap is
// measured after a forced garbage collection (CDP HeapProfiler.collectGarbage, then
// Runtime.getHeapUsage) with its DOM nodes and event listeners (Memory.getDOMCounters). The figures
// go to bench/results/screen-memory-latest.md and a dated JSON file, with the growth per hour: the
// least-squares slope of the heap over the run after the first alarm's cycle (the map's first
// draw and the first alarm and idle views warm it up). With --heap-snapshots it also takes a heap
// snapshot of the page at the end of the warm-up and at the end, and prints what grew between them
// by kind and constructor (bench/heap-summary.ts), to say where a slow rise lives.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { CDPSession } from "puppeteer-core";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { launchBrowser } from "../test/helpers/browser.ts";
import { pageHeapGrowth } from "./heap-summary.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { loadAverage } from "./cpu-accounting.ts";
import { machine, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "60" },
    every: { type: "string", default: "2" },
    fresh: { type: "boolean", default: false },
    "heap-snapshots": { type: "boolean", default: false },
    port: { type: "string", default: "54375" },
  },
});
const MINUTES = Number(values.minutes);
const EVERY_MS = Number(values.every) * 1000;
/** One page in this many is an alarm (sent now); with --every 2, one every two minutes. */
const ALARM_EVERY = 60;
const CAPCODE = "0999501";
const STREETS = ["Broersvest", "Hoogstraat", "Lange Haven", "Bachplein", "Nieuwe Haven", "Rotterdamsedijk"];
const log = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { dataDir, config, database, owner } = await openBenchDatabase("screen", Number(values.port), values.fresh!);
const logFile = path.join(dataDir, "service.log");
const service = await startServerProcess({
  dataDir,
  pgPort: config.database.embeddedPgPort,
  env: { MAP_TILE_URL: "" },
  logFile,
});
const origin = new URL(service.graphqlUrl).origin;

const call = async (token: string, query: string, variables?: Record<string, unknown>) => {
  const response = await fetch(service.graphqlUrl, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, any>; errors?: Array<{ message: string }> };
  if (body.errors?.length) throw new Error(`${query.slice(0, 60)}…: ${body.errors[0].message}`);
  return body.data!;
};

// An administrator (createP2000Message), the crew's channels and the monitor, through the API.
const authToken = (
  await createApiToken(owner, {
    environmentUuid: database.operatorEnvironmentUuid,
    name: "bench screen",
    scopes: ["auth:register", "auth:login"],
  })
).plainToken;
const email = `screen-${Date.now()}@example.org`;
const password = "a long enough bench password";
await call(
  authToken,
  "mutation ($e: String!, $p: String) { register(input: { email: $e, password: $p }) { environment { uuid } } }",
  {
    e: email,
    p: password,
  },
);
await owner.query("update app_public.users set is_admin = true where email_address = $1", [email]);
const { login } = await call(
  authToken,
  "mutation ($e: String!, $p: String!) { login(input: { email: $e, password: $p }) { token } }",
  { e: email, p: password },
);
const admin: string = login.token;
const channels: string[] = [];
for (const name of ["Anna", "Bram", "Cor"]) {
  const { createChannel } = await call(
    admin,
    "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
    { i: { type: "email", name, emailAddress: `${name.toLowerCase()}@example.org` } },
  );
  channels.push(createChannel.channel.uuid);
}
const { createMonitor } = await call(
  admin,
  "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
  {
    i: {
      name: "Bench Schiedam",
      query: JSON.stringify({ capcodes: [CAPCODE] }),
      channels: JSON.stringify(channels),
      notificationRules: JSON.stringify({ reAlert: { coming: 3, minutes: 1 } }),
    },
  },
);

// The pages come from a receiver, as on a real station's evening: its token does not expire, where
// the administrator's access token would after a quarter of an hour.
const { createP2000Receiver } = await call(
  admin,
  "mutation ($i: CreateP2000ReceiverInput!) { createP2000Receiver(input: $i) { token } }",
  { i: { name: "Bench receiver" } },
);
const receiver: string = createP2000Receiver.token;

// The screen, paired with the code it shows.
const browser = await launchBrowser();
const page = await browser.newPage();
await page.setViewport({ width: 1280, height: 720 });
const errors: string[] = [];
page.on("pageerror", (error) => errors.push(String(error)));
await page.goto(`${origin}/screen?lang=en`, { waitUntil: "load" });
await page.waitForFunction(
  `/^[A-Z2-9]{3}-[A-Z2-9]{3}$/.test(document.querySelector(".pair-code")?.textContent ?? "")`,
  { timeout: 60_000 },
);
const code = await page.$eval(".pair-code", (element) => element.textContent!);
await call(admin, "mutation ($i: PairStationScreenInput!) { pairStationScreen(input: $i) { uuid } }", {
  i: {
    code,
    name: "Kazerne Schiedam",
    monitorUuids: [createMonitor.uuid],
    latitude: 51.9225,
    longitude: 4.3886,
    alarmMinutes: 1,
  },
});
await page.waitForSelector(".station-screen", { timeout: 60_000 });
log(`Screen paired (${code}); ${MINUTES} minutes of a page every ${EVERY_MS / 1000} s, one in ${ALARM_EVERY} an alarm`);

let bon = 600000;
let pages = 0;
let alarms = 0;
/** The crew answers an alarm a few seconds apart, through their notifications' respond tokens. */
async function answer(messageUuid: string): Promise<void> {
  const answers: Array<[string, number | null]> = [
    ["going", 5],
    ["cancelled", null],
    ["going", 9],
  ];
  for (const [i, channel] of channels.entries()) {
    await sleep(3000);
    const { rows } = await owner.query<{ token: string }>(
      "select app_private.responder_token(uuid) as token from app_private.notifications where channel_uuid = $1 and message_uuid = $2",
      [channel, messageUuid],
    );
    if (!rows[0]) continue;
    const [status, minutes] = answers[i];
    await call(
      authToken,
      "mutation ($t: String!, $s: String!, $m: Int) { respondOnTheWay(token: $t, status: $s, arrivalMinutes: $m) { status } }",
      { t: rows[0].token, s: status, m: minutes },
    );
  }
}
async function sendPage(): Promise<void> {
  const alarm = pages % ALARM_EVERY === 0;
  const street = STREETS[pages % STREETS.length];
  const sended = new Date(Date.now() - (alarm ? 0 : 3 * 60_000)).toISOString();
  pages++;
  const { createP2000Message } = await call(
    receiver,
    "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid } }",
    {
      i: {
        message: `${alarm ? "A1" : "A2"} AMBU 17107 ${street} Schiedam SCHIDM bon ${++bon}`,
        sended,
        capcodes: [{ name: CAPCODE }],
      },
    },
  );
  if (alarm) {
    alarms++;
    void answer(createP2000Message.uuid).catch((error: unknown) => errors.push(`answer: ${String(error)}`));
  }
}

interface Sample {
  minute: number;
  heapUsedMb: number;
  heapTotalMb: number;
  nodes: number;
  listeners: number;
  mode: string;
  pages: number;
}
const cdp: CDPSession = await page.createCDPSession();
async function sample(minute: number): Promise<Sample> {
  await cdp.send("HeapProfiler.collectGarbage");
  const heap = await cdp.send("Runtime.getHeapUsage");
  const dom = await cdp.send("Memory.getDOMCounters");
  const mode = await page.$eval(
    ".station-screen",
    (element) => (element as unknown as { dataset: { mode?: string } }).dataset.mode ?? "",
  );
  const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(2);
  return {
    minute,
    heapUsedMb: mb(heap.usedSize),
    heapTotalMb: mb(heap.totalSize),
    nodes: dom.nodes,
    listeners: dom.jsEventListeners,
    mode,
    pages,
  };
}

/** The page's heap as a .heapsnapshot file in the bench's data directory (V8 collects garbage first). */
async function heapSnapshot(minute: number): Promise<string> {
  const chunks: string[] = [];
  const onChunk = ({ chunk }: { chunk: string }) => chunks.push(chunk);
  cdp.on("HeapProfiler.addHeapSnapshotChunk", onChunk);
  await cdp.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  cdp.off("HeapProfiler.addHeapSnapshotChunk", onChunk);
  const file = path.join(dataDir, `screen-minute-${minute}.heapsnapshot`);
  fs.writeFileSync(file, chunks.join(""));
  return file;
}

// Measured from the end of the first alarm's cycle (alarm, then idle): by then every view has
// been drawn once and the feeds have answered.
const WARM_UP_MINUTES = Math.ceil((ALARM_EVERY * EVERY_MS) / 60_000);
const snapshots: string[] = [];
const samples: Sample[] = [];
const show = (s: Sample) =>
  log(
    `  minute ${String(s.minute).padStart(3)}: heap ${s.heapUsedMb.toFixed(2)} MB used (${s.heapTotalMb.toFixed(2)} MB), ` +
      `${s.nodes} DOM nodes, ${s.listeners} listeners, ${s.mode}, ${s.pages} pages`,
  );
const loadBefore = loadAverage();
const started = Date.now();
let sending = true;
const sender = (async () => {
  while (sending) {
    const next = Date.now() + EVERY_MS;
    await sendPage().catch((error: unknown) => errors.push(`page: ${String(error)}`));
    await sleep(Math.max(0, next - Date.now()));
  }
})();
try {
  for (let minute = 0; minute <= MINUTES; minute++) {
    await sleep(Math.max(0, started + minute * 60_000 - Date.now()));
    samples.push(await sample(minute));
    show(samples.at(-1)!);
    if (values["heap-snapshots"] && (minute === WARM_UP_MINUTES || minute === MINUTES)) {
      snapshots.push(await heapSnapshot(minute));
    }
  }
} finally {
  sending = false;
  await sender;
}
const screenshot = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "test-results", "screenshots");
await page.screenshot({ path: path.join(screenshot, "bench-screen-memory.png") as `${string}.png` });
await browser.close();
await service.stop();
await owner.end();

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const sxy = points.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0);
  const sxx = points.reduce((sum, [x]) => sum + (x - mx) ** 2, 0);
  return sxx ? sxy / sxx : 0;
}
const settled = samples.filter((s) => s.minute >= WARM_UP_MINUTES);
const perHour = (pick: (s: Sample) => number) => +(slope(settled.map((s) => [s.minute, pick(s)])) * 60).toFixed(2);
const growth = { heapMbPerHour: perHour((s) => s.heapUsedMb), nodesPerHour: perHour((s) => s.nodes) };
const first = settled[0];
const last = settled.at(-1)!;
log(
  `Heap after GC ${first.heapUsedMb} → ${last.heapUsedMb} MB (minute ${first.minute} → ${last.minute}): ` +
    `${growth.heapMbPerHour} MB an hour; DOM nodes ${first.nodes} → ${last.nodes} (${growth.nodesPerHour} an hour); ` +
    `${pages} pages, ${alarms} alarms; ${errors.length} errors`,
);
for (const error of errors.slice(0, 5)) log(`  ${error}`);
const grown = snapshots.length === 2 ? pageHeapGrowth(snapshots[0], snapshots[1]) : undefined;
const grownParts = grown && [
  `${grown.bytes} bytes in all: V8's compiled code and bookkeeping ${grown.engineBytes}, Chromium's performance timeline ` +
    `${grown.timelineBytes}, the page's own objects ${grown.pageBytes}`,
];
if (grown) {
  log(`What grew between the snapshots of minute ${WARM_UP_MINUTES} and ${MINUTES}: ${grownParts![0]}`);
  for (const g of grown.page) {
    log(`  ${String(g.bytes).padStart(8)} B  ${g.countBefore} → ${g.countAfter}  ${g.type} ${g.name.slice(0, 80)}`);
  }
}

const result = {
  date: new Date().toISOString(),
  machine: machine(),
  loadAverage: { before: loadBefore, after: loadAverage() },
  minutes: MINUTES,
  everySeconds: EVERY_MS / 1000,
  pages,
  alarms,
  errors,
  growth,
  heapGrowth: grown,
  samples,
};
const file = writeResults("screen-memory", "screen-memory-latest.md", result, [
  `# Station screen memory (${result.date.slice(0, 10)})`,
  "",
  `\`npm run bench:screen -- --minutes ${MINUTES} --every ${EVERY_MS / 1000}\` on ${result.machine}; load average ` +
    `${loadBefore.map((v) => v.toFixed(2)).join(" ")} before. One page every ${EVERY_MS / 1000} s matching the ` +
    `screen's monitor (${pages} pages), one in ${ALARM_EVERY} an alarm (${alarms}) that three of the crew answer; ` +
    `the heap measured in the page after a forced garbage collection.`,
  "",
  "| minute | JS heap used (MB) | heap total (MB) | DOM nodes | listeners | screen | pages sent |",
  "| ---: | ---: | ---: | ---: | ---: | --- | ---: |",
  ...samples.map(
    (s) =>
      `| ${s.minute} | ${s.heapUsedMb.toFixed(2)} | ${s.heapTotalMb.toFixed(2)} | ${s.nodes} | ${s.listeners} | ${s.mode} | ${s.pages} |`,
  ),
  "",
  `Growth (least squares from minute ${first.minute}): **${growth.heapMbPerHour} MB of heap an hour**, ` +
    `${growth.nodesPerHour} DOM nodes an hour. Errors in the page or the load: ${errors.length}.`,
  ...(grown
    ? [
        "",
        `What grew between the heap snapshots of minute ${WARM_UP_MINUTES} and ${MINUTES}: ${grownParts![0]}. ` +
          "The page's own groups that changed most, by V8's kind of node and constructor:",
        "",
        "| bytes | count before | count after | kind | name |",
        "| ---: | ---: | ---: | --- | --- |",
        ...grown.page.map(
          (g) =>
            `| ${g.bytes} | ${g.countBefore} | ${g.countAfter} | ${g.type} | ${g.name.slice(0, 60).replace(/\|/g, "\\|")} |`,
        ),
      ]
    : []),
]);
log(`Written to ${file}`);
