// The boundary files in data/ (GeoJSON FeatureCollections; sources in data/GEO-SOURCES.md): the
// twelve provinces (nlProvinces, nlProvincesGeoJson), the 25 safety regions (which regions an
// NL-Alert covers), and every area a monitor can name (query.areas: gemeenten, woonplaatsen, PC4
// postcode areas, and the provinces and safety regions again, with their holes). Loaded on start
// when a file's digest is not the one its loads last stored (app_hidden.geo_data_versions), so an
// ordinary start reads each file once to hash it and sends the database nothing.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";

/**
 * Each file and what is loaded from it: the version name the load keeps in
 * app_hidden.geo_data_versions, and its SQL, given the file's text ($1) and its digest ($2).
 */
const BOUNDARY_FILES = [
  {
    file: "nl-provinces.geojson",
    loads: [
      { version: "nl-provinces", sql: "app_private.load_nl_province_boundaries($1::jsonb -> 'features', $2)" },
      { version: "areas:province", sql: "app_private.load_named_areas($1::jsonb -> 'features', $2, 'province')" },
    ],
  },
  {
    file: "safety-regions.geojson",
    loads: [
      { version: "safety-regions", sql: "app_private.load_safety_region_areas($1::jsonb -> 'features', $2)" },
      { version: "areas:region", sql: "app_private.load_named_areas($1::jsonb -> 'features', $2, 'region')" },
    ],
  },
  {
    file: "municipalities.geojson",
    loads: [
      { version: "areas:gemeente", sql: "app_private.load_named_areas($1::jsonb -> 'features', $2, 'gemeente')" },
    ],
  },
  {
    file: "woonplaats-areas.geojson",
    loads: [
      { version: "areas:woonplaats", sql: "app_private.load_named_areas($1::jsonb -> 'features', $2, 'woonplaats')" },
    ],
  },
  {
    file: "pc4-areas.geojson",
    loads: [
      { version: "areas:postcode", sql: "app_private.load_named_areas($1::jsonb -> 'features', $2, 'postcode')" },
    ],
  },
] as const;

export async function loadBoundaries(db: pg.Pool | pg.ClientBase, dataDir: string): Promise<number> {
  const { rows } = await db.query<{ name: string; digest: string }>(
    "select name, digest from app_hidden.geo_data_versions",
  );
  const stored = new Map(rows.map((row) => [row.name, row.digest]));
  let loaded = 0;
  for (const { file, loads } of BOUNDARY_FILES) {
    const text = fs.readFileSync(path.join(dataDir, file), "utf8");
    const digest = createHash("sha256").update(text).digest("hex");
    for (const { version, sql } of loads) {
      if (stored.get(version) === digest) continue;
      const {
        rows: [{ count }],
      } = await db.query<{ count: number }>(`select ${sql} as count`, [text, digest]);
      loaded += count;
    }
  }
  return loaded;
}
