// Areas for every monitor type with a position (issue 45): accident, matrix, aircraft and nl_alert
// monitors take query.areas as p2000 monitors do (test/api/monitor-areas.test.ts). Items are placed
// about 40 m either side of a gemeente's border (Baarle-Nassau, whose Belgian enclave is a hole) and
// of a drawn polygon's edges, and each monitor must be told of exactly the items inside, as a
// point-in-polygon test written here on the GeoJSON file says. Traffic incidents and jams go in as
// DATEX II publications, NL-Alerts (small squares around the points) as the public list's JSON,
// through the feeds' real ingestion; take-offs and landings are stored as the receiver's state
// machine stores them, and a flight over the drawn polygon comes from receiver documents through the
// CLI. The service's own worker matches; what each monitor was told is read back through deliveries,
// and monitorPreview and the *ForMonitor reads must say the same.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { flightDocuments } from "../../lib/feeds/aircraft/sample-documents.ts";
import { ingestAlertsDocument } from "../../lib/feeds/alerts/ingest.ts";
import { nlAlertsJson, squareAround } from "../../lib/feeds/alerts/sample-documents.ts";
import { ingestTrafficDocument } from "../../lib/feeds/traffic/ingest.ts";
import { datexV2Xml, datexV3Xml, type SampleIncident } from "../../lib/feeds/traffic/sample-documents.ts";
import { acrossEdges, distanceKm, feature, inFeature, inRing, type Ring } from "../helpers/areas.ts";
import { runCli } from "../helpers/cli.ts";
import { graphqlCalls } from "../helpers/graphql-calls.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

const ctx = useTestService();
const { gql, ok } = graphqlCalls(ctx);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "areas-aircraft-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let ada: TestUser;
let channelUuid: string;

// Baarle-Nassau, whose land holds the Belgian enclaves of Baarle-Hertog as holes, and a polygon
// drawn over the Rotterdam harbour.
const baarle = feature("municipalities.geojson", "GM0744");
const [baarleOuter, ...baarleHoles] = baarle.geometry.coordinates[0];
const harbour: Ring = [
  [4.26, 51.94],
  [4.32, 51.93],
  [4.35, 51.96],
  [4.3, 51.975],
  [4.26, 51.94],
];
const GEMEENTE = { areas: [{ type: "gemeente", code: "GM0744" }] };
const DRAWN = { areas: [{ type: "polygon", coordinates: [harbour] }] };
/** Either side of every edge: the gemeente's border, its holes' and the drawn polygon's. */
const points = [
  ...acrossEdges(baarleOuter, 1),
  ...baarleHoles.flatMap((hole) => acrossEdges(hole, 1)),
  ...acrossEdges(harbour, 1),
];
const inGemeente = (point: number[]) => inFeature(baarle, point);
const inDrawn = (point: number[]) => inRing(harbour, point);
const key = ([longitude, latitude]: number[]) => `${longitude.toFixed(6)},${latitude.toFixed(6)}`;
const keys = (list: number[][]) => list.map(key).sort();

interface PreviewItem {
  uuid: string;
  kind: string;
  latitude: number | null;
  longitude: number | null;
}

/** A monitor of a type with a query (and a location), with the e-mail channel, and its input for monitorPreview. */
async function createMonitor(type: string, query: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const input = {
    name: `${type} ${JSON.stringify(query).slice(0, 60)}`,
    type,
    query: JSON.stringify(query),
    channels: JSON.stringify([channelUuid]),
    ...extra,
  };
  const { createMonitor } = await ok(
    "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid query } }",
    ada.accessToken,
    { i: input },
  );
  return { uuid: createMonitor.uuid as string, query: JSON.parse(createMonitor.query), input };
}

