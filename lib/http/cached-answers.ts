// Cached answers before grafserv (issue 33): a request whose bytes the response cache has answered
// before (lib/graphql/known-requests.ts) is answered from the cache here, without grafserv parsing
// the request, looking its document up, validating and planning it. What a cached answer must still
// pass, it passes here as on grafserv's path (plugins/response-cache.ts): the request budgets and
// the outage guard ran before (service.ts); the token is the request's one authentication (begun
// as it arrived, lib/auth/context.ts), and only a valid API token that may read public data is answered here (anything else goes on to grafserv,
// which refuses it as before); the query limits held for the same document and variables when the
// answer was made. Each answer counts in the metrics as a cache hit and an operation, as there.
//
// A GET is answered with its ETag and `Cache-Control: private, no-cache`, and with 304 without a
// body when its If-None-Match names that tag: a poller's unchanged answer costs a hash lookup.
import type { IncomingMessage, ServerResponse } from "node:http";
import { authenticateOnce, type Authenticate } from "../auth/context.ts";
import { cacheKey, requestIdentity, type KnownRequests } from "../graphql/known-requests.ts";
import type { CachedAnswer, ResponseCache } from "../graphql/response-cache.ts";
import { graphqlCacheRequests, graphqlOperationDuration, graphqlOperations } from "../ops/metrics.ts";
import { ifNoneMatchFails } from "./conditional-requests.ts";

/** The caching headers of a GET's answer (the client may keep it, and must ask again). */
const CACHE_CONTROL = "private, no-cache";

export interface CachedAnswerDeps {
  cache: ResponseCache;
  known: KnownRequests;
  authenticate: Authenticate;
}

/** The response of a cached answer: 304 for a GET that already has it, else 200 with the kept bytes. */
export function cachedResponse(
  req: IncomingMessage,
  answer: CachedAnswer,
  headers: Readonly<Record<string, string>>,
): { statusCode: number; headers: Record<string, string>; body: Buffer } {
  const isGet = req.method === "GET";
  const caching: Record<string, string> = isGet ? { etag: answer.etag, "cache-control": CACHE_CONTROL } : {};
  if (isGet && ifNoneMatchFails(req.headers["if-none-match"], answer.etag)) {
    return { statusCode: 304, headers: caching, body: Buffer.alloc(0) };
  }
  return {
    statusCode: 200,
    headers: { ...headers, ...caching, "content-length": String(answer.body.length) },
    body: answer.body,
  };
}

/**
 * Answers the request from the cache and returns true, or returns false having written nothing
 * (grafserv then answers it). `body` is the POST body read before (lib/http/preread-body.ts).
 */
export function makeCachedAnswers({ cache, known, authenticate }: CachedAnswerDeps) {
  return async function answerFromCache(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer | undefined,
  ): Promise<boolean> {
    if (!cache.active) return false;
    const identity = requestIdentity(req, body);
    const request = identity === undefined ? undefined : known.recall(identity);
    if (!request) return false;
    const started = performance.now();
    const auth = await authenticateOnce(req, authenticate).catch(() => undefined);
    if (auth?.kind !== "apiToken" || !auth.publicReads) return false;
    const answer = cache.get(cacheKey(request.perEnvironment ? auth.environmentUuid : "", request.keyTail));
    if (!answer) return false;
    const { statusCode, headers, body: sent } = cachedResponse(req, answer, request.headers);
    res.writeHead(statusCode, headers).end(sent);
    const { operation } = request;
    graphqlCacheRequests.inc({ operation, outcome: "hit" });
    graphqlOperations.inc({ operation, outcome: "ok" });
    graphqlOperationDuration.observe({ operation }, (performance.now() - started) / 1000);
    return true;
  };
}
