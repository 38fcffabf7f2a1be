// Web Push channels end to end: a browser's subscription (a P-256 key pair and auth secret this
// test holds, made with node:crypto as a browser makes them) stored with createChannel, a FLEX
// message stored through the reader's path matching a P2000 monitor, and a local push service
// over TLS receiving the push. The test checks what RFC 8030/8291/8292 ask of it: the VAPID JWT
// (ES256, verified against the service's public key, aud = the push service's origin), TTL and
// Urgency, and the aes128gcm body, decrypted here with node:crypto (not with the library that
// encrypted it) into the JSON the service worker shows. A push service answering 410 or 404
// disables the channel, without retries, and later notifications fail at once.
import fs from "node:fs";
import nodeTls from "node:tls";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { errorOf, startTestService, TEST_VAPID_KEYS, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";
import { browserKeys, decryptPush, vapidClaims, type BrowserKeys } from "../helpers/web-push-user-agent.ts";
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

// The push service's test-only certificate (127.0.0.1, valid until 2126). The delivery trusts it
// as a machine would trust a CA in NODE_EXTRA_CA_CERTS: added to this process's default CA list.
const TLS_DIR = new URL("../fixtures/push-service-tls/", import.meta.url);
const tls = {
  key: fs.readFileSync(new URL("key.pem", TLS_DIR), "utf8"),
  cert: fs.readFileSync(new URL("cert.pem", TLS_DIR), "utf8"),
};
const defaultCa = nodeTls.getCACertificates("default");

let push: WebhookReceiver;
beforeAll(async () => {
  nodeTls.setDefaultCACertificates([...defaultCa, tls.cert]);
  push = await startWebhookReceiver({ tls });
  push.respondWith.status = 201;
});
// The push service is a local server, so this service allows private targets.
const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: true } }));
afterAll(async () => {
  await push?.stop();
  nodeTls.setDefaultCACertificates(defaultCa);
});

/** A browser's subscription: its keys and what it gives the server (RFC 8291 §3). */
interface BrowserSubscription extends BrowserKeys {
  endpoint: string;
  /** PushSubscription.toJSON(): expirationTime is always there, null when the browser sets none. */
  json: { endpoint: string; expirationTime: number | null; keys: { p256dh: string; auth: string } };
}

function subscribe(path: string, expirationTime: number | null = null): BrowserSubscription {
  const keys = browserKeys();
  const endpoint = `${push.url}${path}`;
  return { ...keys, endpoint, json: { endpoint, expirationTime, keys: keys.keys } };
}

const decrypt = (sub: BrowserSubscription, body: Buffer) => decryptPush(sub, body);

/** RFC 8292: Authorization: vapid t=<JWT signed ES256>, k=<the service's public key>; returns the claims. */
const verifiedVapidClaims = (request: ReceivedRequest) =>
  vapidClaims(String(request.headers.authorization), TEST_VAPID_KEYS.publicKey);

let ada: TestUser;
async function ok(query: string, variables: Record<string, unknown> = {}) {
  const { body } = await ctx.service.graphql(query, { token: ada.accessToken, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
}
async function createChannel(name: string, sub: BrowserSubscription): Promise<string> {
  const { createChannel } = await ok(
    "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
    { i: { type: "webpush", name, subscription: sub.json } },
  );
  return createChannel.channel.uuid;
}
async function createMonitor(capcode: string, channel: string) {
  await ok("mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }", {
    i: {
      name: `Capcode ${capcode}`,
      query: JSON.stringify({ capcodes: [capcode] }),
      channels: JSON.stringify([channel]),
    },
  });
}
async function deliveries(channel: string) {
  const { deliveries } = await ok(
    `query ($f: DeliveryFilterInput) { deliveries(filter: $f, first: 50) {
       uuid test itemKind outcome attempts responseCode error } }`,
    { f: { channel } },
  );
  return deliveries as Array<Record<string, any>>;
}
async function channel(uuid: string) {
  const { channels } = await ok("{ channels { uuid disabledAt disabledReason } }");
  return (channels as Array<Record<string, any>>).find((c) => c.uuid === uuid)!;
}
const pushesTo = (sub: BrowserSubscription) => push.requests.filter((r) => `${push.url}${r.path}` === sub.endpoint);

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org", { admin: true });
});

test("webPushPublicKey is the VAPID key, readable without an API token", async () => {
  const { status, body } = await ctx.service.graphql("{ webPushPublicKey }");
  expect(status).toBe(200);
  expect(body).toEqual({ data: { webPushPublicKey: TEST_VAPID_KEYS.publicKey } });
  expect(Buffer.from(body.data!.webPushPublicKey, "base64url")).toHaveLength(65);
});

