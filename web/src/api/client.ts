// The page's one way to the API: queries and mutations over HTTP, subscriptions over graphql-ws.
// The credential is the web-client API token from the service's configuration, a signed-in page's
// own API token (WEB_REQUIRE_SIGN_IN), or a source asked before each request (the console's user
// session, which refreshes its access token before it expires). The connection's state (idle,
// connecting, live, offline) is published so the shell can show it; after a reconnect every
// subscriber is told, so it can fetch what it missed while the socket was down. "Offline" means a
// socket that the page needs was lost: the socket graphql-ws closes itself once a screen has ended
// its last subscription (going from the map to the dashboards) is no loss, and the state is then
// idle again, as on a screen that never subscribed. Subscriptions the service ended because its
// database went away are made again by themselves (./resuming.ts), and the subscribers are told the
// same way.
import { createClient, type Client } from "graphql-ws";
import { print } from "graphql";
import type { TadaDocumentNode } from "gql.tada";
import { resumingSubscription } from "./resuming.ts";

/** Subscriptions resumed within this long of each other are announced once (one refetch). */
const RESUMES_SETTLE_MS = 200;
/** How long after the last subscription ended a socket's close is still taken as graphql-ws's own. */
const RELEASE_CLOSE_MS = 5000;

/** idle: no subscription needs the socket (a screen without live data, or all of them ended). */
export type ConnectionState = "idle" | "connecting" | "live" | "offline";

export class ApiError extends Error {
  readonly code: string | undefined;
  readonly status: number;
  constructor(message: string, code: string | undefined, status: number) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Where a credential comes from: fixed, or asked before each request and each socket connection. */
export type Credential = string | null | (() => Promise<string | null>);

interface GraphqlErrorBody {
  message: string;
  extensions?: { code?: string };
}

export class Api {
  readonly #graphqlPath: string;
  #credential: Credential;
  #ws: Client | undefined;
  #state: ConnectionState = "idle";
  readonly #stateListeners = new Set<(state: ConnectionState) => void>();
  readonly #reconnectListeners = new Set<() => void>();
  /** The subscriptions the screens hold now (each counted until its stop function is called). */
  #active = 0;
  /** The socket was lost while subscriptions needed it: its return is a reconnect. */
  #lost = false;
  /**
   * The last subscription ended: the socket's coming close (graphql-ws's own, "Normal Closure") is
   * no loss. Forgotten after a few seconds, in case a new subscription kept the socket open.
   */
  #released: ReturnType<typeof setTimeout> | undefined;
  #resumeAnnouncement: ReturnType<typeof setTimeout> | undefined;
  /**
   * The page's place in the spread of resumptions, the same for all its subscriptions: pages come
   * back at different moments, a page's subscriptions together.
   */
  readonly #resumeJitter = Math.random();
  #onUnauthenticated: (() => void) | undefined;
  readonly #onCredentialRefused: (() => void) | undefined;

  /**
   * `onCredentialRefused`: called when an answer's error is UNAUTHENTICATED (which the service
   * sends with HTTP 200 for a user token it no longer takes), for an Api that holds a session.
   */
  constructor(graphqlPath: string, credential: Credential, options: { onCredentialRefused?: () => void } = {}) {
    this.#graphqlPath = graphqlPath;
    this.#credential = credential;
    this.#onCredentialRefused = options.onCredentialRefused;
  }

  get state(): ConnectionState {
    return this.#state;
  }

