// Answers of public reads kept in memory, per API instance (issue 33): thousands of clients ask
// the same few questions between two P2000 messages, and each answer is the same until the data
// it read changes. An answer is kept by everything it depends on (its key, made by
// answers.ts: the document, the variables and, for environment-bound fields, the
// environment) with the data domains it read (lib/graphql/cache-rules.ts), and dropped when the
// database announces a change to one of them (data_changed, sent at commit), or when it reaches
// the maximum age, the safety net for what changes with the clock alone (an NL-Alert that ends).
//
// Correctness rules:
// - Nothing is kept or served while the LISTEN connection is down (lib/db/notification-listener.ts):
//   a change announced meanwhile would be missed. Losing it empties the cache.
// - An answer is kept only if none of its domains changed while it was computed: the domains'
//   generations are read before execution and compared when it is stored, so an answer that
//   read the data before a commit is never kept after that commit's notification arrived.
// - An answer read on a read replica (lib/db/read-replicas.ts) is kept only if the replica had
//   replayed every announced change of the domains it read (lib/graphql/announced-positions.ts:
//   the primary's WAL position after each notification; the read's transaction notes the
//   replica's replay position). A lagging replica's answer is given to its client, never kept.
// - Bounded by the bytes of the answers and their keys (RESPONSE_CACHE_MB), least recently used
//   first out.
import { createHash } from "node:crypto";
import type pg from "pg";
import { NotificationListener } from "../../db/notification-listener.ts";
import { ALL_DOMAINS, AnnouncedPositions } from "../../graphql/announced-positions.ts";
import type { Domain } from "../../graphql/cache-rules.ts";

const DATA_CHANGED_CHANNEL = "data_changed";

export interface CachedAnswer {
  /**
   * The answer as sent: JSON of the execution result. Only the bytes are kept, not the result's
   * objects, which take several times as much memory and which the bound would not count; the
   * execute middleware parses them again on the rare hit that reaches it (most are answered
   * before grafserv, answers.ts).
   */
  readonly body: Buffer;
  /** A strong entity tag of the body (equal on every instance for the same answer). */
  readonly etag: string;
  readonly domains: readonly Domain[];
  readonly expires: number;
}

/** The generations of some domains when an execution began, to compare when its answer is stored. */
export interface Snapshot {
  readonly epoch: number;
  readonly generations: readonly number[];
}

export interface ResponseCacheOptions {
  pool: pg.Pool;
  /** Bytes of answers kept at most; 0 turns the cache off. */
  maxBytes: number;
  /** How long an answer is served at most, whatever the notifications say. */
  maxAgeMs: number;
  /** Read replicas take reads: note the primary's WAL position after each notification. */
  replicas?: boolean;
}

function entityTag(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
}

export class ResponseCache {
  /** Insertion order is use order: a hit moves its entry to the end, eviction takes the first. */
  private readonly entries = new Map<string, CachedAnswer>();
  private readonly generations = new Map<Domain, number>();
  /** Bumped when the listener is lost: no execution that began before may store its answer. */
  private epoch = 0;
  private bytes = 0;
  private readonly listener: NotificationListener;
  private readonly maxBytes: number;
  private readonly maxAgeMs: number;
  /** With read replicas: where the primary stood at each domain's last announced change. */
  private readonly positions: AnnouncedPositions | undefined;

  constructor(options: ResponseCacheOptions) {
    this.maxBytes = options.maxBytes;
    this.maxAgeMs = options.maxAgeMs;
    this.positions = options.replicas ? new AnnouncedPositions(options.pool) : undefined;
    this.listener = new NotificationListener({
      pool: options.pool,
      channels: [DATA_CHANGED_CHANNEL],
      onNotification: (_channel, domain) => this.changed(domain as Domain),
      onLost: () => {
        this.epoch++;
        this.clear();
      },
      // A replica may not yet have what was committed before this listener heard anything.
      onListening: () => this.positions?.announced(ALL_DOMAINS),
    });
  }

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** True while answers are kept and served (enabled, and every change is heard). */
  get active(): boolean {
    return this.enabled && this.listener.listening;
  }

  async start(): Promise<void> {
    if (this.enabled) await this.listener.start();
  }

  async stop(): Promise<void> {
    this.positions?.stop();
    await this.listener.stop();
    this.clear();
  }

  /** Bytes of the answers kept. */
  get bytesHeld(): number {
    return this.bytes;
  }

  /** The kept answer of a key, if it is still current. */
  get(key: string): CachedAnswer | undefined {
    if (!this.active) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.remove(key);
    if (entry.expires <= Date.now()) return undefined;
    this.add(key, entry);
    return entry;
  }

  /** Where the domains stand as an execution begins. */
  snapshot(domains: readonly Domain[]): Snapshot {
    return { epoch: this.epoch, generations: domains.map((domain) => this.generations.get(domain) ?? 0) };
  }

  /**
   * Keeps an answer computed since `snapshot` was taken, unless one of its domains changed
   * meanwhile (then it may show data from before that change) or it alone exceeds the bound.
   * Returns the entry kept, or undefined.
   */
  set(
    key: string,
    result: unknown,
    domains: readonly Domain[],
    snapshot: Snapshot,
    /** For an answer read on a replica: the lowest replay position of its transactions. */
    replayed?: bigint,
  ): CachedAnswer | undefined {
    if (!this.active || snapshot.epoch !== this.epoch) return undefined;
    if (replayed !== undefined && !this.positions?.covers(domains, replayed)) return undefined;
    if (domains.some((domain, i) => (this.generations.get(domain) ?? 0) !== snapshot.generations[i])) return undefined;
    const body = Buffer.from(JSON.stringify(result));
    if (body.length > this.maxBytes / 4) return undefined;
    const entry: CachedAnswer = { body, etag: entityTag(body), domains, expires: Date.now() + this.maxAgeMs };
    this.remove(key);
    this.add(key, entry);
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
    return entry;
  }

  /** A domain's data changed: every answer that read it goes, and answers under way are not kept. */
  private changed(domain: Domain): void {
    this.positions?.announced(domain);
    this.generations.set(domain, (this.generations.get(domain) ?? 0) + 1);
    for (const [key, entry] of this.entries) {
      if (entry.domains.includes(domain)) this.remove(key);
    }
  }

  /** Keeps an entry as the most recently used. Its key counts too: it holds the variables, which a client chooses. */
  private add(key: string, entry: CachedAnswer): void {
    this.entries.set(key, entry);
    this.bytes += entry.body.length + key.length;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.length + key.length;
  }

  private clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
