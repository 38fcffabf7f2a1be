// Live push of the feeds other than new P2000 messages (docs/live.md, plugins/subscriptions.ts),
// through the real graphql-ws (WebSocket) and graphql-sse (SSE) clients against the running
// service, with the data written by each feed's own ingestion path (nothing here writes a feed's
// table directly; the NOTIFY triggers of migration 000035 fire whatever path writes):
// - p2000Dossier(dossier: { uuid }): a follow-up message of the incident (app_private.ingest_p2000_messages,
//   the FLEX reader's batch path) pushes the dossier with the grown messageCount and raised urgency;
//   a message of another dossier pushes nothing; without dossier.uuid the subscription is refused.
// - meteoRegions: a KNMI warnings document (ingestMeteoDocument, the poller's path) turning a
//   province orange pushes the 12 provinces with that one at its new level; a later document with
//   no warning event (a longer period) pushes nothing, the next one turning it red does.
// - trafficIncidents(active: true): a DATEX II publication (ingestTrafficDocument) opening an
//   incident pushes the list with it; a newer version of a running incident pushes nothing; the
//   publication that no longer holds it (closed_at set) pushes the list without it.
// - nlAlerts, amberAlerts: an alert issued (storeNlAlerts / storeAmberAlerts, the pollers' path)
//   pushes the list with it; the same list stored again pushes nothing; an alert withdrawn or
//   cancelled pushes the list with it ended.
// - aircraftLive, by ICAO address and by registration: an aircraft.json position of that aircraft
//   (ingestAircraftDocument, the poller's path) pushes it at its new position; another aircraft's
//   position pushes nothing to its subscribers.
// Each scenario runs a WebSocket and an SSE subscriber side by side (each with its own API token,
// so they do not share one execution) and expects the same events on both: exactly those, and
// nothing more after a pause. A subscriber is known to listen before the change it waits for: a
// bare NOTIFY on its channel is repeated until it answers (see hearing).
import { Readable } from "node:stream";
import { beforeAll, describe, expect, test } from "@jest/globals";
import { parseAmberAlerts } from "../../lib/feeds/alerts/amber-parser.ts";
import { storeAmberAlerts, storeNlAlerts } from "../../lib/feeds/alerts/ingest.ts";
import { parseNlAlerts } from "../../lib/feeds/alerts/nl-alert-parser.ts";
import {
  amberAlertsJson,
  nlAlertsJson,
  squareAround,
  type SampleAmberAlert,
  type SampleNlAlert,
} from "../../lib/feeds/alerts/sample-documents.ts";
import { ingestAircraftDocument } from "../../lib/feeds/aircraft/ingest.ts";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml, type SampleWarning } from "../../lib/feeds/meteo/sample-documents.ts";
import { ingestTrafficDocument } from "../../lib/feeds/traffic/ingest.ts";
import { datexV2Xml, type SampleIncident } from "../../lib/feeds/traffic/sample-documents.ts";
import { watch, type Transport, type Watch } from "../helpers/live-clients.ts";
import { useTestService } from "../helpers/service.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService();
const TRANSPORTS: Transport[] = ["websocket", "sse"];
const HOUR = 3_600_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Long enough for an event the database announced to have reached a subscriber. */
const QUIET_MS = 800;

// A token per transport, so that the two subscribers of a scenario are two executions.
const tokens = {} as Record<Transport, string>;
beforeAll(async () => {
  for (const transport of TRANSPORTS) tokens[transport] = (await ctx.service.newToken({ name: transport })).secret;
});

/** The same subscription over WebSocket and over SSE. */
function subscribeBoth(query: string, variables?: Record<string, unknown>): Watch[] {
  return TRANSPORTS.map((transport) =>
    watch(transport, ctx.service.graphqlUrl, { token: tokens[transport], query, variables }),
  );
}

