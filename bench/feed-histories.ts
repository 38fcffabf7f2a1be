// The feed histories the benchmarks fill, one function each, so that the bench of a feed and the
// monitor preview bench (bench/monitor-preview.ts) build the same history: traffic incidents with
// their events, jams and railway disruptions, NL-Alerts and AMBER alerts, KNMI warnings, take-offs
// and landings of the tracked helicopters, and RSS feeds with their monitors and items. Each fills
// only what is missing (or, where a partial table cannot be completed, empties and refills it),
// seeded, so that every run holds the same history; statistics are each function's own where it
// wrote many rows, the CHECKPOINT the caller's.
import pg from "pg";
import { analyzeTables } from "../lib/db/fresh-statistics.ts";
import { readAlertsDocument, storeAmberAlerts, storeNlAlerts } from "../lib/feeds/alerts/ingest.ts";
import { amberAlertsJson, nlAlertsJson, type SampleNlAlert } from "../lib/feeds/alerts/sample-documents.ts";
import { ingestMeteoDocument } from "../lib/feeds/meteo/ingest.ts";
import { KNMI_LOCATIONS, warningsXml, type SampleWarning } from "../lib/feeds/meteo/sample-documents.ts";
import { seeded } from "./bench-database.ts";

type Log = (line: string) => void;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ALERT_BATCH = 1000;
const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const pad = (n: number) => String(n).padStart(2, "0");
const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const count = async (db: pg.Pool, table: string) =>
  (await db.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0].n;
export const dayStart = (time: number) => Math.floor(time / DAY) * DAY;
export const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

// ------------------------------------------------------------------------------------------------
// Traffic (bench/traffic-read.ts, bench/monitor-preview.ts)

// Traffic incidents: one INSERT per quarter of the rows (so a run shows progress), set-based
// from generate_series, each quarter in time order. Active incidents (the last 2% of the numbers,
// so in the last quarter, at the end of the heap) started in the last week; the others started
// between a week and three years ago and lasted 10 minutes to 4 hours. Types as the feed has
// them (half breakdowns), roads A1..A67, places inside the Netherlands' bounding box.
// Returns the seconds it took (empty when the table held the rows already).
export async function fillTrafficIncidents(db: pg.Pool, incidents: number, log: Log): Promise<Record<string, number>> {
  const filling: Record<string, number> = {};
  if ((await count(db, "app_public.traffic_incidents")) !== incidents) {
    log(`Filling ${incidents.toLocaleString("en")} traffic incidents ...`);
    await db.query("truncate app_public.traffic_incidents cascade");
    const client = await db.connect();
    const started = performance.now();
    try {
      await client.query("select setseed(0.4242)");
      const parts = 4;
      for (let part = 0; part < parts; part++) {
        const from = Math.floor((part * incidents) / parts) + 1;
        const to = Math.floor(((part + 1) * incidents) / parts);
        // Quarters of the time line, oldest first, so the heap (and the uuidv7 keys) grow in time
        // order as in a live table: part p holds the rows whose number falls in its range, and the
        // start times of part p are drawn from its quarter of the three years.
        await client.query(
          `
          insert into app_public.traffic_incidents (record_id, situation_id, version, version_time, type, severity, validity_status,
            start_at, end_at, latitude, longitude, road_number, comment, lanes_restricted, first_seen_at, closed_at)
          select 'RWS03_BENCH_' || g, 'RWS03_BENCH_SIT_' || g, 1, s.start_at,
                 (array['accident', 'breakdown', 'breakdown', 'unattended'])[1 + g % 4],
                 (array['low', 'medium', 'medium', 'high', 'highest'])[1 + g % 5],
                 'active',
                 s.start_at, case when not s.active then s.start_at + s.duration end,
                 round((50.76 + random() * 2.7)::numeric, 5)::float8, round((3.36 + random() * 3.83)::numeric, 5)::float8,
                 'A' || (1 + (g::bigint * 7919) % 67),
                 (array['Rijstrook afgesloten, vertraging mogelijk.', 'Pechgeval op de vluchtstrook.',
                        'Ongeval, hulpdiensten ter plaatse. Houd rekening met vertraging.', 'Achtergelaten voertuig op de vluchtstrook.'])[1 + g % 4],
                 g % 3, s.start_at + interval '1 minute', case when not s.active then s.start_at + s.duration end
            from generate_series($1::int, $2::int) g,
                 lateral (select g > $5::int as active) a,
                 lateral (select a.active,
                                 case when a.active then now() - random() * interval '7 days'
                                      else now() - interval '7 days' - interval '3 years' * (($3::int - 1 - $4::int + random()) / $3::int) end as start_at,
                                 interval '10 minutes' + random() * interval '230 minutes' as duration) s
           order by s.start_at`,
          [from, to, parts, part, incidents - Math.round(incidents / 50)],
        );
        log(`  ${to.toLocaleString("en")} rows, ${((performance.now() - started) / 1000).toFixed(0)} s`);
      }
    } finally {
      client.release();
    }
    filling.incidentsSeconds = round((performance.now() - started) / 1000);
    const vacuumStarted = performance.now();
    // Statistics for the planner at once (autovacuum would analyse the table only at its next round),
    // and a VACUUM now rather than autovacuum's in the middle of the measurements.
    await analyzeTables(db, ["app_public.traffic_incidents", "app_public.traffic_incident_events"]);
    await db.query("vacuum app_public.traffic_incidents, app_public.traffic_incident_events");
    filling.incidentsVacuumAnalyzeSeconds = round((performance.now() - vacuumStarted) / 1000);
    log(`  ${filling.incidentsSeconds} s to insert, ${filling.incidentsVacuumAnalyzeSeconds} s to vacuum and analyse`);
  }
  return filling;
}

/**
 * The incidents' events as the feed records them, over the whole history: "opened" when an
 * incident was first seen and "closed" when it closed (the set-based fill records "opened" events
 * for the active incidents only, stamped with the time of the fill). When the table does not hold
 * one event per incident and one per closed incident, it is emptied and filled in time order
 * (heap and uuidv7 keys as in a live table); app.traffic_notify is not set, so nothing is queued.
 * A million incidents over three years make about 20,000 events a week in the newest week (the
 * active incidents) and 6,000 a week before. Returns the seconds it took (empty when nothing was missing).
 */
export async function fillTrafficIncidentEvents(db: pg.Pool, log: Log): Promise<Record<string, number>> {
  const {
    rows: [{ want, have }],
  } = await db.query<{ want: number; have: number }>(`
    select (select count(*) + count(closed_at) from app_public.traffic_incidents)::int as want,
           (select count(*) from app_public.traffic_incident_events)::int as have`);
  if (want === have) return {};
  log(`Filling ${want.toLocaleString("en")} traffic incident events ...`);
  const started = performance.now();
  await db.query("truncate app_public.traffic_incident_events");
  await db.query(`
    insert into app_public.traffic_incident_events (uuid, incident_uuid, kind, type, road_number, created)
    select uuidv7(e.created - now()), i.uuid, e.kind, i.type, i.road_number, e.created
      from app_public.traffic_incidents i
     cross join lateral (values ('opened', i.first_seen_at), ('closed', i.closed_at)) e (kind, created)
     where e.created is not null
     order by e.created`);
  const seconds = round((performance.now() - started) / 1000);
  await analyzeTables(db, ["app_public.traffic_incident_events"]);
  await db.query("vacuum app_public.traffic_incident_events");
  log(`  ${seconds} s`);
  return { eventsSeconds: seconds };
}

