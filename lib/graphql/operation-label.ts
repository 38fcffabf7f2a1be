// The metrics label of a GraphQL operation (lib/ops/metrics.ts): its first root field, checked
// against the schema, so the label has as many values as the schema has root fields plus "other"
// (a client's operationName, free text, would let any client grow a metric). The metrics plugin
// and the response cache both label by it.
import { getOperationAST, type DocumentNode, type GraphQLSchema, type SelectionSetNode } from "graphql";

function firstField(selectionSet: SelectionSetNode, document: DocumentNode): string | undefined {
  const [selection] = selectionSet.selections;
  if (!selection) return undefined;
  if (selection.kind === "Field") return selection.name.value;
  if (selection.kind === "InlineFragment") return firstField(selection.selectionSet, document);
  const fragment = document.definitions.find(
    (d) => d.kind === "FragmentDefinition" && d.name.value === selection.name.value,
  );
  return fragment?.kind === "FragmentDefinition" ? firstField(fragment.selectionSet, document) : undefined;
}

/** The operation's label: its first root field if the schema's root type has it, else "other" (introspection too). */
export function operationLabel(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): string {
  const operation = getOperationAST(document, operationName);
  if (!operation) return "other";
  const field = firstField(operation.selectionSet, document);
  const root = schema.getRootType(operation.operation);
  return field && root?.getFields()[field] ? field : "other";
}
