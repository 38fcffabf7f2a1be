// The delivery log (deliveries) and the test send (sendTestNotification) over real HTTP with the
// service's own worker: a webhook channel pointing at a local server (signature verified with the
// Standard Webhooks reference library), an e-mail channel at a real SMTP sink, a P2000 monitor
// whose real delivery shows in the log next to the test sends. Two environments: each member sees
// their own log only and cannot test another's channel; no secret appears; filters, paging, the
// rate limit and bad input answer as documented.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Webhook } from "standardwebhooks";
import { startMailSink, type MailSink } from "../helpers/mail-sink.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let mail: MailSink;
let hooks: WebhookReceiver;
beforeAll(async () => {
  mail = await startMailSink();
  hooks = await startWebhookReceiver();
});
// The webhook target is a local server, so this service allows private targets.
const ctx = useTestService(() => ({ delivery: { smtpUrl: mail.url, allowPrivateTargets: true } }));
afterAll(async () => {
  await hooks?.stop();
  await mail?.stop();
});

const DELIVERY_FIELDS = `uuid test monitorUuid monitorName channelUuid channelName channelType itemKind itemUuid itemTitle
  created lastAttemptAt deliveredAt outcome attempts responseCode reply latencyMs error`;
const TEST_SEND = `mutation ($c: String!) { sendTestNotification(channel: $c) {
  uuid outcome delivered responseCode reply latencyMs error } }`;
const LOG = `query ($f: DeliveryFilterInput, $first: Int, $page: Int) {
  deliveries(filter: $f, first: $first, page: $page) { ${DELIVERY_FIELDS} } }`;

let ada: TestUser;
let bob: TestUser;

async function gql(query: string, token: string | undefined, variables: Record<string, unknown> = {}) {
  return (await ctx.service.graphql(query, { token, variables })).body;
}
async function ok(query: string, token: string | undefined, variables: Record<string, unknown> = {}) {
  const body = await gql(query, token, variables);
  expect(body.errors).toBeUndefined();
  return body.data;
}
async function log(user: TestUser, filter: Record<string, unknown> | null = null, first?: number, page?: number) {
  return (await ok(LOG, user.accessToken, { f: filter, first, page })).deliveries as Array<Record<string, any>>;
}
async function createChannel(user: TestUser, input: Record<string, unknown>) {
  const { createChannel } = await ok(
    "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { signingSecret channel { uuid } } }",
    user.accessToken,
    { i: input },
  );
  return { uuid: createChannel.channel.uuid as string, signingSecret: createChannel.signingSecret as string | null };
}

let webhook: { uuid: string; signingSecret: string | null };
let email: { uuid: string };
let bobsChannel: { uuid: string };
const HEADER_SECRET = "Bearer header-secret-of-the-receiver";

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org", { admin: true });
  bob = await signUp(ctx.service, "bob@example.org");
  webhook = await createChannel(ada, {
    type: "webhook",
    name: "Dispatch board",
    url: `${hooks.url}/hook`,
    headers: [{ name: "Authorization", value: HEADER_SECRET }],
  });
  email = await createChannel(ada, { type: "email", name: "Duty officer", emailAddress: "duty@example.org" });
  bobsChannel = await createChannel(bob, { type: "webhook", name: "Bob's board", url: `${hooks.url}/bob` });
});

