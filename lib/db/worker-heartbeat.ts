// A worker process's heartbeat (issue 47). graphile-worker frees the jobs of a worker that ended
// without unlocking them only after 4 hours: a worker process killed outright (SIGKILL, the
// machine gone, out of memory) in the middle of a delivery left that delivery waiting that long.
// So every worker process says every `intervalMs` which worker ids it runs
// (app_private.worker_heartbeat), and the jobs of ids not heard of for `staleAfterMs` are freed by
// the next live process that beats; a process that stops cleanly says farewell.
//
// Why the sweep waits: after a database outage every process's last beat is old, and the first
// process back would take the others, still running their jobs, for dead. A process sweeps only
// once it has itself beaten without a gap for `staleAfterMs`, by which time every live process
// has beaten again.
import type pg from "pg";

export interface WorkerHeartbeatOptions {
  /** How often a process beats (default 5 s). */
  intervalMs?: number;
  /** How long an id may go unheard before its jobs are freed (default 60 s). */
  staleAfterMs?: number;
  /** Said when a sweep freed the jobs of ended workers. */
  onFreed?: (workerIds: string[]) => void;
}

export class WorkerHeartbeat {
  private readonly intervalMs: number;
  private readonly staleAfterMs: number;
  private readonly onFreed: (workerIds: string[]) => void;
  private timer: NodeJS.Timeout | undefined;
  /** Since when this process has beaten without a gap (undefined after a failed beat). */
  private beatingSince: number | undefined;
  private lastBeatAt = 0;
  private beating: Promise<void> = Promise.resolve();

  private readonly pool: pg.Pool;
  /** The worker ids this process runs now (they change when its runner is started again). */
  private readonly workerIds: () => string[];

  constructor(pool: pg.Pool, workerIds: () => string[], options: WorkerHeartbeatOptions = {}) {
    this.pool = pool;
    this.workerIds = workerIds;
    this.intervalMs = options.intervalMs ?? 5_000;
    this.staleAfterMs = options.staleAfterMs ?? 60_000;
    this.onFreed = options.onFreed ?? (() => {});
  }

  start(): void {
    this.beatNow();
    this.timer = setInterval(() => this.beatNow(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops beating and forgets this process's ids (its jobs were unlocked by the runner's clean stop). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    await this.pool.query("select app_private.worker_farewell($1::text[])", [this.workerIds()]).catch(() => undefined); // the database gone: the ids go stale and are forgotten by the next sweep
  }

  /** One beat at a time: a slow database makes beats late, never piled up. */
  private beatNow(): void {
    this.beating = this.beating.then(() => this.beat());
  }

  private async beat(): Promise<void> {
    const now = Date.now();
    // A beat far later than planned (a blocked event loop, a slow database) is a gap too.
    if (this.beatingSince !== undefined && now - this.lastBeatAt > this.staleAfterMs / 2) this.beatingSince = undefined;
    const sweep = this.beatingSince !== undefined && now - this.beatingSince >= this.staleAfterMs;
    try {
      const {
        rows: [{ freed }],
      } = await this.pool.query<{ freed: string[] }>(
        "select app_private.worker_heartbeat($1::text[], make_interval(secs => $2), $3) as freed",
        [this.workerIds(), this.staleAfterMs / 1000, sweep],
      );
      this.beatingSince ??= now;
      this.lastBeatAt = now;
      if (freed.length > 0) this.onFreed(freed);
    } catch {
      // The database away: the availability probe says so; this process sweeps again only after a
      // whole stale period of beats.
      this.beatingSince = undefined;
    }
  }
}
