// The address register benchmark:
// `npm run bench:addresses -- [--copies 7] [--seconds 10] [--pages 30000] [--history 100000]`.
// On a database of its own (bench/.data-addresses, made anew each run) it measures:
// - the shipped index's load on a first start (data/addresses/, five provinces);
// - `import:addresses`' path over the five province files of ../shared/data/bag-addresses/: time,
//   rows a second, the national file's time extrapolated, the tables' size on disk;
// - a national-size index: the five provinces copied `--copies` times under other names (about
//   10 million addresses, the national file's size), then type-ahead (locationSuggestions as
//   people type an address: "stationsweg", "stationsweg 12", "stationsweg 12 amst") over SQL as the
//   visitor role and over HTTP with an API token, one client, p50/p95/p99;
// - the FLEX reader's rate over pages that name streets of the register, with that index, after a
//   history of `--history` synthetic messages;
// - the accuracy over the truth set (bench/address-truth/, ADDRESS_TRUTH for another path), per
//   province, when one is at hand.
// Figures go to bench/results/addresses-latest.md (docs/benchmarks.md shows them).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { importAddresses } from "../lib/addresses/import.ts";
import { loadShippedAddresses } from "../lib/addresses/shipped-index.ts";
import { FEEDS_OFF_ENVIRONMENT } from "../lib/config.ts";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { createFlexIngester } from "../lib/p2000/flex-ingest.ts";
import { flexLine } from "../lib/p2000/synthetic-pager-traffic.ts";
import { startService } from "../service.ts";
import { BENCH_DIR, loadFlexHistory, openBenchDatabase, seeded } from "./bench-database.ts";
import { machine, percentile, writeResults } from "./results.ts";

const { values } = parseArgs({
  options: {
    copies: { type: "string", default: "7" },
    seconds: { type: "string", default: "10" },
    pages: { type: "string", default: "30000" },
    history: { type: "string", default: "100000" },
  },
});
const COPIES = Number(values.copies);
const SECONDS = Number(values.seconds);
const PAGES = Number(values.pages);
const HISTORY = Number(values.history);
const REGISTER_DIR = path.resolve(BENCH_DIR, "../../shared/data/bag-addresses");
const TRUTH = process.env.ADDRESS_TRUTH ?? path.join(BENCH_DIR, "address-truth", "truth.json");
const log = (line: string) => console.log(line);
const random = seeded(42);
// The machine's load when the run starts and ends: two shared cores, so a figure measured beside
// other work (a test suite, a browser) says so.
const loadAtStart = +os.loadavg()[0].toFixed(2);

// The service measured as bench/server-process.ts runs it: no public feeds (this machine may not
// reach them), budgets far above one client, and the response cache off (each search executes).
Object.assign(process.env, {
  ...FEEDS_OFF_ENVIRONMENT,
  RATE_LIMIT_PER_TOKEN: "1000000000",
  RATE_LIMIT_PER_ADDRESS: "1000000000",
  RESPONSE_CACHE_MB: "0",
});
const { config, database, owner } = await openBenchDatabase("addresses", 54344, true);
const client = new pg.Client({ connectionString: database.ownerUrl });
await client.connect();
const seconds = (since: number) => +((performance.now() - since) / 1000).toFixed(1);

// 1. The shipped index, as a first start loads it.
await client.query("delete from app_hidden.address_streets; delete from app_hidden.address_postcodes");
let started = performance.now();
const shippedProvinces = await loadShippedAddresses(client);
const shipped = { provinces: shippedProvinces, seconds: seconds(started) };
log(`Shipped index: ${shippedProvinces.join(", ")} in ${shipped.seconds} s`);

// 2. The import of the five province files.
const files = fs
  .readdirSync(REGISTER_DIR)
  .filter((f) => f.endsWith(".csv.zst"))
  .map((f) => path.join(REGISTER_DIR, f));
