// Every public read of the spec (interface-spec.md 4.3) that bench/p2000-history.ts does not already
// ask with its filters, as a client asks it: its default arguments, and the required ones drawn
// from what the database holds (a message, dossier or capcode anywhere in the history, a day or
// year of the weather history, a monitor of each feed in the operator environment). The selection
// is made from schema.graphql: every field without required arguments, objects one level down
// (their scalar fields), so that the fields that cost something when asked (byRoadThisYear,
// relatedSignals, a dossier's messages) are asked too. The P2000 history bench measures each at
// one client for the ten-year table (goal: p99 under 100 ms).
import fs from "node:fs";
import path from "node:path";
import {
  buildSchema,
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
} from "graphql";
import type pg from "pg";
import { BENCH_DIR } from "./bench-database.ts";

export type SpecRead = { operation: string; name: string; query: string; args: () => Record<string, unknown> };

/** The spec's reads that bench/p2000-history.ts asks itself, with the filters the docs show. */
export const HISTORY_BENCH_OPERATIONS = [
  "p2000Messages",
  "p2000MessagesCount",
  "p2000MessageStatistics",
  "p2000Dossiers",
  "p2000Statistics",
  "hubAnalyticsHourly",
  "hubAnalyticsUrgency",
  "hubAnalyticsWeekdays",
];
type Arguments = Record<string, () => unknown>;
type Samples = Awaited<ReturnType<typeof readSamples>>;

const schema = buildSchema(fs.readFileSync(path.join(BENCH_DIR, "..", "schema.graphql"), "utf8"));
const queryType = schema.getQueryType()!;
const asksNothing = (field: GraphQLField<unknown, unknown>) => field.args.every((a) => !isNonNullType(a.type));

/** The selection of a type: its fields without required arguments, objects' scalar fields one level down. */
function selection(type: GraphQLObjectType, depth: number): string {
  const fields = Object.values(type.getFields())
    .filter(asksNothing)
    .flatMap((field) => {
      const named = getNamedType(field.type);
      if (isLeafType(named)) return [field.name];
      if (depth > 0 && isObjectType(named)) {
        const inner = selection(named, depth - 1);
        return inner ? [`${field.name} ${inner}`] : [];
      }
      return [];
    });
  return fields.length > 0 ? `{ ${fields.join(" ")} }` : "";
}

/** A query document for one operation with the given arguments as variables of the schema's types. */
export function specReadQuery(operation: string, argumentNames: string[]): string {
  const field = queryType.getFields()[operation];
  if (!field) throw new Error(`${operation} is not a query of schema.graphql`);
  const variables = argumentNames.map((name) => {
    const argument = field.args.find((a) => a.name === name);
    if (!argument) throw new Error(`${operation} has no argument ${name}`);
    return `$${name}: ${argument.type.toString()}`;
  });
  const named = getNamedType(field.type);
  const fields = isObjectType(named) ? selection(named, 1) : "";
  const passed = argumentNames.map((name) => `${name}: $${name}`).join(", ");
  return `query${variables.length ? ` (${variables.join(", ")})` : ""} { ${operation}${passed ? `(${passed})` : ""} ${fields} }`;
}

