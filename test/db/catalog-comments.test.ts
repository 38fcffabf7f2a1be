// The schemas our migrations create are dumped whole into sql/schema.sql (lib/db/schema-dump.ts),
// and every object in them says what it is for: a function's reasons belong in its COMMENT, where
// the dump, psql's \df+ and obj_description() show them, not only in `--` lines of the migration
// that once created it. (In app_public a comment is also the GraphQL description.)
import { expect, test } from "@jest/globals";
import { DUMPED_SCHEMAS } from "../../lib/db/schema-dump.ts";
import { useTestDatabase } from "../helpers/database.ts";

const ctx = useTestDatabase();

/** Schemas that are not ours: PostgreSQL's own, the extensions' (public) and the libraries'. */
const NOT_OURS = ["public", "information_schema", "graphile_migrate", "graphile_worker"];

test("the schema dump covers every schema the migrations create", async () => {
  const { rows } = await ctx.db.asOwner<{ name: string }>(
    `
    select n.nspname as name from pg_namespace n
     where n.nspname not like 'pg\\_%' and n.nspname <> all ($1)
     order by n.nspname`,
    [NOT_OURS],
  );
  expect(rows.map((row) => row.name)).toEqual([...DUMPED_SCHEMAS].sort());
});

test("every function, procedure, table, view and composite type of the dumped schemas has a comment", async () => {
  // Composite types keep their comment on the type (COMMENT ON TYPE), everything else on itself.
  const { rows } = await ctx.db.asOwner<{ kind: string; name: string }>(
    `
    select case p.prokind when 'p' then 'procedure' when 'a' then 'aggregate' else 'function' end as kind,
           p.oid::regprocedure::text as name
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = any ($1) and obj_description(p.oid, 'pg_proc') is null
    union all
    select case c.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'f' then 'foreign table'
                          else 'table' end,
           c.oid::regclass::text
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any ($1) and c.relkind in ('r', 'p', 'v', 'm', 'f')
       and obj_description(c.oid, 'pg_class') is null
    union all
    select 'composite type', t.oid::regtype::text
      from pg_type t join pg_namespace n on n.oid = t.typnamespace join pg_class c on c.oid = t.typrelid
     where n.nspname = any ($1) and c.relkind = 'c' and obj_description(t.oid, 'pg_type') is null
     order by 1, 2`,
    [DUMPED_SCHEMAS],
  );
  // Add `comment on <kind> <name> is '...'` to the migration: what it is for and why it is built that way.
  expect(rows.map((row) => `${row.kind} ${row.name}`)).toEqual([]);
});
