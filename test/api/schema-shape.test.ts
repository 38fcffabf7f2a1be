// Only the spec's operations appear: no automatic CRUD, no Node interface, no allX, no connections.
import { beforeAll, expect, test } from "@jest/globals";
import { buildSchema, type GraphQLInputObjectType, type GraphQLObjectType } from "graphql";
import fs from "node:fs";
import path from "node:path";
import { ROOT_DIR } from "../../lib/paths.ts";

const schema = buildSchema(fs.readFileSync(path.join(ROOT_DIR, "schema.graphql"), "utf8"));
let queryFields: string[];

beforeAll(() => {
  queryFields = Object.keys((schema.getQueryType() as GraphQLObjectType).getFields()).sort();
});

test("the Query type has exactly the operations built so far", () => {
  expect(queryFields).toEqual([
    "accidentSeverityLevels",
    "aiDefaults",
    "aircraft",
    "aircraftContentItem",
    "aircraftContentItems",
    "aircraftEventsForMonitor",
    "aircraftFlightFacts",
    "aircraftLive",
    "aircraftRoute",
    "aircraftRoutes",
    "aircraftStatistics",
    "alertFacts",
    "amberAlertHistory",
    "amberAlerts",
    "apiScopes",
    "apiToken",
    "apiTokens",
    "areaChoices",
    "availableHectometers",
    "channelTypes",
    "channels",
    "cities",
    "crew",
    "currentEnvironment",
    "deliveries",
    "fireStation",
    "fireStations",
    "fireStationsCount",
    "fireVehicle",
    "fireVehicles",
    "fireVehiclesCount",
    "hectometerMarker",
    "hectometerMarkers",
    "hectometerMarkersNearest",
    "highways",
    "hubAnalyticsHourly",
    "hubAnalyticsUrgency",
    "hubAnalyticsWeekdays",
    "installation",
    "locationSuggestions",
    "me",
    "meteoColorCodes",
    "meteoGeneral",
    "meteoLatestObservation",
    "meteoObservationHistory",
    "meteoRegionDetail",
    "meteoRegionDetails",
    "meteoRegions",
    "meteoSnapshot",
    "meteoStatsAvailableYears",
    "meteoStatsMonthly",
    "meteoWarningDayFacts",
    "meteoWarningEventFacts",
    "meteoWarningEventsForMonitor",
    "monitor",
    "monitorPreview",
    "monitorTypes",
    "monitors",
    "myOrganizations",
    "mySessions",
    "nlAlerts",
    "nlProvinces",
    "nlProvincesGeoJson",
    "p2000Capcode",
    "p2000Capcodes",
    "p2000CapcodesCount",
    "p2000Categories",
    "p2000DayCountFacts",
    "p2000Discipline",
    "p2000Disciplines",
    "p2000Dossier",
    "p2000DossierFacts",
    "p2000DossierTimeline",
    "p2000Dossiers",
    "p2000GripLevels",
    "p2000Message",
    "p2000MessageFacts",
    "p2000MessageStatistics",
    "p2000Messages",
    "p2000MessagesCount",
    "p2000Qualifications",
    "p2000ReceiverStatistics",
    "p2000Receivers",
    "p2000Region",
    "p2000Regions",
    "p2000Statistics",
    "p2000Urgencies",
    "parseHectometerSearch",
    "postcodes",
    "railRoutes",
    "respondLink",
    "road",
    "roads",
    "roadsGroupedByPrefix",
    "rssFeedItems",
    "rssFeedItemsCount",
    "rssItemFacts",
    "searchRoads",
    "sessionValid",
    "stationScreen",
    "stationScreens",
    "trafficIncidentFacts",
    "trafficIncidentTypes",
    "trafficIncidents",
    "trafficIncidentsForMonitor",
    "webPushPublicKey",
  ]);
});

// changePassword, updateEnvironment and updateMe are not in the spec: the web console needs them
// (issue 32, docs/accounts.md); followIncident is issue 45's "tell me when this gets worse"
// (docs/monitors.md).
test("the Mutation type has exactly the account operations of spec 4.2 built so far", () => {
  expect(Object.keys((schema.getMutationType() as GraphQLObjectType).getFields()).sort()).toEqual([
    "changePassword",
    "claimStationScreen",
    "createApiToken",
    "createChannel",
    "createEnvironment",
    "createMonitor",
    "createOrganization",
    "createP2000Message",
    "createP2000Receiver",
    "deleteApiToken",
    "deleteChannel",
    "deleteMonitor",
    "deleteOtherSessions",
    "deleteP2000Receiver",
    "deleteSession",
    "deleteStationScreen",
    "followIncident",
    "login",
    "logout",
    "pairStationScreen",
    "publishP2000Lines",
    "refreshToken",
    "register",
    "requestMagicLinkLogin",
    "requestPasswordReset",
    "requestScreenPairing",
    "resetPassword",
    "respondAvailability",
    "respondOnTheWay",
    "revokeMonitorFeed",
    "rotateMonitorFeed",
    "sendTestNotification",
    "setCrewAvailability",
    "setCurrentEnvironment",
    "switchEnvironment",
    "updateApiToken",
    "updateEnvironment",
    "updateMe",
    "updateMonitor",
    "updateOrganization",
    "updateStationScreen",
  ]);
});

