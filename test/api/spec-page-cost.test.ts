// Issue 25: trafficIncidents(first: 200) with its 18 columns was refused as too costly, a page the
// spec allows. For every Query field of schema.graphql that returns a list (generated, so a new
// field cannot be forgotten): its largest allowed page, every scalar field of its type and every
// object or list field one level down with their scalars, over HTTP under the default limits. None
// may be refused; cycles, lists nested in large pages, alias floods and fragments still are.
import { beforeAll, describe, expect, test } from "@jest/globals";
import {
  buildSchema,
  getNamedType,
  getNullableType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isUnionType,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInputType,
} from "graphql";
import fs from "node:fs";
import path from "node:path";
import { ROOT_DIR } from "../../lib/paths.ts";
import { useTestService, type GraphQLResponse } from "../helpers/service.ts";

const ctx = useTestService(() => ({
  api: {
    queryLimits: {
      maxDepth: 7,
      maxAliases: 15,
      maxDirectives: 50,
      maxTokens: 2000,
      maxCost: 5000,
      blockFieldSuggestions: true,
    },
  },
}));
const schema = buildSchema(fs.readFileSync(path.join(ROOT_DIR, "schema.graphql"), "utf8"));
const queryFields = schema.getQueryType()!.getFields();

/** Page caps of spec §8 and of the SQL (meteoObservationHistory's limit); any other page: the global cap. */
const DOCUMENTED_CAPS: Record<string, number> = {
  trafficIncidents: 200,
  trafficIncidentsForMonitor: 200,
  aircraftEventsForMonitor: 200,
  meteoWarningEventsForMonitor: 200,
  amberAlerts: 100,
  amberAlertHistory: 100,
  nlAlerts: 100,
  rssFeedItems: 100,
  cities: 50,
  postcodes: 50,
  searchRoads: 50,
  hectometerMarkersNearest: 50,
  locationSuggestions: 20,
  meteoObservationHistory: 10_000,
};
const GLOBAL_CAP = 100;
const PAGE_ARGUMENTS = new Set(["first", "limit"]);

const now = new Date();
const nowSeconds = Math.floor(now.getTime() / 1000);
/** Values the operations accept for these names; any other required argument gets one by its type. */
const VALUES_BY_NAME: Record<string, unknown> = {
  date: now.toISOString().slice(0, 10),
  year: now.getUTCFullYear(),
  stationId: "06260",
  fromTs: nowSeconds - 86_400,
  toTs: nowSeconds,
  lat: 52.09,
  lon: 5.12,
  uuid: "00000000-0000-0000-0000-000000000000",
};

/** A GraphQL literal for a required argument or input field (an input object with its required fields). */
function literal(name: string, type: GraphQLInputType): string {
  if (name in VALUES_BY_NAME) return JSON.stringify(VALUES_BY_NAME[name]);
  const nullable = getNullableType(type);
  if (isListType(nullable)) return `[${literal(name, nullable.ofType)}]`;
  if (isEnumType(nullable)) return nullable.getValues()[0].name;
  if (isInputObjectType(nullable)) {
    return `{ ${Object.values(nullable.getFields())
      .filter((field) => isNonNullType(field.type) && field.defaultValue === undefined)
      .map((field) => `${field.name}: ${literal(field.name, field.type)}`)
      .join(", ")} }`;
  }
  switch (nullable.name) {
    case "Int":
      return "1";
    case "Float":
      return "52.1";
    case "Boolean":
      return "false";
    case "Timestamp":
      return JSON.stringify(now.toISOString());
    default:
      return JSON.stringify("ams"); // searches need 2 characters; slugs and references take any text
  }
}

/** A field's arguments: its page size (a number or `$first`) and its required arguments. */
function argumentsOf(field: GraphQLField<unknown, unknown>, pageSize: number | "$first"): string {
  const written = field.args.flatMap((argument) => {
    if (PAGE_ARGUMENTS.has(argument.name)) return [`${argument.name}: ${pageSize}`];
    const required = isNonNullType(argument.type) && argument.defaultValue === undefined;
    return required ? [`${argument.name}: ${literal(argument.name, argument.type)}`] : [];
  });
  return written.length ? `(${written.join(", ")})` : "";
}

/** Every scalar field of a type and, `depth` levels down, its object and list fields likewise. */
function selection(type: GraphQLCompositeType, depth: number): string {
  if (isUnionType(type)) return "{ __typename }";
  const fields = Object.values(type.getFields()).flatMap((field) => {
    const named = getNamedType(field.type);
    if (isLeafType(named)) return [`${field.name}${argumentsOf(field, GLOBAL_CAP)}`];
    if (depth === 0 || !isCompositeType(named)) return [];
    return [`${field.name}${argumentsOf(field, GLOBAL_CAP)} ${selection(named, depth - 1)}`];
  });
  return `{ __typename ${fields.join(" ")} }`;
}

/** A Query list field at its largest page, with every scalar and every object one level down. */
function specPage(name: string, pageSize: number | "$first" = DOCUMENTED_CAPS[name] ?? GLOBAL_CAP): string {
  const field = queryFields[name];
  const named = getNamedType(field.type);
  return `${name}${argumentsOf(field, pageSize)} ${isCompositeType(named) ? selection(named, 1) : ""}`;
}

