// Builds the address truth set: real P2000 pages that name a street and a town in the five provinces
// the address register here covers (Groningen, Friesland, Drenthe, Flevoland, Zeeland), each with
// the true position of its street, the centroid of that street's address points in that town.
//
//   node bench/address-truth/build.ts [--out FILE] [--year 2023] [--max 3000] [--per-street 3]
//        [--repo owner/name --commit SHA --licence SPDX] [--bag DIR] ARCHIVE...
//
// ARCHIVE is any number of files or folders of a public P2000 archive: JSON (an array, an object
// holding one, or JSON lines), CSV/TSV with a header, or text (multimon-ng `FLEX|…|ALN|text` lines,
// PDW lines, or `timestamp text`), optionally .gz or .zst. Pages are kept when their text holds a
// woonplaats of the register with, right before it (a house number or postcode may sit between), a
// street the register has in that woonplaats; police pages that give the town first
// ("… prio 1 groningen osloweg") are taken with the street right after the town. Names are
// compared without case, accents, spaces or punctuation, with the usual abbreviations written out
// (Burg. = Burgemeester, v. = van, Dr. = Dokter, St. = Sint, …str = …straat, …ln = …laan, …wg = …weg).
// A page is left out when it is ambiguous: two different streets or towns fit, the town name exists
// twice with that street, the street lies in two places of one name more than 1.5 km apart, or its
// region (an archive field, or a talkgroup such as BNN-01) belongs elsewhere. Identical texts count
// once. The output (default bench/address-truth/truth.json, or --out, or $ADDRESS_TRUTH_OUT) is
// `{ _about, pages: [{ message, sended, province, town, street, houseNumber, latitude, longitude,
// addressLatitude, addressLongitude, source }] }`.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import {
  DEFAULT_BAG_DIR,
  loadRegister,
  mean,
  median,
  metres,
  PROVINCES,
  rawTokens,
  REGION_NUMBER,
  REPO,
  streetCentroid,
  tokens,
  type Register,
  type Street,
  type Town,
} from "./lib.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: "string" },
    bag: { type: "string" },
    year: { type: "string", default: "2023" },
    max: { type: "string", default: "3000" },
    "per-street": { type: "string", default: "3" },
    repo: { type: "string" },
    commit: { type: "string" },
    licence: { type: "string" },
    "licence-note": { type: "string" },
    "time-zone": { type: "string", default: "Europe/Amsterdam" },
  },
});
if (positionals.length === 0) {
  console.error("Usage: node bench/address-truth/build.ts [--out FILE] [--year 2023|any] ARCHIVE...");
  process.exit(2);
}
const OUT = path.resolve(
  values.out ?? process.env.ADDRESS_TRUTH_OUT ?? path.join(REPO, "bench/address-truth/truth.json"),
);
const YEAR = values.year === "any" ? null : Number(values.year);
const MAX = Number(values.max);
const PER_STREET = Number(values["per-street"]);
const TIME_ZONE = values["time-zone"];
const log = (line: string) => console.log(line);

// ---- Reading an archive ---------------------------------------------------------------------------

type Page = { text: string; sended: string | null; region: string | null; source: string };

function open(file: string): NodeJS.ReadableStream {
  const stream = fs.createReadStream(file);
  if (file.endsWith(".gz")) return stream.pipe(zlib.createGunzip());
  if (file.endsWith(".zst")) return stream.pipe(zlib.createZstdDecompress());
  return stream;
}

function kind(file: string): string {
  const base = file.replace(/\.(gz|zst)$/, "").toLowerCase();
  const ext = path.extname(base);
  if (ext === ".json" || ext === ".jsonl" || ext === ".ndjson") return ext === ".json" ? "json" : "jsonl";
  if (ext === ".csv" || ext === ".tsv") return "csv";
  return "text";
}

function* walk(target: string): Generator<string> {
  const stat = fs.statSync(target);
  if (stat.isFile()) {
    yield target;
    return;
  }
  for (const entry of fs.readdirSync(target).sort()) {
    if (entry.startsWith(".")) continue;
    yield* walk(path.join(target, entry));
  }
}

