// The live demo (lib/setup/demo-data.ts, tasks/demo__tick.ts): on a demo installation each tick of
// the real worker stores the minutes that passed of synthetic P2000 traffic, through the FLEX
// reader's path (a live subscription hears them), and of the demo helicopter's flights; each minute
// once, whoever ticks; at most 10 minutes back after a stop; nothing on an installation that is not
// a demo one, nor with DEMO_DATA=false.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Logger, runOnce } from "graphile-worker";
import type pg from "pg";
import { loadConfig, mergeConfig } from "../../lib/config.ts";
import { resilientPool } from "../../lib/db/pool.ts";
import { demoTrafficLines, loadDemoTraffic } from "../../lib/p2000/demo-data.ts";
import { DEMO_CATCH_UP_MS, queueDemoData, storeDemoMinutes } from "../../lib/setup/demo-data.ts";
import { crontabFor, makeTaskList } from "../../tasks/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { untilHeard, watch } from "../helpers/live-clients.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

const MINUTE = 60_000;
const NEW_MESSAGES = "subscription { p2000Messages { message sended } }";

/** The texts of the synthetic pages between from and to (the ALN field of each FLEX line). */
const demoTexts = (from: Date, to: Date) => [...demoTrafficLines(from, to)].map((line) => line.split("|ALN|")[1]);

const demoMessages = async (db: TestDatabase, before: Date) =>
  (
    await db.asOwner<{ message: string; sended: Date; exercise_type: string }>(
      "select message, sended, exercise_type from app_public.p2000_messages where source = 'demo' and sended < $1 order by sended",
      [before],
    )
  ).rows;

const liveUntil = async (db: TestDatabase): Promise<Date | null> =>
  (await db.asOwner("select demo_live_until from app_private.installation")).rows[0].demo_live_until;

describe("on the running service", () => {
  const ctx = useTestService(() => ({ demoData: true }));

  const tick = async () => {
    await ctx.db.asOwner(
      "select graphile_worker.add_job('demo__tick', '{}', queue_name => 'demo_live', job_key => 'demo__tick')",
    );
    await ctx.service.workerIdle();
  };

  test("the crontab ticks once a minute with DEMO_DATA, not at all without", () => {
    expect(crontabFor({ demoData: true })).toContain("* * * * * demo__tick ?queue=demo_live&jobKey=demo__tick");
    expect(crontabFor({ demoData: false })).not.toContain("demo__tick");
  });

  test("a tick stores the last minutes of demo traffic and helicopter positions; a subscription hears them; a second tick nothing more", async () => {
    const { secret } = await ctx.service.newToken();
    const subscriber = watch("websocket", ctx.service.graphqlUrl, { token: secret, query: NEW_MESSAGES });
    try {
      let probe = 0;
      await untilHeard(
        () => subscriber.events.length,
        () =>
          storeP2000Pages(ctx.db, [
            { message: `A2 probe ${++probe} Utrecht`, sended: new Date().toISOString(), capcodes: ["0923001"] },
          ]),
      );
      subscriber.events.length = 0; // the probes

      // A demo installation whose worker was stopped for an hour: the tick fills the last 10 minutes.
      // The service's own first tick (at its start) may have stored a window that began a minute
      // earlier, when a minute turned in between (a loaded machine): only this tick's pages count.
      await ctx.service.workerIdle();
      await ctx.db.asOwner("delete from app_public.p2000_messages where source = 'demo'");
      await ctx.db.asOwner("update app_private.installation set demo_live_until = now() - interval '1 hour'");
      await tick();
      const to = (await liveUntil(ctx.db))!;
      expect(to.getTime() % MINUTE).toBe(0);
      expect(Date.now() - to.getTime()).toBeLessThan(2 * MINUTE);
      const from = new Date(to.getTime() - DEMO_CATCH_UP_MS);

      const expected = demoTexts(from, to);
      expect(expected.length).toBeGreaterThan(0);
      const stored = await demoMessages(ctx.db, to);
      expect(stored.length).toBeGreaterThan(0);
      expect(new Set(stored.map((m) => m.message))).toEqual(new Set(expected));
      // No page of the window stored twice.
      expect(new Set(stored.map((m) => `${m.message}@${m.sended.toISOString()}`)).size).toBe(stored.length);
      for (const { sended } of stored) {
        expect(sended.getTime()).toBeGreaterThanOrEqual(from.getTime());
        expect(sended.getTime()).toBeLessThan(to.getTime());
      }

      // The subscription hears every one of them that is a real alert, as the live map does: like
      // p2000Messages it leaves out tests and exercises by default (the demo's weekly "Proefalarm",
      // Mondays at 18:00, one per region: this test failed in the ten minutes after it).
      const alerts = new Set(stored.filter((m) => m.exercise_type === "none").map((m) => m.message));
      expect(alerts.size).toBeGreaterThan(0);
      const heard = () =>
        new Set(
          subscriber.events.flatMap((event) =>
            (event.p2000Messages as Array<{ message: string; sended: string }>)
              .filter((m) => Date.parse(m.sended) < to.getTime() && !m.message.includes(" probe "))
              .map((m) => m.message),
          ),
        );
      await waitUntil(heard, (texts) => texts.size >= alerts.size, "the demo messages pushed");
      expect(heard()).toEqual(alerts);
      expect(subscriber.errors).toEqual([]);

      // The demo helicopter flew in those minutes, through the aircraft state machine.
      const {
        rows: [helicopter],
      } = await ctx.db.asOwner(
        `select s.at, (select count(*)::int from app_public.aircraft_route_points p
                         join app_public.aircraft_routes r on r.uuid = p.route_uuid
                        where r.icao = 'de0001' and p.at >= $1 and p.at < $2) as points
           from app_public.aircraft_states s where s.icao = 'de0001'`,
        [from, to],
      );
      // (A later minute's tick by the crontab may have moved it on since.)
      expect(helicopter.at.getTime()).toBeGreaterThanOrEqual(from.getTime());
      expect(helicopter.points).toBeGreaterThan(0);

      // The same minutes again (a second worker's tick, a restart): nothing more.
      await tick();
      expect(await demoMessages(ctx.db, to)).toHaveLength(stored.length);
    } finally {
      await subscriber.stop();
    }
  });
});

