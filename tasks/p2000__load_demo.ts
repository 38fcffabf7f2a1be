// Fills a new installation with synthetic P2000 traffic (lib/p2000/demo-data.ts), a few hours per job so
// that a shutdown never waits long: each job stores its chunk and queues the next one. Queued by
// the server on the first start of the embedded default; the API answers meanwhile.
import type { Task } from "graphile-worker";
import type pg from "pg";
import { loadDemoTraffic } from "../lib/p2000/demo-data.ts";

const CHUNK_MS = 6 * 3_600_000;

/** `pool`: the FLEX reader's path enriches and stores on several connections at once. */
export const makeP2000LoadDemo =
  (pool: pg.Pool): Task =>
  async (payload, helpers) => {
    const { from, until } = payload as { from: string; until: string };
    const start = new Date(from);
    const end = new Date(Math.min(start.getTime() + CHUNK_MS, new Date(until).getTime()));
    const stored = await loadDemoTraffic(pool, start, end);
    helpers.logger.info(`Demo data: ${stored} synthetic P2000 messages up to ${end.toISOString()}.`);
    if (end.getTime() < new Date(until).getTime()) {
      await helpers.addJob("p2000__load_demo", { from: end.toISOString(), until }, { jobKey: "p2000_demo" });
    }
  };
