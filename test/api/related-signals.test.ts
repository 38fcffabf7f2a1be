// Issue 29, part 3: a P2000 dossier lists the signals of the other feeds that belong with it, each
// stored from a document in its source's real format through the real parser and ingestion: the
// road authority's accident nearby (DATEX II), the trauma helicopter that landed next to it
// (readsb's aircraft.json), the NL-Alert whose area covers it, and the KNMI warning in force in its
// province. Signals too far away or too late are left out.
import { gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { pollAircraftOnce } from "../../lib/feeds/aircraft/poll.ts";
import { flightDocuments } from "../../lib/feeds/aircraft/sample-documents.ts";
import { storeNlAlerts } from "../../lib/feeds/alerts/ingest.ts";
import { parseNlAlerts } from "../../lib/feeds/alerts/nl-alert-parser.ts";
import { nlAlertsJson, squareAround } from "../../lib/feeds/alerts/sample-documents.ts";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml } from "../../lib/feeds/meteo/sample-documents.ts";
import { pollTraffic } from "../../lib/feeds/traffic/poll.ts";
import { datexV3Xml } from "../../lib/feeds/traffic/sample-documents.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { useTestService } from "../helpers/service.ts";

const ctx = useTestService();
let feed: FeedServer;
let token: string;
const errors: string[] = [];
const log = { info: () => {}, error: (m: string) => errors.push(m) };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const now = Date.now();
const firstMessage = new Date(now - 40 * MINUTE);
/** The dossier's position: Utrecht's centre, where the message's place puts it. */
let at: { lat: number; lon: number };
let messageUuid: string;

/** Metres north of the dossier's position, in degrees of latitude. */
const north = (metres: number) => metres / 111_195;

beforeAll(async () => {
  feed = await startFeedServer();
  token = (await ctx.service.newToken()).secret;
  await storeP2000Pages(ctx.db, [
    { message: "A1 Ambulance Utrecht bon 81234", sended: firstMessage.toISOString(), capcodes: ["0923002"] },
  ]);
  const { rows } = await ctx.db.asOwner(
    `select m.uuid, d.latitude, d.longitude from app_public.p2000_messages m join app_public.p2000_dossiers d on d.uuid = m.dossier_uuid
      where m.message like 'A1 Ambulance Utrecht%'`,
  );
  messageUuid = rows[0].uuid;
  at = { lat: rows[0].latitude, lon: rows[0].longitude };

  // DATEX II: an accident 300 m away ten minutes later; one 5 km away; one at the place a day later.
  feed.documents.set("/incidents.xml.gz", {
    body: gzipSync(
      datexV3Xml(new Date(now - 5 * MINUTE), [
        {
          id: "NLRWS_near",
          version: 1,
          type: "accident",
          start: new Date(firstMessage.getTime() + 10 * MINUTE),
          latitude: at.lat + north(300),
          longitude: at.lon,
          roadNumber: "A12",
        },
        {
          id: "NLRWS_far",
          version: 1,
          type: "accident",
          start: new Date(firstMessage.getTime() + 10 * MINUTE),
          latitude: at.lat + north(5000),
          longitude: at.lon,
          roadNumber: "A2",
        },
        {
          id: "NLRWS_earlier",
          version: 1,
          type: "breakdown",
          start: new Date(firstMessage.getTime() - 5 * HOUR),
          latitude: at.lat,
          longitude: at.lon,
          roadNumber: "A12",
        },
      ]),
    ),
  });
  await pollTraffic(
    ctx.service.ownerPool,
    { enabled: true, incidentsUrl: `${feed.url}/incidents.xml.gz`, jamsUrl: undefined },
    log,
  );

  // readsb: a trauma helicopter from Amsterdam landing 600 m from the scene.
  await ctx.db.asOwner(
    `insert into app_public.aircraft_fleet (icao, registration, kind, callsign, type, operator, base)
     values ('48ffa2', 'PH-REL', 'trauma', 'LIFE9', 'EC35', 'Test', 'Amsterdam')`,
  );
  const aircraftUrl = `${feed.url}/data/aircraft.json`;
  for (const document of flightDocuments({
    hex: "48ffa2",
    flight: "LIFE9",
    registration: "PH-REL",
    from: { lat: 52.3728, lon: 4.8936 },
    to: { lat: at.lat + north(600), lon: at.lon },
    start: new Date(firstMessage.getTime() + 2 * MINUTE),
  })) {
    feed.documents.set("/data/aircraft.json", { body: document });
    await pollAircraftOnce(ctx.service.ownerPool, aircraftUrl, log);
  }

  // NL-Alert: an area around the scene, and one around Groningen.
  await storeNlAlerts(
    ctx.service.ownerPool,
    parseNlAlerts(
      JSON.parse(
        nlAlertsJson([
          {
            id: "rel-near",
            messageNl: "Grote brand in Utrecht. Sluit ramen en deuren.",
            startAt: new Date(firstMessage.getTime() + 15 * MINUTE),
            areas: [squareAround(at.lat, at.lon)],
          },
          {
            id: "rel-far",
            messageNl: "Gaslek in Groningen.",
            startAt: new Date(firstMessage.getTime() + 15 * MINUTE),
            areas: [squareAround(53.2194, 6.5665)],
          },
        ]),
      ),
    ),
    "test",
  );

  // KNMI: orange for wind in Utrecht (UT) from an hour before the message until hours after.
  const hour = new Date(Math.floor((firstMessage.getTime() - HOUR) / HOUR) * HOUR);
  await ingestMeteoDocument(
    ctx.service.ownerPool,
    warningsXml(
      hour,
      [
        {
          phenomenon: "wind",
          locations: ["UT"],
          status: 2,
          text: "Zware windstoten.",
          from: hour,
          to: new Date(hour.getTime() + 6 * HOUR),
        },
      ],
      "related signals",
    ),
    "test related signals",
  );
});

