// API-token authentication answers kept in memory for a short while, so most public reads skip
// one database round trip. Revocation stays immediate: every change to a token is announced on
// the channel api_token_changed (a trigger on app_public.api_tokens), and every instance listening
// forgets that token at once. Without a live listener (not started, or its connection lost)
// nothing is cached, so a missed announcement can never keep a revoked token alive; a lost
// listener is started again (lib/db/notification-listener.ts), and caching resumes.
import type pg from "pg";
import { NotificationListener } from "../db/notification-listener.ts";

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
  private readonly listener: NotificationListener;
  private readonly changeListeners: Array<(apiTokenUuid: string) => void> = [];

  constructor(pool: pg.Pool) {
    this.listener = new NotificationListener({
      pool,
      channels: [CHANNEL],
      onNotification: (_channel, apiTokenUuid) => {
        this.forget(apiTokenUuid);
        for (const listener of this.changeListeners) listener(apiTokenUuid);
      },
      onLost: () => this.entries.clear(),
    });
  }

  /** Starts listening; caching begins once the listener is connected. */
  start(): Promise<void> {
    return this.listener.start();
  }

  /** Calls `listener` with each announced token change (while the listener is connected). */
  onChange(listener: (apiTokenUuid: string) => void): void {
    this.changeListeners.push(listener);
  }

  async stop(): Promise<void> {
    await this.listener.stop();
    this.entries.clear();
  }

  /** The grant for a secret hash: cached, or from `load` (null = not a valid token). */
  async lookup(
    hashHex: string,
    load: () => Promise<(ApiTokenGrant & { expiresAt: Date | null }) | null>,
  ): Promise<ApiTokenGrant | null> {
    const now = Date.now();
    const hit = this.entries.get(hashHex);
    if (hit && hit.until > now && this.listener.listening) return hit.grant;
    const loaded = await load();
    const grant = loaded && {
      apiTokenUuid: loaded.apiTokenUuid,
      environmentUuid: loaded.environmentUuid,
      scopes: loaded.scopes,
      webClient: loaded.webClient,
    };
    if (this.listener.listening) {
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
}
