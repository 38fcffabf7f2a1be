// A local HTTP server standing in for the APIs of push and chat services (ntfy, Pushover, Gotify,
// Discord, Slack): it keeps every request (method, path, headers, body) and answers each path
// prefix as programmed, by default as that service documents a success.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { waitUntil } from "./wait.ts";

export interface ApiRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface ApiAnswer {
  status: number;
  contentType?: string;
  body?: string;
}

export interface ApiReceiver {
  url: string;
  requests: ApiRequest[];
  /** How requests whose path starts with the key are answered; the longest matching key wins. */
  answers: Map<string, ApiAnswer>;
  /** The requests whose path starts with `prefix`. */
  at(prefix: string): ApiRequest[];
  /** Waits until `count` requests have come to paths starting with `prefix`, and returns them. */
  waitFor(prefix: string, count?: number, timeoutMs?: number): Promise<ApiRequest[]>;
  stop(): Promise<void>;
}

export async function startApiReceiver(): Promise<ApiReceiver> {
  const requests: ApiRequest[] = [];
  const answers = new Map<string, ApiAnswer>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "";
      requests.push({ method: req.method ?? "", path, headers: req.headers, body: Buffer.concat(chunks).toString() });
      const key = [...answers.keys()]
        .filter((prefix) => path.startsWith(prefix))
        .sort((a, b) => b.length - a.length)[0];
      const answer = key === undefined ? { status: 404, body: "no such path" } : answers.get(key)!;
      res.writeHead(answer.status, answer.contentType ? { "content-type": answer.contentType } : {});
      res.end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const at = (prefix: string) => requests.filter((r) => r.path.startsWith(prefix));
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answers,
    at,
    waitFor: (prefix, count = 1, timeoutMs = 15_000) =>
      waitUntil(
        () => at(prefix),
        (found) => found.length >= count,
        `${count} requests to ${prefix}`,
        timeoutMs,
      ),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
