// What the benchmarks with a database of their own share: its data directory under bench/ (kept
// between runs; --fresh starts over), the installation on it (migrations and reference data, no
// demo data), an owner pool, a P2000 history through the FLEX reader's path, and a seeded random
// generator so that every run asks the same things.
// The service under measurement runs in its own process (server-process.ts), with every feed off.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { loadConfig, mergeConfig } from "../lib/config.ts";
import { createFlexIngester } from "../lib/p2000/flex-ingest.ts";
import { generatePagerTraffic } from "../lib/p2000/synthetic-pager-traffic.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";

export const BENCH_DIR = path.dirname(new URL(import.meta.url).pathname);

export async function openBenchDatabase(name: string, pgPort: number, fresh: boolean) {
  const dataDir = path.join(BENCH_DIR, `.data-${name}`);
  if (fresh) fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const config = mergeConfig(loadConfig(), {
    database: { url: undefined, dataDir, embeddedPgPort: pgPort },
    http: { port: 0 },
    log: { level: "error" },
    demoData: false,
  });
  const database = await prepareDatabase(config.database);
  const owner = new pg.Pool({ connectionString: database.ownerUrl, max: 2 });
  owner.on("error", () => {}); // idle connections end when the embedded server stops at the end
  return { dataDir, config, database, owner };
}

/**
 * A P2000 history through the FLEX reader's path: whatever is missing up to `target` messages, of
 * `perDay` messages a day (lib/p2000/synthetic-pager-traffic.ts), from the oldest stored message (or now) backwards,
 * in two parallel halves (disjoint time ranges, so no dossier spans both), each with an ingester of
 * its own on `loader` (2 * FLEX_READER_CONNECTIONS connections; `db` counts). What was stored and in
 * how many seconds, or undefined when nothing was missing; statistics are the caller's.
 */
export async function loadFlexHistory(db: pg.Pool, target: number, perDay: number, loader = db) {
  const {
    rows: [{ have }],
  } = await db.query<{ have: number }>("select count(*)::int as have from app_public.p2000_messages");
  if (have >= target) return undefined;
  const days = (target - have) / perDay;
  const {
    rows: [{ oldest }],
  } = await db.query<{ oldest: Date }>("select coalesce(min(sended), now()) as oldest from app_public.p2000_messages");
  const to = new Date(oldest);
  const from = new Date(to.getTime() - days * 86_400_000);
  const middle = new Date((from.getTime() + to.getTime()) / 2);
  console.log(`Loading ${target - have} messages (${days.toFixed(0)} days of traffic) ...`);
  const started = performance.now();
  const halves = await Promise.all(
    [
      [from, middle],
      [middle, to],
    ].map(async ([a, b]) => {
      const ingester = createFlexIngester(loader, { source: "bench" });
      for (const line of generatePagerTraffic({ from: a, to: b, perDay, seed: a.getTime() })) await ingester.push(line);
      await ingester.flush();
      return ingester.stats.stored;
    }),
  );
  return { stored: halves[0] + halves[1], seconds: (performance.now() - started) / 1000 };
}

/** A small seeded generator (mulberry32): the same seed gives the same numbers on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Deletes the traffic a bench stored ahead (dated from 30 days on, so that it never mixes with the
 * history), with its dossiers and roll-ups, and vacuums what it deleted from, so that runs do not
 * disturb each other: the next measurement (and the reads) meet the history as it was, not the
 * dead rows of this one (a dossier lookup walks the dead index entries of a deleted day ahead
 * until a vacuum removes them, and autovacuum may not come round within a bench run).
 */
export async function forgetTrafficAhead(db: pg.Pool | pg.ClientBase): Promise<void> {
  await db.query(`
    with m as (delete from app_public.p2000_messages where sended > now() + interval '29 days'),
         d as (delete from app_public.p2000_dossiers where first_sended > now() + interval '29 days'),
         h as (delete from app_hidden.p2000_hourly_counts where hour > now() + interval '29 days'),
         u as (delete from app_hidden.p2000_hourly_urgency_counts where hour > now() + interval '29 days')
    delete from app_hidden.p2000_daily_counts where day > current_date + 29`);
  await db.query(`vacuum app_public.p2000_messages, app_public.p2000_message_capcodes, app_public.p2000_dossiers,
    app_public.p2000_dossier_events, app_hidden.p2000_hourly_counts, app_hidden.p2000_hourly_urgency_counts, app_hidden.p2000_daily_counts`);
}
