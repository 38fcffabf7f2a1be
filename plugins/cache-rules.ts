// The response cache's rules, gathered beside the SQL (issue 46; the rules and how a field's are
// worked out: lib/graphql/cache-rules.ts). When the schema is built this plugin reads the catalog
// (every table's data_changed domains, every view's relations) and puts on each field what it reads
// itself: the smart tags of the SQL function behind it (`@cacheReads`, `@cacheMonitorReads`,
// `@cacheEnvironmentBound`), a plugin field's scope (`cacheReads`), and the table or view of the
// type it belongs to. A declaration that names no table or view of the catalog fails the build.
import type { PgCodec, PgResource } from "postgraphile/@dataplan/pg";
import {
  CACHE_CATALOG_QUERY,
  cacheCatalogOf,
  domainsOf,
  MONITORS_DOMAIN,
  type CacheCatalog,
  type CatalogRow,
  type FieldReads,
} from "../lib/graphql/cache-rules.ts";
import { gatherQuery } from "../lib/graphql/gather-query.ts";
import { rootQueryFunction, type FunctionResource } from "../lib/graphql/root-query-functions.ts";

/** What a field a plugin adds (not an SQL function) declares, in its scope. */
export interface DeclaredReads {
  /** The relations it reads (schema-qualified); empty when it reads none. */
  relations: readonly string[];
  environmentBound?: boolean;
}

declare global {
  namespace GraphileBuild {
    interface BuildInput {
      /** Tables and views with their data_changed domains (lib/graphql/cache-rules.ts). */
      cacheCatalog?: CacheCatalog;
    }
    interface ScopeObjectFieldsField {
      /** What a Query field a plugin adds reads, for the response cache (lib/graphql/cache-rules.ts). */
      cacheReads?: DeclaredReads;
    }
  }
}

/** A smart tag's values as words: `@cacheReads a b` and repeated lines alike; a bare tag is none. */
function tagWords(tag: unknown): string[] | undefined {
  if (tag === undefined) return undefined;
  const values = Array.isArray(tag) ? tag : [tag];
  return values.flatMap((value) => (typeof value === "string" ? value.split(/\s+/).filter(Boolean) : []));
}

function relationOfCodec(codec: PgCodec | undefined): string | undefined {
  const pg = codec?.extensions?.pg;
  return pg ? `${pg.schemaName}.${pg.name}` : undefined;
}

function checked(catalog: CacheCatalog, relations: readonly string[], where: string): string[] {
  for (const relation of relations) {
    if (!catalog[relation]) {
      throw new Error(
        `${where} names ${relation}, which is no table or view (name it schema-qualified: app_public.p2000_messages).`,
      );
    }
  }
  return [...relations];
}

/** What a field declares it reads itself: its relations, whether it is per environment, or nothing. */
interface Declared {
  relations: readonly string[];
  environmentBound: boolean;
  /** The function that declares nothing (no @cacheReads). */
  undeclared?: string;
}

/** The reads a function declares in its smart tags, or `undeclared` when it has no @cacheReads. */
function declaredByFunction(catalog: CacheCatalog, fn: FunctionResource): Declared {
  const tags = fn.extensions?.tags ?? {};
  const name = `${fn.extensions?.pg?.schemaName ?? "?"}.${fn.extensions?.pg?.name ?? fn.name}`;
  const reads = tagWords(tags.cacheReads);
  if (!reads) return { relations: [], environmentBound: false, undeclared: name };
  const monitorReads = checked(catalog, tagWords(tags.cacheMonitorReads) ?? [], `@cacheMonitorReads of ${name}`);
  for (const relation of monitorReads) {
    const domains = domainsOf(catalog, relation);
    if (domains.length === 0 || domains.some((domain) => domain !== MONITORS_DOMAIN)) {
      throw new Error(
        `@cacheMonitorReads of ${name} names ${relation}, whose changes are not announced in the domain ${MONITORS_DOMAIN} alone (${domains.join(", ") || "none"}): name it in @cacheReads.`,
      );
    }
  }
  return {
    relations: checked(catalog, reads, `@cacheReads of ${name}`),
    environmentBound: tags.cacheEnvironmentBound !== undefined,
  };
}

