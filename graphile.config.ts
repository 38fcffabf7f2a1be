// The PostGraphile preset: the Amber preset, trimmed so only the spec's operations appear (no
// automatic CRUD, no Node interface, no allX connections), plus our naming, auth and error rules.
import { randomUUID } from "node:crypto";
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from "graphql";
import pg from "pg";
import type { PgSubscriber } from "postgraphile/adaptors/pg";
import { makeSchema } from "postgraphile";
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";
import { pgSettingsFor, recalledAuth } from "./lib/auth/context.ts";
import { maskError } from "./lib/graphql/errors.ts";
import { makeRequestPgService } from "./lib/graphql/pg-request-adaptor.ts";
import { replicaContext } from "./lib/graphql/replica-routing.ts";
import { accountRequestFor } from "./lib/graphql/request-facts.ts";
import { MAX_GRAPHQL_BODY_BYTES } from "./lib/http/graphql-sse.ts";
import { GRAPHQL_PATH } from "./lib/paths.ts";
import { AccountMutationsPlugin } from "./plugins/account-mutations.ts";
import { AiDefaultsPlugin } from "./plugins/ai-defaults.ts";
import { AnalyticsPreset } from "./plugins/analytics.ts";
import { ArgumentDefaultsPlugin } from "./plugins/argument-defaults.ts";
import { CacheRulesPlugin } from "./plugins/cache-rules.ts";
import { DeprecatedArgumentsPlugin } from "./plugins/deprecated-arguments.ts";
import { GraphQLErrorCodesPlugin } from "./plugins/graphql-error-codes.ts";
import { GraphQLMetricsPlugin } from "./plugins/graphql-metrics.ts";
import { InflectionPlugin } from "./plugins/inflection.ts";
import { InputGuardPlugin } from "./plugins/input-guard.ts";
import { InstallationPlugin } from "./plugins/installation.ts";
import { JsonByDefaultPlugin } from "./plugins/json-by-default.ts";
import { MonitorFeedsPlugin } from "./plugins/monitor-feeds.ts";
import { MonitorMutationsPlugin } from "./plugins/monitor-mutations.ts";
import { MonitorTypeNamesPlugin } from "./plugins/monitor-type-names.ts";
import { P2000ReceiversPlugin } from "./plugins/p2000-receivers.ts";
import { StationScreensPlugin } from "./plugins/station-screens.ts";
import { MonitorPreviewPlugin } from "./plugins/monitor-preview.ts";
import { P2000MutationsPlugin } from "./plugins/p2000-mutations.ts";
import { QueryLimitsPlugin } from "./plugins/query-limits.ts";
import { RequireApiTokenPlugin } from "./plugins/require-api-token.ts";
import { ResponseCachePlugin } from "./plugins/response-cache.ts";
import { required, type ServiceRuntime } from "./plugins/service-runtime.ts";
import { SubscriptionGuardPlugin, subscriptionHolder } from "./plugins/subscription-guard.ts";
import { SubscriptionsPlugin } from "./plugins/subscriptions.ts";
import { TimestampScalarPlugin } from "./plugins/timestamp-scalar.ts";
import { WebPushPlugin } from "./plugins/web-push.ts";

/**
 * What GraphiQL (Ruru, /graphiql) opens on the first time (issue 44): a short public read and the
 * Authorization header it needs, so the first query is not a 401 for want of knowing. A person's
 * own work replaces them (Ruru keeps the tabs in the browser's localStorage).
 */
export const GRAPHIQL_DEFAULT_QUERY = `# The newest P2000 pages. Public reads like this one need an API token:
# make one in the console (/console, "API tokens") and paste it into the
# Headers tab below, in place of <your API token>. Then press the play button.
#
# The token stays in this browser (its localStorage; switch "Persist headers"
# off in the settings to keep it for this tab only) and is sent only to /graphql.
# Account operations (monitors, channels, createApiToken) take a user's access
# token from login instead: see docs/api.md "Authentication".
query LatestPages {
  p2000Messages(first: 5) {
    sended
    message
    urgency { code name }
    region { name }
    city
  }
}
`;
export const GRAPHIQL_DEFAULT_HEADERS = `{\n  "Authorization": "Bearer <your API token>"\n}\n`;

/**
 * Ruru's client settings. shouldPersistHeaders (GraphiQL's prop, which Ruru passes through but does
 * not type): the headers, so the token, are kept in this browser's localStorage until its user
 * switches that off; the server never stores them.
 */
type RuruClientConfig = NonNullable<NonNullable<GraphileConfig.Preset["ruru"]>["clientConfig"]>;
const RURU_CLIENT_CONFIG: Partial<RuruClientConfig> & { shouldPersistHeaders: boolean } = {
  defaultQuery: GRAPHIQL_DEFAULT_QUERY,
  defaultHeaders: GRAPHIQL_DEFAULT_HEADERS,
  isHeadersEditorEnabled: true,
  showPersistHeadersSettings: true,
  shouldPersistHeaders: true,
};

/**
 * The preset: what the schema is and how requests are served. It is static: the running service
 * (its pools, authentication, settings and caches: plugins/service-runtime.ts) is added by
 * service.ts under `nlis`, with the request pg service (`servicePreset`); a preset without it
 * builds the same schema and serves nothing (the schema export, `makeServiceSchema`).
 */
