// The operation a GraphQL request runs and the root fields it selects (through fragments), for the
// rules that look at a document before it runs: the API-token rule (plugins/require-api-token.ts)
// and the response cache (plugins/response-cache.ts).
import type { DocumentNode, OperationDefinitionNode, SelectionSetNode } from "graphql";

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
