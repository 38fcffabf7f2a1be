// What the rules that look at a document before it runs read from it: the operation a request
// runs, the root fields it selects (the API-token rule, plugins/require-api-token.ts; the response
// cache, plugins/response-cache.ts) and whether it names a monitor (the response cache and the
// shared subscriptions, plugins/subscription-guard.ts).
import { visit, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from "graphql";

/** The operation a request runs: the named one, or the only one (GraphQL over HTTP's rule). */
export function pickOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d) => d.kind === "OperationDefinition");
  return operationName
    ? operations.find((o) => o.name?.value === operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
}

/** The root fields a query selects, through fragments (each followed once); empty for other operations. */
export function rootQueryFields(document: DocumentNode, operation: OperationDefinitionNode | undefined): Set<string> {
  const fields = new Set<string>();
  if (!operation || operation.operation !== "query") return fields;
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === "FragmentDefinition" ? [[d.name.value, d] as const] : [])),
  );
  const seen = new Set<string>();
  const visit = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === "Field") fields.add(selection.name.value);
      else if (selection.kind === "InlineFragment") visit(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  visit(operation.selectionSet);
  return fields;
}

/**
 * A filter may name a monitor (`p2000Messages(filter: { monitor: … })`): its answer is then that
 * monitor's matches in the caller's environment, not the same for every API token. True when the
 * document's arguments or input fields, or its variables, have a `monitor` (in the variables as
 * JSON: a string value that merely contains it only costs sharing).
 */
export function namesMonitor(document: DocumentNode, variables: unknown): boolean {
  return variablesNameMonitor(JSON.stringify(variables ?? {})) || documentNamesMonitor(document);
}

/** The variables' part of namesMonitor, for a caller that has them as JSON already. */
export function variablesNameMonitor(variablesJson: string): boolean {
  return variablesJson.includes('"monitor":');
}

/** A fact of a parsed document, worked out once: a kept document is asked again at every request. */
function documentFact(
  cache: WeakMap<DocumentNode, boolean>,
  document: DocumentNode,
  find: (document: DocumentNode) => boolean,
): boolean {
  let known = cache.get(document);
  if (known === undefined) cache.set(document, (known = find(document)));
  return known;
}

const monitorInDocument = new WeakMap<DocumentNode, boolean>();

export function documentNamesMonitor(document: DocumentNode): boolean {
  return documentFact(monitorInDocument, document, () => {
    let found = false;
    visit(document, {
      Argument: (node) => void (found ||= node.name.value === "monitor"),
      ObjectField: (node) => void (found ||= node.name.value === "monitor"),
    });
    return found;
  });
}

/**
 * Whether a subscription's answer belongs to its credential rather than being the same for every
 * API token: it names a monitor, or it reads the station screen of the credential that asks
 * (`stationScreen`). Such a subscription shares its execution only with the same token and reads
 * with the token's own settings (plugins/subscription-guard.ts).
 */
export function boundToCredential(document: DocumentNode, variables: unknown): boolean {
  return namesMonitor(document, variables) || readsOwnScreen(document);
}

const ownScreenInDocument = new WeakMap<DocumentNode, boolean>();

function readsOwnScreen(document: DocumentNode): boolean {
  return documentFact(ownScreenInDocument, document, () => {
    let found = false;
    visit(document, { Field: (node) => void (found ||= node.name.value === "stationScreen") });
    return found;
  });
}
