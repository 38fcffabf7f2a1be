// Spec 4.3 "Fire brigade" and "Roads and places" over real HTTP, on data imported from fixture
// files in the upstream formats, plus a vehicle learnt from a P2000 message.
import fs from "node:fs";
import { beforeAll, describe, expect, test } from "@jest/globals";
import { importFireBrigade } from "../../lib/fire/fire-brigade-import.ts";
import { importHectometers } from "../../lib/roads/hectometer-import.ts";
import { importPostcodes } from "../../lib/places/postcode-import.ts";
import { fixture } from "../helpers/cli.ts";
import { errorOf, useTestService } from "../helpers/service.ts";

const ctx = useTestService();
let token: string;
const quiet = { log: () => {} };

beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
  const pool = ctx.service.ownerPool;
  await importFireBrigade(pool, fs.createReadStream(fixture("fire-stations.csv")), "csv", quiet);
  await importFireBrigade(pool, fs.createReadStream(fixture("fire-vehicles.csv")), "csv", quiet);
  await importHectometers(pool, fs.createReadStream(fixture("nwb-hectopunten.geojson")), "geojson", quiet);
  await importPostcodes(pool, fs.createReadStream(fixture("postcodes-pc6.csv")), quiet);
  await importPostcodes(pool, fs.createReadStream(fixture("postcodes-pc4.csv")), quiet);
});

async function ok(query: string, variables: Record<string, unknown> = {}) {
  const { body, status } = await ctx.service.graphql(query, { token, variables });
  expect(body.errors).toBeUndefined();
  expect(status).toBe(200);
  return body.data;
}
async function failure(query: string, variables: Record<string, unknown> = {}) {
  return errorOf((await ctx.service.graphql(query, { token, variables })).body);
}

const VEHICLE = "uuid name nameFormat number station type materialFunction status region { name slug }";

