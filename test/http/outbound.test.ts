// The outbound guard (lib/http/outbound.ts) against DNS rebinding, private names, IP literals and
// redirects, for the two kinds of user-named requests: an RSS feed's download (fetchDocument) and a
// webhook's POST (outboundRequest, as notification-delivery sends it).
//
// How DNS is faked without any network: the guard's `AddressGuard` is injectable (the system's
// resolver by default), and each test passes one whose `resolve` plays a DNS server, e.g. one that
// answers a public address to the first lookup of a name and 127.0.0.1 to every later one. Every
// connection must stay on this machine, so a second loopback address, 127.0.0.2, stands in for the
// public host (the test guard's `isPrivate` is the real one except that it lets 127.0.0.2 pass);
// 127.0.0.1 stays private, and a server listening there on the same port records any request
// that slips through.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import http from "node:http";
import { fetchDocument } from "../../lib/feeds/fetch-document.ts";
import {
  isPrivateAddress,
  outboundRequest,
  resolveTarget,
  resolveTargetAddress,
  targetLookup,
  type AddressGuard,
} from "../../lib/http/outbound.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

const PUBLIC_STAND_IN = "127.0.0.2";
const RSS = '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title></channel></rss>';

interface FakeDns extends AddressGuard {
  /** Every name looked up, in order. */
  lookups: string[];
}

/** A DNS server of the test's: `answer` gives the address for a name's nth lookup (0 first). */
function fakeDns(answer: (host: string, nth: number) => string): FakeDns {
  const lookups: string[] = [];
  return {
    lookups,
    async resolve(host) {
      const nth = lookups.filter((h) => h === host).length;
      lookups.push(host);
      const address = answer(host, nth);
      return [{ address, family: address.includes(":") ? 6 : 4 }];
    },
    isPrivate: (address) => address !== PUBLIC_STAND_IN && isPrivateAddress(address),
  };
}

/** Public to the first lookup, 127.0.0.1 to every later one: the rebinding attack. */
const rebinding = () => fakeDns((_host, nth) => (nth === 0 ? PUBLIC_STAND_IN : "127.0.0.1"));
/** A name that resolves straight to 127.0.0.1. */
const inward = () => fakeDns(() => "127.0.0.1");

/** Two servers on one port: the public stand-in and the private one (retried if the port is taken). */
async function onOnePort<T extends { stop(): Promise<void> }>(
  start: (listen: { host: string; port?: number }) => Promise<T & { url: string }>,
): Promise<{ publicServer: T; privateServer: T; port: number }> {
  for (let attempt = 0; ; attempt++) {
    const publicServer = await start({ host: PUBLIC_STAND_IN });
    const port = Number(new URL(publicServer.url).port);
    try {
      return { publicServer, privateServer: await start({ host: "127.0.0.1", port }), port };
    } catch (error) {
      await publicServer.stop();
      if (attempt >= 10) throw error;
    }
  }
}

let feeds: { publicServer: FeedServer; privateServer: FeedServer; port: number };
let hooks: { publicServer: WebhookReceiver; privateServer: WebhookReceiver; port: number };

beforeAll(async () => {
  feeds = await onOnePort(startFeedServer);
  hooks = await onOnePort(startWebhookReceiver);
  for (const server of [feeds.publicServer, feeds.privateServer])
    server.documents.set("/feed.rss", { body: `${RSS}<!-- ${server.url} -->`, contentType: "application/rss+xml" });
});

afterAll(async () => {
  for (const server of [feeds.publicServer, feeds.privateServer, hooks.publicServer, hooks.privateServer])
    await server?.stop();
});

const feedUrl = (host: string, path = "/feed.rss") => `http://${host}:${feeds.port}${path}`;
const hookUrl = (host: string) => `http://${host}:${hooks.port}/hook`;
const post = (url: string, guard: AddressGuard, publicOnly = true, keepAlive = false) =>
  outboundRequest(url, {
    keepAlive,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"event":"test"}',
    timeoutMs: 5_000,
    maxResponseBytes: 1024,
    publicOnly,
    what: "Webhook target",
    guard,
  });
const fetchFeed = (url: string, guard: AddressGuard, publicOnly = true) =>
  fetchDocument(url, { timeoutMs: 5_000, publicOnly, what: "Feed", guard });