async function stopAll(subscribers: Watch[]): Promise<void> {
  await Promise.all(subscribers.map((subscriber) => subscriber.stop()));
}

/**
 * Waits until each subscriber hears its channel: a bare NOTIFY on the channel (no data changed, so
 * the event is the current answer) is repeated until one arrives; then the probes are forgotten.
 */
async function hearing(subscribers: Watch[], channel: string): Promise<void> {
  for (const subscriber of subscribers) {
    await waitUntil(
      async () => {
        if (subscriber.events.length === 0) await ctx.db.asOwner("select pg_notify($1, '')", [channel]);
        return subscriber.events.length;
      },
      (n) => n > 0,
      `the subscription to hear ${channel}`,
      20_000,
    );
  }
  await sleep(500); // probes still under way
  for (const subscriber of subscribers) {
    expect(subscriber.errors).toEqual([]);
    subscriber.events.length = 0;
  }
}

/** After a quiet moment (for any later event to arrive), every subscriber has exactly `events` and no error. */
async function onlyThese(subscribers: Watch[], events: unknown[]): Promise<void> {
  await sleep(QUIET_MS);
  for (const subscriber of subscribers) {
    expect(subscriber.errors).toEqual([]);
    expect(subscriber.events).toEqual(events);
  }
}

/** Waits until every subscriber has `count` events. */
async function eventsArrived(subscribers: Watch[], count: number, what: string): Promise<void> {
  for (const subscriber of subscribers)
    await waitUntil(
      () => subscriber.events.length,
      (n) => n >= count,
      what,
    );
}

