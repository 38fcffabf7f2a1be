// API-token authentication answers kept in memory for a short while, so most public reads skip
// one database round trip. Revocation stays immediate: every change to a token is announced on
// the channel api_token_changed (a trigger on app_public.api_tokens), and every instance listening
// forgets that token at once. Without a live listener (not started, or its connection lost)
// nothing is cached, so a missed announcement can never keep a revoked token alive; a lost
// listener is started again (every second until the database answers), and caching resumes.
import type pg from "pg";

export interface ApiTokenGrant {
  apiTokenUuid: string;
  environmentUuid: string;
  scopes: string[];
  /** The web application's shared credential (lib/auth/web-client-token.ts). */
  webClient: boolean;
}

interface Entry {
  grant: ApiTokenGrant | null;
  until: number;
}

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;
const CHANNEL = "api_token_changed";

export class ApiTokenCache {
  private readonly entries = new Map<string, Entry>();
  private listener: pg.PoolClient | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly pool: pg.Pool;
  private readonly changeListeners: Array<(apiTokenUuid: string) => void> = [];

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  /** Starts listening; caching begins once the listener is connected. */
  async start(): Promise<void> {
    const client = await this.pool.connect();
    client.on("notification", (message) => {
      if (message.channel !== CHANNEL) return;
      this.forget(message.payload ?? "");
      for (const listener of this.changeListeners) listener(message.payload ?? "");
    });
    client.on("error", () => this.lose(client));
    client.on("end", () => this.lose(client));
    try {
      await client.query(`listen ${CHANNEL}`);
    } catch (error) {
      client.release(true);
      throw error;
    }
    if (this.stopped) {
      client.release();
      return;
    }
    this.listener = client;
  }

  /** Calls `listener` with each announced token change (while the listener is connected). */
  onChange(listener: (apiTokenUuid: string) => void): void {
    this.changeListeners.push(listener);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.listener;
    this.listener = null;
    this.entries.clear();
    if (client) {
      await client.query(`unlisten ${CHANNEL}`).catch(() => {});
      client.release();
    }
  }

  /** The grant for a secret hash: cached, or from `load` (null = not a valid token). */
  async lookup(
    hashHex: string,
    load: () => Promise<(ApiTokenGrant & { expiresAt: Date | null }) | null>,
  ): Promise<ApiTokenGrant | null> {
    const now = Date.now();
    const hit = this.entries.get(hashHex);
    if (hit && hit.until > now && this.listener) return hit.grant;
    const loaded = await load();
    const grant = loaded && {
      apiTokenUuid: loaded.apiTokenUuid,
      environmentUuid: loaded.environmentUuid,
      scopes: loaded.scopes,
      webClient: loaded.webClient,
    };
    if (this.listener) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      // A token that expires within the TTL is kept only until it expires; unknown secrets are
      // remembered too, so a flood of bad tokens does not reach the database.
      this.entries.set(hashHex, { grant, until: Math.min(now + TTL_MS, loaded?.expiresAt?.getTime() ?? Infinity) });
    }
    return grant;
  }

  /** Forgets a token (by uuid) and every unknown secret (a new token may now match one). */
  forget(apiTokenUuid: string): void {
    for (const [key, entry] of this.entries) {
      if (!entry.grant || entry.grant.apiTokenUuid === apiTokenUuid) this.entries.delete(key);
    }
  }

  private lose(client: pg.PoolClient): void {
    if (this.listener !== client) return;
    this.listener = null;
    this.entries.clear();
    client.release(true);
    this.listenAgain();
  }

  private listenAgain(): void {
    if (this.stopped) return;
    this.retry = setTimeout(() => {
      this.start().catch(() => this.listenAgain());
    }, 1000);
    this.retry.unref();
  }
}