started = performance.now();
let rows = 0;
for (const file of files) {
  const result = await importAddresses(owner, fs.createReadStream(file), file, { log: () => {} });
  rows += result.rows;
  log(`${path.basename(file)}: ${result.rows} rows`);
}
const importSeconds = seconds(started);
// (vacuumed first: the import replaced the shipped index's rows of the same provinces)
await client.query(
  "vacuum full analyze app_hidden.address_streets, app_hidden.address_numbers, app_hidden.address_postcodes, app_hidden.address_woonplaatsen",
);
const sizeQuery = `select sum(pg_total_relation_size(t::regclass))::bigint as bytes
  from unnest(array['app_hidden.address_streets', 'app_hidden.address_numbers', 'app_hidden.address_postcodes',
                    'app_hidden.address_woonplaatsen']) t`;
const {
  rows: [{ bytes }],
} = await client.query<{ bytes: string }>(sizeQuery);
const NATIONAL_ADDRESSES = 10_000_000;
const imported = {
  files: files.length,
  rows,
  seconds: importSeconds,
  rowsPerSecond: Math.round(rows / importSeconds),
  nationalMinutes: +(NATIONAL_ADDRESSES / (rows / importSeconds) / 60).toFixed(1),
  megabytes: +(Number(bytes) / 2 ** 20).toFixed(1),
  nationalMegabytes: Math.round(((Number(bytes) / 2 ** 20) * NATIONAL_ADDRESSES) / rows),
};
log(`Import: ${JSON.stringify(imported)}`);

// 3. A national-size index: the provinces copied under other names (no place: the copies are
// found by type-ahead, and they deepen the indexes every lookup walks).
started = performance.now();
await client.query(
  `create temporary table copies as
     select s.id as original, nextval(pg_get_serial_sequence('app_hidden.address_streets', 'id')) as id, k
       from app_hidden.address_streets s, generate_series(1, $1::int) k`,
  [COPIES],
);
await client.query(
  `insert into app_hidden.address_streets (id, province, municipality, woonplaats, name, street_key, place_key, place_uuid,
       latitude, longitude, min_latitude, min_longitude, max_latitude, max_longitude, address_count, source)
   overriding system value
   select c.id, s.province || ' ' || c.k, s.municipality || ' ' || c.k, s.woonplaats || ' ' || c.k, s.name, s.street_key,
          s.place_key || ' ' || c.k, null, s.latitude, s.longitude, s.min_latitude, s.min_longitude, s.max_latitude,
          s.max_longitude, s.address_count, 'import'
     from copies c join app_hidden.address_streets s on s.id = c.original`,
);
await client.query(
  `insert into app_hidden.address_numbers (street_id, numbers, latitudes, longitudes)
   select c.id, n.numbers, n.latitudes, n.longitudes from copies c join app_hidden.address_numbers n on n.street_id = c.original`,
);
await client.query("analyze app_hidden.address_streets, app_hidden.address_numbers");
const {
  rows: [national],
} = await client.query<{ streets: number; addresses: number }>(
  "select count(*)::int as streets, sum(address_count)::bigint::float8 as addresses from app_hidden.address_streets",
);
log(`National-size index: ${national.streets} streets, ${national.addresses} addresses (${seconds(started)} s)`);

// 4. Type-ahead as people type an address of the five provinces.
const { rows: sample } = await client.query<{ name: string; number: number; woonplaats: string }>(
  `select s.name, n.numbers[1 + (abs(hashtext(s.name)) % cardinality(n.numbers))] as number, s.woonplaats
     from app_hidden.address_streets s join app_hidden.address_numbers n on n.street_id = s.id
    where s.place_uuid is not null order by md5(s.id::text) limit 300`,
);
const searches = sample.flatMap((a) => [
  a.name.slice(0, Math.max(2, Math.ceil(a.name.length / 2))).toLowerCase(),
  `${a.name} ${a.number}`.toLowerCase(),
  `${a.name} ${a.number} ${a.woonplaats.slice(0, 4)}`.toLowerCase(),
]);