// ------------------------------------------------------------------------------------------------
describe("p2000Dossier", () => {
  const DOSSIER = `subscription ($d: String!) { p2000Dossier(dossier: { uuid: $d }, timelineOrderBy: "oldestFirst") {
    uuid messageCount urgency { code } city messages { message } timeline { kind previousValue newValue } } }`;
  // Stored as the FLEX reader stores a batch, sent now; one statement each.
  const store = async (message: string, capcode: string) => {
    await storeP2000Pages(ctx.db, [{ message, sended: new Date().toISOString(), capcodes: [capcode] }]);
    const {
      rows: [row],
    } = await ctx.db.asOwner("select dossier_uuid from app_public.p2000_messages where message = $1", [message]);
    return row.dossier_uuid as string;
  };
  /**
   * Subscribes to the dossier (both transports), runs `act`, waits for the one push, runs `after`
   * (what must push nothing) and expects that push alone.
   */
  const expectOnePush = async (
    dossierUuid: string,
    act: () => Promise<void>,
    pushed: Record<string, unknown>,
    after: () => Promise<void> = async () => {},
  ) => {
    const subscribers = subscribeBoth(DOSSIER, { d: dossierUuid });
    try {
      await hearing(subscribers, `p2000_dossier:${dossierUuid}`);
      await act();
      await eventsArrived(subscribers, 1, "the dossier's event");
      await after();
      await onlyThese(subscribers, [{ p2000Dossier: pushed }]);
    } finally {
      await stopAll(subscribers);
    }
  };
  // Ambulance messages of one incident: the same bon number in the same region (app_hidden.p2000_assign_dossier).
  const FIRST = "A2 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 9101";
  const FOLLOW_UP = "A1 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 9101";

  test("a follow-up message of the incident pushes the dossier with it; messages of other dossiers push nothing", async () => {
    const dossierUuid = await store(FIRST, "001420007");
    expect(dossierUuid).toMatch(/^[0-9a-f-]{36}$/);
    await expectOnePush(
      dossierUuid,
      async () => {
        // Another incident first: its own dossier, no event here.
        const otherUuid = await store("P 1 BRT-01 BR woning Toscalaan Hoogvliet Rotterdam 173151", "001400349");
        expect(otherUuid).not.toBe(dossierUuid);
        expect(await store(FOLLOW_UP, "001420007")).toBe(dossierUuid);
      },
      {
        uuid: dossierUuid,
        messageCount: 2,
        urgency: { code: "A1" },
        city: "Vlaardingen",
        messages: [{ message: FIRST }, { message: FOLLOW_UP }],
        timeline: [
          { kind: "opened", previousValue: null, newValue: "A2" },
          { kind: "message", previousValue: null, newValue: null },
          { kind: "urgency_raised", previousValue: "A2", newValue: "A1" },
        ],
      },
      // And another unrelated one after it.
      async () => void (await store("P 2 BDH-02 Buitenbrand Stationsweg Zoetermeer 151231", "001500123")),
    );
  });

  test("a further message that raises nothing pushes the dossier too: the message is its timeline entry", async () => {
    const first = "A1 AMBU 17106 Maassluisseweg 3134AA Vlaardingen VLAARD bon 9202";
    const second = "A1 AMBU 17108 Maassluisseweg 3134AA Vlaardingen VLAARD bon 9202";
    const dossierUuid = await store(first, "001420007");
    await expectOnePush(dossierUuid, async () => expect(await store(second, "001420007")).toBe(dossierUuid), {
      uuid: dossierUuid,
      messageCount: 2,
      urgency: { code: "A1" },
      city: "Vlaardingen",
      messages: [{ message: first }, { message: second }],
      timeline: [
        { kind: "opened", previousValue: null, newValue: "A1" },
        { kind: "message", previousValue: null, newValue: null },
      ],
    });
  });

  test("without dossier.uuid the subscription is refused with BAD_USER_INPUT", async () => {
    const {
      rows: [{ uuid }],
    } = await ctx.db.asOwner("select uuid from app_public.p2000_messages order by sended limit 1");
    for (const [query, variables] of [
      ["subscription { p2000Dossier { uuid } }", undefined],
      ["subscription ($m: String!) { p2000Dossier(message: { uuid: $m }) { uuid } }", { m: uuid }],
      ['subscription { p2000Dossier(dossier: { uuid: "   " }) { uuid } }', undefined],
    ] as Array<[string, Record<string, unknown> | undefined]>) {
      const subscribers = subscribeBoth(query, variables);
      try {
        await waitUntil(() => subscribers.every((s) => s.ended), Boolean, `the refusal of ${query}`);
        for (const subscriber of subscribers) {
          expect(subscriber.errors).toEqual([
            { message: "This subscription needs dossier.uuid.", code: "BAD_USER_INPUT" },
          ]);
          expect(subscriber.events).toEqual([]);
        }
      } finally {
        await stopAll(subscribers);
      }
    }
  });
});

