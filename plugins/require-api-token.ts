// Spec section 5.3: every public read query needs a valid API token; without one the answer is
// HTTP 401 with a GraphQL error body. Under WEB_REQUIRE_SIGN_IN the web-client credential is no
// such token: it serves the auth operations only, and a public read with it is refused (403).
// Deny by default: every Query field needs a token except the
// account queries, which use the user's own access token, and introspection. An account query is
// marked where it is defined: `@userToken` in its SQL function's comment, or the scope
// `isUserTokenField` of a field a plugin adds (monitorPreview); the schema hook below collects
// them, so the rule lives next to the functions it governs. Subscriptions need
// an API token too, and only the streams carry them (guardOperation, shared with the SSE handler).
// The check runs in grafserv's request-body middleware, for HTTP and WebSocket, because only there
// can it still choose an HTTP request's status; the SSE handler calls guardOperation itself.
//
// The other way round (issue 44), an API token sent to an operation that needs a user's access
// token is told so by app_hidden.require_user_uuid itself (migration 000087).
import type { IncomingMessage } from "node:http";
import { parse, type DocumentNode } from "graphql";
import type { Authenticate, RequestAuth } from "../lib/auth/context.ts";
import { rememberAuth } from "../lib/auth/context.ts";
import { isConnectionError, RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from "../lib/db/availability.ts";
import { userError } from "../lib/graphql/errors.ts";
import { rootQueryFunction } from "../lib/graphql/root-query-functions.ts";
import { pickOperation, rootQueryFields } from "../lib/graphql/root-fields.ts";

declare global {
  namespace GraphileBuild {
    interface ScopeObjectFieldsField {
      /** A Query field that takes the user's access token, not an API token (spec §4.1). */
      isUserTokenField?: boolean;
    }
  }
}

/** Query fields that take the user's access token (spec §4.1), as the schema marks them. */
const userTokenFields = new Set<string>();

const UNAUTHENTICATED_MESSAGES = {
  none: "This operation needs an API token: send Authorization: Bearer <API token>.",
  invalid: "The API token is not valid (unknown, revoked or expired).",
  user: "Public data needs an API token, not a user's access token: send Authorization: Bearer <API token>.",
} as const;

function needsApiToken(field: string): boolean {
  return !field.startsWith("__") && !userTokenFields.has(field);
}

/** Where an operation arrived: subscriptions need a stream, and the streams carry nothing else. */
export type Transport = "http" | "websocket" | "sse";

/**
 * The checks every transport makes before an operation runs: subscriptions only over WebSocket or
 * SSE (and those carry nothing else, so HTTP's request budgets and 401s cannot be gone around), an
 * API token for every public read and every subscription. Throws the client's error.
 */
export function guardOperation(
  auth: RequestAuth,
  body: { query?: unknown; operationName?: unknown },
  transport: Transport,
): void {
  if (typeof body.query !== "string") return;
  const operationName = typeof body.operationName === "string" ? body.operationName : null;
  // Parsed here only when it may matter: an API-token query over HTTP (the hot path) goes through.
  const mayBeSubscription = transport !== "http" || body.query.includes("subscription");
  if (auth.kind === "apiToken" && auth.publicReads && !mayBeSubscription) return;
  let document: DocumentNode;
  try {
    document = parse(body.query);
  } catch {
    return; // not GraphQL: the transport answers with the syntax error itself
  }
  const operation = pickOperation(document, operationName);
  const type = operation?.operation;
  if (type === "subscription" && transport === "http") {
    throw userError(
      "Subscriptions need a stream: a WebSocket to /graphql (graphql-transport-ws) or Server-Sent Events at /graphql/stream (graphql-sse).",
      "BAD_REQUEST",
      { statusCode: 400 },
    );
  }
  if (type !== undefined && type !== "subscription" && transport !== "http") {
    throw userError(
      `The ${transport === "websocket" ? "WebSocket" : "event stream"} carries subscriptions only: send queries and mutations over HTTP to /graphql.`,
      "BAD_REQUEST",
      { statusCode: 400 },
    );
  }
  const reads = [...rootQueryFields(document, operation)].filter(needsApiToken);
  if (type === "subscription" || reads.length > 0) {
    requireApiToken(auth, type !== "subscription" && reads.every((field) => SIGN_IN_SCREEN_READS.has(field)));
  }
}

/**
 * Public reads the sign-in and registration screens make (whether e-mail leaves by SMTP or only the
 * log, issue 44), which the web-client credential may make under WEB_REQUIRE_SIGN_IN too.
 */
const SIGN_IN_SCREEN_READS = new Set(["installation"]);

const SIGN_IN_REQUIRED_MESSAGE =
  "This service's public data is for signed-in users (WEB_REQUIRE_SIGN_IN): the web-client credential serves " +
  "the auth operations only. Sign in and read with your own API token (createApiToken).";

/**
 * Throws UNAUTHENTICATED (401) unless the request carries a valid API token, and FORBIDDEN (403)
 * when that token is the web-client credential under WEB_REQUIRE_SIGN_IN (unless `signInScreenRead`).
 */
export function requireApiToken(auth: RequestAuth, signInScreenRead = false): void {
  if (auth.kind !== "apiToken")
    throw userError(UNAUTHENTICATED_MESSAGES[auth.kind], "UNAUTHENTICATED", { statusCode: 401 });
  if (!auth.publicReads && !signInScreenRead)
    throw userError(SIGN_IN_REQUIRED_MESSAGE, "FORBIDDEN", { statusCode: 403 });
}

/** The Authorization of a WebSocket: the connection_init payload's (any case), else the upgrade request's header. */
function webSocketAuthorization(context: {
  connectionParams?: Readonly<Record<string, unknown>>;
  extra?: unknown;
}): string | undefined {
  const params = context.connectionParams ?? {};
  const key = Object.keys(params).find((k) => k.toLowerCase() === "authorization");
  const fromParams = key ? params[key] : undefined;
  if (typeof fromParams === "string") return fromParams;
  return (context.extra as { request?: IncomingMessage } | undefined)?.request?.headers.authorization;
}

/** authenticate, with a lost database answered as 503 SERVICE_UNAVAILABLE. */
export async function authenticateOrUnavailable(
  authenticate: Authenticate,
  authorization: string | undefined,
): Promise<RequestAuth> {
  return authenticate(authorization).catch((error: unknown) => {
    // grafserv would answer any other error here as "Parsing failed" (400).
    if (isConnectionError(error)) {
      throw userError(SERVICE_UNAVAILABLE.message, SERVICE_UNAVAILABLE.code, {
        statusCode: 503,
        retryAfter: RETRY_AFTER_SECONDS,
      });
    }
    throw error;
  });
}

export function makeRequireApiTokenPlugin(authenticate: Authenticate): GraphileConfig.Plugin {
  return {
    name: "RequireApiTokenPlugin",
    version: "1.0.0",
    description:
      "Authenticates the Bearer value (API token or user access token) and answers 401 to public reads without a valid API token.",
    schema: {
      hooks: {
        GraphQLObjectType_fields_field(field, build, { scope }) {
          if (!scope.isRootQuery) return field;
          if (scope.isUserTokenField || rootQueryFunction(build, scope)?.extensions?.tags?.userToken) {
            userTokenFields.add(scope.fieldName);
          }
          return field;
        },
      },
    },
    grafserv: {
      middleware: {
        async processGraphQLRequestBody(next, event) {
          const webSocket = event.graphqlWsContext;
          const req =
            event.request?.requestContext.node?.req ??
            (webSocket?.extra as { request?: IncomingMessage } | undefined)?.request;
          const authorization = webSocket
            ? webSocketAuthorization(webSocket)
            : event.request?.getHeader("authorization");
          const auth = await authenticateOrUnavailable(authenticate, authorization);
          if (req) rememberAuth(req, auth);
          guardOperation(auth, event.body, webSocket ? "websocket" : "http");
          return next();
        },
      },
    },
  };
}
