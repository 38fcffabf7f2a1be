// What build.ts and score.ts share: the spelling-insensitive key of street and town names, the
// distance between two points, and the address register (BAG) of the five provinces read into a
// street index. Nothing here comes from the service's own enrichment: the truth must not lean on
// the code it measures.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import zlib from "node:zlib";

export const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
export const DEFAULT_BAG_DIR = path.resolve(REPO, "../shared/data/bag-addresses");
export const PROVINCES = ["Groningen", "Friesland", "Drenthe", "Flevoland", "Zeeland"] as const;
/** The safety region (veiligheidsregio) number of each province, as P2000 numbers them. */
export const REGION_NUMBER: Record<string, string> = {
  Groningen: "01",
  Friesland: "02",
  Drenthe: "03",
  Zeeland: "19",
  Flevoland: "25",
};

// Abbreviations pages use, expanded the same way on both sides (the register writes some of them
// too, e.g. "Dr. Nassaulaan", so a page's "Dokter" must meet it as well).
const WORD: Record<string, string[]> = {
  burg: ["burgemeester"],
  burgem: ["burgemeester"],
  v: ["van"],
  vd: ["van", "de"],
  dr: ["dokter"],
  st: ["sint"],
  mr: ["meester"],
  prof: ["professor"],
  ds: ["dominee"],
  jhr: ["jonkheer"],
  gebr: ["gebroeders"],
  mgr: ["monseigneur"],
  ir: ["ingenieur"],
};
const SUFFIX: [RegExp, string][] = [
  [/^(.{2,})str$/, "$1straat"],
  [/^(.{2,})ln$/, "$1laan"],
  [/^(.{2,})wg$/, "$1weg"],
  [/^(.{2,})pln$/, "$1plein"],
];

/** Lower case, accents off, apostrophes dropped, split on everything that is not a letter or digit. */
export function rawTokens(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’`´]/g, "")
    .replace(/v\/d/g, " vd ")
    .split(/[^a-z0-9]+/)
    .filter((token) => token !== "");
}

/** rawTokens with the abbreviations written out: the tokens names are compared by. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const token of rawTokens(text)) {
    const word = WORD[token];
    if (word) {
      out.push(...word);
      continue;
    }
    let expanded = token;
    if (!/^\d/.test(token))
      for (const [pattern, replacement] of SUFFIX) expanded = expanded.replace(pattern, replacement);
    out.push(expanded);
  }
  return out;
}

/** The key two spellings of one name share: its tokens run together ("Burg.v.Roijensingel" = "Burgemeester van Roijensingel"). */
export function nameKey(name: string): string {
  return tokens(name).join("");
}

/** Great-circle distance in metres. */
export function metres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

export type Point = { lat: number; lon: number; n: number };
/** One street of one woonplaats, its address points summed per municipality (a name can cross a border). */
export type Street = {
  name: string;
  byMunicipality: Map<string, { lat: number; lon: number; n: number }>;
  numbers: Map<string, { lat: number; lon: number; n: number }>;
  pc4: Set<string>;
};
export type Town = { name: string; province: string; municipalities: Set<string>; streets: Map<string, Street> };
/** Towns by the key of their name; a name the register has in two provinces keeps both. */
export type Register = { towns: Map<string, Town[]>; addresses: number; files: string[] };

function add(sum: { lat: number; lon: number; n: number }, lat: number, lon: number) {
  sum.lat += lat;
  sum.lon += lon;
  sum.n++;
}

export function mean(sum: { lat: number; lon: number; n: number }): { lat: number; lon: number } {
  return { lat: sum.lat / sum.n, lon: sum.lon / sum.n };
}

/** A street's centroid over all its address points in the town (every municipality part). */
export function streetCentroid(street: Street): { lat: number; lon: number; n: number } {
  const total = { lat: 0, lon: 0, n: 0 };
  for (const part of street.byMunicipality.values()) {
    total.lat += part.lat;
    total.lon += part.lon;
    total.n += part.n;
  }
  return { ...mean(total), n: total.n };
}

/** Reads `<Province>.csv.zst` of the register (header `straat;huisnummer;…;lat;lon`) into a street index. */
export async function loadRegister(dir: string): Promise<Register> {
  const towns = new Map<string, Town[]>();
  const files: string[] = [];
  let addresses = 0;
  for (const province of PROVINCES) {
    const file = path.join(dir, `${province}.csv.zst`);
    if (!fs.existsSync(file)) throw new Error(`No address register at ${file}`);
    files.push(file);
    const lines = readline.createInterface({
      input: fs.createReadStream(file).pipe(zlib.createZstdDecompress()),
      crlfDelay: Infinity,
    });
    let header = true;
    for await (const line of lines) {
      if (header) {
        header = false;
        continue;
      }
      const [straat, huisnummer, huisletter, , postcode, woonplaats, gemeente, provincie, lat, lon] = line.split(";");
      if (!straat || !woonplaats) continue;
      const la = Number(lat);
      const lo = Number(lon);
      if (!Number.isFinite(la) || !Number.isFinite(lo)) continue;
      addresses++;
      const townKey = nameKey(woonplaats);
      let list = towns.get(townKey);
      if (!list) towns.set(townKey, (list = []));
      let town = list.find((t) => t.name === woonplaats && t.province === provincie);
      if (!town)
        list.push((town = { name: woonplaats, province: provincie, municipalities: new Set(), streets: new Map() }));
      town.municipalities.add(gemeente);
      const streetKey = nameKey(straat);
      let street = town.streets.get(streetKey);
      if (!street)
        town.streets.set(
          streetKey,
          (street = { name: straat, byMunicipality: new Map(), numbers: new Map(), pc4: new Set() }),
        );
      let part = street.byMunicipality.get(gemeente);
      if (!part) street.byMunicipality.set(gemeente, (part = { lat: 0, lon: 0, n: 0 }));
      add(part, la, lo);
      for (const number of [huisnummer, huisnummer + (huisletter ?? "").toLowerCase()]) {
        let sum = street.numbers.get(number);
        if (!sum) street.numbers.set(number, (sum = { lat: 0, lon: 0, n: 0 }));
        add(sum, la, lo);
        if (!huisletter) break;
      }
      if (postcode) street.pc4.add(postcode.slice(0, 4));
    }
  }
  return { towns, addresses, files };
}

/** Median of a list of numbers (NaN when empty). */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
