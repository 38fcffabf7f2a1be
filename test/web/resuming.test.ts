// web/src/api/resuming.ts, without a browser: a subscription the service ends with
// SERVICE_UNAVAILABLE is made again after the retryAfter hint (longer each time it fails again,
// shorter once it delivered), and the page is told so it fetches what it missed; other ends stay
// ended and are shown; stopping it cancels a pending attempt.
import { describe, expect, test } from "@jest/globals";
import {
  resumingSubscription,
  retryDelayMs,
  type ResultError,
  type Sink,
  type Timers,
} from "../../web/src/api/resuming.ts";

type Data = { n: number };

/** The subscriptions made, their sinks, and timers the test runs by hand. */
function harness() {
  const sinks: Sink<Data>[] = [];
  const ended: number[] = [];
  const pending: Array<{ callback: () => void; ms: number; cleared: boolean }> = [];
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      const timer = { callback, ms, cleared: false };
      pending.push(timer);
      return timer;
    },
    clearTimeout: (timer) => {
      if (timer) (timer as { cleared: boolean }).cleared = true;
    },
  };
  const seen = { data: [] as number[], problems: [] as Array<string | undefined>, resumed: 0 };
  const stop = resumingSubscription<Data>(
    (sink) => {
      const index = sinks.push(sink) - 1;
      return () => ended.push(index);
    },
    {
      data: (data) => seen.data.push(data.n),
      problem: (error) => seen.problems.push(error.extensions?.code),
      resumed: () => seen.resumed++,
    },
    timers,
    () => 0, // no jitter: delays exact
  );
  /** Runs the one timer due, and returns its delay. */
  const tick = () => {
    const due = pending.filter((timer) => !timer.cleared);
    expect(due).toHaveLength(1);
    pending.splice(0);
    due[0].callback();
    return due[0].ms;
  };
  return { sinks, ended, pending, seen, stop, tick };
}

const GONE: ResultError = {
  message: "The database is unavailable, so this subscription has ended.",
  extensions: { code: "SERVICE_UNAVAILABLE", retryAfter: 2 },
};

describe("a resuming subscription", () => {
  test("ended with SERVICE_UNAVAILABLE: subscribed again after the hint, then longer each failure, the page told each time", () => {
    const { sinks, seen, tick, pending } = harness();
    sinks[0].next({ data: { n: 1 } });
    sinks[0].next({ errors: [GONE] });
    sinks[0].complete();
    expect(seen.problems).toEqual([]); // an expected end, not a problem to show
    expect(tick()).toBe(2000);
    expect(sinks).toHaveLength(2);
    expect(seen.resumed).toBe(1);
    // Still away: longer.
    sinks[1].next({ errors: [GONE] });
    sinks[1].complete();
    expect(tick()).toBe(4000);
    // Back: events again, and the next end starts from the hint again.
    sinks[2].next({ data: { n: 2 } });
    sinks[2].next({ errors: [GONE] });
    sinks[2].complete();
    expect(tick()).toBe(2000);
    expect(seen).toEqual({ data: [1, 2], problems: [], resumed: 3 });
    // An old subscription's late messages are ignored.
    sinks[0].next({ data: { n: 99 } });
    sinks[0].complete();
    expect(pending.filter((timer) => !timer.cleared)).toEqual([]);
    expect(seen.data).toEqual([1, 2]);
  });

  test("SERVICE_UNAVAILABLE as the protocol's error message, and a socket given up on, are resumed too", () => {
    const { sinks, seen, tick } = harness();
    sinks[0].error([GONE]);
    expect(tick()).toBe(2000);
    sinks[1].error(new Error("socket closed"));
    expect(seen.problems).toEqual(["NETWORK_ERROR"]);
    expect(tick()).toBe(2000); // a second without a hint, doubled once
    expect(sinks).toHaveLength(3);
  });

  test("other ends stay ended and are shown", () => {
    const { sinks, seen, pending } = harness();
    sinks[0].next({ errors: [{ message: "revoked", extensions: { code: "UNAUTHENTICATED" } }] });
    sinks[0].complete();
    const { sinks: other, seen: otherSeen, pending: otherPending } = harness();
    other[0].error([{ message: "bad", extensions: { code: "GRAPHQL_VALIDATION_FAILED" } }]);
    expect(seen.problems).toEqual(["UNAUTHENTICATED"]);
    expect(otherSeen.problems).toEqual(["GRAPHQL_VALIDATION_FAILED"]);
    expect([...pending, ...otherPending]).toEqual([]);
  });

  test("stopped while waiting to resume: no new subscription", () => {
    const { sinks, stop, pending, ended } = harness();
    sinks[0].next({ errors: [GONE] });
    sinks[0].complete();
    stop();
    expect(pending.every((timer) => timer.cleared)).toBe(true);
    expect(ended).toEqual([0]);
    expect(sinks).toHaveLength(1);
  });

  test("delays: the hint or a second, doubled per failure, at most 30 s, up to half again at random", () => {
    expect(retryDelayMs(0, 2, () => 0)).toBe(2000);
    expect(retryDelayMs(0, undefined, () => 0)).toBe(1000);
    expect(retryDelayMs(3, 2, () => 0)).toBe(16_000);
    expect(retryDelayMs(10, 2, () => 0)).toBe(30_000);
    expect(retryDelayMs(0, 2, () => 1)).toBe(3000);
  });
});