/**
 * Jams (matrix monitors) over `years` years up to now, set-based in time order: `jams` in all (300
 * a day is what the jams feed shows on a weekday), on the main roads, a delay skewed to short ones
 * (under 10 minutes for about half), a queue of 150-400 m a minute of delay, 10 minutes to 3
 * hours long; the newest 50 still running. Emptied and filled again when the table holds another
 * number. app.traffic_notify is not set, so nothing is queued. Returns the seconds it took.
 */
export async function fillTrafficJams(
  db: pg.Pool,
  { jams, years }: { jams: number; years: number },
  log: Log,
): Promise<Record<string, number>> {
  if ((await count(db, "app_public.traffic_jams")) === jams) return {};
  log(`Filling ${jams.toLocaleString("en")} traffic jams ...`);
  const started = performance.now();
  const client = await db.connect();
  try {
    await client.query("truncate app_public.traffic_jams");
    await client.query("select setseed(0.3131)");
    await client.query(
      `
      insert into app_public.traffic_jams (uuid, record_id, situation_id, version, jam_type, delay_minutes, queue_length_m,
        start_at, end_at, latitude, longitude, road_number, first_seen_at, closed_at)
      select uuidv7(s.seen - now()), 'RWS01_BENCH_' || g, 'RWS01_BENCH_SIT_' || g, 1,
             (array['queuingTraffic', 'slowTraffic', 'stationaryTraffic', 'heavyTraffic'])[1 + g % 4],
             s.delay, (s.delay * (150 + random() * 250))::int, s.seen - interval '1 minute',
             case when g <= $1::int - 50 then s.seen + s.duration end,
             round((50.76 + random() * 2.7)::numeric, 5)::float8, round((3.36 + random() * 3.83)::numeric, 5)::float8,
             ($3::text[])[1 + floor(random() ^ 1.5 * cardinality($3::text[]))::int],
             s.seen, case when g <= $1::int - 50 then s.seen + s.duration end
        from generate_series(1, $1::int) g,
             lateral (select now() - make_interval(days => $2::int * 365) * (1 - (g - 0.5) / $1::int) as seen,
                             floor(random() ^ 2.5 * 90)::int as delay,
                             interval '10 minutes' + random() * interval '170 minutes' as duration) s
       order by g`,
      [jams, years, JAM_ROADS],
    );
  } finally {
    client.release();
  }
  const seconds = round((performance.now() - started) / 1000);
  await analyzeTables(db, ["app_public.traffic_jams"]);
  await db.query("vacuum app_public.traffic_jams");
  log(`  ${seconds} s`);
  return { jamsSeconds: seconds };
}
/** The roads jams are on, busiest first (the fill draws the first ones more often). */
const JAM_ROADS = [
  "A2",
  "A12",
  "A4",
  "A1",
  "A10",
  "A13",
  "A20",
  "A27",
  "A28",
  "A15",
  "A16",
  "A9",
  "A58",
  "A67",
  "A50",
  "A7",
  "A6",
  "A73",
  "A59",
  "A44",
];

/**
 * Railway disruptions over `years` years up to now, set-based in time order: `disruptions` in all
 * (ten a day: one in twenty a calamity, a fifth of the rest planned works), each
 * between two neighbouring stations of a route (data/rail-routes.csv), lasting 1-8 hours; planned
 * works are announced 1-14 days before they start. The newest five are active (one matching job
 * is queued for them). Emptied and filled again when the table holds another number.
 */
export async function fillRailDisruptions(
  db: pg.Pool,
  { disruptions, years }: { disruptions: number; years: number },
  log: Log,
): Promise<Record<string, number>> {
  if ((await count(db, "app_public.rail_disruptions")) === disruptions) return {};
  log(`Filling ${disruptions.toLocaleString("en")} railway disruptions ...`);
  const started = performance.now();
  const client = await db.connect();
  try {
    await client.query("truncate app_public.rail_disruptions");
    await client.query("select setseed(0.5353)");
    await client.query(
      `
      with r as materialized (select row_number() over (order by value)::int as n, stations from app_public.rail_routes),
           rc as materialized (select count(*)::int as routes from r)
      insert into app_public.rail_disruptions (uuid, kind, source_id, title, description, active, start_at, end_at, station_codes,
        first_seen_at, changed)
      select uuidv7(t.seen - now()), k.kind, 'bench-' || g,
             case k.kind when 'calamity' then 'Calamiteit' when 'maintenance' then 'Werkzaamheden' else 'Storing' end ||
               ' tussen ' || st.codes[1] || ' en ' || st.codes[2],
             'Minder treinen tussen ' || st.codes[1] || ' en ' || st.codes[2] || '. Plan uw reis opnieuw.',
             g > $1::int - 5, s.start_at, s.start_at + t.duration, st.codes, t.seen, t.seen
        from generate_series(1, $1::int) g
       cross join rc
       cross join lateral (select now() - make_interval(days => $2::int * 365) * (1 - (g - 0.5) / $1::int) as seen,
                                  random() as r_kind, random() as r_route, random() as r_stretch, random() as r_lead,
                                  interval '1 hour' + random() * interval '7 hours' as duration) t
       cross join lateral (select case when g % 20 = 0 then 'calamity' when t.r_kind < 0.22 then 'maintenance' else 'disruption' end
                                    as kind) k
       cross join lateral (select case when k.kind = 'maintenance' then t.seen + (1 + floor(t.r_lead * 14)) * interval '1 day'
                                       else t.seen end as start_at) s
       cross join lateral (select r.stations from r where r.n = 1 + floor(t.r_route * rc.routes)::int) x
       cross join lateral (select 1 + floor(t.r_stretch * (cardinality(x.stations) - 1))::int as i) y
       cross join lateral (select array[x.stations[y.i], x.stations[y.i + 1]] as codes) st
       order by g`,
      [disruptions, years],
    );
  } finally {
    client.release();
  }
  const seconds = round((performance.now() - started) / 1000);
  await analyzeTables(db, ["app_public.rail_disruptions"]);
  log(`  ${seconds} s`);
  return { railSeconds: seconds };
}

// ------------------------------------------------------------------------------------------------
// Alerts (bench/traffic-read.ts, bench/monitor-preview.ts)

