// The cost of a GraphQL document (issue 25), checked at validation before any SQL runs. GraphQL
// Armor's cost rule priced a page of plain columns like one query per column per row
// (trafficIncidents(first: 200) with 18 columns: 5,800), did not know `limit`, and counted a page
// size given as a variable as 1. Here a field's cost follows what the database does for it:
//   - a scalar or enum (also a list of them) is a column of a row already fetched: 0;
//   - a field returning an object or a list of objects costs 1, plus its own selection's cost times
//     its rows: 1 for an object; for a paged list its `first`/`limit` written as a number (1 to
//     the page cap; a variable or no argument counts as the cap); for a list without a page
//     argument (a message's capcodes, a dossier's messages) UNPAGED_LIST_ROWS.
// So a page of rows with their objects one level down costs about rows × objects, while lists
// nested in lists (the dossier cycle P2000Message.dossier.messages.dossier…) multiply.
import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isCompositeType,
  isLeafType,
  isListType,
  isObjectType,
  isInterfaceType,
  Kind,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from "graphql";

/** The global read cap of spec §8 ("100 unless a query documents a higher cap"). */
const DEFAULT_PAGE_CAP = 100;

/** The higher caps (spec §8 and the SQL functions' app_hidden.page_limit calls). */
const PAGE_CAPS: Readonly<Record<string, number>> = {
  trafficIncidents: 200,
  trafficIncidentsForMonitor: 200,
  aircraftEventsForMonitor: 200,
  meteoWarningEventsForMonitor: 200,
  meteoObservationHistory: 10_000,
};

const PAGE_ARGUMENTS = new Set(["first", "limit"]);

/** Rows assumed for a list without a page argument: small sets, but they multiply when nested. */
const UNPAGED_LIST_ROWS = 5;

/**
 * Rows assumed for lists of an analytics connection (issue 28, plugins/analytics.ts): one
 * GROUP BY over up to a year of facts answers a row per group (a year of days: 366, of hours:
 * 8,784), so groupedAggregates is priced as this many rows, whatever its groupBy. A fact
 * connection has no nodes or edges; a connection's nodes or edges elsewhere would be priced
 * by the page rule (no `first`: the cap).
 */
const GROUPED_AGGREGATE_ROWS = 500;
const CONNECTION_ROW_FIELDS = new Set(["nodes", "edges"]);

/** How many rows a list field can answer, as far as the document says before variables are known. */
function listRows(node: FieldNode, field: GraphQLField<unknown, unknown>): number {
  if (field.name === "groupedAggregates") return GROUPED_AGGREGATE_ROWS;
  const pageArgument = field.args.find((argument) => PAGE_ARGUMENTS.has(argument.name));
  if (!pageArgument) return CONNECTION_ROW_FIELDS.has(field.name) ? DEFAULT_PAGE_CAP : UNPAGED_LIST_ROWS;
  const cap = PAGE_CAPS[field.name] ?? DEFAULT_PAGE_CAP;
  const value = node.arguments?.find((argument) => argument.name.value === pageArgument.name)?.value;
  // Below 1 the database refuses the field; counted as 1, a negative page cannot lower the sum.
  return value?.kind === Kind.INT ? Math.max(1, Math.min(Number(value.value), cap)) : cap;
}

/** The cost of one row of a selection set, fragments followed (each priced once per operation). */
function selectionCost(
  context: ValidationContext,
  selectionSet: SelectionSetNode,
  type: GraphQLCompositeType,
  fragmentCosts: Map<string, number>,
): number {
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      // Introspection (__schema, __type) is bounded by the schema and __typename is free.
      if (selection.name.value.startsWith("__") || !selection.selectionSet) continue;
      const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
      const fieldType = field && getNamedType(field.type);
      // Unknown fields are another rule's error.
      if (!field || !fieldType || isLeafType(fieldType)) continue;
      const rows = isListType(getNullableType(field.type)) ? listRows(selection, field) : 1;
      cost += 1 + rows * selectionCost(context, selection.selectionSet, fieldType, fragmentCosts);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition && context.getSchema().getType(selection.typeCondition.name.value);
      const fragmentType = selection.typeCondition ? condition : type;
      if (isCompositeType(fragmentType)) {
        cost += selectionCost(context, selection.selectionSet, fragmentType, fragmentCosts);
      }
    } else {
      const name = selection.name.value;
      if (!fragmentCosts.has(name)) {
        // A fragment that spreads itself is NoFragmentCyclesRule's error; 0 ends the walk.
        fragmentCosts.set(name, 0);
        const fragment = context.getFragment(name);
        const fragmentType = fragment && context.getSchema().getType(fragment.typeCondition.name.value);
        if (fragment && isCompositeType(fragmentType)) {
          fragmentCosts.set(name, selectionCost(context, fragment.selectionSet, fragmentType, fragmentCosts));
        }
      }
      cost += fragmentCosts.get(name)!;
    }
  }
  return cost;
}

/**
 * Refuses an operation that costs more than maxCost, before any SQL runs; the message is Armor's
 * ("Query Cost limit of 5000 exceeded, found 5800.") so clients and logs read the same.
 */
export function queryCostRule(
  maxCost: number,
  reject: (context: ValidationContext, error: GraphQLError) => void,
): ValidationRule {
  return (context) => ({
    OperationDefinition(operation) {
      const rootType = context.getSchema().getRootType(operation.operation);
      if (!rootType) return;
      const cost = selectionCost(context, operation.selectionSet, rootType, new Map());
      if (cost > maxCost) reject(context, new GraphQLError(`Query Cost limit of ${maxCost} exceeded, found ${cost}.`));
    },
  });
}
