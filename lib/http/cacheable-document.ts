// A public document answered so crawlers, feed readers and caches on the way can keep it (issue 50,
// docs/open-data.md): a strong ETag (the SHA-256 of the body), the caller's Cache-Control, 304
// without a body to an If-None-Match that names it, no body to HEAD; and a read that failed
// answered in plain words (503 with Retry-After while the database is away), never a stack trace.
import { createHash } from "node:crypto";
import type express from "express";
import { RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from "../db/availability.ts";
import { describeError } from "../graphql/errors.ts";
import { ifNoneMatchFails } from "./conditional-requests.ts";

export interface CacheableDocument {
  body: string | Buffer;
  contentType: string;
  /** Cache-Control, e.g. "public, max-age=60". */
  cacheControl: string;
  /** Further headers (Link, Content-Disposition, …). */
  headers?: Record<string, string>;
}

/** The strong entity tag of a body: its SHA-256, base64url, quoted. */
export function entityTag(body: string | Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url")}"`;
}

export function sendCacheable(req: express.Request, res: express.Response, document: CacheableDocument): void {
  const body = typeof document.body === "string" ? Buffer.from(document.body) : document.body;
  const etag = entityTag(body);
  res.set({
    ...document.headers,
    "cache-control": document.cacheControl,
    etag,
    "x-content-type-options": "nosniff",
  });
  if (ifNoneMatchFails(req.get("if-none-match"), etag)) return void res.status(304).end();
  res.set("content-type", document.contentType);
  if (req.method === "HEAD") return void res.set("content-length", String(body.length)).end();
  res.send(body);
}

/** The longest plain-text answer: it may repeat what the client sent, which is not to be echoed whole. */
const MAX_PLAIN_CHARACTERS = 500;

/** A plain-text answer that is not to be kept (404, 400, …). */
export function sendPlain(res: express.Response, status: number, text: string): void {
  const said = text.length > MAX_PLAIN_CHARACTERS ? `${text.slice(0, MAX_PLAIN_CHARACTERS)}…` : text;
  res
    .status(status)
    .set({ "cache-control": "no-store", "x-content-type-options": "nosniff" })
    .type("text/plain")
    .send(`${said}\n`);
}

/**
 * A read that threw: 503 with Retry-After while the database is away, else 500, in plain words.
 * `where` names the request in the log (the path by default; a capability URL passes it redacted).
 */
export function sendReadFailure(
  req: express.Request,
  res: express.Response,
  error: unknown,
  where: string = req.path,
): void {
  const { message, extensions } = describeError(error, where);
  if (extensions.code === SERVICE_UNAVAILABLE.code) {
    res.set("retry-after", String(RETRY_AFTER_SECONDS));
    sendPlain(res, 503, message);
  } else sendPlain(res, 500, message);
}