test("GET /push/sw.js is the service worker, allowed to control the whole origin", async () => {
  const response = await fetch(`${ctx.service.url}/push/sw.js`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/javascript/);
  expect(response.headers.get("service-worker-allowed")).toBe("/");
  const script = await response.text();
  expect(script).toContain('addEventListener("push"');
  expect(script).toContain("showNotification");
  expect(script).toContain("openWindow");
});

describe("a FLEX message matching a P2000 monitor with a webpush channel", () => {
  let browser: BrowserSubscription;
  let channelUuid: string;

  test("is pushed once, signed, encrypted for the subscription, with TTL and Urgency", async () => {
    browser = subscribe("/push/ada-phone");
    channelUuid = await createChannel("Ada's phone", browser);
    await createMonitor("1420099", channelUuid);
    const sended = new Date(Math.floor(Date.now() / 1000) * 1000);
    await storeP2000Pages(ctx.db, [
      { message: "A1 AMBU 17107 Bachplein Schiedam bon 1", sended: sended.toISOString(), capcodes: ["1420099"] },
    ]);
    await push.waitFor((r) => `${push.url}${r.path}` === browser.endpoint);
    await ctx.service.workerIdle();
    const requests = pushesTo(browser);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request.headers).toMatchObject({
      "content-encoding": "aes128gcm",
      "content-type": "application/octet-stream",
      ttl: "3600",
      urgency: "high",
    });
    const claims = verifiedVapidClaims(request);
    expect(claims.aud).toBe(push.url);
    expect(claims.sub).toBe("mailto:operator@example.org");
    const exp = Number(claims.exp) * 1000;
    expect(exp).toBeGreaterThan(Date.now());
    expect(exp).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);

    const message = JSON.parse(decrypt(browser, request.raw));
    expect(message).toMatchObject({
      title: "A1 spoed, ambulance, Bachplein, Schiedam",
      kind: "p2000",
      urgency: "high",
      code: "A1",
      timestamp: sended.getTime(),
    });
    expect(message.body).toContain("Urgency: A1");
    expect(message.body).toContain("Monitor: Capcode 1420099");
    expect(message.url).toMatch(new RegExp(`^${ctx.service.url.replace("localhost", "127.0.0.1")}/respond\\?token=`));
    expect(typeof message.tag).toBe("string");

    const [row] = await waitUntil(
      () => deliveries(channelUuid),
      (rows) => rows.length === 1 && rows[0].outcome === "delivered",
      "the delivery",
    );
    expect(row).toMatchObject({ itemKind: "p2000", attempts: 1, responseCode: 201, error: null });
  });

  test("a test send reaches the same subscription", async () => {
    const { sendTestNotification } = await ok(
      "mutation ($c: String!) { sendTestNotification(channel: $c) { outcome responseCode error } }",
      { c: channelUuid },
    );
    expect(sendTestNotification).toEqual({ outcome: "delivered", responseCode: 201, error: null });
    const requests = pushesTo(browser);
    expect(requests).toHaveLength(2);
    const message = JSON.parse(decrypt(browser, requests[1].raw));
    expect(message).toMatchObject({ kind: "test", urgency: "normal", code: null });
    expect(message.title).toMatch(/^Test notification/);
    expect(requests[1].headers.urgency).toBe("normal");
  });
});

