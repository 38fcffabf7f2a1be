// monitorPreview of the feed monitor types (issue #29): accident, meteo_weather, nl_alert and
// amber_alert. Items in the feeds' real formats go through the real ingestion, are spread over the
// last days, and the preview of each input must list exactly what live matching (the feed's own
// matcher, app_private.match_*, over the same items in time order) records for a saved monitor
// with the same input: the same items, newest first, the same days. Previews save and send nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { flightDocuments } from "../../lib/feeds/aircraft/sample-documents.ts";
import { ingestAlertsDocument } from "../../lib/feeds/alerts/ingest.ts";
import { amberAlertsJson, nlAlertsJson, squareAround } from "../../lib/feeds/alerts/sample-documents.ts";
import { parseRailDisruptions } from "../../lib/feeds/rail/disruptions-parser.ts";
import { storeRailDisruptions } from "../../lib/feeds/rail/poll.ts";
import { railDisruptionsSample } from "../../lib/feeds/rail/sample-documents.ts";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml } from "../../lib/feeds/meteo/sample-documents.ts";
import { ingestTrafficDocument } from "../../lib/feeds/traffic/ingest.ts";
import { datexV2Xml, datexV3Xml, type SampleIncident } from "../../lib/feeds/traffic/sample-documents.ts";
import { parseRssDocument } from "../../lib/feeds/rss/parser.ts";
import { storeRssDocument } from "../../lib/feeds/rss/store.ts";
import { runCli } from "../helpers/cli.ts";
import { useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

const ctx = useTestService();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "preview-aircraft-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PREVIEW = `query ($i: CreateMonitorInput!, $d: Int) {
  monitorPreview(input: $i, days: $d) {
    matches notifications
    byDay { date matches notifications }
    messages { uuid }
    items { kind uuid at title latitude longitude }
  }
}`;

interface Preview {
  matches: number;
  notifications: number;
  byDay: Array<{ date: string; matches: number; notifications: number }>;
  messages: Array<{ uuid: string }>;
  items: Array<{
    kind: string;
    uuid: string;
    at: string;
    title: string | null;
    latitude: number | null;
    longitude: number | null;
  }>;
}

let ada: TestUser;

async function preview(input: Record<string, unknown>, days = 30): Promise<Preview> {
  const { body } = await ctx.service.graphql(PREVIEW, { token: ada.accessToken, variables: { i: input, d: days } });
  expect(body.errors).toBeUndefined();
  return body.data.monitorPreview;
}

async function createMonitor(input: Record<string, unknown>): Promise<string> {
  const { body } = await ctx.service.graphql(
    "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
    { token: ada.accessToken, variables: { i: input } },
  );
  expect(body.errors).toBeUndefined();
  return body.data.createMonitor.uuid;
}

const counts = async () =>
  (
    await ctx.db.asOwner(`
    select (select count(*) from app_public.monitors)::int as monitors,
           (select count(*) from app_hidden.feed_monitor_matches)::int as matches,
           (select count(*) from app_private.notifications)::int as notifications,
           (select count(*) from graphile_worker.jobs)::int as jobs`)
  ).rows[0];

/** The items (uuids) live matching recorded for a monitor, newest first by `at` (an SQL expression of the item's time). */
async function recorded(monitorUuid: string, table: string, at: string): Promise<string[]> {
  const { rows } = await ctx.db.asOwner(
    `select x.uuid from app_hidden.feed_monitor_matches m join ${table} x on x.uuid = m.event_uuid
      where m.monitor_uuid = $1 order by ${at} desc, x.uuid desc`,
    [monitorUuid],
  );
  return rows.map((r) => r.uuid);
}

/** The preview and live matching of one input: the preview first (nothing saved), then the saved monitor matched live. */
async function compare(
  input: Record<string, unknown>,
  matcher: string,
  table: string,
  at: string,
  saved: (uuid: string) => Promise<unknown> = async () => {},
): Promise<{ preview: Preview; live: string[] }> {
  const before = await counts();
  const result = await preview(input);
  expect(await counts()).toEqual(before);
  const uuid = await createMonitor(input);
  await saved(uuid);
  await ctx.db.asOwner(`select ${matcher}(x.uuid) from ${table} x order by ${at}, x.uuid`);
  const live = await recorded(uuid, table, at);
  expect(result.items.map((i) => i.uuid)).toEqual(live);
  expect(result.matches).toBe(live.length);
  expect(result.notifications).toBe(live.length);
  expect(result.messages).toEqual([]);
  expect(result.byDay).toHaveLength(30);
  // Per Dutch day of the items' times: live matching's items by day.
  const { rows } = await ctx.db.asOwner(
    `select to_char((${at} at time zone 'Europe/Amsterdam')::date, 'YYYY-MM-DD') as date, count(*)::int as matches
       from ${table} x where x.uuid = any ($1::uuid[]) group by 1 order by 1`,
    [live],
  );
  expect(result.byDay.filter((d) => d.matches > 0)).toEqual(rows.map((r) => ({ ...r, notifications: r.matches })));
  // Deactivate, so the next comparisons' live runs leave it be.
  await ctx.db.asOwner("update app_public.monitors set active = false where uuid = $1", [uuid]);
  return { preview: result, live };
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org");
  const now = new Date();
  const pool = ctx.service.ownerPool;

  // Traffic: accidents and a breakdown on the A12 near Utrecht, an accident elsewhere, stored as
  // the feed delivers them; their events then spread over the last days (one each).
  const accident: SampleIncident = {
    id: "RWS03_900",
    version: 1,
    type: "accident",
    start: new Date(now.getTime() - HOUR),
    latitude: 52.08,
    longitude: 4.95,
    roadNumber: "A12",
    comment: "Ongeval",
  };
  const incidents: SampleIncident[] = [
    accident,
    { ...accident, id: "RWS03_901", latitude: 52.09, longitude: 4.97 },
    { ...accident, id: "RWS03_902", type: "breakdown" },
    { ...accident, id: "RWS03_903", latitude: 51.5, longitude: 5.5, roadNumber: "A2" },
    { ...accident, id: "RWS03_904", latitude: 52.07, longitude: 4.94 },
  ];
  await ingestTrafficDocument(pool, Readable.from([Buffer.from(datexV2Xml(now, incidents))]), "test");

  // Jams from the jams feed: the A2 with 20 and 5 minutes of delay, the A4 with 45.
  const jam: SampleIncident = {
    id: "RWS01_900",
    version: 1,
    type: "jam",
    start: new Date(now.getTime() - HOUR),
    latitude: 52.2,
    longitude: 4.9,
    roadNumber: "A2",
    delayMinutes: 20,
    queueLengthMetres: 3500,
  };
  const jams = [
    jam,
    { ...jam, id: "RWS01_901", delayMinutes: 5 },
    { ...jam, id: "RWS01_902", latitude: 52, longitude: 4.4, roadNumber: "A4", delayMinutes: 45 },
  ];
  await ingestTrafficDocument(pool, Readable.from([Buffer.from(datexV3Xml(now, jams))]), "test", "jams");

  // Railway disruptions: the sample list in the source's JSON.
  await storeRailDisruptions(pool, parseRailDisruptions(railDisruptionsSample(now)), "test");

  // RSS: a followed feed's items in RSS 2.0, stored as the poller stores them.
  const {
    rows: [{ uuid: feedUuid }],
  } = await ctx.db.asOwner(
    "insert into app_public.rss_feeds (url) values ('https://example.invalid/p2000.rss') returning uuid",
  );
  const rssItem = (guid: string, title: string, lat: number, lon: number) =>
    `<item><title>${title}</title><link>https://example.invalid/p2000/${guid}</link><description>Melding</description>` +
    `<pubDate>${now.toUTCString()}</pubDate><guid isPermaLink="false">${guid}</guid>` +
    `<geo:lat>${lat}</geo:lat><geo:long>${lon}</geo:long></item>`;
  const rssDocument = parseRssDocument(
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:geo="http://www.w3.org/2003/01/geo/wgs84_pos#">` +
      `<channel><title>P2000</title><link>https://example.invalid/p2000</link><description>Meldingen</description>` +
      rssItem("1", "P 1 BRT-01 BR woning Toscalaan Hoogvliet", 51.8612, 4.3421) +
      rssItem("2", "A1 Ambulance Kerkstraat Schiedam", 51.92, 4.4) +
      rssItem("3", "P 2 Brandweer Hoogvliet nacontrole", 51.86, 4.34) +
      `</channel></rss>`,
  );
  await storeRssDocument({ query: ctx.db.asOwner }, feedUuid, rssDocument);

  // Weather warnings: Utrecht orange for wind, Noord-Holland yellow for rain.
  const warnings = warningsXml(
    now,
    [
      {
        phenomenon: "wind",
        locations: ["UT"],
        from: new Date(Math.floor(now.getTime() / HOUR) * HOUR),
        to: new Date(Math.floor(now.getTime() / HOUR) * HOUR + 6 * HOUR),
        status: 2,
        text: "Zware windstoten",
      },
      {
        phenomenon: "rain",
        locations: ["NH"],
        from: new Date(Math.floor(now.getTime() / HOUR) * HOUR),
        to: new Date(Math.floor(now.getTime() / HOUR) * HOUR + 6 * HOUR),
        status: 1,
        text: "Veel regen",
      },
    ],
    "Synthetic sample for tests.",
  );
  await ingestMeteoDocument(pool, warnings, "test");

  // NL-Alerts: one over the Europoort, one in Groningen, one with an area over Utrecht.
  await ingestAlertsDocument(
    pool,
    Buffer.from(
      nlAlertsJson([
        {
          id: "nl-900",
          messageNl: "Brand Europoort, sluit ramen en deuren",
          startAt: new Date(now.getTime() - 2 * HOUR),
          areas: [squareAround(51.955, 4.095)],
        },
        {
          id: "nl-901",
          messageNl: "Gaslek Groningen",
          startAt: new Date(now.getTime() - HOUR),
          areas: [squareAround(53.22, 6.57)],
        },
        {
          id: "nl-902",
          messageNl: "Stroomstoring Utrecht",
          startAt: new Date(now.getTime() - 30 * 60_000),
          areas: [squareAround(52.09, 5.12, 0.05)],
        },
      ]),
    ),
    "test",
  );

  // AMBER: an AMBER Alert (national) and a missing-child alert in Overijssel.
  await ingestAlertsDocument(
    pool,
    Buffer.from(
      amberAlertsJson([
        {
          alertId: "amber-900",
          type: "Alert",
          level: 10,
          sent: new Date(now.getTime() - 2 * HOUR),
          title: "Vermist: Daan (12)",
          descriptionHtml: "<p>Laatst gezien in Zwolle.</p>",
        },
        {
          alertId: "amber-901",
          type: "Alert",
          level: 5,
          sent: new Date(now.getTime() - HOUR),
          title: "Vermist: Sanne (9)",
          descriptionHtml: "<p>Laatst gezien in Zwolle.</p>",
        },
      ]),
    ),
    "test",
  );
  // Aircraft: a tracked helicopter flying from Amsterdam to Haarlem two days ago (a take-off and a
  // landing), read from receiver documents by the CLI.
  await ctx.db.asOwner(`insert into app_public.aircraft_fleet (icao, registration, kind, callsign, type, operator, base)
    values ('48ffa2', 'PH-PRV', 'trauma', 'LIFE9', 'EC35', 'Test', 'Amsterdam')`);
  const files = flightDocuments({
    hex: "48ffa2",
    flight: "LIFE9",
    registration: "PH-PRV",
    from: { lat: 52.3728, lon: 4.8936 },
    to: { lat: 52.381, lon: 4.636 },
    start: new Date(now.getTime() - 2 * DAY),
  }).map((document, i) => {
    const file = path.join(dir, `aircraft-${String(i).padStart(3, "0")}.json`);
    fs.writeFileSync(file, document);
    return file;
  });
  expect((await runCli("ingest-aircraft.ts", files, ctx.db.ownerUrl)).code).toBe(0);
  await ctx.service.workerIdle();

  // Spread over the last days: item n of each feed n * 3 days (and a few hours) ago, as if stored then.
  await ctx.db.asOwner(`
    update app_public.traffic_incident_events e set created = now() - (x.n * 3 || ' days')::interval - interval '1 hour'
      from (select uuid, row_number() over (order by uuid) - 1 as n from app_public.traffic_incident_events) x where x.uuid = e.uuid;
    update app_public.traffic_jams j set first_seen_at = now() - (x.n * 2 || ' days')::interval - interval '1 hour'
      from (select uuid, row_number() over (order by record_id) - 1 as n from app_public.traffic_jams) x where x.uuid = j.uuid;
    update app_public.rail_disruptions d set first_seen_at = now() - (x.n * 2 || ' days')::interval - interval '2 hours'
      from (select uuid, row_number() over (order by kind, source_id) - 1 as n from app_public.rail_disruptions) x where x.uuid = d.uuid;
    update app_public.rss_feed_items i set first_seen_at = now() - (x.n * 2 || ' days')::interval - interval '3 hours'
      from (select uuid, row_number() over (order by guid) - 1 as n from app_public.rss_feed_items) x where x.uuid = i.uuid;
    update app_public.meteo_warning_events e set created = now() - (x.n * 3 || ' days')::interval - interval '1 hour',
           period_to = now() - (x.n * 3 || ' days')::interval + interval '5 hours'
      from (select uuid, row_number() over (order by uuid) - 1 as n from app_public.meteo_warning_events) x where x.uuid = e.uuid;
    update app_public.nl_alerts a set start_at = now() - (x.n * 4 || ' days')::interval - interval '1 hour',
           first_seen_at = now() - (x.n * 4 || ' days')::interval - interval '1 hour'
      from (select uuid, row_number() over (order by alert_id) - 1 as n from app_public.nl_alerts) x where x.uuid = a.uuid;
    update app_public.amber_alerts a set started_at = now() - (x.n * 5 || ' days')::interval - interval '1 hour',
           first_seen_at = now() - (x.n * 5 || ' days')::interval - interval '1 hour'
      from (select uuid, row_number() over (order by alert_id) - 1 as n from app_public.amber_alerts) x where x.uuid = a.uuid;`);
  const { rows } = await ctx.db.asOwner(`
    select (select count(*) from app_public.traffic_incident_events)::int as traffic,
           (select count(*) from app_public.meteo_warning_events where status_code > 0)::int as meteo,
           (select count(*) from app_public.nl_alerts)::int as nl, (select count(*) from app_public.amber_alerts)::int as amber,
           (select count(*) from app_public.aircraft_events)::int as aircraft,
           (select count(*) from app_public.traffic_jams where closed_at is null)::int as jams,
           (select count(*) from app_public.rss_feed_items)::int as rss,
           (select count(*) from app_public.monitors)::int as monitors`);
  expect(rows[0]).toEqual({ traffic: 5, meteo: 2, nl: 3, amber: 2, aircraft: 2, jams: 3, rss: 3, monitors: 0 });
});