afterAll(async () => {
  await feed.stop();
});

describe("P2000Dossier.relatedSignals", () => {
  test("lists the nearby accident, the landing, the covering NL-Alert and the warning in force; not the others", async () => {
    const { body } = await ctx.service.graphql(
      `query ($m: String!) { p2000Dossiers(filter: { message: { uuid: $m } }) {
        relatedSignals { kind uuid at title latitude longitude distanceMetres road } } }`,
      { token, variables: { m: messageUuid } },
    );
    expect(body.errors).toBeUndefined();
    expect(errors).toEqual([]);
    const signals = body.data.p2000Dossiers[0].relatedSignals as Array<Record<string, unknown>>;
    const kinds = signals.map((s) => s.kind);
    expect(kinds.sort()).toEqual(["aircraft_landing", "nl_alert", "traffic_incident", "weather_warning"]);
    const byKind = Object.fromEntries(signals.map((s) => [s.kind, s]));
    expect(byKind.traffic_incident).toMatchObject({ road: "A12", title: "accident on A12" });
    expect(byKind.traffic_incident.distanceMetres).toBeGreaterThan(250);
    expect(byKind.traffic_incident.distanceMetres).toBeLessThan(350);
    expect(byKind.aircraft_landing.title).toBe("PH-REL (trauma) landed");
    expect(byKind.aircraft_landing.distanceMetres).toBeLessThan(800);
    expect(byKind.nl_alert).toMatchObject({
      title: expect.stringContaining("Grote brand in Utrecht"),
      distanceMetres: 0,
    });
    expect(byKind.weather_warning.title).toMatch(/^Utrecht: orange/);
    // Oldest first.
    const times = signals.map((s) => Date.parse(String(s.at)));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  const trafficTitles = async () => {
    const { body } = await ctx.service.graphql(
      `query ($m: String!) { p2000Dossiers(filter: { message: { uuid: $m } }) { relatedSignals { kind title } } }`,
      { token, variables: { m: messageUuid } },
    );
    expect(body.errors).toBeUndefined();
    return (body.data.p2000Dossiers[0].relatedSignals as Array<{ kind: string; title: string }>)
      .filter((s) => s.kind === "traffic_incident")
      .map((s) => s.title);
  };

  test("the windows are settings: a DBA narrows the distance for traffic, and the accident leaves", async () => {
    await ctx.db.asOwner("update app_hidden.related_signal_windows set traffic_metres = 100, place_metres = 100");
    try {
      expect(await trafficTitles()).toEqual([]);
    } finally {
      await ctx.db.asOwner("update app_hidden.related_signal_windows set traffic_metres = 500, place_metres = 3000");
    }
  });

  test("a page placed only at its place is searched wider, and one naming a road finds the crash on that road", async () => {
    // The message names Utrecht and no street: its position is the place's (precision place), so
    // the place's reach counts, not the street's.
    await ctx.db.asOwner("update app_hidden.related_signal_windows set traffic_metres = 100, place_metres = 500");
    try {
      expect(await trafficTitles()).toEqual(["accident on A12"]);
      // The crash 5 km away on the A2 belongs with a dossier whose page names the A2.
      await ctx.db.asOwner("update app_hidden.related_signal_windows set place_metres = 100, road_metres = 6000");
      expect(await trafficTitles()).toEqual([]);
      await ctx.db.asOwner("update app_public.p2000_messages set road = 'A2' where uuid = $1", [messageUuid]);
      expect(await trafficTitles()).toEqual(["accident on A2"]);
    } finally {
      await ctx.db.asOwner("update app_public.p2000_messages set road = null where uuid = $1", [messageUuid]);
      await ctx.db.asOwner(
        "update app_hidden.related_signal_windows set traffic_metres = 500, place_metres = 3000, road_metres = 5000",
      );
    }
  });

  test("each kind is read through an index on its time, not a scan of its table", async () => {
    // The test's tables hold a handful of rows, where a scan is the planner's honest choice; with scans
    // priced out, a Seq Scan can only remain where no index fits the lookup, which is what this guards.
    const owner = new pg.Client({ connectionString: ctx.db.ownerUrl });
    await owner.connect();
    try {
      await owner.query("set enable_seqscan = off");
      const { rows } = await owner.query(
        `explain select s.* from app_public.p2000_dossiers x,
         lateral app_public.p2000_dossier_related_signals(row(x.uuid, x.title, x.region_uuid, x.discipline_uuid,
           x.urgency_uuid, x.category_uuid, x.grip_level, x.incident_number, x.city, x.street, x.latitude, x.longitude,
           x.first_sended, x.last_sended, x.message_count, x.created, x.changed, null, null)::app_public.p2000_dossier) s`,
      );
      const plan = rows.map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"]).join("\n");
      expect(plan).not.toMatch(/Seq Scan on (traffic_incidents|aircraft_routes|meteo_warning_events)/);
    } finally {
      await owner.end();
    }
  });
});
