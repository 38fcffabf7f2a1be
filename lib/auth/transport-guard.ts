// Spec section 5.3: every public read query needs a valid API token; without one the answer is
// HTTP 401 with a GraphQL error body. Under WEB_REQUIRE_SIGN_IN the web-client credential is no
// such token: it serves the auth operations only, and a public read with it is refused (403).
// Deny by default: every Query field needs a token except the account queries, which use the
// user's own access token, and introspection. Which fields those are, the schema says
// (plugins/require-api-token.ts tells this guard at each build); subscriptions need an API token
// too, and only the streams carry them.
//
// One guard per running API (service.ts), shared by its transports: grafserv's request-body
// middleware for HTTP and WebSocket (only there can it still choose an HTTP request's status) and
// the SSE handler (lib/http/graphql-sse.ts). The other way round (issue 44), an API token sent to
// an operation that needs a user's access token is told so by app_hidden.require_user_uuid itself.
import { parse, type DocumentNode } from "graphql";
import { isConnectionError, RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from "../db/availability.ts";
import { userError } from "../graphql/errors.ts";
import { pickOperation, rootQueryFields } from "../graphql/root-fields.ts";
import { RECEIVER_SCOPE } from "./api-tokens.ts";
import { RECEIVER_OPERATIONS_MESSAGE, receiverMayRun } from "./receiver-operations.ts";
import type { Authenticate, RequestAuth } from "./context.ts";

/** Where an operation arrived: subscriptions need a stream, and the streams carry nothing else. */
export type Transport = "http" | "websocket" | "sse";

const UNAUTHENTICATED_MESSAGES = {
  none: "This operation needs an API token: send Authorization: Bearer <API token>.",
  invalid: "The API token is not valid (unknown, revoked or expired).",
  user: "Public data needs an API token, not a user's access token: send Authorization: Bearer <API token>.",
} as const;

/**
 * Public reads the sign-in and registration screens make (whether e-mail leaves by SMTP or only the
 * log, issue 44), which the web-client credential may make under WEB_REQUIRE_SIGN_IN too.
 */
const SIGN_IN_SCREEN_READS = new Set(["installation"]);

const SIGN_IN_REQUIRED_MESSAGE =
  "This service's public data is for signed-in users (WEB_REQUIRE_SIGN_IN): the web-client credential serves " +
  "the auth operations only. Sign in and read with your own API token (createApiToken).";

export class TransportGuard {
  /** Query fields that take the user's access token (spec §4.1), as the current schema marks them. */
  private userTokenFields: ReadonlySet<string> = new Set();

  /** The schema's account queries, told by each build of the schema (it replaces the last one's). */
  learnUserTokenFields(fields: ReadonlySet<string>): void {
    this.userTokenFields = fields;
  }

  private needsApiToken(field: string): boolean {
    return !field.startsWith("__") && !this.userTokenFields.has(field);
  }

  /**
   * The checks every transport makes before an operation runs: subscriptions only over WebSocket
   * or SSE (and those carry nothing else, so HTTP's request budgets and 401s cannot be gone
   * around), an API token for every public read and every subscription. Throws the client's error.
   */
  guardOperation(auth: RequestAuth, body: { query?: unknown; operationName?: unknown }, transport: Transport): void {
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
    if (auth.kind === "apiToken" && auth.scopes.includes(RECEIVER_SCOPE) && !receiverMayRun(operation))
      throw userError(RECEIVER_OPERATIONS_MESSAGE, "FORBIDDEN", { statusCode: 403 });
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
    const reads = [...rootQueryFields(document, operation)].filter((field) => this.needsApiToken(field));
    if (type === "subscription" || reads.length > 0) {
      requireApiToken(auth, type !== "subscription" && reads.every((field) => SIGN_IN_SCREEN_READS.has(field)));
    }
  }
}

/**
 * Throws UNAUTHENTICATED (401) unless the request carries a valid API token, and FORBIDDEN (403)
 * when that token reads nothing: the web-client credential under WEB_REQUIRE_SIGN_IN (unless
 * `signInScreenRead`), or a receiver's token.
 */
export function requireApiToken(auth: RequestAuth, signInScreenRead = false): void {
  if (auth.kind !== "apiToken")
    throw userError(UNAUTHENTICATED_MESSAGES[auth.kind], "UNAUTHENTICATED", { statusCode: 401 });
  if (auth.scopes.includes(RECEIVER_SCOPE))
    throw userError(RECEIVER_OPERATIONS_MESSAGE, "FORBIDDEN", { statusCode: 403 });
  if (!auth.publicReads && !signInScreenRead)
    throw userError(SIGN_IN_REQUIRED_MESSAGE, "FORBIDDEN", { statusCode: 403 });
}

/** An authentication's result, with a lost database answered as 503 SERVICE_UNAVAILABLE. */
export async function orUnavailable(authentication: Promise<RequestAuth>): Promise<RequestAuth> {
  return authentication.catch((error: unknown) => {
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

/** authenticate, with a lost database answered as 503 SERVICE_UNAVAILABLE. */
export function authenticateOrUnavailable(
  authenticate: Authenticate,
  authorization: string | undefined,
): Promise<RequestAuth> {
  return orUnavailable(authenticate(authorization));
}
