// The nearest-post benchmark: `npm run bench:hectometers -- [--markers 150000] [--seconds 5]`.
// It fills its own embedded database (bench/.data-hectometers) with hectometre posts along
// synthetic roads across the Netherlands (through the importer's SQL step), then asks
// hectometerMarkersNearest for random points, as SQL through pg and over HTTP with an API token
// (one client), and reports p50/p99. Figures go to bench/results/hectometers-latest.md.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { loadConfig, mergeConfig } from "../lib/config.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";
import { startService } from "../service.ts";
import { machine, percentile, writeResults } from "./results.ts";

const { values } = parseArgs({
  options: { markers: { type: "string", default: "150000" }, seconds: { type: "string", default: "5" } },
});
const MARKERS = Number(values.markers);
const SECONDS = Number(values.seconds);
const BENCH_DIR = path.dirname(new URL(import.meta.url).pathname);
const config = mergeConfig(loadConfig(), {
  database: { url: undefined, dataDir: path.join(BENCH_DIR, ".data-hectometers"), embeddedPgPort: 54341 },
  http: { port: 0 },
  log: { level: "error" },
  demoData: false,
});
fs.mkdirSync(config.database.dataDir, { recursive: true, mode: 0o755 });
const database = await prepareDatabase(config.database);
const owner = new pg.Pool({ connectionString: database.ownerUrl, max: 2 });
owner.on("error", () => {});
const log = (line: string) => console.log(line);

// A seeded random walk per road: posts every 100 m, about 300 roads of 50 km.
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const {
  rows: [{ have }],
} = await owner.query("select count(*)::int as have from app_public.hectometer_markers");
if (have !== MARKERS) {
  log(`Creating ${MARKERS} hectometre posts ...`);
  await owner.query("truncate app_public.hectometer_markers, app_public.roads cascade");
  let id = 0;
  for (let road = 1; id < MARKERS; road++) {
    let lat = 50.8 + random() * 2.6;
    let lon = 3.5 + random() * 3.5;
    const heading = random() * Math.PI * 2;
    const batch = [];
    for (let i = 0; i < 500 && id < MARKERS; i++) {
      lat += Math.cos(heading) * 0.0009;
      lon += Math.sin(heading) * 0.00146;
      for (const side of ["Li", "Re"]) {
        batch.push({
          source_id: ++id,
          road: `${road % 2 ? "A" : "N"}${road}`,
          hectometer: i / 10,
          side,
          letter: null,
          latitude: lat,
          longitude: lon,
        });
      }
    }
    await owner.query("select app_private.upsert_hectometer_markers($1::jsonb)", [JSON.stringify(batch)]);
  }
  await owner.query("select app_private.recount_road_markers()");
  await owner.query("analyze");
}

const points = Array.from({ length: 1000 }, () => [50.8 + random() * 2.6, 3.5 + random() * 3.5]);
/** One second of warm-up (plans, JIT), then SECONDS of measurement. */
async function measure(call: (lat: number, lon: number) => Promise<void>) {
  for (let i = 0, warm = performance.now() + 1000; performance.now() < warm; i++)
    await call(...(points[i % points.length] as [number, number]));
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const [lat, lon] = points[i % points.length];
    const started = performance.now();
    await call(lat, lon);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    p50: +percentile(latencies, 50).toFixed(2),
    p99: +percentile(latencies, 99).toFixed(2),
  };
}

const visitor = new pg.Client({ connectionString: database.authUrl });
await visitor.connect();
await visitor.query("set role app_visitor");
const sql = await measure(async (lat, lon) => {
  await visitor.query({
    name: "nearest",
    text: "select uuid, distance_km from app_public.hectometer_markers_nearest($1, $2, 10)",
    values: [lat, lon],
  });
});
const { rows: plan } = await owner.query(
  "explain select * from app_public.hectometer_markers h order by app_hidden.unit_sphere(h.latitude, h.longitude) <-> app_hidden.unit_sphere(52, 5) limit 10",
);
const usesIndex = plan.some((row) => String(row["QUERY PLAN"]).includes("hectometer_markers_position_idx"));

const service = await startService(config, database);
const token = (
  await createApiToken(owner, { environmentUuid: database.operatorEnvironmentUuid, name: "bench", scopes: [] })
).plainToken;
const http = await measure(async (lat, lon) => {
  const response = await fetch(service.graphqlUrl, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({
      query:
        "query ($a: Float!, $o: Float!) { hectometerMarkersNearest(lat: $a, lon: $o) { uuid distance_km road { name } } }",
      variables: { a: lat, o: lon },
    }),
  });
  const body = (await response.json()) as { errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
});

const result = { date: new Date().toISOString(), machine: machine(), markers: MARKERS, usesIndex, sql, http };
log(JSON.stringify(result, null, 2));
log(
  `Wrote ${writeResults("hectometers", "hectometers-latest.md", result, [
    `Nearest-post benchmark, ${result.date.slice(0, 10)}, ${result.machine}: ${MARKERS.toLocaleString("en")} posts, 10 nearest to random points, ` +
      `one client, ${SECONDS} s each after 1 s of warm-up; GiST index used: ${usesIndex ? "yes" : "no"}.`,
    "",
    "| path | requests | p50 ms | p99 ms |",
    "| --- | --- | --- | --- |",
    `| SQL (hectometer_markers_nearest) | ${sql.requests} | ${sql.p50} | ${sql.p99} |`,
    `| HTTP (hectometerMarkersNearest) | ${http.requests} | ${http.p50} | ${http.p99} |`,
  ])}`,
);
await service.stop();
await visitor.end();
await owner.end();
await database.close();
process.exit(0);
