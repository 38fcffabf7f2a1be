// Read replicas (READ_REPLICA_URLS, issue 33): PostgreSQL streaming replicas that take the public
// read operations off the primary (which requests go where: lib/graphql/replica-routing.ts).
//
// Each replica is checked every second on a connection of its own: is it up, is it still a standby,
// and how far behind the primary is it. The lag is measured in time, not bytes: every check first
// notes the primary's WAL position (pg_current_wal_lsn, what it has written and so can have sent),
// and a replica that has replayed the position noted at time t holds everything the primary had
// written before t, so it is at most now − t behind. (Not the insert position: on an idle primary
// whose last record ends at a page boundary it points past the next page's header, which no
// replica replays until something is written; nor pg_last_xact_replay_timestamp, which would call
// an idle primary's replica late.) A replica that is down, no longer a standby (promoted) or more
// than READ_REPLICA_MAX_LAG_SECONDS behind is left out until a check finds it back; each change
// is said once in the log, and /ready and /metrics show every replica's state.
//
// A request on a replica that finds it gone (a connection error at any point) is read again on the
// primary and the replica is left out at once (lib/graphql/pg-request-adaptor.ts): reads are safe
// to repeat, so a replica killed under load costs the clients nothing.
import pg from "pg";
import { pgUrl } from "./pg-url.ts";
import { replicaInService, replicaLagSeconds } from "../ops/metrics.ts";

/** A WAL position as a number: "16/B374D848" → 0x16B374D848. */
export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

export interface ReplicaStatus {
  /** host:port, as the metrics label it (a URL would show its password). */
  name: string;
  inService: boolean;
  /** Seconds behind the primary at the last check; null while it cannot be told (down). */
  lagSeconds: number | null;
  /** Why it is left out, when it is. */
  reason?: string;
}

export interface Replica {
  readonly name: string;
  /** The request connections (as many as the primary's). */
  readonly pool: pg.Pool;
  /** Takes the replica out now, until a check finds it back (a request found it gone). */
  leaveOut(reason: string): void;
}

export interface ReadReplicaOptions {
  urls: string[];
  /** The authenticator's URL on the primary: its login and database for URLs that name none. */
  authUrl: string;
  /** Where the primary's WAL position is read. */
  primary: pg.Pool;
  maxLagSeconds: number;
  /** Connections per replica for requests. */
  connections: number;
  log: (line: string) => void;
  checkIntervalMs?: number;
}

/** A replica URL with the authenticator's login and database where it names none. */
export function replicaUrl(url: string, authUrl: string): string {
  const given = new URL(url);
  if (given.username) return url;
  const auth = new URL(authUrl);
  return pgUrl(url, {
    user: decodeURIComponent(auth.username),
    password: decodeURIComponent(auth.password),
    database:
      given.pathname.length > 1
        ? decodeURIComponent(given.pathname.slice(1))
        : decodeURIComponent(auth.pathname.slice(1)),
  });
}

/** How long a check, and a request's wait for a replica's connection, may take. */
const CHECK_TIMEOUT_MS = 2000;
/** Positions kept beyond the lag limit's worth, so a lag a little over the limit is still told. */
const EXTRA_POSITIONS = 10;

class ReplicaState implements Replica {
  readonly name: string;
  readonly pool: pg.Pool;
  /** The checks' own connection, so a busy request pool never delays the health check. */
  readonly checkPool: pg.Pool;
  status: ReplicaStatus;
  private readonly log: (line: string) => void;

  constructor(url: string, connections: number, log: (line: string) => void) {
    const parsed = new URL(url);
    this.name = `${parsed.hostname}:${parsed.port || "5432"}`;
    this.log = log;
    // A replica's errors are its own: they never mark the service's database down.
    const quiet = (pool: pg.Pool) => {
      pool.on("error", () => {});
      pool.on("connect", (client) => client.on("error", () => {}));
      return pool;
    };
    this.pool = quiet(
      new pg.Pool({ connectionString: url, max: connections, connectionTimeoutMillis: CHECK_TIMEOUT_MS }),
    );
    this.checkPool = quiet(
      new pg.Pool({
        connectionString: url,
        max: 1,
        connectionTimeoutMillis: CHECK_TIMEOUT_MS,
        query_timeout: CHECK_TIMEOUT_MS,
      }),
    );
    this.status = { name: this.name, inService: false, lagSeconds: null, reason: "not checked yet" };
  }