/** Computed attribute functions by their type's codec and field name (single-row ones have no resource in scope). */
const computedByBuild = new WeakMap<GraphileBuild.Build, Map<PgCodec, Map<string, FunctionResource>>>();

function computedFunction(build: GraphileBuild.Build, codec: PgCodec, fieldName: string): FunctionResource | undefined {
  let byCodec = computedByBuild.get(build);
  if (!byCodec) {
    byCodec = new Map();
    for (const resource of Object.values(build.input.pgRegistry.pgResources)) {
      const fn = resource as FunctionResource;
      const first = fn.parameters?.[0]?.codec;
      if (!first?.attributes || fn.isMutation) continue;
      let byName = byCodec.get(first);
      if (!byName) byCodec.set(first, (byName = new Map()));
      byName.set(build.inflection.computedAttributeField({ resource: fn }), fn);
    }
    computedByBuild.set(build, byCodec);
  }
  return byCodec.get(codec)?.get(fieldName);
}

/** The SQL function behind a field, if one is. */
function functionOfField(
  build: GraphileBuild.Build,
  scope: GraphileBuild.ScopeObjectFieldsField,
): FunctionResource | undefined {
  if (scope.isRootQuery) return rootQueryFunction(build, scope);
  const fromScope = scope.pgFieldResource as FunctionResource | undefined;
  if (fromScope?.parameters) return fromScope;
  if (scope.isPgClassType && scope.pgCodec && !scope.pgFieldAttribute) {
    return computedFunction(build, scope.pgCodec, scope.fieldName);
  }
  return undefined;
}

export const CacheRulesPlugin: GraphileConfig.Plugin = {
  name: "CacheRulesPlugin",
  version: "1.0.0",
  description:
    "Reads the data_changed domains from the catalog and puts on every field what it reads (its function's @cacheReads, its table), for the response cache's rules.",
  gather: {
    async main(output, info) {
      output.cacheCatalog = cacheCatalogOf(
        await gatherQuery<CatalogRow>(info, CACHE_CATALOG_QUERY, "CacheRulesPlugin"),
      );
    },
  },
  schema: {
    hooks: {
      GraphQLObjectType_fields_field(field, build, context) {
        const catalog = build.input.cacheCatalog;
        if (!catalog) throw new Error("CacheRulesPlugin: the catalog was not gathered");
        const { scope, Self } = context;
        if (scope.isRootMutation || scope.isRootSubscription) return field;
        const fn = scope.cacheReads ? undefined : functionOfField(build, scope);
        const declared: Declared | undefined = scope.cacheReads
          ? {
              relations: checked(
                catalog,
                scope.cacheReads.relations,
                `The cacheReads of ${Self.name}.${scope.fieldName}`,
              ),
              environmentBound: scope.cacheReads.environmentBound === true,
            }
          : fn && declaredByFunction(catalog, fn);
        if (declared?.undeclared) {
          const cacheReads: FieldReads = { relations: [], domains: [], undeclared: declared.undeclared };
          return { ...field, extensions: { ...field.extensions, cacheReads } };
        }
        const relations = new Set(declared?.relations);
        // A row of a table or view: every field of its type reads it, and a relation reads the table it leads to.
        const own = relationOfCodec(scope.pgCodec);
        if (own && catalog[own]) relations.add(own);
        const remote = (scope.pgRelationDetails as { remoteResource?: PgResource } | undefined)?.remoteResource;
        const remoteRelation = relationOfCodec(remote?.codec);
        if (remoteRelation && catalog[remoteRelation]) relations.add(remoteRelation);
        // Nothing known: a root field nobody declared is not cached (deny by default); a nested field
        // that runs no function and belongs to no table's type (a composite type's, a plugin's) reads nothing.
        if (!declared && relations.size === 0) return field;
        const sorted = [...relations].sort();
        const cacheReads: FieldReads = {
          relations: sorted,
          domains: [...new Set(sorted.flatMap((relation) => domainsOf(catalog, relation)))].sort(),
          ...(declared?.environmentBound ? { environmentBound: true as const } : {}),
        };
        return { ...field, extensions: { ...field.extensions, cacheReads } };
      },
    },
  },
};
