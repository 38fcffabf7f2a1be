// What a receiver's API token (scope p2000:publish) may run: publishing pages, and nothing that
// reads. publishP2000Lines answers counts only; createP2000Message answers the page it added, of
// which the receiver may ask what the spec's answer names (uuid, message, sended, created and the
// capcodes' uuid and name) and not the rest of the graph behind a page (its dossier, its copies).
import { Kind, type OperationDefinitionNode, type SelectionSetNode } from "graphql";

/** Per field: null for a leaf, else what may be asked of it; "leaves" for any field without a selection. */
type Allowed = { [field: string]: Allowed | null } | "leaves";

const ROOT: Allowed = {
  __typename: null,
  publishP2000Lines: "leaves",
  createP2000Message: {
    __typename: null,
    uuid: null,
    message: null,
    sended: null,
    created: null,
    capcodes: { __typename: null, uuid: null, name: null },
  },
};

function within(selectionSet: SelectionSetNode | undefined, allowed: Allowed | null): boolean {
  if (allowed === null) return selectionSet === undefined;
  if (selectionSet === undefined) return false;
  return selectionSet.selections.every((selection) => {
    // Fragments would hide what is asked: a receiver's operations name their fields.
    if (selection.kind !== Kind.FIELD) return false;
    if (allowed === "leaves") return selection.selectionSet === undefined;
    const name = selection.name.value;
    return Object.hasOwn(allowed, name) && within(selection.selectionSet, allowed[name]);
  });
}

export const RECEIVER_OPERATIONS_MESSAGE =
  "A receiver's API token publishes P2000 pages and reads nothing: publishP2000Lines, or createP2000Message " +
  "asking the page's uuid, message, sended, created and capcodes { uuid name } only. Read with another API token.";

/** Whether a receiver's token may run this operation (a mutation that publishes, asking no more than allowed). */
export function receiverMayRun(operation: OperationDefinitionNode | undefined): boolean {
  return operation?.operation === "mutation" && within(operation.selectionSet, ROOT);
}
