// The response cache on the GraphQL path (issue 33; the cache itself: lib/graphql/response-cache.ts).
//
// Where it sits, and so what a cached answer still passes: grafserv authenticates the request and
// applies the API-token rule (plugins/require-api-token.ts: a revoked token is refused on its next
// request, from cache or not), the request budgets ran before grafserv (lib/http/request-budgets.ts),
// and the document was validated with the query limits; only then does grafast's `execute`
// middleware below look the answer up, instead of running the plan. So a hit skips the SQL and
// nothing else. The metrics middleware (plugins/graphql-metrics.ts) is outside this one: hits are
// timed and counted as operations like any other, and nlis_graphql_cache_total counts hits and
// misses by operation.
//
// What is cached: queries whose every root field has a rule (lib/graphql/cache-rules.ts), asked
// with an API token, answered without errors. The key is the document (by identity: grafserv
// parses each query text once and keeps it), the operation name, the variables and, when a field
// is environment-bound or the arguments name a monitor, the token's environment. The answer is
// kept as the bytes sent.
//
// Conditional requests: a cached answer to a GET carries an ETag (a hash of its bytes, the same on
// every instance) and `Cache-Control: private, no-cache` (a client may keep it but must ask
// again); a GET whose If-None-Match names the current tag is answered 304 without a body.
//
// The next time: an answer sent from or into the cache is remembered by the request's bytes
// (lib/graphql/known-requests.ts), so the same request again is answered before grafserv
// (lib/http/cached-answers.ts), with the same checks and the same headers.
import type { IncomingMessage } from "node:http";
import { isAsyncIterable } from "grafast";
import { cachePlanOf } from "../lib/graphql/cache-plan.ts";
import { variablesNameMonitor } from "../lib/graphql/root-fields.ts";
import { cacheKey, requestIdentity, type KnownRequests } from "../lib/graphql/known-requests.ts";
import type { CachedAnswer, ResponseCache } from "../lib/graphql/response-cache.ts";
import { cachedResponse } from "../lib/http/cached-answers.ts";
import { prereadBodyOf } from "../lib/http/preread-body.ts";
import { graphqlCacheRequests, measureResponseCache } from "../lib/ops/metrics.ts";
import { operationLabel } from "./graphql-metrics.ts";

/** The answer a request was given from or stored to the cache, and where it is kept, for the HTTP middleware that sends it. */
const answered = new WeakMap<
  IncomingMessage,
  { answer: CachedAnswer; keyTail: string; perEnvironment: boolean; operation: string }
>();

export function makeResponseCachePlugin(cache: ResponseCache, known: KnownRequests): GraphileConfig.Plugin {
  measureResponseCache(() => cache.bytesHeld);
  return {
    name: "ResponseCachePlugin",
    version: "1.0.0",
    description: "Answers repeated public reads from memory until their data changes; ETag and 304 for GET.",
    grafast: {
      middleware: {
        execute(next, event) {
          if (!cache.active) return next();
          const { document, operationName, variableValues, contextValue, schema, requestContext } = event.args;
          const settings = (contextValue as { pgSettings?: Record<string, string> } | undefined)?.pgSettings;
          const environment = settings?.["app.environment_uuid"];
          const plan = cachePlanOf(schema, document, operationName);
          // Only API-token reads: a user's access token reads no public data (plugins/require-api-token.ts).
          if (!plan || !settings?.["app.api_token_uuid"] || !environment) return next();
          const variables = JSON.stringify(variableValues ?? {});
          // The document's own `monitor` arguments are in the plan already; the variables are read here.
          const monitorInVariables = variablesNameMonitor(variables);
          const domains = monitorInVariables ? plan.domainsWithMonitor : plan.domains;
          const keyTail = [plan.documentId, operationName ?? "", variables].join("\u0000");
          const perEnvironment = plan.environmentBound || monitorInVariables;
          const key = cacheKey(perEnvironment ? environment : "", keyTail);
          const operation = operationLabel(schema, document, operationName);
          const req = requestContext?.node?.req;
          const hit = cache.get(key);
          if (hit) {
            graphqlCacheRequests.inc({ operation, outcome: "hit" });
            if (req) answered.set(req, { answer: hit, keyTail, perEnvironment, operation });
            return JSON.parse(hit.body.toString()) as ReturnType<typeof next>;
          }
          graphqlCacheRequests.inc({ operation, outcome: "miss" });
          const snapshot = cache.snapshot(domains);
          return next.callback((error, result) => {
            if (error !== null) throw error;
            if (!isAsyncIterable(result) && result && !result.errors?.length) {
              // Read on a replica: kept only if the replica had caught up (lib/graphql/response-cache.ts).
              const replayed = (contextValue as Grafast.Context | undefined)?.replicaRead?.replayed;
              const kept = cache.set(key, result, domains, snapshot, replayed);
              if (kept && req) answered.set(req, { answer: kept, keyTail, perEnvironment, operation });
            }
            return result;
          });
        },
      },
    },
    grafserv: {
      middleware: {
        async processRequest(next, event) {
          const result = await next();
          const req = event.requestDigest.requestContext.node?.req;
          const kept = req && answered.get(req);
          if (!kept || !result || result.statusCode !== 200) return result;
          const { answer, keyTail, perEnvironment, operation } = kept;
          const { "content-length": _length, ...headers } = result.headers as Record<string, string>;
          const identity = requestIdentity(req, prereadBodyOf(req));
          if (identity) known.remember(identity, { keyTail, perEnvironment, operation, headers });
          // The kept bytes, rather than serializing the same answer again.
          const { statusCode, headers: sent, body } = cachedResponse(req, answer, headers);
          return { type: "buffer", statusCode, headers: sent, buffer: body };
        },
      },
    },
  };
}
