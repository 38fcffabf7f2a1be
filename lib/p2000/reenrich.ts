// Re-enrichment of stored P2000 messages (`npm run p2000:reenrich`): when the enrichment rules or
// the reference data they read (capcodes, places, their regions) change, the stored history is
// enriched again with app_hidden.p2000_enrich, batch by batch in uuid order. Each batch is one call
// of app_private.reenrich_p2000_messages, its own short transaction, that updates only the messages
// whose enrichment changed: their roll-ups (hourly, daily, per capcode) follow through the update
// trigger and nothing else is touched, so a run can be stopped and resumed (after the last uuid it
// printed) or repeated without changing anything twice.
import type pg from "pg";

export const REENRICH_BATCH_SIZE = 5000;

export interface ReenrichProgress {
  /** Batches done in this run. */
  batches: number;
  /** Messages read in this run. */
  scanned: number;
  /** Messages whose enrichment changed (and were updated) in this run. */
  changed: number;
  /** The cursor: the last uuid read, where a resumed run continues (null before the first batch). */
  lastUuid: string | null;
}

export interface ReenrichOptions {
  /** Messages per batch (default 5,000). */
  batchSize?: number;
  /** Start after this message uuid (resume a run); from the first message when absent. */
  after?: string | null;
  /** Called after each batch with the totals so far. */
  onBatch?: (progress: ReenrichProgress) => void;
}

/** How many stored messages come after the cursor: the work a run has ahead of it. */
export async function messagesAfter(db: pg.Pool | pg.ClientBase, after: string | null = null): Promise<number> {
  const {
    rows: [{ count }],
  } = await db.query<{ count: number }>(
    "select count(*)::integer as count from app_public.p2000_messages where $1::uuid is null or uuid > $1::uuid",
    [after],
  );
  return count;
}

/** Enriches every stored message after the cursor again, batch by batch; returns the totals. */
export async function reenrichP2000Messages(
  db: pg.Pool | pg.ClientBase,
  options: ReenrichOptions = {},
): Promise<ReenrichProgress> {
  const batchSize = options.batchSize ?? REENRICH_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error("The batch size must be a positive integer.");
  const progress: ReenrichProgress = { batches: 0, scanned: 0, changed: 0, lastUuid: options.after ?? null };
  for (;;) {
    // Outside a transaction block, each call is a transaction of its own: row locks and roll-up
    // updates last for one batch only.
    const {
      rows: [batch],
    } = await db.query<{ last_uuid: string | null; scanned: number; changed: number }>(
      "select last_uuid, scanned, changed from app_private.reenrich_p2000_messages($1::uuid, $2)",
      [progress.lastUuid, batchSize],
    );
    if (batch.scanned === 0) break;
    progress.batches++;
    progress.scanned += batch.scanned;
    progress.changed += batch.changed;
    progress.lastUuid = batch.last_uuid;
    options.onBatch?.({ ...progress });
    if (batch.scanned < batchSize) break;
  }
  return progress;
}
