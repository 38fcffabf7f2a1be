// The PostGraphile preset: the Amber preset, trimmed so only the spec's operations appear (no
// automatic CRUD, no Node interface, no allX connections), plus our naming, auth and error rules.
import { randomUUID } from "node:crypto";
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from "graphql";
import pg from "pg";
import type { PgSubscriber } from "postgraphile/adaptors/pg";
import { makeSchema } from "postgraphile";
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";
import type { AccountDeps } from "./lib/accounts/flows.ts";
import { loadConfig, type ApiConfig } from "./lib/config.ts";
import { loadAiDefaults, SHIPPED_AI_DEFAULTS, type AiDefaults } from "./lib/ai/defaults.ts";
import { makeAuthenticate, pgSettingsFor, recalledAuth, type Authenticate } from "./lib/auth/context.ts";
import { maskError } from "./lib/graphql/errors.ts";
import { makeRequestPgService } from "./lib/graphql/pg-request-adaptor.ts";
import { accountRequestFor } from "./lib/graphql/request-facts.ts";
import { makeAccountMutationsPlugin } from "./plugins/account-mutations.ts";
import { makeAiDefaultsPlugin } from "./plugins/ai-defaults.ts";
import { makeWebPushPlugin } from "./plugins/web-push.ts";
import { makeInstallationPlugin } from "./plugins/installation.ts";
import { makeMonitorMutationsPlugin, type MonitorMutationOptions } from "./plugins/monitor-mutations.ts";
import { makeMonitorFeedsPlugin } from "./plugins/monitor-feeds.ts";
import { MonitorPreviewPlugin } from "./plugins/monitor-preview.ts";
import { ArgumentDefaultsPlugin } from "./plugins/argument-defaults.ts";
import { DeprecatedArgumentsPlugin } from "./plugins/deprecated-arguments.ts";
import { GraphQLErrorCodesPlugin } from "./plugins/graphql-error-codes.ts";
import { InflectionPlugin } from "./plugins/inflection.ts";
import { P2000MutationsPlugin } from "./plugins/p2000-mutations.ts";
import { TimestampScalarPlugin } from "./plugins/timestamp-scalar.ts";
import { makeQueryLimitsPlugin } from "./plugins/query-limits.ts";
import { JsonByDefaultPlugin } from "./plugins/json-by-default.ts";
import { InputGuardPlugin } from "./plugins/input-guard.ts";
import { GraphQLMetricsPlugin } from "./plugins/graphql-metrics.ts";
import { makeRequireApiTokenPlugin } from "./plugins/require-api-token.ts";
import { TransportGuard } from "./lib/auth/transport-guard.ts";
import { SubscriptionsPlugin } from "./plugins/subscriptions.ts";
import { makeSubscriptionGuardPlugin, subscriptionHolder } from "./plugins/subscription-guard.ts";
import { AnalyticsPreset } from "./plugins/analytics.ts";
import { makeResponseCachePlugin } from "./plugins/response-cache.ts";
import { CacheRulesPlugin } from "./plugins/cache-rules.ts";
import type { CachedAnswers } from "./lib/http/response-cache/answers.ts";
import { MAX_GRAPHQL_BODY_BYTES } from "./lib/http/graphql-sse.ts";
import type { ReadReplicas } from "./lib/db/read-replicas.ts";
import type { SubscriptionSlots } from "./lib/graphql/subscription-slots.ts";
import { replicaContext } from "./lib/graphql/replica-routing.ts";

export interface PresetOptions {
  /** Pool of the authenticator login; every request switches to the visitor role. */
  authPool: pg.Pool;
  authenticate: Authenticate;
  /** The API-token rule of every transport (service.ts shares it with the SSE handler). */
  guard: TransportGuard;
  accounts: AccountDeps;
  monitors: MonitorMutationOptions;
  /** config.api: the IDE, statement timeout, query limits, subscriptions per token (the AI defaults come loaded). */
  api: Omit<ApiConfig, "aiDefaultsFile" | "responseCache">;
  /**
   * The instance's response cache of public reads (started by its owner) and the requests it
   * answered; none in schema exports and benches.
   */
  responseCache?: CachedAnswers;
  /** READ_REPLICA_URLS' replicas, which take the public reads (started by their owner). */
  replicas?: ReadReplicas;
  aiDefaults: AiDefaults;
  /** TRUST_PROXY: client addresses from X-Forwarded-For (the web client's subscriptions count per address). */
  trustProxy?: boolean;
  /** The LISTEN connection of subscriptions; its owner releases it (PostGraphile leaves a given pool's to us). */
  pgSubscriber?: PgSubscriber;
  /** The instance's subscription slots, which /ready reports (lib/graphql/subscription-slots.ts). */
  subscriptionSlots?: SubscriptionSlots;
}

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

