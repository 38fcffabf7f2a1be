// Where the primary's WAL stood when each data domain's last change was announced, for the response
// cache's rule on read replicas (lib/http/response-cache/store.ts): a replica's answer may be kept
// only if the replica had replayed every announced change of the domains the answer read. A
// data_changed notification arrives after its commit, so the primary's WAL position read after it
// is past that commit. The insert position (pg_current_wal_insert_lsn), not the written one: with
// synchronous_commit = off a commit may be acknowledged, and announced, before it is written.
// Until that reading is back, the domain's position is unknown and no replica answer of it is
// kept; a failed reading is tried again a second later.
import type pg from "pg";
import { lsnValue } from "../db/read-replicas.ts";
import type { Domain } from "./cache-rules.ts";

/** Every domain at once: the listener has just begun, and what it missed is unknown. */
export const ALL_DOMAINS = "*";

const RETRY_MS = 1000;

export class AnnouncedPositions {
  private readonly pool: pg.Pool;
  /** The position after each domain's last announced change; ALL_DOMAINS' applies to every domain. */
  private readonly positions = new Map<Domain | typeof ALL_DOMAINS, bigint>();
  /** Domains whose position is to be read, and those whose reading is under way. */
  private readonly wanted = new Set<Domain | typeof ALL_DOMAINS>();
  private readonly reading = new Set<Domain | typeof ALL_DOMAINS>();
  private busy = false;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  /** A change of the domain was announced: read where the primary stands now. */
  announced(domain: Domain | typeof ALL_DOMAINS): void {
    this.wanted.add(domain);
    void this.readPositions();
  }

  /** True when a read that had replayed up to `replayed` shows every announced change of these domains. */
  covers(domains: readonly Domain[], replayed: bigint): boolean {
    const keys = [ALL_DOMAINS, ...domains] as const;
    if (keys.some((key) => this.wanted.has(key) || this.reading.has(key))) return false;
    return keys.every((key) => replayed >= (this.positions.get(key) ?? 0n));
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  private async readPositions(): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      while (this.wanted.size > 0 && !this.stopped) {
        for (const key of this.wanted) this.reading.add(key);
        this.wanted.clear();
        try {
          const { rows } = await this.pool.query<{ lsn: string }>("select pg_current_wal_insert_lsn()::text as lsn");
          const position = lsnValue(rows[0]!.lsn);
          for (const key of this.reading) this.positions.set(key, position);
        } catch {
          // Still unknown: those domains keep no replica answer until a later reading succeeds.
          for (const key of this.reading) this.wanted.add(key);
          this.reading.clear();
          this.retry = setTimeout(() => void this.readPositions(), RETRY_MS);
          this.retry.unref();
          return;
        }
        this.reading.clear();
      }
    } finally {
      this.busy = false;
    }
  }
}
