// The enrichment and streets benchmark: `npm run bench:enrichment -- [--streets FILE] [--segments 300000]
// [--messages 6000] [--days 4] [--history 300000] [--fresh]`. A database of its own (bench/.data-enrichment,
// kept between runs; --fresh starts over) with a P2000 history through the FLEX reader's path
// (300,000 messages by default, about four months of the national network: a service that has run
// for a while, where the reader's ANALYZE of every 10% of growth is rare; on a history of 30,000 it
// analyses nine tables, about 0.6 s each, three times within the measured four days), then:
// 1. Streets at national scale through the real importer (lib/streets/import.ts): the real NWB file
//    when --streets gives one, else a synthetic register of realistic size (about 300,000 segments,
//    150,000 streets over every place of app_public.places, by population), because the national
//    file cannot be downloaded here. Written as GeoJSONSeq under the data directory, then imported.
// 2. The enrichment's cost per message: app_hidden.p2000_enrich over synthetic pager traffic, one
//    statement over N messages, best of 3, with the streets loaded and with empty street tables
//    (truncated in a transaction that is rolled back), and the share placed on a street.
// 3. FLEX ingestion with the streets loaded: the FLEX reader's batch store (as bench/p2000.ts), half a
//    day of warm-up, then four days of traffic, in messages a second (goal: over 2,000).
// 4. Positions: each message of test/fixtures/p2000-positions.json (corpus messages with a true
//    position) stored through the batch store, with the streets of test/fixtures/nwb-wegvakken.geojson
//    (or of --streets), and its distance to the true position; next to the position without streets
//    (the place's centre, what the service gave before streets).
// Figures go to bench/results/enrichment-<date>.json and enrichment-latest.md.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { enrichBatch, storeBatch } from "../lib/p2000/batch-store.ts";
import { createFlexIngester, FLEX_READER_CONNECTIONS } from "../lib/p2000/flex-ingest.ts";
import { parseFlexLine } from "../lib/p2000/flex-parser.ts";
import { generatePagerTraffic, STREETS } from "../lib/p2000/synthetic-pager-traffic.ts";
import { rdToWgs84 } from "../lib/places/rd-new.ts";
import { importStreets, isLineDelimited, type StreetImportResult } from "../lib/streets/import.ts";
import { forgetTrafficAhead, loadFlexHistory, openBenchDatabase, seeded } from "./bench-database.ts";
import { cpuSplit, loadAverage, makeCpuSampler, quietMoment } from "./cpu-accounting.ts";
import { machine, writeResults } from "./results.ts";

const { values } = parseArgs({
  options: {
    streets: { type: "string" },
    segments: { type: "string", default: "300000" },
    messages: { type: "string", default: "6000" },
    days: { type: "string", default: "4" },
    history: { type: "string", default: "300000" },
    fresh: { type: "boolean", default: false },
  },
});
const STREETS_FILE = values.streets ? path.resolve(values.streets) : undefined;
const SEGMENTS = Number(values.segments);
const MESSAGES = Number(values.messages);
const FLEX_DAYS = Number(values.days);
const PER_DAY = 2700;
const HISTORY = Number(values.history);
const REPO = path.join(path.dirname(new URL(import.meta.url).pathname), "..");
const FIXTURE_STREETS = path.join(REPO, "test/fixtures/nwb-wegvakken.geojson");
const log = (line: string) => console.log(line);
if (STREETS_FILE && !fs.existsSync(STREETS_FILE)) {
  console.error(`No such file: ${STREETS_FILE}`);
  process.exit(2);
}

const started = performance.now();
const { dataDir, database, owner } = await openBenchDatabase("enrichment", 54367, values.fresh ?? false);
// The FLEX reader uses FLEX_READER_CONNECTIONS connections; the history loader two readers' worth.
const loader = new pg.Pool({ connectionString: database.ownerUrl, max: 2 * FLEX_READER_CONNECTIONS });
loader.on("error", () => {});
const sampleCpu = makeCpuSampler(dataDir);
/** The share (%) of the cores that went to other processes between two samples. */
const otherShare = (before: ReturnType<typeof sampleCpu>, after: ReturnType<typeof sampleCpu>) =>
  cpuSplit(before, after, 1)?.other.share ?? null;

