// Text PostgreSQL cannot store, refused before execution with BAD_USER_INPUT naming the argument
// (or variable): a NUL character (PostgreSQL text cannot hold one; the driver's error would
// surface as an internal error), a lone UTF-16 surrogate (not encodable as UTF-8), and strings
// longer than any argument of the spec needs. Both inline literals and variables are checked,
// for queries, mutations and subscriptions alike. Numbers and dates out of PostgreSQL's range are
// the other half: lib/graphql/errors.ts answers PostgreSQL's data errors as BAD_USER_INPUT.
import { GraphQLError, Kind, visit, type DocumentNode, type ExecutionResult, type ValueNode } from "graphql";

/** The longest string any argument may be (the longest the spec needs is a monitor's query JSON). */
export const MAX_STRING_LENGTH = 20_000;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function problemWith(text: string): string | undefined {
  if (text.includes("\u0000")) return "contains a NUL character";
  if (LONE_SURROGATE.test(text)) return "is not valid Unicode (a lone surrogate)";
  if (text.length > MAX_STRING_LENGTH) return `is longer than ${MAX_STRING_LENGTH} characters`;
  return undefined;
}

/** The first bad string in a JSON value (a variable's value), with its path. */
function findInValue(value: unknown, path: string): string | undefined {
  if (typeof value === "string") {
    const problem = problemWith(value);
    return problem && `${path} ${problem}.`;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findInValue(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const problem = problemWith(key);
      if (problem) return `${path} has a field name that ${problem}.`;
      const found = findInValue(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** The same for an inline literal of the document. */
function findInLiteral(node: ValueNode, path: string): string | undefined {
  switch (node.kind) {
    case Kind.STRING: {
      const problem = problemWith(node.value);
      return problem && `${path} ${problem}.`;
    }
    case Kind.LIST:
      for (let i = 0; i < node.values.length; i++) {
        const found = findInLiteral(node.values[i], `${path}[${i}]`);
        if (found) return found;
      }
      return undefined;
    case Kind.OBJECT:
      for (const field of node.fields) {
        const found = findInLiteral(field.value, `${path}.${field.name.value}`);
        if (found) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** Documents are parsed once and cached by grafserv, so their verdict is kept with them. */
const documentVerdicts = new WeakMap<DocumentNode, string | null>();

function findInDocument(document: DocumentNode): string | undefined {
  const known = documentVerdicts.get(document);
  if (known !== undefined) return known ?? undefined;
  let found: string | undefined;
  visit(document, {
    Argument(node) {
      found ??= findInLiteral(node.value, `Argument "${node.name.value}"`);
      return found ? false : undefined;
    },
  });
  documentVerdicts.set(document, found ?? null);
  return found;
}

function refusal(message: string): ExecutionResult {
  return { errors: [new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT" } })] };
}

function check(args: {
  document: DocumentNode;
  variableValues?: Record<string, unknown> | null;
}): ExecutionResult | undefined {
  const inDocument = findInDocument(args.document);
  if (inDocument) return refusal(inDocument);
  for (const [name, value] of Object.entries(args.variableValues ?? {})) {
    const found = findInValue(value, `Variable "$${name}"`);
    if (found) return refusal(found);
  }
  return undefined;
}

export const InputGuardPlugin: GraphileConfig.Plugin = {
  name: "InputGuardPlugin",
  version: "1.0.0",
  description: "Refuses NUL characters, lone surrogates and over-long strings in arguments with BAD_USER_INPUT.",
  grafast: {
    middleware: {
      execute(next, event) {
        return check(event.args) ?? next();
      },
      subscribe(next, event) {
        return check(event.args) ?? next();
      },
    },
  },
};
