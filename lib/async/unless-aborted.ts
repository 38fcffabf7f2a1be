// Waiting for one thing or a long-lived signal, without leaking. Promise.race([next, longLived])
// adds a reaction to the long-lived promise on every call, which it keeps until it settles: a
// subscription racing each event against "revoked" or "connection lost" (promises that may never
// settle) kept one closure, context and promise per event it ever delivered, about 150,000 in a
// four-minute soak of 200 subscribers (bench/soak.ts --heap-snapshot). An AbortSignal's listener is
// removed again as soon as the awaited promise settles.

/** What unlessAborted gives when the signal aborted first. */
export const ABORTED = Symbol("aborted");

/** `promise`'s value, or ABORTED when `signal` aborts first; its rejection is passed on. */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