// A history, so that dossier grouping meets recent dossiers as live ingestion does.
const history = await loadFlexHistory(owner, HISTORY, PER_DAY, loader);
const {
  rows: [{ storedHistory }],
} = await owner.query<{ storedHistory: number }>(
  `select count(*)::int as "storedHistory" from app_public.p2000_messages`,
);
if (history) {
  log(`  ${history.stored} messages in ${history.seconds.toFixed(0)} s`);
  await owner.query("analyze");
}

/** Replaces the street register with `file` through the real importer; what it read and how long it took. */
async function importStreetFile(file: string) {
  await owner.query("truncate app_hidden.street_segments, app_hidden.streets");
  const begin = performance.now();
  const result: StreetImportResult = await importStreets(owner, fs.createReadStream(file), {
    lineDelimited: isLineDelimited(file),
    log,
  });
  const seconds = (performance.now() - begin) / 1000;
  const {
    rows: [counts],
  } = await owner.query<{ segments: number; streets: number; placed: number }>(`
    select (select count(*)::int from app_hidden.street_segments) as segments,
           (select count(*)::int from app_hidden.streets) as streets,
           (select count(*)::int from app_hidden.streets where place_uuid is not null) as placed`);
  log(
    `  ${path.basename(file)}: ${result.segments} segments imported in ${seconds.toFixed(1)} s; ` +
      `${counts.streets} streets (${counts.placed} with their place)`,
  );
  return { file: path.relative(REPO, file), ...result, ...counts, seconds: +seconds.toFixed(1) };
}

// 1. The synthetic register --------------------------------------------------------------------------

// The street names of the synthetic pager traffic (lib/p2000/synthetic-pager-traffic.ts), first, and
// other names common in the Netherlands; then names made of a word and a street word, and those with
// Oude/Nieuwe/Korte/Lange/Kleine/Grote before them, so that a city has thousands of distinct names.
const COMMON_STREETS = [
  "Molenstraat",
  "Kerkweg",
  "Sportlaan",
  "Stationsstraat",
  "Raadhuisstraat",
  "Markt",
  "Kerkplein",
  "Dorpsweg",
  "Nieuweweg",
  "Burgemeester van de Veldestraat",
  "Prins Bernhardstraat",
  "Oranjestraat",
  "Irenestraat",
  "Margrietstraat",
  "Prins Hendrikstraat",
  "Willem de Zwijgerlaan",
  "Stationsplein",
  "Havenstraat",
  "Voorstraat",
  "Achterstraat",
  "Hoogstraat",
  "Langestraat",
  "Dijkstraat",
  "Zandstraat",
  "Veldweg",
  "Bosweg",
  "Ringweg",
  "Eikenlaan",
  "Beukenlaan",
  "Lindelaan",
  "Berkenlaan",
  "Esdoornlaan",
  "Populierenlaan",
  "Wilgenlaan",
  "Iepenlaan",
  "Rozenstraat",
  "Tulpstraat",
  "Lijsterbeslaan",
  "Merelstraat",
  "Mozartlaan",
  "Rembrandtstraat",
  "Vondelstraat",
  "Sportpark",
  "Zuideinde",
  "Noordeinde",
];
const WORDS = (
  "Akker Beemd Berk Bloem Boomgaard Brink Dahlia Distel Duin Eik Els Esch Fazant Geer Goudsbloem " +
  "Haver Hazel Heide Hoeve Hop Hulst Iris Jasmijn Kamp Klaver Koren Kievit Lelie Leeuwerik Lijster " +
  "Mees Meidoorn Mient Narcis Notenboom Olm Pauw Peppel Plataan Reiger Ridder Rogge Seringen " +
  "Sleedoorn Specht Spoor Sterappel Tarwe Teunisbloem Valk Vink Vlier Vlinder Watermolen Wei Wilg " +
  "Zwaluw Zonnebloem Schapendrift Kraanvogel"
).split(" ");
const STREET_WORDS = ["straat", "laan", "weg", "plein", "hof", "singel", "dreef", "kade", "pad", "erf"];
const PREFIXES = ["", "Oude ", "Nieuwe ", "Korte ", "Lange ", "Kleine ", "Grote "];
const BASE_NAMES = [
  ...STREETS,
  ...COMMON_STREETS,
  ...WORDS.flatMap((word) => STREET_WORDS.map((streetWord) => `${word}${streetWord}`)),
];
const NAME_POOL = [...new Set(PREFIXES.flatMap((prefix) => BASE_NAMES.map((name) => `${prefix}${name}`)))];