const LIST_FIELDS = Object.values(queryFields)
  .filter((field) => isListType(getNullableType(field.type)))
  .map((field) => field.name)
  .sort();

let token: string;
beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
});

/**
 * Executed: no error says QUERY_TOO_COMPLEX, the answer has `data` (a document refused at validation
 * has none) and every error has a path: the operation's own (an unknown dummy monitor, no user token).
 */
function expectExecuted(body: GraphQLResponse["body"]): void {
  expect(body.errors?.filter((error) => error.extensions?.code === "QUERY_TOO_COMPLEX") ?? []).toEqual([]);
  expect(body).toHaveProperty("data");
  for (const error of body.errors ?? []) expect(error).toHaveProperty("path");
}

/** Refused at validation (no `data`, so no SQL ran) with QUERY_TOO_COMPLEX naming `limit`. */
function expectRefused(body: GraphQLResponse["body"], limit: RegExp): void {
  expect(body.data).toBeUndefined();
  expect(body.errors).toContainEqual(
    expect.objectContaining({
      message: expect.stringMatching(limit),
      extensions: expect.objectContaining({ code: "QUERY_TOO_COMPLEX" }),
    }),
  );
}

describe("every list operation at its largest page fits the default limits", () => {
  test("the generator finds the list operations of spec §4.3", () => {
    expect(LIST_FIELDS).toEqual(
      expect.arrayContaining([
        "p2000Messages",
        "trafficIncidents",
        "aircraftEventsForMonitor",
        "cities",
        "locationSuggestions",
        "meteoObservationHistory",
        "hectometerMarkersNearest",
        "aircraftStatistics",
      ]),
    );
  });

  test.each(LIST_FIELDS)("%s", async (name) => {
    expectExecuted((await ctx.service.graphql(`{ ${specPage(name)} }`, { token })).body);
    // Validation does not see variables: a page size given as one counts as the cap, and fits too.
    if (!queryFields[name].args.some((argument) => PAGE_ARGUMENTS.has(argument.name))) return;
    const { body } = await ctx.service.graphql(`query ($first: Int) { ${specPage(name, "$first")} }`, {
      token,
      variables: { first: DOCUMENTED_CAPS[name] ?? GLOBAL_CAP },
    });
    expectExecuted(body);
  });

  test("the issue's document, a trafficIncidents page of 200 with every column, answers", async () => {
    const { body } = await ctx.service.graphql(`{ ${specPage("trafficIncidents")} }`, { token });
    expect(body.errors).toBeUndefined();
    expect(Array.isArray(body.data.trafficIncidents)).toBe(true);
  });
});

/** The dossier cycle P2000Dossier.messages.dossier…: three lists deep, within the depth limit (7). */
const dossierCycle = (first: number) =>
  `p2000Dossiers(first: ${first}) { messages { dossier { messages { dossier { messages { uuid } } } } } }`;
/** Lists in lists in a page of 100: the capcodes' disciplines' urgencies of the dossiers' messages. */
const NESTED_LISTS = "{ p2000Dossiers(first: 100) { messages { capcodes { discipline { urgencies { uuid } } } } } }";
const NESTED_LISTS_IN_FRAGMENTS = `{ p2000Dossiers(first: 100) { ...D } }
  fragment D on P2000Dossier { messages { ...M } }
  fragment M on P2000Message { capcodes { discipline { urgencies { uuid } } } }`;
/** A page of messages with every object one level down. */
const MESSAGES_PAGE =
  "p2000Messages(first: 100) { uuid capcodes { uuid } category { name } discipline { name } " +
  "dossier { uuid } region { name } urgency { name } }";
const costOver = (found: number) => new RegExp(`Query Cost limit of 5000 exceeded, found ${found}\\.`);

describe("costly documents are still refused before any SQL runs", () => {
  test.each([
    ["the dossier cycle within the depth limit", `{ ${dossierCycle(100)} }`, costOver(6101)],
    ["lists nested in a large page", NESTED_LISTS, costOver(5601)],
    ["the same nesting in fragments", NESTED_LISTS_IN_FRAGMENTS, costOver(5601)],
    [
      "a negative page (refused by SQL) counts as 1 row, lowering nothing",
      `{ a: ${dossierCycle(-1_000_000)} b: ${dossierCycle(100)} }`,
      costOver(62 + 6101),
    ],
    [
      "15 aliases (the alias limit) of a page of messages with their objects",
      `{ ${Array.from({ length: 15 }, (_, i) => `a${i}: ${MESSAGES_PAGE}`).join(" ")} }`,
      costOver(9015),
    ],
  ])("%s", async (_name, query, limit) => {
    const { body, status } = await ctx.service.graphql(query, { token });
    expectRefused(body, limit);
    expect(status).toBeLessThan(500);
  });

  test("a page size given as a variable counts as the cap", async () => {
    const page = (first: string) =>
      `p2000Dossiers(first: ${first}) { messages { ` +
      "capcodes { discipline { uuid } region { uuid } } dossier { urgency { name } } } }";
    expectExecuted((await ctx.service.graphql(`{ ${page("10")} }`, { token })).body);
    const { body } = await ctx.service.graphql(`query ($first: Int) { ${page("$first")} }`, {
      token,
      variables: { first: 10 },
    });
    expectRefused(body, costOver(6601));
  });
});
