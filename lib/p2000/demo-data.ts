// Demo data for a new installation: synthetic traffic (lib/p2000/synthetic-pager-traffic.ts) stored through the
// FLEX reader's path with source "demo", so a newcomer sees messages, dossiers and statistics at
// once. The p2000__load_demo job loads the past days in chunks, then the demo__tick job each
// minute as it passes; DEMO_DATA=false turns both off.
import type pg from "pg";
import { createFlexIngester } from "./flex-ingest.ts";
import { generatePagerTraffic } from "./synthetic-pager-traffic.ts";

const HOUR = 3_600_000;

/**
 * The synthetic traffic between from and to. Each hour is generated with its own seed (the hour
 * number), so a minute's traffic is the same whatever window it is asked in: the demo load and
 * the minute-by-minute ticks pick out slices of one and the same traffic. (Retransmissions a
 * few minutes after an hour's end are left out: they belong to the previous hour's sequence.)
 */
export function* demoTrafficLines(from: Date, to: Date): Generator<string> {
  for (let hour = Math.floor(from.getTime() / HOUR); hour * HOUR < to.getTime(); hour++) {
    yield* generatePagerTraffic({
      from: new Date(Math.max(from.getTime(), hour * HOUR)),
      to: new Date(Math.min(to.getTime(), (hour + 1) * HOUR)),
      seed: hour,
    });
  }
}

/** Stores the synthetic traffic between from and to; returns how many pages it stored. */
export async function loadDemoTraffic(db: pg.Pool, from: Date, to: Date): Promise<number> {
  const ingester = createFlexIngester(db, { source: "demo" });
  for (const line of demoTrafficLines(from, to)) await ingester.push(line);
  await ingester.flush();
  return ingester.stats.stored;
}
