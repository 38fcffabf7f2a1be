// The response cache's rules come from each SQL function's own declaration of the tables it reads
// (`@cacheReads`, `@cacheMonitorReads` and `@cacheEnvironmentBound` in its comment:
// lib/graphql/cache-rules.ts). A function that starts reading a table its declaration does not name
// would have its answers served after that table changed, so this test calls every function that
// declares its reads, as a request does (the visitor role, an API token's settings), with
// representative arguments over seeded data of every feed, and reads which tables the call
// scanned (pg_stat_xact_user_tables: per-transaction scan counters, sequential and index). It
// fails naming the function and the table it read without declaring it. It also fails when a
// declared table announces no changes (no data_changed trigger: the cache would never hear of
// them), and when a function reads the environment's monitors without saying its answer depends on
// the environment.
//
// CACHE_READS_PROBE=fn,fn… also calls functions that declare nothing yet, and CACHE_READS_REPORT=FILE
// writes what every call read: a way to find what a new function should declare.
import fs from "node:fs";
import { beforeAll, describe, expect, test } from "@jest/globals";
import pg from "pg";
import { createApiToken } from "../../lib/auth/api-tokens.ts";
import {
  baseTablesOf,
  CACHE_CATALOG_QUERY,
  cacheCatalogOf,
  type CacheCatalog,
  type CatalogRow,
} from "../../lib/graphql/cache-rules.ts";
import { ROLES } from "../../lib/db/bootstrap.ts";
import { loadAircraftDemo } from "../../lib/feeds/aircraft/demo-data.ts";
import { loadAlertsDemo } from "../../lib/feeds/alerts/demo-data.ts";
import { loadMeteoDemo } from "../../lib/feeds/meteo/demo-data.ts";
import { parseRssDocument } from "../../lib/feeds/rss/parser.ts";
import { storeRssDocument } from "../../lib/feeds/rss/store.ts";
import { loadTrafficDemo } from "../../lib/feeds/traffic/demo-data.ts";
import { importFireBrigade } from "../../lib/fire/fire-brigade-import.ts";
import { loadDemoTraffic } from "../../lib/p2000/demo-data.ts";
import { importHectometers } from "../../lib/roads/hectometer-import.ts";
import { fixture } from "../helpers/cli.ts";
import { useTestDatabase } from "../helpers/database.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";

const ctx = useTestDatabase();

/**
 * Tables that say who asks, not what the answer is: the environment, token and session helpers
 * read them (app_hidden.current_environment_uuid, …). None announces changes, and none has to: a
 * revoked token is refused before the cache is asked (plugins/require-api-token.ts), and an
 * environment-bound answer is kept per environment.
 */
const WHO_ASKS = new Set([
  "app_public.api_tokens",
  "app_public.environments",
  "app_public.sessions",
  "app_private.request_identities",
  "app_hidden.organization_memberships",
]);

/** What the calls below name: rows of the seeded data. */
interface Seed {
  message: string;
  dossier: string;
  capcode: string;
  capcodeName: string;
  discipline: string;
  region: string;
  vehicle: string;
  station: string;
  icao: string;
  route: string;
  content: string;
  marker: string;
  road: string;
  roadUuid: string;
  station_id: string;
  province: string;
  monitors: Record<"p2000" | "aircraft" | "meteo_weather" | "accident" | "rss", string>;
  rssFeed: string;
}

const HOUR = 3_600_000;
const now = new Date();
const lit = (value: string | null) => (value === null ? "null" : `'${value.replaceAll("'", "''")}'`);
/** A composite argument from JSON (nested composites included). */
const input = (type: string, value: object) =>
  `jsonb_populate_record(null::app_public.${type}, ${lit(JSON.stringify(value))})`;
const window = (days = 30) =>
  `window_start => ${lit(new Date(now.getTime() - days * 24 * HOUR).toISOString())}, window_end => ${lit(new Date(now.getTime() + HOUR).toISOString())}`;
const dateWindow = (days = 30) =>
  `window_start => ${lit(new Date(now.getTime() - days * 24 * HOUR).toISOString().slice(0, 10))}::date, window_end => ${lit(new Date(now.getTime() + 24 * HOUR).toISOString().slice(0, 10))}::date`;

