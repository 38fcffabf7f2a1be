// The compact address index shipped in data/addresses/: the lookup rows (streets with their house
// numbers and points, postcodes) of the provinces whose register files these machines have, made
// by `npm run build:address-index` from a database they were imported into. On every start the
// provinces it covers that no import has filled are loaded from it (lib/setup/installation.ts), so
// a fresh install places pages at their street there; an operator's `npm run import:addresses`
// replaces a province, and the index is not loaded over it again.
//
// Files (tab-separated, COPY's text format, Zstandard):
// - streets.tsv.zst: one row per street of a woonplaats, its house numbers and their points as
//   arrays (6 decimals: 0.1 m);
// - postcodes.tsv.zst: PC6 and PC4 with centroid and extent;
// - manifest.json: the provinces covered, the register's date and source.
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import type pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { ROOT_DIR } from "../paths.ts";
import { vacuumAddressTables } from "./import.ts";

export const SHIPPED_INDEX_DIR = path.join(ROOT_DIR, "data", "addresses");

export interface ShippedIndexManifest {
  provinces: string[];
  register: string;
  built: string;
}

const STREET_COLUMNS = [
  "province",
  "municipality",
  "woonplaats",
  "name",
  "street_key",
  "latitude",
  "longitude",
  "min_latitude",
  "min_longitude",
  "max_latitude",
  "max_longitude",
  "address_count",
  "numbers",
  "latitudes",
  "longitudes",
];
const POSTCODE_COLUMNS = [
  "postcode",
  "province",
  "woonplaats",
  "municipality",
  "latitude",
  "longitude",
  "min_latitude",
  "min_longitude",
  "max_latitude",
  "max_longitude",
  "address_count",
  "source",
];

export function readManifest(dir = SHIPPED_INDEX_DIR): ShippedIndexManifest | null {
  const file = path.join(dir, "manifest.json");
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as ShippedIndexManifest) : null;
}

/** The rows of a COPY text stream whose column `index` is one of `keep`, as they come. */
async function* rowsOf(file: string, index: number, keep: Set<string>): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of fs.createReadStream(file).pipe(zlib.createZstdDecompress())) {
    const lines = (rest + (chunk as Buffer).toString("utf8")).split("\n");
    rest = lines.pop() ?? "";
    const kept = lines.filter((line) => keep.has(line.split("\t", index + 1)[index]));
    if (kept.length > 0) yield kept.join("\n") + "\n";
  }
  if (rest && keep.has(rest.split("\t", index + 1)[index])) yield rest + "\n";
}

async function copyRows(client: pg.ClientBase, sql: string, rows: AsyncIterable<string>): Promise<void> {
  const copy = client.query(copyFrom(sql));
  await pipeline(rows, copy);
}

/**
 * Loads the shipped provinces that have no address rows yet, in one transaction. Returns the
 * provinces loaded (none when all are there: a restart reads only the manifest).
 */
export async function loadShippedAddresses(client: pg.ClientBase, dir = SHIPPED_INDEX_DIR): Promise<string[]> {
  const manifest = readManifest(dir);
  if (!manifest) return [];
  const { rows } = await client.query<{ province: string }>(
    "select distinct province from app_hidden.address_streets where province = any ($1)",
    [manifest.provinces],
  );
  const present = new Set(rows.map((r) => r.province));
  const missing = manifest.provinces.filter((p) => !present.has(p));
  if (missing.length === 0) return [];
  const keep = new Set(missing);
  await client.query("begin");
  try {
    await client.query(
      `create temporary table shipped_address_streets on commit drop as
         select ${STREET_COLUMNS.slice(0, 12).join(", ")}, n.numbers, n.latitudes, n.longitudes
           from app_hidden.address_streets s, app_hidden.address_numbers n with no data`,
    );
    await copyRows(
      client,
      `copy pg_temp.shipped_address_streets (${STREET_COLUMNS.join(", ")}) from stdin`,
      rowsOf(path.join(dir, "streets.tsv.zst"), 0, keep),
    );
    await client.query("delete from app_hidden.address_postcodes where province = any ($1)", [missing]);
    await copyRows(
      client,
      `copy app_hidden.address_postcodes (${POSTCODE_COLUMNS.join(", ")}) from stdin`,
      rowsOf(path.join(dir, "postcodes.tsv.zst"), 1, keep),
    );
    await client.query("select app_private.store_shipped_addresses($1)", [missing]);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback");
    throw error;
  }
  await vacuumAddressTables(client);
  return missing;
}

async function copyOut(client: pg.ClientBase, sql: string, file: string): Promise<void> {
  const source = client.query(copyTo(sql));
  const compress = zlib.createZstdCompress({ params: { [zlib.constants.ZSTD_c_compressionLevel]: 19 } });
  await pipeline(source, compress, fs.createWriteStream(file));
}

/** Writes the index of the given provinces (as imported into the database) to `dir`. */
export async function buildShippedIndex(
  client: pg.ClientBase,
  provinces: string[],
  register: string,
  dir = SHIPPED_INDEX_DIR,
): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const list = provinces.map((p) => `'${p.replace(/'/g, "''")}'`).join(", ");
  // Points to 6 decimals (0.1 m) in the arrays: the register's own precision is a metre or so.
  await copyOut(
    client,
    `copy (select ${STREET_COLUMNS.slice(0, 12)
      .map((c) => `s.${c}`)
      .join(", ")}, n.numbers,
                  array(select round(x::numeric, 6) from unnest(n.latitudes) x),
                  array(select round(x::numeric, 6) from unnest(n.longitudes) x)
             from app_hidden.address_streets s join app_hidden.address_numbers n on n.street_id = s.id
            where s.province in (${list})
            order by s.province, s.municipality, s.woonplaats, s.street_key) to stdout`,
    path.join(dir, "streets.tsv.zst"),
  );
  await copyOut(
    client,
    `copy (select ${POSTCODE_COLUMNS.filter((c) => c !== "source").join(", ")}, 'shipped'
             from app_hidden.address_postcodes where province in (${list}) order by province, postcode) to stdout`,
    path.join(dir, "postcodes.tsv.zst"),
  );
  const manifest: ShippedIndexManifest = {
    provinces: [...provinces].sort(),
    register,
    built: new Date().toISOString(),
  };
  fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
}
