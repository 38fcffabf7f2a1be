// Waiting for one thing or the end of something long-lived (a LISTEN connection's life), without
// leaking and without a cost that grows with the number of waiters. Promise.race([next, longLived])
// adds a reaction to the long-lived promise on every call, which it keeps until it settles: a
// subscription racing each event against "connection lost" (a promise that may never settle) kept
// one closure, context and promise per event it ever delivered, about 150,000 in a four-minute
// soak of 200 subscribers (bench/soak.ts --heap-snapshot). An AbortSignal's listeners do not leak,
// but adding or removing one walks all the others (Node's EventTarget looks for a duplicate), so
// 11,000 viewers waiting on one connection's signal took seconds to subscribe (issue 47). Here a
// waiter is one entry in a Set, removed as soon as what it waited for settles.

/** What race() gives when the Ending came first. */
export const ENDED = Symbol("ended");

/** Something that ends once, with a reason, and the promises raced against it. */
export class Ending {
  #ended = false;
  #reason: unknown;
  readonly #waiting = new Set<() => void>();

  get ended(): boolean {
    return this.#ended;
  }

  /** Why it ended (undefined while it has not). */
  get reason(): unknown {
    return this.#reason;
  }

  /** Ends it (once): every race() waiting, and every later one, gives ENDED. */
  end(reason: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#reason = reason;
    for (const wake of this.#waiting) wake();
    this.#waiting.clear();
  }

  /** `promise`'s value, or ENDED when this ends first; its rejection is passed on. */
  race<T>(promise: Promise<T>): Promise<T | typeof ENDED> {
    if (this.#ended) return Promise.resolve(ENDED);
    return new Promise<T | typeof ENDED>((resolve, reject) => {
      const wake = () => resolve(ENDED);
      this.#waiting.add(wake);
      promise.then(
        (value) => {
          this.#waiting.delete(wake);
          resolve(value);
        },
        (error: unknown) => {
          this.#waiting.delete(wake);
          reject(error);
        },
      );
    });
  }

  /** How many race()s are waiting (for tests: none may be left behind). */
  get waiting(): number {
    return this.#waiting.size;
  }
}