const REFUSED = /is a private, loopback or link-local address \((127\.0\.0\.1|::ffff:7f00:1|::ffff:127\.0\.0\.1)\)/;

describe("a name that answers a public address to the check and 127.0.0.1 to the connection", () => {
  test("the fixture can tell: checking first and letting the socket resolve again reaches the private server", async () => {
    // The gap this guard closes, played with the same fake DNS: the old RSS poller's order.
    const dns = rebinding();
    await resolveTarget("rebind.test", { publicOnly: true, guard: dns });
    const status = await new Promise<number>((resolve, reject) =>
      http
        .get(feedUrl("rebind.test"), { agent: false, lookup: targetLookup({ publicOnly: false, guard: dns }) }, (res) =>
          resolve(res.resume().statusCode ?? 0),
        )
        .on("error", reject),
    );
    expect(status).toBe(200);
    expect(feeds.privateServer.requests).toHaveLength(1);
    feeds.privateServer.requests.length = 0;
  });

  test("an RSS download connects to the address it checked and never reaches the private one", async () => {
    const dns = rebinding();
    const fetched = await fetchFeed(feedUrl("rebind.test"), dns);
    expect(fetched.changed && fetched.body.toString()).toBe(`${RSS}<!-- ${feeds.publicServer.url} -->`);
    expect(dns.lookups).toEqual(["rebind.test"]);
    // The name now answers 127.0.0.1: the next download is refused on that answer.
    await expect(fetchFeed(feedUrl("rebind.test"), dns)).rejects.toThrow(
      /^Feed rebind\.test is a private, loopback or link-local address \(127\.0\.0\.1\)/,
    );
    expect(dns.lookups).toEqual(["rebind.test", "rebind.test"]);
    expect(feeds.privateServer.requests).toEqual([]);
  });

  test("a webhook POST connects to the address it checked and never reaches the private one", async () => {
    const dns = rebinding();
    const answer = await post(hookUrl("rebind.test"), dns);
    expect(answer.status).toBe(200);
    expect(hooks.publicServer.requests).toEqual([expect.objectContaining({ path: "/hook", body: '{"event":"test"}' })]);
    await expect(post(hookUrl("rebind.test"), dns)).rejects.toThrow(/^Webhook target rebind\.test is a private/);
    expect(dns.lookups).toEqual(["rebind.test", "rebind.test"]);
    expect(hooks.privateServer.requests).toEqual([]);
  });
});

