// A local HTTP server standing in for a webhook target (or an SMS / Telegram provider API, or,
// over TLS, a Web Push service): it keeps every request it receives and answers with a
// programmable status after a delay.
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { waitUntil } from "./wait.ts";

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body's bytes (an encrypted push message is no text). */
  raw: Buffer;
}

export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** How the next requests are answered: `status`, or the status set for the request's path. */
  respondWith: { status: number; delayMs: number; statusByPath: Map<string, number> };
  /** Waits until `count` requests match, and returns them. */
  waitFor(match: (request: ReceivedRequest) => boolean, count?: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  stop(): Promise<void>;
}

/**
 * `host` and `port`: where to listen (default 127.0.0.1, any free port); `tls`: serve https with
 * this key and certificate (the client must trust it).
 */
export async function startWebhookReceiver(
  options: { host?: string; port?: number; tls?: { key: string; cert: string } } = {},
): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const respondWith = { status: 200, delayMs: 0, statusByPath: new Map<string, number>() };
  const handle: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      requests.push({ path: req.url ?? "", headers: req.headers, body: raw.toString("utf8"), raw });
      const status = respondWith.statusByPath.get(req.url ?? "") ?? respondWith.status;
      const { delayMs } = respondWith;
      setTimeout(() => res.writeHead(status, { "content-type": "application/json" }).end('{"ok":true}'), delayMs);
    });
  };
  const server = options.tls ? https.createServer(options.tls, handle) : http.createServer(handle);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? "https" : "http"}://${host}:${port}`,
    requests,
    respondWith,
    waitFor(match, count = 1, timeoutMs = 15_000) {
      return waitUntil(
        () => requests.filter(match),
        (found) => found.length >= count,
        `${count} matching requests`,
        timeoutMs,
      );
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
