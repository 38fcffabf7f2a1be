// Issue 28: ordering groups, and the top N of them. @graphile/pg-aggregates 0.2 gives
// `groupedAggregates(groupBy, having)` no order: a dashboard's "ten cities with the most
// messages" had to fetch every city and sort on the client. This plugin adds two arguments to the
// groupedAggregates of every fact connection (plugins/analytics.ts):
//
// - `orderBy: [<Fact>GroupsOrderBy!]`: KEYS_ASC/DESC (the groupBy values, in the order groupBy
//   names them), COUNT_ASC/DESC (the group's rows) and <AGGREGATE>_<COLUMN>_ASC/DESC for every
//   aggregate the connection offers (SUM_MESSAGES_DESC, MAX_DURATION_MINUTES_DESC, …), each the
//   same SQL as the aggregate field it is named after;
// - `first: Int`: the first so many groups of that order (1 to MAX_GROUPS_FIRST; checked before
//   execution in lib/graphql/analytics-groups.ts).
//
// Both are read when the operation is planned (`eval`, so grafast plans again for other values)
// and become the grouped SELECT's own ORDER BY and LIMIT: pg-aggregates applies groupBy at run
// time, where @dataplan/pg's query builder drops an order in aggregate mode, so ordering is given to
// the step itself while planning (where it is kept), and KEYS reads each groupBy value's
// expression by calling that enum value's `apply` with a builder that only records it.
import type { PgCodec, PgGroupSpec, PgSelectStep, PgResource } from "@dataplan/pg";
import { constant, type ExecutableStep, type FieldArgs } from "grafast";
import type { GraphQLEnumType } from "graphql";

/** A fact view's codec, as its `@name` tag calls it (p2000_message_fact, …). */
const FACT_CODEC = /_fact$/;

/** The aggregates groups are ordered by ("the most", "the longest"); spreads (stddev, variance) are left out. */
const ORDERING_AGGREGATES = new Set<string>(["sum", "distinctCount", "min", "max", "average"]);

/** A group's place in an order: the expressions to sort by, given the grouped SELECT and its groupBy values. */
type OrderTerm = (select: PgSelectStep, groupBy: readonly string[], GroupBy: GraphQLEnumType) => PgGroupSpec[];

interface OrderValue {
  term: OrderTerm;
  direction: "ASC" | "DESC";
}

/** The groupBy values' SQL, as pg-aggregates' own `apply` of each value would group by it. */
const groupKeys: OrderTerm = (select, groupBy, GroupBy) => {
  const keys: PgGroupSpec[] = [];
  const recorder = { alias: select.alias, groupBy: (key: PgGroupSpec) => keys.push(key) };
  for (const name of groupBy) {
    const apply = GroupBy.getValue(name)?.extensions?.grafast?.apply as ((builder: unknown) => void) | undefined;
    apply?.(recorder);
  }
  return keys;
};

/**
 * An argument's value while planning: grafast's input steps can `eval()` (typed only on the concrete
 * classes), which makes the plan hold for that value only: another value is planned again.
 */
function planned(fieldArgs: FieldArgs, name: string): unknown {
  return (fieldArgs.getRaw(name) as unknown as { eval(): unknown }).eval();
}

/** The fact views' resources (the views, not the window functions that return their rows), by codec. */
function factResources(build: GraphileBuild.Build): Array<PgResource<any, any, any, any, any>> {
  return Object.values(build.input.pgRegistry.pgResources).filter(
    (resource) => !resource.parameters && resource.codec.attributes && FACT_CODEC.test(resource.codec.name),
  );
}

const orderEnumName = (build: GraphileBuild.Build, codec: PgCodec<any, any, any, any, any, any, any>) =>
  `${build.inflection.tableType(codec)}GroupsOrderBy`;

