// A person's session in the console: the access token (a JWT, valid 15 minutes) and the refresh
// token (single use, rotated by each refreshToken; docs/accounts.md).
//
// Where they are kept, and why: in localStorage, so that every tab of the console shares one
// session and a reload keeps it; never in a URL (the magic link's tokens arrive in the fragment,
// which the page reads and removes at once), never in a cookie (the API takes Bearer tokens
// only). What protects them is the page's strict Content-Security-Policy (only this origin's
// script, nothing inline, nothing evaluated), so foreign script cannot read the storage; a stolen
// refresh token is single use, and its reuse ends the whole session for both holders.
//
// Tabs refresh in turn: a refresh runs under a Web Lock, and reads the stored tokens again once it
// holds the lock, so two tabs never spend the same refresh token (which the service would take for
// theft and end the session). The access token is refreshed a minute before it expires, when a
// request needs it and by a timer while the page is open.
import { jwtDecode } from "jwt-decode";
import { Api, ApiError } from "../api/client.ts";
import { LogoutMutation, RefreshMutation } from "./account-queries.ts";

const STORAGE_KEY = "nlis.session";
const REFRESH_LOCK = "nlis.session.refresh";
/** Refresh when the access token has less than this left. */
const REFRESH_MARGIN_MS = 60_000;

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

interface StoredSession extends TokenPair {
  /** When the access token expires (ms since the epoch, from its `exp`). */
  expiresAt: number;
}

/** Why the session ended, for the sign-in screen to say. */
export type SessionEnd = "signedOut" | "refused";

function readStored(): StoredSession | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null") as StoredSession | null;
    return stored?.accessToken && stored.refreshToken ? stored : null;
  } catch {
    return null;
  }
}

export class UserSession {
  /** The API as the signed-in person: each request carries a fresh access token. */
  readonly api: Api;
  /** The API with the page's web-client credential, whose auth:* scopes sign in, register and reset. */
  readonly auth: Api;
  readonly #graphqlPath: string;
  readonly #listeners = new Set<() => void>();
  #refreshing: Promise<string | null> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ended: SessionEnd | null = null;

  constructor(graphqlPath: string, webClientToken: string) {
    this.#graphqlPath = graphqlPath;
    this.auth = new Api(graphqlPath, webClientToken);
    this.api = new Api(graphqlPath, () => this.accessToken(), { onCredentialRefused: () => this.end("refused") });
    this.api.onUnauthenticated(() => this.end("refused"));
    // Another tab signed in, refreshed or signed out.
    window.addEventListener("storage", (event) => {
      if (event.key !== STORAGE_KEY) return;
      if (!readStored() && !this.#ended) this.#ended = "signedOut";
      this.#changed();
    });
    this.#schedule();
  }

  get signedIn(): boolean {
    return readStored() !== null;
  }

  /** Why the last session ended (null while signed in, or when it never began in this page). */
  get ended(): SessionEnd | null {
    return this.#ended;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Keep a new token pair: from login, a magic link or switchEnvironment. */
  start(tokens: TokenPair): void {
    const { exp } = jwtDecode<{ exp?: number }>(tokens.accessToken);
    const expiresAt = exp ? exp * 1000 : Date.now() + 5 * 60_000;
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...tokens, expiresAt } satisfies StoredSession));
    this.#ended = null;
    this.#changed();
  }

  /** The current access token, refreshed first when it has under a minute left; null when signed out. */
  async accessToken(): Promise<string | null> {
    const stored = readStored();
    if (!stored) return null;
    if (stored.expiresAt - Date.now() > REFRESH_MARGIN_MS) return stored.accessToken;
    this.#refreshing ??= this.#refresh().finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  /** The service refused the session (ended elsewhere, or a spent refresh token): forget it. */
  end(reason: SessionEnd): void {
    localStorage.removeItem(STORAGE_KEY);
    this.#ended = reason;
    this.#changed();
  }

  /** Sign out: end the session at the service (best effort: offline, it ends here anyway). */
  async signOut(): Promise<void> {
    if (this.signedIn) await this.api.request(LogoutMutation).catch(() => undefined);
    this.end("signedOut");
  }

  async #refresh(): Promise<string | null> {
    const run = async (): Promise<string | null> => {
      // Another tab may have refreshed while this one waited for the lock.
      const stored = readStored();
      if (!stored) return null;
      if (stored.expiresAt - Date.now() > REFRESH_MARGIN_MS) return stored.accessToken;
      try {
        const { refreshToken } = await new Api(this.#graphqlPath, stored.refreshToken).request(RefreshMutation);
        this.start(refreshToken);
        return refreshToken.accessToken;
      } catch (error) {
        // Spent (reused), expired or ended: the session is over. Offline: keep it and try later.
        if (error instanceof ApiError && error.code === "UNAUTHENTICATED") {
          this.end("refused");
          return null;
        }
        throw error;
      }
    };
    return navigator.locks ? navigator.locks.request(REFRESH_LOCK, run) : run();
  }

  /** A refresh a minute before expiry while the page is open, so live connections keep working. */
  #schedule(): void {
    clearTimeout(this.#timer);
    const stored = readStored();
    if (!stored) return;
    const due = Math.max(1_000, stored.expiresAt - REFRESH_MARGIN_MS - Date.now() + 1_000);
    // Offline: try again in half a minute.
    const retry = () => (this.#timer = setTimeout(() => this.#schedule(), 30_000));
    this.#timer = setTimeout(() => void this.accessToken().catch(retry), due);
  }

  #changed(): void {
    this.#schedule();
    for (const listener of this.#listeners) listener();
  }
}