const preset: GraphileConfig.Preset = {
  extends: [PostGraphileAmberPreset, AnalyticsPreset],
  plugins: [
    InflectionPlugin,
    TimestampScalarPlugin,
    ArgumentDefaultsPlugin,
    DeprecatedArgumentsPlugin,
    GraphQLErrorCodesPlugin,
    QueryLimitsPlugin,
    JsonByDefaultPlugin,
    GraphQLMetricsPlugin,
    InputGuardPlugin,
    RequireApiTokenPlugin,
    AccountMutationsPlugin,
    P2000MutationsPlugin,
    P2000ReceiversPlugin,
    StationScreensPlugin,
    MonitorTypeNamesPlugin,
    MonitorMutationsPlugin,
    MonitorFeedsPlugin,
    MonitorPreviewPlugin,
    AiDefaultsPlugin,
    WebPushPlugin,
    InstallationPlugin,
    SubscriptionsPlugin,
    // What each field reads (its function's @cacheReads, its table): the response cache's rules.
    CacheRulesPlugin,
    SubscriptionGuardPlugin,
    // Last: its execute middleware runs inside the others (metrics time hits; refusals come first).
    ResponseCachePlugin,
  ],
  disablePlugins: [
    "NodePlugin",
    // A SQL parameter named `first` would otherwise collide with the connection argument.
    "PgFirstLastBeforeAfterArgsPlugin",
    "PgConditionArgumentPlugin",
    "PgConnectionArgOrderByPlugin",
    "MutationPayloadQueryPlugin",
    "QueryQueryPlugin",
  ],
  gather: {
    // Arguments without a SQL default are required (non-null) in GraphQL.
    pgStrictFunctions: true,
  },
  schema: {
    // Behaviours apply left to right: lists instead of connections, and no table is exposed
    // as a root field or a CRUD mutation; every operation is an app_public function.
    defaultBehavior:
      "-connection +list -query:resource:list -query:resource:connection -query:resource:single " +
      "-resource:insert -resource:update -resource:delete",
    pgForbidSetofFunctionsToReturnNull: true,
  },
  // Ruru's type asks for every GraphiQL prop; the ones left out keep their defaults.
  ruru: { clientConfig: RURU_CLIENT_CONFIG as RuruClientConfig },
  grafserv: {
    graphqlPath: GRAPHQL_PATH,
    // GRAPHIQL: on by default; the service's preset says (servicePreset).
    graphiql: true,
    graphiqlPath: "/graphiql",
    graphiqlOnGraphQLGET: false,
    // GET serves queries with URL-encoded variables (a mutation over GET is refused with 405).
    // maxRequestLength bounds POST bodies only; a GET's URL is bounded by Node's header limit
    // (16 KiB, answered with 431), which is tighter.
    graphqlOverGET: true,
    watch: false,
    // Subscriptions over WebSocket (graphql-transport-ws) on /graphql; SSE is lib/http/graphql-sse.ts.
    websockets: true,
    maxRequestLength: MAX_GRAPHQL_BODY_BYTES,
    maskError,
  },
  grafast: {
    explain: false,
    context(requestContext, args) {
      const service = required(args.resolvedPreset?.nlis);
      // An HTTP or SSE request, or the upgrade request of a WebSocket.
      const req = requestContext.node?.req ?? requestContext.ws?.request;
      const auth = recalledAuth(req);
      // Every request gets a uuid: a login or registration records it, so the rest of that
      // request may show the user it created (app_hidden.current_user_uuid).
      const requestUuid = randomUUID();
      return {
        service,
        pgSettings: pgSettingsFor(auth, service.api.statementTimeout, requestUuid),
        accountRequest: accountRequestFor(req, auth, requestUuid),
        subscriptionHolder: subscriptionHolder(auth, req, service.trustProxy),
        // A public read on a read replica, when one is in service (READ_REPLICA_URLS).
        ...replicaContext(service.replicas, auth, args),
      };
    },
  },
};
export default preset;

/**
 * The preset a running service serves: the static one, the request connections (the visitor's
 * transactions on `authPool`, and its LISTEN connection for subscriptions) and the service itself.
 */
export function servicePreset(options: {
  /** Pool of the authenticator login; every request switches to the visitor role. */
  authPool: pg.Pool;
  /** The LISTEN connection of subscriptions; its owner releases it (PostGraphile leaves a given pool's to us). */
  pgSubscriber?: PgSubscriber;
  graphiql: boolean;
  service: ServiceRuntime;
}): GraphileConfig.Preset {
  return {
    extends: [preset],
    pgServices: [
      makeRequestPgService({
        pool: options.authPool,
        schemas: ["app_public"],
        pgSubscriber: options.pgSubscriber,
        pubsub: options.pgSubscriber !== undefined,
      }),
    ],
    grafserv: { graphiql: options.graphiql },
    nlis: options.service,
  };
}

/** The static preset with a pg service to gather from: it builds the schema and serves nothing. */
export function schemaOnlyPreset(authPool: pg.Pool): GraphileConfig.Preset {
  return {
    extends: [preset],
    pgServices: [makeRequestPgService({ pool: authPool, schemas: ["app_public"], pubsub: false })],
  };
}

/**
 * The service's GraphQL schema as the database makes it (the rules the schema carries, such as the
 * response cache's: lib/graphql/cache-rules.ts, can be read from it).
 */
export async function makeServiceSchema(authUrl: string): Promise<GraphQLSchema> {
  const authPool = new pg.Pool({ connectionString: authUrl, max: 2 });
  try {
    const { schema } = await makeSchema(schemaOnlyPreset(authPool));
    return schema;
  } finally {
    await authPool.end();
  }
}

/**
 * The GraphQL schema as SDL, sorted, as committed in schema.graphql: `npm run schema:export` writes
 * it and test/schema-artifacts.test.ts fails when the live schema differs.
 */
export async function printServiceSchema(authUrl: string): Promise<string> {
  return printSchema(lexicographicSortSchema(await makeServiceSchema(authUrl))) + "\n";
}
