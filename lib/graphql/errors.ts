// What a client sees when something goes wrong. Our own errors (SQLSTATEs of class "X" raised in
// SQL, or SafeErrors thrown in plugins) reach the client with a stable extensions.code. Anything
// else - a bug, a SQL error, a lost connection - is replaced by "Internal error" and a log id, and
// logged with its stack, so no SQL, table name or stack trace ever leaves the server.
import { randomBytes } from "node:crypto";
import { GraphQLError } from "graphql";
import { isSafeError, SafeError } from "grafast";
import { isConnectionError, RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from "../db/availability.ts";
import { log } from "../ops/log.ts";

/** SQLSTATE raised by our SQL functions → extensions.code. Keep in step with migrations' header. */
export const SQLSTATE_CODES: Record<string, string> = {
  XINPT: "BAD_USER_INPUT",
  XNOTF: "NOT_FOUND",
  XAUTH: "UNAUTHENTICATED",
  XFORB: "FORBIDDEN",
  XCONF: "CONFLICT",
  XRATE: "RATE_LIMITED",
};

/** PostgreSQL's own errors that mean something to a client, with our own wording. */
const POSTGRES_ERRORS: Record<string, { code: string; message: string }> = {
  "57014": { code: "TIMEOUT", message: "The query took too long and was cancelled; narrow it down." },
  // The database's disk is full: nothing was stored, and the client may try again later (HTTP 503,
  // plugins/graphql-error-codes.ts); PostgreSQL's log tells the operator.
  "53100": { code: SERVICE_UNAVAILABLE.code, message: "The database has no room to store this now; try again later." },
  "42501": { code: "FORBIDDEN", message: "You are not allowed to do this." },
  // Class 22, data exceptions: an argument PostgreSQL cannot take (plugins/input-guard.ts names
  // the argument for text; these are what reaches the database, such as a year 99999).
  "22001": { code: "BAD_USER_INPUT", message: "A text argument is too long." },
  "22003": { code: "BAD_USER_INPUT", message: "A number argument is out of range." },
  "22007": { code: "BAD_USER_INPUT", message: "A date or time argument is malformed." },
  "22008": { code: "BAD_USER_INPUT", message: "A date or time argument is out of range." },
  "22P02": { code: "BAD_USER_INPUT", message: "An argument is malformed." },
  "22021": { code: "BAD_USER_INPUT", message: "A text argument has a character that cannot be stored." },
  "22P05": { code: "BAD_USER_INPUT", message: "A text argument has a character that cannot be stored." },
  "2201B": { code: "BAD_USER_INPUT", message: "A pattern argument is not a valid regular expression." },
  "22009": { code: "BAD_USER_INPUT", message: "A date or time argument has a time zone offset out of range." },
  "22023": {
    code: "BAD_USER_INPUT",
    message: "An argument has a value PostgreSQL does not recognise (such as an unknown time zone).",
  },
};

/** Any other data exception (class 22) is the client's input too, in words of our own. */
const OTHER_DATA_EXCEPTION = { code: "BAD_USER_INPUT", message: "An argument has a value that cannot be used." };

export function userError(message: string, code: string, extra: Record<string, unknown> = {}): SafeError {
  return new SafeError(message, { code, ...extra });
}

export interface PublicError {
  message: string;
  extensions: Record<string, unknown> & { code: string };
}

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** What a client may learn about an error thrown by our code or the database. */
export function describeError(error: unknown, where?: string): PublicError {
  if (error instanceof Error && isSafeError(error)) {
    return { message: error.message, extensions: { code: "BAD_USER_INPUT", ...error.extensions } };
  }
  // The database went away under the request: the client may retry (HTTP 503, see
  // plugins/graphql-error-codes.ts), and nothing of the outage's cause is its business.
  if (isConnectionError(error)) {
    return {
      message: SERVICE_UNAVAILABLE.message,
      extensions: { code: SERVICE_UNAVAILABLE.code, retryAfter: RETRY_AFTER_SECONDS },
    };
  }
  const state = sqlState(error);
  if (state && SQLSTATE_CODES[state]) {
    return { message: (error as Error).message, extensions: { code: SQLSTATE_CODES[state] } };
  }
  const known = state && (POSTGRES_ERRORS[state] ?? (state.startsWith("22") ? OTHER_DATA_EXCEPTION : undefined));
  if (known) {
    return { message: known.message, extensions: { code: known.code } };
  }
  const logId = randomBytes(6).toString("hex");
  log.error(`[error ${logId}] ${where ? `at ${where}: ` : ""}${(error as Error)?.message ?? String(error)}`, {
    logId,
    stack: (error as Error)?.stack,
  });
  return { message: `Internal error (log id ${logId}).`, extensions: { code: "INTERNAL_SERVER_ERROR", logId } };
}

/** The code of one of GraphQL's own errors (syntax, validation, variable coercion). */
export function graphQLErrorCode(message: string): string {
  return message.startsWith("Syntax Error") ? "GRAPHQL_PARSE_FAILED" : "GRAPHQL_VALIDATION_FAILED";
}

export function maskError(error: GraphQLError): GraphQLError {
  const original = error.originalError;
  const { message, extensions } =
    !original || original instanceof GraphQLError
      ? { message: error.message, extensions: { code: graphQLErrorCode(error.message), ...error.extensions } }
      : describeError(original, error.path?.join("."));
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions,
  });
}
