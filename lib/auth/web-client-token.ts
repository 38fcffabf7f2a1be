// The web-client credential (docs/web.md): an ordinary API token of the operator environment,
// named web-client, with the auth scopes only, that every visitor's page reads with. Its secret is
// public by design (GET /web/config.json hands it out), so the database keeps it in the clear, in
// app_private.web_client_token, for the service to read. Each API instance makes it at start when
// the installation never had one; the token CLI rotates and revokes it.
//
// WebClientToken is an instance's memory of it: read again at most every ttlMs (30 s), and at
// once when any API token changes (the api_token_changed announcement that the API-token cache
// hears; a new web-client token is announced there too), so a rotation or revocation on one
// instance, or by the CLI, reaches every instance.
import type pg from "pg";
import { apiTokenPreview, generateApiTokenSecret, hashApiTokenSecret, type ApiTokenRow } from "./api-tokens.ts";

export const WEB_CLIENT_TOKEN_NAME = "web-client";

/** The three SQL arguments of a new secret: plain (kept, public by design), hash and preview. */
function newSecret(): [string, Buffer, string] {
  const secret = generateApiTokenSecret();
  return [secret, hashApiTokenSecret(secret), apiTokenPreview(secret)];
}

/** Makes the credential when the installation never had one; true when this call made it. */
export async function ensureWebClientToken(db: pg.ClientBase | pg.Pool): Promise<boolean> {
  const {
    rows: [row],
  } = await db.query<{ created: boolean }>(
    "select app_private.ensure_web_client_token($1, $2, $3) as created",
    newSecret(),
  );
  return row.created;
}

/** A new secret, the old one revoked at once; also brings back a revoked credential. */
export async function rotateWebClientToken(db: pg.ClientBase | pg.Pool): Promise<ApiTokenRow> {
  const {
    rows: [row],
  } = await db.query<ApiTokenRow>("select * from app_private.rotate_web_client_token($1, $2, $3)", newSecret());
  return row;
}

/** Revokes the credential (pages then get none); the revoked token, or null when there was none. */
export async function revokeWebClientToken(db: pg.ClientBase | pg.Pool): Promise<ApiTokenRow | null> {
  const {
    rows: [row],
  } = await db.query<ApiTokenRow>("select * from app_private.revoke_web_client_token()");
  return row.uuid ? row : null;
}

export const WEB_CLIENT_TOKEN_TTL_MS = 30_000;

export class WebClientToken {
  private readonly pool: pg.Pool;
  private readonly ttlMs: number;
  private known: string | null = null;
  private readAt = -Infinity;
  private reading: Promise<string | null> | undefined;
  /** Counts forget() calls, so a read that began before one does not count as fresh. */
  private generation = 0;

  /** `pool` reads app_private (the owner's); `ttlMs` bounds how stale the memory may be. */
  constructor(pool: pg.Pool, options: { ttlMs?: number } = {}) {
    this.pool = pool;
    this.ttlMs = options.ttlMs ?? WEB_CLIENT_TOKEN_TTL_MS;
  }

  /** The live credential's secret, or null when there is none (revoked). */
  async secret(): Promise<string | null> {
    if (Date.now() - this.readAt < this.ttlMs) return this.known;
    return this.read();
  }

  /**
   * Whether a bearer value is the credential, as last read (no database round trip: the request
   * budgets ask before anything else runs); a stale memory is read again for the next request.
   */
  isWebClient(bearer: string): boolean {
    if (Date.now() - this.readAt >= this.ttlMs) void this.read().catch(() => {});
    return this.known !== null && bearer === this.known;
  }

  /** Reads the credential again at the next use (an API token changed). */
  forget(): void {
    this.generation++;
    this.readAt = -Infinity;
    this.reading = undefined;
  }

  private read(): Promise<string | null> {
    // Requests at once share one read; a read begun before a forget() is not shared after it.
    if (this.reading) return this.reading;
    const reading = this.load().finally(() => {
      if (this.reading === reading) this.reading = undefined;
    });
    this.reading = reading;
    return reading;
  }

  private async load(): Promise<string | null> {
    const generation = this.generation;
    const started = Date.now();
    const {
      rows: [row],
    } = await this.pool.query<{ secret: string | null }>("select secret from app_private.current_web_client_token()");
    const secret = row?.secret ?? null;
    if (generation === this.generation) {
      this.known = secret;
      this.readAt = started;
    }
    return secret;
  }
}
