// A deterministic, reviewable dump of the schemas our migrations create (DUMPED_SCHEMAS), built
// from the catalogs rather than by pg_dump, whose version must match the server's and which the
// embedded default does not ship. sql/schema.sql is this dump of a freshly migrated database;
// test/schema-artifacts.test.ts fails when it drifts from the migrations. It is one section per
// kind of object, each ordered by schema-qualified name, so that grepping it for a name finds the
// current definition of anything (docs/migrations.md).
import type pg from "pg";

/**
 * Every schema our migrations create. graphile_worker and graphile_migrate belong to their
 * libraries, and public holds the extensions (and, before PostgreSQL 18, the uuidv7() stand-in of
 * migrations/beforeAllMigrations.sql). test/db/catalog-comments.test.ts fails when a migration
 * creates a schema this list lacks, and when an object in these schemas has no comment.
 */
export const DUMPED_SCHEMAS: readonly string[] = ["app_public", "app_hidden", "app_private", "app_accounts"];

// Each query returns (sort key, DDL text) rows for one kind of object; $1 is DUMPED_SCHEMAS.
const SECTIONS: Array<[title: string, sql: string]> = [
  [
    "Extensions",
    `
    select e.extname, format('create extension %I with schema %I;', e.extname, n.nspname)
      from pg_extension e join pg_namespace n on n.oid = e.extnamespace
     where e.extname <> 'plpgsql'`,
  ],
  [
    "Schemas",
    `
    select n.nspname, concat_ws(E'\\n',
             format('create schema %I;', n.nspname),
             (select string_agg(format('grant %s on schema %I to %I;', a.privilege_type, n.nspname, r.rolname),
                       E'\\n' order by r.rolname, a.privilege_type)
                from aclexplode(n.nspacl) a join pg_roles r on r.oid = a.grantee
               where a.grantee <> n.nspowner),
             format('comment on schema %I is %L;', n.nspname, obj_description(n.oid, 'pg_namespace')))
      from pg_namespace n where n.nspname = any($1)`,
  ],
  // What objects created later get: the global entries replace the built-in defaults (acldefault),
  // so they show as grants and revokes against those; an entry of one of our schemas adds grants.
  [
    "Default privileges",
    `
    select concat_ws(' ', r.rolname, n.nspname, d.defaclobjtype), (
           select string_agg(format('alter default privileges for role %I%s %s %s on %s %s %s;', r.rolname,
                    coalesce(' in schema ' || quote_ident(n.nspname), ''), x.verb, x.privilege_type, base.objects,
                    case x.verb when 'grant' then 'to' else 'from' end, coalesce(quote_ident(g.rolname), 'public')),
                    E'\\n' order by x.verb, g.rolname, x.privilege_type)
             from (select 'grant', * from (select grantee, privilege_type from aclexplode(d.defaclacl)
                                           except select grantee, privilege_type from aclexplode(base.acl)) s
                   union all
                   select 'revoke', * from (select grantee, privilege_type from aclexplode(base.acl)
                                            except select grantee, privilege_type from aclexplode(d.defaclacl)) s)
                  as x (verb, grantee, privilege_type)
             left join pg_roles g on g.oid = x.grantee)
      from pg_default_acl d join pg_roles r on r.oid = d.defaclrole
      left join pg_namespace n on n.oid = d.defaclnamespace
     cross join lateral (
           select case when d.defaclnamespace = 0
                       then acldefault(translate(d.defaclobjtype::text, 'S', 's')::"char", d.defaclrole)
                       end as acl,
                  case d.defaclobjtype when 'r' then 'tables' when 'S' then 'sequences' when 'f' then 'functions'
                                       when 'T' then 'types' when 'n' then 'schemas' end as objects) base
     where d.defaclnamespace = 0 or n.nspname = any($1)`,
  ],
  [
    "Domains",
    `
    select n.nspname || '.' || t.typname, concat_ws(E'\\n',
             format('create domain %I.%I as %s%s%s%s;', n.nspname, t.typname, format_type(t.typbasetype, t.typtypmod),
               coalesce(' default ' || t.typdefault, ''), case when t.typnotnull then ' not null' else '' end,
               (select string_agg(format(' constraint %I %s', k.conname, pg_get_constraintdef(k.oid)), ''
                         order by k.conname)
                  from pg_constraint k where k.contypid = t.oid and k.contype <> 'n')),
             format('comment on domain %I.%I is %L;', n.nspname, t.typname, obj_description(t.oid, 'pg_type')))
      from pg_type t join pg_namespace n on n.oid = t.typnamespace
     where n.nspname = any($1) and t.typtype = 'd'`,
  ],
  [
    "Enum types",
    `
    select n.nspname || '.' || t.typname, concat_ws(E'\\n',
             format('create type %I.%I as enum (%s);', n.nspname, t.typname,
               (select string_agg(quote_literal(e.enumlabel), ', ' order by e.enumsortorder)
                  from pg_enum e where e.enumtypid = t.oid)),
             format('comment on type %I.%I is %L;', n.nspname, t.typname, obj_description(t.oid, 'pg_type')))
      from pg_type t join pg_namespace n on n.oid = t.typnamespace
     where n.nspname = any($1) and t.typtype = 'e'`,
  ],
  [
    "Composite types",
    `
    select n.nspname || '.' || t.typname, concat_ws(E'\\n',
             format(E'create type %I.%I as (\\n%s\\n);', n.nspname, t.typname,
               (select string_agg(format('  %I %s', a.attname, format_type(a.atttypid, a.atttypmod)), E',\\n'
                         order by a.attnum)
                  from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped)),
             format('comment on type %I.%I is %L;', n.nspname, t.typname, obj_description(t.oid, 'pg_type')))
      from pg_type t join pg_namespace n on n.oid = t.typnamespace join pg_class c on c.oid = t.typrelid
     where n.nspname = any($1) and c.relkind = 'c'`,
  ],
  [
    "Tables",
    `
    select n.nspname || '.' || c.relname, concat_ws(E'\\n',
             format(E'create table %I.%I (\\n%s\\n);', n.nspname, c.relname, concat_ws(E',\\n',
               (select string_agg(format('  %I %s%s%s', a.attname, format_type(a.atttypid, a.atttypmod),
                         case when a.attgenerated = 's'
                              then ' generated always as (' || pg_get_expr(d.adbin, d.adrelid) || ') stored'
                              when d.adbin is not null then ' default ' || pg_get_expr(d.adbin, d.adrelid) else '' end,
                         case when a.attnotnull then ' not null' else '' end), E',\\n' order by a.attnum)
                  from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
                 where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped),
               (select string_agg(format('  constraint %I %s', k.conname, pg_get_constraintdef(k.oid)), E',\\n'
                         order by k.conname)
                  from pg_constraint k where k.conrelid = c.oid and k.contype <> 'n'))),
             case when c.relrowsecurity
                  then format('alter table %I.%I enable row level security;', n.nspname, c.relname) end,
             case when c.relforcerowsecurity
                  then format('alter table %I.%I force row level security;', n.nspname, c.relname) end,
             (select string_agg(pg_get_indexdef(i.indexrelid) || ';', E'\\n'
                       order by pg_get_indexdef(i.indexrelid) collate "C")
                from pg_index i
               where i.indrelid = c.oid
                 and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)),
             (select string_agg(pg_get_triggerdef(g.oid) || ';', E'\\n' order by g.tgname)
                from pg_trigger g where g.tgrelid = c.oid and not g.tgisinternal),
             (select string_agg(format('create policy %I on %I.%I as %s for %s to %s%s%s;', p.policyname, p.schemaname,
                       p.tablename, lower(p.permissive), lower(p.cmd), array_to_string(p.roles, ', '),
                       coalesce(' using (' || p.qual || ')', ''),
                       coalesce(' with check (' || p.with_check || ')', '')),
                       E'\\n' order by p.policyname)
                from pg_policies p where p.schemaname = n.nspname and p.tablename = c.relname),
             (select string_agg(format('grant %s on %I.%I to %I;', a.privilege_type, n.nspname, c.relname, r.rolname),
                       E'\\n' order by r.rolname, a.privilege_type)
                from aclexplode(c.relacl) a join pg_roles r on r.oid = a.grantee where a.grantee <> c.relowner),
             (select string_agg(format('grant %s (%I) on %I.%I to %I;', a.privilege_type, col.attname, n.nspname,
                       c.relname, r.rolname), E'\\n' order by col.attname, r.rolname, a.privilege_type)
                from pg_attribute col, aclexplode(col.attacl) a join pg_roles r on r.oid = a.grantee
               where col.attrelid = c.oid and col.attacl is not null),
             format('comment on table %I.%I is %L;', n.nspname, c.relname, obj_description(c.oid, 'pg_class')),
             (select string_agg(format('comment on column %I.%I.%I is %L;', n.nspname, c.relname, a.attname,
                       col_description(c.oid, a.attnum)), E'\\n' order by a.attnum)
                from pg_attribute a
               where a.attrelid = c.oid and a.attnum > 0 and col_description(c.oid, a.attnum) is not null))
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1) and c.relkind in ('r', 'p')`,
  ],
  [
    "Views",
    `
    select n.nspname || '.' || c.relname, concat_ws(E'\\n',
             format(E'create %s %I.%I as\\n%s', case c.relkind when 'm' then 'materialized view' else 'view' end,
               n.nspname, c.relname, pg_get_viewdef(c.oid)),
             (select string_agg(pg_get_indexdef(i.indexrelid) || ';', E'\\n'
                       order by pg_get_indexdef(i.indexrelid) collate "C")
                from pg_index i where i.indrelid = c.oid),
             (select string_agg(format('grant %s on %I.%I to %I;', a.privilege_type, n.nspname, c.relname, r.rolname),
                       E'\\n' order by r.rolname, a.privilege_type)
                from aclexplode(c.relacl) a join pg_roles r on r.oid = a.grantee where a.grantee <> c.relowner),
             format('comment on %s %I.%I is %L;', case c.relkind when 'm' then 'materialized view' else 'view' end,
               n.nspname, c.relname, obj_description(c.oid, 'pg_class')),
             (select string_agg(format('comment on column %I.%I.%I is %L;', n.nspname, c.relname, a.attname,
                       col_description(c.oid, a.attnum)), E'\\n' order by a.attnum)
                from pg_attribute a
               where a.attrelid = c.oid and a.attnum > 0 and col_description(c.oid, a.attnum) is not null))
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1) and c.relkind in ('v', 'm')`,
  ],
  // Procedures too (pg_get_functiondef prints either); an aggregate would make it raise an error.
  [
    "Functions",
    `
    select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')', concat_ws(E'\\n',
             rtrim(pg_get_functiondef(p.oid), E'\\n') || ';',
             (select string_agg(format('grant execute on %s %I.%I(%s) to %s;', kind.word, n.nspname, p.proname,
                       pg_get_function_identity_arguments(p.oid), coalesce(quote_ident(r.rolname), 'public')),
                       E'\\n' order by r.rolname)
                from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                left join pg_roles r on r.oid = a.grantee
               where a.grantee <> p.proowner),
             format('comment on %s %I.%I(%s) is %L;', kind.word, n.nspname, p.proname,
               pg_get_function_identity_arguments(p.oid), obj_description(p.oid, 'pg_proc')))
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     cross join lateral (select case p.prokind when 'p' then 'procedure' else 'function' end as word) kind
     where n.nspname = any($1)`,
  ],
];

export async function dumpSchema(client: pg.ClientBase): Promise<string> {
  const parts = [
    "-- Generated by lib/db/schema-dump.ts from a freshly migrated database (npm run db -- commit).",
    "-- Do not edit: write a migration instead (docs/migrations.md). Tests fail when this drifts.",
  ];
  for (const [title, sql] of SECTIONS) {
    const { rows } = await client.query<{ key: string; ddl: string }>(
      `select key, ddl from (${sql}) as section (key, ddl) order by key collate "C"`,
      sql.includes("$1") ? [DUMPED_SCHEMAS] : [],
    );
    parts.push(`\n-- ${title}\n`, ...rows.map((row) => row.ddl + "\n"));
  }
  return parts.join("\n").replace(/\n{3,}/g, "\n\n");
}