  onState(listener: (state: ConnectionState) => void): () => void {
    this.#stateListeners.add(listener);
    listener(this.#state);
    return () => this.#stateListeners.delete(listener);
  }

  /** Called when the service refuses the credential (HTTP 401): expired, revoked or rotated. */
  onUnauthenticated(listener: () => void): void {
    this.#onUnauthenticated = listener;
  }

  /**
   * Called after the socket came back from a loss, or subscriptions the service had ended were
   * made again, to fetch what was missed.
   */
  onReconnect(listener: () => void): () => void {
    this.#reconnectListeners.add(listener);
    return () => this.#reconnectListeners.delete(listener);
  }

  async request<Result, Variables>(
    document: TadaDocumentNode<Result, Variables>,
    variables?: Variables,
  ): Promise<Result> {
    const credential = await this.#currentCredential();
    let response: Response;
    try {
      response = await fetch(this.#graphqlPath, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/graphql-response+json, application/json",
          ...(credential ? { authorization: `Bearer ${credential}` } : {}),
        },
        body: JSON.stringify({ query: print(document), variables }),
      });
    } catch {
      throw new ApiError("The service cannot be reached.", "NETWORK_ERROR", 0);
    }
    if (response.status === 401) this.#onUnauthenticated?.();
    if (response.status === 429) {
      throw new ApiError("Too many requests: wait a moment and try again.", "RATE_LIMITED", 429);
    }
    const body = (await response.json().catch(() => null)) as {
      data?: Result;
      errors?: GraphqlErrorBody[];
    } | null;
    const first = body?.errors?.[0];
    if (first?.extensions?.code === "UNAUTHENTICATED" && credential) this.#onCredentialRefused?.();
    if (first) throw new ApiError(first.message, first.extensions?.code, response.status);
    if (!body?.data) throw new ApiError(`The service answered ${response.status}.`, undefined, response.status);
    return body.data;
  }

  /**
   * Each result of a subscription, until the returned function is called; after an end the page
   * comes back from (the service's database gone), subscribed again by itself.
   */
  subscribe<Result, Variables>(
    document: TadaDocumentNode<Result, Variables>,
    variables: Variables,
    onData: (data: Result) => void,
    onError: (error: ApiError) => void = () => {},
  ): () => void {
    const payload = { query: print(document), variables: variables as Record<string, unknown> };
    this.#active += 1;
    const stop = resumingSubscription<Result>(
      (sink) => this.#socket().subscribe<Result>(payload, sink),
      {
        data: onData,
        problem: (error) => {
          const code = error.extensions?.code;
          onError(new ApiError(error.message, code, code === "NETWORK_ERROR" ? 0 : 200));
        },
        resumed: () => this.#announceResume(),
      },
      undefined,
      () => this.#resumeJitter,
    );
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      stop();
      this.#active -= 1;
      if (this.#active > 0) return;
      // graphql-ws closes the socket now (lazy): that close is not a loss. A socket that was not
      // open (connecting, or trying again after a loss) is needed by no one any more.
      clearTimeout(this.#released);
      this.#released = setTimeout(() => (this.#released = undefined), RELEASE_CLOSE_MS);
      this.#lost = false;
      if (this.#state !== "live") this.#setState("idle");
    };
  }

  #announceResume(): void {
    clearTimeout(this.#resumeAnnouncement);
    this.#resumeAnnouncement = setTimeout(() => {
      for (const listener of this.#reconnectListeners) listener();
    }, RESUMES_SETTLE_MS);
  }

  #socket(): Client {
    if (this.#ws) return this.#ws;
    const url = new URL(this.#graphqlPath, location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    this.#ws = createClient({
      url: url.href,
      // Asked at each (re)connection, so a refreshed access token is used.
      connectionParams: async () => {
        const credential = await this.#currentCredential();
        return credential ? { authorization: `Bearer ${credential}` } : {};
      },
      lazy: true,
      // Forever, with graphql-ws's randomised exponential back-off (capped by the browser's patience).
      retryAttempts: Infinity,
      shouldRetry: () => true,
      on: {
        connecting: () => this.#setState(this.#lost ? "offline" : "connecting"),
        connected: () => {
          const wasLost = this.#lost;
          this.#lost = false;
          this.#setState("live");
          if (wasLost) for (const listener of this.#reconnectListeners) listener();
        },
        closed: (event) => {
          const released = this.#released !== undefined && (event as CloseEvent | undefined)?.code === 1000;
          clearTimeout(this.#released);
          this.#released = undefined;
          // Closed after the screens ended their subscriptions (a screen without live data took
          // over): idle, or connecting again at once if a new screen subscribed meanwhile.
          if (this.#active === 0 || released) {
            this.#lost = false;
            this.#setState(this.#active > 0 ? "connecting" : "idle");
            return;
          }
          this.#lost = true;
          this.#setState("offline");
        },
      },
    });
    return this.#ws;
  }

  async #currentCredential(): Promise<string | null> {
    return typeof this.#credential === "function" ? this.#credential() : this.#credential;
  }

  #setState(state: ConnectionState): void {
    if (state === this.#state) return;
    this.#state = state;
    for (const listener of this.#stateListeners) listener(state);
  }
}
