// Spec section 5.3: every public read query needs a valid API token; without one the answer is
// HTTP 401 with a GraphQL error body. Deny by default: every Query field needs a token except the
// account queries (which use the user's own access token) and introspection. The check runs in
// grafserv's request-body middleware because only there can it still choose the HTTP status.
import { parse, type DocumentNode, type SelectionSetNode } from "graphql";
import type { Authenticate } from "../lib/auth/context.ts";
import { rememberAuth } from "../lib/auth/context.ts";
import { isConnectionError, RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from "../lib/db/availability.ts";
import { userError } from "../lib/graphql/errors.ts";

/** Spec 4.1: queries that take the user's access token, not an API token. */
export const ACCOUNT_QUERY_FIELDS = new Set([
  "sessionValid", "me", "mySessions", "currentEnvironment", "myOrganizations",
  "channels", "monitors", "monitor", "apiTokens", "apiToken", "apiScopes",
]);

function rootQueryFields(document: DocumentNode, operationName: string | null | undefined): Set<string> {
  const fields = new Set<string>();
  const operations = document.definitions.filter((d) => d.kind === "OperationDefinition");
  const operation = operationName
    ? operations.find((o) => o.name?.value === operationName)
    : operations.length === 1 ? operations[0] : undefined;
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

const UNAUTHENTICATED_MESSAGES = {
  none: "This operation needs an API token: send Authorization: Bearer <API token>.",
  invalid: "The API token is not valid (unknown, revoked or expired).",
  user: "Public data needs an API token, not a user's access token: send Authorization: Bearer <API token>.",
} as const;

function needsApiToken(field: string): boolean {
  return !field.startsWith("__") && !ACCOUNT_QUERY_FIELDS.has(field);
}

export function makeRequireApiTokenPlugin(authenticate: Authenticate): GraphileConfig.Plugin {
  return {
    name: "RequireApiTokenPlugin",
    version: "1.0.0",
    description: "Authenticates the Bearer value (API token or user access token) and answers 401 to public reads without a valid API token.",
    grafserv: {
      middleware: {
        async processGraphQLRequestBody(next, event) {
          const req = event.request?.requestContext.node?.req;
          const auth = await authenticate(event.request?.getHeader("authorization")).catch((error: unknown) => {
            // grafserv would answer any other error here as "Parsing failed" (400).
            if (isConnectionError(error)) {
              throw userError(SERVICE_UNAVAILABLE.message, SERVICE_UNAVAILABLE.code, { statusCode: 503, retryAfter: RETRY_AFTER_SECONDS });
            }
            throw error;
          });
          if (req) rememberAuth(req, auth);
          if (auth.kind !== "apiToken" && typeof event.body.query === "string") {
            let document: DocumentNode | undefined;
            try {
              document = parse(event.body.query);
            } catch {
              // Not GraphQL: grafserv answers with the syntax error itself.
            }
            const operationName = typeof event.body.operationName === "string" ? event.body.operationName : null;
            const guarded = document ? [...rootQueryFields(document, operationName)].filter(needsApiToken) : [];
            if (guarded.length > 0) {
              throw userError(UNAUTHENTICATED_MESSAGES[auth.kind], "UNAUTHENTICATED", { statusCode: 401 });
            }
          }
          return next();
        },
      },
    },
  };
}