  leaveOut(reason: string): void {
    this.set({ name: this.name, inService: false, lagSeconds: this.status.lagSeconds, reason });
  }

  set(status: ReplicaStatus): void {
    const was = this.status;
    this.status = status;
    replicaInService.set({ replica: this.name }, status.inService ? 1 : 0);
    if (status.lagSeconds !== null) replicaLagSeconds.set({ replica: this.name }, status.lagSeconds);
    if (was.inService && !status.inService) this.log(`Read replica ${this.name} left out: ${status.reason}.`);
    if (!was.inService && status.inService) this.log(`Read replica ${this.name} takes public reads.`);
  }
}

export class ReadReplicas {
  private readonly replicas: ReplicaState[];
  private readonly options: ReadReplicaOptions;
  /** The primary's WAL positions as noted by the checks, oldest first. */
  private positions: Array<{ at: number; lsn: bigint }> = [];
  /** How many of the primary's positions to keep: enough to tell any lag up to the limit. */
  private readonly keepPositions: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private next = 0;

  constructor(options: ReadReplicaOptions) {
    this.options = options;
    const interval = options.checkIntervalMs ?? 1000;
    this.keepPositions = Math.ceil((options.maxLagSeconds * 1000) / interval) + EXTRA_POSITIONS;
    this.replicas = options.urls.map(
      (url) => new ReplicaState(replicaUrl(url, options.authUrl), options.connections, options.log),
    );
  }

  get configured(): boolean {
    return this.replicas.length > 0;
  }

  /** Checks every replica once (so the first requests may use them), then every second. */
  async start(): Promise<void> {
    if (!this.configured) return;
    await this.check();
    const tick = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.running = this.check().finally(tick);
      }, this.options.checkIntervalMs ?? 1000);
      this.timer.unref();
    };
    tick();
  }

  /** Stops the checks (waiting for one under way) and closes the replicas' connections. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await Promise.all(this.replicas.flatMap((replica) => [replica.pool.end(), replica.checkPool.end()]));
  }

  /** A replica in service for the next public read (in turn), or undefined: the primary reads. */
  pick(): Replica | undefined {
    for (let tried = 0; tried < this.replicas.length; tried++) {
      const replica = this.replicas[this.next++ % this.replicas.length]!;
      if (replica.status.inService) return replica;
    }
    return undefined;
  }

  statuses(): ReplicaStatus[] {
    return this.replicas.map((replica) => replica.status);
  }

  private async check(): Promise<void> {
    const now = Date.now();
    try {
      const { rows } = await this.options.primary.query<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn");
      this.positions.push({ at: now, lsn: lsnValue(rows[0]!.lsn) });
      if (this.positions.length > this.keepPositions) this.positions.shift();
    } catch {
      // The primary is away: the replicas' lag cannot be told, and the service is unavailable anyway.
      return;
    }
    await Promise.all(this.replicas.map((replica) => this.checkReplica(replica, now)));
  }

  private async checkReplica(replica: ReplicaState, now: number): Promise<void> {
    let standby: boolean;
    let replayed: bigint;
    try {
      const { rows } = await replica.checkPool.query<{ standby: boolean; lsn: string | null }>(
        "select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as lsn",
      );
      standby = rows[0]!.standby;
      replayed = rows[0]!.lsn === null ? -1n : lsnValue(rows[0]!.lsn);
    } catch (error) {
      replica.set({
        name: replica.name,
        inService: false,
        lagSeconds: null,
        reason: `down (${(error as Error).message})`,
      });
      return;
    }
    if (!standby) {
      replica.set({ name: replica.name, inService: false, lagSeconds: null, reason: "not a standby (promoted?)" });
      return;
    }
    // The newest noted position it has replayed: it holds everything committed before then.
    const caughtUp = this.positions.findLast((position) => position.lsn <= replayed);
    const lagSeconds = caughtUp ? Math.round((now - caughtUp.at) / 100) / 10 : Infinity;
    const max = this.options.maxLagSeconds;
    replica.set(
      lagSeconds <= max
        ? { name: replica.name, inService: true, lagSeconds }
        : {
            name: replica.name,
            inService: false,
            lagSeconds: Number.isFinite(lagSeconds) ? lagSeconds : null,
            reason: `more than ${max} s behind the primary`,
          },
    );
  }
}
