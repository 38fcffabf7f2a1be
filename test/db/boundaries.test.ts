// The boundary files are loaded on every start (lib/places/boundaries.ts), but an unchanged file is
// only hashed: the database already holds its version, so nothing is sent. A changed file is loaded
// again, for each kind it feeds, and the monitors naming such an area get their criteria anew.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "@jest/globals";
import pg from "pg";
import { ROOT_DIR } from "../../lib/db/migrate.ts";
import { loadBoundaries } from "../../lib/places/boundaries.ts";
import { useTestDatabase } from "../helpers/database.ts";

const ctx = useTestDatabase();
const DATA = path.join(ROOT_DIR, "data");
const copy = fs.mkdtempSync(path.join(os.tmpdir(), "boundaries-"));
afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

const postcodeAreas = async () =>
  (
    await ctx.db.asOwner<{ n: number }>(
      "select count(distinct code)::int as n from app_public.named_areas where kind = 'postcode'",
    )
  ).rows[0].n;

test("an unchanged file loads nothing; a changed one is loaded again, and the original after it", async () => {
  const pool = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: 1 });
  try {
    expect(await loadBoundaries(pool, DATA)).toBe(0);
    const all = await postcodeAreas();
    expect(all).toBeGreaterThan(4000);

    // The same files, but the postcode areas only the first two.
    for (const file of fs.readdirSync(DATA).filter((name) => name.endsWith(".geojson")))
      fs.copyFileSync(path.join(DATA, file), path.join(copy, file));
    const collection = JSON.parse(fs.readFileSync(path.join(DATA, "pc4-areas.geojson"), "utf8"));
    collection.features = collection.features.slice(0, 2);
    fs.writeFileSync(path.join(copy, "pc4-areas.geojson"), JSON.stringify(collection));
    expect(await loadBoundaries(pool, copy)).toBe(2);
    expect(await postcodeAreas()).toBe(2);

    expect(await loadBoundaries(pool, DATA)).toBe(all);
    expect(await postcodeAreas()).toBe(all);
    expect(await loadBoundaries(pool, DATA)).toBe(0);
  } finally {
    await pool.end();
  }
});
