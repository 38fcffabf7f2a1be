// The WebSocket transport (graphql-transport-ws on /graphql): grafserv's graphql-ws server as its
// node adaptor makes it (grafserv's GraphQL over WebSocket config, its keep-alive pings), except
// that a result many subscribers share is serialised once, not once per socket. Identical
// subscriptions share one execution and get the same result object
// (plugins/subscription-guard.ts); graphql-ws would still JSON.stringify it for every socket, and
// with 10,000 viewers of the map that took more of the service's core than writing the frames did
// (issue 47). Here graphql-ws serialises a small stand-in for the payload, and the frame is made
// from the result's kept serialisation as it is sent. What reaches the client is byte for byte what
// graphql-ws would have sent.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { makeGraphQLWSConfig, type GrafservBase } from "grafserv";
import { CloseCode, makeServer } from "graphql-ws";
import { WebSocketServer, type WebSocket } from "ws";

/** What graphql-ws's context carries for each socket: grafserv's config reads `socket` and `request`. */
interface SocketExtra {
  socket: WebSocket;
  request: IncomingMessage;
  /** Each subscription's next payload (its id's), serialised, until its frame is sent. */
  payloads: Map<string, string>;
}

/**
 * The payload graphql-ws serialises in place of a shared result, and how a next frame carrying it
 * begins and ends: graphql-ws writes a next message as {"id":…,"type":"next","payload":…}.
 */
const STAND_IN = { sharedPayload: true } as const;
const NEXT_START = `{"id":`;
const NEXT_PAYLOAD = `,"type":"next","payload":`;
const STAND_IN_NEXT_ENDING = `${NEXT_PAYLOAD}${JSON.stringify(STAND_IN)}}`;

/** Each shared result's serialisation, made by the first socket that sends it. */
const serialised = new WeakMap<object, string>();
function serialiseOnce(result: object): string {
  let json = serialised.get(result);
  if (json === undefined) serialised.set(result, (json = JSON.stringify(result)));
  return json;
}

/**
 * A next frame with the stand-in as payload, made whole with the payload its subscription left.
 * Only a next frame of a subscription that left one: a client's ping may carry any payload, the
 * stand-in's too, and its pong echoes it.
 */
export function wholeFrame(frame: string, payloads: Map<string, string>): string {
  if (!frame.startsWith(NEXT_START) || !frame.endsWith(STAND_IN_NEXT_ENDING)) return frame;
  // Only the id (a JSON string) is read, not the frame: this runs for every subscriber and event.
  const idJson = frame.slice(NEXT_START.length, -STAND_IN_NEXT_ENDING.length);
  const id: unknown = JSON.parse(idJson);
  const payload = typeof id === "string" ? payloads.get(id) : undefined;
  if (payload === undefined) return frame;
  payloads.delete(id as string);
  return `${NEXT_START}${idJson}${NEXT_PAYLOAD}${payload}}`;
}

/** Pings each socket every `keepaliveMs` and closes one that has not answered the last ping by the next. */
function keepAlive(socket: WebSocket, keepaliveMs: number): void {
  if (!Number.isFinite(keepaliveMs) || keepaliveMs <= 0) return;
  let answered = true;
  const timer = setInterval(() => {
    if (!answered) {
      socket.terminate();
      return;
    }
    answered = false;
    socket.ping();
  }, keepaliveMs);
  socket.on("pong", () => (answered = true));
  socket.once("close", () => clearInterval(timer));
}

/** The upgrade handler for /graphql's WebSockets (service.ts checks the path and the outage first). */
export function makeGraphqlWsUpgradeHandler(instance: GrafservBase) {
  const config = makeGraphQLWSConfig(instance);
  const graphqlWs = makeServer<Record<string, unknown> | undefined, SocketExtra>({
    ...config,
    // Not async: graphql-ws awaits what it answers, and for a shared result there is nothing to
    // wait for (a promise of its own per subscriber and event would be).
    onNext(ctx, id, payload, args, result) {
      // grafserv's own onNext masks a result's errors: such a result is the subscriber's own.
      const own = config.onNext?.(ctx, id, payload, args, result);
      if (own || result.errors) return own;
      ctx.extra.payloads.set(id, serialiseOnce(result));
      return STAND_IN as unknown as typeof result;
    },
  });
  const keepaliveMs = instance.getPreset().grafserv?.websocketKeepalive ?? 12_000;
  const sockets = new WebSocketServer({ noServer: true });
  return (req: IncomingMessage, stream: Duplex, head: Buffer) =>
    sockets.handleUpgrade(req, stream, head, (socket) => {
      // A frame ws cannot read (a bad opcode, invalid UTF-8, too large) is an 'error' on the
      // socket; unheard, it would end the process.
      socket.on("error", () => socket.terminate());
      keepAlive(socket, keepaliveMs);
      const extra: SocketExtra = { socket, request: req, payloads: new Map() };
      const closed = graphqlWs.opened(
        {
          protocol: socket.protocol,
          send: (frame) =>
            new Promise<void>((resolve, reject) =>
              socket.send(wholeFrame(frame, extra.payloads), (error) => (error ? reject(error) : resolve())),
            ),
          close: (code, reason) => socket.close(code, reason),
          onMessage: (handle) =>
            socket.on("message", async (data) => {
              try {
                await handle(String(data));
              } catch {
                // An error graphql-ws did not turn into a message ends the connection, as grafserv's
                // does, without its text (which is the service's, and may be too long for a reason).
                socket.close(CloseCode.InternalServerError, "Internal server error");
              }
            }),
        },
        extra,
      );
      socket.once("close", (code, reason) => void closed(code, String(reason)));
    });
}