const TEXT_KEYS = ["message", "body", "text", "melding", "bericht", "tekst", "msg", "content", "title", "titel"];
const TIME_KEYS = [
  "sended",
  "sent",
  "timestamp",
  "datetime",
  "date_time",
  "datumtijd",
  "received_at",
  "receivedat",
  "created_at",
  "createdat",
  "pubdate",
  "published",
  "time",
  "date",
  "datum",
  "tijd",
];
const REGION_KEYS = [
  "region",
  "regio",
  "regionname",
  "regname",
  "veiligheidsregio",
  "safety_region",
  "provincie",
  "province",
];

function pick(record: Record<string, unknown>, keys: string[]): { key: string; value: unknown } | null {
  const lower = new Map(Object.keys(record).map((key) => [key.toLowerCase(), key]));
  for (const want of keys) {
    const key = lower.get(want);
    if (key !== undefined && record[key] !== null && record[key] !== undefined && record[key] !== "")
      return { key, value: record[key] };
  }
  return null;
}

function fromRecord(record: Record<string, unknown>, source: string): Page | null {
  const text = pick(record, TEXT_KEYS);
  if (!text || typeof text.value !== "string") return null;
  const lower = new Map(Object.keys(record).map((key) => [key.toLowerCase(), record[key]]));
  let when: unknown = pick(record, TIME_KEYS)?.value ?? null;
  // Separate date and time fields ("27-09-2026" and "09:00:00") make one moment.
  const date = lower.get("date") ?? lower.get("datum");
  const time = lower.get("time") ?? lower.get("tijd");
  if (typeof date === "string" && typeof time === "string" && /^\d{1,2}:\d{2}/.test(time) && !/\d:\d/.test(date))
    when = `${date} ${time}`;
  const region = pick(record, REGION_KEYS)?.value;
  return {
    text: text.value,
    sended: toIso(when, "local"),
    region: region === undefined || region === null ? null : String(region),
    source,
  };
}

async function* readJson(file: string, label: string): AsyncGenerator<Page> {
  const chunks: Buffer[] = [];
  for await (const chunk of open(file)) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    // JSON lines under a .json name.
    let n = 0;
    for (const line of body.split("\n")) {
      n++;
      if (!line.trim()) continue;
      try {
        const page = fromRecord(JSON.parse(line), `${label}#${n}`);
        if (page) yield page;
      } catch {
        // a line that is no JSON is no page
      }
    }
    return;
  }
  let list: unknown[] = [];
  if (Array.isArray(data)) list = data;
  else if (data && typeof data === "object") {
    const object = data as Record<string, unknown>;
    const preferred = ["messages", "items", "data", "meldingen", "berichten", "results", "rows", "pages"];
    const key =
      preferred.find((k) => Array.isArray(object[k])) ?? Object.keys(object).find((k) => Array.isArray(object[k]));
    list = key ? (object[key] as unknown[]) : [];
  }
  let n = 0;
  for (const item of list) {
    n++;
    if (item && typeof item === "object") {
      const page = fromRecord(item as Record<string, unknown>, `${label}#${n}`);
      if (page) yield page;
    } else if (typeof item === "string") yield { text: item, sended: null, region: null, source: `${label}#${n}` };
  }
}

async function* readJsonLines(file: string, label: string): AsyncGenerator<Page> {
  let n = 0;
  for await (const line of readline.createInterface({ input: open(file), crlfDelay: Infinity })) {
    n++;
    if (!line.trim()) continue;
    try {
      const page = fromRecord(JSON.parse(line), `${label}#${n}`);
      if (page) yield page;
    } catch {
      // skip
    }
  }
}

