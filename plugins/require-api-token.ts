// The API-token rule's part in the schema and in grafserv (the rule itself: lib/auth/transport-guard.ts).
//
// At each build it notes which Query fields are account queries, taking the user's access token
// (`userTokenFieldsOf`, which the service tells the guard): `@userToken` in their SQL function's
// comment, or the scope `isUserTokenField` of a field a plugin adds (monitorPreview), so the rule
// lives next to the functions it governs.
// On each request it applies the guard in grafserv's request-body middleware, for HTTP and
// WebSocket, where it can still choose an HTTP request's status. An HTTP request's authentication
// began as it arrived (service.ts) and is read here, not made again; a WebSocket's operations are
// authenticated from the connection's init payload.
import type { IncomingMessage } from "node:http";
import type { GraphQLSchema } from "graphql";
import { authenticateOnce, rememberAuth } from "../lib/auth/context.ts";
import { authenticateOrUnavailable, orUnavailable } from "../lib/auth/transport-guard.ts";
import { rootQueryFunction } from "../lib/graphql/root-query-functions.ts";
import { required } from "./service-runtime.ts";

declare global {
  namespace GraphileBuild {
    interface ScopeObjectFieldsField {
      /** A Query field that takes the user's access token, not an API token (spec §4.1). */
      isUserTokenField?: boolean;
    }
  }
}

/** The Authorization of a WebSocket: the connection_init payload's (any case), else the upgrade request's header. */
function webSocketAuthorization(context: {
  connectionParams?: Readonly<Record<string, unknown>>;
  extra?: unknown;
}): string | undefined {
  const params = context.connectionParams ?? {};
  const key = Object.keys(params).find((k) => k.toLowerCase() === "authorization");
  const fromParams = key ? params[key] : undefined;
  if (typeof fromParams === "string") return fromParams;
  return (context.extra as { request?: IncomingMessage } | undefined)?.request?.headers.authorization;
}

/** The account queries found while a schema is built, and those of each schema built. */
const userTokenFieldsOfBuild = new WeakMap<GraphileBuild.Build, Set<string>>();
const userTokenFieldsBySchema = new WeakMap<GraphQLSchema, ReadonlySet<string>>();

/** The Query fields of a schema that take a user's access token: the transport guard learns them (service.ts). */
export function userTokenFieldsOf(schema: GraphQLSchema): ReadonlySet<string> {
  return userTokenFieldsBySchema.get(schema) ?? new Set();
}

export const RequireApiTokenPlugin: GraphileConfig.Plugin = {
  name: "RequireApiTokenPlugin",
  version: "1.0.0",
  description:
    "Tells the transport guard which Query fields take a user's access token, and answers 401 to public reads without a valid API token.",
  schema: {
    hooks: {
      GraphQLObjectType_fields_field(field, build, { scope }) {
        if (!scope.isRootQuery) return field;
        if (scope.isUserTokenField || rootQueryFunction(build, scope)?.extensions?.tags?.userToken) {
          let fields = userTokenFieldsOfBuild.get(build);
          if (!fields) userTokenFieldsOfBuild.set(build, (fields = new Set()));
          fields.add(scope.fieldName);
        }
        return field;
      },
      finalize(schema, build) {
        userTokenFieldsBySchema.set(schema, userTokenFieldsOfBuild.get(build) ?? new Set());
        return schema;
      },
    },
  },
  grafserv: {
    middleware: {
      async processGraphQLRequestBody(next, event) {
        const { authenticate, guard } = required(event.resolvedPreset.nlis);
        const webSocket = event.graphqlWsContext;
        let auth;
        if (webSocket) {
          auth = await authenticateOrUnavailable(authenticate, webSocketAuthorization(webSocket));
          const upgrade = (webSocket.extra as { request?: IncomingMessage } | undefined)?.request;
          if (upgrade) rememberAuth(upgrade, auth);
        } else {
          const req = event.request?.requestContext.node?.req;
          auth = await orUnavailable(
            req ? authenticateOnce(req, authenticate) : authenticate(event.request?.getHeader("authorization")),
          );
        }
        guard.guardOperation(auth, event.body, webSocket ? "websocket" : "http");
        return next();
      },
    },
  },
};