/** RD New (x, y) of a WGS84 point: rdToWgs84 inverted by a few Newton steps (to a millimetre). */
function wgs84ToRd(latitude: number, longitude: number): [number, number] {
  let x = 155_000 + (longitude - 5.38763889) * 68_400;
  let y = 463_000 + (latitude - 52.15616056) * 111_200;
  for (let step = 0; step < 5; step++) {
    const at = rdToWgs84(x, y);
    x += (longitude - at.longitude) * 68_400;
    y += (latitude - at.latitude) * 111_200;
  }
  return [x, y];
}

/**
 * Writes the synthetic register as GeoJSONSeq (NWB's wegvak fields): every place of app_public.places
 * gets streets in proportion to its population (at least 2), about `segments / 2` in all, each of 1-3
 * segments of 60-240 m with a slight bend, starting at a random point within 0.3-5 km of the place's
 * centre, with odd house numbers on the left and even ones on the right. Duplicate place names are
 * written as NWB writes them, with their province ("Bergen (NH)").
 */
async function writeSyntheticRegister(file: string, segments: number) {
  const { rows: places } = await owner.query<{
    name: string;
    municipality: string | null;
    province_code: string | null;
    latitude: number;
    longitude: number;
    population: number | null;
  }>(
    "select name, municipality, province_code, latitude, longitude, population from app_public.places order by name, uuid",
  );
  const random = seeded(20261124);
  const sameName = new Map<string, number>();
  for (const place of places) sameName.set(place.name, (sameName.get(place.name) ?? 0) + 1);
  const weights = places.map((place) => (place.population ?? 800 + random() * 2000) ** 0.9);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const streetsWanted = segments / 2;
  const out = fs.openSync(file, "w");
  let wvkId = 900_000_000;
  let streets = 0;
  let written = 0;
  for (const [i, place] of places.entries()) {
    const count = Math.min(NAME_POOL.length, Math.max(2, Math.round((streetsWanted * weights[i]) / totalWeight)));
    const woonplaats =
      (sameName.get(place.name) ?? 0) > 1 && place.province_code
        ? `${place.name} (${place.province_code})`
        : place.name;
    const [cx, cy] = wgs84ToRd(place.latitude, place.longitude);
    const radius = Math.min(5000, 300 + 8 * Math.sqrt(place.population ?? 1500));
    // The traffic's and the common names first, in an order of the place's own, then the rest.
    const first = [...STREETS, ...COMMON_STREETS].sort(() => random() - 0.5);
    const names = count <= first.length ? first.slice(0, count) : [...first, ...NAME_POOL.slice(first.length)];
    const lines: string[] = [];
    for (const name of names.slice(0, count)) {
      const r = radius * Math.sqrt(random());
      const angle = random() * 2 * Math.PI;
      let [x, y] = [cx + r * Math.cos(angle), cy + r * Math.sin(angle)];
      let heading = random() * 2 * Math.PI;
      let left = 1;
      let right = 2;
      const parts = 1 + Math.floor(random() * 3);
      for (let part = 0; part < parts; part++) {
        const length = 60 + random() * 180;
        heading += (random() - 0.5) * 0.7;
        const bend = heading + (random() - 0.5) * 0.4;
        const middle = [x + (length / 2) * Math.cos(heading), y + (length / 2) * Math.sin(heading)];
        const end = [middle[0] + (length / 2) * Math.cos(bend), middle[1] + (length / 2) * Math.sin(bend)];
        const houses = Math.max(1, Math.round(length / 12));
        const coordinates = [[x, y], middle, end].map(([px, py]) => [+px.toFixed(3), +py.toFixed(3)]);
        lines.push(
          JSON.stringify({
            type: "Feature",
            geometry: { type: "LineString", coordinates },
            properties: {
              wvk_id: ++wvkId,
              stt_naam: name,
              wpsnaam: woonplaats,
              gme_naam: place.municipality ?? place.name,
              hnrstrlnks: "O",
              hnrstrrhts: "E",
              e_hnr_lnks: left,
              l_hnr_lnks: left + 2 * (houses - 1),
              e_hnr_rhts: right,
              l_hnr_rhts: right + 2 * (houses - 1),
            },
          }),
        );
        left += 2 * houses;
        right += 2 * houses;
        [x, y] = end;
        heading = bend;
      }
      streets++;
    }
    fs.writeSync(out, lines.join("\n") + "\n");
    written += lines.length;
  }
  fs.closeSync(out);
  return { places: places.length, streets, segments: written, bytes: fs.statSync(file).size };
}

