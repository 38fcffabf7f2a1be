// Which Query fields the response cache may keep, and the data domains each one reads (issue 46):
// worked out from the schema, not kept by hand. Every SQL function behind a field says in its
// comment which tables it reads (smart tags, docs/api.md "What a field reads"):
//
//   @cacheReads app_public.p2000_messages app_hidden.p2000_daily_counts
//   @cacheMonitorReads app_hidden.monitor_matches
//   @cacheEnvironmentBound
//
// `@cacheReads` names, schema-qualified, every table or view the function's own SQL reads (through
// the helpers it calls and the row-level security of what it reads, not through the GraphQL fields
// of what it returns: those declare their own); a bare `@cacheReads` says it reads none.
// `@cacheMonitorReads` names the tables it reads only when an argument names a monitor (the
// response cache then keys the answer per environment and adds the monitors' domain:
// lib/graphql/cache-plan.ts), so they must be of the domain `monitors`. `@cacheEnvironmentBound`
// says the answer depends on the caller's environment (its monitors, the feeds it follows). A field
// a plugin adds declares the same in its scope (`cacheReads`, plugins/ai-defaults.ts).
//
// plugins/cache-rules.ts puts each field's own reads on its `extensions.cacheReads`: a function's
// declaration, and for every field of a table's or view's type that table or view. A root field's
// rule is then the union over everything reachable from it: its own reads and those of every field
// of its type, and of theirs, and so on (a dossier's related signals read traffic, helicopter
// routes, NL-Alerts and weather warnings). A relation's domains are those its data_changed
// triggers announce (app_hidden.tg__notify_data_changed's argument; a view's are those of the
// relations it reads), read from the catalog when the schema is built. Deny by default: a root field
// without a declaration, or reaching a function field without one, is not cached.
// test/db/cache-reads.test.ts checks the declarations against what each function really reads.
import {
  getNamedType,
  isAbstractType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from "graphql";

/** A domain of the data_changed notifications: the argument of a table's trigger (p2000, meteo, …). */
export type Domain = string;

/** The domain whose changes the response cache adds when an argument names a monitor. */
export const MONITORS_DOMAIN: Domain = "monitors";

/** What the response cache needs to know of a root Query field it may keep. */
export interface CacheRule {
  /** Every domain the field can read, through all of its nested fields. */
  domains: readonly Domain[];
  /**
   * The answer depends on the caller's environment (row-level security or the environment's
   * monitors): kept per environment, never served to another.
   */
  environmentBound?: true;
  /** The relations behind the domains (schema-qualified), for people and tests. */
  relations: readonly string[];
}

/** A relation of the catalog as the cache sees it. */
export interface CatalogRelation {
  /** The domains its data_changed triggers announce (none for a view, or a table without one). */
  domains: readonly Domain[];
  /** A view (or materialized view): what it reads is what its query reads. */
  view: boolean;
  /** A view's relations (those of its query), each resolved further when it is a view itself. */
  reads: readonly string[];
}

/** Relations by schema-qualified name (app_public.p2000_messages). */
export type CacheCatalog = Readonly<Record<string, CatalogRelation>>;

/**
 * The catalog's part of the rules: every table and view, with the domains its data_changed triggers
 * announce, and for a view the relations it reads. Run once when the schema is built.
 */
export const CACHE_CATALOG_QUERY = `
  select n.nspname || '.' || c.relname as name, c.relkind in ('v', 'm') as view,
         array(select distinct convert_from(substring(t.tgargs for position('\\x00'::bytea in t.tgargs) - 1), 'UTF8')
                 from pg_catalog.pg_trigger t
                 join pg_catalog.pg_proc p on p.oid = t.tgfoid
                 join pg_catalog.pg_namespace pn on pn.oid = p.pronamespace
                where t.tgrelid = c.oid and t.tgenabled <> 'D' and t.tgnargs > 0
                  and pn.nspname = 'app_hidden' and p.proname = 'tg__notify_data_changed'
                order by 1) as domains,
         array(select distinct rn.nspname || '.' || rc.relname
                 from pg_catalog.pg_rewrite r
                 join pg_catalog.pg_depend d on d.classid = 'pg_catalog.pg_rewrite'::regclass and d.objid = r.oid
                  and d.refclassid = 'pg_catalog.pg_class'::regclass
                 join pg_catalog.pg_class rc on rc.oid = d.refobjid and rc.oid <> c.oid
                 join pg_catalog.pg_namespace rn on rn.oid = rc.relnamespace
                where r.ev_class = c.oid and rc.relkind in ('r', 'p', 'v', 'm', 'f')
                order by 1) as reads
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where c.relkind in ('r', 'p', 'v', 'm', 'f')
     and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`;

/** The catalog from the rows of CACHE_CATALOG_QUERY. */
export function cacheCatalogOf(rows: readonly CatalogRow[]): CacheCatalog {
  return Object.fromEntries(rows.map((row) => [row.name, { domains: row.domains, view: row.view, reads: row.reads }]));
}

/** A row of CACHE_CATALOG_QUERY. */
export interface CatalogRow {
  name: string;
  view: boolean;
  domains: string[];
  reads: string[];
}

/** The tables a relation stands for: itself, or for a view the tables it reads, all the way down. */
export function baseTablesOf(catalog: CacheCatalog, relation: string): string[] {
  const tables = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const entry = catalog[name];
    if (!entry) return;
    if (entry.view) entry.reads.forEach(visit);
    else tables.add(name);
  };
  visit(relation);
  return [...tables].sort();
}

