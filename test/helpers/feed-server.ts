// A local HTTP server standing in for an upstream feed: each path serves a document that a test
// sets (or changes, or breaks), with an ETag, answering 304 to a matching If-None-Match.
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FeedDocument {
  status?: number;
  /** Where a redirect (status 3xx) points. */
  location?: string;
  body: string | Buffer;
  contentType?: string;
  /** More response headers (e.g. CORS for a document a browser fetches). */
  headers?: Record<string, string>;
}

export interface FeedServer {
  url: string;
  /** What each path serves; unknown paths answer 404. */
  documents: Map<string, FeedDocument>;
  /** Every request: path, whether it was conditional, and whether it carried an Authorization header. */
  requests: Array<{ path: string; conditional: boolean; authorized: boolean }>;
  /** The headers of every request, in the same order. */
  requestHeaders: http.IncomingHttpHeaders[];
  stop(): Promise<void>;
}

/** `host` and `port`: where to listen (default 127.0.0.1, any free port). */
export async function startFeedServer(listen: { host?: string; port?: number } = {}): Promise<FeedServer> {
  const documents = new Map<string, FeedDocument>();
  const requests: FeedServer["requests"] = [];
  const requestHeaders: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    requests.push({
      path,
      conditional: req.headers["if-none-match"] !== undefined,
      authorized: req.headers.authorization !== undefined,
    });
    requestHeaders.push(req.headers);
    const document = documents.get(path);
    if (!document) return void res.writeHead(404).end("not found");
    const etag = `"${createHash("sha1").update(document.body).digest("hex")}"`;
    if ((document.status ?? 200) === 200 && req.headers["if-none-match"] === etag) return void res.writeHead(304).end();
    res
      .writeHead(document.status ?? 200, {
        "content-type": document.contentType ?? "application/octet-stream",
        etag,
        ...(document.location ? { location: document.location } : {}),
        ...document.headers,
      })
      .end(document.body);
  });
  const host = listen.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    documents,
    requests,
    requestHeaders,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
