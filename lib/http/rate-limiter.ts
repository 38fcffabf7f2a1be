// Request budgets per minute (per API token, per client address), shared by every API instance
// through PostgreSQL without a round trip per request: each instance counts in memory and, once a
// second, adds its new hits to app_private.rate_limit_counters in one statement, which answers
// every instance's total so far for those buckets and for every bucket with a request in the
// last few seconds (so it learns what the others counted for the clients it is serving). A request is refused when the last known total plus this
// instance's hits since then reach the budget, so instances agree within about a second (a
// client spreading requests over N instances can exceed its budget by at most what it sends in
// that second). Fixed windows of one minute, aligned on the clock: Retry-After is the time to
// the next window. Without the database (a flush fails) each instance goes on counting on its
// own and sends its hits with the next flush that works.
import type pg from "pg";

const WINDOW_MS = 60_000;
const FLUSH_MS = 1_000;
/** Buckets sent per statement, and buckets kept per window (a flood of addresses stays bounded). */
const FLUSH_CHUNK = 1_000;
const MAX_BUCKETS = 100_000;

/** Buckets asked for at most this long ago keep learning the others' totals. */
const ACTIVE_MS = 10_000;

interface Bucket {
  /** When this instance last saw a request for it. */
  seenAt: number;
  /** Total of all instances as of the last flush (this instance's flushed hits included). */
  shared: number;
  /** This instance's hits not yet flushed. */
  unflushed: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window ends (for Retry-After). */
  retryAfterSeconds: number;
}

export class RateLimiter {
  private window = 0;
  private buckets = new Map<string, Bucket>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), FLUSH_MS).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Counts one request against `bucket` unless its budget for this minute is spent. */
  take(bucket: string, budget: number, now = Date.now()): RateDecision {
    const window = Math.floor(now / WINDOW_MS);
    if (window !== this.window) {
      this.window = window;
      this.buckets = new Map();
    }
    const retryAfterSeconds = Math.ceil(((window + 1) * WINDOW_MS - now) / 1000);
    let entry = this.buckets.get(bucket);
    if (!entry) {
      if (this.buckets.size >= MAX_BUCKETS) return { allowed: true, retryAfterSeconds };
      entry = { seenAt: now, shared: 0, unflushed: 0 };
      this.buckets.set(bucket, entry);
    }
    entry.seenAt = now;
    if (entry.shared + entry.unflushed >= budget) return { allowed: false, retryAfterSeconds };
    entry.unflushed += 1;
    return { allowed: true, retryAfterSeconds };
  }

  /** Adds this instance's new hits to the shared counters and learns everyone's totals. */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    const window = this.window;
    const buckets = this.buckets;
    const activeSince = Date.now() - ACTIVE_MS;
    const pending = [...buckets].filter(([, b]) => b.unflushed > 0 || b.seenAt >= activeSince);
    for (let i = 0; i < pending.length; i += FLUSH_CHUNK) {
      const chunk = pending.slice(i, i + FLUSH_CHUNK);
      const sent = chunk.map(([, b]) => b.unflushed);
      let rows: Array<{ bucket: string; total: number }>;
      try {
        ({ rows } = await this.pool.query<{ bucket: string; total: number }>(
          "select bucket, total from app_private.add_rate_limit_hits($1::text[], $2::integer[], to_timestamp($3::double precision))",
          [chunk.map(([name]) => name), sent, (window * WINDOW_MS) / 1000],
        ));
      } catch {
        return; // kept unflushed; the next flush sends them
      }
      if (this.window !== window) return; // a new minute began meanwhile: these totals are history
      const totals = new Map(rows.map((r) => [r.bucket, r.total]));
      chunk.forEach(([name, bucket], j) => {
        bucket.unflushed -= sent[j];
        bucket.shared = Math.max(bucket.shared, totals.get(name) ?? 0);
      });
    }
  }
}