export function makePreset(options: PresetOptions): GraphileConfig.Preset {
  return {
    extends: [PostGraphileAmberPreset, AnalyticsPreset],
    plugins: [
      InflectionPlugin,
      TimestampScalarPlugin,
      ArgumentDefaultsPlugin,
      DeprecatedArgumentsPlugin,
      GraphQLErrorCodesPlugin,
      makeQueryLimitsPlugin(options.api.queryLimits),
      JsonByDefaultPlugin,
      GraphQLMetricsPlugin,
      InputGuardPlugin,
      makeRequireApiTokenPlugin(options.authenticate, options.guard),
      makeAccountMutationsPlugin(options.accounts),
      P2000MutationsPlugin,
      makeMonitorMutationsPlugin(options.monitors),
      // Feed URLs start with the public URL that account e-mails link to.
      makeMonitorFeedsPlugin({ publicUrl: options.accounts.publicUrl }),
      MonitorPreviewPlugin,
      makeAiDefaultsPlugin(options.aiDefaults),
      makeWebPushPlugin(options.monitors.delivery?.webPush.publicKey),
      // What this installation can deliver (config.delivery) and whether it has demo data (read as the owner).
      makeInstallationPlugin({ delivery: options.monitors.delivery, ownerPool: options.accounts.ownerPool }),
      SubscriptionsPlugin,
      // What each field reads (its function's @cacheReads, its table): the response cache's rules.
      CacheRulesPlugin,
      makeSubscriptionGuardPlugin({
        perToken: options.api.subscriptionsPerToken,
        perWebClientAddress: options.api.subscriptionsPerWebClientAddress,
        slots: options.subscriptionSlots,
      }),
      // Last: its execute middleware runs inside the others (metrics time hits; refusals come first).
      ...(options.responseCache ? [makeResponseCachePlugin(options.responseCache)] : []),
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
    pgServices: [
      makeRequestPgService({
        pool: options.authPool,
        schemas: ["app_public"],
        pgSubscriber: options.pgSubscriber,
        pubsub: options.pgSubscriber !== undefined,
      }),
    ],
    // Ruru's type asks for every GraphiQL prop; the ones left out keep their defaults.
    ruru: { clientConfig: RURU_CLIENT_CONFIG as RuruClientConfig },
    grafserv: {
      graphqlPath: "/graphql",
      graphiql: options.api.graphiql,
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
        // An HTTP or SSE request, or the upgrade request of a WebSocket.
        const req = requestContext.node?.req ?? requestContext.ws?.request;
        const auth = recalledAuth(req);
        // Every request gets a uuid: a login or registration records it, so the rest of that
        // request may show the user it created (app_hidden.current_user_uuid).
        const requestUuid = randomUUID();
        return {
          pgSettings: pgSettingsFor(auth, options.api.statementTimeout, requestUuid),
          accountRequest: accountRequestFor(req, auth, requestUuid),
          subscriptionHolder: subscriptionHolder(auth, req, options.trustProxy ?? false),
          // A public read on a read replica, when one is in service (READ_REPLICA_URLS).
          ...replicaContext(options.replicas, auth, args),
        };
      },
    },
  };
}

/**
 * The options of a preset that only builds the schema (the export below, benches that time grafast
 * alone): no request is served, so no secret, account flow or cache is used.
 */
export function schemaOnlyPresetOptions(authPool: pg.Pool): PresetOptions {
  return {
    authPool,
    authenticate: makeAuthenticate(authPool, "schema-only"),
    guard: new TransportGuard(),
    accounts: { ownerPool: authPool, jwtSecret: "schema-only", publicUrl: "", magicLinkAllowedOrigins: [] },
    monitors: { allowPrivateWebhookTargets: false },
    api: {
      graphiql: false,
      statementTimeout: "15s",
      queryLimits: loadConfig().api.queryLimits,
      subscriptionsPerToken: 1,
      subscriptionsPerWebClientAddress: 1,
    },
    aiDefaults: loadAiDefaults(SHIPPED_AI_DEFAULTS),
  };
}

/**
 * The service's GraphQL schema as the database makes it (the rules the schema carries, such as the
 * response cache's: lib/graphql/cache-rules.ts, can be read from it).
 */
export async function makeServiceSchema(authUrl: string): Promise<GraphQLSchema> {
  const authPool = new pg.Pool({ connectionString: authUrl, max: 2 });
  try {
    const { schema } = await makeSchema(makePreset(schemaOnlyPresetOptions(authPool)));
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