async function measure(call: (search: string) => Promise<void>) {
  for (const search of searches.slice(0, 50)) await call(search); // warm-up: plans, caches
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const at = performance.now();
    await call(searches[i % searches.length]);
    latencies.push(performance.now() - at);
  }
  latencies.sort((a, b) => a - b);
  const at = (p: number) => +percentile(latencies, p).toFixed(1);
  return { requests: latencies.length, p50: at(50), p95: at(95), p99: at(99), max: at(100) };
}

const visitor = new pg.Client({ connectionString: database.authUrl });
await visitor.connect();
await visitor.query("set role app_visitor");
const typeAheadSql = await measure(async (search) => {
  await visitor.query({
    name: "suggest",
    text: "select * from app_public.location_suggestions($1, 10)",
    values: [search],
  });
});
// The first suggestion of the full address is that address.
let found = 0;
for (const a of sample) {
  const { rows: first } = await visitor.query("select kind, label from app_public.location_suggestions($1, 1)", [
    `${a.name} ${a.number} ${a.woonplaats.slice(0, 4)}`.toLowerCase(),
  ]);
  if (first[0]?.kind === "address" && first[0].label === `${a.name} ${a.number}`) found++;
}
const firstIsAddress = +((100 * found) / sample.length).toFixed(1);
log(`Type-ahead (SQL): ${JSON.stringify(typeAheadSql)}; the address first for ${firstIsAddress} %`);

const service = await startService(config, database);
const token = (
  await createApiToken(owner, { environmentUuid: database.operatorEnvironmentUuid, name: "bench", scopes: [] })
).plainToken;
const typeAheadHttp = await measure(async (search) => {
  const response = await fetch(service.graphqlUrl, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({
      query: "query ($s: String!) { locationSuggestions(search: $s) { kind label detail latitude longitude } }",
      variables: { s: search },
    }),
  });
  const body = (await response.json()) as { errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
});
log(`Type-ahead (HTTP): ${JSON.stringify(typeAheadHttp)}`);
await service.stop();

// 5. The FLEX reader over pages that name streets of the register, with the national-size index.
const { rows: streets } = await client.query<{ name: string; woonplaats: string; numbers: number[] }>(
  `select p.name as woonplaats, s.name, n.numbers from app_hidden.address_streets s
     join app_hidden.address_numbers n on n.street_id = s.id join app_public.places p on p.uuid = s.place_uuid
    order by md5(s.id::text) limit 2000`,
);
const forms = [
  (s: (typeof streets)[0], n: number) => `P 1 BR woning ${s.name} ${n} ${s.woonplaats} 0${n % 9}1231`,
  (s: (typeof streets)[0], n: number) => `A1 AMBU 0${n % 9}123 ${s.name} ${n} ${s.woonplaats} bon ${10000 + n}`,
  (s: (typeof streets)[0]) => `p 2 ass ambu ${s.name.toLowerCase()} ${s.woonplaats.toLowerCase()}`,
  (s: (typeof streets)[0]) => `A2 ${s.woonplaats} ${s.name} rit 55123`,
];
const sended = new Date(Date.now() + 40 * 86_400_000); // ahead of any history, apart from it
const lines = Array.from({ length: PAGES }, (_, i) => {
  const street = streets[Math.floor(random() * streets.length)];
  const number = street.numbers[Math.floor(random() * street.numbers.length)];
  return flexLine(new Date(sended.getTime() + i * 100), ["1420999"], forms[i % forms.length](street, number), i);
});
// A history first (synthetic national traffic, as bench:p2000 and bench:enrichment load it): on an
// empty database the reader's ANALYZE of every 10% of growth would be most of what is measured.
const history = await loadFlexHistory(owner, HISTORY, 2700);
log(`History: ${JSON.stringify(history)}`);
const ingester = createFlexIngester(owner, { source: "bench" });
started = performance.now();
for (const line of lines) await ingester.push(line);
await ingester.flush();
const flexSeconds = (performance.now() - started) / 1000;
const { rows: precisions } = await client.query<{ precision: string; n: number }>(
  `select coalesce(position_precision, 'none') as precision, count(*)::int as n from app_public.p2000_messages
    where sended >= $1 group by 1 order by 2 desc`,
  [sended],
);
const flex = {
  pages: ingester.stats.stored,
  seconds: +flexSeconds.toFixed(1),
  perSecond: Math.round(ingester.stats.stored / flexSeconds),
  precision: Object.fromEntries(precisions.map((p) => [p.precision, p.n])),
};
log(`FLEX with the national-size index: ${JSON.stringify(flex)}`);

