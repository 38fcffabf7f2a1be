// The share pages when warm (issue 50, lib/open-data/share-pages/): a shared link is opened by every
// chat that previews it and everyone who follows it, so the page and its map image must come from
// memory. The service runs as operators run it (server.ts, its own process, RESPONSE_CACHE_MB=64)
// on an embedded cluster with a few P2000 incidents stored through the FLEX reader's function;
// each page and image is asked once, then clients ask them back to back. Prints p50/p99 of the
// warm pages and images and the CPU a request costs the service and PostgreSQL (a warm page costs
// PostgreSQL nothing); writes bench/results/share-pages-latest.md. The goal: p99 under 20 ms.
// `npm run bench:share-pages [-- --seconds 10 --clients 4]`.
import { parseArgs } from "node:util";
import { shortId } from "../lib/open-data/share-pages/share-ids.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { cpuSplit, describeCpu, findServicePid, makeCpuSampler } from "./cpu-accounting.ts";
import { closedLoop, machine, summary, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "4" },
    "pg-port": { type: "string", default: "54347" },
  },
});
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const PG_PORT = Number(values["pg-port"]);

const PLACES = ["Toscalaan Rotterdam", "Stationsplein Utrecht", "Damrak Amsterdam", "Grote Markt Groningen"];
const INCIDENTS = 20;

const { dataDir, database, owner } = await openBenchDatabase("share-pages", PG_PORT, true);
const cleanUp: Array<() => Promise<unknown>> = [];
try {
  const pages = Array.from({ length: INCIDENTS }, (_, i) => ({
    message: `P 1 BR woning ${PLACES[i % PLACES.length]} ${170000 + i}`,
    sended: new Date(Date.now() - (i + 1) * 3 * 60_000).toISOString(),
    capcodes: [String(1700001 + i)],
  }));
  await owner.query("select app_private.ingest_p2000_messages($1::json, 'bench')", [JSON.stringify(pages)]);
  const { rows } = await owner.query<{ uuid: string }>("select uuid from app_public.p2000_dossiers");
  const paths = rows.map(({ uuid }) => `/incidents/${shortId(uuid)}`);

  const service = await startServerProcess({ dataDir, pgPort: PG_PORT, env: { RESPONSE_CACHE_MB: "64" } });
  cleanUp.push(() => service.stop());
  const base = service.graphqlUrl.replace(/\/graphql$/, "");
  const servicePid = findServicePid();
  const sample = makeCpuSampler(dataDir);

  const fetchOk = async (url: string) => {
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  };
  // Cold: each page and image once.
  for (const path of paths) await Promise.all([fetchOk(base + path), fetchOk(`${base}${path}/map.png`)]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const path of paths) await fetchOk(base + path);

  const measure = async (suffix: string) => {
    let i = 0;
    const before = sample(servicePid);
    const { latencies, errors } = await closedLoop(CLIENTS, SECONDS, () =>
      fetchOk(base + paths[i++ % paths.length] + suffix),
    );
    const cpu = cpuSplit(before, sample(servicePid), latencies.length);
    if (errors) throw new Error(`${errors} requests failed`);
    return { ...summary(latencies, SECONDS), cpu };
  };
  const page = await measure("");
  const image = await measure("/map.png");
  const line = (name: string, r: typeof page) =>
    `${name}: ${r.requests} requests, ${r.rps}/s, p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms; ${describeCpu(r.cpu)}`;
  console.log(line("warm page", page));
  console.log(line("warm map.png", image));

  const result = {
    date: new Date().toISOString(),
    machine: machine(),
    clients: CLIENTS,
    seconds: SECONDS,
    page,
    image,
  };
  const row = (name: string, r: typeof page) =>
    `| ${name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.cpu?.service.msPerRequest ?? "–"} | ${r.cpu?.postgres.msPerRequest ?? "–"} |`;
  const file = writeResults("share-pages", "share-pages-latest.md", result, [
    "# Share pages, warm (npm run bench:share-pages)",
    "",
    `${result.date}, ${result.machine}; ${CLIENTS} clients back to back for ${SECONDS} s each, ${INCIDENTS} incidents.`,
    "",
    "| request | per second | p50 ms | p99 ms | service CPU ms/request | PostgreSQL CPU ms/request |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    row("page (/incidents/<id>)", page),
    row("image (/incidents/<id>/map.png)", image),
  ]);
  console.log(`Wrote ${file}`);
} finally {
  for (const stop of cleanUp.reverse()) await stop();
  await owner.end();
  await database.close();
}
