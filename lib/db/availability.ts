// Whether the database answers, as the service sees it. While it does not, GraphQL requests are
// answered at once with HTTP 503, SERVICE_UNAVAILABLE and Retry-After instead of each waiting for
// a connection that will fail, and the log says so once per change of state, not once per
// request or poll. A probe (`select 1`) runs every second while the database is up and every
// quarter second while it is down, so the service notices the database back well within 5 s; an
// error of a request that means the connection is gone marks it down at once. The probe has a
// connection of its own (not one of the pools'), so a busy pool, whose requests wait their turn,
// is never taken for a database that is gone; and a probe that only times out counts after three
// in a row, so a busy machine is not taken for one either (a connection that stalls in its
// password exchange ends in "timeout expired", a timeout like the others). Once the service stops,
// connections ending are its own doing (or the process manager's, which stops PostgreSQL beside
// it): nothing more is said of them.
import pg from "pg";
import { log as serviceLog } from "../ops/log.ts";

const PROBE_UP_MS = 1000;
const PROBE_DOWN_MS = 250;
/** A probe that has not answered in this long counts as failed (a host that drops packets). */
const PROBE_TIMEOUT_MS = 5000;
/**
 * Probes that fail without a sign that the connection is gone (a timeout: the database may just
 * be busy, or this machine) mark the database down only this many times in a row.
 */
const SLOW_PROBES_FOR_DOWN = 3;
/** What a client is told to wait before trying again. */
export const RETRY_AFTER_SECONDS = 2;

/** The error a GraphQL client gets while the database does not answer (HTTP 503). */
export const SERVICE_UNAVAILABLE = {
  code: "SERVICE_UNAVAILABLE",
  message: "The database is unavailable; try again in a few seconds.",
};

/** PostgreSQL SQLSTATEs and Node socket errors that mean "no database", not "bad query". */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") {
    if (["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "ENOENT"].includes(code))
      return true;
    // 08: connection exception; 57P01–57P03: admin or crash shutdown, cannot connect now.
    if (code.startsWith("08") || ["57P01", "57P02", "57P03"].includes(code)) return true;
  }
  // Not "timeout exceeded when trying to connect": pg-pool says that of a pool whose connections
  // are all busy too. "Underlying pubsub channel interrupted" is PostGraphile's PgSubscriber ending
  // the subscriptions of its lost LISTEN connection.
  const message = (error as { message?: unknown } | null)?.message;
  return (
    typeof message === "string" &&
    /Connection terminated|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery mode)|Underlying pubsub channel interrupted/i.test(
      message,
    )
  );
}

/** How often and how patiently to probe (the defaults above; tests shorten them). */
export interface ProbeTiming {
  upMs: number;
  downMs: number;
  timeoutMs: number;
}

const PROBE_TIMING: ProbeTiming = { upMs: PROBE_UP_MS, downMs: PROBE_DOWN_MS, timeoutMs: PROBE_TIMEOUT_MS };

export class DatabaseAvailability {
  private up = true;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private client: pg.Client | undefined;
  private slowProbes = 0;
  private readonly connectionString: string;
  private readonly log: (line: string) => void;
  private readonly timing: ProbeTiming;

  constructor(
    connectionString: string,
    log: (line: string) => void = (line) => serviceLog.warning(line),
    timing: ProbeTiming = PROBE_TIMING,
  ) {
    this.connectionString = connectionString;
    this.log = log;
    this.timing = timing;
  }

  get isUp(): boolean {
    return this.up;
  }

  /** True once stop() was called: the service is stopping, so lost connections are expected. */
  get stopping(): boolean {
    return this.stopped;
  }

  start(): void {
    this.schedule(this.timing.upMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.client?.end().catch(() => {});
  }

  /** Any error a request or job met: one that means the connection is gone marks the database down. */
  notice(error: unknown): void {
    if (isConnectionError(error)) this.set(false, error);
  }

  private set(up: boolean, error?: unknown): void {
    if (up === this.up || this.stopped) return;
    this.up = up;
    this.log(
      up
        ? "The database answers again."
        : `The database does not answer (${(error as Error)?.message ?? error}); GraphQL requests get 503 until it does.`,
    );
    if (!up) this.schedule(this.timing.downMs);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.probe(), ms);
    this.timer.unref();
  }

  private async probe(): Promise<void> {
    try {
      if (!this.client) {
        const client = new pg.Client({
          connectionString: this.connectionString,
          connectionTimeoutMillis: this.timing.timeoutMs,
          query_timeout: this.timing.timeoutMs,
        });
        client.on("error", () => {}); // the next probe finds out
        this.client = client;
        await client.connect();
      }
      await this.client.query("select 1");
      this.slowProbes = 0;
      this.set(true);
    } catch (error) {
      void this.client?.end().catch(() => {});
      this.client = undefined;
      this.slowProbes += 1;
      if (isConnectionError(error) || this.slowProbes >= SLOW_PROBES_FOR_DOWN) this.set(false, error);
    }
    this.schedule(this.up ? this.timing.upMs : this.timing.downMs);
  }
}
