// A POST body read before grafserv, and handed to it (issue 33). The response cache's shortcut
// (lib/http/response-cache/answers.ts) recognizes a POST by its body, so it reads the body first; when the
// answer is not in the cache, grafserv takes the same bytes instead of reading a stream that has
// already ended. Node's grafserv adaptor always reads the stream, so a subclass gives it the
// bytes through its request digest.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestDigest } from "postgraphile/grafserv";
import { NodeGrafserv } from "postgraphile/grafserv/node";

const bodies = new WeakMap<IncomingMessage, Buffer>();

/**
 * Reads a request's body when its Content-Length says it is at most `maxLength` bytes; undefined
 * otherwise (no length, chunked, too long: grafserv reads it and answers 413 as before) and when
 * the client goes away. The bytes are kept for grafserv.
 */
export async function prereadBody(req: IncomingMessage, maxLength: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers["content-length"]);
  if (!Number.isSafeInteger(declared) || declared < 0 || declared > maxLength) return undefined;
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of req) chunks.push(chunk as Buffer);
  } catch {
    return undefined;
  }
  const body = Buffer.concat(chunks);
  bodies.set(req, body);
  return body;
}

/** The body prereadBody read for this request, if it did. */
export function prereadBodyOf(req: IncomingMessage): Buffer | undefined {
  return bodies.get(req);
}

/** grafserv's options as its getDigest is given them (their own type is not exported). */
type DigestOptions = NodeGrafserv["dynamicOptions"];

/** grafserv for Node that takes a body read before it (prereadBody) instead of reading the stream. */
export class PrereadBodyGrafserv extends NodeGrafserv {
  protected override getDigest(
    options: DigestOptions,
    req: IncomingMessage,
    res: ServerResponse,
    isHttps: boolean,
  ): RequestDigest {
    const digest = super.getDigest(options, req, res, isHttps);
    const body = prereadBodyOf(req);
    return body ? { ...digest, getBody: async () => ({ type: "buffer", buffer: body }) } : digest;
  }
}