describe("sendTestNotification", () => {
  test("a webhook channel gets a signed, clearly marked test, and the answer is its outcome", async () => {
    const { sendTestNotification: sent } = await ok(TEST_SEND, ada.accessToken, { c: webhook.uuid });
    expect(sent).toMatchObject({ outcome: "delivered", delivered: true, responseCode: 200, reply: null, error: null });
    expect(sent.latencyMs).toBeGreaterThanOrEqual(0);
    const [request] = hooks.requests.filter((r) => r.headers["webhook-id"] === sent.uuid);
    expect(request.path).toBe("/hook");
    expect(request.headers.authorization).toBe(HEADER_SECRET);
    const headers = request.headers as Record<string, string>;
    expect(new Webhook(webhook.signingSecret!).verify(request.body, headers)).toEqual(JSON.parse(request.body));
    const body = JSON.parse(request.body);
    expect(body).toEqual({
      id: sent.uuid,
      event: "notification.test",
      test: true,
      channel: { uuid: webhook.uuid, name: "Dispatch board" },
      text: "Test notification from the NL incident service. No incident happened; nothing needs doing.",
    });

    const [row] = await log(ada, { channel: webhook.uuid });
    expect(row).toMatchObject({
      uuid: sent.uuid,
      test: true,
      monitorUuid: null,
      monitorName: null,
      channelUuid: webhook.uuid,
      channelName: "Dispatch board",
      channelType: "webhook",
      itemKind: "test",
      itemUuid: null,
      itemTitle: "Test notification from the NL incident service",
      outcome: "delivered",
      attempts: 1,
      responseCode: 200,
      reply: null,
      latencyMs: sent.latencyMs,
      error: null,
    });
    expect(row.deliveredAt).not.toBeNull();
    expect(row.lastAttemptAt).not.toBeNull();
  });

  test("an e-mail channel gets a test mail; the SMTP server's reply is the answer", async () => {
    const { sendTestNotification: sent } = await ok(TEST_SEND, ada.accessToken, { c: email.uuid });
    expect(sent).toMatchObject({ outcome: "delivered", delivered: true, responseCode: 250, error: null });
    expect(sent.reply).toMatch(/^250 /);
    const received = await mail.waitFor("duty@example.org", /^Test notification from the NL incident service$/);
    expect(received.text).toContain('This is a test of the channel "Duty officer"');
    expect(received.text).not.toContain("Monitor:");
    const [row] = await log(ada, { channel: email.uuid });
    expect(row).toMatchObject({ uuid: sent.uuid, outcome: "delivered", responseCode: 250, reply: sent.reply });
  });

  test("a receiver that refuses makes a failed test, with its status and error, not retried", async () => {
    hooks.respondWith.status = 500;
    try {
      const { sendTestNotification: sent } = await ok(TEST_SEND, ada.accessToken, { c: webhook.uuid });
      expect(sent).toMatchObject({ outcome: "failed", delivered: false, responseCode: 500 });
      expect(sent.error).toMatch(/^HTTP 500/);
      const [row] = await log(ada, { channel: webhook.uuid, outcome: "failed" });
      expect(row).toMatchObject({
        uuid: sent.uuid,
        outcome: "failed",
        attempts: 1,
        responseCode: 500,
        error: sent.error,
      });
    } finally {
      hooks.respondWith.status = 200;
    }
  });

  test("another environment's channel, an unknown one, or no login: refused, nothing sent", async () => {
    const before = hooks.requests.length;
    const foreign = await gql(TEST_SEND, ada.accessToken, { c: bobsChannel.uuid });
    expect(errorOf(foreign)).toEqual({ message: "Channel not found.", code: "NOT_FOUND" });
    const mine = await gql(TEST_SEND, bob.accessToken, { c: webhook.uuid });
    expect(errorOf(mine)).toEqual({ message: "Channel not found.", code: "NOT_FOUND" });
    const malformed = await gql(TEST_SEND, ada.accessToken, { c: "not-a-uuid" });
    expect(errorOf(malformed).code).toBe("NOT_FOUND");
    const anonymous = await gql(TEST_SEND, undefined, { c: webhook.uuid });
    expect(anonymous.data?.sendTestNotification ?? null).toBeNull();
    expect(anonymous.errors).toBeDefined();
    const apiToken = await gql(TEST_SEND, ada.apiToken, { c: webhook.uuid });
    expect(errorOf(apiToken).code).toBe("UNAUTHENTICATED");
    expect(hooks.requests.length).toBe(before);
    // Bob's log has none of Ada's test sends.
    expect(await log(bob)).toEqual([]);
  });

  test("at most 5 test sends per channel and minute", async () => {
    const channel = await createChannel(ada, { type: "webhook", name: "Rate limited", url: `${hooks.url}/limited` });
    for (let i = 0; i < 5; i++) await ok(TEST_SEND, ada.accessToken, { c: channel.uuid });
    const sixth = await gql(TEST_SEND, ada.accessToken, { c: channel.uuid });
    expect(errorOf(sixth)).toEqual({
      message: "At most 5 test notifications per channel and minute; try again in a minute.",
      code: "RATE_LIMITED",
    });
    expect(hooks.requests.filter((r) => r.path === "/limited")).toHaveLength(5);
    // Another channel has its own budget.
    await ok(TEST_SEND, ada.accessToken, { c: webhook.uuid });
  });
});