describe("a subscription that is gone", () => {
  test("410 disables the channel; the delivery fails without retries, and later ones at once", async () => {
    const gone = subscribe("/push/gone");
    const channelUuid = await createChannel("Old laptop", gone);
    await createMonitor("1420100", channelUuid);
    push.respondWith.status = 410;
    let first: Record<string, any>;
    try {
      await storeP2000Pages(ctx.db, [
        { message: "P 1 BDH-01 Brand woning Schiedam", sended: new Date().toISOString(), capcodes: ["1420100"] },
      ]);
      await push.waitFor((r) => r.path === "/push/gone");
      [first] = await waitUntil(
        () => deliveries(channelUuid),
        (rows) => rows.length === 1 && rows[0].outcome === "failed",
        "the failed delivery",
      );
      expect(first).toMatchObject({ attempts: 1, responseCode: 410 });
      expect(first.error).toMatch(/gone.*410.*disabled/);
    } finally {
      push.respondWith.status = 201;
    }
    await ctx.service.workerIdle();
    expect(pushesTo(gone)).toHaveLength(1);
    const disabled = await channel(channelUuid);
    expect(disabled.disabledAt).not.toBeNull();
    expect(disabled.disabledReason).toMatch(/410/);

    // A later match: no request reaches the push service, the delivery fails at its first attempt.
    await storeP2000Pages(ctx.db, [
      { message: "P 1 BDH-01 Buitenbrand Schiedam", sended: new Date().toISOString(), capcodes: ["1420100"] },
    ]);
    const rows = await waitUntil(
      () => deliveries(channelUuid),
      (found) => found.length === 2 && found.every((r) => r.outcome === "failed"),
      "the second failed delivery",
    );
    const latest = rows.find((r) => r.uuid !== first.uuid)!;
    expect(latest).toMatchObject({ attempts: 1, responseCode: null });
    expect(latest.error).toMatch(/disabled/);
    await ctx.service.workerIdle();
    expect(pushesTo(gone)).toHaveLength(1);
    expect((await channel(channelUuid)).disabledAt).toBe(disabled.disabledAt);
  });

  test("a test send answered 404 disables the channel too", async () => {
    const gone = subscribe("/push/unsubscribed");
    const channelUuid = await createChannel("Uninstalled browser", gone);
    push.respondWith.status = 404;
    let result;
    try {
      ({ sendTestNotification: result } = await ok(
        "mutation ($c: String!) { sendTestNotification(channel: $c) { outcome responseCode error } }",
        { c: channelUuid },
      ));
    } finally {
      push.respondWith.status = 201;
    }
    expect(result).toMatchObject({ outcome: "failed", responseCode: 404 });
    expect((await channel(channelUuid)).disabledAt).not.toBeNull();
  });

  test("a 503 is retried later and does not disable the channel", async () => {
    const sub = subscribe("/push/busy");
    const channelUuid = await createChannel("Busy push service", sub);
    await createMonitor("1420101", channelUuid);
    push.respondWith.status = 503;
    try {
      await storeP2000Pages(ctx.db, [
        { message: "B2 AMBU 17108 Rotterdam rit 2", sended: new Date().toISOString(), capcodes: ["1420101"] },
      ]);
      const [row] = await waitUntil(
        () => deliveries(channelUuid),
        (rows) => rows.length === 1 && rows[0].attempts >= 1,
        "the first attempt",
      );
      expect(row).toMatchObject({ outcome: "retrying", responseCode: 503 });
    } finally {
      push.respondWith.status = 201;
    }
    expect((await channel(channelUuid)).disabledAt).toBeNull();
    const [request] = pushesTo(sub);
    expect(request.headers.urgency).toBe("low");
  });
});

describe("a subscription's expirationTime (PushSubscription.toJSON() always carries it)", () => {
  const testSend = async (channelUuid: string) =>
    (
      await ok("mutation ($c: String!) { sendTestNotification(channel: $c) { outcome responseCode error } }", {
        c: channelUuid,
      })
    ).sendTestNotification;

  test("is pushed to until then; after it nothing is pushed and the channel is disabled", async () => {
    const expiring = subscribe("/push/expiring", Date.now() + 2_000);
    const channelUuid = await createChannel("Browser with an expiring subscription", expiring);
    expect(await testSend(channelUuid)).toEqual({ outcome: "delivered", responseCode: 201, error: null });
    expect(pushesTo(expiring)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiring.json.expirationTime! - Date.now() + 100)));
    const result = await testSend(channelUuid);
    expect(result).toEqual({
      outcome: "failed",
      responseCode: null,
      error: expect.stringMatching(
        /^The push subscription expired at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(its expirationTime\)/,
      ),
    });
    expect(pushesTo(expiring)).toHaveLength(1);
    expect(await channel(channelUuid)).toMatchObject({ disabledAt: expect.any(String), disabledReason: result.error });
  });

  test("one already past, or not a number, is refused with BAD_USER_INPUT", async () => {
    for (const [expirationTime, message] of [
      [Date.now() - 1_000, /^subscription\.expirationTime has passed \(.+\): the browser has ended this subscription/],
      ["tomorrow", /Float cannot represent non numeric value/],
    ] as const) {
      const { body } = await ctx.service.graphql(
        "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
        {
          token: ada.accessToken,
          variables: {
            i: { type: "webpush", name: "x", subscription: { ...subscribe("/push/x").json, expirationTime } },
          },
        },
      );
      expect(errorOf(body)).toEqual({ message: expect.stringMatching(message), code: expect.any(String) });
      if (typeof expirationTime === "number") expect(errorOf(body).code).toBe("BAD_USER_INPUT");
    }
  });
});

test("without VAPID keys (DATABASE_URL and none given) webPushPublicKey is null and createChannel refuses webpush", async () => {
  const apiOnly = await startTestService(ctx.db, {
    processRole: "api",
    database: { url: "postgres://given-by-the-operator/incidents" },
    delivery: { webPush: { publicKey: undefined, privateKey: undefined } },
  });
  try {
    expect((await apiOnly.graphql("{ webPushPublicKey }")).body).toEqual({ data: { webPushPublicKey: null } });
    const { body } = await apiOnly.graphql(
      "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
      {
        token: ada.accessToken,
        variables: { i: { type: "webpush", name: "x", subscription: subscribe("/push/x").json } },
      },
    );
    expect(errorOf(body)).toEqual({
      message: expect.stringMatching(/Web Push is not set up.*VAPID_PUBLIC_KEY/),
      code: "FORBIDDEN",
    });
  } finally {
    await apiOnly.stop();
  }
});