// ------------------------------------------------------------------------------------------------
describe("meteoRegions", () => {
  const thisHour = () => new Date(Math.floor(Date.now() / HOUR) * HOUR);
  const nhWind = (status: 1 | 2 | 3, fromHours: number, toHours: number): SampleWarning => ({
    phenomenon: "wind",
    locations: ["NH"],
    status,
    text: "Zeer zware windstoten tot 100 km/u.",
    from: new Date(thisHour().getTime() + fromHours * HOUR),
    to: new Date(thisHour().getTime() + toHours * HOUR),
  });
  /** A KNMI warnings document issued this hour, stored as the poller stores it. */
  const ingestWarnings = (warnings: SampleWarning[], comment: string) =>
    ingestMeteoDocument(ctx.service.ownerPool, warningsXml(thisHour(), warnings, comment), `test ${comment}`);
  const REGIONS = "subscription { meteoRegions { code name statusCode status { description } } }";

  test("a warnings document turning a province orange pushes the 12 provinces, that one at its new level", async () => {
    const subscribers = subscribeBoth(REGIONS);
    try {
      await hearing(subscribers, "meteo_regions");
      // In force from this hour: meteoRegions' status is the current one.
      const stored = await ingestWarnings([nhWind(2, 0, 4)], "orange wind in Noord-Holland");
      expect(stored).toMatchObject({ duplicate: false, stored: { events: 1 } });
      await eventsArrived(subscribers, 1, "the warning event");
      await sleep(QUIET_MS);
      for (const subscriber of subscribers) {
        expect(subscriber.errors).toEqual([]);
        expect(subscriber.events).toHaveLength(1);
        const regions = subscriber.events[0].meteoRegions as Array<{ code: string; statusCode: number | null }>;
        expect(regions).toHaveLength(12);
        expect(regions.find((r) => r.code === "noord-holland")).toEqual({
          code: "noord-holland",
          name: "Noord-Holland",
          statusCode: 2,
          status: { description: "Code oranje" },
        });
        // Every other province is at level 0 (there is weather data now, without a warning for them).
        expect(regions.filter((r) => r.code !== "noord-holland").map((r) => r.statusCode)).toEqual(Array(11).fill(0));
      }
    } finally {
      await stopAll(subscribers);
    }
  });

  test("a later document that changes no province's level or phenomena pushes nothing; the next change does", async () => {
    const subscribers = subscribeBoth(REGIONS);
    try {
      await hearing(subscribers, "meteo_regions");
      // The same orange warning lasting two hours longer: no warning event (as in meteo.test.ts), so nothing to push.
      expect(await ingestWarnings([nhWind(2, 0, 6)], "the same warning, longer")).toMatchObject({
        duplicate: false,
        stored: { events: 0 },
      });
      await sleep(QUIET_MS);
      // Then red: a warning event.
      expect(await ingestWarnings([nhWind(3, 0, 6)], "red wind in Noord-Holland")).toMatchObject({
        stored: { events: 1 },
      });
      await eventsArrived(subscribers, 1, "the red warning");
      await sleep(QUIET_MS);
      for (const subscriber of subscribers) {
        expect(subscriber.errors).toEqual([]);
        expect(
          subscriber.events.map((event) =>
            (event.meteoRegions as Array<{ code: string; statusCode: number }>).filter((r) => r.statusCode !== 0),
          ),
        ).toEqual([
          [{ code: "noord-holland", name: "Noord-Holland", statusCode: 3, status: { description: "Code rood" } }],
        ]);
      }
    } finally {
      await stopAll(subscribers);
    }
  });
});