// NL-Alerts: pages of the public list, through the parser and ingest_nl_alerts, oldest first.
// Five years at about 5.5 alerts a day (far more than the real few dozen a year: the goal's size).
// Each alert covers one area (a tenth two) around a random place: a square of 2-20 km, or (one in
// twenty) 40-120 km. Alerts last 30 minutes to 8 hours; one still running has no stop time, as in
// the source, and so do the newest five (at any moment a handful runs, most regions have none).
// Returns the seconds it took (empty when the table held the alerts already).
export async function fillNlAlerts(
  db: pg.Pool,
  wanted: number,
  source: string,
  log: Log,
): Promise<Record<string, number>> {
  const filling: Record<string, number> = {};
  if ((await count(db, "app_public.nl_alerts")) !== wanted) {
    log(`Filling ${wanted.toLocaleString("en")} NL-Alerts through app_private.ingest_nl_alerts ...`);
    await db.query("truncate app_public.nl_alerts cascade");
    const { rows: places } = await db.query<{ name: string; latitude: number; longitude: number }>(
      "select name, latitude, longitude from app_public.places order by name, uuid",
    );
    const random = seeded(2027);
    const now = Date.now();
    const FIVE_YEARS = 5 * 365.25 * DAY;
    const texts = [
      [
        "Brand met veel rook in %s. Sluit ramen en deuren en zet ventilatie uit.",
        "Fire with a lot of smoke in %s. Close windows and doors and turn off ventilation.",
      ],
      [
        "Gaslek in %s. Blijf uit de buurt en volg de aanwijzingen van de hulpdiensten.",
        "Gas leak in %s. Stay away and follow the instructions of the emergency services.",
      ],
      ["Zeer zware windstoten in de omgeving van %s. Blijf binnen.", "Very heavy gusts of wind near %s. Stay indoors."],
      [
        "Storing van het noodnummer 112 in de omgeving van %s. Bel bij nood 0900-8844.",
        "Outage of emergency number 112 near %s. In an emergency call 0900-8844.",
      ],
      [
        "Drinkwater in %s niet geschikt om te drinken. Kook water minstens 3 minuten.",
        "Tap water in %s is not fit to drink. Boil water for at least 3 minutes.",
      ],
    ];
    const square = (lat: number, lon: number, sideKm: number): Array<[number, number]> => {
      const dLat = sideKm / 2 / 111.2;
      const dLon = sideKm / 2 / (111.2 * Math.cos((lat * Math.PI) / 180));
      const r = (v: number) => round(v, 5);
      return [
        [r(lat - dLat), r(lon - dLon)],
        [r(lat - dLat), r(lon + dLon)],
        [r(lat + dLat), r(lon + dLon)],
        [r(lat + dLat), r(lon - dLon)],
      ];
    };
    const alerts: SampleNlAlert[] = Array.from({ length: wanted }, (_, i) => {
      const startAt = new Date(Math.floor((now - FIVE_YEARS + (i + random()) * (FIVE_YEARS / wanted)) / 1000) * 1000);
      const stop = startAt.getTime() + (30 + Math.floor(random() * 450)) * 60_000;
      const place = pick(random, places);
      const areas = Array.from({ length: random() < 0.1 ? 2 : 1 }, (_, n) => {
        const centre = n === 0 ? place : pick(random, places);
        return square(centre.latitude, centre.longitude, random() < 0.05 ? 40 + random() * 80 : 2 + random() * 18);
      });
      const [nl, en] = pick(random, texts);
      return {
        id: `bench-${String(i).padStart(6, "0")}`,
        messageNl: `NL-Alert ${nl.replace("%s", place.name)}`,
        messageEn: random() < 0.8 ? `NL-Alert ${en.replace("%s", place.name)}` : undefined,
        startAt,
        stopAt: stop <= now && i < wanted - 5 ? new Date(stop) : undefined,
        areas,
      };
    });
    const started = performance.now();
    for (let from = 0; from < alerts.length; from += ALERT_BATCH) {
      const parsed = readAlertsDocument(Buffer.from(nlAlertsJson(alerts.slice(from, from + ALERT_BATCH))));
      if (parsed.kind !== "nl-alert" || parsed.document.skipped > 0)
        throw new Error(`NL-Alert page ${from}: ${JSON.stringify(parsed)}`.slice(0, 500));
      await storeNlAlerts(db, parsed.document, source);
    }
    // First seen when they started, as the poller would have seen them (the fill stamps them with
    // its own time; monitorPreview, as live matching, passes over alerts first seen a day late).
    await db.query("update app_public.nl_alerts set first_seen_at = start_at where first_seen_at > start_at");
    filling.alertsSeconds = round((performance.now() - started) / 1000);
    const vacuumStarted = performance.now();
    await analyzeTables(db, ["app_public.nl_alerts", "app_public.nl_alert_regions"]);
    await db.query("vacuum app_public.nl_alerts, app_public.nl_alert_regions");
    filling.alertsVacuumAnalyzeSeconds = round((performance.now() - vacuumStarted) / 1000);
    log(
      `  ${filling.alertsSeconds} s in pages of ${ALERT_BATCH}, ${filling.alertsVacuumAnalyzeSeconds} s to vacuum and analyse`,
    );
  }
  return filling;
}

/**
 * AMBER alerts through the real path (the police's JSON list, the parser, ingest_amber_alerts):
 * `alerts` over `years` years up to now, one in ten an AMBER Alert (national), the others
 * missing-child alerts naming a place (so provinces are found from the text, as live). All but
 * the newest two are cancelled, in a second document; then each alert is dated as the poller
 * would have stored it (first seen when it started, ended 4-48 hours later), since the fill
 * stamps them with its own time. Emptied and filled again when the table holds another number.
 */
export async function fillAmberAlerts(
  db: pg.Pool,
  { alerts, years, source }: { alerts: number; years: number; source: string },
  log: Log,
): Promise<Record<string, number>> {
  if ((await count(db, "app_public.amber_alerts")) === alerts) return {};
  log(`Filling ${alerts.toLocaleString("en")} AMBER alerts through app_private.ingest_amber_alerts ...`);
  const started = performance.now();
  await db.query("truncate app_public.amber_alerts");
  const { rows: places } = await db.query<{ name: string }>("select name from app_public.places order by name, uuid");
  const random = seeded(4711);
  const names = ["Daan", "Sanne", "Lucas", "Emma", "Noah", "Julia", "Sem", "Tess", "Finn", "Mila", "Levi", "Zoë"];
  const span = years * 365.25 * DAY;
  const now = Date.now();
  const list = Array.from({ length: alerts }, (_, i) => {
    const place = pick(random, places).name;
    return {
      alertId: `bench-amber-${String(i).padStart(5, "0")}`,
      type: "Alert" as const,
      level: random() < 0.1 ? (10 as const) : (5 as const),
      sent: new Date(Math.floor((now - span + (i + random()) * (span / alerts)) / 1000) * 1000),
      title: `Vermist: ${pick(random, names)} (${6 + Math.floor(random() * 11)})`,
      descriptionHtml: `<p>Laatst gezien in ${place}.</p>`,
    };
  });
  for (const [document, complete] of [
    [amberAlertsJson(list), false],
    [amberAlertsJson(list.slice(0, -2).map((a) => ({ ...a, type: "Cancel" as const }))), false],
  ] as const) {
    const parsed = readAlertsDocument(Buffer.from(document));
    if (parsed.kind !== "amber" || parsed.document.skippedAlertIds.length > 0)
      throw new Error(`AMBER document: ${JSON.stringify(parsed)}`.slice(0, 500));
    await storeAmberAlerts(db, parsed.document, source, { complete }, log);
  }
  await db.query(`
    update app_public.amber_alerts set first_seen_at = started_at,
           ended_at = case when ended_at is not null then started_at + interval '4 hours' + (hashtext(alert_id) & 65535) * interval '40 minutes' / 1000 end`);
  const seconds = round((performance.now() - started) / 1000);
  await analyzeTables(db, ["app_public.amber_alerts"]);
  log(`  ${seconds} s`);
  return { amberSeconds: seconds };
}

// ------------------------------------------------------------------------------------------------
// KNMI warnings (bench/meteo.ts, bench/monitor-preview.ts)