test("no automatic CRUD, Node interface or connections", () => {
  const typeNames = Object.keys(schema.getTypeMap());
  expect(typeNames).not.toContain("Node");
  // The analytics fact connections (issue 28, docs/analytics.md) are the only connections, and the
  // order of their groups (plugins/analytics-order.ts) the only orders.
  expect(
    typeNames.filter(
      (name) =>
        /Connection$|Edge$|OrderBy$|Condition$|Patch$/.test(name) && !/Fact(Connection|GroupsOrderBy)$/.test(name),
    ),
  ).toEqual([]);
  expect(
    typeNames.filter((name) =>
      /^(Create|Update|Delete)(User|Session|Organization|Environment|ApiToken|P2000\w+)Payload$/.test(name),
    ),
    // Made by hand, not CRUD: each answers a secret shown once (the token).
  ).toEqual(["CreateApiTokenPayload", "CreateP2000ReceiverPayload"]);
  expect(queryFields.filter((name) => name.startsWith("all") || name === "node" || name === "query")).toEqual([]);
});

test("return types match the spec", () => {
  const fields = (schema.getQueryType() as GraphQLObjectType).getFields();
  expect(String(fields.p2000Categories.type)).toBe("[P2000Category!]!");
  expect(String(fields.p2000Region.type)).toBe("P2000Region");
  expect(fields.p2000Region.args.map((a) => `${a.name}: ${a.type}`)).toEqual(["slug: String!"]);
  expect(fields.p2000Discipline.args.map((a) => `${a.name}: ${a.type}`)).toEqual(["uuid: String!"]);
  for (const list of ["p2000Regions", "p2000Urgencies", "p2000GripLevels", "p2000Qualifications"]) {
    expect(fields[list].args.map((a) => `${a.name}: ${a.type}`).sort()).toEqual([
      "filter: P2000TaxonomyFilterInput",
      "first: Int",
      "page: Int",
    ]);
  }
  expect(String(fields.p2000Disciplines.args.find((a) => a.name === "filter")!.type)).toBe(
    "P2000DisciplineFilterInput",
  );
  const region = schema.getType("P2000Region") as GraphQLObjectType;
  expect(Object.keys(region.getFields())).toEqual(
    expect.arrayContaining(["uuid", "number", "name", "slug", "capcodePrefix"]),
  );
  expect(String(fields.sessionValid.type)).toBe("Boolean!");
  expect(String(fields.apiScopes.type)).toBe("[ApiScope!]!");
  // Weather (spec §4.3): lists are never null; the single answers are null without data.
  for (const [name, type] of [
    ["meteoRegions", "[MeteoRegion!]!"],
    ["meteoRegionDetails", "[MeteoRegionDetail!]!"],
    ["meteoSnapshot", "[MeteoRegionDetail!]!"],
    ["meteoObservationHistory", "[MeteoObservation!]!"],
    ["meteoStatsAvailableYears", "[Int!]!"],
    ["meteoStatsMonthly", "[MeteoMonthlyStats!]!"],
    ["meteoWarningEventsForMonitor", "[MeteoWarningEvent!]!"],
    ["meteoColorCodes", "[MonitorReferenceItem!]!"],
    ["meteoGeneral", "MeteoRegionDetail"],
    ["meteoRegionDetail", "MeteoRegionDetail"],
    ["meteoLatestObservation", "MeteoObservation"],
  ]) {
    expect(`${name}: ${fields[name].type}`).toBe(`${name}: ${type}`);
  }
  expect(fields.meteoObservationHistory.args.map((a) => `${a.name}: ${a.type}`).sort()).toEqual([
    "fromTs: Int!",
    "limit: Int",
    "stationId: String!",
    "toTs: Int!",
  ]);
  const period = schema.getType("MeteoWarningPeriod") as GraphQLObjectType;
  expect(Object.keys(period.getFields()).sort()).toEqual(["description", "from", "status_code", "to"]);
  const mutations = (schema.getMutationType() as GraphQLObjectType).getFields();
  expect(String(mutations.logout.type)).toBe("String!");
  expect(String(mutations.refreshToken.type)).toBe("RefreshTokenPayload!");
  expect(String(mutations.requestMagicLinkLogin.type)).toBe("String!");
  // schema.graphql is printed sorted, arguments included.
  expect(mutations.requestMagicLinkLogin.args.map((a) => `${a.name}: ${a.type}`)).toEqual([
    "email: String!",
    "returnTo: String!",
  ]);
  expect(mutations.resetPassword.args.map((a) => `${a.name}: ${a.type}`)).toEqual([
    "newPassword: String!",
    "token: String!",
  ]);
  expect(mutations.updateApiToken.args.map((a) => `${a.name}: ${a.type}`)).toEqual([
    "name: String",
    "scopes: [String]",
    "uuid: String!",
  ]);
  const user = schema.getType("User") as GraphQLObjectType;
  expect(Object.keys(user.getFields()).sort()).toEqual([
    "changed",
    "created",
    "displayName",
    "email",
    "hasPassword",
    "isAdmin",
    "uuid",
  ]);
  const session = schema.getType("Session") as GraphQLObjectType;
  expect(Object.keys(session.getFields())).toEqual(
    expect.arrayContaining(["uuid", "ipAddress", "userAgent", "lastActivityAt", "expiresAt", "isCurrent"]),
  );
  const apiToken = schema.getType("ApiToken") as GraphQLObjectType;
  expect(Object.keys(apiToken.getFields())).toEqual(
    expect.arrayContaining(["uuid", "name", "tokenPreview", "scopes", "expiresAt", "created"]),
  );
  expect(String(fields.p2000MessagesCount.type)).toBe("Int!");
  expect(String(fields.p2000Dossiers.type)).toBe("[P2000Dossier!]!");
  expect(String(fields.p2000DossierTimeline.type)).toBe("[P2000TimelineEntry!]!");
  expect(fields.p2000DossierTimeline.args.find((a) => a.name === "filter")!.type.toString()).toBe(
    "P2000DossierTimelineFilterInput!",
  );
  expect(fields.p2000Dossier.deprecationReason).toMatch(/p2000Dossiers/);
  expect(fields.p2000Dossier.args.map((a) => `${a.name}: ${a.type}`).sort()).toEqual([
    "dossier: P2000MessageDossierRef",
    "message: P2000MessageRef",
    "messagesOrderBy: String",
    "timelineOrderBy: String",
  ]);
  expect(String(fields.p2000Statistics.type)).toBe("P2000Statistics!");
  expect(String(fields.p2000MessageStatistics.type)).toBe("P2000MessageStatistics!");
  expect(String(fields.hubAnalyticsWeekdays.type)).toBe("HubAnalyticsWeekdays!");
  const message = schema.getType("P2000Message") as GraphQLObjectType;
  expect(Object.keys(message.getFields())).toEqual(
    expect.arrayContaining([
      "uuid",
      "message",
      "sended",
      "created",
      "changed",
      "capcodes",
      "urgency",
      "discipline",
      "region",
      "street",
      "postcode",
      "city",
      "road",
      "hectometer",
      "carriageway",
      "gripLevel",
      "exerciseType",
      "category",
      "latitude",
      "longitude",
      "dossier",
    ]),
  );
  expect(String(message.getFields().hectometer.type)).toBe("Float");
  const filter = schema.getType("P2000MessageFilterInput") as unknown as { getFields(): Record<string, unknown> };
  expect(Object.keys(filter.getFields()).sort()).toEqual([
    "capcode",
    "capcodes",
    "disciplines",
    "dossier",
    "exerciseType",
    "monitor",
    "sended",
    "vehicle",
  ]);
  expect(String(fields.channels.type)).toBe("[Channel!]");
  expect(String(fields.monitors.type)).toBe("[Monitor!]");
  expect(fields.monitor.args.map((a) => `${a.name}: ${a.type}`)).toEqual(["uuid: String!"]);
  const channel = schema.getType("Channel") as GraphQLObjectType;
  expect(Object.keys(channel.getFields())).toEqual(
    expect.arrayContaining(["uuid", "type", "name", "emailAddress", "url", "headers"]),
  );
  expect(String(channel.getFields().headers.type)).toBe("[ChannelHeader]!");
  const monitor = schema.getType("Monitor") as GraphQLObjectType;
  expect(Object.keys(monitor.getFields())).toEqual(
    expect.arrayContaining([
      "uuid",
      "name",
      "description",
      "active",
      "type",
      "query",
      "location",
      "locationMode",
      "radius",
      "channels",
      "notificationRules",
      "created",
      "changed",
    ]),
  );
  for (const json of ["query", "channels", "notificationRules"])
    expect(String(monitor.getFields()[json].type)).toBe("String!");
  const createMonitor = schema.getType("CreateMonitorInput") as unknown as {
    getFields(): Record<string, { type: unknown }>;
  };
  expect(String(createMonitor.getFields().name.type)).toBe("String!");
  expect(Object.keys(createMonitor.getFields())).toEqual(
    expect.arrayContaining([
      "description",
      "active",
      "type",
      "query",
      "location",
      "locationMode",
      "locationLiveSourceId",
      "radius",
      "channels",
      "notificationRules",
    ]),
  );
  expect(String(mutations.updateMonitor.args[0].type)).toBe("UpdateMonitorInput!");
  expect(String(mutations.deleteMonitor.type)).toBe("Boolean");
  expect(String(mutations.respondOnTheWay.type)).toBe("AlertResponder");
  // The spec's two arguments, and the arrival estimate a station screen shows (issue 49, optional).
  expect(mutations.respondOnTheWay.args.map((a) => `${a.name}: ${a.type}`)).toEqual([
    "arrivalMinutes: Int",
    "status: String!",
    "token: String!",
  ]);
  // The delivery log and the test send (issue 29, part 4; docs/monitors.md).
  expect(String(fields.deliveries.type)).toBe("[Delivery!]!");
  expect(fields.deliveries.args.map((a) => `${a.name}: ${a.type}`)).toEqual([
    "filter: DeliveryFilterInput",
    "first: Int",
    "page: Int",
  ]);
  expect(String(mutations.sendTestNotification.type)).toBe("TestNotificationResult");
  expect(mutations.sendTestNotification.args.map((a) => `${a.name}: ${a.type}`)).toEqual(["channel: String!"]);
  expect(Object.keys((schema.getType("Delivery") as GraphQLObjectType).getFields())).not.toEqual(
    expect.arrayContaining(["signingSecret"]),
  );
  expect(String(fields.fireVehicle.type)).toBe("FireVehicle");
  expect(fields.fireVehicle.args.map((a) => `${a.name}: ${a.type}`)).toEqual(["number: String!"]);
  const vehicle = schema.getType("FireVehicle") as GraphQLObjectType;
  expect(Object.keys(vehicle.getFields())).toEqual(
    expect.arrayContaining([
      "uuid",
      "name",
      "nameFormat",
      "number",
      "station",
      "type",
      "materialFunction",
      "status",
      "region",
    ]),
  );
  const station = schema.getType("FireStationListItem") as GraphQLObjectType;
  expect(Object.keys(station.getFields())).toEqual(
    expect.arrayContaining([
      "uuid",
      "name",
      "slug",
      "city",
      "street",
      "houseNumber",
      "zipCode",
      "latitude",
      "longitude",
      "region",
    ]),
  );
  expect(String(fields.fireStation.type)).toBe("FireStationListItem");
  expect(Object.keys((schema.getType("HectometerMarker") as GraphQLObjectType).getFields())).toContain("distance_km");
  expect(fields.hectometerMarkersNearest.args.map((a) => `${a.name}: ${a.type}`)).toEqual([
    "lat: Float!",
    "limit: Int",
    "lon: Float!",
  ]);
  expect(fields.road.args.map((a) => `${a.name}: ${a.type}`)).toEqual(["road: RoadRef!"]);
  expect(String(fields.parseHectometerSearch.type)).toBe("ParseHectometerSearchResult");
  expect(String(fields.roadsGroupedByPrefix.type)).toBe("RoadsGroupedByPrefix!");
  expect(Object.keys((schema.getType("RoadsGroupedByPrefix") as GraphQLObjectType).getFields()).sort()).toEqual([
    "A",
    "N",
    "R",
    "S",
  ]);
  expect(String(fields.searchRoads.type)).toBe("[Road!]!");
  expect(String(fields.availableHectometers.type)).toBe("[Float!]");
  expect(String((schema.getType("DateRangeInput") as GraphQLInputObjectType).getFields().from.type)).toBe("DateTime!");
  expect(Object.keys((schema.getType("City") as GraphQLObjectType).getFields())).toEqual(
    expect.arrayContaining(["uuid", "displayName"]),
  );
  for (const search of ["cities", "postcodes", "locationSuggestions", "searchRoads"]) {
    expect(fields[search].args.map((a) => `${a.name}: ${a.type}`)).toEqual(["first: Int", "search: String!"]);
  }
  const urgency = schema.getType("P2000Urgency") as GraphQLObjectType;
  expect(Object.keys(urgency.getFields())).toEqual(expect.arrayContaining(["uuid", "code", "name"]));
});
