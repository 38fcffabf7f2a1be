// Subscriptions over Server-Sent Events in the graphql-sse protocol (the `graphql-sse` library's
// handler; both its modes: a stream per operation, or one reserved stream with a token), on
// /graphql itself by content negotiation (isGraphqlSseRequest) and at /graphql/stream, the older
// address, kept as an alias. grafserv serves WebSockets but not this protocol, so the handler runs
// grafast the way grafserv's WebSocket side does: grafserv's execution config (schema, context,
// middleware), grafast's hookArgs and subscribe. Auth is the Authorization header, checked per
// operation by `guard` (API token required; subscriptions only).
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { hookArgs, isSafeError } from "grafast";
import { GraphQLError, type ExecutionResult } from "graphql";
import { TOKEN_HEADER_KEY, TOKEN_QUERY_KEY } from "graphql-sse";
import { createHandler } from "graphql-sse/lib/use/http";
import type { NodeGrafserv } from "postgraphile/grafserv/node";
import type { RequestAuth } from "../auth/context.ts";
import { rememberAuth } from "../auth/context.ts";
import { describeError, maskError } from "../graphql/errors.ts";
import { GRAPHQL_PATH, GRAPHQL_SSE_PATH } from "../paths.ts";
import { PAYLOAD_TOO_LARGE, refuse } from "./refusals.ts";

/** The largest GraphQL request body, over HTTP (grafserv's maxRequestLength) as over SSE. */
export const MAX_GRAPHQL_BODY_BYTES = 100_000;

/**
 * The methods of /graphql: GET and POST are GraphQL over HTTP and graphql-sse; PUT and DELETE are
 * graphql-sse's single connection mode only (isGraphqlSseRequest). OPTIONS is CORS's.
 */
export const GRAPHQL_METHODS: readonly string[] = ["GET", "POST", "PUT", "DELETE"];
/** The header of the single connection mode's reservation token. */
export const GRAPHQL_SSE_TOKEN_HEADER = TOKEN_HEADER_KEY;
const EVENT_STREAM = "text/event-stream";
const JSON_TYPES = new Set(["application/json", "application/graphql-response+json"]);

/**
 * True when the Accept header names text/event-stream and prefers it to the JSON types GraphQL
 * over HTTP answers with: a higher q, or the same q and listed first. Wildcards never count, so a
 * client that takes any type, or any text, stays with GraphQL over HTTP.
 */