/**
 * Representative calls of the functions whose arguments the plain call (every argument at its
 * default) would not reach: required arguments, and the branches their filters take. A function
 * not listed is called once with its defaults.
 */
const CALLS: Record<string, (s: Seed) => string[]> = {
  aircraft_content_item: (s) => [`aircraft_content_item(${lit(s.content)})`],
  aircraft_content_items: () => [`aircraft_content_items()`, `aircraft_content_items('lifeliner')`],
  aircraft_events_for_monitor: (s) => [
    `aircraft_events_for_monitor(${input("monitor_ref", { uuid: s.monitors.aircraft })})`,
  ],
  aircraft_flight_facts: () => [`aircraft_flight_facts(${window()})`],
  aircraft_live: (s) => [`aircraft_live(${lit(s.icao)})`, `aircraft_live('PH-DEMO')`],
  aircraft_route: (s) => [`aircraft_route(${input("aircraft_route_ref", { uuid: s.route })})`],
  aircraft_routes: (s) => [`aircraft_routes(${lit(s.icao)}, include_unstarted => true)`, `aircraft_routes('PH-DEMO')`],
  alert_facts: () => [`alert_facts(${window()})`],
  amber_alert_history: () => [`amber_alert_history()`, `amber_alert_history(active_only => true)`],
  amber_alerts: () => [`amber_alerts()`, `amber_alerts(active_only => true)`],
  area_choices: () => [`area_choices('Utr')`, `area_choices('03', 'gemeente')`, `area_choices('Noord', 'province')`],
  available_hectometers: (s) => [`available_hectometers(${input("road_ref", { name: s.road })})`],
  cities: () => [`cities('Utr')`, `cities('Rotterdm')`],
  fire_station: (s) => [`fire_station(${lit(s.station)})`],
  fire_stations: () => [
    `fire_stations()`,
    `fire_stations(filter => ${input("fire_station_filter", { search: "a", region: "17" })})`,
  ],
  fire_stations_count: () => [
    `fire_stations_count()`,
    `fire_stations_count(${input("fire_station_filter", { search: "a" })})`,
  ],
  fire_vehicle: (s) => [`fire_vehicle(${lit(s.vehicle)})`],
  fire_vehicles: (s) => [
    `fire_vehicles()`,
    `fire_vehicles(filter => ${input("fire_vehicle_filter", { search: "31", station: s.station })})`,
  ],
  fire_vehicles_count: () => [
    `fire_vehicles_count()`,
    `fire_vehicles_count(${input("fire_vehicle_filter", { search: "31" })})`,
  ],
  hectometer_marker: (s) => [`hectometer_marker(${input("hectometer_marker_ref", { uuid: s.marker })})`],
  hectometer_markers: (s) => [
    `hectometer_markers()`,
    `hectometer_markers(filter => ${input("hectometer_marker_filter", { road: { name: s.road }, hectometer: 10 })})`,
  ],
  hectometer_markers_nearest: () => [`hectometer_markers_nearest(52.09, 5.12)`],
  location_suggestions: () => [
    `location_suggestions('Utrecht')`,
    `location_suggestions('3511')`,
    `location_suggestions('Oudegracht 1')`,
  ],
  meteo_latest_observation: (s) => [`meteo_latest_observation()`, `meteo_latest_observation(${lit(s.station_id)})`],
  meteo_observation_history: (s) => [
    `meteo_observation_history(${lit(s.station_id)}, ${Math.floor(now.getTime() / 1000) - 86_400}, ${Math.floor(now.getTime() / 1000)})`,
  ],
  meteo_region_detail: (s) => [`meteo_region_detail(${lit(s.province)})`],
  meteo_snapshot: () => [
    `meteo_snapshot(${lit(now.toISOString().slice(0, 10))})`,
    `meteo_snapshot(${lit(new Date(now.getTime() - 24 * HOUR).toISOString().slice(0, 10))})`,
  ],
  meteo_stats_monthly: (s) => [
    `meteo_stats_monthly(${now.getFullYear()})`,
    `meteo_stats_monthly(${now.getFullYear()}, ${lit(s.province)})`,
  ],
  meteo_warning_day_facts: () => [
    `meteo_warning_day_facts(${dateWindow()})`,
    `meteo_warning_day_facts(${dateWindow()}, by_province => true)`,
  ],
  meteo_warning_event_facts: () => [`meteo_warning_event_facts(${window()})`],
  meteo_warning_events_for_monitor: (s) => [
    `meteo_warning_events_for_monitor(${input("monitor_ref", { uuid: s.monitors.meteo_weather })})`,
  ],
  nl_alerts: () => [`nl_alerts()`, `nl_alerts(region_number => '09', active_only => true)`],
  p2000_capcode: (s) => [`p2000_capcode(${lit(s.capcode)})`],
  p2000_capcodes: (s) => [
    `p2000_capcodes()`,
    `p2000_capcodes(filter => ${input("p2000_capcode_filter", { search: "09" })})`,
    `p2000_capcodes(filter => ${input("p2000_capcode_filter", { names: [s.capcodeName] })})`,
    `p2000_capcodes(filter => ${input("p2000_capcode_filter", { sended: { from: new Date(now.getTime() - 24 * HOUR).toISOString() } })})`,
  ],
  p2000_capcodes_count: (s) => [
    `p2000_capcodes_count()`,
    `p2000_capcodes_count(${input("p2000_capcode_filter", { names: [s.capcodeName] })})`,
  ],
  p2000_day_count_facts: () => [
    `p2000_day_count_facts('region', ${dateWindow()})`,
    `p2000_day_count_facts('discipline', ${dateWindow()})`,
    `p2000_day_count_facts('urgency', ${dateWindow()})`,
    `p2000_day_count_facts('road', ${dateWindow()})`,
  ],
  p2000_discipline: (s) => [`p2000_discipline(${lit(s.discipline)})`],
  p2000_disciplines: () => [
    `p2000_disciplines()`,
    `p2000_disciplines(filter => ${input("p2000_discipline_filter", { search: "Br" })})`,
  ],
  p2000_dossier: (s) => [
    `p2000_dossier(dossier => ${input("p2000_message_dossier_ref", { uuid: s.dossier })})`,
    `p2000_dossier(message => ${input("p2000_message_ref", { uuid: s.message })})`,
  ],
  p2000_dossier_facts: () => [`p2000_dossier_facts(${window()})`],
  p2000_dossier_timeline: (s) => [
    `p2000_dossier_timeline(${input("p2000_dossier_timeline_filter", { dossier: { uuid: s.dossier } })})`,
    `p2000_dossier_timeline(${input("p2000_dossier_timeline_filter", { message: { uuid: s.message }, order_by: "oldestFirst" })})`,
  ],
  p2000_dossiers: (s) => [
    `p2000_dossiers()`,
    `p2000_dossiers(filter => ${input("p2000_dossier_filter", { message: { uuid: s.message } })})`,
    `p2000_dossiers(filter => ${input("p2000_dossier_filter", { dossier: { uuid: s.dossier } })})`,
  ],
  p2000_grip_levels: () => [
    `p2000_grip_levels()`,
    `p2000_grip_levels(filter => ${input("p2000_taxonomy_filter", { search: "1" })})`,
  ],
  p2000_message: (s) => [`p2000_message(${lit(s.message)})`],
  p2000_message_facts: () => [`p2000_message_facts(${window()})`],
  p2000_message_statistics: (s) => [
    `p2000_message_statistics()`,
    `p2000_message_statistics(${input("p2000_message_filter", { capcodes: [s.capcode] })})`,
    `p2000_message_statistics(${input("p2000_message_filter", { disciplines: [s.discipline] })})`,
    `p2000_message_statistics(${input("p2000_message_filter", { monitor: { uuid: s.monitors.p2000 } })})`,
  ],
  p2000_messages: (s) => [
    `p2000_messages()`,
    `p2000_messages(filter => ${input("p2000_message_filter", { exercise_type: "all" })})`,
    `p2000_messages(filter => ${input("p2000_message_filter", { disciplines: [s.discipline] })})`,
    `p2000_messages(filter => ${input("p2000_message_filter", { capcodes: [s.capcode] })})`,
    `p2000_messages(filter => ${input("p2000_message_filter", { capcodes: [s.capcode, s.capcode] })})`,
    `p2000_messages(filter => ${input("p2000_message_filter", { capcode: { names: [s.capcodeName] } })})`,
    `p2000_messages(filter => ${input("p2000_message_filter", { dossier: { uuid: s.dossier } })})`,
    `p2000_messages(filter => ${input("p2000_message_filter", { vehicle: { number: s.vehicle } })})`,
    `p2000_messages(filter => ${input("p2000_message_filter", { monitor: { uuid: s.monitors.p2000 } })})`,
  ],
  p2000_messages_count: (s) => [
    `p2000_messages_count()`,
    `p2000_messages_count(${input("p2000_message_filter", { capcodes: [s.capcode] })})`,
    `p2000_messages_count(${input("p2000_message_filter", { disciplines: [s.discipline] })})`,
    `p2000_messages_count(${input("p2000_message_filter", { dossier: { uuid: s.dossier } })})`,
    `p2000_messages_count(${input("p2000_message_filter", { monitor: { uuid: s.monitors.p2000 } })})`,
  ],
  p2000_qualifications: () => [
    `p2000_qualifications()`,
    `p2000_qualifications(filter => ${input("p2000_taxonomy_filter", { search: "a" })})`,
  ],
  p2000_region: (s) => [`p2000_region(${lit(s.region)})`],
  p2000_regions: () => [
    `p2000_regions()`,
    `p2000_regions(filter => ${input("p2000_taxonomy_filter", { search: "Utr" })})`,
  ],
  p2000_statistics: () => [`p2000_statistics()`, `p2000_statistics('LAST_24_HOURS')`, `p2000_statistics('THIS_YEAR')`],
  p2000_urgencies: () => [
    `p2000_urgencies()`,
    `p2000_urgencies(filter => ${input("p2000_taxonomy_filter", { search: "A" })})`,
  ],
  parse_hectometer_search: (s) => [`parse_hectometer_search(${lit(`${s.road} Re 10,2`)})`],
  postcodes: () => [`postcodes('3511')`, `postcodes('3511 A')`],
  road: (s) => [`road(${input("road_ref", { name: s.road })})`, `road(${input("road_ref", { uuid: s.roadUuid })})`],
  roads: () => [`roads()`, `roads(filter => ${input("road_filter", { prefix: "A", with_marker_count: true })})`],
  rss_feed_items: (s) => [
    `rss_feed_items()`,
    `rss_feed_items(filter => ${input("rss_feed_item_filter", { monitor: { uuid: s.monitors.rss } })})`,
    `rss_feed_items(filter => ${input("rss_feed_item_filter", { feed: s.rssFeed, q: "Ambulance" })})`,
  ],
  rss_feed_items_count: (s) => [
    `rss_feed_items_count()`,
    `rss_feed_items_count(${input("rss_feed_item_filter", { feed: s.rssFeed })})`,
  ],
  rss_item_facts: () => [`rss_item_facts(${window()})`],
  search_roads: () => [`search_roads('A1')`, `search_roads('12')`],
  traffic_incident_facts: () => [`traffic_incident_facts(${window()})`],
  traffic_incidents: () => [`traffic_incidents()`, `traffic_incidents(true)`, `traffic_incidents(false)`],
  traffic_incidents_for_monitor: (s) => [
    `traffic_incidents_for_monitor(${input("monitor_ref", { uuid: s.monitors.accident })})`,
  ],
};

