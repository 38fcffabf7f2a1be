// Issue 28: analytics over the fact views of app_public (p2000_message_facts, traffic_incident_facts,
// …; migration "analytics facts"). Each view is read through an SQL function of the same name that
// takes a required window (at most 366 days) and is exposed as a connection (`@behavior +connection
// -list` on the function, so the global defaults stay lists only); @graphile/pg-aggregates adds
// `aggregates` and `groupedAggregates(groupBy, having)` to the connections of views whose comment
// enables `resource:aggregates` and `resource:groupedAggregates`. Every other table has those
// behaviours removed here, so the spec's types gain nothing. The query cost rule prices the
// connections (lib/graphql/query-cost.ts); the API token rule covers them like any Query field;
// a grouping of more groups of time than a window should give ("a year of hours") is refused
// before execution (lib/graphql/analytics-groups.ts). Groups are ordered, and the first N kept,
// by plugins/analytics-order.ts.
import { PgAggregatesPreset } from "@graphile/pg-aggregates";
import { GraphQLError } from "graphql";
import { groupingRefusal } from "../lib/graphql/analytics-groups.ts";
import { AnalyticsOrderPlugin } from "./analytics-order.ts";

/** The behaviours pg-aggregates adds to every resource by default: only the fact views keep them. */
const AGGREGATE_BEHAVIORS = [
  "-resource:aggregates",
  "-resource:groupedAggregates",
  "-resource:groupedAggregates:having",
] as GraphileBuild.BehaviorString[];

/** The fact views' codecs, as their `@name` tags call them (p2000_message_fact, …). */
const FACT_CODEC = /_fact$/;

/**
 * pg-aggregates' own truncations (SENT_HOUR_TRUNCATED_TO_DAY, …) cut a timestamp in the session's
 * time zone, not Europe/Amsterdam: the views' …Day, …Week, …Month and …Year columns group instead.
 */
const SESSION_ZONE_TRUNCATION = /_TRUNCATED_TO_[A-Z]+$/;

/** A fact connection answers counts and aggregates; rows are read through the spec's list operations. */
const ROW_FIELDS = new Set(["nodes", "edges", "pageInfo"]);

export const AnalyticsPlugin: GraphileConfig.Plugin = {
  name: "AnalyticsPlugin",
  version: "1.0.0",
  description:
    "Keeps pg-aggregates to the analytics fact views (their connections answer counts and aggregates, not rows; no session-zone truncations; a bounded number of time groups); every other resource gets none.",
  grafast: {
    middleware: {
      execute(next, event) {
        const refusal = groupingRefusal(event.args.document, event.args.variableValues);
        return refusal ? { errors: [new GraphQLError(refusal, { extensions: { code: "BAD_USER_INPUT" } })] } : next();
      },
    },
  },
  schema: {
    hooks: {
      GraphQLObjectType_fields(fields, _build, { scope }) {
        // Without `first` (PgFirstLastBeforeAfterArgsPlugin is off) a page of a year of facts would be unbounded.
        if (!scope.isConnectionType || !scope.pgCodec || !FACT_CODEC.test(scope.pgCodec.name)) return fields;
        return Object.fromEntries(Object.entries(fields).filter(([name]) => !ROW_FIELDS.has(name)));
      },
      GraphQLEnumType_values(values, _build, { scope }) {
        if (!scope.isPgAggregateGroupEnum) return values;
        return Object.fromEntries(Object.entries(values).filter(([name]) => !SESSION_ZONE_TRUNCATION.test(name)));
      },
    },
    entityBehavior: {
      pgResource: {
        inferred: {
          provides: ["default"],
          before: ["inferred", "override"],
          callback(behavior, resource) {
            return resource.codec.attributes && !FACT_CODEC.test(resource.codec.name)
              ? [behavior, ...AGGREGATE_BEHAVIORS]
              : behavior;
          },
        },
      },
    },
  },
};

/** pg-aggregates, the rule above and the order of groups: what graphile.config.ts extends. */
export const AnalyticsPreset: GraphileConfig.Preset = {
  extends: [PgAggregatesPreset],
  plugins: [AnalyticsPlugin, AnalyticsOrderPlugin],
};
