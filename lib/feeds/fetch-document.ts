// One download of an upstream document for a feed poller: a deadline, a size limit, a few
// redirects at most (never from https to http, and credentials and validators only to the origin
// they were meant for), a conditional request (ETag / Last-Modified of the last good answer), and
// gzip undone whether the server or the file applied it. Every hop goes through the outbound guard
// (lib/http/outbound.ts): a user's URL (an RSS feed, `publicOnly`) reaches public addresses only,
// checked on the address each connection uses, redirects included.
import { gunzipSync } from "node:zlib";
import { outboundRequest, type TargetOptions } from "../http/outbound.ts";
import type { FeedValidators } from "./feed-status.ts";

export interface FetchOptions extends Partial<TargetOptions> {
  headers?: Record<string, string>;
  validators?: FeedValidators;
  timeoutMs?: number;
  maxBytes?: number;
}

export type FetchedDocument = { changed: true; body: Buffer; validators: FeedValidators } | { changed: false };

const MAX_REDIRECTS = 3;

function header(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

export async function fetchDocument(url: string, options: FetchOptions = {}): Promise<FetchedDocument> {
  const headers: Record<string, string> = {
    "user-agent": "nl-incident-service-feeds/1",
    accept: "*/*",
    "accept-encoding": "gzip",
    ...options.headers,
  };
  if (options.validators?.etag) headers["if-none-match"] = options.validators.etag;
  if (options.validators?.lastModified) headers["if-modified-since"] = options.validators.lastModified;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxBytes = options.maxBytes ?? 100 * 2 ** 20;
  // One deadline for the whole download, redirects included.
  const deadline = Date.now() + timeoutMs;
  let target = url;
  for (let redirects = 0; ; redirects++) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`No answer within ${timeoutMs} ms.`);
    const response = await outboundRequest(target, {
      headers,
      timeoutMs: left,
      maxResponseBytes: maxBytes,
      publicOnly: options.publicOnly ?? false,
      what: options.what,
      guard: options.guard,
    });
    if (response.truncated === "size") throw new Error(`The document is larger than ${maxBytes} bytes.`);
    if (response.truncated === "deadline") throw new Error(`No answer within ${timeoutMs} ms.`);
    if (response.truncated) throw new Error(`The connection to ${target} closed before the document's end.`);
    if (response.status >= 300 && response.status < 400 && response.status !== 304) {
      const location = header(response.headers.location);
      if (!location || redirects >= MAX_REDIRECTS)
        throw new Error(`Too many redirects (or one without a Location) from ${url}.`);
      const next = new URL(location, target);
      const previous = new URL(target);
      if (previous.protocol === "https:" && next.protocol !== "https:")
        throw new Error(`Refused a redirect from https to ${next.protocol} (${url}).`);
      if (next.origin !== previous.origin) {
        // Whatever the caller added (an API key in any header) and the validators are for the first origin only.
        for (const name of [
          ...Object.keys(options.headers ?? {}),
          "authorization",
          "if-none-match",
          "if-modified-since",
        ]) {
          delete headers[name];
          delete headers[name.toLowerCase()];
        }
      }
      target = next.toString();
      continue;
    }
    if (response.status === 304) return { changed: false };
    if (response.status < 200 || response.status >= 300) throw new Error(`HTTP ${response.status} from ${target}`);
    let body = response.body;
    if (header(response.headers["content-encoding"])?.toLowerCase() === "gzip")
      body = gunzipSync(body, { maxOutputLength: maxBytes });
    if (body[0] === 0x1f && body[1] === 0x8b) body = gunzipSync(body, { maxOutputLength: maxBytes });
    return {
      changed: true,
      body,
      validators: { etag: header(response.headers.etag), lastModified: header(response.headers["last-modified"]) },
    };
  }
}