/** What the required arguments are drawn from: a sample of each kind of row, and the bench's monitors. */
async function readSamples(db: pg.Pool, environmentUuid: string) {
  const column = async (sql: string, values: unknown[] = []) =>
    (await db.query<{ v: string }>(sql, values)).rows.map((r) => r.v);
  // A thousand rows spread over the table: its keys sampled at random pages (TABLESAMPLE SYSTEM).
  const spread = (table: string, key: string) =>
    column(`select ${key}::text as v from ${table} tablesample system (1) repeatable (2030) limit 1000`);
  const monitorOf = async (
    type: string,
    name: string,
    query: object,
    place?: { latitude: number; longitude: number },
  ) => {
    const [found] = await column(
      "select uuid::text as v from app_public.monitors where environment_uuid = $1 and name = $2",
      [environmentUuid, name],
    );
    if (found) return found;
    const [made] = await column(
      `insert into app_public.monitors (environment_uuid, name, type, query, latitude, longitude, radius)
       values ($1, $2, $3, $4, $5, $6, $7) returning uuid::text as v`,
      [environmentUuid, name, type, JSON.stringify(query), place?.latitude, place?.longitude, place ? 25 : null],
    );
    return made;
  };
  const UTRECHT = { latitude: 52.0907, longitude: 5.1214 };
  return {
    messages: await spread("app_public.p2000_messages", "uuid"),
    dossiers: await spread("app_public.p2000_dossiers", "uuid"),
    capcodes: await column("select uuid::text as v from app_public.p2000_capcodes order by name limit 1000"),
    disciplines: await column("select uuid::text as v from app_public.p2000_disciplines"),
    regions: await column("select slug as v from app_public.p2000_regions"),
    fireStations: await column("select slug as v from app_public.fire_stations order by slug limit 1000"),
    fireVehicles: await column("select name as v from app_public.fire_vehicles order by name limit 1000"),
    stations: await column("select distinct station_id as v from app_public.meteo_observations limit 10"),
    warningYears: await column(
      "select distinct extract(year from day)::int::text as v from app_hidden.meteo_daily_levels",
    ),
    warningDays: await column(
      "select distinct day::text as v from app_hidden.meteo_daily_levels tablesample system (10) repeatable (2030) limit 500",
    ),
    aircraft: await column("select icao as v from app_public.aircraft_fleet order by icao"),
    contentItems: await column("select slug as v from app_public.aircraft_content_items order by slug"),
    routes: await spread("app_public.aircraft_routes", "uuid"),
    roads: await column("select uuid::text as v from app_public.roads order by name limit 1000"),
    markers: await spread("app_public.hectometer_markers", "uuid"),
    accidentMonitor: await monitorOf("accident", "bench history accidents A2 A12", {
      types: ["accident"],
      roads: ["A2", "A12"],
    }),
    weatherMonitor: await monitorOf("meteo_weather", "bench history weather Utrecht", { regions: ["utrecht"] }),
    aircraftMonitor: await monitorOf(
      "aircraft",
      "bench history trauma helicopters Utrecht",
      { kinds: ["trauma"] },
      UTRECHT,
    ),
  };
}

