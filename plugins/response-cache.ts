// The response cache's two points inside grafserv (the cache's way through a request, and what a
// cached answer still passes: lib/http/response-cache/answers.ts). grafserv authenticates the
// request and applies the API-token rule before either runs, and the document was validated with
// the query limits; grafast's `execute` middleware then looks the answer up instead of running the
// plan, so a hit skips the SQL and nothing else. The metrics middleware (plugins/graphql-metrics.ts)
// is outside this one: hits are timed and counted as operations like any other.
import { isAsyncIterable } from "grafast";

/** The service's response cache (none where only the schema is built, nor in benches that turn it off). */
export const ResponseCachePlugin: GraphileConfig.Plugin = {
  name: "ResponseCachePlugin",
  version: "1.0.0",
  description: "Answers repeated public reads from memory until their data changes; ETag and 304 for GET.",
  grafast: {
    middleware: {
      execute(next, event) {
        const answers = event.args.resolvedPreset?.nlis?.responseCache;
        if (!answers) return next();
        const { document, operationName, variableValues, contextValue, schema, requestContext } = event.args;
        const req = requestContext?.node?.req;
        const found = answers.lookup({ schema, document, operationName, variableValues, contextValue, req });
        if (!found) return next();
        if ("hit" in found) return found.hit as ReturnType<typeof next>;
        return next.callback((error, result) => {
          if (error !== null) throw error;
          if (!isAsyncIterable(result) && result) answers.keep(found.miss, result, contextValue);
          return result;
        });
      },
    },
  },
  grafserv: {
    middleware: {
      async processRequest(next, event) {
        const result = await next();
        const answers = event.resolvedPreset.nlis?.responseCache;
        if (!answers || !result || result.statusCode !== 200) return result;
        const req = event.requestDigest.requestContext.node?.req;
        const sent = answers.sendKept(req, result.headers as Record<string, string>);
        // The kept bytes, rather than serializing the same answer again.
        return sent ? { type: "buffer", ...sent, buffer: sent.body } : result;
      },
    },
  },
};
