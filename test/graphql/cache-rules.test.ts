// lib/graphql/cache-rules.ts: a root field's rule is its own reads and those of everything it
// reaches through its type's fields (cycles, lists and unions included); a field that reaches a
// function without a declaration, or a root field without one, is not cached; a view stands for the
// tables it reads.
import { describe, expect, test } from "@jest/globals";
import {
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
  type GraphQLFieldConfig,
} from "graphql";
import {
  baseTablesOf,
  cacheRuleOf,
  cacheRulesOf,
  domainsOf,
  type CacheCatalog,
  type FieldReads,
} from "../../lib/graphql/cache-rules.ts";

const reads = (relations: string[], domains: string[], more: Partial<FieldReads> = {}): { cacheReads: FieldReads } => ({
  cacheReads: { relations, domains, ...more },
});

function field(
  type: GraphQLFieldConfig<unknown, unknown>["type"],
  extensions?: { cacheReads: FieldReads },
): GraphQLFieldConfig<unknown, unknown> {
  return { type, ...(extensions ? { extensions } : {}) };
}

function schema(): GraphQLSchema {
  const Signal = new GraphQLObjectType({
    name: "Signal",
    fields: { kind: field(GraphQLString, reads(["app_public.traffic_incidents"], ["traffic"])) },
  });
  const Landing = new GraphQLObjectType({
    name: "Landing",
    fields: { at: field(GraphQLString, reads(["app_public.aircraft_routes"], ["aircraft"])) },
  });
  const Related = new GraphQLUnionType({ name: "Related", types: [Signal, Landing] });
  const Dossier: GraphQLObjectType = new GraphQLObjectType({
    name: "Dossier",
    fields: () => ({
      uuid: field(GraphQLString, reads(["app_public.p2000_dossiers"], ["p2000"])),
      messages: field(new GraphQLNonNull(new GraphQLList(Message)), reads([], [])),
      related: field(new GraphQLList(Related), reads(["app_hidden.related_signal_windows"], ["places"])),
    }),
  });
  const Message: GraphQLObjectType = new GraphQLObjectType({
    name: "Message",
    fields: () => ({
      text: field(GraphQLString, reads(["app_public.p2000_messages"], ["p2000"])),
      dossier: field(Dossier, reads(["app_public.p2000_dossiers"], ["p2000"])),
    }),
  });
  const Feed = new GraphQLObjectType({
    name: "Feed",
    fields: {
      title: field(GraphQLString, reads(["app_public.rss_feed_items"], ["rss"], { environmentBound: true })),
      secret: field(GraphQLString, reads([], [], { undeclared: "app_public.rss_feed_secret" })),
    },
  });
  return new GraphQLSchema({
    query: new GraphQLObjectType({
      name: "Query",
      fields: {
        messages: field(new GraphQLList(Message), reads(["app_public.p2000_messages"], ["p2000"])),
        feeds: field(new GraphQLList(Feed), reads(["app_public.rss_feeds"], ["rss"])),
        undeclared: field(GraphQLString),
        constant: field(GraphQLString, reads([], [])),
      },
    }),
  });
}

describe("cacheRulesOf", () => {
  test("a field's rule is what it reaches: nested types, cycles and unions", () => {
    expect(cacheRuleOf(schema(), "messages")).toEqual({
      domains: ["aircraft", "p2000", "places", "traffic"],
      relations: [
        "app_hidden.related_signal_windows",
        "app_public.aircraft_routes",
        "app_public.p2000_dossiers",
        "app_public.p2000_messages",
        "app_public.traffic_incidents",
      ],
    });
  });

  test("a field that reads nothing and reaches nothing is kept with no domain; __typename too", () => {
    const s = schema();
    expect(cacheRuleOf(s, "constant")).toEqual({ domains: [], relations: [] });
    expect(cacheRuleOf(s, "__typename")).toEqual({ domains: [], relations: [] });
  });

  test("deny by default: no declaration, or a nested function without one, means no rule", () => {
    const { rules, uncached } = cacheRulesOf(schema());
    expect(rules.has("undeclared")).toBe(false);
    expect(rules.has("feeds")).toBe(false);
    expect(Object.fromEntries(uncached)).toEqual({
      undeclared: "no declaration",
      feeds: "Feed.secret (app_public.rss_feed_secret) declares no @cacheReads",
    });
  });

  test("an environment-bound nested field makes the root field environment-bound", () => {
    const Feed = new GraphQLObjectType({
      name: "Feed",
      fields: {
        title: field(GraphQLString, reads(["app_public.rss_feed_items"], ["rss"], { environmentBound: true })),
      },
    });
    const s = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: "Query",
        fields: { feeds: field(new GraphQLList(Feed), reads(["app_public.rss_feeds"], ["rss"])) },
      }),
    });
    expect(cacheRuleOf(s, "feeds")).toEqual({
      domains: ["rss"],
      relations: ["app_public.rss_feed_items", "app_public.rss_feeds"],
      environmentBound: true,
    });
  });
});

describe("the catalog", () => {
  const catalog: CacheCatalog = {
    "app_public.p2000_messages": { domains: ["p2000"], view: false, reads: [] },
    "app_public.places": { domains: ["places"], view: false, reads: [] },
    "app_hidden.silent": { domains: [], view: false, reads: [] },
    "app_public.message_facts": { domains: [], view: true, reads: ["app_public.p2000_messages", "app_public.placed"] },
    "app_public.placed": { domains: [], view: true, reads: ["app_public.places", "app_hidden.silent"] },
    "app_public.nothing": { domains: [], view: true, reads: [] },
  };

  test("a view stands for the tables it reads, through views it reads", () => {
    expect(baseTablesOf(catalog, "app_public.message_facts")).toEqual([
      "app_hidden.silent",
      "app_public.p2000_messages",
      "app_public.places",
    ]);
    expect(domainsOf(catalog, "app_public.message_facts")).toEqual(["p2000", "places"]);
    expect(baseTablesOf(catalog, "app_public.nothing")).toEqual([]);
    expect(domainsOf(catalog, "app_public.p2000_messages")).toEqual(["p2000"]);
  });
});