/** The orders of one fact view's groups: by keys, by rows, by each aggregate of each column it offers. */
function orderValues(
  build: GraphileBuild.Build,
  resource: PgResource<any, any, any, any, any>,
): Record<string, { description: string; value: OrderValue }> {
  const { sql, inflection } = build;
  const values: Record<string, { description: string; value: OrderValue }> = {};
  const add = (name: string, description: string, term: OrderTerm) => {
    values[`${name}_ASC`] = { description: `${description}, ascending.`, value: { term, direction: "ASC" } };
    values[`${name}_DESC`] = { description: `${description}, descending.`, value: { term, direction: "DESC" } };
  };
  add("KEYS", "By the groups' keys, in the order groupBy names them", groupKeys);
  add("COUNT", "By the number of rows in each group", () => [
    { fragment: sql`count(*)`, codec: build.dataplanPg.TYPES.bigint },
  ]);
  for (const spec of build.pgAggregateSpecs) {
    if (!ORDERING_AGGREGATES.has(spec.id)) continue;
    if (
      !build.behavior.pgResourceMatches(
        resource,
        `${spec.id}:resource:aggregates` as keyof GraphileBuild.BehaviorStrings,
      )
    )
      continue;
    for (const [attributeName, attribute] of Object.entries(resource.codec.attributes as Record<string, any>)) {
      const entity = { type: "attribute" as const, codec: resource.codec, attributeName };
      if (
        !build.behavior.pgCodecAttributeMatches(
          [resource.codec, attributeName],
          `${spec.id}:attribute:aggregate` as keyof GraphileBuild.BehaviorStrings,
        )
      )
        continue;
      if (!spec.isSuitableType(attribute.codec) || spec.shouldApplyToEntity?.(entity) === false) continue;
      const field = inflection.attribute({ attributeName, codec: resource.codec });
      add(
        inflection.constantCase(`${spec.id}-${field}`),
        `By the ${spec.humanLabel} of ${field} in each group`,
        (select) => [
          {
            fragment: spec.sqlAggregateWrap(sql`${select.alias}.${sql.identifier(attributeName)}`, attribute.codec),
            codec: spec.pgTypeCodecModifier?.(attribute.codec) ?? attribute.codec,
          },
        ],
      );
    }
  }
  return values;
}

export const AnalyticsOrderPlugin: GraphileConfig.Plugin = {
  name: "AnalyticsOrderPlugin",
  version: "1.0.0",
  description:
    "Orders the groups of the analytics fact connections (by keys, rows or an aggregate) and keeps the first N.",
  after: ["PgAggregatesAddConnectionGroupedAggregatesPlugin"],
  schema: {
    hooks: {
      init(_, build) {
        for (const resource of factResources(build)) {
          build.registerEnumType(
            orderEnumName(build, resource.codec),
            { pgTypeResource: resource },
            () => ({
              description: `How the groups of ${build.inflection.tableType(resource.codec)} are ordered.`,
              values: orderValues(build, resource),
            }),
            `AnalyticsOrderPlugin: order of ${resource.name}'s groups`,
          );
        }
        return _;
      },
      GraphQLObjectType_fields_field(field, build, { scope }) {
        const codec = scope.pgCodec;
        if (
          scope.fieldName !== "groupedAggregates" ||
          !scope.isConnectionType ||
          !codec ||
          !FACT_CODEC.test(codec.name)
        )
          return field;
        const OrderBy = build.getTypeByName(orderEnumName(build, codec));
        const GroupBy = field.args?.groupBy && build.graphql.getNamedType(field.args.groupBy.type);
        if (!OrderBy || !(GroupBy instanceof build.graphql.GraphQLEnumType) || !field.plan) return field;
        const { GraphQLList, GraphQLNonNull, GraphQLInt } = build.graphql;
        const planGroups = field.plan;
        return {
          ...field,
          args: {
            ...field.args,
            orderBy: {
              type: new GraphQLList(new GraphQLNonNull(OrderBy as GraphQLEnumType)),
              description: "The order of the groups (without it, whatever order PostgreSQL's grouping gives).",
            },
            first: {
              type: GraphQLInt,
              description: "Only the first so many groups of that order (1 to 1,000).",
            },
          },
          plan($connection: ExecutableStep, fieldArgs: FieldArgs, info: any) {
            const select = planGroups.call(this, $connection, fieldArgs, info) as PgSelectStep;
            const groupBy = (planned(fieldArgs, "groupBy") ?? []) as string[];
            const orderBy = (planned(fieldArgs, "orderBy") ?? []) as OrderValue[];
            // Groups without a value (no average of nothing) come last either way; the keys break ties,
            // so that `first` takes the same groups every time.
            const terms = orderBy.length > 0 ? [...orderBy, { term: groupKeys, direction: "ASC" as const }] : [];
            for (const { term, direction } of terms) {
              for (const { fragment, codec } of term(select, groupBy, GroupBy)) {
                select.orderBy({ fragment, codec, direction, nulls: "LAST" });
              }
            }
            const first = planned(fieldArgs, "first") as number | null | undefined;
            if (first != null) select.setFirst(constant(first));
            return select;
          },
        };
      },
    },
  },
};
