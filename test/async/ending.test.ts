// lib/async/ending.ts: a subscription waits for its next event or the end of its LISTEN connection
// and must leave nothing behind per event (the soak's heap held 150,000 promise reactions from
// Promise.race against a long-lived promise), at a cost that does not grow with the waiters.
import { describe, expect, test } from "@jest/globals";
import { ENDED, Ending } from "../../lib/async/ending.ts";

describe("Ending.race", () => {
  test("gives the promise's value and leaves no waiter behind, however many times it is called", async () => {
    const ending = new Ending();
    for (let i = 0; i < 10_000; i++) {
      expect(await ending.race(Promise.resolve(i))).toBe(i);
    }
    expect(ending.waiting).toBe(0);
  });

  test("passes the promise's rejection on, and leaves no waiter", async () => {
    const ending = new Ending();
    await expect(ending.race(Promise.reject(new Error("gone")))).rejects.toThrow("gone");
    expect(ending.waiting).toBe(0);
  });

  test("gives ENDED to every waiter when it ends first, and at once after, with the reason kept", async () => {
    const ending = new Ending();
    const waiters = Array.from({ length: 20_000 }, () => ending.race(new Promise(() => {})));
    expect(ending.waiting).toBe(20_000);
    const lost = new Error("lost");
    ending.end(lost);
    ending.end(new Error("again")); // once: the first reason stays
    expect(new Set(await Promise.all(waiters))).toEqual(new Set([ENDED]));
    expect(await ending.race(Promise.resolve(1))).toBe(ENDED);
    expect([ending.ended, ending.reason, ending.waiting]).toEqual([true, lost, 0]);
  });
});
