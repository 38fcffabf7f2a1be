// The nightly clean-ups through graphile-worker itself: queued as a job, run by the worker.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { Logger, quickAddJob, runOnce } from "graphile-worker";
import type pg from "pg";
import { resilientPool } from "../../lib/db/pool.ts";
import { loadConfig, mergeConfig } from "../../lib/config.ts";
import { makeTaskList } from "../../tasks/index.ts";
import { useTestDatabase } from "../helpers/database.ts";

const ctx = useTestDatabase();
let pool: pg.Pool;
beforeAll(() => {
  pool = resilientPool({ connectionString: ctx.db.ownerUrl, max: 4 });
});
afterAll(() => pool.end());

/** Runs every queued job once with the real task list, as the worker does. */
const runQueuedJobs = () =>
  runOnce({
    pgPool: pool,
    taskList: makeTaskList(mergeConfig(loadConfig(), { delivery: { smtpUrl: undefined } }), pool),
    logger: new Logger(() => () => {}),
  });

test("api_tokens__purge_stale deletes tokens dead for over 90 days and keeps the rest", async () => {
  const make = (name: string, hash: string) =>
    ctx.db.asOwner(
      "select uuid from app_private.create_api_token($1, $2, '{}', null, sha256($3::bytea), 'nlis_…test')",
      [ctx.db.operatorEnvironmentUuid, name, hash],
    );
  await make("revoked long ago", "a");
  await make("expired long ago", "b");
  await make("revoked lately", "c");
  await make("alive", "d");
  await ctx.db.asOwner(
    `update app_public.api_tokens set revoked_at = now() - interval '100 days' where name = 'revoked long ago'`,
  );
  await ctx.db.asOwner(
    `update app_public.api_tokens set expires_at = now() - interval '91 days' where name = 'expired long ago'`,
  );
  await ctx.db.asOwner(
    `update app_public.api_tokens set revoked_at = now() - interval '10 days' where name = 'revoked lately'`,
  );

  await quickAddJob({ connectionString: ctx.db.ownerUrl }, "api_tokens__purge_stale", {});
  await runQueuedJobs();

  const { rows } = await ctx.db.asOwner("select name from app_public.api_tokens order by name");
  expect(rows.map((row) => row.name)).toEqual(["alive", "revoked lately"]);
  const { rows: secrets } = await ctx.db.asOwner("select count(*)::int as n from app_private.api_token_secrets");
  expect(secrets[0].n).toBe(2);
  const { rows: jobs } = await ctx.db.asOwner("select count(*)::int as n from graphile_worker.jobs");
  expect(jobs[0].n).toBe(0);
});

test("auth__purge_expired removes ended sessions, spent tokens and old counters, and keeps live ones", async () => {
  const {
    rows: [user],
  } = await ctx.db.asOwner(
    "insert into app_public.users (display_name, email_address) values ('P', 'purge@example.org') returning uuid",
  );
  await ctx.db.asOwner(
    `insert into app_public.sessions (user_uuid, expires_at, revoked_at) values
    ($1, now() + interval '1 day', null),
    ($1, now() + interval '1 day', now() - interval '31 days'),
    ($1, now() - interval '40 days', null)`,
    [user.uuid],
  );
  await ctx.db.asOwner(`insert into app_private.rate_limit_counters (bucket, window_start, hits) values
    ('old', now() - interval '3 days', 1), ('new', now(), 1)`);
  await ctx.db.asOwner(
    `insert into app_private.user_tokens (user_uuid, purpose, token_hash, expires_at) values
    ($1, 'magic_link', sha256('old'), now() - interval '8 days'), ($1, 'magic_link', sha256('new'), now() + interval '1 hour')`,
    [user.uuid],
  );

  await quickAddJob({ connectionString: ctx.db.ownerUrl }, "auth__purge_expired", {});
  await runQueuedJobs();

  const count = async (sql: string) => (await ctx.db.asOwner(sql)).rows[0].n;
  expect(await count("select count(*)::int as n from app_public.sessions")).toBe(1);
  expect(await count("select count(*)::int as n from app_private.rate_limit_counters")).toBe(1);
  expect(await count("select count(*)::int as n from app_private.user_tokens")).toBe(1);
});