// 4 first, on the fixture's streets (or the given file) ------------------------------------------------

interface TruePosition {
  message: string;
  latitude: number;
  longitude: number;
  independent: boolean;
  source: string;
}
const corpus = JSON.parse(fs.readFileSync(path.join(REPO, "test/fixtures/p2000-corpus.json"), "utf8")) as {
  cases: Array<{ message: string; capcodes: string[]; expect: Record<string, unknown> }>;
};
const truths = (
  JSON.parse(fs.readFileSync(path.join(REPO, "test/fixtures/p2000-positions.json"), "utf8")) as {
    positions: TruePosition[];
  }
).positions;
const addressed = corpus.cases.filter((c) => c.expect.street && c.expect.city).length;

/** Metres between two points (haversine). */
function metres(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  return n === 0 ? null : n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
};

/** Traffic this run stores is dated from 30 days ahead; afterwards it goes again, as in bench/p2000.ts. */
const forgetStoredTraffic = () => forgetTrafficAhead(owner);
await forgetStoredTraffic();

/** The enrichment of each text with empty street tables (truncated in a transaction rolled back). */
async function withoutStreets<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await owner.connect();
  try {
    await client.query("begin");
    await client.query("truncate app_hidden.street_segments, app_hidden.streets");
    return await work(client);
  } finally {
    await client.query("rollback");
    client.release();
  }
}

const ENRICH_ALL = `
  select count(*)::int as messages,
         count(*) filter (where e.street is not null)::int as naming_street,
         count(*) filter (where e.position_precision = 'street')::int as on_street,
         count(*) filter (where e.position_precision = 'place')::int as on_place
    from json_array_elements($1::json) j,
         lateral app_hidden.p2000_enrich(j ->> 'message', array(select json_array_elements_text(j -> 'capcodes'))) e`;

