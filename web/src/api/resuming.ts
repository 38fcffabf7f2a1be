// A subscription that comes back by itself. The service ends every subscription when its database
// goes away, with SERVICE_UNAVAILABLE and a retryAfter hint in seconds (docs/live.md), while the
// WebSocket stays open; graphql-ws only resubscribes after a lost socket, so without this a page
// would go dark after any database blip. After the hint, and then after a growing, randomised delay
// while it keeps failing (many pages must not all come back in the same instant), the subscription
// is made again and `resumed` is called, so the screen fetches what it missed meanwhile. A
// subscription ended for another reason (the credential refused, too many subscriptions, a bad
// request) stays ended: subscribing again would not help, and the screen shows the problem.
// Pure (no DOM), so that it is tested in Node.

/** A GraphQL error as the service sends it. */
export interface ResultError {
  message: string;
  extensions?: { code?: string; retryAfter?: number };
}

/** What the transport tells of one subscription: graphql-ws's sink. */
export interface Sink<T> {
  next(result: { data?: T | null; errors?: readonly unknown[] }): void;
  error(error: unknown): void;
  complete(): void;
}

/** Subscribes once; returns the function that ends it. */
export type Subscribe<T> = (sink: Sink<T>) => () => void;

export interface ResumingHandlers<T> {
  data(data: T): void;
  /** An error the screen should show: in an event, or the end of a subscription that stays ended. */
  problem(error: ResultError): void;
  /** Subscribed again after an end the page came back from: fetch what was missed. */
  resumed(): void;
}

/** The codes of ends a page comes back from by subscribing again. */
export const RESUMABLE_CODES: ReadonlySet<string> = new Set(["SERVICE_UNAVAILABLE"]);

const FIRST_DELAY_MS = 1000;
const LONGEST_DELAY_MS = 30_000;

/**
 * How long to wait before the next attempt: the service's hint (or a second), doubled for each
 * attempt since the subscription last delivered, at most 30 s, and up to half as much again at
 * random.
 */
export function retryDelayMs(failures: number, retryAfterSeconds?: number, random: () => number = Math.random): number {
  const hint = Math.max(FIRST_DELAY_MS, (retryAfterSeconds ?? 0) * 1000);
  return Math.min(LONGEST_DELAY_MS, hint * 2 ** Math.min(failures, 5)) * (1 + random() / 2);
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const GLOBAL_TIMERS: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]),
};

/** Subscribes, and again after each resumable end, until the returned function is called. */
export function resumingSubscription<T>(
  subscribe: Subscribe<T>,
  handlers: ResumingHandlers<T>,
  timers: Timers = GLOBAL_TIMERS,
  random: () => number = Math.random,
): () => void {
  let stopped = false;
  let unsubscribe: (() => void) | undefined;
  let timer: unknown;
  /** Attempts since the subscription last delivered data. */
  let failures = 0;

  const open = () => {
    // The end this attempt announced (in an event before its complete), if it may be resumed.
    let resumableEnd: ResultError | undefined;
    let over = false;
    const resume = (hintSeconds: number | undefined) => {
      if (over || stopped) return;
      over = true;
      const delay = retryDelayMs(failures, hintSeconds, random);
      failures += 1;
      timer = timers.setTimeout(() => {
        if (stopped) return;
        open();
        handlers.resumed();
      }, delay);
    };
    unsubscribe = subscribe({
      next: (result) => {
        if (over) return;
        const first = result.errors?.[0] as ResultError | undefined;
        if (first && RESUMABLE_CODES.has(first.extensions?.code ?? "")) resumableEnd = first;
        else if (first) handlers.problem(first);
        else if (result.data) {
          failures = 0;
          handlers.data(result.data);
        }
      },
      complete: () => {
        if (resumableEnd) resume(resumableEnd.extensions?.retryAfter);
        else over = true;
      },
      // The protocol's error message (GraphQL errors: resumed only when resumable, as above), or a
      // socket graphql-ws gave up on (shown, and tried again: nothing says it would fail for good).
      error: (error) => {
        const first = Array.isArray(error) ? (error[0] as ResultError | undefined) : undefined;
        if (first && RESUMABLE_CODES.has(first.extensions?.code ?? "")) return resume(first.extensions?.retryAfter);
        handlers.problem(first ?? { message: "The live connection was lost.", extensions: { code: "NETWORK_ERROR" } });
        if (first) over = true;
        else resume(undefined);
      },
    });
  };

  open();
  return () => {
    stopped = true;
    timers.clearTimeout(timer);
    unsubscribe?.();
  };
}