// 6. Accuracy over the truth set, when there is one.
let accuracy: string[] = [`No truth set at ${path.relative(process.cwd(), TRUTH)}: accuracy not measured.`];
if (fs.existsSync(TRUTH)) {
  const truth = JSON.parse(fs.readFileSync(TRUTH, "utf8")) as { pages: Array<{ message: string }> };
  const predictions = [];
  for (const page of truth.pages) {
    const {
      rows: [e],
    } = await client.query("select (e).* from (select app_hidden.p2000_enrich($1, '{}') as e) x", [page.message]);
    predictions.push({
      message: page.message,
      latitude: e.latitude,
      longitude: e.longitude,
      street: e.street,
      town: e.city,
    });
  }
  const file = path.join(BENCH_DIR, ".data-addresses", "predictions.json");
  fs.writeFileSync(file, JSON.stringify(predictions));
  accuracy = execFileSync(
    process.execPath,
    [path.join(BENCH_DIR, "address-truth", "score.ts"), "--truth", TRUTH, file],
    {
      encoding: "utf8",
    },
  )
    .trim()
    .split("\n");
}
accuracy.forEach((line) => log(line));

const load = { start: loadAtStart, end: +os.loadavg()[0].toFixed(2) };
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  load,
  shipped,
  imported,
  national: { copies: COPIES, ...national },
  typeAheadSql,
  typeAheadHttp,
  firstIsAddress,
  flex,
  accuracy,
};
log(
  `Wrote ${writeResults("addresses", "addresses-latest.md", result, [
    `Address register benchmark, ${result.date.slice(0, 10)}, ${result.machine}; load average ${load.start} at ` +
      `the start and ${load.end} at the end (above 2, other work shared the cores).`,
    "",
    `- Shipped index (${shipped.provinces.join(", ")}) loaded on a first start in ${shipped.seconds} s.`,
    `- import:addresses of ${imported.files} province files: ${imported.rows.toLocaleString("en")} addresses in ` +
      `${imported.seconds} s (${imported.rowsPerSecond.toLocaleString("en")} a second); the national file ` +
      `(about 10 million) would take about ${imported.nationalMinutes} minutes. On disk: ${imported.megabytes} MB ` +
      `(about ${imported.nationalMegabytes} MB nationally).`,
    `- National-size index: ${national.streets.toLocaleString("en")} streets, ` +
      `${national.addresses.toLocaleString("en")} addresses (the five provinces and ${COPIES} renamed copies).`,
    `- FLEX reader over ${flex.pages.toLocaleString("en")} pages naming register streets, on a history of ` +
      `${HISTORY.toLocaleString("en")} messages: ${flex.perSecond.toLocaleString("en")} ` +
      `messages a second; positions: ${Object.entries(flex.precision)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}.`,
    "",
    `Type-ahead at national size (one client, ${SECONDS} s after warm-up; ${searches.length} searches: ` +
      `half a street name, street and number, and with the place's first letters); ` +
      `the address typed is the first suggestion for ${firstIsAddress} %:`,
    "",
    "| path | requests | p50 ms | p95 ms | p99 ms | max ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    `| SQL (location_suggestions) | ${typeAheadSql.requests} | ${typeAheadSql.p50} | ${typeAheadSql.p95} | ${typeAheadSql.p99} | ${typeAheadSql.max} |`,
    `| HTTP (locationSuggestions) | ${typeAheadHttp.requests} | ${typeAheadHttp.p50} | ${typeAheadHttp.p95} | ${typeAheadHttp.p99} | ${typeAheadHttp.max} |`,
    "",
    "Accuracy over the truth set:",
    "",
    ...accuracy,
  ])}`,
);
await visitor.end();
await client.end();
await owner.end();
await database.close();