// The climate: on about one day in ten warnings start for some provinces, yellow for 3-12 hours
// (the phenomenon by season); on a fifth of those a core of orange, and on under half of the orange
// days an hour or three of red in one province. With warnings that run past midnight that makes
// about 55 days a year with a warning somewhere (15%), 10 with orange and 3 with red.
const REGION_GROUPS = [
  ["GR", "FR", "DR", "WAE", "WAB"], // north and the Wadden
  ["NH", "ZH", "ZE", "WAB"], // the coast
  ["NH", "UT", "FL", "GL"], // the centre
  ["OV", "GL", "DR"], // the east
  ["NB", "LB", "ZE"], // the south
  KNMI_LOCATIONS, // the whole country
];
const SEASONS: Record<string, { chance: number; phenomena: Array<[string, number]> }> = {
  winter: {
    chance: 0.13,
    phenomena: [
      ["wind", 0.35],
      ["iciness", 0.35],
      ["snow", 0.2],
      ["rain", 0.1],
    ],
  },
  spring: {
    chance: 0.065,
    phenomena: [
      ["wind", 0.5],
      ["rain", 0.3],
      ["thunderstorm", 0.2],
    ],
  },
  summer: {
    chance: 0.1,
    phenomena: [
      ["thunderstorm", 0.45],
      ["rain", 0.25],
      ["heat", 0.2],
      ["wind", 0.1],
    ],
  },
  autumn: {
    chance: 0.13,
    phenomena: [
      ["wind", 0.6],
      ["rain", 0.3],
      ["thunderstorm", 0.1],
    ],
  },
};
const SEASON_OF_MONTH = [
  "winter",
  "winter",
  "spring",
  "spring",
  "spring",
  "summer",
  "summer",
  "summer",
  "autumn",
  "autumn",
  "autumn",
  "winter",
];
/** Hours (UTC) a warning of the phenomenon starts at. */
const STARTS: Record<string, [number, number]> = {
  wind: [0, 23],
  rain: [0, 23],
  thunderstorm: [11, 19],
  heat: [9, 11],
  iciness: [17, 23],
  snow: [0, 23],
};
const ADVICE: Record<string, string[]> = {
  wind: [
    "Zware windstoten tot 75 km/u. Wees voorzichtig op de weg, vooral met aanhangers en op bruggen.",
    "Zeer zware windstoten tot 100 km/u. Kans op omvallende bomen en schade aan gebouwen.",
    "Extreem zware windstoten tot 120 km/u. Grote kans op schade en gevaarlijke situaties. Blijf binnen.",
  ],
  rain: [
    "Veel regen in korte tijd, tot 40 mm. Kans op wateroverlast.",
    "Zeer veel regen, tot 80 mm. Wateroverlast en ondergelopen wegen.",
    "Extreme hoeveelheden regen. Grote kans op overstromingen.",
  ],
  thunderstorm: [
    "Onweersbuien met hagel en zware windstoten.",
    "Zware onweersbuien met grote hagel en windstoten tot 100 km/u.",
    "Zeer zware onweersbuien, grote hagel en extreme windstoten.",
  ],
  heat: [
    "Hoge temperaturen, tot 33 graden.",
    "Zeer hoge temperaturen, tot 37 graden. Zorg voor verkoeling.",
    "Extreme hitte, boven 40 graden.",
  ],
  iciness: [
    "Plaatselijk gladheid door bevriezing van natte weggedeelten.",
    "Verraderlijke gladheid door ijzel.",
    "Zeer verraderlijke gladheid door ijzel.",
  ],
  snow: [
    "Sneeuw, plaatselijk 3 tot 5 cm. Wees voorzichtig op de weg.",
    "Veel sneeuw, tot 15 cm, en sneeuwjacht.",
    "Extreem veel sneeuw en sneeuwjacht.",
  ],
};
const PHENOMENA = Object.keys(ADVICE);

/** The warnings that start on a UTC day, the same on every run. */
function warningsStartingOn(day: number): SampleWarning[] {
  const random = seeded(day / DAY);
  const season = SEASONS[SEASON_OF_MONTH[new Date(day).getUTCMonth()]];
  if (random() >= season.chance) return [];
  const warnings: SampleWarning[] = [];
  const phenomena = random() < 0.25 ? 2 : 1;
  for (let n = 0; n < phenomena; n++) {
    let roll = random();
    const phenomenon = season.phenomena.find(([, share]) => (roll -= share) < 0)?.[0] ?? season.phenomena[0][0];
    const group = pick(random, REGION_GROUPS);
    const kept = group.filter(() => random() >= 0.25);
    const locations = kept.length > 0 ? kept : [group[0]];
    const [earliest, latest] = STARTS[phenomenon];
    const from = day + (earliest + Math.floor(random() * (latest - earliest + 1))) * HOUR;
    const hours = 3 + Math.floor(random() * 10);
    const warning = (status: 1 | 2 | 3, where: string[], first: number, last: number): SampleWarning => ({
      phenomenon,
      locations: where,
      from: new Date(first),
      to: new Date(last),
      status,
      text: ADVICE[phenomenon][status - 1],
    });
    warnings.push(warning(1, locations, from, from + (hours - 1) * HOUR));
    if (n === 0 && random() < 0.2) {
      // Later entries win: the orange core, and inside it perhaps red, sit on top of the yellow.
      const core = locations.slice(0, 1 + Math.floor(random() * Math.min(3, locations.length)));
      const start = from + Math.floor(hours / 4) * HOUR;
      const length = Math.max(1, Math.min(hours - Math.floor(hours / 4), 2 + Math.floor(random() * 5)));
      warnings.push(warning(2, core, start, start + (length - 1) * HOUR));
      if (random() < 0.45)
        warnings.push(
          warning(3, core.slice(0, 1), start, start + Math.min(length - 1, Math.floor(random() * 3)) * HOUR),
        );
    }
  }
  return warnings;
}

/** The document issued at 06:00 UTC of `day`: its 48 hours restate every warning that overlaps them. */
export function warningsDocument(day: number): string {
  const issuedAt = day + 6 * HOUR;
  const warnings = [day - DAY, day, day + DAY, day + 2 * DAY]
    .flatMap(warningsStartingOn)
    .filter((w) => w.to.getTime() >= issuedAt && w.from.getTime() < issuedAt + 48 * HOUR);
  return warningsXml(
    new Date(issuedAt),
    warnings,
    `Synthetic benchmark history (bench/meteo.ts), issue ${isoDay(day)} 06:00Z.`,
    48,
    PHENOMENA,
  );
}

// Loading: whatever is missing, oldest first, through ingestMeteoDocument on one connection. The
// next document is written and parsed while PostgreSQL stores the one before (node-postgres
// queues the statements of one client in order, so the order holds).
export async function loadMeteoDocuments(
  ownerUrl: string,
  kind: "warnings" | "observations",
  days: number[],
  document: (day: number) => string,
  source: string,
  log: Log,
): Promise<Record<string, number>> {
  const ingestion: Record<string, number> = {};
  if (days.length === 0) return ingestion;
  log(`Loading ${days.length} ${kind} documents (${isoDay(days[0])} to ${isoDay(days.at(-1)!)}) ...`);
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  const started = performance.now();
  let records = 0;
  let stored = 0;
  let pending: Promise<unknown> = Promise.resolve();
  for (const [i, day] of days.entries()) {
    const ingest = ingestMeteoDocument(client, document(day), source).then((result) => {
      if (result.problems.length > 0) throw new Error(`${isoDay(day)}: ${result.problems[0]}`);
      records += result.records;
      stored += Number(result.stored.warnings ?? result.stored.stored ?? 0);
    });
    await pending;
    pending = ingest;
    if ((i + 1) % 250 === 0) {
      const seconds = (performance.now() - started) / 1000;
      log(
        `  ${i + 1}/${days.length} (${isoDay(day)}), ${((i + 1) / seconds).toFixed(1)} documents/s, ` +
          `about ${Math.round(((days.length - i - 1) / (i + 1)) * seconds)} s to go`,
      );
    }
  }
  await pending;
  await client.end();
  const seconds = (performance.now() - started) / 1000;
  ingestion[`${kind}Documents`] = days.length;
  ingestion[`${kind}Seconds`] = Math.round(seconds);
  ingestion[`${kind}DocumentsPerSecond`] = round(days.length / seconds);
  ingestion[`${kind}RecordsPerSecond`] = Math.round(records / seconds);
  ingestion[`${kind}StoredPerSecond`] = Math.round(stored / seconds);
  log(
    `  ${days.length} documents in ${seconds.toFixed(0)} s: ${ingestion[`${kind}DocumentsPerSecond`]} documents/s, ` +
      `${ingestion[`${kind}RecordsPerSecond`]} ${kind === "warnings" ? "slices" : "rows"} read/s, ` +
      `${ingestion[`${kind}StoredPerSecond`]} ${kind === "warnings" ? "warned hours" : "observations"} stored/s`,
  );
  return ingestion;
}

