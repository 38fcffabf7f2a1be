// What the response cache needs of a document's operation (the schema's rules:
// lib/graphql/cache-rules.ts), worked out once per schema and parsed document: grafserv keeps one
// DocumentNode per query text, so the plan is kept by the document's identity. The read replicas'
// routing (lib/graphql/replica-routing.ts) asks the same question: a public read is one whose
// every root field the cache may keep.
import type { DocumentNode, GraphQLSchema } from "graphql";
import { cacheRuleOf, type Domain } from "./cache-rules.ts";
import { documentNamesMonitor, pickOperation, rootQueryFields } from "./root-fields.ts";

/** What a document's operation needs from the cache: the domains it reads and whether it is per environment. */
export interface CachePlan {
  domains: readonly Domain[];
  /** Per environment: an environment-bound field, or a monitor named in the arguments. */
  environmentBound: boolean;
  /** The domains when a variable names a monitor (a filter's `monitor`): the monitors' too. */
  domainsWithMonitor: readonly Domain[];
  /** Unique per document, so keys compare documents by identity, not by their text. */
  documentId: number;
}

let documents = 0;
const plans = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, CachePlan | null>>>();

/** The cache plan of a document's operation, or null when any root field may not be cached. */
export function cachePlanOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): CachePlan | null {
  let byDocument = plans.get(schema);
  if (!byDocument) plans.set(schema, (byDocument = new WeakMap()));
  let byOperation = byDocument.get(document);
  if (!byOperation) byDocument.set(document, (byOperation = new Map()));
  const known = byOperation.get(operationName ?? "");
  if (known !== undefined) return known;
  const fields = [...rootQueryFields(document, pickOperation(document, operationName))];
  const rules = fields.map((field) => cacheRuleOf(schema, field));
  const domains = [...new Set(rules.flatMap((rule) => rule?.domains ?? []))];
  const domainsWithMonitor = [...new Set<Domain>([...domains, "monitors"])];
  const monitorNamed = documentNamesMonitor(document);
  const plan =
    fields.length > 0 && rules.every(Boolean)
      ? {
          domains: monitorNamed ? domainsWithMonitor : domains,
          environmentBound: monitorNamed || rules.some((rule) => rule!.environmentBound),
          domainsWithMonitor,
          documentId: ++documents,
        }
      : null;
  byOperation.set(operationName ?? "", plan);
  return plan;
}