describe("deliveries", () => {
  let monitorUuid: string;
  let messageUuid: string;

  test("a real notification is in the log of its environment, with monitor and item", async () => {
    const { createMonitor } = await ok(
      "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
      ada.accessToken,
      {
        i: {
          name: "Capcode 1420099",
          query: JSON.stringify({ capcodes: ["1420099"] }),
          channels: JSON.stringify([webhook.uuid]),
        },
      },
    );
    monitorUuid = createMonitor.uuid;
    const { createP2000Message } = await ok(
      "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid } }",
      ada.accessToken,
      {
        i: {
          message: "A1 AMBU 17107 Bachplein Schiedam bon 1",
          sended: new Date().toISOString(),
          capcodes: [{ name: "1420099" }],
        },
      },
    );
    messageUuid = createP2000Message.uuid;
    await waitUntil(
      () => log(ada, { monitor: monitorUuid }),
      (rows) => rows.length === 1 && rows[0].outcome === "delivered",
      "the monitor's delivery",
    );
    const [row] = await log(ada, { monitor: monitorUuid });
    expect(row).toMatchObject({
      test: false,
      monitorUuid,
      monitorName: "Capcode 1420099",
      channelUuid: webhook.uuid,
      itemKind: "p2000",
      itemUuid: messageUuid,
      itemTitle: "A1 AMBU 17107 Bachplein Schiedam bon 1",
      outcome: "delivered",
      attempts: 1,
      responseCode: 200,
      error: null,
    });
    const [request] = hooks.requests.filter((r) => r.headers["webhook-id"] === row.uuid);
    expect(JSON.parse(request.body).event).toBe("p2000.message.matched");
  });

  test("each member sees their own environment's log only", async () => {
    const adas = await log(ada, null, 100);
    expect(adas.length).toBeGreaterThanOrEqual(9);
    expect(
      adas.every((r) => [webhook.uuid, email.uuid].includes(r.channelUuid) || r.channelName === "Rate limited"),
    ).toBe(true);
    const { sendTestNotification: bobs } = await ok(TEST_SEND, bob.accessToken, { c: bobsChannel.uuid });
    const bobsLog = await log(bob);
    expect(bobsLog.map((r) => r.uuid)).toEqual([bobs.uuid]);
    expect((await log(ada, null, 100)).map((r) => r.uuid)).not.toContain(bobs.uuid);
    // Filtering by another environment's monitor or channel finds nothing.
    expect(await log(bob, { monitor: monitorUuid })).toEqual([]);
    expect(await log(bob, { channel: webhook.uuid })).toEqual([]);
    expect(await log(ada, { channel: bobsChannel.uuid })).toEqual([]);
    // An API token is not a member's login.
    expect(errorOf(await gql(LOG, ada.apiToken)).code).toBe("UNAUTHENTICATED");
    expect(errorOf(await gql(LOG, undefined)).code).toBe("UNAUTHENTICATED");
  });

  test("no secret appears: signing secret, header values, SMTP URL", async () => {
    const text = JSON.stringify(await gql(LOG, ada.accessToken, { first: 100 }));
    expect(text).not.toContain(webhook.signingSecret!);
    expect(text).not.toContain(webhook.signingSecret!.slice("whsec_".length));
    expect(text).not.toContain("header-secret-of-the-receiver");
    expect(text).not.toContain(mail.url);
    expect(text).not.toContain("Test notification from the NL incident service. No incident"); // the body sent
  });

  test("filters by monitor, channel and outcome, newest first, paged", async () => {
    const all = await log(ada, null, 100);
    const created = all.map((r) => Date.parse(r.created));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const failed = await log(ada, { outcome: "FAILED" }, 100);
    expect(failed.length).toBe(1);
    expect(failed.every((r) => r.outcome === "failed")).toBe(true);
    const delivered = await log(ada, { outcome: "delivered", channel: webhook.uuid }, 100);
    expect(delivered.every((r) => r.outcome === "delivered" && r.channelUuid === webhook.uuid)).toBe(true);
    expect(delivered.map((r) => r.uuid)).toContain((await log(ada, { monitor: monitorUuid }))[0].uuid);
    const emails = await log(ada, { channel: email.uuid });
    expect(emails.map((r) => r.channelType)).toEqual(["email"]);
    expect(await log(ada, { outcome: "pending" })).toEqual([]);

    const page1 = await log(ada, null, 2, 1);
    const page2 = await log(ada, null, 2, 2);
    expect(page1.map((r) => r.uuid)).toEqual(all.slice(0, 2).map((r) => r.uuid));
    expect(page2.map((r) => r.uuid)).toEqual(all.slice(2, 4).map((r) => r.uuid));
    expect(await log(ada, null, 50, 100)).toEqual([]);
    expect(await log(ada, null, 1000)).toHaveLength(Math.min(all.length, 100));
  });

  test.each([
    [{ filter: { monitor: "nope" } }, "filter.monitor must be a monitor uuid."],
    [{ filter: { channel: "12" } }, "filter.channel must be a channel uuid."],
    [{ filter: { outcome: "lost" } }, "filter.outcome must be delivered, failed, pending or retrying."],
    [{ first: 0 }, 'Argument "first" must be at least 1 (got 0).'],
    [{ page: 0 }, 'Argument "page" must be at least 1 (got 0).'],
  ])("bad input is BAD_USER_INPUT %#", async (args, message) => {
    const { filter, first, page } = args as { filter?: unknown; first?: number; page?: number };
    const body = await gql(LOG, ada.accessToken, { f: filter, first, page });
    expect(errorOf(body)).toEqual({ message, code: "BAD_USER_INPUT" });
  });

  test("deleting a channel takes its log with it", async () => {
    const channel = await createChannel(ada, { type: "webhook", name: "Short-lived", url: `${hooks.url}/short` });
    const { sendTestNotification: sent } = await ok(TEST_SEND, ada.accessToken, { c: channel.uuid });
    expect((await log(ada, { channel: channel.uuid })).map((r) => r.uuid)).toEqual([sent.uuid]);
    await ok("mutation ($u: String!) { deleteChannel(uuid: $u) }", ada.accessToken, { u: channel.uuid });
    expect(await log(ada, { channel: channel.uuid })).toEqual([]);
  });
});