function splitCsv(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === "") quoted = true;
    else if (c === separator) {
      cells.push(cell);
      cell = "";
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

async function* readCsv(file: string, label: string): AsyncGenerator<Page> {
  let header: string[] | null = null;
  let separator = ",";
  let pending = "";
  let n = 0;
  for await (const raw of readline.createInterface({ input: open(file), crlfDelay: Infinity })) {
    n++;
    const line = pending ? `${pending}\n${raw}` : raw;
    if ((line.match(/"/g)?.length ?? 0) % 2 === 1) {
      pending = line; // a quoted cell runs on to the next line
      continue;
    }
    pending = "";
    if (!header) {
      const first = line.replace(/^\uFEFF/, "");
      separator = ["\t", ";", "|", ","].reduce((best, s) =>
        first.split(s).length > first.split(best).length ? s : best,
      );
      header = splitCsv(first, separator).map((cell) => cell.trim());
      continue;
    }
    const cells = splitCsv(line, separator);
    const record: Record<string, unknown> = {};
    header.forEach((name, i) => (record[name] = cells[i]));
    const page = fromRecord(record, `${label}#${n}`);
    if (page) yield page;
  }
}

async function* readText(file: string, label: string): AsyncGenerator<Page> {
  let n = 0;
  for await (const line of readline.createInterface({ input: open(file), crlfDelay: Infinity })) {
    n++;
    const source = `${label}#${n}`;
    if (!line.trim()) continue;
    // multimon-ng: FLEX|2023-06-03 10:53:33|1600/2/K/A|13.059|002029569|ALN|text (UTC)
    const flex = /^FLEX\|(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\|(?:[^|]*\|){3}(?:ALN|ALPHA)\|(.*)$/.exec(line);
    if (flex) {
      yield { text: flex[2], sended: toIso(flex[1], "utc"), region: null, source };
      continue;
    }
    // PDW: 0400272 23:17:09 02-10-26 FLEX-A  GROUP  1600  text (local time)
    const pdw = /^\d{7}\s+(\d{2}:\d{2}:\d{2})\s+(\d{2}-\d{2}-\d{2})\s+FLEX\S*\s+\S+\s+\d+\s+(.*)$/.exec(line);
    if (pdw) {
      yield { text: pdw[3], sended: toIso(`${pdw[2]} ${pdw[1]}`, "local"), region: null, source };
      continue;
    }
    const stamped = /^(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)[\s|;,]+(.*)$/.exec(
      line,
    );
    if (stamped) {
      yield { text: stamped[2], sended: toIso(stamped[1], "local"), region: null, source };
      continue;
    }
    yield { text: line, sended: null, region: null, source };
  }
}

// ---- Time ----------------------------------------------------------------------------------------

const zoneParts = new Intl.DateTimeFormat("en-GB", {
  timeZone: TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});
function zoneOffset(utc: number): number {
  const p = Object.fromEntries(zoneParts.formatToParts(new Date(utc)).map((x) => [x.type, x.value]));
  return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - utc;
}
function wallClock(y: number, mo: number, d: number, h: number, mi: number, s: number, zone: "local" | "utc"): number {
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  if (zone === "utc") return guess;
  const first = guess - zoneOffset(guess);
  return guess - zoneOffset(first);
}

/** An archive's moment as ISO 8601 UTC; wall-clock times without a zone are read as `zone`. */
function toIso(value: unknown, zone: "local" | "utc"): string | null {
  if (value === null || value === undefined || value === "") return null;
  let ms: number | null;
  if (typeof value === "number" || /^\d{10,13}$/.test(String(value).trim())) {
    const n = Number(value);
    ms = n > 1e12 ? n : n * 1000;
  } else {
    const s = String(value).trim();
    let m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(s);
    if (m) {
      ms = m[8] ? Date.parse(s.replace(" ", "T")) : wallClock(+m[1], +m[2], +m[3], +m[4], +m[5], +(m[6] ?? 0), zone);
    } else if ((m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s))) {
      const year = m[3].length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
      ms = wallClock(year, +m[2], +m[1], +m[4], +m[5], +(m[6] ?? 0), zone);
    } else if ((m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s))) ms = wallClock(+m[1], +m[2], +m[3], 12, 0, 0, zone);
    else {
      const parsed = Date.parse(s);
      ms = Number.isNaN(parsed) ? null : parsed;
    }
  }
  return ms === null || Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

// ---- Labelling -----------------------------------------------------------------------------------

/** The provinces a region field or a talkgroup allows; null when the page does not say. */
function allowedProvinces(page: Page): Set<string> | null {
  if (page.region !== null) {
    const region = rawTokens(page.region).join(" ");
    const found = new Set<string>();
    for (const [province, number] of Object.entries(REGION_NUMBER)) {
      if (region === number || region === String(Number(number))) found.add(province);
    }
    if (/\bgroningen\b/.test(region)) found.add("Groningen");
    if (/\b(friesland|fryslan)\b/.test(region)) found.add("Friesland");
    if (/\bdrenthe\b/.test(region)) found.add("Drenthe");
    if (/\bflevoland\b/.test(region)) found.add("Flevoland");
    if (/\bzeeland\b/.test(region)) found.add("Zeeland");
    if (/\bnoord nederland\b/.test(region)) for (const p of ["Groningen", "Friesland", "Drenthe"]) found.add(p);
    return found;
  }
  // Fire brigade talkgroups: BNN = Noord-Nederland, BZB = Zeeland-West-Brabant, BMD = Midden-Nederland.
  const talkgroup = /\bB([A-Z]{2})-\d{1,2}\b/i.exec(page.text);
  if (talkgroup) {
    const code = talkgroup[1].toUpperCase();
    if (code === "NN") return new Set(["Groningen", "Friesland", "Drenthe"]);
    if (code === "ZB") return new Set(["Zeeland"]);
    if (code === "MD") return new Set(["Flevoland"]);
    return new Set();
  }
  return null;
}

type Match = { town: Town; street: Street; houseNumber: string | null; order: "street-town" | "town-street" };
const MAX_TOWN_TOKENS = 5;
const MAX_STREET_TOKENS = 8;
const HOUSE = /^\d{1,5}[a-z]?$/;
const PC6 = /^\d{4}[a-z]{2}$/;

/** The longest street of `town` spelled by tokens[from..to) for some from ≥ lo (to fixed). */
function streetEndingAt(town: Town, toks: string[], to: number, lo: number): Street | null {
  let key = "";
  let best: Street | null = null;
  for (let from = to - 1; from >= Math.max(lo, to - MAX_STREET_TOKENS); from--) {
    key = toks[from] + key;
    const street = town.streets.get(key);
    if (street && key.length >= 4) best = street;
  }
  return best;
}

function streetStartingAt(town: Town, toks: string[], from: number): { street: Street; end: number } | null {
  let key = "";
  let best: { street: Street; end: number } | null = null;
  for (let to = from + 1; to <= Math.min(toks.length, from + MAX_STREET_TOKENS); to++) {
    key += toks[to - 1];
    const street = town.streets.get(key);
    if (street && key.length >= 4) best = { street, end: to };
  }
  return best;
}

function matches(register: Register, toks: string[]): Match[] {
  const found: Match[] = [];
  for (let t = 0; t < toks.length; t++) {
    let townKey = "";
    for (let len = 1; len <= MAX_TOWN_TOKENS && t + len <= toks.length; len++) {
      townKey += toks[t + len - 1];
      const towns = register.towns.get(townKey);
      if (!towns) continue;
      for (const town of towns) {
        // Street, then perhaps a house number (and letter) and a postcode, then the town.
        for (let gap = 0; gap <= 3 && t - gap > 0; gap++) {
          const between = toks.slice(t - gap, t);
          const street = streetEndingAt(town, toks, t - gap, 0);
          if (!street) continue;
          const ok = between.every(
            (x, i) =>
              PC6.test(x) ||
              HOUSE.test(x) ||
              (x.length === 1 && i > 0) ||
              (x.length === 2 && /^[a-z]{2}$/.test(x) && i > 0 && /^\d{4}$/.test(between[i - 1])),
          );
          if (!ok) continue;
          let houseNumber: string | null = null;
          const first = between[0];
          if (first !== undefined && HOUSE.test(first) && !(first.length === 4 && street.pc4.has(first))) {
            const next = between[1];
            houseNumber = first + (next !== undefined && /^[a-z]$/.test(next) ? next : "");
          }
          found.push({ town, street, houseNumber, order: "street-town" });
          break;
        }
        // The town, then the street at the end of the page (police: "prio 1 groningen osloweg").
        const after = streetStartingAt(town, toks, t + len);
        if (after && (after.end === toks.length || HOUSE.test(toks[after.end]))) {
          const next = toks[after.end];
          found.push({
            town,
            street: after.street,
            houseNumber: next !== undefined ? next : null,
            order: "town-street",
          });
        }
      }
    }
  }
  return found;
}

type Entry = {
  message: string;
  sended: string | null;
  province: string;
  town: string;
  street: string;
  houseNumber: string | null;
  latitude: number;
  longitude: number;
  addressLatitude: number | null;
  addressLongitude: number | null;
  source: string;
};

const round = (x: number) => Math.round(x * 1e6) / 1e6;

function label(register: Register, page: Page): { entry: Entry } | { reason: string } {
  const allowed = allowedProvinces(page);
  if (allowed !== null && allowed.size === 0) return { reason: "region elsewhere" };
  let found = matches(register, tokens(page.text));
  if (allowed !== null) found = found.filter((m) => allowed.has(m.town.province));
  if (found.length === 0) return { reason: "no street and town" };
  const streetFirst = found.filter((m) => m.order === "street-town");
  if (streetFirst.length > 0) found = streetFirst;
  const distinct = new Map(found.map((m) => [`${m.town.name}|${m.town.province}|${m.street.name}`, m]));
  if (distinct.size > 1) return { reason: "ambiguous" };
  const match = [...distinct.values()][0];
  // The same street in two places of one name (Nes on Ameland and Nes by Heerenveen).
  const parts = [...match.street.byMunicipality.values()].map(mean);
  for (let i = 0; i < parts.length; i++)
    for (let j = i + 1; j < parts.length; j++)
      if (metres(parts[i].lat, parts[i].lon, parts[j].lat, parts[j].lon) > 1500) return { reason: "ambiguous" };
  const centroid = streetCentroid(match.street);
  const number = match.houseNumber === null ? undefined : match.street.numbers.get(match.houseNumber);
  const point = number ? mean(number) : null;
  return {
    entry: {
      message: page.text,
      sended: page.sended,
      province: match.town.province,
      town: match.town.name,
      street: match.street.name,
      houseNumber: match.houseNumber,
      latitude: round(centroid.lat),
      longitude: round(centroid.lon),
      addressLatitude: point ? round(point.lat) : null,
      addressLongitude: point ? round(point.lon) : null,
      source: page.source,
    },
  };
}

// ---- Run -----------------------------------------------------------------------------------------

const started = performance.now();
const bagDir = path.resolve(values.bag ?? DEFAULT_BAG_DIR);
const register = await loadRegister(bagDir);
let streetCount = 0;
for (const list of register.towns.values()) for (const town of list) streetCount += town.streets.size;
log(
  `Register: ${register.addresses} addresses, ${register.towns.size} town names, ${streetCount} streets ` +
    `(${((performance.now() - started) / 1000).toFixed(1)} s)`,
);

const reasons = new Map<string, number>();
const count = (reason: string) => reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
const seen = new Set<string>();
const labelled: Entry[] = [];
let pages = 0;
for (const target of positionals) {
  for (const file of walk(path.resolve(target))) {
    const label_ = path.relative(path.resolve(target, fs.statSync(target).isFile() ? ".." : "."), file);
    const kindOf = kind(file);
    const reader =
      kindOf === "json" ? readJson : kindOf === "jsonl" ? readJsonLines : kindOf === "csv" ? readCsv : readText;
    for await (const page of reader(file, label_)) {
      pages++;
      const text = page.text.replace(/\s+/g, " ").trim();
      if (!text) continue;
      if (YEAR !== null && (page.sended === null || Number(page.sended.slice(0, 4)) !== YEAR)) {
        count(page.sended === null ? "no time" : "other year");
        continue;
      }
      const dedupe = text.toLowerCase();
      if (seen.has(dedupe)) {
        count("duplicate text");
        continue;
      }
      seen.add(dedupe);
      const result = label(register, { ...page, text });
      if ("reason" in result) count(result.reason);
      else labelled.push(result.entry);
    }
  }
}
log(`Read ${pages} pages; labelled ${labelled.length}; left out: ${JSON.stringify(Object.fromEntries(reasons))}`);

// At most PER_STREET pages per street (the hospital entrance must not fill the set), then an even
// spread over the provinces and over time up to MAX.
labelled.sort((a, b) => (a.sended ?? "").localeCompare(b.sended ?? ""));
const perStreet = new Map<string, number>();
const capped = labelled.filter((e) => {
  const key = `${e.province}|${e.town}|${e.street}`;
  const n = (perStreet.get(key) ?? 0) + 1;
  perStreet.set(key, n);
  return n <= PER_STREET;
});
const byProvince = new Map<string, Entry[]>(PROVINCES.map((p) => [p, []]));
for (const e of capped) byProvince.get(e.province)?.push(e);
const quota = new Map<string, number>();
let left = Math.min(MAX, capped.length);
let open_ = PROVINCES.filter((p) => (byProvince.get(p) ?? []).length > 0);
for (const p of PROVINCES) quota.set(p, 0);
while (left > 0 && open_.length > 0) {
  const share = Math.max(1, Math.floor(left / open_.length));
  for (const p of open_) {
    const room = (byProvince.get(p) ?? []).length - (quota.get(p) ?? 0);
    const take = Math.min(share, room, left);
    quota.set(p, (quota.get(p) ?? 0) + take);
    left -= take;
  }
  open_ = open_.filter((p) => (quota.get(p) ?? 0) < (byProvince.get(p) ?? []).length);
}
const chosen: Entry[] = [];
for (const p of PROVINCES) {
  const list = byProvince.get(p) ?? [];
  const n = quota.get(p) ?? 0;
  for (let i = 0; i < n; i++) chosen.push(list[Math.floor((i * list.length) / n)]);
}
chosen.sort((a, b) => (a.sended ?? "").localeCompare(b.sended ?? "") || a.message.localeCompare(b.message));

const perProvince: Record<string, { pages: number; towns: number; streets: number; withAddressPoint: number }> = {};
for (const p of PROVINCES) {
  const list = chosen.filter((e) => e.province === p);
  perProvince[p] = {
    pages: list.length,
    towns: new Set(list.map((e) => e.town)).size,
    streets: new Set(list.map((e) => `${e.town}|${e.street}`)).size,
    withAddressPoint: list.filter((e) => e.addressLatitude !== null).length,
  };
}
const spread = chosen
  .filter((e) => e.addressLatitude !== null)
  .map((e) => metres(e.latitude, e.longitude, e.addressLatitude as number, e.addressLongitude as number));

const inferredRepo = /\/\.mirror\/([^/+]+)\+([^/]+)/.exec(path.resolve(positionals[0]));
const about = {
  description:
    "Real P2000 pages that name a street and a town in Groningen, Friesland, Drenthe, Flevoland or Zeeland, " +
    "each with the true position of the street: the mean of the street's address points in that woonplaats " +
    "in the BAG address register (and, when the page gives a house number the register has, that number's point).",
  source: {
    repository: values.repo ?? (inferredRepo ? `${inferredRepo[1]}/${inferredRepo[2]}` : null),
    commit: values.commit ?? null,
    licence: values.licence ?? null,
    licenceNote: values["licence-note"] ?? null,
    files: positionals.map((p) => path.basename(p)),
    year: YEAR,
  },
  register: {
    what: "BAG (Basisregistratie Adressen en Gebouwen), five provinces, via ../shared/data/bag-addresses",
    origin: "LJPc-solutions/Nederlandse-adressen-en-postcodes snapshot c452667 (data of 2026-06-20)",
    licence: "CC0-1.0",
  },
  labels:
    "Built by bench/address-truth/build.ts, independent of the service's enrichment: a page is kept when its " +
    "text holds a register woonplaats with, directly before it (house number or postcode may sit between), a " +
    "street the register has in that woonplaats, compared without case, accents, spaces and punctuation and with " +
    "abbreviations written out (Burg., v., Dr., St., Mr., …str, …ln, …wg); police pages naming the town first " +
    "take the street right after it. Ambiguous pages (two candidates, a name in two places, a region or " +
    "talkgroup of elsewhere) are left out; identical texts count once; at most " +
    `${PER_STREET} pages per street; spread over provinces and time up to ${MAX}. Times are UTC ` +
    `(archive wall-clock times read as ${TIME_ZONE}).`,
  built: new Date().toISOString(),
  counts: { pages: chosen.length, labelled: labelled.length, read: pages, perProvince },
};
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, JSON.stringify({ _about: about, pages: chosen }, null, 1) + "\n");

log(`Wrote ${chosen.length} pages to ${OUT}`);
log("| province | pages | towns | streets | with address point |");
log("| --- | ---: | ---: | ---: | ---: |");
for (const p of PROVINCES) {
  const c = perProvince[p];
  log(`| ${p} | ${c.pages} | ${c.towns} | ${c.streets} | ${c.withAddressPoint} |`);
}
if (spread.length > 0)
  log(`Address point to street centroid: median ${median(spread).toFixed(0)} m over ${spread.length} pages`);
if (chosen.length < 1000) log(`Fewer than 1,000 pages (${chosen.length}): widen the archive or the year (--year any).`);
