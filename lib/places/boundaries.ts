// The boundary files in data/ (GeoJSON FeatureCollections; sources in data/GEO-SOURCES.md): the
// twelve provinces (nlProvinces, nlProvincesGeoJson) and the 25 safety regions (which regions an
// NL-Alert covers). Loaded on every start, and skipped by the database when the file's digest is
// the one already loaded.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";

const BOUNDARY_FILES = [
  { file: "nl-provinces.geojson", loader: "app_private.load_nl_province_boundaries" },
  { file: "safety-regions.geojson", loader: "app_private.load_safety_region_areas" },
] as const;

export async function loadBoundaries(db: pg.Pool | pg.ClientBase, dataDir: string): Promise<number> {
  let loaded = 0;
  for (const { file, loader } of BOUNDARY_FILES) {
    const text = fs.readFileSync(path.join(dataDir, file), "utf8");
    const digest = createHash("sha256").update(text).digest("hex");
    const features = (JSON.parse(text) as { features: unknown[] }).features;
    const {
      rows: [{ count }],
    } = await db.query<{ count: number }>(`select ${loader}($1::jsonb, $2) as count`, [
      JSON.stringify(features),
      digest,
    ]);
    loaded += count;
  }
  return loaded;
}