/** Days from `first` to `last` (both UTC midnights) in steps of `step` days. */
export const daysFrom = (first: number, last: number, step: number) =>
  Array.from({ length: Math.max(0, Math.floor((last - first) / (step * DAY)) + 1) }, (_, i) => first + i * step * DAY);

/**
 * The warnings history: one warnings document a day (`every` 2: every other day) from `years` years
 * ago until the newest 06:00 UTC issue, whatever is missing after the newest stored, through
 * ingestMeteoDocument. The events are then dated as the live feed stores them, at their document's
 * issue (the ingestion stamps them with its own time). Returns what loadMeteoDocuments measured.
 */
export async function fillMeteoWarnings(
  db: pg.Pool,
  ownerUrl: string,
  { years, every, source }: { years: number; every: number; source: string },
  log: Log,
): Promise<Record<string, number>> {
  const now = Date.now();
  const {
    rows: [newest],
  } = await db.query<{ warnings: Date | null }>(
    "select max(first_hour) as warnings from app_hidden.meteo_documents where kind = 'warnings'",
  );
  const yearsAgo = new Date(now);
  yearsAgo.setUTCFullYear(yearsAgo.getUTCFullYear() - years);
  const lastIssue = dayStart(now - 6 * HOUR); // the newest 06:00 UTC issue that is not in the future
  const first = newest.warnings ? dayStart(newest.warnings.getTime()) + every * DAY : dayStart(yearsAgo.getTime());
  const ingestion = await loadMeteoDocuments(
    ownerUrl,
    "warnings",
    daysFrom(first, lastIssue, every),
    warningsDocument,
    source,
    log,
  );
  if (Object.keys(ingestion).length > 0)
    await db.query(
      "update app_public.meteo_warning_events set created = issued_at where created > issued_at + interval '1 day'",
    );
  return ingestion;
}

// ------------------------------------------------------------------------------------------------
// Aircraft (bench/monitor-preview.ts)

/**
 * Take-offs and landings of the tracked fleet (data/aircraft-fleet.csv, as the installation loads
 * it) over `days` days up to two hours ago (older than the hour that queues matching): each
 * aircraft flies `perDay` flights a day, spread evenly with some jitter, from a place to another
 * (app_public.places, within 80 km), 15-75 minutes in the air. Set-based: a completed route per
 * flight (without points; the preview reads events) and its two events, heap and uuidv7 keys in
 * time order. Emptied and filled again when the fleet's take-offs are not that number.
 */
export async function fillAircraftEvents(
  db: pg.Pool,
  { days, perDay }: { days: number; perDay: number },
  log: Log,
): Promise<Record<string, number>> {
  const {
    rows: [{ fleet, have }],
  } = await db.query<{ fleet: number; have: number }>(`
    select (select count(*) from app_public.aircraft_fleet)::int as fleet,
           (select count(*) from app_public.aircraft_events where kind = 'take_off')::int as have`);
  const flights = fleet * days * perDay;
  if (flights === have) return {};
  log(`Filling ${flights.toLocaleString("en")} flights (take-off and landing) of ${fleet} aircraft ...`);
  const started = performance.now();
  const client = await db.connect();
  try {
    await client.query("delete from app_public.aircraft_routes");
    await client.query("select setseed(0.6161)");
    await client.query(
      `
      with p as materialized (select row_number() over (order by name, uuid)::int as n, name, latitude, longitude
                                from app_public.places where latitude is not null),
           pc as materialized (select count(*)::int as places from p),
           f as materialized (select row_number() over (order by icao)::int - 1 as n, icao from app_public.aircraft_fleet),
           flights as materialized (
             select f.icao, t.took_off_at, t.took_off_at + interval '15 minutes' + t.r_air * interval '60 minutes' as landed_at,
                    a.name as from_place, a.latitude as from_lat, a.longitude as from_lon,
                    b.name as to_place, b.latitude as to_lat, b.longitude as to_lon
               from generate_series(0, $1::int - 1) g
               cross join pc
               join f on f.n = g % $2::int
              cross join lateral (select now() - interval '2 hours' - make_interval(days => $3::int) * (1 - (g + 0.5) / $1::int)
                                           + (random() - 0.5) * interval '1 hour' as took_off_at,
                                         random() as r_air, random() as r_from, random() as r_to) t
               join p a on a.n = 1 + floor(t.r_from * pc.places)::int
              cross join lateral (select b.* from p b
                                   where b.n <> a.n and abs(b.latitude - a.latitude) < 0.7 and abs(b.longitude - a.longitude) < 1.1
                                   order by (b.n * 7919 + floor(t.r_to * 1000)::int) % 1009 limit 1) b),
           routes as (
             insert into app_public.aircraft_routes (uuid, icao, took_off_at, landed_at, first_seen_at, last_seen_at, start_latitude,
               start_longitude, start_place, end_latitude, end_longitude, end_place, status)
             select uuidv7(x.took_off_at - now()), x.icao, x.took_off_at, x.landed_at, x.took_off_at, x.landed_at, x.from_lat, x.from_lon,
                    x.from_place, x.to_lat, x.to_lon, x.to_place, 'completed'
               from flights x order by x.took_off_at
             returning uuid, icao, took_off_at, landed_at, start_latitude, start_longitude, start_place, end_latitude, end_longitude, end_place)
      insert into app_public.aircraft_events (uuid, icao, route_uuid, kind, at, latitude, longitude, place)
      select uuidv7(e.at - now()), r.icao, r.uuid, e.kind, e.at, e.latitude, e.longitude, e.place
        from routes r
       cross join lateral (values ('take_off', r.took_off_at, r.start_latitude, r.start_longitude, r.start_place),
                                  ('landing', r.landed_at, r.end_latitude, r.end_longitude, r.end_place)) e (kind, at, latitude, longitude, place)
       order by e.at`,
      [flights, fleet, days],
    );
  } finally {
    client.release();
  }
  const seconds = round((performance.now() - started) / 1000);
  await analyzeTables(db, ["app_public.aircraft_routes", "app_public.aircraft_events"]);
  await db.query("vacuum app_public.aircraft_routes, app_public.aircraft_events");
  log(`  ${seconds} s`);
  return { aircraftSeconds: seconds };
}

// ------------------------------------------------------------------------------------------------
// RSS (bench/rss.ts, bench/monitor-preview.ts)

