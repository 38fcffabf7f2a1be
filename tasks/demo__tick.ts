// The live demo (lib/setup/demo-data.ts): once a minute, on a demo installation with DEMO_DATA
// still on, the minute that passed of synthetic P2000 traffic and of the demo helicopter's flights,
// stored through the FLEX reader's path and the aircraft state machine with source "demo", so
// subscriptions and the live map see them arrive. Elsewhere it reads one row and stores nothing.
import type { Task } from "graphile-worker";
import type pg from "pg";
import { flyDemoHelicopter } from "../lib/feeds/aircraft/demo-data.ts";
import { loadDemoTraffic } from "../lib/p2000/demo-data.ts";
import { storeDemoMinutes } from "../lib/setup/demo-data.ts";

/** `pool`: the FLEX reader's path stores on several connections at once. */
export const makeDemoTick =
  (demoData: boolean, pool: pg.Pool): Task =>
  async (_payload, helpers) => {
    if (!demoData) return;
    let messages = 0;
    let positions = 0;
    const stored = await helpers.withPgClient((client) =>
      storeDemoMinutes(client, async (from, to) => {
        messages = await loadDemoTraffic(pool, from, to);
        positions = await flyDemoHelicopter(pool, from, to);
      }),
    );
    if (stored) {
      helpers.logger.debug(
        `Live demo ${stored.from.toISOString()}–${stored.to.toISOString()}: ${messages} P2000 messages, ${positions} helicopter positions.`,
      );
    }
  };
