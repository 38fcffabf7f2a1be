// Aircraft end to end: a fixture flight served by a local HTTP server as a receiver's aircraft.json,
// read by the poller, becomes one route (take-off, points, a hover that is no landing, landing)
// with its log; an aircraft monitor around the destination is notified of the landing once; a
// replay of the same documents by the CLI changes nothing; the queries answer as the spec says.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { pollAircraftOnce } from "../../lib/feeds/aircraft/poll.ts";
import { flightDocuments } from "../../lib/feeds/aircraft/sample-documents.ts";
import { runCli } from "../helpers/cli.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let feed: FeedServer;
let hooks: WebhookReceiver;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aircraft-"));
beforeAll(async () => {
  feed = await startFeedServer();
  hooks = await startWebhookReceiver();
});
const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: true } }));
afterAll(async () => {
  await hooks?.stop();
  await feed?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

// A tracked test helicopter (the shipped fleet list is data; the test brings its own aircraft).
const HEX = "48ffa1";
const amsterdam = { lat: 52.3728, lon: 4.8936 };
const haarlem = { lat: 52.381, lon: 4.636 };
const documents = flightDocuments({
  hex: HEX,
  flight: "LIFE1",
  registration: "PH-TST",
  from: amsterdam,
  to: haarlem,
  start: new Date(Date.now() - 20 * 60_000),
});

let ada: TestUser;
let token: string;
let monitorUuid: string;
let overheadMonitorUuid: string;
const log = { info: () => {}, error: (m: string) => errors.push(m) };
const errors: string[] = [];

beforeAll(async () => {
  await ctx.db.asOwner(
    `insert into app_public.aircraft_fleet (icao, registration, kind, callsign, type, operator, base)
    values ($1, 'PH-TST', 'trauma', 'LIFE1', 'EC35', 'Test', 'Amsterdam')`,
    [HEX],
  );
  token = (await ctx.service.newToken()).secret;
  ada = await signUp(ctx.service, "ada@example.org");
  const hook = await ctx.service.graphql(
    `mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }`,
    { token: ada.accessToken, variables: { i: { type: "webhook", name: "Heli", url: `${hooks.url}/heli` } } },
  );
  const monitor = await ctx.service.graphql(
    `mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`,
    {
      token: ada.accessToken,
      variables: {
        i: {
          name: "Lifeliner bij Haarlem",
          type: "aircraft",
          query: JSON.stringify({ kinds: ["lifeliner"] }),
          location: { latitude: haarlem.lat, longitude: haarlem.lon },
          radius: 3,
          channels: JSON.stringify([hook.body.data.createChannel.channel.uuid]),
        },
      },
    },
  );
  expect(monitor.body.errors).toBeUndefined();
  monitorUuid = monitor.body.data.createMonitor.uuid;
  // Halfway, under the flight path: an overhead event of its own.
  const overheadHook = await ctx.service.graphql(
    `mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }`,
    { token: ada.accessToken, variables: { i: { type: "webhook", name: "Overhead", url: `${hooks.url}/overhead` } } },
  );
  const overhead = await ctx.service.graphql(
    `mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`,
    {
      token: ada.accessToken,
      variables: {
        i: {
          name: "Boven Halfweg",
          type: "aircraft",
          query: JSON.stringify({ registrations: ["ph-tst"] }),
          location: { latitude: (amsterdam.lat + haarlem.lat) / 2, longitude: (amsterdam.lon + haarlem.lon) / 2 },
          radius: 1,
          channels: JSON.stringify([overheadHook.body.data.createChannel.channel.uuid]),
        },
      },
    },
  );
  expect(overhead.body.errors).toBeUndefined();
  overheadMonitorUuid = overhead.body.data.createMonitor.uuid;
});

async function ok(query: string, variables?: Record<string, unknown>, as = token) {
  const { body } = await ctx.service.graphql(query, { token: as, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
}

describe("a flight from a local receiver", () => {
  test("becomes one route with take-off, points and landing; the hover is no landing", async () => {
    const url = `${feed.url}/data/aircraft.json`;
    for (const document of documents) {
      feed.documents.set("/data/aircraft.json", { body: document });
      await pollAircraftOnce(ctx.service.ownerPool, url, log);
    }
    expect(errors).toEqual([]);
    const { aircraftRoutes } =
      await ok(`{ aircraftRoutes(icao: "${HEX}") { uuid status active tookOffAt landedAt startPlace endPlace pointCount
      log { kind message place } } }`);
    expect(aircraftRoutes).toHaveLength(1);
    const [route] = aircraftRoutes;
    expect(route).toMatchObject({ status: "completed", active: false, startPlace: "Amsterdam", endPlace: "Haarlem" });
    expect(route.log.map((l: { kind: string }) => l.kind)).toEqual(["take_off", "landing"]);
    expect(route.pointCount).toBeGreaterThan(5);
    // Take-off at the first airborne position, landing at the first ground one (the documents' own times).
    expect(Date.parse(route.tookOffAt)).toBe(
      Math.round(documents.map((d) => JSON.parse(d)).find((d) => d.aircraft[0].alt_baro !== "ground").now * 1000 - 400),
    );
    const { aircraftRoute } = await ok(
      `query ($u: String!) { aircraftRoute(route: { uuid: $u }) { uuid path points { at latitude longitude altitudeFt } } }`,
      { u: route.uuid },
    );
    expect(aircraftRoute.points).toHaveLength(route.pointCount);
    // The same points as one JSON text, in GeoJSON order, for drawing long flights.
    const path = JSON.parse(aircraftRoute.path);
    expect(path).toHaveLength(route.pointCount);
    const first = aircraftRoute.points[0];
    expect(path[0]).toEqual([
      first.longitude,
      first.latitude,
      first.altitudeFt,
      Math.floor(Date.parse(first.at) / 1000),
    ]);
    const deprecated = await ok(`query ($u: String!) { aircraftRoute(routeUuid: $u) { uuid } }`, { u: route.uuid });
    expect(deprecated.aircraftRoute.uuid).toBe(route.uuid);
  });

  test("a completed route's path is kept once, and a DBA's change to its points rebuilds it", async () => {
    const {
      rows: [{ uuid, path }],
    } = await ctx.db.asOwner(
      `select r.uuid, k.path from app_public.aircraft_routes r
      join app_hidden.aircraft_route_paths k on k.route_uuid = r.uuid where r.icao = $1`,
      [HEX],
    );
    const pathOf = async () =>
      (await ok(`query ($u: String!) { aircraftRoute(route: { uuid: $u }) { path } }`, { u: uuid })).aircraftRoute.path;
    expect(await pathOf()).toBe(path);
    await ctx.db.asOwner(
      `delete from app_public.aircraft_route_points where route_uuid = $1 and at = (select max(at) from app_public.aircraft_route_points where route_uuid = $1)`,
      [uuid],
    );
    const rebuilt = JSON.parse(await pathOf());
    expect(rebuilt).toHaveLength(JSON.parse(path).length - 1);
    expect(rebuilt).toEqual(JSON.parse(path).slice(0, -1));
  });

  test("the monitor around Haarlem hears of the flight entering its circle and of the landing, each once; the take-off is outside", async () => {
    await ctx.service.workerIdle();
    const deliveries = await hooks.waitFor((r) => r.path === "/heli", 2);
    const bodies = deliveries.map((d) => JSON.parse(d.body));
    expect(bodies.map((b) => b.event).sort()).toEqual(["aircraft.landing", "aircraft.overhead"]);
    expect(bodies.find((b) => b.event === "aircraft.landing")).toMatchObject({
      monitor: { uuid: monitorUuid },
      aircraftEvent: { registration: "PH-TST", event: "landing", place: "Haarlem" },
    });
    const { aircraftEventsForMonitor } = await ok(
      `query ($m: String!) { aircraftEventsForMonitor(monitor: { uuid: $m }) { kind } }`,
      { m: monitorUuid },
      ada.apiToken,
    );
    expect(aircraftEventsForMonitor).toEqual([{ kind: "landing" }, { kind: "overhead" }]);
    expect(
      errorOf(
        (
          await ctx.service.graphql(
            `query ($m: String!) { aircraftEventsForMonitor(monitor: { uuid: $m }) { kind } }`,
            { token, variables: { m: monitorUuid } },
          )
        ).body,
      ).code,
    ).toBe("NOT_FOUND");
  });

  test("passing over a monitor's circle is its own event, once per flight", async () => {
    const [delivery] = await hooks.waitFor((r) => r.path === "/overhead");
    expect(JSON.parse(delivery.body)).toMatchObject({
      event: "aircraft.overhead",
      monitor: { uuid: overheadMonitorUuid },
      aircraftEvent: { registration: "PH-TST", event: "overhead" },
    });
    const { aircraftEventsForMonitor } = await ok(
      `query ($m: String!) { aircraftEventsForMonitor(monitor: { uuid: $m }) { kind } }`,
      { m: overheadMonitorUuid },
      ada.apiToken,
    );
    // Its circle holds neither the take-off nor the landing, and the other monitor's pass is not its own.
    expect(aircraftEventsForMonitor).toEqual([{ kind: "overhead" }]);
    expect(hooks.requests.filter((r) => r.path === "/overhead")).toHaveLength(1);
  });

  test("a replay of the same documents by the CLI changes nothing", async () => {
    const files = documents.slice(0, 40).map((document, i) => {
      const file = path.join(dir, `aircraft-${String(i).padStart(3, "0")}.json`);
      fs.writeFileSync(file, document);
      return file;
    });
    const result = await runCli("ingest-aircraft.ts", files, ctx.db.ownerUrl);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("0 of tracked aircraft stored, 0 take-off(s), 0 landing(s).");
    const { rows } = await ctx.db.asOwner(`select (select count(*)::int from app_public.aircraft_routes) routes,
      (select count(*)::int from app_public.aircraft_events) events`);
    // take-off, landing, and one pass over each monitor's circle
    expect(rows[0]).toEqual({ routes: 1, events: 4 });
    await ctx.service.workerIdle();
    expect(hooks.requests.filter((r) => r.path === "/heli")).toHaveLength(2);
  });

  test("aircraft, aircraftLive and aircraftStatistics; a broken document keeps the state", async () => {
    const data = await ok(`{ aircraft { icao registration kind onGround latitude lastSeenAt activeRouteUuid }
      aircraftLive(icao: "${HEX.toUpperCase()}") { registration onGround } unknown: aircraftLive(icao: "000000") { icao }
      aircraftStatistics { icao flights flightMinutes flightHours windowDays } }`);
    expect(data.aircraft).toContainEqual(
      expect.objectContaining({
        icao: HEX,
        registration: "PH-TST",
        kind: "trauma",
        onGround: true,
        latitude: haarlem.lat,
        activeRouteUuid: null,
      }),
    );
    expect(data.aircraftLive).toEqual({ registration: "PH-TST", onGround: true });
    expect(data.unknown).toBeNull();
    expect(data.aircraftStatistics).toContainEqual({
      icao: HEX,
      flights: 1,
      flightMinutes: expect.any(Number),
      flightHours: expect.any(Number),
      windowDays: 365,
    });
    feed.documents.set("/data/aircraft.json", { body: '{"now": 1, "aircraft": [' });
    await pollAircraftOnce(ctx.service.ownerPool, `${feed.url}/data/aircraft.json`, log);
    expect(errors.at(-1)).toMatch(/^aircraft: aircraft\.json is not JSON/);
    expect((await ok(`{ aircraftLive(icao: "${HEX}") { onGround latitude } }`)).aircraftLive).toEqual({
      onGround: true,
      latitude: haarlem.lat,
    });
  });

  test("content items by either vocabulary; bad arguments get clear errors", async () => {
    const data = await ok(
      `{ a: aircraftContentItems(type: "lifeliner") { slug type } b: aircraftContentItems(type: "trauma") { slug type } }`,
    );
    expect(data.a).toEqual(data.b);
    expect(data.a.every((item: { type: string }) => item.type === "lifeliner")).toBe(true);
    expect(
      errorOf((await ctx.service.graphql(`{ aircraftContentItems(type: "boat") { slug } }`, { token })).body).code,
    ).toBe("BAD_USER_INPUT");
    expect(
      errorOf(
        (await ctx.service.graphql(`{ aircraftRoutes(icao: "${HEX}", status: "flying") { uuid } }`, { token })).body,
      ).code,
    ).toBe("BAD_USER_INPUT");
  });
});
