// Subscriptions over Server-Sent Events at /graphql/stream, in the graphql-sse protocol (the
// `graphql-sse` library's handler; both its modes: a stream per operation, or one reserved
// stream with a token). grafserv serves WebSockets but not this protocol, so the handler runs
// grafast the way grafserv's WebSocket side does: grafserv's execution config (schema, context,
// middleware), grafast's hookArgs and subscribe. Auth is the Authorization header, checked per
// operation by `guard` (API token required; subscriptions only).
import type { IncomingMessage, ServerResponse } from "node:http";
import { hookArgs, isSafeError } from "grafast";
import { GraphQLError, type ExecutionResult } from "graphql";
import { createHandler } from "graphql-sse/lib/use/http";
import type { NodeGrafserv } from "postgraphile/grafserv/node";
import type { RequestAuth } from "../auth/context.ts";
import { rememberAuth } from "../auth/context.ts";
import { describeError, maskError } from "../graphql/errors.ts";

export const GRAPHQL_SSE_PATH = "/graphql/stream";

/** What the handler needs of grafserv: its execution config and grafast middleware. */
export type GrafservExecution = Pick<NodeGrafserv, "getExecutionConfig" | "grafastMiddleware">;

interface SseOptions {
  serv: GrafservExecution;
  authenticate(authorization: string | undefined): Promise<RequestAuth>;
  /** Throws the client's error when the operation may not run (see guardOperation). */
  guard(auth: RequestAuth, body: { query?: unknown; operationName?: unknown }): void;
}

type SseRefusal = [string, { status: number; statusText: string; headers: Record<string, string> }];

/** An error as a graphql-sse refusal: the HTTP status our errors carry, the usual JSON body. */
function refusal(error: unknown): SseRefusal {
  const { message, extensions } = describeError(error);
  const status = isSafeError(error as Error) ? Number((error as { extensions?: { statusCode?: number } }).extensions?.statusCode ?? 400) : 500;
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (extensions.retryAfter !== undefined) headers["retry-after"] = String(extensions.retryAfter);
  const { statusCode: _status, retryAfter: _retry, ...shown } = extensions;
  return [JSON.stringify({ errors: [{ message, extensions: shown }] }), { status, statusText: "Refused", headers }];
}

export function makeGraphqlSseHandler(options: SseOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const handler = createHandler({
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
      if (errors !== undefined) return [JSON.stringify({ errors: errors.map(maskError) }), { status: 400, statusText: "Bad Request", headers: { "content-type": "application/json; charset=utf-8" } }];
      const args = {
        schema: config.schema, document, rootValue: null, contextValue: config.contextValue,
        variableValues: params.variables, operationName: params.operationName,
        resolvedPreset: config.resolvedPreset, requestContext, middleware: options.serv.grafastMiddleware,
      };
      await hookArgs(args as Parameters<typeof hookArgs>[0]);
      return { ...args, execute: config.execute, subscribe: config.subscribe } as never;
    },
    execute: (args) => (args as unknown as { execute(a: unknown): ExecutionResult }).execute(args),
    subscribe: (args) => (args as unknown as { subscribe(a: unknown): AsyncIterableIterator<ExecutionResult> }).subscribe(args),
    onNext(_ctx, _req, result) {
      if (result.errors) return { ...result, errors: result.errors.map((error) => maskError(error as GraphQLError)) } as ExecutionResult;
    },
  });
  return handler;
}
