// Requests the response cache has answered, recognized again before grafserv (issue 33). A poller
// sends the same bytes every time: the same GET URL, or the same POST body. The first time, grafserv
// parses and validates the document and the response cache's execute middleware makes its key
// (answers.ts); this index remembers which key those bytes led to, so the next time
// answers.ts can answer from the cache without grafserv's work per request.
//
// An entry says only where to look: the answer itself is the cache's, which drops it when its data
// changes. The index is bounded by the bytes its entries take (least recently used out), and keeps
// a hash of the request's bytes, not the bytes: a POST body may be 100 KB. An entry's size is
// counted from its strings (the key tail holds the variables, which a client chooses) plus a fixed
// share for the Map's slot and the objects; the headers are few distinct objects, shared.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** What the response cache needs to find a request's answer again. */
export interface KnownRequest {
  /** The response cache's key, less its environment part. */
  readonly keyTail: string;
  /** The answer is kept per environment: the key takes the token's. */
  readonly perEnvironment: boolean;
  /** The operation's metrics label (lib/graphql/operation-label.ts). */
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

/** What an entry costs beyond its strings: the Map's slot, the entry object, the hash's string header. */
const ENTRY_OVERHEAD_BYTES = 160;

/** The bytes an entry holds (V8 keeps a one-byte string's characters in a byte each, two-byte ones in two). */
function entryBytes(identity: string, request: KnownRequest): number {
  return ENTRY_OVERHEAD_BYTES + identity.length + 2 * (request.keyTail.length + request.operation.length);
}

export class KnownRequests {
  /** Insertion order is use order, as in the response cache. */
  private readonly entries = new Map<string, { request: KnownRequest; bytes: number }>();
  /** One object per distinct set of headers: every entry of a media type shares it. */
  private readonly sharedHeaders = new Map<string, Readonly<Record<string, string>>>();
  private readonly maxBytes: number;
  private bytes = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Bytes the entries take (a metric of the response cache's memory). */
  get bytesHeld(): number {
    return this.bytes;
  }

  remember(identity: string, request: KnownRequest): void {
    this.forget(identity);
    const headersKey = JSON.stringify(request.headers);
    let headers = this.sharedHeaders.get(headersKey);
    if (!headers) {
      headers = request.headers;
      // a client cannot choose the headers grafserv answers with, but bound them anyway
      if (this.sharedHeaders.size < 64) this.sharedHeaders.set(headersKey, headers);
    }
    const entry = { request: { ...request, headers }, bytes: entryBytes(identity, request) };
    this.entries.set(identity, entry);
    this.bytes += entry.bytes;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.forget(oldest);
    }
  }

  recall(identity: string): KnownRequest | undefined {
    const entry = this.entries.get(identity);
    if (!entry) return undefined;
    this.entries.delete(identity);
    this.entries.set(identity, entry);
    return entry.request;
  }

  private forget(identity: string): void {
    const entry = this.entries.get(identity);
    if (!entry) return;
    this.entries.delete(identity);
    this.bytes -= entry.bytes;
  }
}