describe("fire brigade", () => {
  test("fireStation by slug, name or uuid; fireStations and their count filter by search and region", async () => {
    const { fireStation } = await ok(`{ fireStation(slug: "rotterdam-baan") {
      uuid name slug city street houseNumber zipCode latitude longitude region { name slug } vehicles { name } } }`);
    expect(fireStation).toMatchObject({
      name: "Kazerne Baan",
      slug: "rotterdam-baan",
      city: "Rotterdam",
      street: "Baan",
      houseNumber: "4",
      zipCode: "3011CD",
      region: { name: "Rotterdam-Rijnmond", slug: "rotterdam-rijnmond" },
    });
    expect(fireStation.vehicles.map((v: { name: string }) => v.name).sort()).toEqual(["173131", "173151"]);
    expect((await ok(`{ fireStation(slug: "Kazerne Baan") { slug } }`)).fireStation.slug).toBe("rotterdam-baan");
    expect(
      (await ok("query ($u: String!) { fireStation(slug: $u) { slug } }", { u: fireStation.uuid })).fireStation.slug,
    ).toBe("rotterdam-baan");
    expect((await ok(`{ fireStation(slug: "nowhere") { slug } }`)).fireStation).toBeNull();
    const list =
      await ok(`{ fireStations(filter: { search: "kazerne", region: "17" }) { slug } fireStationsCount(filter: { search: "kazerne", region: "17" })
      all: fireStationsCount schiedam: fireStations(filter: { search: "schiedam" }) { slug } }`);
    expect(list.fireStations.map((s: { slug: string }) => s.slug)).toEqual(["rotterdam-baan", "schiedam-marconiplein"]);
    expect(list.fireStationsCount).toBe(2);
    expect(list.all).toBe(2);
    expect(list.schiedam).toEqual([{ slug: "schiedam-marconiplein" }]);
    // Case-insensitive, and an empty search is no filter (README: filter.search).
    const cases =
      await ok(`{ upper: fireStationsCount(filter: { search: "KAZERNE", region: "17" }) mixed: fireStations(filter: { search: "Kazerne" }) { slug }
      empty: fireStationsCount(filter: { search: "" }) blank: fireStationsCount(filter: { search: "  " }) }`);
    expect(cases).toEqual({ upper: 2, mixed: list.fireStations, empty: 2, blank: 2 });
  });

  test("fireVehicle finds a call number with or without hyphen", async () => {
    const { a, b } = await ok(
      `{ a: fireVehicle(number: "17-3151") { ${VEHICLE} } b: fireVehicle(number: "173151") { uuid } }`,
    );
    expect(a).toMatchObject({
      name: "173151",
      nameFormat: "17-3151",
      number: "3151",
      station: "Kazerne Baan",
      type: "AL/HW",
      materialFunction: "Autoladder",
      status: "active",
      region: { name: "Rotterdam-Rijnmond", slug: "rotterdam-rijnmond" },
    });
    expect(b.uuid).toBe(a.uuid);
    expect((await ok(`{ fireVehicle(number: "nonsense") { uuid } }`)).fireVehicle).toBeNull();
  });

  test("a call number in a P2000 message registers the vehicle, and the vehicle filter finds the message", async () => {
    expect((await ok(`{ fireVehicle(number: "17-3191") { uuid } }`)).fireVehicle).toBeNull();
    const {
      rows: [message],
    } = await ctx.db.asOwner(
      "select app_private.ingest_p2000_message('P 1 BRT-01 BR woning Kerkstraat Rotterdam 173191 172231', now() - interval '2 hours', array['001400101'], 'test') as uuid",
    );
    const { learnt, same, p2000Messages } =
      await ok(`{ learnt: fireVehicle(number: "17-3191") { ${VEHICLE} } same: fireVehicle(number: "173191") { uuid }
      p2000Messages(filter: { vehicle: { number: "17-2231" } }) { uuid } }`);
    expect(learnt).toMatchObject({
      name: "173191",
      nameFormat: "17-3191",
      station: "Kazerne Baan",
      type: "OvD",
      status: "active",
      region: { slug: "rotterdam-rijnmond" },
    });
    expect(same.uuid).toBe(learnt.uuid);
    expect(p2000Messages).toEqual([{ uuid: message.uuid }]);
    const { fireVehicle } = await ok(`{ fireVehicle(number: "17-2231") { station type region { slug } } }`);
    expect(fireVehicle).toEqual({ station: null, type: "TS", region: { slug: "rotterdam-rijnmond" } });
  });

  test("fireVehicles and their count filter by search, region and station", async () => {
    const data =
      await ok(`{ atBaan: fireVehicles(filter: { station: "rotterdam-baan" }) { name } atBaanCount: fireVehiclesCount(filter: { station: "rotterdam-baan" })
      search: fireVehicles(filter: { search: "17-36" }) { name } hulp: fireVehicles(filter: { search: "hulpverlening" }) { name }
      region15: fireVehicles(filter: { region: "15" }) { name } page: fireVehicles(first: 1, page: 2) { name } }`);
    expect(data.atBaan.map((v: { name: string }) => v.name)).toEqual(["173131", "173151", "173191"]);
    expect(data.atBaanCount).toBe(3);
    expect(data.search).toEqual([{ name: "173671" }]);
    expect(data.hulp).toEqual([{ name: "173671" }]);
    expect(data.region15).toEqual([]);
    expect(data.page).toEqual([{ name: "173131" }]); // 172231, learnt above, comes first
  });
});

