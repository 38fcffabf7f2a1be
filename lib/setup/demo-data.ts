// The demo data of the embedded default (DEMO_DATA, docs/operations.md): the first start queues
// the past three days (P2000, weather, alerts, traffic, flights) and makes the installation a demo
// one; the demo__tick job then stores each minute of synthetic P2000 traffic and demo helicopter
// positions as it passes. app_private.installation.demo_live_until keeps both the decision (null:
// not a demo installation) and how far the live demo got, so each minute is stored once.
import type pg from "pg";

/** After a stop the live demo fills this much at most: a gap of hours stays a gap. */
export const DEMO_CATCH_UP_MS = 10 * 60_000;

/**
 * Makes this installation a demo one and queues the demo load of the three days before now, in
 * one transaction (the statements of one simple query): the live demo goes on where the load ends.
 * The demo flights go in the ticks' queue, so the helicopter's first live positions come after them.
 */
export async function queueDemoData(db: pg.Pool): Promise<void> {
  await db.query(`
    update app_private.installation set demo_live_until = now();
    select graphile_worker.add_job('p2000__load_demo', json_build_object('from', now() - interval '3 days', 'until', now()), job_key => 'p2000_demo'),
           graphile_worker.add_job('meteo__load_demo', '{}', job_key => 'meteo_demo'),
           graphile_worker.add_job('alerts__load_demo', '{}', job_key => 'alerts_demo'),
           graphile_worker.add_job('traffic__load_demo', '{}', job_key => 'traffic_demo'),
           graphile_worker.add_job('aircraft__load_demo', '{}', queue_name => 'demo_live', job_key => 'aircraft_demo');`);
}

/**
 * Stores the live demo's minutes up to the last whole minute before `now`: from where it got to
 * (at most DEMO_CATCH_UP_MS back) with `store`, then records the new end, all while holding the
 * installation row. A second tick (another worker, or the same minute again) waits for the first
 * and then finds nothing left; a store that fails records nothing, so the retry stores the same
 * minutes (P2000 copies merge with what was stored: lib/p2000/flex-ingest.ts). Returns the
 * minutes stored, or null on an installation that is not a demo one or is up to date.
 */
export async function storeDemoMinutes(
  client: pg.ClientBase,
  store: (from: Date, to: Date) => Promise<void>,
  now = new Date(),
): Promise<{ from: Date; to: Date } | null> {
  const to = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  await client.query("begin");
  try {
    const {
      rows: [installation],
    } = await client.query<{ demo_live_until: Date | null }>(
      "select demo_live_until from app_private.installation for update",
    );
    const until = installation?.demo_live_until;
    if (!until || until.getTime() >= to.getTime()) {
      await client.query("commit");
      return null;
    }
    const from = new Date(Math.max(until.getTime(), to.getTime() - DEMO_CATCH_UP_MS));
    await store(from, to);
    await client.query("update app_private.installation set demo_live_until = $1", [to]);
    await client.query("commit");
    return { from, to };
  } catch (error) {
    await client.query("rollback");
    throw error;
  }
}