// Feeds and monitors. Feeds 1-50 are the first (operator) environment's: 1-25 P2000 region
// feeds, 26-40 Dutch news, 41-50 English news; 51-60 the second environment's (51-55 P2000, 56-58
// Dutch, 59-60 English), which also follows feeds 1 and 26 (a popular feed is followed by many).
type FeedKind = "p2000" | "nl" | "en";
export const RSS_FEEDS = Array.from({ length: 60 }, (_, i) => {
  const n = i + 1;
  const [kind, host, file, title]: [FeedKind, string, string, string] =
    n <= 25
      ? ["p2000", "alarmering.bench.invalid", `regio-${pad(n)}.rss`, `Alarmeringen regio ${pad(n)}`]
      : n <= 40
        ? ["nl", `nieuws-${pad(n - 25)}.bench.invalid`, "binnenland.rss", `Nieuws ${n - 25}: binnenland`]
        : n <= 50
          ? ["en", `news-${pad(n - 40)}.bench.invalid`, "netherlands.xml", `Dutch News ${n - 40}`]
          : n <= 55
            ? [
                "p2000",
                "p2000-lokaal.bench.invalid",
                `regio-${pad((n - 51) * 5 + 1)}.xml`,
                `P2000 lokaal regio ${pad((n - 51) * 5 + 1)}`,
              ]
            : n <= 58
              ? ["nl", `omroep-${n - 55}.bench.invalid`, "rss", `Omroep ${n - 55}`]
              : ["en", `herald-${n - 58}.bench.invalid`, "feed.xml", `Herald ${n - 58}`];
  return {
    n,
    kind,
    host,
    url: `https://${host}/${file}`,
    title,
    region: kind === "p2000" ? (n <= 25 ? n : (n - 51) * 5 + 1) : null,
  };
});
export const rssFeedUrls = (from: number, to: number) =>
  RSS_FEEDS.filter((f) => f.n >= from && f.n <= to).map((f) => f.url);
export const rssMonitorSpecs = (firstEnvironment: string, secondEnvironment: string) => [
  { environment: firstEnvironment, name: "bench rss alarmeringen", query: { feeds: rssFeedUrls(1, 30) } },
  {
    environment: firstEnvironment,
    name: "bench rss nieuws",
    query: { feeds: rssFeedUrls(21, 50), keywords: ["brand", "ongeval"] },
  },
  {
    environment: firstEnvironment,
    name: "bench rss brand regio 1-10",
    query: { feeds: rssFeedUrls(1, 10), keywords: ["brand"] },
  },
  {
    environment: secondEnvironment,
    name: "bench rss andere omgeving",
    query: { feeds: [...rssFeedUrls(51, 60), RSS_FEEDS[0].url, RSS_FEEDS[25].url] },
  },
];

/**
 * The rss monitors of rssMonitorSpecs (the first environment's three, and one of a second
 * environment, made here as "bench rss other"): made again when they differ; their feeds never due.
 * Returns the second environment's uuid.
 */
export async function fillRssMonitors(db: pg.Pool, firstEnvironment: string, log: Log): Promise<string> {
  const secondEnvironment = await (async () => {
    const {
      rows: [found],
    } = await db.query<{ uuid: string }>(
      "select e.uuid from app_public.environments e join app_public.organizations o on o.uuid = e.organization_uuid where o.name = 'bench rss other'",
    );
    if (found) return found.uuid;
    const {
      rows: [made],
    } = await db.query<{ uuid: string }>(`
      with o as (insert into app_public.organizations (name) values ('bench rss other') returning uuid)
      insert into app_public.environments (organization_uuid, name) select uuid, 'bench' from o returning uuid`);
    return made.uuid;
  })();
  {
    const specs = rssMonitorSpecs(firstEnvironment, secondEnvironment);
    const { rows: have } = await db.query<{ environment_uuid: string; name: string; query: unknown }>(
      "select environment_uuid, name, query from app_public.monitors where type = 'rss' order by name",
    );
    const want = [...specs].sort((a, b) => a.name.localeCompare(b.name));
    const same =
      have.length === want.length &&
      have.every(
        (m, i) =>
          m.name === want[i].name &&
          m.environment_uuid === want[i].environment &&
          JSON.stringify(m.query) === JSON.stringify(JSON.parse(JSON.stringify(want[i].query))),
      );
    if (!same) {
      log("Creating the rss monitors ...");
      await db.query("delete from app_public.monitors where type = 'rss'");
      for (const spec of specs) {
        // As the owner; the trigger _500_rss_criteria (app_hidden.sync_rss_monitor) creates the feeds and the criteria.
        await db.query(
          "insert into app_public.monitors (environment_uuid, name, type, query) values ($1, $2, 'rss', $3)",
          [spec.environment, spec.name, JSON.stringify(spec.query)],
        );
      }
    }
    // Titles as a first read would set them; never due, so the service's poller fetches nothing.
    await db.query(
      `update app_public.rss_feeds f set title = j.title, next_poll_at = 'infinity'
                         from json_to_recordset($1::json) j (url text, title text) where f.url = j.url`,
      [JSON.stringify(RSS_FEEDS)],
    );
    const {
      rows: [{ n }],
    } = await db.query<{ n: number }>("select count(*)::int as n from app_public.rss_feeds");
    if (n !== RSS_FEEDS.length) throw new Error(`Expected ${RSS_FEEDS.length} feeds, found ${n}`);
  }
  return secondEnvironment;
}

