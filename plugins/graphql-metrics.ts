// The GraphQL metrics (lib/ops/metrics.ts):
// - nlis_graphql_operations_total and nlis_graphql_operation_duration_seconds: every executed
//   operation (parsed and validated), timed around grafast's execution. An operation is named by
//   its first root field, checked against the schema, so the label has as many values as the
//   schema has root fields plus "other" (a client's operationName, free text, would let any
//   client grow the metric).
// - nlis_graphql_errors_total: every error of every answer on the GraphQL path, by its code,
//   counted as the answer leaves grafserv. That is the one place each error passes exactly once:
//   execution errors are coded in maskError, but syntax, validation and 401 errors never pass
//   through it, and grafserv writes a partial result's errors after its data.
import { isAsyncIterable } from "grafast";
import { graphQLErrorCode } from "../lib/graphql/errors.ts";
import { operationLabel } from "../lib/graphql/operation-label.ts";
import { graphqlErrors, graphqlOperationDuration, graphqlOperations } from "../lib/ops/metrics.ts";

interface ErrorJSON {
  message?: unknown;
  extensions?: { code?: unknown };
}

/** An answer's errors are parsed only when its body has an "errors" key (unescaped quotes: JSON structure, not a string). */
const ERRORS_KEY = Buffer.from('"errors":[');

function countErrors(body: unknown): void {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return;
  for (const error of errors as ErrorJSON[]) {
    // Syntax and validation errors get their code on the way out (plugins/graphql-error-codes.ts,
    // which runs after this): the same function names it here.
    const code = error?.extensions?.code ?? graphQLErrorCode(String(error?.message ?? ""));
    graphqlErrors.inc({ code: String(code) });
  }
}

export const GraphQLMetricsPlugin: GraphileConfig.Plugin = {
  name: "GraphQLMetricsPlugin",
  version: "1.0.0",
  description:
    "Counts and times executed GraphQL operations by their first root field, and counts errors by code (Prometheus).",
  grafast: {
    middleware: {
      execute(next, event) {
        const { schema, document, operationName } = event.args;
        const operation = operationLabel(schema, document, operationName);
        const started = performance.now();
        return next.callback((error, result) => {
          // An incremental result (@defer, @stream) is timed to its first payload.
          const failed = error !== null || (!isAsyncIterable(result) && (result?.errors?.length ?? 0) > 0);
          graphqlOperations.inc({ operation, outcome: failed ? "error" : "ok" });
          graphqlOperationDuration.observe({ operation }, (performance.now() - started) / 1000);
          if (error !== null) throw error;
          return result;
        });
      },
    },
  },
  grafserv: {
    middleware: {
      async processRequest(next, event) {
        const result = await next();
        if (event.requestDigest.path !== (event.resolvedPreset.grafserv?.graphqlPath ?? "/graphql")) return result;
        if (result?.type === "json") countErrors(result.json);
        if (result?.type === "buffer" && result.buffer.includes(ERRORS_KEY)) {
          try {
            countErrors(JSON.parse(result.buffer.toString("utf8")));
          } catch {
            // Not JSON (grafserv's plain-text answers): no GraphQL errors to count.
          }
        }
        return result;
      },
    },
  },
};