/** The items a monitor told its channel of (deliveries: the delivery log), sorted. */
async function told(monitorUuid: string): Promise<string[]> {
  const uuids: string[] = [];
  for (let page = 1; ; page++) {
    const { deliveries } = await ok(
      "query ($f: DeliveryFilterInput, $p: Int) { deliveries(filter: $f, first: 100, page: $p) { itemUuid } }",
      ada.accessToken,
      { f: { monitor: monitorUuid }, p: page },
    );
    uuids.push(...deliveries.map((d: { itemUuid: string }) => d.itemUuid));
    if (deliveries.length < 100) return uuids.sort();
  }
}

// Two days: the alerts began 10 minutes ago, and one day starts at the last Dutch midnight.
async function preview(input: Record<string, unknown>): Promise<{ matches: number; items: PreviewItem[] }> {
  const { monitorPreview } = await ok(
    "query ($i: CreateMonitorInput!) { monitorPreview(input: $i, days: 2) { matches items { uuid kind latitude longitude } } }",
    ada.accessToken,
    { i: input },
  );
  return monitorPreview;
}

const positions = (items: Array<{ latitude: number | null; longitude: number | null }>) =>
  keys(items.map((i) => [i.longitude!, i.latitude!]));

/** Live matching told of exactly the items of the preview, and they are the items at `expected`. */
async function expectToldAsPreviewed(monitor: { uuid: string; input: Record<string, unknown> }, expected: number[][]) {
  const result = await preview(monitor.input);
  expect(positions(result.items)).toEqual(keys(expected));
  expect(result.matches).toBe(expected.length);
  expect(await told(monitor.uuid)).toEqual(result.items.map((i) => i.uuid).sort());
  return result;
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org");
  // An e-mail channel: without SMTP_URL its deliveries fail, but each is in the delivery log.
  const { createChannel } = await ok(
    "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
    ada.accessToken,
    { i: { type: "email", name: "Ada", emailAddress: "ada@example.org" } },
  );
  channelUuid = createChannel.channel.uuid;
  // Both sides of the border are tried, the hole's inside among them.
  expect(points.filter(inGemeente).length).toBeGreaterThan(20);
  expect(points.filter((p) => !inGemeente(p) && !inDrawn(p)).length).toBeGreaterThan(20);
  expect(points.filter(inDrawn)).toHaveLength(4);
});

