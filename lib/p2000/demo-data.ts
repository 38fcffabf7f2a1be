// Demo data for a new installation: synthetic traffic (lib/p2000/synthetic-pager-traffic.ts) stored through the
// FLEX reader's path with source "demo", so a newcomer sees messages, dossiers and statistics at
// once. The p2000__load_demo job loads it in chunks; DEMO_DATA=false turns it off.
import type pg from "pg";
import { createFlexIngester } from "./flex-ingest.ts";
import { generatePagerTraffic } from "./synthetic-pager-traffic.ts";

/** Stores the synthetic traffic between from and to; returns how many pages it stored. */
export async function loadDemoTraffic(db: pg.Pool, from: Date, to: Date): Promise<number> {
  const ingester = createFlexIngester(db, { source: "demo" });
  for (const line of generatePagerTraffic({ from, to, seed: Math.floor(from.getTime() / 3_600_000) })) {
    await ingester.push(line);
  }
  await ingester.flush();
  return ingester.stats.stored;
}