const positionsStreets = await importStreetFile(STREETS_FILE ?? FIXTURE_STREETS);
const positionMessages = truths.map((truth, i) => {
  const found = corpus.cases.find((c) => c.message === truth.message);
  if (!found) throw new Error(`Not a message of the corpus: ${truth.message}`);
  return {
    message: truth.message,
    sended: new Date(Date.now() + 40 * 86_400_000 + i * 60_000).toISOString(),
    capcodes: found.capcodes,
  };
});
await storeBatch(loader, await enrichBatch(loader, positionMessages), "bench-enrichment", 2);
const placeOnly = await withoutStreets(async (client) => {
  const { rows } = await client.query<{ latitude: number | null; longitude: number | null }>(
    `select e.latitude, e.longitude from json_array_elements($1::json) with ordinality j (value, n),
            lateral app_hidden.p2000_enrich(j.value ->> 'message', array(select json_array_elements_text(j.value -> 'capcodes'))) e
      order by j.n`,
    [JSON.stringify(positionMessages)],
  );
  return rows;
});
const positions: Array<{
  message: string;
  independent: boolean;
  precision: string | null;
  metres: number | null;
  placeOnlyMetres: number | null;
  source: string;
}> = [];
for (const [i, truth] of truths.entries()) {
  const {
    rows: [stored],
  } = await owner.query<{ latitude: number | null; longitude: number | null; position_precision: string | null }>(
    "select latitude, longitude, position_precision from app_public.p2000_messages where message = $1 and sended = $2",
    [positionMessages[i].message, positionMessages[i].sended],
  );
  const distance = (p: { latitude: number | null; longitude: number | null } | undefined) =>
    p && p.latitude !== null && p.longitude !== null
      ? Math.round(metres(truth, { latitude: p.latitude, longitude: p.longitude }))
      : null;
  positions.push({
    message: truth.message,
    independent: truth.independent,
    precision: stored?.position_precision ?? null,
    metres: distance(stored),
    placeOnlyMetres: distance(placeOnly[i]),
    source: truth.source,
  });
}
await forgetStoredTraffic();
const figures = (rows: typeof positions) => ({
  messages: rows.length,
  medianMetres: median(rows.flatMap((p) => (p.metres === null ? [] : [p.metres]))),
  placeOnlyMedianMetres: median(rows.flatMap((p) => (p.placeOnlyMetres === null ? [] : [p.placeOnlyMetres]))),
});
const positionFigures = {
  streets: positionsStreets.file,
  corpusAddressedMessages: addressed,
  independent: figures(positions.filter((p) => p.independent)),
  all: figures(positions),
  messages: positions,
};
log(
  `Positions (${positions.length} of ${addressed} addressed corpus messages, streets of ${positionsStreets.file}): ` +
    positions.map((p) => `${p.metres} m (${p.precision}; place only ${p.placeOnlyMetres} m)`).join(", "),
);

// 1. The street register at national scale -------------------------------------------------------------

let synthetic: Awaited<ReturnType<typeof writeSyntheticRegister>> | undefined;
let register = positionsStreets;
if (!STREETS_FILE) {
  const file = path.join(dataDir, "synthetic-wegvakken.geojsonl");
  const begin = performance.now();
  synthetic = await writeSyntheticRegister(file, SEGMENTS);
  log(
    `Synthetic street register: ${synthetic.segments} segments, ${synthetic.streets} streets over ${synthetic.places} places ` +
      `(${(synthetic.bytes / 2 ** 20).toFixed(0)} MB) written in ${((performance.now() - begin) / 1000).toFixed(1)} s`,
  );
  register = await importStreetFile(file);
  fs.rmSync(file);
}

// 2. The enrichment's cost per message, with and without streets -----------------------------------------

const trafficFrom = new Date(Date.UTC(2026, 10, 2));
const texts = [
  ...generatePagerTraffic({ from: trafficFrom, to: new Date(trafficFrom.getTime() + 4 * 86_400_000), seed: 27 }),
]
  .map((line) => parseFlexLine(line))
  .flatMap((parsed) => (parsed.kind === "page" ? [{ message: parsed.page.text, capcodes: parsed.page.capcodes }] : []))
  .slice(0, MESSAGES);
const textsJson = JSON.stringify(texts);
const loadBefore = loadAverage();