// Items, set-based, in four parts (so a run shows progress), each in time order: row g of TOTAL
// is first seen at now - 2 years * (1 - g / TOTAL) (a few minutes of jitter), published up to 15
// minutes before (5% have no published time); its uuid is a uuidv7 of that time. Every eleventh
// row is the second environment's. The kind of feed is drawn first (55% P2000, 30% Dutch news, 15%
// English news), then a feed of that kind, a template and its words; streets are skewed (some very
// common), and 0.2% of the streets are from a list of rare names; places follow population.
const STREET_STEMS = [
  "Kerk",
  "Dorps",
  "Stations",
  "Molen",
  "School",
  "Hoofd",
  "Juliana",
  "Wilhelmina",
  "Nieuw",
  "Markt",
  "Beatrix",
  "Parallel",
  "Industrie",
  "Emma",
  "Kastanje",
  "Eiken",
  "Beuken",
  "Linden",
  "Berken",
  "Esdoorn",
  "Populier",
  "Wilgen",
  "Oranje",
  "Nassau",
  "Prins",
  "Konings",
  "Graaf",
  "Ridder",
  "Burg",
  "Haven",
  "Sluis",
  "Dijk",
  "Polder",
  "Zuid",
  "Noord",
  "Oost",
  "West",
  "Zand",
  "Veld",
  "Heide",
];
const STREET_ENDS = ["straat", "laan", "weg", "plein", "singel", "dreef", "hof", "kade", "pad", "steeg"];
const STREETS = STREET_STEMS.flatMap((stem) => STREET_ENDS.map((end) => stem + end));
export const RSS_RARE_STREETS = [
  "Zwanenburgwal",
  "Reguliersdwarsstraat",
  "Egelantiersgracht",
  "Lauriergracht",
  "Brouwersgracht",
  "Leliegracht",
  "Spiegelgracht",
  "Looiersgracht",
  "Bloemgracht",
  "Palmgracht",
  "Lijnbaansgracht",
  "Raamgracht",
  "Groenburgwal",
  "Kloveniersburgwal",
  "Geldersekade",
  "Schippersgracht",
  "Roeterseiland",
  "Wittenburgergracht",
  "Kattenburgerstraat",
  "Oostenburgergracht",
  "Vijzelgracht",
  "Utrechtsedwarsstraat",
  "Tweebaksmarkt",
  "Oudegracht",
  "Drieharingstraat",
  "Langenieuwstraat",
  "Mariaplaats",
  "Wolvenplein",
  "Twijnstraat",
  "Pieterskerkhof",
  "Hooglandsekerkgracht",
  "Haarlemmerstraat",
  "Rapenburg",
  "Steenschuur",
  "Korevaarstraat",
  "Vismarkt",
  "Hooigracht",
  "Koegracht",
  "Molsteeg",
  "Langevoorhout",
  "Denneweg",
  "Paleisstraat",
  "Prinsessegracht",
  "Bierkade",
  "Dunnebierkade",
  "Zuilingstraat",
  "Appelmarkt",
  "Verwersstraat",
  "Hinthamerstraat",
  "Vughterdijk",
];
const ROADS = [
  "A1",
  "A2",
  "A4",
  "A7",
  "A9",
  "A10",
  "A12",
  "A13",
  "A15",
  "A16",
  "A20",
  "A27",
  "A28",
  "A44",
  "A50",
  "A58",
  "A67",
  "N201",
  "N11",
  "N57",
];
const BRT = [
  "Brand woning",
  "Brand wegvervoer",
  "Brand container",
  "Buitenbrand",
  "Liftopsluiting",
  "Dienstverlening",
  "Gaslekkage",
  "Nacontrole",
  "Stormschade",
  "Waterongeval",
  "Assistentie ambulance",
  "Brandgerucht",
  "Automatische brandmelding",
];
const NL_SENTENCES = [
  "De hulpdiensten waren snel ter plaatse.",
  "Er raakte niemand gewond.",
  "Een persoon is met onbekend letsel naar het ziekenhuis gebracht.",
  "De politie doet onderzoek naar de oorzaak.",
  "Omwonenden wordt gevraagd ramen en deuren te sluiten.",
  "De weg is voorlopig afgesloten voor alle verkeer.",
  "De brand was na een uur onder controle.",
  "Volgens een woordvoerder is de situatie onder controle.",
  "Getuigen kunnen zich melden bij de politie.",
  "Het verkeer ondervindt hinder.",
  "De gemeenteraad besluit volgende maand.",
  "Reizigers moeten rekening houden met extra reistijd.",
];
const EN_SENTENCES = [
  "Emergency services were quickly at the scene.",
  "Nobody was injured.",
  "One person was taken to hospital.",
  "Police are investigating the cause.",
  "Residents are asked to keep windows and doors closed.",
  "The road is closed to all traffic for now.",
  "The fire was under control within an hour.",
  "A spokesperson said the situation is under control.",
  "Witnesses are asked to contact the police.",
  "Traffic is disrupted.",
  "The council will decide next month.",
  "Travellers should allow extra time.",
];

/**
 * The items: `items` for the first environment's feeds and a tenth more for the second's (every
 * eleventh row), emptied and filled again when the table holds another number. Returns the seconds
 * it took (empty when nothing was filled).
 */