test("p2000__load_demo stores synthetic traffic chunk by chunk, grouped into dossiers", async () => {
  const until = new Date();
  const from = new Date(until.getTime() - 8 * 3_600_000);
  await quickAddJob({ connectionString: ctx.db.ownerUrl }, "p2000__load_demo", {
    from: from.toISOString(),
    until: until.toISOString(),
  });
  // The first 6 hours, which queue the rest (and the jobs their ingestion queues); a busy machine
  // may need another round before a just-queued job is due.
  for (
    let round = 0;
    round < 5 && (await ctx.db.asOwner("select count(*)::int as n from graphile_worker.jobs")).rows[0].n > 0;
    round++
  ) {
    await runQueuedJobs();
  }
  const {
    rows: [stats],
  } = await ctx.db.asOwner(
    `
    select count(*)::int as messages, min(sended) >= $1 and max(sended) <= $2 as in_window,
           count(distinct dossier_uuid)::int as dossiers, bool_and(source = 'demo') as all_demo,
           count(*) filter (where discipline_uuid is not null and region_uuid is not null)::int as located
      from app_public.p2000_messages`,
    [from, until],
  );
  expect(stats.messages).toBeGreaterThan(300);
  expect(stats.in_window).toBe(true);
  expect(stats.all_demo).toBe(true);
  expect(stats.dossiers).toBeLessThan(stats.messages); // retransmissions share a dossier
  expect(stats.located / stats.messages).toBeGreaterThan(0.9);
  const {
    rows: [queue],
  } = await ctx.db.asOwner("select count(*)::int as n from graphile_worker.jobs");
  expect(queue.n).toBe(0);
});

test("analytics__refresh_cache stores every window; the hubAnalytics operations read it while it is fresh", async () => {
  const yesterdayNoon =
    "((now() at time zone 'Europe/Amsterdam')::date - 1 + time '12:00') at time zone 'Europe/Amsterdam'";
  const ingest = (text: string) =>
    ctx.db.asOwner(`select app_private.ingest_p2000_message($1, ${yesterdayNoon}, array['001420007'], 'test')`, [text]);
  const hourly = async () =>
    (await ctx.db.asOwner("select (app_public.hub_analytics_hourly(28)).total as total")).rows[0].total as number;
  await ingest("A1 AMBU 17101 Kerkstraat Schiedam bon 1");
  await quickAddJob({ connectionString: ctx.db.ownerUrl }, "analytics__refresh_cache", {});
  await runQueuedJobs();
  const {
    rows: [{ n }],
  } = await ctx.db.asOwner("select count(*)::int as n from app_hidden.analytics_cache");
  expect(n).toBe(3 * 84);
  const cached = await hourly();
  expect(cached).toBe(
    (await ctx.db.asOwner("select (app_hidden.hub_analytics_hourly_live(28)).total as total")).rows[0].total,
  );

  await ingest("A1 AMBU 17102 Kerkstraat Schiedam bon 2");
  expect(await hourly()).toBe(cached); // the cached answer, until the next refresh
  await ctx.db.asOwner("update app_hidden.analytics_cache set computed_at = now() - interval '2 hours'");
  expect(await hourly()).toBe(cached + 1); // stale: computed live
  await quickAddJob({ connectionString: ctx.db.ownerUrl }, "analytics__refresh_cache", {});
  await runQueuedJobs();
  expect(await hourly()).toBe(cached + 1);
  const weekdays = await ctx.db.asOwner(
    "select (app_public.hub_analytics_weekdays(7)).yesterday as y, (app_public.hub_analytics_urgency(7)).total as t",
  );
  expect(weekdays.rows[0]).toEqual({ y: cached + 1, t: cached + 1 });
});
