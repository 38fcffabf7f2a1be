// The soak's live subscribers: graphql-ws clients of `subscription { p2000Messages … }`, each on a
// WebSocket of its own, spread over a few API tokens, as browsers and dashboards hold them. A
// subscription that ends, however it ends (an error result, an error message, `complete`, the
// socket closed), is made again after a short backoff, on a new socket: what docs/live.md asks of
// clients. How each end was coded is counted (TOO_MANY_SUBSCRIPTIONS is the slot leak of issue
// 43; SERVICE_UNAVAILABLE the documented end when the database goes).
// A subscriber is "back" at a moment when its current subscription is open and has received an
// event since that moment's reference (a fault's recovery): the writer publishes every half
// second, so an open subscription that hears nothing is not live.
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";

const QUERY = "subscription { p2000Messages { uuid } }";

/** Duplicates are looked for within this long (two generations of seen uuids), not over hours. */
const DUPLICATE_WINDOW_MS = 10 * 60_000;

interface Subscriber {
  client: Client | undefined;
  open: boolean;
  /** Date.now() of the latest event of its current subscription (0: none yet). */
  lastEventAt: number;
  /** Ends in a row without an event in between: the backoff grows with them. */
  failures: number;
  seen: Set<string>;
  seenBefore: Set<string>;
}

export class Subscribers {
  events = 0;
  duplicates = 0;
  subscriptions = 0;
  /** How subscriptions ended: the error code, `complete`, `close <code>`, or the error's message. */
  readonly ends = new Map<string, number>();
  /** When each end came (Date.now()), so that the report can tell those of a fault from the rest. */
  readonly endTimes: number[] = [];
  private readonly subscribers: Subscriber[] = [];
  private stopped = false;
  private rotation: NodeJS.Timeout | undefined;

  private readonly wsUrl: string;
  private readonly tokens: string[];

  constructor(wsUrl: string, tokens: string[]) {
    this.wsUrl = wsUrl;
    this.tokens = tokens;
  }

  /** Subscribes `count` subscribers, a hundred at a time (not all handshakes in one tick). */
  async start(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const subscriber: Subscriber = {
        client: undefined,
        open: false,
        lastEventAt: 0,
        failures: 0,
        seen: new Set(),
        seenBefore: new Set(),
      };
      this.subscribers.push(subscriber);
      this.subscribe(subscriber, this.tokens[i % this.tokens.length]);
      if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    this.rotation = setInterval(() => {
      for (const s of this.subscribers) [s.seenBefore, s.seen] = [s.seen, new Set()];
    }, DUPLICATE_WINDOW_MS);
  }

  get count(): number {
    return this.subscribers.length;
  }

  /** Subscribers whose current subscription is open and has had an event at or after `since` (Date.now()). */
  backSince(since: number): number {
    return this.subscribers.filter((s) => s.open && s.lastEventAt >= since).length;
  }

  /**
   * After a fault's recovery at `since`: how many are back `withinMs` later, and how long until all
   * were (undefined when not within `maxMs`).
   */
  async waitBack(since: number, withinMs: number, maxMs: number) {
    let backWithin: number | undefined;
    let allBackAfterMs: number | undefined;
    while (Date.now() < since + maxMs) {
      const back = this.backSince(since);
      if (allBackAfterMs === undefined && back === this.count) allBackAfterMs = Date.now() - since;
      // All back before the deadline counts as all back within it.
      if (backWithin === undefined && (Date.now() >= since + withinMs || back === this.count)) backWithin = back;
      if (backWithin !== undefined && allBackAfterMs !== undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return { backWithin: backWithin ?? this.backSince(since), allBackAfterMs };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.rotation);
    await Promise.all(this.subscribers.map(async (s) => s.client?.dispose()));
  }

  private subscribe(subscriber: Subscriber, token: string): void {
    if (this.stopped) return;
    this.subscriptions++;
    const client = createClient({
      url: this.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
    });
    subscriber.client = client;
    subscriber.open = true;
    subscriber.lastEventAt = 0;
    let ended = false;
    const end = (how: string) => {
      if (ended || this.stopped) return; // the bench's own stop is not an end to count
      ended = true;
      subscriber.open = false;
      this.ends.set(how, (this.ends.get(how) ?? 0) + 1);
      this.endTimes.push(Date.now());
      void client.dispose();
      // 1 s, then longer while it keeps ending without an event (up to 5 s), with jitter so that
      // 200 subscribers do not come back in one tick.
      const backoff = Math.min(5000, 1000 * 2 ** Math.min(subscriber.failures, 3)) + Math.random() * 500;
      subscriber.failures++;
      setTimeout(() => this.subscribe(subscriber, token), backoff);
    };
    client.subscribe<{ p2000Messages: Array<{ uuid: string }> | null }>(
      { query: QUERY },
      {
        next: (result) => {
          if (result.errors?.length) return end(codeOf(result.errors));
          const messages = result.data?.p2000Messages ?? [];
          if (messages.length === 0) return;
          subscriber.lastEventAt = Date.now();
          subscriber.failures = 0;
          this.events++;
          for (const { uuid } of messages) {
            if (subscriber.seen.has(uuid) || subscriber.seenBefore.has(uuid)) this.duplicates++;
            else subscriber.seen.add(uuid);
          }
        },
        error: (error) => end(codeOf(error)),
        complete: () => end("complete"),
      },
    );
  }
}

/** The code of how a subscription ended: a GraphQL error's code, a close code, or the error's name. */
function codeOf(error: unknown): string {
  if (Array.isArray(error)) {
    const code = (error[0] as { extensions?: { code?: unknown } } | undefined)?.extensions?.code;
    return typeof code === "string" ? code : "error without a code";
  }
  if (error && typeof error === "object" && "code" in error && typeof error.code === "number")
    return `close ${error.code}`;
  // The socket's error event (a refused connection or upgrade) carries a message, as Errors do.
  if (error && typeof error === "object" && "message" in error && typeof error.message === "string")
    return error.message.slice(0, 60);
  return "error";
}