/**
 * The rows a computed field's function is called with, by the type of its first argument: chosen
 * to reach its branches (a message of a dossier, a vehicle of a station). By default the type's
 * first rows (a table's, or what the function of that name returns).
 */
const ROWS: Record<string, string> = {
  "app_public.p2000_messages": `select m from app_public.p2000_messages m where m.dossier_uuid is not null order by m.sended desc limit 3`,
  "app_public.p2000_dossier": `select d from app_public.p2000_dossiers() d limit 3`,
  "app_public.p2000_statistics": `select s from app_public.p2000_statistics() s`,
  "app_public.roads_grouped_by_prefix": `select g from app_public.roads_grouped_by_prefix() g`,
};

interface Probed {
  name: string;
  calls: { call: string; read: string[]; error?: string }[];
}

let seed: Seed;
let settings: Record<string, string>;
let functions: {
  name: string;
  signature: string;
  reads: string[] | null;
  monitorReads: string[];
  environmentBound: boolean;
  firstType: string | null;
  computed: boolean;
  required: number;
}[];
let catalog: CacheCatalog;
/** Tables whose rows the visitor sees by the caller's environment (their row-level security). */
let perEnvironment: Set<string>;
const probed = new Map<string, Probed>();

async function seedEveryFeed(pool: pg.Pool): Promise<void> {
  const quiet = { log: () => {} };
  await loadDemoTraffic(pool, new Date(now.getTime() - 6 * HOUR), now);
  await storeP2000Pages(ctx.db, [
    { message: "P 1 BDH-02 Brand woning Oudegracht Utrecht 093151", sended: now.toISOString(), capcodes: ["0923002"] },
  ]);
  await loadMeteoDemo(pool, now);
  await loadAlertsDemo(pool, now);
  await loadTrafficDemo(pool, now);
  await loadAircraftDemo(pool, now);
  await importFireBrigade(pool, fs.createReadStream(fixture("fire-stations.csv")), "csv", quiet);
  await importFireBrigade(pool, fs.createReadStream(fixture("fire-vehicles.csv")), "csv", quiet);
  await importHectometers(pool, fs.createReadStream(fixture("nwb-hectopunten.geojson")), "geojson", quiet);
  await pool.query("select app_private.refresh_analytics_cache()");
  const environment = ctx.db.operatorEnvironmentUuid;
  const {
    rows: [{ uuid: feed }],
  } = await pool.query(
    "insert into app_public.rss_feeds (url) values ('https://example.invalid/p2000.rss') returning uuid",
  );
  const rss = parseRssDocument(
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>P2000</title><link>https://example.invalid/</link><description>Meldingen</description>` +
      `<item><title>A1 Ambulance Kerkstraat Schiedam</title><link>https://example.invalid/1</link><description>Melding</description>` +
      `<pubDate>${now.toUTCString()}</pubDate><guid isPermaLink="false">1</guid></item></channel></rss>`,
  );
  await storeRssDocument(pool, feed, rss);
  const monitor = async (type: string, query: object) =>
    (
      await pool.query<{ uuid: string }>(
        "insert into app_public.monitors (environment_uuid, name, type, query) values ($1, $2, $3, $4) returning uuid",
        [environment, `cache reads ${type}`, type, JSON.stringify(query)],
      )
    ).rows[0].uuid;
  const monitors = {
    p2000: await monitor("p2000", { regions: ["09"] }),
    aircraft: await monitor("aircraft", {}),
    meteo_weather: await monitor("meteo_weather", {}),
    accident: await monitor("accident", {}),
    rss: await monitor("rss", { feeds: ["https://example.invalid/p2000.rss"] }),
  };
  const one = async (sql: string) => Object.values((await pool.query(sql)).rows[0] ?? {})[0] as string;
  seed = {
    message: await one(
      "select uuid::text from app_public.p2000_messages where dossier_uuid is not null order by sended desc limit 1",
    ),
    dossier: await one(
      "select dossier_uuid::text from app_public.p2000_messages where dossier_uuid is not null order by sended desc limit 1",
    ),
    capcode: await one(
      "select mc.capcode_uuid::text from app_public.p2000_message_capcodes mc order by mc.sended desc limit 1",
    ),
    capcodeName: await one(
      "select c.name from app_public.p2000_message_capcodes mc join app_public.p2000_capcodes c on c.uuid = mc.capcode_uuid order by mc.sended desc limit 1",
    ),
    discipline: await one("select uuid::text from app_public.p2000_disciplines order by name limit 1"),
    region: await one("select slug from app_public.p2000_regions order by number limit 1"),
    vehicle: await one("select name from app_public.fire_vehicles order by name limit 1"),
    station: await one("select slug from app_public.fire_stations order by slug limit 1"),
    icao: await one("select icao from app_public.aircraft_routes order by took_off_at desc nulls last limit 1"),
    route: await one("select uuid::text from app_public.aircraft_routes order by took_off_at desc nulls last limit 1"),
    content: await one("select slug from app_public.aircraft_content_items order by slug limit 1"),
    marker: await one("select uuid::text from app_public.hectometer_markers order by uuid limit 1"),
    road: await one(
      "select r.name from app_public.roads r where exists (select 1 from app_public.hectometer_markers h where h.road_uuid = r.uuid) limit 1",
    ),
    roadUuid: await one("select uuid::text from app_public.roads order by name limit 1"),
    station_id: await one("select station_id from app_public.meteo_observations order by observed_at desc limit 1"),
    province: await one("select code from app_public.meteo_provinces order by code limit 1"),
    monitors,
    rssFeed: feed,
  };
  const { token } = await createApiToken(pool, { environmentUuid: environment, name: "cache reads", scopes: [] });
  settings = {
    role: ROLES.visitor,
    statement_timeout: "30s",
    "app.request_uuid": "00000000-0000-4000-8000-000000000046",
    "app.api_token_uuid": token.uuid,
    "app.environment_uuid": environment,
    "app.api_scopes": "",
  };
}