describe("private targets are refused before any connection", () => {
  test("a kept-alive delivery connection carries the check of the address it was made to, and no other", async () => {
    // Deliveries (keepAlive) reuse a connection: its lookup checked the public answer, and the
    // second POST rides it without a lookup, so the private answer is never connected to.
    const dns = rebinding();
    hooks.publicServer.requests.length = 0;
    expect((await post(hookUrl("rebind.test"), dns, true, true)).status).toBe(200);
    expect((await post(hookUrl("rebind.test"), dns, true, true)).status).toBe(200);
    expect(dns.lookups).toEqual(["rebind.test"]);
    expect(hooks.publicServer.requests).toHaveLength(2);
    expect(hooks.privateServer.requests).toEqual([]);
    // A pool is per check: the lax pool (publicOnly false) never lends a connection to a strict
    // request, which makes its own and is refused on the private answer.
    const lax = rebinding();
    await post(hookUrl("rebind.test"), lax, false, true);
    await expect(post(hookUrl("rebind.test"), lax, true, true)).rejects.toThrow(
      /^Webhook target rebind\.test is a private/,
    );
    expect(hooks.privateServer.requests).toEqual([]);
  });

  test("a name that resolves to a private address (also IPv4-mapped IPv6)", async () => {
    for (const dns of [inward(), fakeDns(() => "::ffff:127.0.0.1"), fakeDns(() => "::ffff:7f00:1")]) {
      await expect(fetchFeed(feedUrl("inward.test"), dns)).rejects.toThrow(REFUSED);
      await expect(post(hookUrl("inward.test"), dns)).rejects.toThrow(REFUSED);
    }
    expect(feeds.privateServer.requests).toEqual([]);
    expect(hooks.privateServer.requests).toEqual([]);
  });

  test("IP literals, however spelled", async () => {
    const dns = inward();
    for (const host of ["127.0.0.1", "[::ffff:127.0.0.1]", "2130706433", "0x7f.1"]) {
      await expect(fetchFeed(feedUrl(host), dns)).rejects.toThrow(REFUSED);
      await expect(post(hookUrl(host), dns)).rejects.toThrow(REFUSED);
    }
    expect(dns.lookups).toEqual([]);
    expect(feeds.privateServer.requests).toEqual([]);
    expect(hooks.privateServer.requests).toEqual([]);
  });

  test("a redirect to a private address, by literal or by name", async () => {
    const dns = fakeDns((host) => (host === "inward.test" ? "127.0.0.1" : PUBLIC_STAND_IN));
    feeds.publicServer.documents.set("/to-literal", { status: 302, location: feedUrl("127.0.0.1"), body: "" });
    feeds.publicServer.documents.set("/to-name", { status: 302, location: feedUrl("inward.test"), body: "" });
    await expect(fetchFeed(feedUrl("public.test", "/to-literal"), dns)).rejects.toThrow(REFUSED);
    await expect(fetchFeed(feedUrl("public.test", "/to-name"), dns)).rejects.toThrow(REFUSED);
    expect(feeds.publicServer.requests.map((r) => r.path)).toEqual(expect.arrayContaining(["/to-literal", "/to-name"]));
    expect(feeds.privateServer.requests).toEqual([]);
    // The same redirect is followed when private targets are allowed: the refusal was the guard's.
    const fetched = await fetchFeed(feedUrl("public.test", "/to-name"), dns, false);
    expect(fetched.changed && fetched.body.toString()).toBe(`${RSS}<!-- ${feeds.privateServer.url} -->`);
    feeds.privateServer.requests.length = 0;
  });

  test("publicOnly false (WEBHOOK_ALLOW_PRIVATE_TARGETS) reaches private addresses", async () => {
    expect((await post(hookUrl("inward.test"), inward(), false)).status).toBe(200);
    expect(hooks.privateServer.requests).toHaveLength(1);
    hooks.privateServer.requests.length = 0;
  });
});

describe("one checked address for clients that are not HTTP (MQTT)", () => {
  test("resolves once, checks, and refuses private answers", async () => {
    const dns = rebinding();
    expect(await resolveTargetAddress("broker.test", { publicOnly: true, what: "MQTT broker", guard: dns })).toEqual({
      address: PUBLIC_STAND_IN,
      family: 4,
    });
    await expect(
      resolveTargetAddress("broker.test", { publicOnly: true, what: "MQTT broker", guard: dns }),
    ).rejects.toThrow(/^MQTT broker broker\.test is a private, loopback or link-local address \(127\.0\.0\.1\)/);
    await expect(resolveTargetAddress("::1", { publicOnly: true })).rejects.toThrow(/^Target ::1 is a private/);
    expect(await resolveTargetAddress("::1", { publicOnly: false })).toEqual({ address: "::1", family: 6 });
  });
});

describe("limits", () => {
  test("a body over the cap is cut and fetchDocument refuses it", async () => {
    feeds.publicServer.documents.set("/big", { body: "x".repeat(5000) });
    const dns = fakeDns(() => PUBLIC_STAND_IN);
    const answer = await outboundRequest(feedUrl("public.test", "/big"), {
      timeoutMs: 5_000,
      maxResponseBytes: 1000,
      publicOnly: true,
      guard: dns,
    });
    expect(answer.truncated).toBe("size");
    expect(answer.body.toString()).toBe("x".repeat(1000));
    await expect(
      fetchDocument(feedUrl("public.test", "/big"), { maxBytes: 1000, publicOnly: true, guard: dns }),
    ).rejects.toThrow(/larger than 1000 bytes/);
  });

  test("one deadline for the whole exchange", async () => {
    hooks.publicServer.respondWith.delayMs = 2_000;
    try {
      await expect(
        outboundRequest(hookUrl("public.test"), {
          method: "POST",
          body: "{}",
          timeoutMs: 300,
          maxResponseBytes: 1000,
          publicOnly: true,
          guard: fakeDns(() => PUBLIC_STAND_IN),
        }),
      ).rejects.toThrow(/^No answer within 300 ms\./);
    } finally {
      hooks.publicServer.respondWith.delayMs = 0;
    }
  });
});
