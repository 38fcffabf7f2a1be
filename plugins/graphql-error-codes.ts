// Syntax and validation errors are answered before execution, so they never pass through
// maskError (lib/graphql/errors.ts); this adds their extensions.code to the response on its way out.
// Only bodies that consist of errors alone are touched, so data responses are never re-parsed.
import { graphQLErrorCode } from "../lib/graphql/errors.ts";

const ERRORS_ONLY = Buffer.from('{"errors":');

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
        if (result?.type !== "buffer" || !result.buffer.subarray(0, ERRORS_ONLY.length).equals(ERRORS_ONLY)) {
          return result;
        }
        const body = JSON.parse(result.buffer.toString("utf8")) as { errors: ErrorJSON[] };
        if (body.errors.every((error) => error.extensions?.code)) return result;
        for (const error of body.errors) {
          error.extensions = { ...error.extensions, code: error.extensions?.code ?? graphQLErrorCode(error.message) };
        }
        const buffer = Buffer.from(JSON.stringify(body), "utf8");
        return { ...result, buffer, headers: { ...result.headers, "content-length": String(buffer.length) } };
      },
    },
  },
};
