// The monitor benchmark: `npm run bench:monitors -- [--monitors 100000] [--rate 50] [--seconds 10]`.
// It builds its own embedded database under bench/.data-monitors, creates the monitors (spread over
// the country: small circles around places, capcode lists, regions with a discipline), each
// notifying a webhook channel on a local receiver, then inserts realistic messages at `rate` per
// second through the ingestion function while the worker matches and delivers, and reports the
// time from insert to webhook arrival (p50/p95/p99), the matching cost per message and the fan-out.
// Figures go to bench/results/monitors-latest.md (docs/benchmarks.md shows them) and a dated JSON file.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { loadConfig, mergeConfig } from "../lib/config.ts";
import { configureLog } from "../lib/ops/log.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";
import { parseFlexLine } from "../lib/p2000/flex-parser.ts";
import { generatePagerTraffic } from "../lib/p2000/synthetic-pager-traffic.ts";
import { startWorker } from "../worker.ts";
import { machine, percentile, writeResults } from "./results.ts";

const { values } = parseArgs({
  options: {
    monitors: { type: "string", default: "100000" },
    rate: { type: "string", default: "50" },
    seconds: { type: "string", default: "10" },
    fresh: { type: "boolean", default: false },
  },
});
const MONITORS = Number(values.monitors);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const BENCH_DIR = path.dirname(new URL(import.meta.url).pathname);
const DATA_DIR = path.join(BENCH_DIR, ".data-monitors");
const log = (line: string) => console.log(line);

if (values.fresh) fs.rmSync(DATA_DIR, { recursive: true, force: true });
fs.mkdirSync(DATA_DIR, { recursive: true, mode: 0o755 });
const config = mergeConfig(loadConfig(), {
  database: { url: undefined, dataDir: DATA_DIR, embeddedPgPort: 54340 },
  http: { port: 0 },
  log: { level: "error" },
  delivery: { allowPrivateTargets: true, smtpUrl: undefined },
});
const database = await prepareDatabase(config.database);
const owner = new pg.Pool({ connectionString: database.ownerUrl, max: config.worker.concurrency + 4 });
owner.on("error", () => {});

