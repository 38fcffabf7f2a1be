// The SQL defaults of function arguments as GraphQL default values, so introspection (GraphiQL,
// code generators, typed clients) shows what an omitted argument means. PostGraphile makes an
// argument with a SQL default optional but shows no default: the catalog keeps defaults as
// expression trees, which its introspection does not render. The gather phase asks PostgreSQL for
// their text once (pg_get_function_arg_default) and keeps the literal ones on each function
// resource; the schema phase sets them on the matching arguments. The SQL signature stays the one
// definition: `first integer default 50` in a function is `first: Int = 50` in the schema.
import { parseValue, valueFromAST, type GraphQLInputType } from "graphql";
import { withPgClientFromPgService } from "postgraphile/@dataplan/pg";
import { rootQueryFunction } from "../lib/graphql/root-query-functions.ts";

/** SQL parameter name → GraphQL literal of its default (an enum value bare, a string quoted). */
type ArgDefaults = Record<string, string>;

declare global {
  namespace DataplanPg {
    interface PgResourceExtensions {
      argDefaults?: ArgDefaults;
    }
  }
}

const DEFAULTS_OF_FUNCTIONS = `
  select p.oid::text as oid, p.proargnames[a.n] as name, pg_get_function_arg_default(p.oid, a.n) as sql
    from pg_proc p
    join pg_namespace s on s.oid = p.pronamespace,
         generate_series(1, coalesce(array_length(p.proallargtypes, 1), p.pronargs)) as a (n)
   where s.nspname = any ($1::text[]) and p.pronargdefaults > 0`;

/**
 * The GraphQL literal of a SQL default, or null for NULL (no default to show). Only constants
 * appear in our signatures; anything else is a mistake to hear about at start, not to guess.
 */
export function graphqlLiteralOfSqlDefault(sql: string): string | null {
  if (/^NULL::/.test(sql)) return null;
  if (/^-?\d+(\.\d+)?$/.test(sql) || sql === "true" || sql === "false") return sql;
  const text = /^'((?:[^']|'')*)'::("?[\w.]+"?)$/.exec(sql);
  if (!text) throw new Error(`A SQL argument default the schema cannot show: ${sql}`);
  const value = text[1].replaceAll("''", "'");
  // A value of an enum type (not text) is a GraphQL enum value, written bare.
  return text[2] === "text" ? JSON.stringify(value) : value;
}

type PgService = GraphileConfig.PgServiceConfiguration;

/** One catalog query per service and schema build (a rebuilt preset has new service objects). */
const defaultsOfService = new WeakMap<PgService, Promise<Map<string, ArgDefaults>>>();

function readDefaults(service: PgService): Promise<Map<string, ArgDefaults>> {
  return withPgClientFromPgService(service, service.pgSettingsForIntrospection ?? null, async (client) => {
    const { rows } = await client.query<{ oid: string; name: string | null; sql: string | null }>({
      text: DEFAULTS_OF_FUNCTIONS,
      values: [service.schemas ?? ["public"]],
    });
    const byOid = new Map<string, ArgDefaults>();
    for (const { oid, name, sql } of rows) {
      const literal = sql === null || name === null ? null : graphqlLiteralOfSqlDefault(sql);
      if (literal !== null) byOid.set(oid, { ...byOid.get(oid), [name!]: literal });
    }
    return byOid;
  });
}

export const ArgumentDefaultsPlugin: GraphileConfig.Plugin = {
  name: "ArgumentDefaultsPlugin",
  version: "1.0.0",
  description: "Shows the SQL defaults of function arguments as GraphQL default values.",
  gather: {
    hooks: {
      async pgProcedures_PgResourceOptions(info, event) {
        const service = info.resolvedPreset.pgServices?.find((s) => s.name === event.serviceName);
        if (!service) return;
        let byOid = defaultsOfService.get(service);
        if (!byOid) defaultsOfService.set(service, (byOid = readDefaults(service)));
        const argDefaults = (await byOid).get(event.pgProc._id);
        if (argDefaults) event.resourceOptions.extensions = { ...event.resourceOptions.extensions, argDefaults };
      },
    },
  },
  schema: {
    hooks: {
      GraphQLObjectType_fields_field_args_arg(arg, build, context) {
        const resource =
          context.scope.pgFieldResource ??
          (context.scope.isRootQuery ? rootQueryFunction(build, context.scope) : undefined);
        const defaults = resource?.extensions?.argDefaults;
        if (!resource || !defaults || !resource.parameters) return arg;
        type Param = (typeof resource.parameters)[number];
        const index = resource.parameters.findIndex(
          (param: Param, i: number) =>
            build.inflection.argument({ param, resource, index: i }) === context.scope.argName,
        );
        const literal = defaults[resource.parameters[index]?.name ?? ""];
        if (literal === undefined) return arg;
        const defaultValue = valueFromAST(parseValue(literal), arg.type as GraphQLInputType);
        if (defaultValue === undefined) {
          throw new Error(`Default ${literal} does not fit ${context.scope.fieldName}(${context.scope.argName})`);
        }
        return { ...arg, defaultValue };
      },
    },
  },
};
