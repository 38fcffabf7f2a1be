// Syntax and validation errors are answered before execution, so they never pass through
// maskError (lib/graphql/errors.ts); this adds their extensions.code to the response on its way out.
// Only bodies that consist of errors alone are parsed, so data responses are never re-parsed. And
// an answer that met a database outage (an error coded SERVICE_UNAVAILABLE anywhere in it, with or
// without data) becomes HTTP 503 with Retry-After, as the outage guard answers the requests after
// it (lib/http/unavailable-guard.ts): the client retries it whole.
import { RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from "../lib/db/availability.ts";
import { graphQLErrorCode } from "../lib/graphql/errors.ts";
import { METHOD_NOT_ALLOWED, PAYLOAD_TOO_LARGE } from "../lib/http/refusals.ts";

const ERRORS_ONLY = Buffer.from('{"errors":');
// As serialised by JSON.stringify: a string in the data holding these characters is escaped (\").
const OUTAGE = Buffer.from(`"code":"${SERVICE_UNAVAILABLE.code}"`);

interface ErrorJSON {
  message: string;
  extensions?: Record<string, unknown>;
}

export const GraphQLErrorCodesPlugin: GraphileConfig.Plugin = {
  name: "GraphQLErrorCodesPlugin",
  version: "1.0.0",
  description: "extensions.code on GraphQL syntax and validation errors.",
  grafserv: {
    middleware: {
      async processRequest(next) {
        const result = await next();
        if (result?.type !== "buffer") return result;
        if (result.buffer.includes(OUTAGE)) {
          return {
            ...result,
            statusCode: 503,
            headers: { ...result.headers, "retry-after": String(RETRY_AFTER_SECONDS) },
          };
        }
        if (!result.buffer.subarray(0, ERRORS_ONLY.length).equals(ERRORS_ONLY)) return result;
        const body = JSON.parse(result.buffer.toString("utf8")) as { errors: ErrorJSON[] };
        if (body.errors.every((error) => error.extensions?.code)) return result;
        // grafserv's 405 is a mutation over GET (the method is wrong, not the document; POST serves
        // it) and its 413 a body over maxRequestLength: the HTTP refusal, not a validation error.
        const wrongMethod = result.statusCode === 405;
        const byStatus = wrongMethod ? METHOD_NOT_ALLOWED : result.statusCode === 413 ? PAYLOAD_TOO_LARGE : undefined;
        for (const error of body.errors) {
          const code = byStatus ?? graphQLErrorCode(error.message);
          error.extensions = { ...error.extensions, code: error.extensions?.code ?? code };
        }
        const buffer = Buffer.from(JSON.stringify(body), "utf8");
        const headers = {
          ...result.headers,
          "content-length": String(buffer.length),
          ...(wrongMethod ? { allow: "POST" } : {}),
        };
        return { ...result, buffer, headers };
      },
    },
  },
};