const SCANS = `select schemaname || '.' || relname as name, seq_scan + coalesce(idx_scan, 0) as scans
                 from pg_catalog.pg_stat_xact_user_tables`;

/**
 * The tables one call scanned, as a request would make it; the error it raised, if any. The
 * counters are read before and after the call in one transaction: since PostgreSQL 15 they also
 * hold the backend's earlier transactions until it flushes them to the shared statistics.
 */
async function probe(client: pg.Client, sql: string): Promise<{ read: string[]; error?: string }> {
  await client.query("begin");
  try {
    for (const [name, value] of Object.entries(settings)) {
      await client.query("select set_config($1, $2, true)", [name, value]);
    }
    const scans = async () =>
      new Map((await client.query<{ name: string; scans: string }>(SCANS)).rows.map((r) => [r.name, Number(r.scans)]));
    const before = await scans();
    await client.query("savepoint call");
    let error: string | undefined;
    try {
      await client.query(sql);
    } catch (e) {
      error = (e as Error).message;
      await client.query("rollback to savepoint call");
    }
    const after = await scans();
    const read = [...after].filter(([name, n]) => n > (before.get(name) ?? 0)).map(([name]) => name);
    return { read: read.sort(), ...(error ? { error } : {}) };
  } finally {
    await client.query("rollback");
  }
}