/** The domains a relation's changes are announced in (a view's: those of the tables it reads). */
export function domainsOf(catalog: CacheCatalog, relation: string): Domain[] {
  return [...new Set(baseTablesOf(catalog, relation).flatMap((table) => catalog[table]!.domains))].sort();
}

/** A field's own reads, as plugins/cache-rules.ts puts them on its extensions. */
export interface FieldReads {
  /** Relations it reads itself (schema-qualified), each with its domains resolved. */
  relations: readonly string[];
  domains: readonly Domain[];
  environmentBound?: true;
  /**
   * Set when the field runs a function that declares nothing: what it reads is unknown, so no
   * field that reaches it is cached. Names the function.
   */
  undeclared?: string;
}

declare module "graphql" {
  interface GraphQLFieldExtensions<_TSource, _TContext, _TArgs> {
    /** This field's own reads (plugins/cache-rules.ts). */
    cacheReads?: FieldReads;
  }
}

/** The rules of a schema, or why a field has none. */
export interface CacheRules {
  rules: ReadonlyMap<string, CacheRule>;
  /** Root Query fields that are not cached, with the reason (no declaration, or the undeclared function they reach). */
  uncached: ReadonlyMap<string, string>;
}

const bySchema = new WeakMap<GraphQLSchema, CacheRules>();

/** The type's fields, of every possible type when it is an interface or union. */
function fieldsOf(schema: GraphQLSchema, type: GraphQLNamedType): GraphQLField<unknown, unknown>[] {
  if (isObjectType(type)) return Object.values(type.getFields());
  if (isAbstractType(type)) return schema.getPossibleTypes(type).flatMap((t) => Object.values(t.getFields()));
  return [];
}

/** The rules of every root Query field of the schema, worked out once per schema. */
export function cacheRulesOf(schema: GraphQLSchema): CacheRules {
  const known = bySchema.get(schema);
  if (known) return known;
  const rules = new Map<string, CacheRule>([["__typename", { domains: [], relations: [] }]]);
  const uncached = new Map<string, string>();
  for (const [name, field] of Object.entries(schema.getQueryType()?.getFields() ?? {})) {
    const own = field.extensions.cacheReads;
    if (!own || own.undeclared) {
      uncached.set(name, own?.undeclared ? `${own.undeclared} declares no @cacheReads` : "no declaration");
      continue;
    }
    const relations = new Set(own.relations);
    const domains = new Set(own.domains);
    let environmentBound = own.environmentBound === true;
    let undeclared: string | undefined;
    const seenTypes = new Set<string>();
    const pending: GraphQLNamedType[] = [getNamedType(field.type)];
    while (pending.length > 0 && !undeclared) {
      const type = pending.pop()!;
      if (seenTypes.has(type.name)) continue;
      seenTypes.add(type.name);
      for (const nested of fieldsOf(schema, type)) {
        const reads = nested.extensions.cacheReads;
        if (reads?.undeclared) {
          undeclared = `${type.name}.${nested.name} (${reads.undeclared}) declares no @cacheReads`;
          break;
        }
        reads?.relations.forEach((relation) => relations.add(relation));
        reads?.domains.forEach((domain) => domains.add(domain));
        if (reads?.environmentBound) environmentBound = true;
        pending.push(getNamedType(nested.type));
      }
    }
    if (undeclared) {
      uncached.set(name, undeclared);
      continue;
    }
    rules.set(name, {
      domains: [...domains].sort(),
      relations: [...relations].sort(),
      ...(environmentBound ? { environmentBound: true as const } : {}),
    });
  }
  const result = { rules, uncached };
  bySchema.set(schema, result);
  return result;
}

/** The rule of a root Query field, or undefined when its answers may not be cached. */
export function cacheRuleOf(schema: GraphQLSchema, fieldName: string): CacheRule | undefined {
  return cacheRulesOf(schema).rules.get(fieldName);
}