describe("roads and hectometre posts", () => {
  test("road, roads, roadsGroupedByPrefix and searchRoads", async () => {
    const data = await ok(`{ road(road: { name: "a 12" }) { uuid name prefix number markerCount }
      roads { name } withPosts: roads(filter: { withMarkerCount: true, prefix: "a" }) { name }
      roadsGroupedByPrefix { A { name } N { name } S { name } R { name } }
      searchRoads(search: "a1") { name } byNumber: searchRoads(search: "59") { name } }`);
    expect(data.road).toMatchObject({ name: "A12", prefix: "A", number: 12, markerCount: 13 });
    expect(data.roads.map((r: { name: string }) => r.name)).toEqual(["A2", "A12", "N59"]);
    expect(data.withPosts.map((r: { name: string }) => r.name)).toEqual(["A2", "A12"]);
    // One object with the spec's prefixes A, N, S and R.
    expect(data.roadsGroupedByPrefix).toEqual({
      A: [{ name: "A2" }, { name: "A12" }],
      N: [{ name: "N59" }],
      S: [],
      R: [],
    });
    expect(data.searchRoads).toEqual([{ name: "A12" }]);
    expect(data.byNumber).toEqual([{ name: "N59" }]);
    expect(
      (await ok("query ($u: String) { road(road: { uuid: $u }) { name } }", { u: data.road.uuid })).road.name,
    ).toBe("A12");
    expect(await failure(`{ searchRoads(search: " ") { name } }`)).toEqual({
      message: "search needs at least 1 character.",
      code: "BAD_USER_INPUT",
    });
  });

  test("availableHectometers, hectometerMarkers and hectometerMarker", async () => {
    const data = await ok(`{ availableHectometers(road: { name: "A12" })
      hectometerMarkers(filter: { road: { name: "A12" }, hectometer: 45.6, side: "Re" }) { uuid hectometer side letter latitude longitude road { name } }
      unknown: hectometerMarkers(filter: { road: { name: "A99" } }) { uuid } }`);
    expect(data.availableHectometers).toEqual([45.4, 45.5, 45.6, 45.7, 45.8, 45.9]);
    expect(data.hectometerMarkers.map((m: { letter: string | null }) => m.letter)).toEqual([null, "a"]);
    expect(data.hectometerMarkers[0]).toMatchObject({ hectometer: 45.6, side: "Re", road: { name: "A12" } });
    expect(data.unknown).toEqual([]);
    const { hectometerMarker } = await ok(
      "query ($u: String) { hectometerMarker(marker: { uuid: $u }) { hectometer } }",
      { u: data.hectometerMarkers[0].uuid },
    );
    expect(hectometerMarker).toEqual({ hectometer: 45.6 });
    expect(await failure(`{ hectometerMarkers(filter: { side: "up" }) { uuid } }`)).toEqual({
      message: "side must be Li or Re.",
      code: "BAD_USER_INPUT",
    });
  });

  test("hectometerMarkersNearest orders by distance and reports distance_km", async () => {
    const { hectometerMarkersNearest: near } = await ok(
      `{ hectometerMarkersNearest(lat: 51.4708, lon: 5.4401, limit: 2) { hectometer side distance_km road { name } } }`,
    );
    expect(near.map((m: { road: { name: string }; hectometer: number }) => [m.road.name, m.hectometer])).toEqual([
      ["A2", 223.5],
      ["A2", 223.4],
    ]);
    expect(near[0].distance_km).toBeLessThan(0.02);
    expect(near[1].distance_km).toBeGreaterThan(near[0].distance_km);
    expect(
      (await ok(`{ hectometerMarkersNearest(lat: 52.08, lon: 4.91) { uuid } }`)).hectometerMarkersNearest,
    ).toHaveLength(10);
    expect(await failure(`{ hectometerMarkersNearest(lat: 52, lon: 5, limit: 51) { uuid } }`)).toEqual({
      message: "limit must be 1 to 50.",
      code: "BAD_USER_INPUT",
    });
    expect((await ok(`{ hectometerMarkers(first: 1) { distance_km } }`)).hectometerMarkers).toEqual([
      { distance_km: null },
    ]);
  });

  test.each([
    ["A12 Re 45,6", { road: "A12", hectometer: 45.6, side: "Re" }, { hectometer: 45.6, side: "Re" }],
    ["a12 li 45.5", { road: "A12", hectometer: 45.5, side: "Li" }, { hectometer: 45.5, side: "Li" }],
    ["a2 li 223.5", { road: "A2", hectometer: 223.5, side: "Li" }, { hectometer: 223.5, side: "Re" }],
    ["N59 42,3", { road: "N59", hectometer: 42.3, side: null }, { hectometer: 42.3, side: null }],
    ["A4 HRR 31.2", { road: "A4", hectometer: 31.2, side: "Re" }, null],
  ])("parseHectometerSearch(%s)", async (search, parsed, marker) => {
    const { parseHectometerSearch } = await ok(
      "query ($s: String!) { parseHectometerSearch(search: $s) { road hectometer side marker { hectometer side latitude } } }",
      { s: search },
    );
    expect(parseHectometerSearch).toMatchObject(parsed);
    if (marker) expect(parseHectometerSearch.marker).toMatchObject(marker);
    else expect(parseHectometerSearch.marker).toBeNull();
  });

  test("parseHectometerSearch without a road is null", async () => {
    expect((await ok(`{ parseHectometerSearch(search: "somewhere") { road } }`)).parseHectometerSearch).toBeNull();
  });
});

