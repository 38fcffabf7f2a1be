// A monitor's places (issue 45): query.areas holds circles, drawn polygons and named areas
// (gemeente, woonplaats, PC4 postcode area, province, safety region from data/*.geojson), and a
// page matches when its position lies in any of them. The border tests place pages a few tens of
// metres either side of a gemeente's boundary and of a polygon's edges, and in a gemeente's holes
// (Baarle-Nassau's Belgian enclaves), and expect exactly the pages inside, as a point-in-polygon
// test written here on the GeoJSON file itself says. Pages are stored with their position (an
// importer's enrichment), matched by the service's own worker, and read back through
// p2000Messages(filter: { monitor }); monitorPreview agrees.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { acrossEdges, feature, inFeature, inRing, type Ring } from "../helpers/areas.ts";
import { graphqlCalls, monitorMatches } from "../helpers/graphql-calls.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

const ctx = useTestService();
let ada: TestUser;

const { gql, ok } = graphqlCalls(ctx);
const matches = (monitorUuid: string) => monitorMatches(ok, ada.apiToken, monitorUuid);

async function createMonitor(name: string, query: Record<string, unknown>): Promise<{ uuid: string; query: string }> {
  const { createMonitor } = await ok(
    "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid query } }",
    ada.accessToken,
    { i: { name, query: JSON.stringify(query) } },
  );
  return createMonitor;
}

async function refusal(query: Record<string, unknown>) {
  const body = await gql("mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }", ada.accessToken, {
    i: { name: "refused", query: JSON.stringify(query) },
  });
  return errorOf(body);
}

let pageNumber = 0;
/** A live page at a position (of a kind, when given), as an importer that placed it stores it. */
async function pageAt([longitude, latitude]: number[], category: string | null = null): Promise<string> {
  pageNumber += 1;
  const text = `P 2 test page ${pageNumber}`;
  const { rows } = await ctx.db.asOwner(
    `insert into app_public.p2000_messages (message, sended, capcode_names, latitude, longitude, normalized_text, category_uuid)
     values ($1, now(), '{1420007}', $2, $3, $1, (select uuid from app_public.p2000_categories where code = $4)) returning uuid`,
    [text, latitude, longitude, category],
  );
  return rows[0].uuid;
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org", { admin: true });
});

describe("areaChoices", () => {
  test("finds gemeenten, woonplaatsen and postcode areas by name or code, exact names first", async () => {
    const { oss, dam, bad } = await ok(
      `{ oss: areaChoices(search: "Oss") { kind code name municipality municipalityName }
         dam: areaChoices(search: "1012", kind: "postcode") { kind code name municipality municipalityName }
         bad: areaChoices(search: "Groningen", kind: "region") { kind code name } }`,
      ada.apiToken,
    );
    expect(oss[0]).toEqual({
      kind: "gemeente",
      code: "GM0828",
      name: "Oss",
      municipality: null,
      municipalityName: null,
    });
    expect(dam).toEqual([
      { kind: "postcode", code: "1012", name: "1012", municipality: "GM0363", municipalityName: "Amsterdam" },
    ]);
    expect(bad).toEqual([{ kind: "region", code: "01", name: "Groningen" }]);
    const refused = await gql('{ areaChoices(search: "Oss", kind: "country") { code } }', ada.apiToken);
    expect(errorOf(refused)).toEqual({
      message: "kind must be gemeente, woonplaats, postcode, province or region.",
      code: "BAD_USER_INPUT",
    });
  });
});

