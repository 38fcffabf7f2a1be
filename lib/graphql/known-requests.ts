// Requests the response cache has answered, recognized again before grafserv (issue 33). A poller
// sends the same bytes every time: the same GET URL, or the same POST body. The first time, grafserv
// parses and validates the document and the response cache's execute middleware makes its key
// (plugins/response-cache.ts); this index remembers which key those bytes led to, so the next time
// lib/http/cached-answers.ts can answer from the cache without grafserv's work per request.
//
// An entry says only where to look: the answer itself is the cache's, which drops it when its data
// changes. The index is bounded by its number of entries (least recently used out), and keeps a
// hash of the request's bytes, not the bytes: a POST body may be 100 KB.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** What the response cache needs to find a request's answer again. */
export interface KnownRequest {
  /** The response cache's key, less its environment part. */
  readonly keyTail: string;
  /** The answer is kept per environment: the key takes the token's. */
  readonly perEnvironment: boolean;
  /** The operation's metrics label (plugins/graphql-metrics.ts). */
  readonly operation: string;
  /** The 200 answer's headers other than its length and caching headers: its media type, chosen by the Accept header. */
  readonly headers: Readonly<Record<string, string>>;
}

/** The response cache's key: the environment ("" for an answer shared by all) and the rest. */
export function cacheKey(environment: string, keyTail: string): string {
  return `${environment}\u0000${keyTail}`;
}

/**
 * What makes two requests the same to grafserv: method, Accept and the URL (GET) or the JSON body
 * and its Content-Type (POST). Undefined for a request the index does not take (other methods,
 * a POST whose body was not read before grafserv, other media types).
 */
export function requestIdentity(req: IncomingMessage, body: Buffer | undefined): string | undefined {
  const accept = req.headers.accept ?? "";
  if (req.method === "GET") return hashOf(["GET", accept, req.url ?? ""]);
  const contentType = req.headers["content-type"] ?? "";
  if (req.method === "POST" && body && contentType.toLowerCase().startsWith("application/json")) {
    return hashOf(["POST", accept, contentType], body);
  }
  return undefined;
}

function hashOf(parts: string[], body?: Buffer): string {
  const hash = createHash("sha256").update(parts.join("\u0000"));
  if (body) hash.update("\u0000").update(body);
  return hash.digest("base64url");
}

export class KnownRequests {
  /** Insertion order is use order, as in the response cache. */
  private readonly entries = new Map<string, KnownRequest>();

  private readonly maxEntries: number;

  constructor(maxEntries: number) {
    this.maxEntries = maxEntries;
  }

  remember(identity: string, request: KnownRequest): void {
    this.entries.delete(identity);
    this.entries.set(identity, request);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  recall(identity: string): KnownRequest | undefined {
    const request = this.entries.get(identity);
    if (request) {
      this.entries.delete(identity);
      this.entries.set(identity, request);
    }
    return request;
  }
}