/** One statement over every text: a warm-up, then the best of 3 (µs per message), and what it found. */
async function enrichCost(client: pg.PoolClient | pg.Pool) {
  await client.query(ENRICH_ALL, [textsJson]);
  let best = Infinity;
  let found: { messages: number; naming_street: number; on_street: number; on_place: number } | undefined;
  const cpuBefore = sampleCpu(undefined);
  for (let run = 0; run < 3; run++) {
    const begin = performance.now();
    const { rows } = await client.query(ENRICH_ALL, [textsJson]);
    best = Math.min(best, performance.now() - begin);
    found = rows[0];
  }
  const other = otherShare(cpuBefore, sampleCpu(undefined));
  return {
    microsecondsPerMessage: +((best * 1000) / texts.length).toFixed(1),
    messages: found!.messages,
    namingStreet: found!.naming_street,
    onStreet: found!.on_street,
    onPlace: found!.on_place,
    shareOnStreet: +((100 * found!.on_street) / found!.messages).toFixed(1),
    otherProcessesShare: other,
  };
}
await quietMoment(30);
const withStreets = await enrichCost(owner);
await quietMoment(30);
const withoutStreetTables = await withoutStreets((client) => enrichCost(client));
const enrichment = { messages: texts.length, withStreets, withoutStreets: withoutStreetTables };
log(
  `app_hidden.p2000_enrich over ${texts.length} messages: ${withStreets.microsecondsPerMessage} µs/message with streets ` +
    `(${withStreets.shareOnStreet}% placed on a street), ${withoutStreetTables.microsecondsPerMessage} µs/message without`,
);

// 3. FLEX ingestion with the streets loaded ---------------------------------------------------------------

async function readFlex(days: number) {
  const from = new Date(Date.now() + 30 * 86_400_000);
  const lines = [
    ...generatePagerTraffic({ from, to: new Date(from.getTime() + days * 86_400_000), perDay: PER_DAY, seed: 7 }),
  ];
  const ingester = createFlexIngester(loader, { source: "bench-enrichment" });
  const cpuBefore = sampleCpu(undefined);
  const begin = performance.now();
  for (const line of lines) await ingester.push(line);
  await ingester.flush();
  const seconds = (performance.now() - begin) / 1000;
  const other = otherShare(cpuBefore, sampleCpu(undefined));
  const {
    rows: [placed],
  } = await owner.query<{ stored: number; on_street: number }>(`
    select count(*)::int as stored, count(*) filter (where position_precision = 'street')::int as on_street
      from app_public.p2000_messages where sended > now() + interval '29 days'`);
  await forgetStoredTraffic();
  return {
    lines: lines.length,
    messagesPerSecond: Math.round(lines.length / seconds),
    stored: placed.stored,
    onStreet: placed.on_street,
    otherProcessesShare: other,
  };
}
await quietMoment(30);
await readFlex(0.5);
const flex = await readFlex(FLEX_DAYS);
log(
  `FLEX reader with streets: ${flex.messagesPerSecond} messages/s (${flex.lines} lines, ${flex.onStreet} of ${flex.stored} stored placed on a street)`,
);
await owner.query(`vacuum app_public.p2000_messages, app_public.p2000_message_capcodes, app_public.p2000_dossiers,
  app_public.p2000_dossier_events, app_hidden.p2000_hourly_counts, app_hidden.p2000_hourly_urgency_counts, app_hidden.p2000_daily_counts`);

// Figures ---------------------------------------------------------------------------------------------------

const result = {
  date: new Date().toISOString(),
  machine: machine(),
  loadAverageBefore: loadBefore,
  minutes: +((performance.now() - started) / 60_000).toFixed(1),
  streets: STREETS_FILE
    ? { kind: "file", ...register }
    : { kind: "synthetic", generated: synthetic, imported: register },
  enrichment,
  flex: { days: FLEX_DAYS, historyMessages: storedHistory, ...flex },
  positions: positionFigures,
};
const m = (value: number | null) => (value === null ? "–" : `${value.toLocaleString("en")} m`);
const streetsLine = STREETS_FILE
  ? `Streets: ${register.file} through the importer (${register.segments.toLocaleString("en")} segments, ${register.streets.toLocaleString("en")} streets, ${register.seconds} s).`
  : `Streets: a **synthetic** register (${register.segments.toLocaleString("en")} segments, ${register.streets.toLocaleString("en")} streets over ` +
    `${synthetic!.places.toLocaleString("en")} places, by population; the pager traffic's street names and common Dutch ones in every place ` +
    `big enough), imported through the real importer in ${register.seconds} s. Synthetic because the national NWB file cannot be ` +
    `downloaded here: its size and shape are realistic, its streets are not real, so the share placed on a street is the register's, ` +
    "not the country's. With the real file: `npm run bench:enrichment -- --streets wegvakken.geojsonl`.";
