// The boundary files in data/ (GeoJSON FeatureCollections; sources in data/GEO-SOURCES.md): the
// twelve provinces (nlProvinces, nlProvincesGeoJson), the 25 safety regions (which regions an
// NL-Alert covers), and every area a monitor can name (query.areas: gemeenten, woonplaatsen, PC4
// postcode areas, and the provinces and safety regions again, with their holes). Loaded on every
// start, and skipped by the database when the file's digest is the one already loaded.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";

/** Each file with the SQL that loads its features ($1) of that digest ($2). */
const BOUNDARY_FILES = [
  { file: "nl-provinces.geojson", load: "app_private.load_nl_province_boundaries($1::jsonb, $2)" },
  { file: "safety-regions.geojson", load: "app_private.load_safety_region_areas($1::jsonb, $2)" },
  { file: "municipalities.geojson", load: "app_private.load_named_areas($1::jsonb, $2, 'gemeente')" },
  { file: "woonplaats-areas.geojson", load: "app_private.load_named_areas($1::jsonb, $2, 'woonplaats')" },
  { file: "pc4-areas.geojson", load: "app_private.load_named_areas($1::jsonb, $2, 'postcode')" },
  { file: "nl-provinces.geojson", load: "app_private.load_named_areas($1::jsonb, $2, 'province')" },
  { file: "safety-regions.geojson", load: "app_private.load_named_areas($1::jsonb, $2, 'region')" },
] as const;

export async function loadBoundaries(db: pg.Pool | pg.ClientBase, dataDir: string): Promise<number> {
  let loaded = 0;
  for (const { file, load } of BOUNDARY_FILES) {
    const text = fs.readFileSync(path.join(dataDir, file), "utf8");
    const digest = createHash("sha256").update(text).digest("hex");
    const features = (JSON.parse(text) as { features: unknown[] }).features;
    const {
      rows: [{ count }],
    } = await db.query<{ count: number }>(`select ${load} as count`, [JSON.stringify(features), digest]);
    loaded += count;
  }
  return loaded;
}