export function prefersEventStream(accept: string | undefined): boolean {
  if (!accept) return false;
  let stream: { q: number; index: number } | undefined;
  let json: { q: number; index: number } | undefined;
  accept.split(",").forEach((range, index) => {
    const [type, ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    const qParam = params.find((param) => param.startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q)) return;
    if (type === EVENT_STREAM && (!stream || q > stream.q)) stream = { q, index };
    if (JSON_TYPES.has(type) && (!json || q > json.q)) json = { q, index };
  });
  if (!stream || stream.q <= 0) return false;
  return !json || stream.q > json.q || (stream.q === json.q && stream.index < json.index);
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/**
 * Whether a request is graphql-sse's. At /graphql/stream all are. At /graphql: one that asks for
 * an event stream (a distinct connection's operation, GET or POST, or the single connection's
 * stream, GET); one that carries a reservation token (the single connection mode's operations,
 * POST, and their stops, DELETE); and a PUT without a body (a reservation). Everything else at
 * /graphql is GraphQL over HTTP: a GET with a query string stays a query.
 */
export function isGraphqlSseRequest(req: IncomingMessage): boolean {
  const [path, search] = (req.url ?? "").split("?", 2);
  if (path === GRAPHQL_SSE_PATH) return true;
  if (path !== GRAPHQL_PATH) return false;
  const method = req.method ?? "GET";
  if ((method === "GET" || method === "POST") && prefersEventStream(req.headers.accept)) return true;
  // The protocol lets the token travel in the URL too; a GET's URL is GraphQL's own, so not there.
  const token =
    req.headers[GRAPHQL_SSE_TOKEN_HEADER] !== undefined ||
    (method !== "GET" && new URLSearchParams(search).has(TOKEN_QUERY_KEY));
  if (token && GRAPHQL_METHODS.includes(method)) return true;
  return method === "PUT" && !hasBody(req);
}

/** What the handler needs of grafserv: its execution config and grafast middleware. */
export type GrafservExecution = Pick<NodeGrafserv, "getExecutionConfig" | "grafastMiddleware">;

interface SseOptions {
  serv: GrafservExecution;
  authenticate(authorization: string | undefined): Promise<RequestAuth>;
  /** Throws the client's error when the operation may not run (see guardOperation). */
  guard(auth: RequestAuth, body: { query?: unknown; operationName?: unknown }): void;
  /** Throws the client's error when the request may not reserve a single connection's stream. */
  guardReservation(auth: RequestAuth): void;
}

type SseRefusal = [string, { status: number; statusText: string; headers: Record<string, string> }];

/** An error as a graphql-sse refusal: the HTTP status our errors carry, the usual JSON body. */
function refusal(error: unknown): SseRefusal {
  const { message, extensions } = describeError(error);
  const status = isSafeError(error as Error)
    ? Number((error as { extensions?: { statusCode?: number } }).extensions?.statusCode ?? 400)
    : 500;
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (extensions.retryAfter !== undefined) headers["retry-after"] = String(extensions.retryAfter);
  const { statusCode: _status, retryAfter: _retry, ...shown } = extensions;
  return [JSON.stringify({ errors: [{ message, extensions: shown }] }), { status, statusText: "Refused", headers }];
}

export function makeGraphqlSseHandler(
  options: SseOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const handle = createHandler({
    // The library's own rule (the request's stream token, else a new one), except that a
    // reservation (PUT) needs an API token: the library keeps each one in memory until its stream
    // connects, so anonymous ones would be a way to fill it.
    async authenticate(req) {
      const raw = req.raw;
      if (raw.method === "PUT") {
        try {
          options.guardReservation(await options.authenticate(raw.headers.authorization));
        } catch (error) {
          return refusal(error);
        }
      }
      const token = raw.headers[GRAPHQL_SSE_TOKEN_HEADER];
      const fromUrl = new URL(raw.url ?? "/", "http://localhost").searchParams.get(TOKEN_QUERY_KEY);
      return (typeof token === "string" ? token : null) ?? fromUrl ?? randomUUID();
    },
    async onSubscribe(req, params) {
      const raw = req.raw;
      let auth: RequestAuth;
      try {
        auth = await options.authenticate(raw.headers.authorization);
        options.guard(auth, params);
      } catch (error) {
        return refusal(error);
      }
      rememberAuth(raw, auth);
      const requestContext = { node: { req: raw, res: req.context.res } } as Partial<Grafast.RequestContext>;
      const config = await options.serv.getExecutionConfig(requestContext);
      const { errors, document } = config.parseAndValidate(params.query);
      if (errors !== undefined)
        return [
          JSON.stringify({ errors: errors.map(maskError) }),
          { status: 400, statusText: "Bad Request", headers: { "content-type": "application/json; charset=utf-8" } },
        ];
      const args = {
        schema: config.schema,
        document,
        rootValue: null,
        contextValue: config.contextValue,
        variableValues: params.variables,
        operationName: params.operationName,
        resolvedPreset: config.resolvedPreset,
        requestContext,
        middleware: options.serv.grafastMiddleware,
      };
      await hookArgs(args as Parameters<typeof hookArgs>[0]);
      return { ...args, execute: config.execute, subscribe: config.subscribe } as never;
    },
    execute: (args) => (args as unknown as { execute(a: unknown): ExecutionResult }).execute(args),
    subscribe: (args) =>
      (args as unknown as { subscribe(a: unknown): AsyncIterableIterator<ExecutionResult> }).subscribe(args),
    onNext(_ctx, _req, result) {
      if (result.errors)
        return { ...result, errors: result.errors.map((error) => maskError(error as GraphQLError)) } as ExecutionResult;
    },
  });
  return (req, res) => {
    // The library reads a body whole without a limit, so it gets only bodies of a declared length
    // within ours (every graphql-sse client sends one: its bodies are strings).
    if (Number(req.headers["content-length"] ?? 0) > MAX_GRAPHQL_BODY_BYTES) {
      refuse(res, 413, `The request body is larger than ${MAX_GRAPHQL_BODY_BYTES} bytes.`, PAYLOAD_TOO_LARGE);
      return Promise.resolve();
    }
    if (req.headers["transfer-encoding"] !== undefined && req.headers["content-length"] === undefined) {
      refuse(res, 411, "Send the request body with a Content-Length.", "LENGTH_REQUIRED");
      return Promise.resolve();
    }
    // The library knows an event stream request by an Accept of exactly text/event-stream; one
    // that prefers it among others (see prefersEventStream) is the same request to us.
    const accept = req.headers.accept;
    if (accept !== EVENT_STREAM && prefersEventStream(accept)) req.headers.accept = EVENT_STREAM;
    return handle(req, res);
  };
}