// ------------------------------------------------------------------------------------------------
describe("trafficIncidents(active: true)", () => {
  /** A DATEX II publication of the incidents feed, published now, stored as the poller stores it (the whole list). */
  const publish = (incidents: SampleIncident[]) =>
    ingestTrafficDocument(
      ctx.service.ownerPool,
      Readable.from([Buffer.from(datexV2Xml(new Date(), incidents))]),
      "test",
    );
  const start = new Date(Date.now() - 30 * 60_000);
  const running: SampleIncident = {
    id: "RWS03_500",
    version: 1,
    type: "breakdown",
    start,
    latitude: 53.2,
    longitude: 6.56,
    roadNumber: "N7",
  };
  const crash: SampleIncident = {
    id: "RWS03_501",
    version: 1,
    type: "accident",
    start,
    latitude: 52.0771,
    longitude: 4.9632,
    roadNumber: "A12",
    comment: "Ongeval op de A12 richting Utrecht",
    severity: "high",
    lanesRestricted: 2,
  };
  const ACTIVE = "subscription { trafficIncidents(active: true) { recordId version comment active } }";
  const listOf = (event: Record<string, any>) =>
    (event.trafficIncidents as Array<{ recordId: string }>)
      .slice()
      .sort((a, b) => a.recordId.localeCompare(b.recordId));

  test("an incident opened pushes the list with it; a newer version pushes nothing; closed pushes the list without it", async () => {
    // One incident running before anybody subscribes (an answer to push while the other is closed).
    expect((await publish([running])).stored).toMatchObject({ inserted: 1 });
    const subscribers = subscribeBoth(ACTIVE);
    try {
      await hearing(subscribers, "traffic_incidents");
      const runningNow = { recordId: "RWS03_500_1", version: 1, comment: null, active: true };
      const opened = [
        runningNow,
        { recordId: "RWS03_501_1", version: 1, comment: "Ongeval op de A12 richting Utrecht", active: true },
      ];

      // Opened.
      expect((await publish([running, crash])).stored).toMatchObject({ inserted: 1, updated: 0, closed: 0 });
      await eventsArrived(subscribers, 1, "the opened incident");
      // A newer version of the running crash, still open: not news for this list.
      expect((await publish([running, { ...crash, version: 2, comment: "Berger ter plaatse" }])).stored).toMatchObject({
        inserted: 0,
        updated: 1,
        closed: 0,
      });
      await sleep(QUIET_MS);
      for (const subscriber of subscribers) expect(subscriber.events.map(listOf)).toEqual([opened]);
      // Gone from the feed's whole list: closed.
      expect((await publish([running])).stored).toMatchObject({ inserted: 0, updated: 0, closed: 1 });
      await eventsArrived(subscribers, 2, "the closed incident");
      await sleep(QUIET_MS);

      const {
        rows: [closed],
      } = await ctx.db.asOwner("select closed_at from app_public.traffic_incidents where record_id = 'RWS03_501_1'");
      expect(closed.closed_at).toBeInstanceOf(Date);
      for (const subscriber of subscribers) {
        expect(subscriber.errors).toEqual([]);
        expect(subscriber.events.map(listOf)).toEqual([opened, [runningNow]]);
      }
    } finally {
      await stopAll(subscribers);
    }
  });
});