describe("without the service's worker", () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = resilientPool({ connectionString: db.ownerUrl, max: 6 });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** Queues a tick and runs it with the real task list, DEMO_DATA as given. */
  const tickWith = async (demoData: boolean) => {
    await db.asOwner("select graphile_worker.add_job('demo__tick', '{}', job_key => 'demo__tick')");
    await runOnce({
      pgPool: pool,
      taskList: makeTaskList(mergeConfig(loadConfig(), { demoData, delivery: { smtpUrl: undefined } }), pool),
      logger: new Logger(() => () => {}),
    });
  };
  const demoCount = async () =>
    (await db.asOwner("select count(*)::int as n from app_public.p2000_messages where source = 'demo'")).rows[0].n;

  test("an installation that is not a demo one gets nothing", async () => {
    expect(await liveUntil(db)).toBeNull();
    await tickWith(true);
    expect(await demoCount()).toBe(0);
    expect(await liveUntil(db)).toBeNull();
  });

  test("the first start's demo load makes the installation a demo one, the live demo going on where the load ends", async () => {
    await queueDemoData(pool);
    const until = (await liveUntil(db))!;
    expect(Math.abs(Date.now() - until.getTime())).toBeLessThan(MINUTE);
    const { rows: jobs } = await db.asOwner(
      `select t.identifier as task_identifier, j.payload, q.queue_name
         from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
         left join graphile_worker._private_job_queues q on q.id = j.job_queue_id
        order by 1`,
    );
    expect(jobs.map((job) => job.task_identifier)).toEqual([
      "aircraft__load_demo",
      "alerts__load_demo",
      "meteo__load_demo",
      "p2000__load_demo",
      "traffic__load_demo",
    ]);
    expect(new Date(jobs[3].payload.until).getTime()).toBe(until.getTime());
    // The demo flights before the first tick's positions: the ticks' queue.
    expect(jobs[0].queue_name).toBe("demo_live");
    // The load itself is p2000__load_demo's test (test/tasks/maintenance.test.ts).
    await db.asOwner("delete from graphile_worker._private_jobs");
  });

  test("DEMO_DATA=false stops the ticks of a demo installation", async () => {
    await db.asOwner("update app_private.installation set demo_live_until = now() - interval '5 minutes'");
    const before = await liveUntil(db);
    await tickWith(false);
    expect(await demoCount()).toBe(0);
    expect(await liveUntil(db)).toEqual(before);
  });

  test("each minute is stored once: the minute that passed, again nothing, two ticks at once one of them", async () => {
    const start = new Date(Math.floor((Date.now() - 2 * 3_600_000) / MINUTE) * MINUTE);
    const minutes = (n: number) => new Date(start.getTime() + n * MINUTE);
    await db.asOwner("update app_private.installation set demo_live_until = $1", [start]);
    const store = (from: Date, to: Date) => loadDemoTraffic(pool, from, to).then(() => {});
    const textsSince = async (from: Date) =>
      (
        await db.asOwner<{ message: string; sended: Date }>(
          "select message, sended from app_public.p2000_messages where source = 'demo' and sended >= $1",
          [from],
        )
      ).rows;
    const client = await pool.connect();
    const other = await pool.connect();
    try {
      // The tick half a minute into the next minute stores the minute that passed.
      expect(await storeDemoMinutes(client, store, new Date(minutes(1).getTime() + 30_000))).toEqual({
        from: start,
        to: minutes(1),
      });
      const first = await textsSince(start);
      expect(new Set(first.map((m) => m.message))).toEqual(new Set(demoTexts(start, minutes(1))));
      for (const { sended } of first) expect(sended.getTime() - start.getTime()).toBeLessThan(MINUTE);

      // Another tick in the same minute: nothing.
      expect(await storeDemoMinutes(other, store, new Date(minutes(1).getTime() + 45_000))).toBeNull();
      expect(await demoCount()).toBe(first.length);

      // Two workers' ticks after an hour's stop: one fills the last 10 minutes, the other waits and finds them done.
      const later = new Date(minutes(60).getTime() + 5_000);
      const both = await Promise.all([storeDemoMinutes(client, store, later), storeDemoMinutes(other, store, later)]);
      const window = { from: new Date(minutes(60).getTime() - DEMO_CATCH_UP_MS), to: minutes(60) };
      expect(both.filter((stored) => stored !== null)).toEqual([window]);
      expect(await liveUntil(db)).toEqual(window.to);
      const caughtUp = await textsSince(minutes(1));
      expect(Math.min(...caughtUp.map((m) => m.sended.getTime()))).toBeGreaterThanOrEqual(window.from.getTime());
      expect(new Set(caughtUp.map((m) => m.message))).toEqual(new Set(demoTexts(window.from, window.to)));
    } finally {
      client.release();
      other.release();
    }
  });
});
