// One download of an upstream document for a feed poller: a deadline, a size limit, a few
// redirects at most (never from https to http, and credentials and validators only to the origin
// they were meant for), a conditional request (ETag / Last-Modified of the last good answer), and
// gzip undone whether the server or the file applied it.
import { gunzipSync } from "node:zlib";
import type { FeedValidators } from "./feed-status.ts";

export interface FetchOptions {
  headers?: Record<string, string>;
  validators?: FeedValidators;
  timeoutMs?: number;
  maxBytes?: number;
  /** Checks every URL before it is requested, redirects too (a user's feed URL: public hosts only). */
  beforeRequest?: (url: URL) => Promise<void>;
}

export type FetchedDocument = { changed: true; body: Buffer; validators: FeedValidators } | { changed: false };

const MAX_REDIRECTS = 3;

async function readCapped(response: Response, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > maxBytes) throw new Error(`The document is larger than ${maxBytes} bytes.`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

export async function fetchDocument(url: string, options: FetchOptions = {}): Promise<FetchedDocument> {
  const headers: Record<string, string> = { "user-agent": "nl-incident-service-feeds/1", ...options.headers };
  if (options.validators?.etag) headers["if-none-match"] = options.validators.etag;
  if (options.validators?.lastModified) headers["if-modified-since"] = options.validators.lastModified;
  const signal = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  let target = url;
  for (let redirects = 0; ; redirects++) {
    await options.beforeRequest?.(new URL(target));
    const response = await fetch(target, { headers, signal, redirect: "manual" });
    if (response.status >= 300 && response.status < 400 && response.status !== 304) {
      const location = response.headers.get("location");
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
    if (!response.ok) throw new Error(`HTTP ${response.status} from ${target}`);
    let body = await readCapped(response, options.maxBytes ?? 100 * 2 ** 20);
    if (body[0] === 0x1f && body[1] === 0x8b)
      body = gunzipSync(body, { maxOutputLength: options.maxBytes ?? 100 * 2 ** 20 });
    return {
      changed: true,
      body,
      validators: { etag: response.headers.get("etag"), lastModified: response.headers.get("last-modified") },
    };
  }
}