describe("query.areas", () => {
  test.each([
    [{ areas: "Oss" }, /^query\.areas must be a list of areas/],
    [{ areas: [{ type: "country", code: "NL" }] }, /^query\.areas\[0\]: type must be one of circle, polygon/],
    [{ areas: [{ type: "circle", latitude: 48.85, longitude: 2.35, radius: 5 }] }, /in the Netherlands/],
    [{ areas: [{ type: "circle", latitude: 52, longitude: 5, radius: 0 }] }, /radius is in kilometres/],
    [{ areas: [{ type: "gemeente", name: "Amsterdm" }] }, /^query\.areas\[0\]: no gemeente "Amsterdm"/],
    [
      {
        areas: [
          { type: "postcode", code: "1012" },
          {
            type: "polygon",
            coordinates: [
              [
                [4.4, 51.9],
                [4.5, 51.9],
                [4.5, 52.0],
                [4.4, 52.0],
              ],
            ],
          },
        ],
      },
      /^query\.areas\[1\]: a polygon must be closed/,
    ],
    // A figure eight: its edges cross.
    [
      {
        areas: [
          {
            type: "polygon",
            coordinates: [
              [
                [4.4, 51.9],
                [4.5, 52.0],
                [4.5, 51.9],
                [4.4, 52.0],
                [4.4, 51.9],
              ],
            ],
          },
        ],
      },
      /^query\.areas\[0\]: a polygon's edges must not cross or touch each other\.$/,
    ],
    [
      {
        areas: [
          {
            type: "polygon",
            coordinates: [
              [
                [2.0, 51.9],
                [4.5, 51.9],
                [4.5, 52.0],
                [2.0, 51.9],
              ],
            ],
          },
        ],
      },
      /must lie in the Netherlands/,
    ],
    [{ areas: Array.from({ length: 21 }, () => ({ type: "postcode", code: "1012" })) }, /more than 20 areas/],
  ])("refuses %j", async (query, message) => {
    const error = await refusal(query);
    expect(error.code).toBe("BAD_USER_INPUT");
    expect(error.message).toMatch(message);
  });

  test("named areas are stored with their code and name; a safety region also by its slug", async () => {
    const monitor = await createMonitor("Named", {
      areas: [
        { type: "gemeente", name: "amsterdam" },
        { type: "region", code: "rotterdam-rijnmond" },
        { type: "province", code: "zeeland" },
        { type: "postcode", code: "1012" },
      ],
    });
    expect(JSON.parse(monitor.query).areas).toEqual([
      { type: "gemeente", code: "GM0363", name: "Amsterdam" },
      { type: "region", code: "17", name: "Rotterdam-Rijnmond" },
      { type: "province", code: "zeeland", name: "Zeeland" },
      { type: "postcode", code: "1012", name: "1012" },
    ]);
  });

  test("a gemeente monitor matches exactly the pages inside the gemeente: at its border, and not in its holes", async () => {
    // Baarle-Nassau, whose land holds the Belgian enclaves of Baarle-Hertog as holes.
    const baarle = feature("municipalities.geojson", "GM0744");
    const [outer, ...holes] = baarle.geometry.coordinates[0];
    expect(holes.length).toBeGreaterThan(0);
    const monitor = await createMonitor("Baarle-Nassau", { areas: [{ type: "gemeente", code: "GM0744" }] });
    const { rows } = await ctx.db.asOwner(
      "select anchor_keys, area_count from app_hidden.p2000_monitor_criteria where monitor_uuid = $1",
      [monitor.uuid],
    );
    // Found by its area's key, which a page in the gemeente probes with (not by a key every page probes).
    expect(rows[0]).toEqual({ anchor_keys: ["a:gemeente:GM0744"], area_count: 1 });

    const points = [...acrossEdges(outer, 1), ...holes.flatMap((hole) => acrossEdges(hole, 1))];
    expect(points.length).toBeGreaterThan(40);
    const expected: string[] = [];
    const all: string[] = [];
    for (const point of points) {
      const uuid = await pageAt(point);
      all.push(uuid);
      if (inFeature(baarle, point)) expected.push(uuid);
    }
    // Both sides of the border are tried, the holes' insides among them.
    expect(expected.length).toBeGreaterThan(10);
    expect(all.length - expected.length).toBeGreaterThan(10);
    await ctx.service.workerIdle();
    expect(await matches(monitor.uuid)).toEqual(expected.sort());

    const { monitorPreview } = await ok(
      "query ($i: CreateMonitorInput!) { monitorPreview(input: $i, days: 1) { matches } }",
      ada.accessToken,
      { i: { name: "preview", query: JSON.stringify({ areas: [{ type: "gemeente", code: "GM0744" }] }) } },
    );
    expect(monitorPreview.matches).toBe(expected.length);
  });

  test("home and work: two circles in one monitor; a drawn polygon at its edges", async () => {
    const home = { latitude: 51.9225, longitude: 4.4792 };
    const work = { latitude: 52.0907, longitude: 5.1214 };
    const both = await createMonitor("Home and work", {
      areas: [
        { type: "circle", ...home, radius: 1 },
        { type: "circle", ...work, radius: 1 },
      ],
    });
    const harbour: Ring = [
      [4.26, 51.94],
      [4.32, 51.93],
      [4.35, 51.96],
      [4.3, 51.975],
      [4.26, 51.94],
    ];
    const drawn = await createMonitor("Harbour", { areas: [{ type: "polygon", coordinates: [harbour] }] });

    const atHome = await pageAt([home.longitude + 0.005, home.latitude]);
    const atWork = await pageAt([work.longitude, work.latitude - 0.008]);
    const between = await pageAt([4.8, 52.0]);
    // 1.01 km and 0.99 km from home, due north (1 km is 0.008993° of latitude).
    const justOutside = await pageAt([home.longitude, home.latitude + 0.009083]);
    const justInside = await pageAt([home.longitude, home.latitude + 0.008903]);
    const expectedDrawn: string[] = [];
    for (const point of acrossEdges(harbour, 1)) {
      const uuid = await pageAt(point);
      if (inRing(harbour, point)) expectedDrawn.push(uuid);
    }
    expect(expectedDrawn).toHaveLength(4);
    await ctx.service.workerIdle();
    expect(await matches(both.uuid)).toEqual([atHome, atWork, justInside].sort());
    expect(await matches(both.uuid)).not.toContain(between);
    expect(await matches(both.uuid)).not.toContain(justOutside);
    expect(await matches(drawn.uuid)).toEqual(expectedDrawn.sort());
  });

  test("the check of a candidate monitor is inlined into the matcher's query, not a call per candidate", async () => {
    const { rows } = await ctx.db.asOwner(
      `explain select 1 from app_hidden.p2000_monitor_criteria c, app_public.p2000_messages m
        where app_hidden.p2000_criteria_match(c, m)`,
    );
    const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
    expect(plan).not.toContain("p2000_criteria_match");
    expect(plan).toContain("areas_contain");
  });

  test("areas and the other criteria all hold; a paused monitor leaves the index", async () => {
    const monitor = await createMonitor("Amsterdam fires", {
      areas: [{ type: "postcode", code: "1012" }],
      categories: ["brand"],
    });
    const criteria = () =>
      ctx.db.asOwner("select anchor_keys from app_hidden.p2000_monitor_criteria where monitor_uuid = $1", [
        monitor.uuid,
      ]);
    expect((await criteria()).rows).toEqual([{ anchor_keys: ["a:postcode:1012"] }]);
    // The Dam is in 1012: a fire there matches, a page there without a kind is not a fire, a fire
    // in Amsterdam outside 1012 (the Vondelpark, 1071) is elsewhere.
    const dam = [4.8926, 52.3731];
    const vondelpark = [4.8686, 52.358];
    expect(inFeature(feature("pc4-areas.geojson", "1012"), dam)).toBe(true);
    expect(inFeature(feature("pc4-areas.geojson", "1012"), vondelpark)).toBe(false);
    const fire = await pageAt(dam, "brand");
    await pageAt(dam);
    await pageAt(vondelpark, "brand");
    await ctx.service.workerIdle();
    expect(await matches(monitor.uuid)).toEqual([fire]);

    await ok("mutation ($i: UpdateMonitorInput!) { updateMonitor(input: $i) { active } }", ada.accessToken, {
      i: { uuid: monitor.uuid, active: false },
    });
    expect((await criteria()).rows).toEqual([]);
  });
});