const markdown = [
  `Enrichment and streets benchmark, ${result.date.slice(0, 10)}, ${result.machine}, load average ${loadBefore.join(" ")} before the measurements; ${result.minutes} minutes in all.`,
  "",
  streetsLine,
  "",
  "| measurement | with streets | without streets (empty street tables) |",
  "| --- | --- | --- |",
  `| \`app_hidden.p2000_enrich\`, µs per message (one statement over ${texts.length.toLocaleString("en")} synthetic messages, best of 3) | ${withStreets.microsecondsPerMessage} | ${withoutStreetTables.microsecondsPerMessage} |`,
  `| messages placed on a street | ${withStreets.onStreet.toLocaleString("en")} (${withStreets.shareOnStreet}%) | ${withoutStreetTables.onStreet} |`,
  `| messages placed on their place's centre | ${withStreets.onPlace.toLocaleString("en")} | ${withoutStreetTables.onPlace.toLocaleString("en")} |`,
  `| other processes' share of the cores during it | ${withStreets.otherProcessesShare ?? "–"}% | ${withoutStreetTables.otherProcessesShare ?? "–"}% |`,
  "",
  `FLEX reader (batch store, ${FLEX_DAYS} days of synthetic traffic after half a day of warm-up, on a history of ` +
    `${storedHistory.toLocaleString("en")} messages) with the streets loaded: ` +
    `**${flex.messagesPerSecond.toLocaleString("en")} messages/s** (goal over 2,000; other processes took ${flex.otherProcessesShare ?? "–"}% of the cores); ` +
    `${flex.onStreet.toLocaleString("en")} of ${flex.stored.toLocaleString("en")} stored messages placed on a street.`,
  "",
  `Positions: ${positions.length} of the corpus's ${addressed} addressed messages have a true position (test/fixtures/p2000-positions.json), ` +
    `stored through the batch store with the streets of ${positionsStreets.file}.`,
  "",
  "| message | independent truth | precision | computed → true | place centre only → true |",
  "| --- | --- | --- | --- | --- |",
  ...positions.map(
    (p) =>
      `| ${p.message} | ${p.independent ? "yes" : "no (fixture)"} | ${p.precision} | ${m(p.metres)} | ${m(p.placeOnlyMetres)} |`,
  ),
  `| **median, independent truths (${positionFigures.independent.messages})** | | | **${m(positionFigures.independent.medianMetres)}** | ${m(positionFigures.independent.placeOnlyMedianMetres)} |`,
  `| median, all (${positionFigures.all.messages}) | | | ${m(positionFigures.all.medianMetres)} | ${m(positionFigures.all.placeOnlyMedianMetres)} |`,
  "",
  "The fixture's streets were drawn for the tests near the real ones (data/STREETS-SOURCE.md) and are the source of both the computed " +
    'and the "true" position of the messages marked no: their distances check that a message is put on its street, not how accurate that is. ' +
    "The independent truths are single points from Wikipedia of a canal and a square, whose streets the fixture does not have, so their " +
    "computed position is the place's centre. A median over the country's messages needs the real NWB file and true positions from an " +
    "address register; neither is available here.",
];
log(`Wrote ${writeResults("enrichment", "enrichment-latest.md", result, markdown)}`);
await Promise.all([owner.end(), loader.end()]);
await database.close();
process.exit(0);