/** A smart tag's words, from the comment's leading @ lines (lib/graphql/cache-rules.ts reads the same). */
function tagOf(comment: string, tag: string): string[] | null {
  const words: string[] = [];
  let found = false;
  for (const line of comment.split("\n")) {
    const match = /^\s*@([a-zA-Z][a-zA-Z0-9_]*)(?:\s+(.*))?$/.exec(line);
    if (!match) break;
    if (match[1] !== tag) continue;
    found = true;
    words.push(...(match[2] ?? "").split(/\s+/).filter(Boolean));
  }
  return found ? words : null;
}

beforeAll(async () => {
  const pool = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: 4 });
  try {
    await seedEveryFeed(pool);
    catalog = cacheCatalogOf((await pool.query<CatalogRow>(CACHE_CATALOG_QUERY)).rows);
    const { rows: policies } = await pool.query<{ name: string }>(`
      select distinct n.nspname || '.' || c.relname as name
        from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
       where p.polcmd in ('r', '*') and pg_get_expr(p.polqual, p.polrelid) ~ 'current_(member_)?environment'`);
    perEnvironment = new Set(policies.map((p) => p.name).filter((name) => !WHO_ASKS.has(name)));
    const probeAlso = (process.env.CACHE_READS_PROBE ?? "").split(",").filter(Boolean);
    const { rows } = await pool.query(
      `
      select p.proname as name, p.oid::regprocedure::text as signature, coalesce(obj_description(p.oid, 'pg_proc'), '') as comment,
             p.pronargs - p.pronargdefaults as required,
             case when p.pronargs > 0 then p.proargtypes[0]::regtype::text end as first_type,
             p.pronargs > 0 and exists (
               select 1 from pg_type t join pg_class c on c.oid = t.typrelid
                where t.oid = p.proargtypes[0]
                  and (c.relkind in ('r', 'v', 'p', 'm')
                       or c.relkind = 'c' and exists (select 1 from pg_proc r where r.prorettype = t.oid))) as computed
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'app_public' and p.prokind = 'f'
         and (obj_description(p.oid, 'pg_proc') ~ '(^|\\n)\\s*@cacheReads' or p.proname = any ($1))
       order by 1`,
      [probeAlso],
    );
    functions = rows.map((row) => ({
      name: row.name,
      signature: row.signature,
      reads: tagOf(row.comment, "cacheReads"),
      monitorReads: tagOf(row.comment, "cacheMonitorReads") ?? [],
      environmentBound: tagOf(row.comment, "cacheEnvironmentBound") !== null,
      firstType: row.first_type,
      computed: row.computed,
      required: row.required,
    }));
    const client = new pg.Client({ connectionString: ctx.db.authUrl });
    await client.connect();
    try {
      for (const fn of functions) {
        const result: Probed = { name: fn.name, calls: [] };
        if (fn.computed) {
          const rowsSql = ROWS[fn.firstType!] ?? `select t from ${fn.firstType} t limit 3`;
          const { rows: values } = await pool.query<{ row: string }>(
            `select x::text as row from (${rowsSql}) as q (x)`,
          );
          for (const { row } of values) {
            const call = `select to_jsonb(x) from (select * from app_public.${fn.name}(${lit(row)}::${fn.firstType})) x`;
            result.calls.push({ call, ...(await probe(client, call)) });
          }
          if (values.length === 0) result.calls.push({ call: rowsSql, read: [], error: "no rows to call it with" });
        } else {
          const calls = CALLS[fn.name]?.(seed) ?? (fn.required === 0 ? [`${fn.name}()`] : []);
          if (calls.length === 0) {
            result.calls.push({
              call: "",
              read: [],
              error: "required arguments: give it representative calls in CALLS",
            });
          }
          for (const call of calls) {
            const sql = `select to_jsonb(x) from (select * from app_public.${call}) x`;
            result.calls.push({ call, ...(await probe(client, sql)) });
          }
        }
        probed.set(fn.name, result);
      }
    } finally {
      await client.end();
    }
    if (process.env.CACHE_READS_REPORT) {
      fs.writeFileSync(process.env.CACHE_READS_REPORT, JSON.stringify(Object.fromEntries(probed), null, 1));
    }
  } finally {
    await pool.end();
  }
}, 300_000);

