// The arguments of an analytics grouping that are bad input before any SQL runs (issue 28): how
// many groups of time it asks for ("a year of hours") and how many groups it keeps (`first`, of
// plugins/analytics-order.ts). A fact connection's window (windowStart, windowEnd: inline or variables) divided by the
// finest time grouping of each of its groupedAggregates (…_HOUR, …_DAY, …_WEEK, …_MONTH, …_YEAR;
// not the bounded HOUR_OF_DAY or WEEKDAY) is the number of time groups that grouping can answer;
// over MAX_TIME_GROUPS it is refused before any SQL runs. Variables are only known at execution,
// so this runs there (plugins/analytics.ts), not among the validation rules.
import { Kind, type DocumentNode, type FieldNode, type SelectionSetNode, type ValueNode } from "graphql";

/** Time groups one groupedAggregates may answer: a year of days, ten years of months or weeks, a month of hours. */
export const MAX_TIME_GROUPS = 1_000;

/** The most groups one groupedAggregates may keep with `first`. */
export const MAX_GROUPS_FIRST = 1_000;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Each time grouping's shortest bucket (a month is at least 28 days), by the end of its enum name. */
const BUCKETS: ReadonlyArray<{ suffix: RegExp; milliseconds: number; unit: string }> = [
  { suffix: /(^|_)HOUR$/, milliseconds: HOUR_MS, unit: "hour" },
  { suffix: /(^|_)DAY$/, milliseconds: DAY_MS, unit: "day" },
  { suffix: /(^|_)WEEK$/, milliseconds: 7 * DAY_MS, unit: "week" },
  { suffix: /(^|_)MONTH$/, milliseconds: 28 * DAY_MS, unit: "month" },
  { suffix: /(^|_)YEAR$/, milliseconds: 365 * DAY_MS, unit: "year" },
];

/** Groupings by the place in a cycle (hour of the day, day of the week): bounded whatever the window. */
const CYCLE = /_OF_DAY$|^WEEKDAY$/;

/** A fact connection of plugins/analytics.ts: its Query field is the view's name, plural. */
const FACT_FIELD = /Facts$/;

type Variables = Readonly<Record<string, unknown>> | null | undefined;

function valueOf(node: ValueNode | undefined, variables: Variables): unknown {
  if (!node) return undefined;
  if (node.kind === Kind.VARIABLE) return variables?.[node.name.value];
  if (node.kind === Kind.STRING || node.kind === Kind.ENUM) return node.value;
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.LIST) return node.values.map((value) => valueOf(value, variables));
  return undefined;
}

function argument(field: FieldNode, name: string, variables: Variables): unknown {
  return valueOf(field.arguments?.find((a) => a.name.value === name)?.value, variables);
}

/** The window's length in milliseconds, when both ends are given and read as times. */
function windowLength(field: FieldNode, variables: Variables): number | undefined {
  const start = Date.parse(String(argument(field, "windowStart", variables)));
  const end = Date.parse(String(argument(field, "windowEnd", variables)));
  return Number.isFinite(start) && Number.isFinite(end) && end > start ? end - start : undefined;
}

/** The groupedAggregates fields under a selection set, through fragments (each followed once). */
function groupings(
  selectionSet: SelectionSetNode | undefined,
  fragments: ReadonlyMap<string, SelectionSetNode>,
  seen = new Set<string>(),
): FieldNode[] {
  const found: FieldNode[] = [];
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value === "groupedAggregates") found.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      found.push(...groupings(selection.selectionSet, fragments, seen));
    } else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      found.push(...groupings(fragments.get(selection.name.value), fragments, seen));
    }
  }
  return found;
}

/** A fact connection of a document and the groupedAggregates under it. */
interface FactGroupings {
  fact: FieldNode;
  groupings: FieldNode[];
}

/**
 * Documents are parsed once and cached by grafserv, and this runs before every execution, so each
 * document's fact connections are found once (most documents have none: an empty list).
 */
const groupingsOfDocument = new WeakMap<DocumentNode, FactGroupings[]>();

function factGroupings(document: DocumentNode): FactGroupings[] {
  const known = groupingsOfDocument.get(document);
  if (known) return known;
  const fragments = new Map<string, SelectionSetNode>();
  const factFields: FieldNode[] = [];
  const collect = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD && FACT_FIELD.test(selection.name.value)) factFields.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet);
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition.selectionSet);
      collect(definition.selectionSet);
    } else if (definition.kind === Kind.OPERATION_DEFINITION) {
      collect(definition.selectionSet);
    }
  }
  const found = factFields.map((fact) => ({ fact, groupings: groupings(fact.selectionSet, fragments) }));
  groupingsOfDocument.set(document, found);
  return found;
}

/** The refusal for the first grouping of the document with bad arguments, if any. */
export function groupingRefusal(document: DocumentNode, variables: Variables): string | undefined {
  for (const { fact, groupings: groupedAggregates } of factGroupings(document)) {
    for (const grouping of groupedAggregates) {
      const first = argument(grouping, "first", variables);
      if (first != null && !(Number.isInteger(first) && Number(first) >= 1 && Number(first) <= MAX_GROUPS_FIRST)) {
        return `${fact.name.value}: groupedAggregates' first must be from 1 to ${MAX_GROUPS_FIRST.toLocaleString("en")}.`;
      }
    }
    const length = windowLength(fact, variables);
    if (length === undefined) continue; // a missing or malformed window is the SQL function's error
    for (const grouping of groupedAggregates) {
      const groupBy = argument(grouping, "groupBy", variables);
      const names = (Array.isArray(groupBy) ? groupBy : [groupBy]).filter(
        (name): name is string => typeof name === "string" && !CYCLE.test(name),
      );
      const finest = BUCKETS.find((bucket) => names.some((name) => bucket.suffix.test(name)));
      if (!finest) continue;
      const groups = Math.ceil(length / finest.milliseconds);
      if (groups > MAX_TIME_GROUPS) {
        const days = Math.round(length / DAY_MS);
        return (
          `${fact.name.value}: grouping a window of ${days} days by ${finest.unit} makes up to ${groups.toLocaleString("en")} ` +
          `groups; at most ${MAX_TIME_GROUPS.toLocaleString("en")} groups of time: group by a longer time or shorten the window.`
        );
      }
    }
  }
  return undefined;
}
