// Which Query fields the response cache may keep (lib/graphql/response-cache.ts), and the data
// domains each one reads: an answer is dropped when any of its domains changes (the data_changed
// notifications of migration "response cache notifications", one per table and statement). A
// field is listed with every domain it can reach through its nested fields (a dossier's related
// signals read traffic, helicopter landings, NL-Alerts and weather warnings), so a listed field
// is never served after a change it could show. Deny by default: a field that is not listed
// (the account queries, monitors, channels, tokens, deliveries, previews, introspection) makes its
// whole operation uncached. test/api/response-cache.test.ts checks that every listed field exists.

/** The domains of the data_changed notifications (the trigger's argument per table). */
export type Domain =
  | "p2000"
  | "fire"
  | "meteo"
  | "traffic"
  | "alerts"
  | "aircraft"
  | "aircraft_events"
  | "rss"
  | "rail"
  | "places"
  | "service"
  | "monitors";

export interface CacheRule {
  domains: readonly Domain[];
  /**
   * The answer depends on the caller's environment (row-level security or the environment's
   * monitors): kept per environment, never served to another.
   */
  environmentBound?: true;
}

const P2000: readonly Domain[] = ["p2000", "fire", "places"];
/** A message or dossier and everything it reaches: vehicles, places and the related signals of other feeds. */
const P2000_WITH_SIGNALS: readonly Domain[] = [...P2000, "traffic", "aircraft_events", "alerts", "meteo"];
const AIRCRAFT: readonly Domain[] = ["aircraft", "aircraft_events", "places"];

const shared = (...domains: Domain[]): CacheRule => ({ domains });
const perEnvironment = (...domains: Domain[]): CacheRule => ({ domains, environmentBound: true });

export const CACHE_RULES: Readonly<Record<string, CacheRule>> = {
  __typename: shared(),
  // P2000
  p2000Messages: shared(...P2000_WITH_SIGNALS),
  p2000Message: shared(...P2000_WITH_SIGNALS),
  p2000MessagesCount: shared(...P2000),
  p2000Dossiers: shared(...P2000_WITH_SIGNALS),
  p2000Dossier: shared(...P2000_WITH_SIGNALS),
  p2000DossierTimeline: shared(...P2000_WITH_SIGNALS),
  p2000Capcodes: shared(...P2000),
  p2000Capcode: shared(...P2000),
  p2000CapcodesCount: shared(...P2000),
  p2000Statistics: shared(...P2000),
  p2000MessageStatistics: shared(...P2000),
  p2000Regions: shared(...P2000),
  p2000Region: shared(...P2000),
  p2000Disciplines: shared(...P2000),
  p2000Discipline: shared(...P2000),
  p2000Categories: shared(...P2000),
  areaChoices: shared("places"),
  p2000Urgencies: shared(...P2000),
  p2000GripLevels: shared(...P2000),
  p2000Qualifications: shared(...P2000),
  hubAnalyticsHourly: shared(...P2000),
  hubAnalyticsUrgency: shared(...P2000),
  hubAnalyticsWeekdays: shared(...P2000),
  p2000MessageFacts: shared(...P2000),
  p2000DayCountFacts: shared(...P2000),
  p2000DossierFacts: shared(...P2000),
  // Fire brigade
  fireStations: shared(...P2000),
  fireStation: shared(...P2000),
  fireStationsCount: shared(...P2000),
  fireVehicles: shared(...P2000),
  fireVehicle: shared(...P2000),
  fireVehiclesCount: shared(...P2000),
  // Weather
  meteoGeneral: shared("meteo", "places"),
  meteoRegions: shared("meteo", "places"),
  meteoRegionDetail: shared("meteo", "places"),
  meteoRegionDetails: shared("meteo", "places"),
  meteoColorCodes: shared("meteo"),
  meteoLatestObservation: shared("meteo", "places"),
  meteoObservationHistory: shared("meteo", "places"),
  meteoSnapshot: shared("meteo", "places"),
  meteoStatsAvailableYears: shared("meteo"),
  meteoStatsMonthly: shared("meteo", "places"),
  meteoWarningDayFacts: shared("meteo", "places"),
  meteoWarningEventFacts: shared("meteo", "places"),
  meteoWarningEventsForMonitor: perEnvironment("meteo", "places", "monitors"),
  // Traffic
  trafficIncidents: shared("traffic", "places"),
  trafficIncidentsForMonitor: perEnvironment("traffic", "places", "monitors"),
  accidentSeverityLevels: shared("traffic"),
  trafficIncidentTypes: shared("traffic"),
  trafficIncidentFacts: shared("traffic", "places"),
  // Alerts
  nlAlerts: shared("alerts", "places"),
  amberAlerts: shared("alerts"),
  amberAlertHistory: shared("alerts"),
  alertFacts: shared("alerts", "places"),
  // Aircraft
  aircraft: shared(...AIRCRAFT),
  aircraftLive: shared(...AIRCRAFT),
  aircraftRoute: shared(...AIRCRAFT),
  aircraftRoutes: shared(...AIRCRAFT),
  aircraftStatistics: shared(...AIRCRAFT),
  aircraftContentItem: shared(...AIRCRAFT),
  aircraftContentItems: shared(...AIRCRAFT),
  aircraftFlightFacts: shared(...AIRCRAFT),
  aircraftEventsForMonitor: perEnvironment(...AIRCRAFT, "monitors"),
  // RSS: the items of the feeds the environment's monitors follow (row-level security).
  rssFeedItems: perEnvironment("rss", "monitors"),
  rssFeedItemsCount: perEnvironment("rss", "monitors"),
  rssItemFacts: perEnvironment("rss", "monitors"),
  // Rail
  railRoutes: shared("rail"),
  // Roads, hectometre posts and places
  roads: shared("places"),
  road: shared("places"),
  roadsGroupedByPrefix: shared("places"),
  searchRoads: shared("places"),
  highways: shared("places"),
  availableHectometers: shared("places"),
  hectometerMarkers: shared("places"),
  hectometerMarker: shared("places"),
  hectometerMarkersNearest: shared("places"),
  parseHectometerSearch: shared("places"),
  cities: shared("places"),
  postcodes: shared("places"),
  locationSuggestions: shared("places"),
  nlProvinces: shared("places"),
  nlProvincesGeoJson: shared("places"),
  // The service's own lists (aiDefaults is read from a file at start).
  channelTypes: shared("service"),
  monitorTypes: shared("service"),
  aiDefaults: shared(),
};
