// The database is the security boundary: RLS on every table, no secrets for the visitor or the
// analyst, SECURITY DEFINER functions with a fixed search_path, analysts read-only and time-limited.
import { describe, expect, test } from "@jest/globals";
import pg from "pg";
import { DUMPED_SCHEMAS } from "../../lib/db/schema-dump.ts";
import { useTestDatabase } from "../helpers/database.ts";

const ctx = useTestDatabase();

/** Runs the callback on a fresh connection of the analyst role. */
async function asAnalyst<T>(callback: (analyst: pg.Client) => Promise<T>): Promise<T> {
  const analyst = new pg.Client({ connectionString: ctx.db.analystUrl });
  await analyst.connect();
  try {
    return await callback(analyst);
  } finally {
    await analyst.end();
  }
}

/** Runs SQL as the visitor role, as PostGraphile does, with the given request settings. */
async function asVisitor(settings: Record<string, string>, sql: string) {
  const client = new pg.Client({ connectionString: ctx.db.authUrl });
  await client.connect();
  try {
    await client.query("begin");
    await client.query("select set_config('role', 'app_visitor', true)");
    for (const [name, value] of Object.entries(settings)) {
      await client.query("select set_config($1, $2, true)", [name, value]);
    }
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe("catalog checks", () => {
  test("every table in our schemas has row-level security enabled", async () => {
    const { rows } = await ctx.db.asOwner(
      `
      select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = any ($1) and c.relkind in ('r', 'p') and not c.relrowsecurity`,
      [DUMPED_SCHEMAS],
    );
    expect(rows).toEqual([]);
  });

  test("every SECURITY DEFINER function sets its search_path", async () => {
    const { rows } = await ctx.db.asOwner(`
      select p.oid::regprocedure::text as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname like 'app\\_%' and p.prosecdef
         and not exists (select 1 from unnest(p.proconfig) c where c like 'search_path=%')`);
    expect(rows).toEqual([]);
  });

  // A SQL function with its own SET is called once per row and never inlined (migrations 000039
  // and 000040): the per-row helpers (computed fields of a table's rows, or of a composite type
  // that a function returns as a list, such as p2000_dossier) have none, so their bodies must name
  // everything by schema. SECURITY DEFINER ones keep theirs (the test above). None is STRICT,
  // which would skip the body on the NULL the probe below passes.
  test("the per-row SQL helpers have no setting of their own and need no search_path", async () => {
    const { rows: helpers } = await ctx.db.asOwner<{
      name: string;
      call: string;
      configured: boolean;
      strict: boolean;
    }>(`
      select p.oid::regprocedure::text as name, p.proconfig is not null as configured, p.proisstrict as strict,
             format('%s.%I(null::%s)', n.nspname, p.proname, p.proargtypes[0]::regtype) as call
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_language l on l.oid = p.prolang
        join pg_type t on t.oid = p.proargtypes[0] join pg_class c on c.oid = t.typrelid
       where n.nspname = 'app_public' and l.lanname = 'sql' and p.pronargs = 1 and not p.prosecdef
         and (c.relkind in ('r', 'v', 'p', 'm')
              or c.relkind = 'c' and exists (select 1 from pg_proc r where r.prorettype = t.oid and r.proretset))
       order by 1`);
    expect(helpers.length).toBeGreaterThan(20);
    expect(helpers.map((h) => h.name)).toEqual(
      expect.arrayContaining([
        "app_public.p2000_messages_capcodes(app_public.p2000_messages)",
        "app_public.p2000_dossier_messages(app_public.p2000_dossier)",
      ]),
    );
    expect(helpers.filter((h) => h.configured || h.strict).map((h) => h.name)).toEqual([]);
    const bare = new pg.Client({ connectionString: ctx.db.ownerUrl, options: "-c search_path=" });
    await bare.connect();
    try {
      for (const helper of helpers) await bare.query(`select * from ${helper.call}`);
      // Inlined: the capcodes of a message are a join in the caller's plan, not a function call.
      const { rows: plan } = await bare.query(
        "explain select * from app_public.p2000_messages_capcodes(null::app_public.p2000_messages)",
      );
      expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).not.toContain("Function Scan");
      // So is a dossier's timeline, and the app_hidden function it reads its entries from
      // (app_hidden.p2000_dossier_timeline_rows): two index scans in the caller's plan.
      const { rows: timeline } = await bare.query(
        "explain select * from app_public.p2000_dossier_timeline_entries(null::app_public.p2000_dossier)",
      );
      expect(timeline.map((row) => row["QUERY PLAN"]).join("\n")).not.toContain("Function Scan");
    } finally {
      await bare.end();
    }
  });

  test("no function is executable by PUBLIC", async () => {
    const { rows } = await ctx.db.asOwner(`
      select p.oid::regprocedure::text as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname like 'app\\_%' and has_function_privilege('public', p.oid, 'execute')`);
    expect(rows).toEqual([]);
  });

  test("the visitor and the analyst cannot reach app_private; neither bypasses RLS", async () => {
    const { rows } = await ctx.db.asOwner(`
      select r.rolname, has_schema_privilege(r.rolname, 'app_private', 'usage') as private_usage, r.rolbypassrls
        from pg_roles r where r.rolname in ('app_visitor', 'app_analyst') order by r.rolname`);
    expect(rows).toEqual([
      { rolname: "app_analyst", private_usage: false, rolbypassrls: false },
      { rolname: "app_visitor", private_usage: false, rolbypassrls: false },
    ]);
  });

  test("the visitor has no table-wide INSERT, UPDATE or DELETE grant", async () => {
    const { rows } = await ctx.db.asOwner(`
      select table_schema || '.' || table_name || ' ' || privilege_type as grant
        from information_schema.role_table_grants
       where grantee = 'app_visitor' and privilege_type in ('INSERT', 'UPDATE', 'DELETE')`);
    expect(rows).toEqual([]);
  });
});

describe("the analyst role", () => {
  test("reads public reference data and calls the public functions", () =>
    asAnalyst(async (analyst) => {
      const { rows } = await analyst.query("select count(*)::int as n from app_public.p2000_regions");
      expect(rows[0].n).toBe(25);
      const { rows: viaFunction } = await analyst.query("select count(*)::int as n from app_public.p2000_regions(5)");
      expect(viaFunction[0].n).toBe(5);
    }));

  test("is read-only and has a statement timeout", () =>
    asAnalyst(async (analyst) => {
      await expect(analyst.query("update app_public.p2000_regions set name = name")).rejects.toThrow(/read-only/);
      const { rows } = await analyst.query("show statement_timeout");
      expect(rows[0].statement_timeout).toBe("1min");
    }));

  test("cannot read secrets or tokens, even when it sets the request settings itself", () =>
    asAnalyst(async (analyst) => {
      await expect(analyst.query("select * from app_private.api_token_secrets")).rejects.toThrow(/permission denied/);
      await analyst.query("select set_config('app.environment_uuid', $1, false)", [ctx.db.operatorEnvironmentUuid]);
      await expect(analyst.query("select * from app_public.api_tokens")).rejects.toThrow(/permission denied/);
    }));
});

describe("the visitor role", () => {
  test("sees no API tokens without a logged-in member, not even those of its own token's environment", async () => {
    await ctx.db.asOwner("select app_private.create_api_token($1, 'mine', '{}', null, sha256('a'), 'nlis_…mine')", [
      ctx.db.operatorEnvironmentUuid,
    ]);
    const withToken = await asVisitor(
      { "app.environment_uuid": ctx.db.operatorEnvironmentUuid },
      "select name from app_public.api_tokens",
    );
    expect(withToken.rows).toEqual([]);
    const anonymous = await asVisitor({}, "select name from app_public.api_tokens");
    expect(anonymous.rows).toEqual([]);
  });

  test("cannot call app_private functions", async () => {
    await expect(asVisitor({}, "select app_private.ensure_operator_environment()")).rejects.toThrow(
      /permission denied/,
    );
  });
});
