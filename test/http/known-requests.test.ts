// The index of requests the response cache answered before grafserv (lib/http/response-cache/known-requests.ts)
// is bounded by the bytes its entries take: a client that sends a new variable with every request
// must not grow it without end (issue 43: the API process's memory under a day's load).
import { describe, expect, test } from "@jest/globals";
import { KnownRequests, type KnownRequest } from "../../lib/http/response-cache/known-requests.ts";

const HEADERS = { "content-type": "application/graphql-response+json; charset=utf-8" };

function request(variables: string): KnownRequest {
  return {
    keyTail: `document\u0000\u0000${variables}`,
    perEnvironment: false,
    operation: "p2000Messages",
    headers: { ...HEADERS },
  };
}

describe("KnownRequests", () => {
  test("stays within its bytes whatever the number of distinct requests, the least recently used out", () => {
    const known = new KnownRequests(64 * 1024);
    known.remember("first", request('{"first":1}'));
    for (let i = 0; i < 10_000; i++) {
      known.remember(`identity-${i}`, request(`{"near":"${"x".repeat(200)}${i}"}`));
      // the first one is used again now and then, so it stays
      if (i % 50 === 0) expect(known.recall("first")).toBeDefined();
    }
    expect(known.bytesHeld).toBeLessThanOrEqual(64 * 1024);
    expect(known.bytesHeld).toBeGreaterThan(32 * 1024);
    expect(known.recall("identity-0")).toBeUndefined();
    expect(known.recall("identity-9999")?.keyTail).toContain("9999");
    expect(known.recall("first")?.operation).toBe("p2000Messages");
  });

  test("an entry remembered again replaces the old one, counted once", () => {
    const known = new KnownRequests(1024 * 1024);
    known.remember("same", request("{}"));
    const once = known.bytesHeld;
    known.remember("same", request("{}"));
    expect(known.bytesHeld).toBe(once);
  });

  test("entries with the same headers share one object", () => {
    const known = new KnownRequests(1024 * 1024);
    known.remember("a", request("{}"));
    known.remember("b", request('{"x":1}'));
    expect(known.recall("a")!.headers).toBe(known.recall("b")!.headers);
  });
});
