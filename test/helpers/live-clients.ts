// Subscribers as clients make them: the `graphql-ws` client over a real WebSocket and the
// `graphql-sse` client over real HTTP, both against a running service. A watch collects what
// arrives until it is stopped or the server ends it.
import { createClient as createWsClient, type Client as WsClient } from "graphql-ws";
import { createClient as createSseClient } from "graphql-sse";
import WebSocket from "ws";
import { waitUntil } from "./wait.ts";

export type Transport = "websocket" | "sse";

export interface Watch {
  /** The `data` of every event, in order. */
  events: Array<Record<string, any>>;
  /** Errors the server sent (in an event or as the operation's refusal), each { message, code, retryAfter }. */
  errors: Array<{ message: string; code: unknown; retryAfter?: unknown }>;
  /** True once the server ended the subscription (completed it or refused it). */
  ended: boolean;
  stop(): Promise<void>;
}

interface WatchOptions {
  token?: string;
  query: string;
  variables?: Record<string, unknown>;
  /** SSE: where the client connects (default the /graphql/stream alias), and in which mode. */
  sseUrl?: string;
  singleConnection?: boolean;
  /** More headers of the HTTP request (the WebSocket's upgrade request), e.g. X-Forwarded-For. */
  headers?: Record<string, string>;
}

/** One WebSocket with its token in connection_init, as graphql-ws sends it. */
export function webSocketClient(
  graphqlUrl: string,
  token: string | undefined,
  headers: Record<string, string> = {},
): WsClient {
  return createWsClient({
    url: graphqlUrl.replace(/^http/, "ws"),
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers });
      }
    },
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
}

export function watch(transport: Transport, graphqlUrl: string, options: WatchOptions): Watch {
  const ws = transport === "websocket" ? webSocketClient(graphqlUrl, options.token, options.headers) : undefined;
  const sse =
    transport === "sse"
      ? createSseClient({
          url: options.sseUrl ?? `${graphqlUrl}/stream`,
          headers: { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
          singleConnection: options.singleConnection,
          retryAttempts: 0,
        })
      : undefined;
  const iterator = (
    ws
      ? ws.iterate({ query: options.query, variables: options.variables })
      : sse!.iterate({ query: options.query, variables: options.variables })
  ) as AsyncIterableIterator<{ data?: any; errors?: any[] }>;
  const result: Watch = {
    events: [],
    errors: [],
    ended: false,
    async stop() {
      await iterator.return?.();
      await ws?.dispose();
      sse?.dispose();
    },
  };
  const record = (error: any) => {
    for (const e of Array.isArray(error) ? error : (error?.errors ?? [error])) {
      result.errors.push({
        message: e?.message ?? String(e),
        code: e?.extensions?.code,
        retryAfter: e?.extensions?.retryAfter,
      });
    }
  };
  void (async () => {
    try {
      for await (const event of iterator) {
        if (event.errors) record(event.errors);
        if (event.data) result.events.push(event.data);
      }
    } catch (error) {
      // graphql-sse refuses with the response (its body's errors); graphql-ws with the errors.
      const body = (error as { response?: Response })?.response;
      if (body) record(await body.json().catch(() => ({ message: String(error) })));
      else record(error);
    } finally {
      result.ended = true;
    }
  })();
  return result;
}

/**
 * Waits until a subscription hears the database (its LISTEN is set up after it is accepted):
 * `probe` stores something the subscription pushes, again and again until `heard` (the count of
 * events so far, a Watch's or a browser page's) is above zero, and a moment more for a probe still
 * under way. The caller then forgets what arrived.
 */
export async function untilHeard(
  heard: () => number | Promise<number>,
  probe: () => Promise<unknown>,
  timeoutMs = 20_000,
): Promise<void> {
  await waitUntil(
    async () => {
      const count = await heard();
      if (count === 0) await probe();
      return count;
    },
    (count) => count > 0,
    "the subscription to hear its first event",
    timeoutMs,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
}
