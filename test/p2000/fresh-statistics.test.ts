// Bulk paths leave fresh planner statistics behind (lib/db/fresh-statistics.ts): right after the
// demo load, before autovacuum has had a chance, the capcode query of p2000Messages walks the
// capcode index instead of hashing every capcode link.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { Logger, quickAddJob, runOnce } from "graphile-worker";
import type pg from "pg";
import { resilientPool } from "../../lib/db/pool.ts";
import { loadConfig, mergeConfig } from "../../lib/config.ts";
import { makeTaskList } from "../../tasks/index.ts";
import { useTestDatabase } from "../helpers/database.ts";

const ctx = useTestDatabase();
let pool: pg.Pool;
beforeAll(async () => {
  pool = resilientPool({ connectionString: ctx.db.ownerUrl, max: 4 });
  // Autovacuum would analyse the new rows on its own, a minute or so later: not in this database.
  for (const table of ["p2000_messages", "p2000_message_capcodes", "p2000_capcodes", "p2000_dossiers"]) {
    await ctx.db.asOwner(`alter table app_public.${table} set (autovacuum_enabled = false)`);
  }
});
afterAll(() => pool.end());

/** The plan of the SQL app_public.p2000_messages runs for this filter, as JSON text. */
async function planOf(filter: Record<string, unknown>): Promise<string> {
  const client = await pool.connect();
  try {
    const {
      rows: [{ conditions }],
    } = await client.query(
      "select app_hidden.p2000_message_conditions(json_populate_record(null::app_public.p2000_message_filter, $1)) as conditions",
      [JSON.stringify(filter)],
    );
    await client.query(`prepare capcode_page (app_public.p2000_message_filter) as
      select m.* from app_public.p2000_messages m where ${conditions} order by m.sended desc, m.uuid limit 50`);
    const {
      rows: [row],
    } = await client.query(`explain (format json) execute capcode_page
      (json_populate_record(null::app_public.p2000_message_filter, ${client.escapeLiteral(JSON.stringify(filter))}))`);
    await client.query("deallocate capcode_page");
    return JSON.stringify(row["QUERY PLAN"]);
  } finally {
    client.release();
  }
}

test("the first capcode query after the demo load uses the capcode index", async () => {
  const until = new Date();
  const from = new Date(until.getTime() - 2 * 86_400_000);
  await quickAddJob({ pgPool: pool }, "p2000__load_demo", { from: from.toISOString(), until: until.toISOString() });
  // The job stores its chunk and queues the next one: runOnce works until the queue is empty.
  const taskList = makeTaskList(mergeConfig(loadConfig(), { delivery: { smtpUrl: undefined } }), pool);
  await runOnce({ pgPool: pool, taskList, logger: new Logger(() => () => {}) });

  const {
    rows: [{ messages }],
  } = await ctx.db.asOwner("select count(*)::int as messages from app_public.p2000_messages where source = 'demo'");
  expect(messages).toBeGreaterThan(2_000);
  const {
    rows: [{ reltuples }],
  } = await ctx.db.asOwner("select reltuples from pg_class where oid = 'app_public.p2000_message_capcodes'::regclass");
  expect(reltuples).toBeGreaterThan(2_000); // analysed: the planner knows the links are there

  const { rows } = await ctx.db.asOwner(`
    select capcode_uuid::text as uuid from app_public.p2000_message_capcodes
     group by capcode_uuid order by count(*) desc limit 3`);
  const plan = await planOf({ capcodes: rows.map((r) => r.uuid) });
  expect(plan).toMatch(
    /"Index (Only )?Scan".*"Relation Name":"p2000_message_capcodes"|"Relation Name":"p2000_message_capcodes".*"Index Name"/,
  );
  expect(plan).not.toContain('"Node Type":"Hash Join"');
}, 120_000);