// ------------------------------------------------------------------------------------------------
describe("nlAlerts and amberAlerts", () => {
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

  const earlier: SampleNlAlert = {
    id: "c0ffee000101",
    startAt: new Date(Date.now() - 30 * HOUR),
    stopAt: new Date(Date.now() - 28 * HOUR),
    messageNl: "NL-Alert. Storing drinkwater in Groningen.",
    areas: [squareAround(53.22, 6.57, 0.02)],
  };
  const rotterdam: SampleNlAlert = {
    id: "b7f2e1d3c801",
    startAt: new Date(Date.now() - 10 * 60_000),
    messageNl: "NL-Alert. Brand in industriegebied Europoort te Rotterdam. Blijf binnen.",
    messageEn: "NL-Alert. Fire in Europoort industrial area in Rotterdam. Stay inside.",
    areas: [squareAround(51.95, 4.1, 0.02)],
  };
  /** One page of the public NL-Alert list, stored as the poller stores it. */
  const storePage = (alerts: SampleNlAlert[]) =>
    storeNlAlerts(ctx.service.ownerPool, parseNlAlerts(JSON.parse(nlAlertsJson(alerts))), "test");
  const NL_ALERTS = "subscription { nlAlerts { alertId messageNl messageEn active startAt regionNumbers } }";
  const rotterdamAnswer = {
    alertId: rotterdam.id,
    messageNl: rotterdam.messageNl,
    messageEn: rotterdam.messageEn,
    active: true,
    startAt: seconds(rotterdam.startAt),
    regionNumbers: ["17"],
  };
  const earlierAnswer = {
    alertId: earlier.id,
    messageNl: earlier.messageNl,
    messageEn: null,
    active: false,
    startAt: seconds(earlier.startAt),
    regionNumbers: ["01"],
  };

  test("an NL-Alert issued pushes the list with it", async () => {
    expect(await storePage([earlier])).toMatchObject({ inserted: 1 });
    const subscribers = subscribeBoth(NL_ALERTS);
    try {
      await hearing(subscribers, "nl_alerts");
      expect(await storePage([rotterdam, earlier])).toMatchObject({ inserted: 1, updated: 0 });
      await eventsArrived(subscribers, 1, "the new NL-Alert");
      await onlyThese(subscribers, [{ nlAlerts: [rotterdamAnswer, earlierAnswer] }]);
    } finally {
      await stopAll(subscribers);
    }
  });

  test("the same page stored again pushes nothing; the alert withdrawn pushes it inactive", async () => {
    const subscribers = subscribeBoth(NL_ALERTS);
    try {
      await hearing(subscribers, "nl_alerts");
      expect(await storePage([rotterdam, earlier])).toMatchObject({ inserted: 0, updated: 0 });
      await sleep(QUIET_MS);
      const stopAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
      expect(await storePage([{ ...rotterdam, stopAt }, earlier])).toMatchObject({ inserted: 0, updated: 1 });
      await eventsArrived(subscribers, 1, "the withdrawn NL-Alert");
      await onlyThese(subscribers, [{ nlAlerts: [{ ...rotterdamAnswer, active: false }, earlierAnswer] }]);
    } finally {
      await stopAll(subscribers);
    }
  });

  const sophie: SampleAmberAlert = {
    alertId: "2026-0912",
    type: "Alert",
    level: 10,
    sent: new Date(Date.now() - 2 * HOUR),
    title: "Vermist: Sophie de Vries (7)",
    descriptionHtml: "<p>De politie zoekt <b>Sophie</b>.</p>",
  };
  const daan: SampleAmberAlert = {
    alertId: "2026-0913",
    type: "Alert",
    level: 5,
    sent: new Date(Date.now() - 5 * 60_000),
    title: "Vermist: Daan (12)",
    descriptionHtml: "<p>Daan is vermist in Zwolle.</p>",
  };
  /** The police's whole alert list, stored as the poller stores it. */
  const storeList = (alerts: SampleAmberAlert[]) =>
    storeAmberAlerts(ctx.service.ownerPool, parseAmberAlerts(JSON.parse(amberAlertsJson(alerts))), "test", {
      complete: true,
    });
  const AMBER_ALERTS = "subscription { amberAlerts { alertId kind active title description startedAt } }";
  const sophieAnswer = {
    alertId: sophie.alertId,
    kind: "amber",
    active: true,
    title: sophie.title,
    description: "De politie zoekt Sophie.",
    startedAt: seconds(sophie.sent),
  };
  const daanAnswer = {
    alertId: daan.alertId,
    kind: "missing_child",
    active: true,
    title: daan.title,
    description: "Daan is vermist in Zwolle.",
    startedAt: seconds(daan.sent),
  };

  test("an AMBER alert issued pushes the list with it", async () => {
    expect(await storeList([sophie])).toMatchObject({ started: 1 });
    const subscribers = subscribeBoth(AMBER_ALERTS);
    try {
      await hearing(subscribers, "amber_alerts");
      expect(await storeList([sophie, daan])).toMatchObject({ started: 1, updated: 0, ended: 0 });
      await eventsArrived(subscribers, 1, "the new AMBER alert");
      await onlyThese(subscribers, [{ amberAlerts: [daanAnswer, sophieAnswer] }]);
    } finally {
      await stopAll(subscribers);
    }
  });

  test("the same list stored again pushes nothing; a Cancel pushes the alert ended, its details erased", async () => {
    const subscribers = subscribeBoth(AMBER_ALERTS);
    try {
      await hearing(subscribers, "amber_alerts");
      expect(await storeList([sophie, daan])).toMatchObject({ started: 0, updated: 0, ended: 0 });
      await sleep(QUIET_MS);
      expect(await storeList([sophie, { ...daan, type: "Cancel" }])).toMatchObject({
        started: 0,
        updated: 0,
        ended: 1,
      });
      await eventsArrived(subscribers, 1, "the cancelled AMBER alert");
      await onlyThese(subscribers, [
        { amberAlerts: [{ ...daanAnswer, active: false, title: null, description: null }, sophieAnswer] },
      ]);
    } finally {
      await stopAll(subscribers);
    }
  });
});

