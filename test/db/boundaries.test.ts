// The boundary files are loaded on every start (lib/places/boundaries.ts), but an unchanged file is
// only hashed: the database already holds its version, so nothing is sent. A changed file is loaded
// again, for each kind it feeds, and the monitors naming such an area get their criteria anew.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "@jest/globals";
import pg from "pg";
import { ROOT_DIR } from "../../lib/paths.ts";
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

test("a changed file makes the criteria of the feed monitors naming such an area again, and the areas NL-Alerts meet", async () => {
  // An accident monitor of the Vondelpark's postcode area, and an NL-Alert over the park.
  const {
    rows: [{ uuid: monitorUuid }],
  } = await ctx.db.asOwner(`
    with o as (insert into app_public.organizations (name) values ('Acme') returning uuid),
         e as (insert into app_public.environments (organization_uuid, name) select uuid, 'production' from o returning uuid)
    insert into app_public.monitors (environment_uuid, name, type, query)
    select uuid, 'Vondelpark', 'accident', '{"areas": [{"type": "postcode", "code": "1071", "name": "1071"}]}' from e
    returning uuid`);
  await ctx.db.asOwner("select app_private.ingest_nl_alerts($1, 'test')", [
    JSON.stringify([
      {
        alert_id: "nl-vondelpark",
        message: "Test",
        start_at: new Date().toISOString(),
        area_texts: ["52.357,4.868 52.357,4.869 52.358,4.869"],
        areas: ["((4.868,52.357),(4.869,52.357),(4.869,52.358))"],
      },
    ]),
  ]);
  const state = async () =>
    (
      await ctx.db.asOwner(
        `select (select (c.areas).bounds is not null from app_hidden.traffic_monitor_criteria c where c.monitor_uuid = $1) as bounded,
                (select array(select k from unnest(a.area_keys) k where k like 'postcode:%')
                   from app_public.nl_alerts a where a.alert_id = 'nl-vondelpark') as postcodes`,
        [monitorUuid],
      )
    ).rows[0];
  expect(await state()).toEqual({ bounded: true, postcodes: ["postcode:1071"] });

  // The postcode areas without 1071: the monitor's area has no outline, the alert meets no postcode area.
  const pool = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: 1 });
  const fewer = fs.mkdtempSync(path.join(os.tmpdir(), "boundaries-"));
  try {
    for (const file of fs.readdirSync(DATA).filter((name) => name.endsWith(".geojson")))
      fs.copyFileSync(path.join(DATA, file), path.join(fewer, file));
    const collection = JSON.parse(fs.readFileSync(path.join(DATA, "pc4-areas.geojson"), "utf8"));
    collection.features = collection.features.filter(
      (f: { properties: { code: string } }) => f.properties.code !== "1071",
    );
    fs.writeFileSync(path.join(fewer, "pc4-areas.geojson"), JSON.stringify(collection));
    expect(await loadBoundaries(pool, fewer)).toBeGreaterThan(4000);
    expect(await state()).toEqual({ bounded: false, postcodes: [] });
    await loadBoundaries(pool, DATA);
    expect(await state()).toEqual({ bounded: true, postcodes: ["postcode:1071"] });
  } finally {
    await pool.end();
    fs.rmSync(fewer, { recursive: true, force: true });
  }
});
