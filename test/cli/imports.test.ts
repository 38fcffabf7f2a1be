// The reference-data importers as operators run them (real processes, progress bar on stderr), on
// small files in the upstream formats: NWB hectopunten (GeoJSON and CSV, RD New), postcode tables
// (PC6 with WGS84, PC4 with RD New), fire station and vehicle lists (CSV and JSON).
import { describe, expect, test } from "@jest/globals";
import { fixture, runCli } from "../helpers/cli.ts";
import { useTestDatabase } from "../helpers/database.ts";

const ctx = useTestDatabase();
const cli = (script: string, file: string) => runCli(script, [fixture(file)], ctx.db.ownerUrl);
const plannerRows = async (table: string) =>
  (await ctx.db.asOwner("select reltuples from pg_class where oid = $1::regclass", [table])).rows[0].reltuples;

describe("npm run import:hectometers", () => {
  test("imports NWB GeoJSON in RD New as WGS84 posts with roads and counts, and again without duplicates", async () => {
    const result = await cli("import-hectometers.ts", "nwb-hectopunten.geojson");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("19 posts read: 19 imported or updated, 0 rejected.");
    expect(result.stderr).toContain("hectometre posts [");
    const { rows: roads } = await ctx.db.asOwner("select name, marker_count from app_public.roads order by name");
    expect(roads).toEqual([
      { name: "A12", marker_count: 13 },
      { name: "A2", marker_count: 3 },
      { name: "N59", marker_count: 3 },
    ]);
    const {
      rows: [post],
    } = await ctx.db
      .asOwner(`select h.hectometer, h.side, h.letter, h.latitude, h.longitude from app_public.hectometer_markers h
      join app_public.roads r on r.uuid = h.road_uuid where r.name = 'A12' and h.hectometer = 45.4 and h.side = 'Re'`);
    expect(post.latitude).toBeCloseTo(52.0847, 3);
    expect(post.longitude).toBeCloseTo(4.91, 3);
    expect((await cli("import-hectometers.ts", "nwb-hectopunten.csv")).stdout).toContain(
      "19 posts read: 19 imported or updated, 0 rejected.",
    );
    const {
      rows: [{ n }],
    } = await ctx.db.asOwner("select count(*)::int as n from app_public.hectometer_markers");
    expect(n).toBe(19);
    // Analysed by the importer: the planner knows the posts are there before autovacuum comes by.
    expect(await plannerRows("app_public.hectometer_markers")).toBe(19);
  });

  test("a missing file is a usage error", async () => {
    const result = await runCli("import-hectometers.ts", ["/nonexistent.geojson"], ctx.db.ownerUrl);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: npm run import:hectometers");
  });
});

describe("npm run import:postcodes", () => {
  test("imports PC6 rows with coordinates and PC4 rows in RD New; rejects the rest", async () => {
    const pc6 = await cli("import-postcodes.ts", "postcodes-pc6.csv");
    expect(pc6.stdout).toContain("5 rows: 3 postcodes imported or updated, 2 rejected.");
    const pc4 = await cli("import-postcodes.ts", "postcodes-pc4.csv");
    expect(pc4.stdout).toContain("2 rows: 2 postcodes imported or updated, 0 rejected.");
    const { rows } = await ctx.db.asOwner(
      // (the shipped address index's postcodes of five provinces are there too; these are Zuid-Holland's)
      "select postcode, city, municipality, round(latitude::numeric, 2)::float as lat from app_public.postcodes where postcode like '30%' or postcode like '31%' order by postcode",
    );
    expect(rows).toEqual([
      { postcode: "3011", city: "Rotterdam", municipality: "Rotterdam", lat: 51.92 },
      { postcode: "3011TA", city: "Rotterdam", municipality: "Rotterdam", lat: 51.92 },
      { postcode: "3011TX", city: "Rotterdam", municipality: "Rotterdam", lat: 51.92 },
      { postcode: "3111", city: "Schiedam", municipality: "Schiedam", lat: 51.92 },
      { postcode: "3111AB", city: "Schiedam", municipality: "Schiedam", lat: 51.92 },
    ]);
  });
});

describe("npm run import:fire-brigade", () => {
  test("imports stations, then vehicles that find their station by slug or by region and post", async () => {
    const stations = await cli("import-fire-brigade.ts", "fire-stations.csv");
    expect(stations.stdout).toContain("Stations: 2 imported or updated, 1 rejected.");
    const vehicles = await cli("import-fire-brigade.ts", "fire-vehicles.csv");
    expect(vehicles.stdout).toContain("Vehicles: 3 imported or updated, 1 rejected.");
    const json = await cli("import-fire-brigade.ts", "fire-brigade.json");
    expect(json.stdout).toContain(
      "Stations: 1 imported or updated, 0 rejected. Vehicles: 1 imported or updated, 0 rejected.",
    );
    const { rows } = await ctx.db.asOwner(`select v.name, s.slug, v.status, v.source from app_public.fire_vehicles v
      left join app_public.fire_stations s on s.uuid = v.station_uuid order by v.name`);
    expect(rows).toEqual([
      { name: "154131", slug: "delft-zuid", status: "active", source: "imported" },
      { name: "173131", slug: "rotterdam-baan", status: "active", source: "imported" },
      { name: "173151", slug: "rotterdam-baan", status: "active", source: "imported" },
      { name: "173671", slug: "schiedam-marconiplein", status: "reserve", source: "imported" },
    ]);
  });
});
