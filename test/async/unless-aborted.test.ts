// lib/async/unless-aborted.ts: a subscription waits for its next event or a long-lived signal
// (revoked, connection lost) and must leave nothing behind on the signal per event; the soak's
// heap held 150,000 promise reactions from Promise.race against such a promise.
import { getEventListeners } from "node:events";
import { describe, expect, test } from "@jest/globals";
import { ABORTED, unlessAborted } from "../../lib/async/unless-aborted.ts";

describe("unlessAborted", () => {
  test("gives the promise's value and leaves no listener on the signal, however many times it is called", async () => {
    const controller = new AbortController();
    for (let i = 0; i < 10_000; i++) {
      expect(await unlessAborted(Promise.resolve(i), controller.signal)).toBe(i);
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  test("passes the promise's rejection on, and leaves no listener", async () => {
    const controller = new AbortController();
    await expect(unlessAborted(Promise.reject(new Error("gone")), controller.signal)).rejects.toThrow("gone");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  test("gives ABORTED when the signal aborts first, and at once when it had", async () => {
    const controller = new AbortController();
    const waiting = unlessAborted(new Promise(() => {}), controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort(new Error("lost"));
    expect(await waiting).toBe(ABORTED);
    expect(await unlessAborted(Promise.resolve(1), controller.signal)).toBe(ABORTED);
  });
});
