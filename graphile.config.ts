// The PostGraphile preset: the Amber preset, trimmed so only the spec's operations appear (no
// automatic CRUD, no Node interface, no allX connections), plus our naming, auth and error rules.
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";
import type { AccountDeps } from "./lib/accounts.ts";
import { pgSettingsFor, recalledAuth, type Authenticate } from "./lib/auth-context.ts";
import { maskError } from "./lib/errors.ts";
import { makeRequestPgService } from "./lib/pg-request-adaptor.ts";
import { accountRequestFor } from "./lib/account-request.ts";
import { makeAccountMutationsPlugin } from "./plugins/account-mutations.ts";
import { makeMonitorMutationsPlugin, type MonitorMutationOptions } from "./plugins/monitor-mutations.ts";
import { GraphQLErrorCodesPlugin } from "./plugins/graphql-error-codes.ts";
import { InflectionPlugin } from "./plugins/inflection.ts";
import { P2000MutationsPlugin } from "./plugins/p2000-mutations.ts";
import { makeRequireApiTokenPlugin } from "./plugins/require-api-token.ts";

export interface PresetOptions {
  /** Pool of the authenticator login; every request switches to the visitor role. */
  authPool: pg.Pool;
  authenticate: Authenticate;
  accounts: AccountDeps;
  monitors: MonitorMutationOptions;
  graphiql: boolean;
  statementTimeout: string;
}

export function makePreset(options: PresetOptions): GraphileConfig.Preset {
  return {
    extends: [PostGraphileAmberPreset],
    plugins: [
      InflectionPlugin,
      GraphQLErrorCodesPlugin,
      makeRequireApiTokenPlugin(options.authenticate),
      makeAccountMutationsPlugin(options.accounts),
      P2000MutationsPlugin,
      makeMonitorMutationsPlugin(options.monitors),
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
    pgServices: [makeRequestPgService({ pool: options.authPool, schemas: ["app_public"] })],
    grafserv: {
      graphqlPath: "/graphql",
      graphiql: options.graphiql,
      graphiqlPath: "/graphiql",
      graphiqlOnGraphQLGET: false,
      watch: false,
      maxRequestLength: 100_000,
      maskError,
    },
    grafast: {
      explain: false,
      context(requestContext) {
        const req = requestContext.node?.req;
        const auth = recalledAuth(req);
        // Every request gets a uuid: a login or registration records it, so the rest of that
        // request may show the user it created (app_hidden.current_user_uuid).
        const requestUuid = randomUUID();
        return {
          pgSettings: pgSettingsFor(auth, options.statementTimeout, requestUuid),
          accountRequest: accountRequestFor(req, auth, requestUuid),
        };
      },
    },
  };
}