describe("what each function reads is what it declares", () => {
  test("the probe sees reads (the counters work, and the seeded data is there)", () => {
    const messages = probed.get("p2000_messages");
    expect(messages?.calls[0]?.read).toContain("app_public.p2000_messages");
    expect(functions.length).toBeGreaterThan(80);
  });

  test("every call runs without error", () => {
    const failed = [...probed.values()].flatMap((p) =>
      p.calls.filter((c) => c.error).map((c) => `${p.name}: ${c.call}: ${c.error}`),
    );
    expect(failed).toEqual([]);
  });

  test("no function reads a table its @cacheReads or @cacheMonitorReads does not name", () => {
    const undeclared: string[] = [];
    for (const fn of functions) {
      const declared = new Set(
        [...(fn.reads ?? []), ...fn.monitorReads].flatMap((name) => baseTablesOf(catalog, name)),
      );
      const read = new Set(probed.get(fn.name)!.calls.flatMap((c) => c.read));
      for (const table of read) {
        if (!declared.has(table) && !WHO_ASKS.has(table)) undeclared.push(`${fn.signature} reads ${table}`);
      }
    }
    expect(undeclared).toEqual([]);
  });

  test("every table a function declares announces its changes (a data_changed trigger)", () => {
    const silent: string[] = [];
    for (const fn of functions) {
      for (const name of [...(fn.reads ?? []), ...fn.monitorReads]) {
        if (!catalog[name]) silent.push(`${fn.signature} declares ${name}, which is no table or view`);
        for (const table of baseTablesOf(catalog, name)) {
          if (!catalog[table]?.domains.length)
            silent.push(`${fn.signature} declares ${table}, which announces no change`);
        }
      }
    }
    expect(silent).toEqual([]);
  });

  test("a function that reads what the environment sees without being asked for a monitor says it is environment-bound", () => {
    const unbound: string[] = [];
    for (const fn of functions) {
      if (fn.environmentBound || fn.reads === null) continue;
      const calls = probed.get(fn.name)!.calls.filter((c) => !/monitor_ref|"monitor"/.test(c.call));
      const tables = new Set(calls.flatMap((c) => c.read).filter((table) => perEnvironment.has(table)));
      if (tables.size > 0) unbound.push(`${fn.signature} reads ${[...tables].join(", ")}`);
    }
    expect(unbound).toEqual([]);
  });
});