// The webhook receiver: arrival time per notification, by its message (a burst's by the page that
// started it, the last of its pages).
const arrivals = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const message = body.message?.uuid ?? body.burst?.messages.at(-1)?.uuid;
    arrivals.set(`${message} ${body.monitor?.uuid ?? body.burst?.monitorUuid}`, performance.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

// 1. Monitors: 100 environments with one webhook channel each, monitors spread over them.
const {
  rows: [{ have }],
} = await owner.query("select count(*)::int as have from app_public.monitors");
if (have !== MONITORS) {
  log(`Creating ${MONITORS} monitors ...`);
  const started = performance.now();
  await owner.query(`truncate app_public.monitors, app_public.channels cascade`);
  await owner.query(`delete from app_public.organizations where name like 'bench %'`);
  await owner.query(
    `
    with o as (insert into app_public.organizations (name) select 'bench ' || i from generate_series(1, 100) i returning uuid),
         e as (insert into app_public.environments (organization_uuid, name) select uuid, 'bench' from o returning uuid)
    insert into app_public.channels (environment_uuid, type, name, url) select uuid, 'webhook', 'bench', $1 from e`,
    [hookUrl],
  );
  await owner.query(
    `insert into app_private.channel_secrets select uuid, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' from app_public.channels`,
  );
  // As people use them: 40% watch two capcodes out of a national list of about 25,000 (the known
  // ones and made-up numbers standing in for the rest); 25% want urgent calls of one discipline
  // within 0.5-3 km of their home (a point up to ~25 km from a place); and, with query.areas
  // (issue 45), 15% a named area (a gemeente, woonplaats or PC4 postcode area, round the list),
  // 10% home and work (two circles of 1-3 km), 5% a drawn polygon (a square of about 4 km around a
  // place, urgent calls only); 5% a street name in their region, for one discipline and urgency.
  // A third of the named-area monitors want only bursts (3 pages a woonplaats within 30 minutes).
  await owner.query(
    `
    with channels as (select uuid, environment_uuid, row_number() over (order by uuid) - 1 as n from app_public.channels),
    places as materialized (select latitude, longitude, row_number() over (order by uuid) - 1 as n
                 from app_public.places where latitude is not null),
    capcodes as materialized (select name, row_number() over (order by name) - 1 as n from (
                   select name from app_public.p2000_capcodes where kind = 'unit'
                   union select lpad((1000000 + i * 37)::text, 7, '0') from generate_series(1, 25000) i) k),
    regions as (select number, row_number() over (order by number) - 1 as n, count(*) over () as total from app_public.p2000_regions),
    words as (select array['kerkstraat', 'dorpsstraat', 'stationsweg', 'molenweg', 'schoolstraat', 'hoofdstraat', 'julianastraat',
                           'wilhelminastraat', 'nieuwstraat', 'marktplein', 'beatrixlaan', 'parallelweg', 'industrieweg',
                           'emmastraat', 'kastanjelaan'] as list),
    -- Row numbers of the place and capcodes each monitor takes, so they join by equality.
    named as materialized (select kind, code, row_number() over (order by kind, code) - 1 as n
                             from (select distinct kind, code from app_public.named_areas
                                    where kind in ('gemeente', 'woonplaats', 'postcode')) x),
    spec as (select i, case when i % 20 < 8 then 1 when i % 20 < 13 then 0 when i % 20 < 16 then 3
                            when i % 20 < 18 then 4 when i % 20 < 19 then 5 else 2 end as kind, i * 7919 as h,
                    (i * 7919) % (select count(*) from places) as place_n,
                    (i * 7919) % (select count(*) from capcodes) as capcode_1,
                    (i * 7919 / 3 + 1) % (select count(*) from capcodes) as capcode_2
               from generate_series(0, $1 - 1) i),
    made as (
      insert into app_public.monitors (environment_uuid, name, query, latitude, longitude, radius, notification_rules)
      select c.environment_uuid, 'bench ' || s.i,
             case s.kind
               when 0 then jsonb_build_object('disciplines', jsonb_build_array((array['Ambulance', 'Brandweer'])[1 + s.i % 2]),
                                              'urgencies', jsonb_build_array((array['A1', 'P1'])[1 + s.i % 2]))
               when 1 then jsonb_build_object('capcodes', jsonb_build_array(k1.name, k2.name))
               when 3 then jsonb_build_object('areas', jsonb_build_array(
                             (select jsonb_build_object('type', nm.kind, 'code', nm.code, 'name', nm.code)
                                from named nm where nm.n = s.h % (select count(*) from named))))
               when 4 then jsonb_build_object('areas', jsonb_build_array(
                             jsonb_build_object('type', 'circle', 'latitude', p.latitude, 'longitude', p.longitude, 'radius', 1 + s.i % 3),
                             jsonb_build_object('type', 'circle', 'latitude', w.latitude, 'longitude', w.longitude, 'radius', 1 + s.i % 3)))
               when 5 then jsonb_build_object('urgencies', jsonb_build_array('A1', 'P1'), 'areas', jsonb_build_array(
                             jsonb_build_object('type', 'polygon', 'coordinates', jsonb_build_array(jsonb_build_array(
                               jsonb_build_array(p.longitude - 0.03, p.latitude - 0.02), jsonb_build_array(p.longitude + 0.03, p.latitude - 0.02),
                               jsonb_build_array(p.longitude + 0.03, p.latitude + 0.02), jsonb_build_array(p.longitude - 0.03, p.latitude + 0.02),
                               jsonb_build_array(p.longitude - 0.03, p.latitude - 0.02))))))
               else jsonb_build_object('regions', jsonb_build_array((select r.number from regions r where r.n = s.h % r.total)),
                                       'disciplines', jsonb_build_array((array['Ambulance', 'Brandweer'])[1 + s.i % 2]),
                                       'urgencies', jsonb_build_array((array['A1', 'P1'])[1 + s.i % 2]),
                                       'keywords', jsonb_build_array((select list[1 + s.h % cardinality(list)] from words)))
             end,
             p.latitude + case when s.kind = 0 then ((s.h % 101) - 50) / 200.0 end,
             p.longitude + case when s.kind = 0 then ((s.h / 101 % 101) - 50) / 120.0 end,
             case when s.kind = 0 then 0.5 + (s.i % 6) / 2.0 end,
             case when s.kind = 3 and s.i % 3 = 0 then '{"burst": {"count": 3, "minutes": 30, "per": "place"}}'::jsonb
                  else '{}'::jsonb end
        from spec s
        join channels c on c.n = s.i % 100
        left join places p on s.kind in (0, 4, 5) and p.n = s.place_n
        left join places w on s.kind = 4 and w.n = (s.place_n + 17) % (select count(*) from places)
        left join capcodes k1 on s.kind = 1 and k1.n = s.capcode_1
        left join capcodes k2 on s.kind = 1 and k2.n = s.capcode_2
      returning uuid, environment_uuid)
    insert into app_hidden.monitor_channels select m.uuid, c.uuid from made m join app_public.channels c on c.environment_uuid = m.environment_uuid`,
    [MONITORS],
  );
  await owner.query("analyze");
  log(`  in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
// A population made by an earlier run notifies this run's receiver (its port is new each run), and
// starts without the matches and bursts of earlier runs (their bursts would still be going, and
// take in this run's pages without telling).
await owner.query("update app_public.channels set url = $1 where url is distinct from $1", [hookUrl]);
await owner.query("truncate app_hidden.monitor_bursts, app_hidden.monitor_matches");
const {
  rows: [population],
} = await owner.query(`
  select count(*)::int as monitors, (select count(*)::int from app_hidden.p2000_monitor_criteria) as active_p2000,
         (select round(avg(cardinality(anchor_keys)), 1)::float from app_hidden.p2000_monitor_criteria) as anchor_keys_per_monitor,
         (select count(*)::int from app_hidden.p2000_monitor_criteria where area_count > 0) as with_areas,
         (select count(*)::int from app_public.monitors where notification_rules ? 'burst') as with_bursts
    from app_public.monitors`);

// 2. The burst: RATE messages per second for SECONDS, live traffic (sended = now).
const pages: Array<{ text: string; capcodes: string[] }> = [];
for (const line of generatePagerTraffic({
  from: new Date(Date.now() - 86_400_000),
  to: new Date(),
  perDay: 20_000,
  seed: 11,
})) {
  const parsed = parseFlexLine(line);
  if (parsed.kind === "page" && parsed.page.fragment === "K")
    pages.push({ text: parsed.page.text, capcodes: parsed.page.capcodes });
  if (pages.length >= RATE * SECONDS) break;
}
configureLog(config.log); // the worker's errors only
const worker = await startWorker(owner, config.worker, config);
const inserted = new Map<string, number>();
const started = performance.now();
await Promise.all(
  pages.map(async (page, i) => {
    const due = started + (i * 1000) / RATE;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    const at = performance.now();
    // A counter suffix keeps texts apart (the same text within 10 s would be merged as one message).
    const {
      rows: [row],
    } = await owner.query("select app_private.ingest_p2000_message($1, now(), $2, 'bench') as uuid", [
      `${page.text} (${i})`,
      page.capcodes,
    ]);
    inserted.set(row.uuid, at);
  }),
);
const insertSeconds = (performance.now() - started) / 1000;

// 3. Wait for the worker to drain, then pair deliveries with their inserts.
for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
  const {
    rows: [{ n }],
  } = await owner.query("select count(*)::int as n from graphile_worker.jobs");
  if (n === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const {
  rows: [counts],
} = await owner.query(
  `
  select count(*)::int as notifications, count(*) filter (where status = 'delivered')::int as delivered,
         (select count(*)::int from app_hidden.monitor_bursts b where b.message_uuids && $1) as bursts
    from app_private.notifications where message_uuid = any ($1)`,
  [[...inserted.keys()]],
);
const {
  rows: [matches],
} = await owner.query(
  `
  select count(*)::int as matches, count(distinct message_uuid)::int as matched_messages from app_hidden.monitor_matches where message_uuid = any ($1)`,
  [[...inserted.keys()]],
);
const latencies = [...arrivals.entries()]
  .map(([key, arrived]) => arrived - (inserted.get(key.split(" ")[0]) ?? NaN))
  .filter((ms) => Number.isFinite(ms))
  .sort((a, b) => a - b);
const latency = (p: number) => +percentile(latencies, p).toFixed(0);

// 4. The matcher alone on a sample of the burst (the work the task does per message).
const sample = [...inserted.keys()].slice(0, 200);
await owner.query("delete from app_hidden.monitor_matches where message_uuid = any ($1)", [sample]);
await owner.query("delete from app_private.notifications where message_uuid = any ($1)", [sample]);
await worker.stop();
// Finding the monitors alone (candidates by index, each checked in full), then the whole matcher.
const findStarted = performance.now();
for (const uuid of sample)
  await owner.query(
    "select cardinality(app_hidden.p2000_matching_monitors(m)) from app_public.p2000_messages m where m.uuid = $1",
    [uuid],
  );
const findMs = (performance.now() - findStarted) / sample.length;
const matchStarted = performance.now();
for (const uuid of sample) await owner.query("select app_private.match_p2000_message($1)", [uuid]);
const matchMs = (performance.now() - matchStarted) / sample.length;
await owner.query("delete from graphile_worker._private_jobs");

const result = {
  date: new Date().toISOString(),
  machine: machine(),
  ...population,
  rate: RATE,
  seconds: SECONDS,
  messages: inserted.size,
  insertSeconds: +insertSeconds.toFixed(1),
  ...matches,
  ...counts,
  deliveriesTimed: latencies.length,
  latencyMs: { p50: latency(50), p95: latency(95), p99: latency(99), max: +(latencies.at(-1) ?? NaN).toFixed(0) },
  findMsPerMessage: +findMs.toFixed(2),
  matchMsPerMessage: +matchMs.toFixed(2),
};
log(JSON.stringify(result, null, 2));
log(
  `Wrote ${writeResults("monitors", "monitors-latest.md", result, [
    `Monitor benchmark, ${result.date.slice(0, 10)}, ${result.machine}: ${result.monitors.toLocaleString("en")} monitors ` +
      `(${result.active_p2000.toLocaleString("en")} active P2000, ${result.anchor_keys_per_monitor} index keys each, ` +
      `${result.with_areas.toLocaleString("en")} with areas: named, home and work, drawn; ` +
      `${result.with_bursts.toLocaleString("en")} telling only of bursts), ` +
      `${result.messages} messages at ${RATE}/s (inserted in ${result.insertSeconds} s).`,
    "",
    "| matched messages | notifications per matched message | bursts told | messages' notifications delivered | insert → webhook p50 | p95 | p99 | max | finding the monitors per message | matcher per message (finding, recording, queueing) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    `| ${result.matched_messages} | ${(result.notifications / Math.max(1, result.matched_messages)).toFixed(1)} | ${result.bursts} | ${result.delivered} | ${result.latencyMs.p50} ms | ` +
      `${result.latencyMs.p95} ms | ${result.latencyMs.p99} ms | ${result.latencyMs.max} ms | ${result.findMsPerMessage} ms | ${result.matchMsPerMessage} ms |`,
  ])}`,
);
receiver.close();
await owner.end();
await database.close();
process.exit(0);
