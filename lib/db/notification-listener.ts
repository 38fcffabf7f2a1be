// One LISTEN connection that says whether it is listening. The in-memory caches that PostgreSQL's
// notifications keep true (the API-token cache, the response cache) may only cache while they
// hear every notification: a notification sent while the connection was lost is gone. So the
// listener reports losing its connection (the cache empties itself and stops caching), and
// connects again every second until the database answers (the cache resumes once `listening`).
import type pg from "pg";

const RETRY_MS = 1000;

export class NotificationListener {
  private client: pg.PoolClient | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly pool: pg.Pool;
  private readonly channels: readonly string[];
  private readonly onNotification: (channel: string, payload: string) => void;
  private readonly onLost: () => void;
  private readonly onListening: () => void;

  constructor(options: {
    pool: pg.Pool;
    channels: readonly string[];
    onNotification: (channel: string, payload: string) => void;
    /** Called when the connection is lost: whatever the notifications kept true may be stale now. */
    onLost: () => void;
    /** Called each time it listens (first, and again after a loss): what was missed meanwhile is unknown. */
    onListening?: () => void;
  }) {
    this.pool = options.pool;
    this.channels = options.channels;
    this.onNotification = options.onNotification;
    this.onLost = options.onLost;
    this.onListening = options.onListening ?? (() => {});
  }

  /** True while every notification of the channels reaches this process. */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Connects and listens; throws if the database does not answer (a later loss is retried by itself). */
  async start(): Promise<void> {
    const client = await this.pool.connect();
    client.on("notification", (message) => {
      if (this.channels.includes(message.channel)) this.onNotification(message.channel, message.payload ?? "");
    });
    client.on("error", () => this.lose(client));
    client.on("end", () => this.lose(client));
    try {
      for (const channel of this.channels) await client.query(`listen ${channel}`);
    } catch (error) {
      client.release(true);
      throw error;
    }
    if (this.stopped) {
      client.release();
      return;
    }
    this.client = client;
    this.onListening();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    if (client) {
      await client.query("unlisten *").catch(() => {});
      client.release();
    }
  }

  private lose(client: pg.PoolClient): void {
    if (this.client !== client) return;
    this.client = null;
    client.release(true);
    this.onLost();
    this.listenAgain();
  }

  private listenAgain(): void {
    if (this.stopped) return;
    this.retry = setTimeout(() => {
      this.start().catch(() => this.listenAgain());
    }, RETRY_MS);
    this.retry.unref();
  }
}