/** The reads, each with new arguments on every request where it takes any. */
export async function specReads(db: pg.Pool, environmentUuid: string, random: () => number): Promise<SpecRead[]> {
  const s: Samples = await readSamples(db, environmentUuid);
  const pick = (list: string[]) => () => (list.length ? list[Math.floor(random() * list.length)] : "none");
  const uuidRef = (list: string[]) => () => ({ uuid: pick(list)() });
  const now = () => Math.floor(Date.now() / 1000);
  const reads: Array<[string, string, Arguments?]> = [
    ["p2000Message", "p2000Message(uuid)", { uuid: pick(s.messages) }],
    ["p2000Dossier", "p2000Dossier(message)", { message: uuidRef(s.messages) }],
    ["p2000DossierTimeline", "p2000DossierTimeline(dossier)", { filter: () => ({ dossier: uuidRef(s.dossiers)() }) }],
    ["p2000Capcode", "p2000Capcode(uuid)", { uuid: pick(s.capcodes) }],
    ["p2000Capcodes", "p2000Capcodes"],
    ["p2000CapcodesCount", "p2000CapcodesCount"],
    ["p2000Categories", "p2000Categories"],
    ["p2000Discipline", "p2000Discipline(uuid)", { uuid: pick(s.disciplines) }],
    ["p2000Disciplines", "p2000Disciplines"],
    ["p2000GripLevels", "p2000GripLevels"],
    ["p2000Qualifications", "p2000Qualifications"],
    ["p2000Region", "p2000Region(slug)", { slug: pick(s.regions) }],
    ["p2000Regions", "p2000Regions"],
    ["p2000Urgencies", "p2000Urgencies"],
    ["fireStation", "fireStation(slug)", { slug: pick(s.fireStations) }],
    ["fireStations", "fireStations"],
    ["fireStationsCount", "fireStationsCount"],
    ["fireVehicle", "fireVehicle(number)", { number: pick(s.fireVehicles) }],
    ["fireVehicles", "fireVehicles"],
    ["fireVehiclesCount", "fireVehiclesCount"],
    ["meteoGeneral", "meteoGeneral"],
    ["meteoRegions", "meteoRegions"],
    ["meteoRegionDetail", "meteoRegionDetail(utrecht)", { code: () => "utrecht" }],
    ["meteoRegionDetails", "meteoRegionDetails"],
    [
      "meteoSnapshot",
      "meteoSnapshot(a day of the history)",
      { date: s.warningDays.length ? pick(s.warningDays) : () => new Date().toISOString().slice(0, 10) },
    ],
    ["meteoLatestObservation", "meteoLatestObservation"],
    [
      "meteoObservationHistory",
      "meteoObservationHistory(the last day)",
      { stationId: () => s.stations[0] ?? "06260", fromTs: () => now() - 86_400, toTs: now },
    ],
    ["meteoStatsAvailableYears", "meteoStatsAvailableYears"],
    [
      "meteoStatsMonthly",
      "meteoStatsMonthly(a year of the history)",
      { year: () => Number(pick(s.warningYears)()) || new Date().getFullYear() },
    ],
    [
      "meteoWarningEventsForMonitor",
      "meteoWarningEventsForMonitor(province Utrecht)",
      { monitor: () => ({ uuid: s.weatherMonitor }) },
    ],
    ["meteoColorCodes", "meteoColorCodes"],
    ["trafficIncidents", "trafficIncidents"],
    ["trafficIncidents", "trafficIncidents(active: true)", { active: () => true }],
    [
      "trafficIncidentsForMonitor",
      "trafficIncidentsForMonitor(accidents on the A2 and A12)",
      { monitor: () => ({ uuid: s.accidentMonitor }) },
    ],
    ["trafficIncidentTypes", "trafficIncidentTypes"],
    ["accidentSeverityLevels", "accidentSeverityLevels"],
    ["railRoutes", "railRoutes"],
    ["highways", "highways"],
    ["amberAlerts", "amberAlerts"],
    ["amberAlertHistory", "amberAlertHistory"],
    ["nlAlerts", "nlAlerts"],
    ["nlAlerts", "nlAlerts(regionNumber: 17)", { regionNumber: () => "17" }],
    ["nlProvinces", "nlProvinces"],
    ["nlProvincesGeoJson", "nlProvincesGeoJson"],
    ["aircraft", "aircraft"],
    ["aircraftLive", "aircraftLive(icao)", { icao: pick(s.aircraft) }],
    ["aircraftContentItem", "aircraftContentItem(slug)", { slug: pick(s.contentItems) }],
    ["aircraftContentItems", "aircraftContentItems"],
    [
      "aircraftEventsForMonitor",
      "aircraftEventsForMonitor(trauma helicopters near Utrecht)",
      { monitor: () => ({ uuid: s.aircraftMonitor }) },
    ],
    ["aircraftRoute", "aircraftRoute(route)", { route: uuidRef(s.routes) }],
    ["aircraftRoutes", "aircraftRoutes(icao)", { icao: pick(s.aircraft) }],
    ["aircraftStatistics", "aircraftStatistics"],
    ["road", "road(road)", { road: uuidRef(s.roads) }],
    ["roads", "roads"],
    ["roadsGroupedByPrefix", "roadsGroupedByPrefix"],
    ["searchRoads", 'searchRoads("A1")', { search: () => "A1" }],
    ["availableHectometers", "availableHectometers(road)", { road: uuidRef(s.roads) }],
    ["hectometerMarker", "hectometerMarker(marker)", { marker: uuidRef(s.markers) }],
    ["hectometerMarkers", "hectometerMarkers"],
    ["hectometerMarkersNearest", "hectometerMarkersNearest(Utrecht)", { lat: () => 52.0907, lon: () => 5.1214 }],
    ["parseHectometerSearch", 'parseHectometerSearch("A2 45,6 Li")', { search: () => "A2 45,6 Li" }],
    ["cities", 'cities("Utr")', { search: () => "Utr" }],
    ["postcodes", 'postcodes("3511")', { search: () => "3511" }],
    ["locationSuggestions", 'locationSuggestions("Utrecht")', { search: () => "Utrecht" }],
    ["rssFeedItems", "rssFeedItems"],
    ["rssFeedItemsCount", "rssFeedItemsCount"],
    ["aiDefaults", "aiDefaults"],
  ];
  return reads.map(([operation, name, args = {}]) => ({
    operation,
    name,
    query: specReadQuery(operation, Object.keys(args)),
    args: () => Object.fromEntries(Object.entries(args).map(([key, make]) => [key, make()])),
  }));
}