// ------------------------------------------------------------------------------------------------
describe("aircraftLive", () => {
  const LIVE =
    "subscription ($a: String!) { aircraftLive(icao: $a) { icao registration latitude longitude altitudeFt onGround lastSeenAt } }";
  /** A receiver's aircraft.json with one airborne position per aircraft, seen `now`; stored as the poller stores it. */
  const receive = (now: Date, positions: Array<{ hex: string; lat: number; lon: number }>) =>
    ingestAircraftDocument(
      ctx.service.ownerPool,
      JSON.stringify({
        now: now.getTime() / 1000,
        messages: 1000,
        aircraft: positions.map((p) => ({
          hex: p.hex,
          type: "adsb_icao",
          flight: "LIFE1   ",
          alt_baro: 1500,
          alt_geom: 1600,
          gs: 120,
          track: 270,
          lat: p.lat,
          lon: p.lon,
          seen_pos: 0,
          seen: 0,
        })),
      }),
      "test",
    );

  test("a new position of the aircraft pushes it, by ICAO address and by registration; another aircraft's pushes nothing", async () => {
    // Two aircraft of the tracked fleet (data/aircraft-fleet.csv, loaded when the service starts).
    const { rows: fleet } = await ctx.db.asOwner(
      "select icao, registration from app_public.aircraft_fleet order by icao limit 2",
    );
    expect(fleet).toHaveLength(2);
    const [mine, other] = fleet as Array<{ icao: string; registration: string }>;
    const byIcao = subscribeBoth(LIVE, { a: mine.icao.toUpperCase() });
    const byRegistration = subscribeBoth(LIVE, { a: mine.registration.toLowerCase() });
    const otherSubscribers = subscribeBoth(LIVE, { a: other.icao });
    try {
      await hearing(byIcao, `aircraft:${mine.icao.toLowerCase()}`);
      await hearing(byRegistration, `aircraft:${mine.registration.toLowerCase()}`);
      await hearing(otherSubscribers, `aircraft:${other.icao.toLowerCase()}`);

      const otherAt = new Date(Date.now() - 2_000);
      expect(await receive(otherAt, [{ hex: other.icao, lat: 52.1, lon: 5.1 }])).toMatchObject({ stored: 1 });
      await eventsArrived(otherSubscribers, 1, "the other aircraft's position");
      const mineAt = new Date(Date.now() - 1_000);
      expect(await receive(mineAt, [{ hex: mine.icao, lat: 52.3728, lon: 4.8936 }])).toMatchObject({ stored: 1 });
      await eventsArrived([...byIcao, ...byRegistration], 1, "the aircraft's position");
      await sleep(QUIET_MS);

      const expected = (aircraft: { icao: string; registration: string }, lat: number, lon: number) => [
        {
          aircraftLive: {
            icao: aircraft.icao,
            registration: aircraft.registration,
            latitude: lat,
            longitude: lon,
            altitudeFt: 1600,
            onGround: false,
            lastSeenAt: expect.any(String),
          },
        },
      ];
      const seenAt = (subscriber: Watch) => Date.parse(subscriber.events[0].aircraftLive.lastSeenAt);
      for (const subscriber of [...byIcao, ...byRegistration]) {
        expect(subscriber.errors).toEqual([]);
        expect(subscriber.events).toEqual(expected(mine, 52.3728, 4.8936));
        expect(seenAt(subscriber)).toBe(mineAt.getTime());
      }
      for (const subscriber of otherSubscribers) {
        expect(subscriber.errors).toEqual([]);
        expect(subscriber.events).toEqual(expected(other, 52.1, 5.1));
        expect(seenAt(subscriber)).toBe(otherAt.getTime());
      }
    } finally {
      await stopAll([...byIcao, ...byRegistration, ...otherSubscribers]);
    }
  });
});
