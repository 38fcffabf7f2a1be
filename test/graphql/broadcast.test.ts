// lib/graphql/broadcast.ts: one source read once for many followers, each getting what came after
// it joined, the source ended when the last one leaves, a follower too far behind ended alone.
import { describe, expect, test } from "@jest/globals";
import { Broadcast } from "../../lib/graphql/broadcast.ts";

/** A source whose values are pushed by the test; counts its reads and whether it was ended. */
function manualSource<T>() {
  const queue: Array<(r: IteratorResult<T>) => void> = [];
  const state = { reads: 0, returned: false };
  const source: AsyncIterator<T> = {
    next: () => {
      state.reads++;
      return new Promise((resolve) => queue.push(resolve));
    },
    return: async () => {
      state.returned = true;
      queue.splice(0).forEach((r) => r({ done: true, value: undefined }));
      return { done: true, value: undefined };
    },
  };
  const emit = async (value: T) => {
    while (queue.length === 0) await new Promise((r) => setTimeout(r, 1));
    queue.shift()!({ done: false, value });
  };
  return { source, emit, state };
}

describe("Broadcast", () => {
  test("reads the source once for every follower, and ends it when the last one leaves", async () => {
    const { source, emit, state } = manualSource<number>();
    let closed = 0;
    const broadcast = new Broadcast(source, () => closed++);
    const a = broadcast.join()!;
    const b = broadcast.join()!;
    await emit(1);
    await emit(2);
    expect([await a.next(), await a.next()].map((r) => r.value)).toEqual([1, 2]);
    expect([await b.next(), await b.next()].map((r) => r.value)).toEqual([1, 2]);
    expect(state.reads).toBe(3); // two values and the read now waiting: not one per follower
    await a.return!();
    expect(state.returned).toBe(false);
    await emit(3);
    expect((await b.next()).value).toBe(3);
    await b.return!();
    expect(state.returned).toBe(true);
    expect(closed).toBe(1);
    expect(broadcast.join()).toBeUndefined();
  });

  test("a follower that falls too far behind is ended with an error; the others go on", async () => {
    const { source, emit } = manualSource<number>();
    const broadcast = new Broadcast(source, () => {}, 2);
    const slow = broadcast.join()!;
    const quick = broadcast.join()!;
    for (const value of [1, 2, 3]) {
      const received = quick.next();
      await emit(value);
      expect((await received).value).toBe(value);
    }
    expect([(await slow.next()).value, (await slow.next()).value]).toEqual([1, 2]);
    await expect(slow.next()).rejects.toThrow(/fell 2 events behind/);
    const received = quick.next();
    await emit(4);
    expect((await received).value).toBe(4);
  });
});