export async function fillRssItems(db: pg.Pool, items: number, log: Log): Promise<Record<string, number>> {
  const total = Math.round((items * 11) / 10);
  const filling: Record<string, number> = {};
  const {
    rows: [{ have: haveItems }],
  } = await db.query<{ have: number }>("select count(*)::int as have from app_public.rss_feed_items");
  if (haveItems !== total) {
    log(
      `Filling ${total.toLocaleString("en")} rss feed items (${items.toLocaleString("en")} of the measured environment's feeds) ...`,
    );
    await db.query("truncate app_public.rss_feed_items");
    const client = await db.connect();
    const started = performance.now();
    try {
      await client.query("select setseed(0.2027)");
      const parts = 4;
      for (let part = 0; part < parts; part++) {
        const from = Math.floor((part * total) / parts) + 1;
        const to = Math.floor(((part + 1) * total) / parts);
        await client.query(
          `
          with w as materialized (
            select $4::text[] as streets, $5::text[] as rare, $6::text[] as roads, $7::text[] as brt, $8::text[] as nl, $9::text[] as en,
                   (select array_agg(p.name order by p.population desc nulls last, p.name) from app_public.places p) as places),
          fe as materialized (
            select f.uuid, j.n, j.kind, j.host, j.region from json_to_recordset($10::json) j (n int, url text, kind text, host text, region int)
              join app_public.rss_feeds f on f.url = j.url)
          insert into app_public.rss_feed_items (uuid, feed_uuid, item_key, guid, title, link, summary, published_at, first_seen_at)
          select uuidv7(t.seen - now()), fe.uuid, coalesce(x.guid, x.link), x.guid, x.title, x.link, x.summary,
                 case when t.r_pub < 0.95 then t.seen - t.r_lag * interval '15 minutes' end, t.seen
            from generate_series($1::int, $2::int) g
           cross join w
           cross join lateral (
             select g, now() - interval '730 days' * (1 - (g - 0.5) / $3::float8) + (random() - 0.5) * interval '4 minutes' as seen,
                    random() as r_pub, random() as r_lag, random() as r_kind, random() as r_feed, random() as r_sub, random() as r_a,
                    random() as r_b, random() as r_c, random() as r_d, random() as r_rare, random() as r_street, random() as r_place,
                    random() as r_place2, random() as r_road, random() as r_s1, random() as r_s2, random() as r_time) t
           cross join lateral (
             select case when t.g % 11 = 0
                         then case when t.r_kind < 0.55 then 51 + floor(t.r_feed * 5) when t.r_kind < 0.85 then 56 + floor(t.r_feed * 3)
                                   else 59 + floor(t.r_feed * 2) end
                         else case when t.r_kind < 0.55 then 1 + floor(t.r_feed * 25) when t.r_kind < 0.85 then 26 + floor(t.r_feed * 15)
                                   else 41 + floor(t.r_feed * 10) end
                    end::int as n) c
           join fe on fe.n = c.n
           cross join lateral (
             select case when t.r_rare < 0.002 then w.rare[1 + floor(t.r_street * cardinality(w.rare))::int]
                         else w.streets[1 + floor(t.r_street ^ 2 * cardinality(w.streets))::int] end as street,
                    w.places[1 + floor(t.r_place ^ 2 * cardinality(w.places))::int] as place,
                    w.places[1 + floor(t.r_place2 ^ 2 * cardinality(w.places))::int] as place2,
                    w.roads[1 + floor(t.r_road * cardinality(w.roads))::int] as road,
                    lpad(coalesce(fe.region, 0)::text, 2, '0') as region,
                    lpad(floor(t.r_time * 24)::int::text, 2, '0') || ':' || lpad((floor(t.r_time * 1440)::int % 60)::text, 2, '0') as at) s
           cross join lateral (
             select case fe.kind
                      when 'p2000' then case
                        when t.r_sub < 0.40 then 'P ' || (1 + floor(t.r_a * 3))::int || ' BRT-' || s.region || ' ' ||
                          w.brt[1 + floor(t.r_b * cardinality(w.brt))::int] || ' ' || s.street || ' ' || s.place || ' ' || s.region || (1000 + floor(t.r_c * 9000))::int
                        when t.r_sub < 0.80 then 'A' || (1 + floor(t.r_a * 2))::int || case when t.r_b < 0.35 then ' Ambulance ' else ' ' end ||
                          s.street || ' ' || (1000 + floor(t.r_c * 9000))::int || ' ' || s.place || ' Rit ' || (10000 + floor(t.r_d * 90000))::int
                        else (array['P 1 Ongeval wegvervoer letsel ', 'P 2 Ongeval materieel ', 'P 1 Verkeersongeval ', 'P 2 Aanrijding '])[1 + floor(t.r_b * 4)::int] ||
                          s.road || ' Hmp ' || round((t.r_c * 200)::numeric, 1) || ' ' || s.place
                      end
                      when 'nl' then case floor(t.r_sub * 10)::int
                        when 0 then 'Brand verwoest woning aan de ' || s.street || ' in ' || s.place
                        when 1 then 'Grote brand bij bedrijf in ' || s.place || ', veel rook'
                        when 2 then 'Ongeval op de ' || s.road || ' bij ' || s.place || ': weg urenlang dicht'
                        when 3 then 'Verkeersongeval ' || s.road || ' bij ' || s.place || ', lange file'
                        when 4 then 'Politie zoekt getuigen van overval in ' || s.place
                        when 5 then 'Gemeente ' || s.place || ' sluit ' || s.street || ' af voor werkzaamheden'
                        when 6 then 'Storm zorgt voor schade in ' || s.place
                        when 7 then 'Treinverkeer tussen ' || s.place || ' en ' || s.place2 || ' gestremd'
                        when 8 then 'Ambulance en traumahelikopter naar ' || s.street || ' in ' || s.place
                        else 'Nieuwe woonwijk in ' || s.place || ' goedgekeurd'
                      end
                      else case floor(t.r_sub * 8)::int
                        when 0 then 'Fire destroys house in ' || s.place
                        when 1 then 'Crash on the ' || s.road || ' near ' || s.place || ' causes long delays'
                        when 2 then 'Police investigate robbery in ' || s.place
                        when 3 then 'Storm brings disruption to ' || s.place
                        when 4 then 'Train services between ' || s.place || ' and ' || s.place2 || ' suspended'
                        when 5 then 'Ambulance called to ' || s.street || ' in ' || s.place
                        when 6 then 'Council approves new homes in ' || s.place
                        else 'Flood warning issued for ' || s.place
                      end
                    end as title,
                    case fe.kind
                      when 'p2000' then case
                        when t.r_sub < 0.40 then 'Brandweer ' || s.place || ' (Tankautospuit ' || s.region || '-' || (1000 + floor(t.r_d * 9000))::int ||
                          '), Officier van dienst regio ' || s.region
                        when t.r_sub < 0.80 then 'RAV regio ' || s.region || ' (AMBU ' || s.region || '-' || (100 + floor(t.r_d * 900))::int || ')'
                        else 'Politie ' || s.place || ' (Noodhulp), Brandweer ' || s.place || ' (Hulpverleningsvoertuig)'
                      end
                      when 'nl' then w.nl[1 + floor(t.r_s1 * cardinality(w.nl))::int] || ' ' || w.nl[1 + floor(t.r_s2 * cardinality(w.nl))::int] ||
                        ' Het gebeurde rond ' || s.at || ' aan de ' || s.street || '.'
                      else w.en[1 + floor(t.r_s1 * cardinality(w.en))::int] || ' ' || w.en[1 + floor(t.r_s2 * cardinality(w.en))::int] ||
                        ' It happened around ' || s.at || ' in ' || s.place || '.'
                    end as summary,
                    case when fe.kind = 'p2000' then 'p2000-' || fe.n || '-' || t.g when t.r_a < 0.5 then 'urn:bench:' || t.g end as guid,
                    'https://' || fe.host || case when fe.kind = 'p2000' then '/melding/' else '/artikel/' end || t.g as link) x`,
          [
            from,
            to,
            total,
            STREETS,
            RSS_RARE_STREETS,
            ROADS,
            BRT,
            NL_SENTENCES,
            EN_SENTENCES,
            JSON.stringify(RSS_FEEDS),
          ],
        );
        log(`  ${to.toLocaleString("en")} rows, ${((performance.now() - started) / 1000).toFixed(0)} s`);
      }
    } finally {
      client.release();
    }
    filling.itemsSeconds = round((performance.now() - started) / 1000);
    const vacuumStarted = performance.now();
    await analyzeTables(db, ["app_public.rss_feed_items", "app_public.rss_feeds"]);
    await db.query("vacuum app_public.rss_feed_items, app_public.rss_feeds");
    filling.vacuumAnalyzeSeconds = round((performance.now() - vacuumStarted) / 1000);
    log(`  ${filling.itemsSeconds} s to insert, ${filling.vacuumAnalyzeSeconds} s to vacuum and analyse`);
  }
  return filling;
}

// ------------------------------------------------------------------------------------------------
// Every feed at once (bench/monitor-preview.ts, bench/p2000-history.ts)

/** The sizes of every feed's history; the defaults are the feeds' own benches'. */
export const FEED_HISTORY_SIZES = {
  incidents: 1_000_000,
  jams: 300_000,
  rail: 10_000,
  nlAlerts: 10_000,
  amber: 300,
  meteoYears: 10,
  aircraftDays: 400,
  /** Flights a day of each tracked aircraft (a take-off and a landing each). */
  flights: 4,
  rssItems: 1_000_000,
};

/** The main tables fillEveryFeedHistory fills, for a bench that reports their sizes. */
export const FEED_HISTORY_TABLES = [
  "app_public.traffic_incidents",
  "app_public.traffic_incident_events",
  "app_public.traffic_jams",
  "app_public.rail_disruptions",
  "app_public.nl_alerts",
  "app_public.amber_alerts",
  "app_public.meteo_warning_events",
  "app_public.aircraft_routes",
  "app_public.aircraft_events",
  "app_public.rss_feed_items",
] as const;

/**
 * Every feed's history but P2000's, each as its own bench fills it, whatever is missing: traffic
 * incidents with their events, jams and railway disruptions over three years, NL-Alerts, AMBER
 * alerts over five years, KNMI warnings, take-offs and landings, and the RSS monitors (in the
 * given environment) with their feeds' items. Returns the seconds each fill took (empty when
 * nothing was missing).
 */
export async function fillEveryFeedHistory(
  db: pg.Pool,
  { ownerUrl, environmentUuid, source }: { ownerUrl: string; environmentUuid: string; source: string },
  sizes: typeof FEED_HISTORY_SIZES,
  log: Log,
): Promise<Record<string, number>> {
  const filling = {
    ...(await fillTrafficIncidents(db, sizes.incidents, log)),
    ...(await fillTrafficIncidentEvents(db, log)),
    ...(await fillTrafficJams(db, { jams: sizes.jams, years: 3 }, log)),
    ...(await fillRailDisruptions(db, { disruptions: sizes.rail, years: 3 }, log)),
    ...(await fillNlAlerts(db, sizes.nlAlerts, source, log)),
    ...(await fillAmberAlerts(db, { alerts: sizes.amber, years: 5, source }, log)),
    ...(await fillMeteoWarnings(db, ownerUrl, { years: sizes.meteoYears, every: 1, source }, log)),
    ...(await fillAircraftEvents(db, { days: sizes.aircraftDays, perDay: sizes.flights }, log)),
  };
  await fillRssMonitors(db, environmentUuid, log);
  return { ...filling, ...(await fillRssItems(db, sizes.rssItems, log)) };
}
