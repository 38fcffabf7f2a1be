// A local HTTP server standing in for a webhook target (or an SMS / Telegram provider API): it
// keeps every request it receives and answers with a programmable status after a delay.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { waitUntil } from "./wait.ts";

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** How the next requests are answered. */
  respondWith: { status: number; delayMs: number };
  /** Waits until `count` requests match, and returns them. */
  waitFor(match: (request: ReceivedRequest) => boolean, count?: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  stop(): Promise<void>;
}

/** `host` and `port`: where to listen (default 127.0.0.1, any free port). */
export async function startWebhookReceiver(listen: { host?: string; port?: number } = {}): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const respondWith = { status: 200, delayMs: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const { status, delayMs } = respondWith;
      setTimeout(() => res.writeHead(status, { "content-type": "application/json" }).end('{"ok":true}'), delayMs);
    });
  });
  const host = listen.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
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