describe("monitorPreview of feed monitors equals live matching on the same items", () => {
  const traffic = ["app_private.match_traffic_event", "app_public.traffic_incident_events", "x.created"] as const;
  const meteo = ["app_private.match_meteo_event", "app_public.meteo_warning_events", "x.created"] as const;
  const nl = ["app_private.match_nl_alert", "app_public.nl_alerts", "x.start_at"] as const;
  const amber = ["app_private.match_amber_alert", "app_public.amber_alerts", "x.started_at"] as const;
  const jams = ["app_private.match_traffic_jam", "app_public.traffic_jams", "x.first_seen_at"] as const;
  const rss = ["app_private.match_rss_item", "app_public.rss_feed_items", "x.first_seen_at"] as const;
  const rail = [
    "app_private.match_rail_disruption",
    "app_public.rail_disruptions",
    "greatest(x.first_seen_at, x.start_at)",
  ] as const;
  const aircraft = ["app_private.match_aircraft_event", "app_public.aircraft_events", "x.at"] as const;

  test("accident: types, roads and circle", async () => {
    const { preview: circle, live } = await compare(
      {
        name: "A12 bij Utrecht",
        type: "accident",
        query: JSON.stringify({ types: ["accident"], roads: ["A12"] }),
        location: { latitude: 52.08, longitude: 4.95 },
        radius: 5,
      },
      ...traffic,
    );
    expect(live).toHaveLength(3); // not the breakdown, not the A2 far away
    expect(circle.items[0]).toMatchObject({
      kind: "traffic",
      latitude: expect.any(Number),
      longitude: expect.any(Number),
    });
    expect(circle.items[0].title).toMatch(/accident A12/);
    const { live: all } = await compare({ name: "Alles", type: "accident", query: "{}" }, ...traffic);
    expect(all).toHaveLength(5);
  });

  test("meteo_weather: provinces and levels", async () => {
    const { live } = await compare(
      {
        name: "Utrecht oranje",
        type: "meteo_weather",
        query: JSON.stringify({ regions: ["utrecht"], levels: ["orange"] }),
      },
      ...meteo,
    );
    expect(live).toHaveLength(1);
    const { live: all } = await compare({ name: "Elk weer", type: "meteo_weather", query: "{}" }, ...meteo);
    expect(all).toHaveLength(2);
  });

  test("nl_alert: circle, point, regions, everywhere", async () => {
    const { preview: circle, live } = await compare(
      { name: "Europoort", type: "nl_alert", query: "{}", location: { latitude: 51.95, longitude: 4.1 }, radius: 3 },
      ...nl,
    );
    expect(live).toHaveLength(1);
    expect(circle.items[0].latitude).toBeCloseTo(51.955, 2);
    expect(circle.items[0].longitude).toBeCloseTo(4.095, 2);
    const { live: point } = await compare(
      { name: "Punt", type: "nl_alert", query: "{}", location: { latitude: 52.09, longitude: 5.12 } },
      ...nl,
    );
    expect(point).toHaveLength(1);
    const { live: region } = await compare(
      { name: "Groningen", type: "nl_alert", query: JSON.stringify({ regions: ["1"] }) },
      ...nl,
    );
    expect(region).toHaveLength(1);
    const { live: all } = await compare({ name: "Overal", type: "nl_alert", query: "{}" }, ...nl);
    expect(all).toHaveLength(3);
  });

  test("amber_alert: kinds and provinces", async () => {
    const { live: all } = await compare({ name: "Heel NL", type: "amber_alert", query: "{}" }, ...amber);
    expect(all).toHaveLength(2);
    const { live: limburg } = await compare(
      { name: "Limburg", type: "amber_alert", query: JSON.stringify({ provinces: ["limburg"] }) },
      ...amber,
    );
    expect(limburg).toHaveLength(1); // only the national AMBER Alert
    const { live: missing } = await compare(
      {
        name: "Overijssel vermist",
        type: "amber_alert",
        query: JSON.stringify({ kinds: ["missing_child"], provinces: ["overijssel"] }),
      },
      ...amber,
    );
    expect(missing).toHaveLength(1);
  });

  test("aircraft: kinds, registrations and circle", async () => {
    const { preview: landing, live } = await compare(
      {
        name: "Lifeliner bij Haarlem",
        type: "aircraft",
        query: JSON.stringify({ kinds: ["lifeliner"] }),
        location: { latitude: 52.381, longitude: 4.636 },
        radius: 3,
      },
      ...aircraft,
    );
    expect(live).toHaveLength(1);
    expect(landing.items[0]).toMatchObject({ kind: "aircraft", title: expect.stringMatching(/PH-PRV landing/) });
    expect(landing.items[0].latitude).toBeCloseTo(52.381, 1);
    const { live: both } = await compare(
      { name: "PH-PRV", type: "aircraft", query: JSON.stringify({ registrations: ["ph-prv"] }) },
      ...aircraft,
    );
    expect(both).toHaveLength(2);
  });

  test("matrix: roads and minimum delay", async () => {
    const { preview: a2, live } = await compare(
      { name: "A2 files", type: "matrix", query: JSON.stringify({ roads: ["a2"], minDelayMinutes: 15 }) },
      ...jams,
    );
    expect(live).toHaveLength(1);
    expect(a2.items[0]).toMatchObject({ kind: "traffic_jam", latitude: 52.2, longitude: 4.9 });
    const { live: all } = await compare({ name: "Alle files", type: "matrix", query: "{}" }, ...jams);
    expect(all).toHaveLength(3);
  });

  test("rail_disruptions: routes, calamities everywhere", async () => {
    // Not the maintenance still to start: live matching waits until it is active.
    const { rows } = await ctx.db.asOwner("select count(*)::int as n from app_public.rail_disruptions where active");
    const { live: route } = await compare(
      { name: "Zwolle–Groningen", type: "rail_disruptions", query: JSON.stringify({ routes: ["zwolle-groningen"] }) },
      ...rail,
    );
    const { live: all } = await compare({ name: "Alle storingen", type: "rail_disruptions", query: "{}" }, ...rail);
    expect(all).toHaveLength(rows[0].n);
    expect(route).toHaveLength(1); // the calamity; the disruption Amsterdam–Utrecht is on another route
    expect(all).toHaveLength(2);
  });

  test("the window: a shorter one leaves the older items out, and every day is listed", async () => {
    const week = await preview({ name: "Alles", type: "accident", query: "{}" }, 7);
    expect(week.byDay).toHaveLength(7);
    // The events 0, 3 and 6 days and an hour ago whose Amsterdam day is one of the window's seven: all
    // three, except in the first hour after midnight, when the oldest falls on the day before.
    const amsterdamDay = (time: number) =>
      new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(new Date(time));
    const now = Date.now();
    const inWindow = [0, 3, 6].filter((days) => amsterdamDay(now - days * DAY - HOUR) >= amsterdamDay(now - 6 * DAY));
    expect(week.matches).toBe(inWindow.length);
  });

  test("quiet hours and maxPerPeriod apply at each item's time", async () => {
    const throttled = await preview({
      name: "Alles",
      type: "accident",
      query: "{}",
      notificationRules: JSON.stringify({ maxPerPeriod: { count: 1, minutes: 60 * 24 * 4 } }),
    });
    // Events 0, 3, 6, 9 and 12 days ago: one in four days lets every other one through.
    expect(throttled).toMatchObject({ matches: 5, notifications: 3 });
  });

  test("rss: feeds and keywords, over items seen before the monitor was saved", async () => {
    // Live matching skips items first seen before the monitor existed; the preview's unsaved
    // monitor has always existed. Live, the saved monitor is made as old as the window.
    const always = (uuid: string) =>
      ctx.db.asOwner("update app_hidden.rss_monitor_criteria set since = '-infinity' where monitor_uuid = $1", [uuid]);
    const feeds = ["https://example.invalid/p2000.rss"];
    const { preview: hoogvliet, live } = await compare(
      { name: "Hoogvliet", type: "rss", query: JSON.stringify({ feeds, keywords: ["HOOGVLIET"] }) },
      ...rss,
      always,
    );
    expect(live).toHaveLength(2);
    expect(hoogvliet.items[0]).toMatchObject({
      kind: "rss",
      latitude: expect.any(Number),
      longitude: expect.any(Number),
    });
    const { live: all } = await compare(
      { name: "Alles", type: "rss", query: JSON.stringify({ feeds }) },
      ...rss,
      always,
    );
    expect(all).toHaveLength(3);
    // A feed nobody follows yet has no items; the preview follows nothing.
    const before = await counts();
    const other = await preview({
      name: "Ander",
      type: "rss",
      query: JSON.stringify({ feeds: ["https://example.invalid/other.rss"] }),
    });
    expect(other.matches).toBe(0);
    expect(await counts()).toEqual(before);
    const { rows } = await ctx.db.asOwner(
      "select count(*)::int as n from app_public.rss_feeds where url like '%other.rss'",
    );
    expect(rows[0].n).toBe(0);
  });
});