describe("query.areas on the other types", () => {
  test("accident, matrix, aircraft and nl_alert monitors take areas, checked and stored as p2000's", async () => {
    for (const type of ["accident", "matrix", "aircraft", "nl_alert"]) {
      const monitor = await createMonitor(type, { areas: [{ type: "gemeente", name: "baarle-nassau" }] });
      expect(monitor.query.areas).toEqual([{ type: "gemeente", code: "GM0744", name: "Baarle-Nassau" }]);
      // A field left out is refused as a wrong one is.
      for (const [area, message] of [
        [{ type: "circle", latitude: 52, longitude: 5 }, /^query\.areas\[0\]: a circle's radius is in kilometres/],
        [{ type: "circle", latitude: 52, radius: 5 }, /^query\.areas\[0\]: a circle needs a latitude/],
        [{ type: "polygon" }, /^query\.areas\[0\]: a polygon's coordinates are GeoJSON's with one ring/],
      ] as const) {
        const body = await gql(
          "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
          ada.accessToken,
          {
            i: { name: "refused", type, query: JSON.stringify({ areas: [area] }) },
          },
        );
        expect(errorOf(body)).toEqual({ message: expect.stringMatching(message), code: "BAD_USER_INPUT" });
      }
      await ok("mutation ($u: String!) { deleteMonitor(uuid: $u) }", ada.accessToken, { u: monitor.uuid });
    }
    const { monitorTypes } = await ok("{ monitorTypes { value description } }", ada.apiToken);
    for (const type of monitorTypes as Array<{ value: string; description: string }>) {
      const hasAreas = ["p2000", "accident", "matrix", "aircraft", "nl_alert"].includes(type.value);
      expect([type.value, type.description.includes("areas: Places")]).toEqual([type.value, hasAreas]);
    }
  });
});

describe("accident monitors", () => {
  test("an incident inside the gemeente or the drawn polygon is told, one just outside is not; the circle still holds", async () => {
    const gemeente = await createMonitor("accident", GEMEENTE);
    const drawn = await createMonitor("accident", DRAWN);
    // The areas and a circle: both must hold. Around the enclave, so that some incidents inside the
    // gemeente are outside the circle.
    const centre = baarleHoles[0][0];
    const circled = await createMonitor("accident", GEMEENTE, {
      location: { latitude: centre[1], longitude: centre[0] },
      radius: 0.6,
    });
    const start = new Date(Date.now() - 5 * 60_000);
    const incidents: SampleIncident[] = points.map(([longitude, latitude], n) => ({
      id: `RWS03_AREA_${n}`,
      version: 1,
      type: "accident",
      start,
      latitude,
      longitude,
      roadNumber: "N260",
      comment: `Punt ${n}`,
    }));
    await ingestTrafficDocument(
      ctx.service.ownerPool,
      Readable.from([Buffer.from(datexV2Xml(new Date(), incidents))]),
      "test",
    );
    await ctx.service.workerIdle();

    await expectToldAsPreviewed(gemeente, points.filter(inGemeente));
    await expectToldAsPreviewed(drawn, points.filter(inDrawn));
    const inBoth = points.filter((p) => inGemeente(p) && distanceKm(p, centre) <= 0.6);
    expect(inBoth.length).toBeGreaterThan(0);
    expect(inBoth.length).toBeLessThan(points.filter(inGemeente).length);
    await expectToldAsPreviewed(circled, inBoth);

    // trafficIncidentsForMonitor: the incidents that pass, by the same definition.
    const { trafficIncidentsForMonitor } = await ok(
      "query ($m: String!) { trafficIncidentsForMonitor(monitor: { uuid: $m }, first: 200) { latitude longitude } }",
      ada.apiToken,
      { m: gemeente.uuid },
    );
    expect(positions(trafficIncidentsForMonitor)).toEqual(keys(points.filter(inGemeente)));
  });
});

describe("matrix monitors", () => {
  test("a jam inside the gemeente or the drawn polygon is told, one just outside is not", async () => {
    const gemeente = await createMonitor("matrix", GEMEENTE);
    const drawn = await createMonitor("matrix", DRAWN);
    const jams: SampleIncident[] = points.map(([longitude, latitude], n) => ({
      id: `RWS01_AREA_${n}`,
      version: 1,
      type: "jam",
      start: new Date(Date.now() - 10 * 60_000),
      latitude,
      longitude,
      roadNumber: "A58",
      delayMinutes: 10,
      queueLengthMetres: 800,
    }));
    await ingestTrafficDocument(
      ctx.service.ownerPool,
      Readable.from([Buffer.from(datexV3Xml(new Date(), jams))]),
      "test",
      "jams",
    );
    await ctx.service.workerIdle();
    await expectToldAsPreviewed(gemeente, points.filter(inGemeente));
    await expectToldAsPreviewed(drawn, points.filter(inDrawn));
  });
});

describe("aircraft monitors", () => {
  test("a take-off or landing inside is told, one just outside is not; a flight over the drawn polygon passes overhead once", async () => {
    const gemeente = await createMonitor("aircraft", GEMEENTE);
    const drawn = await createMonitor("aircraft", DRAWN);
    const fleet = [
      ["48ffb1", "PH-ARA"], // the take-offs and landings at the border
      ["48ffb2", "PH-ARB"], // over the harbour
      ["48ffb3", "PH-ARC"], // beside it
    ];
    for (const [icao, registration] of fleet)
      await ctx.db.asOwner(
        `insert into app_public.aircraft_fleet (icao, registration, kind, callsign, type, operator, base)
         values ($1, $2, 'trauma', 'LIFE7', 'EC35', 'Test', 'Rotterdam')`,
        [icao, registration],
      );
    // A take-off or landing at each point, as the state machine stores one (a route, its event).
    const eventAt = new Map<string, number[]>();
    for (const [n, [longitude, latitude]] of points.entries()) {
      const { rows } = await ctx.db.asOwner(
        `with route as (
           insert into app_public.aircraft_routes (icao, took_off_at, first_seen_at, last_seen_at, start_latitude, start_longitude)
           values ('48ffb1', now(), now(), now(), $2, $3) returning uuid)
         insert into app_public.aircraft_events (icao, route_uuid, kind, at, latitude, longitude, place)
         select '48ffb1', route.uuid, $1, now(), $2, $3, 'Grens' from route returning uuid`,
        [n % 2 ? "landing" : "take_off", latitude, longitude],
      );
      eventAt.set(rows[0].uuid, [longitude, latitude]);
    }
    // Two flights read from receiver documents by the CLI: one across the drawn polygon, one 3 km
    // south of it; both take off and land outside every area.
    const over = flightDocuments({
      hex: "48ffb2",
      flight: "LIFE7",
      registration: "PH-ARB",
      from: { lat: 51.955, lon: 4.4 },
      to: { lat: 51.955, lon: 4.2 },
      start: new Date(Date.now() - 20 * 60_000),
    });
    const beside = flightDocuments({
      hex: "48ffb3",
      flight: "LIFE8",
      registration: "PH-ARC",
      from: { lat: 51.9, lon: 4.4 },
      to: { lat: 51.9, lon: 4.2 },
      start: new Date(Date.now() - 20 * 60_000),
    });
    const flown = (documents: string[]) =>
      documents.map((d) => JSON.parse(d).aircraft[0] as { lat: number; lon: number }).map((a) => [a.lon, a.lat]);
    expect(flown(over).some(inDrawn)).toBe(true);
    expect(flown(beside).some((p) => inDrawn(p) || inGemeente(p))).toBe(false);
    for (const end of [over[0], over.at(-1)!, beside[0], beside.at(-1)!].map((d) => flown([d])[0]))
      expect(inDrawn(end) || inGemeente(end)).toBe(false);
    const files = [...over, ...beside].map((document, i) => {
      const file = path.join(dir, `aircraft-${String(i).padStart(4, "0")}.json`);
      fs.writeFileSync(file, document);
      return file;
    });
    expect((await runCli("ingest-aircraft.ts", files, ctx.db.ownerUrl)).code).toBe(0);
    await ctx.service.workerIdle();

    const expected = (inside: (point: number[]) => boolean) =>
      [...eventAt].filter(([, point]) => inside(point)).map(([uuid]) => uuid);
    // The gemeente's: its take-offs and landings, also in monitorPreview and aircraftEventsForMonitor.
    const gemeentePreview = await expectToldAsPreviewed(gemeente, points.filter(inGemeente));
    expect(gemeentePreview.items.map((i) => i.uuid).sort()).toEqual(expected(inGemeente).sort());
    const forMonitor = async (uuid: string) =>
      (
        await ok(
          "query ($m: String!) { aircraftEventsForMonitor(monitor: { uuid: $m }, first: 200) { uuid kind icao } }",
          ada.apiToken,
          { m: uuid },
        )
      ).aircraftEventsForMonitor as Array<{ uuid: string; kind: string; icao: string }>;
    expect((await forMonitor(gemeente.uuid)).map((e) => e.uuid).sort()).toEqual(expected(inGemeente).sort());

    // The drawn polygon's: its take-offs and landings, and the flight entering it (a saved monitor's
    // own event, which monitorPreview does not count); the flight beside it is nowhere.
    const drawnPreview = await preview(drawn.input);
    expect(drawnPreview.items.map((i) => i.uuid).sort()).toEqual(expected(inDrawn).sort());
    const events = await forMonitor(drawn.uuid);
    const overhead = events.filter((e) => e.kind === "overhead");
    expect(overhead.map((e) => e.icao)).toEqual(["48ffb2"]);
    expect(events.map((e) => e.uuid).sort()).toEqual([...expected(inDrawn), overhead[0].uuid].sort());
    expect(await told(drawn.uuid)).toEqual(events.map((e) => e.uuid).sort());
  });
});

describe("nl_alert monitors", () => {
  test("an alert whose area lies just inside the gemeente or the drawn polygon is told, one just outside is not", async () => {
    const gemeente = await createMonitor("nl_alert", GEMEENTE);
    const drawn = await createMonitor("nl_alert", DRAWN);
    // Areas and regions: either is enough (as the circle and regions ever were).
    const drawnOrGroningen = await createMonitor("nl_alert", { ...DRAWN, regions: ["groningen"] });
    // A circle area (a polygon of 32 corners, as for location and radius) over the whole harbour.
    const harbourCircle = { latitude: 51.955, longitude: 4.3, radius: 5 };
    const circled = await createMonitor("nl_alert", { areas: [{ type: "circle", ...harbourCircle }] });
    const inCircle = (point: number[]) =>
      distanceKm(point, [harbourCircle.longitude, harbourCircle.latitude]) <= harbourCircle.radius;
    // A square of about 20 m around each point, kept where all its corners lie on the point's side of
    // every border (so that "inside" and "meets" are the same question).
    const square = ([longitude, latitude]: number[]) => squareAround(latitude, longitude, 0.0001);
    const corners = (point: number[]) => square(point).map(([lat, lon]) => [lon, lat]);
    const clear = points.filter((point) =>
      [inGemeente, inDrawn].every((inside) => corners(point).every((corner) => inside(corner) === inside(point))),
    );
    expect(clear.length).toBeGreaterThan(points.length * 0.8);
    const start = new Date(Date.now() - 10 * 60_000);
    const alertAt = new Map<string, number[]>(clear.map((point, n) => [`nl-area-${n}`, point]));
    await ingestAlertsDocument(
      ctx.service.ownerPool,
      Buffer.from(
        nlAlertsJson([
          ...[...alertAt].map(([id, point]) => ({
            id,
            messageNl: `Test ${id}`,
            startAt: start,
            areas: [square(point)],
          })),
          {
            id: "nl-area-groningen",
            messageNl: "Gaslek Groningen",
            startAt: start,
            areas: [squareAround(53.22, 6.57)],
          },
        ]),
      ),
      "test",
    );
    await ctx.service.workerIdle();
    const uuidOf = new Map<string, string>();
    for (let page = 1; ; page++) {
      const { nlAlerts } = await ok(
        "query ($p: Int) { nlAlerts(first: 100, page: $p) { uuid alertId } }",
        ada.apiToken,
        {
          p: page,
        },
      );
      for (const alert of nlAlerts as Array<{ uuid: string; alertId: string }>) uuidOf.set(alert.alertId, alert.uuid);
      if (nlAlerts.length < 100) break;
    }
    const expected = (inside: (point: number[]) => boolean) =>
      [...alertAt].filter(([, point]) => inside(point)).map(([id]) => uuidOf.get(id)!);

    for (const [monitor, uuids] of [
      [gemeente, expected(inGemeente)],
      [drawn, expected(inDrawn)],
      [drawnOrGroningen, [...expected(inDrawn), uuidOf.get("nl-area-groningen")!]],
      [circled, expected(inCircle)],
    ] as const) {
      const result = await preview(monitor.input);
      expect(result.items.map((i) => i.uuid).sort()).toEqual([...uuids].sort());
      expect(await told(monitor.uuid)).toEqual([...uuids].sort());
    }
    expect(expected(inGemeente).length).toBeGreaterThan(10);
    // The circle holds both sides of the drawn polygon's edges, and nothing of Baarle-Nassau.
    expect(expected(inCircle)).toHaveLength(8);
  });
});