describe("places", () => {
  test("cities: prefix first, P2000 abbreviations, displayName for shared names, too short is an error", async () => {
    const { cities } = await ok(
      `{ cities(search: "rotterd", first: 3) { uuid name displayName province latitude longitude } }`,
    );
    expect(cities[0]).toMatchObject({ name: "Rotterdam", displayName: "Rotterdam", province: "Zuid-Holland" });
    expect((await ok(`{ cities(search: "VLAARD") { name } }`)).cities[0].name).toBe("Vlaardingen");
    expect((await ok(`{ cities(search: "roterdam") { name } }`)).cities[0].name).toBe("Rotterdam"); // fuzzy
    const {
      rows: [shared],
    } = await ctx.db.asOwner(
      "select name from app_public.places group by name having count(*) > 1 order by name limit 1",
    );
    const { cities: twins } = await ok("query ($s: String!) { cities(search: $s) { name displayName } }", {
      s: shared.name,
    });
    const names = twins
      .filter((c: { name: string }) => c.name === shared.name)
      .map((c: { displayName: string }) => c.displayName);
    expect(names.length).toBeGreaterThan(1);
    expect(new Set(names).size).toBe(names.length);
    expect(await failure(`{ cities(search: "r") { name } }`)).toEqual({
      message: "search needs at least 2 characters.",
      code: "BAD_USER_INPUT",
    });
  });

  test("postcodes: 4- and 6-character forms, with or without space", async () => {
    const data = await ok(
      `{ a: postcodes(search: "3011") { postcode city latitude } b: postcodes(search: "3011 t") { postcode } c: postcodes(search: "3011tx") { postcode } }`,
    );
    expect(data.a.map((p: { postcode: string }) => p.postcode)).toEqual(["3011", "3011TA", "3011TX"]);
    expect(data.a[0].city).toBe("Rotterdam");
    expect(data.b.map((p: { postcode: string }) => p.postcode)).toEqual(["3011TA", "3011TX"]);
    expect(data.c).toEqual([{ postcode: "3011TX" }]);
    expect(await failure(`{ postcodes(search: "3") { postcode } }`)).toEqual({
      message: "search needs at least 2 characters.",
      code: "BAD_USER_INPUT",
    });
  });

  test("locationSuggestions: places, postcodes and addresses, prefix matches and bigger places first", async () => {
    const { places, codes, address } =
      await ok(`{ places: locationSuggestions(search: "schie") { kind label latitude longitude }
      codes: locationSuggestions(search: "3111") { kind label detail } address: locationSuggestions(search: "baan 4") { kind label detail } }`);
    expect(places[0]).toMatchObject({ kind: "place", label: "Schiedam" });
    expect(codes.map((s: { label: string }) => s.label)).toEqual(["3111", "3111AB"]);
    expect(codes[0]).toMatchObject({ kind: "postcode", detail: "Schiedam, Schiedam" });
    expect(address[0]).toMatchObject({ kind: "address", label: "Baan 4" });
    expect(
      (await ok(`{ locationSuggestions(search: "ro", first: 25) { label } }`)).locationSuggestions.length,
    ).toBeLessThanOrEqual(20);
  });
});
