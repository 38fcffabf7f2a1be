// The traffic ingestion benchmark: `npm run bench:traffic -- [--records 20000]`. It writes a
// gzipped DATEX II v2 publication of that many situation records (accidents, broken-down and
// abandoned vehicles, and a fifth roadworks that are read and left out) in the real format,
// then stores it through the CLI's path (a file stream, gunzip, the streaming parser, one SQL
// function) into its own embedded database (bench/.data-traffic): once into an empty table, once
// more unchanged, and once with every tenth record in a newer version. It reports the times and
// the process's peak memory. Figures go to bench/results/traffic-latest.md.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import pg from "pg";
import { loadConfig, mergeConfig } from "../lib/config.ts";
import { ingestTrafficDocument } from "../lib/feeds/traffic/ingest.ts";
import { datexV2Xml, type SampleIncident } from "../lib/feeds/traffic/sample-documents.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";
import { machine, writeResults } from "./results.ts";

const { values } = parseArgs({ options: { records: { type: "string", default: "20000" } } });
const RECORDS = Number(values.records);
const BENCH_DIR = path.dirname(new URL(import.meta.url).pathname);
const config = mergeConfig(loadConfig(), {
  database: { url: undefined, dataDir: path.join(BENCH_DIR, ".data-traffic"), embeddedPgPort: 54343 },
  log: { level: "error" },
  demoData: false,
});
fs.mkdirSync(config.database.dataDir, { recursive: true, mode: 0o755 });
const database = await prepareDatabase(config.database);
const owner = new pg.Pool({ connectionString: database.ownerUrl, max: 2 });
owner.on("error", () => {});
await owner.query("truncate app_public.traffic_incidents cascade");

let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const kinds: SampleIncident["type"][] = ["accident", "breakdown", "breakdown", "unattended", "roadworks"];
const start = new Date(Date.now() - 2 * 86_400_000);
const incidents: SampleIncident[] = Array.from({ length: RECORDS }, (_, i) => ({
  id: `BENCH_${i}`,
  version: 1,
  type: kinds[i % kinds.length],
  start: new Date(start.getTime() + i * 1_000),
  latitude: 50.8 + random() * 2.6,
  longitude: 3.5 + random() * 3.5,
  roadNumber: `A${1 + (i % 80)}`,
  comment: "Synthetische melding voor de benchmark: rijstrook afgesloten, vertraging mogelijk.",
  severity: "medium",
  lanesRestricted: i % 3,
}));
const file = path.join(config.database.dataDir, "incidents.xml.gz");
const write = (list: SampleIncident[]) => fs.writeFileSync(file, gzipSync(datexV2Xml(new Date(), list)));

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);
async function timed(label: string) {
  const started = performance.now();
  const result = await ingestTrafficDocument(owner, fs.createReadStream(file), file);
  const seconds = (performance.now() - started) / 1000;
  console.log(`${label}: ${seconds.toFixed(2)} s, ${JSON.stringify(result.stored)}`);
  return { seconds: +seconds.toFixed(2), ...result.stored };
}

write(incidents);
const bytes = fs.statSync(file).size;
const rssBefore = process.memoryUsage().rss;
const first = await timed("into an empty table");
const again = await timed("the same file again");
write(incidents.map((incident, i) => (i % 10 === 0 ? { ...incident, version: 2, comment: "Bijgewerkt." } : incident)));
const newer = await timed("every tenth record newer");
clearInterval(sampler);

const result = {
  date: new Date().toISOString(),
  machine: machine(),
  records: RECORDS,
  gzippedBytes: bytes,
  first,
  again,
  newer,
  rssBeforeMiB: Math.round(rssBefore / 2 ** 20),
  peakRssMiB: Math.round(peakRss / 2 ** 20),
};
console.log(
  `Wrote ${writeResults("traffic", "traffic-latest.md", result, [
    `Traffic ingestion benchmark, ${result.date.slice(0, 10)}, ${result.machine}: a DATEX II v2 publication of ${RECORDS.toLocaleString("en")} ` +
      `situation records (${(bytes / 2 ** 20).toFixed(1)} MiB gzipped; a fifth roadworks, left out), read from the file as the CLI does.`,
    "",
    "| run | seconds | new | newer versions | closed |",
    "| --- | --- | --- | --- | --- |",
    `| into an empty table | ${first.seconds} | ${first.inserted} | ${first.updated} | ${first.closed} |`,
    `| the same file again | ${again.seconds} | ${again.inserted} | ${again.updated} | ${again.closed} |`,
    `| every tenth record newer | ${newer.seconds} | ${newer.inserted} | ${newer.updated} | ${newer.closed} |`,
    "",
    `Process memory (RSS): ${result.rssBeforeMiB} MiB before, ${result.peakRssMiB} MiB at the peak.`,
  ])}`,
);
await owner.end();
await database.close();
process.exit(0);
