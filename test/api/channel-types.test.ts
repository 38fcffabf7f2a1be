// createChannel for every channel type over real HTTP: each type's fields are checked with a
// BAD_USER_INPUT naming the field, secrets (tokens, user keys, Discord and Slack webhook URLs, push
// subscriptions, broker passwords) are stored where neither the API nor the analyst reads them,
// targets on private hosts are refused, and channelTypes lists every type createChannel takes.
import { describe, expect, test } from "@jest/globals";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

// Targets are checked by DNS unless private targets are allowed: this service refuses them.
const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: false } }));

const CREATE = `mutation ($i: CreateChannelInput!) { createChannel(input: $i) {
  signingSecret channel { uuid type name url serverUrl topic chatId emailAddress disabledAt } } }`;
const P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM";
const AUTH = "tBHItJI5svbpez7KI4CCXg";

let ada: TestUser;
async function create(input: Record<string, unknown>) {
  ada ??= await signUp(ctx.service, "ada@example.org");
  return (await ctx.service.graphql(CREATE, { token: ada.accessToken, variables: { i: input } })).body;
}
/** A channel's secrets as stored, through the owner's connection. */
async function storedCredentials(uuid: string) {
  const { rows } = await ctx.service.ownerPool.query(
    "select credentials from app_private.channel_credentials where channel_uuid = $1",
    [uuid],
  );
  return rows[0]?.credentials as Record<string, string> | undefined;
}

describe("createChannel for the push, chat and MQTT types", () => {
  const valid: Array<[string, Record<string, unknown>, Record<string, unknown>, Record<string, string>]> = [
    [
      "ntfy on the public server",
      { type: "ntfy", name: "Phone", topic: "nl-incidents-ada" },
      { serverUrl: "https://ntfy.sh", topic: "nl-incidents-ada" },
      {},
    ],
    [
      "ntfy with an access token",
      {
        type: "ntfy",
        name: "Phone",
        topic: "ada",
        serverUrl: "https://93.184.215.14",
        token: "tk_secretaccesstoken1234567890a",
      },
      { serverUrl: "https://93.184.215.14", topic: "ada" },
      { accessToken: "tk_secretaccesstoken1234567890a" },
    ],
    [
      "pushover",
      { type: "pushover", name: "Pushover", userKey: "uQiRzpo4DXghDmr9QzzfQu27cmVRsG" },
      { serverUrl: null, topic: null },
      { userKey: "uQiRzpo4DXghDmr9QzzfQu27cmVRsG" },
    ],
    [
      "gotify",
      { type: "gotify", name: "Gotify", serverUrl: "https://93.184.215.14/gotify", token: "AvKcy9o-yvVhyKd" },
      { serverUrl: "https://93.184.215.14/gotify" },
      { appToken: "AvKcy9o-yvVhyKd" },
    ],
    [
      "discord",
      { type: "discord", name: "Discord", url: "https://93.184.215.14/api/webhooks/1/secret-part" },
      { url: null },
      { webhookUrl: "https://93.184.215.14/api/webhooks/1/secret-part" },
    ],
    [
      "slack",
      { type: "slack", name: "Slack", url: "https://93.184.215.14/services/T0/B0/secret" },
      { url: null },
      { webhookUrl: "https://93.184.215.14/services/T0/B0/secret" },
    ],
    [
      "webpush",
      {
        type: "webpush",
        name: "This browser",
        subscription: { endpoint: "https://93.184.215.14/push/abc", keys: { p256dh: P256DH, auth: AUTH } },
      },
      {},
      { endpoint: "https://93.184.215.14/push/abc", p256dh: P256DH, auth: AUTH },
    ],
    [
      "mqtt with credentials",
      {
        type: "mqtt",
        name: "Home Assistant",
        serverUrl: "mqtts://93.184.215.14:8883",
        username: "broker-user",
        password: "broker-pw",
      },
      { serverUrl: "mqtts://93.184.215.14:8883", topic: "nl-incidents" },
      { username: "broker-user", password: "broker-pw" },
    ],
  ];
  test.each(valid)("%s: stored, secrets kept out of the API", async (_, input, shown, secrets) => {
    const body = await create(input);
    expect(body.errors).toBeUndefined();
    const { channel, signingSecret } = body.data.createChannel;
    expect(signingSecret).toBeNull();
    expect(channel).toMatchObject({ type: input.type, disabledAt: null, ...shown });
    expect((await storedCredentials(channel.uuid)) ?? {}).toEqual(secrets);
    // No field of Channel carries a secret.
    const everything = JSON.stringify(body.data);
    for (const secret of Object.values(secrets)) expect(everything).not.toContain(secret);
  });

  const invalid: Array<[string, Record<string, unknown>, RegExp]> = [
    ["an unknown type", { type: "pager", name: "x" }, /^type must be one of .*mqtt.*webpush/],
    ["ntfy without a topic", { type: "ntfy", name: "x" }, /^topic must be 1 to 64 letters/],
    ["ntfy with a bad topic", { type: "ntfy", name: "x", topic: "a/b" }, /^topic must be 1 to 64 letters/],
    [
      "ntfy with a server URL carrying credentials",
      { type: "ntfy", name: "x", topic: "a", serverUrl: "https://u:p@93.184.215.14" },
      /^serverUrl must not contain credentials/,
    ],
    [
      "pushover with a short key",
      { type: "pushover", name: "x", userKey: "abc" },
      /^userKey must be a Pushover user or group key/,
    ],
    [
      "gotify without a token",
      { type: "gotify", name: "x", serverUrl: "https://93.184.215.14" },
      /^token must be a Gotify application token/,
    ],
    [
      "gotify without a server",
      { type: "gotify", name: "x", token: "AvKcy9o-yvVhyKd" },
      /^serverUrl must be the http\(s\) URL of the Gotify server/,
    ],
    [
      "discord with a non-URL",
      { type: "discord", name: "x", url: "discord" },
      /^url must be an http\(s\) URL for a discord channel/,
    ],
    [
      "slack without a URL",
      { type: "slack", name: "x" },
      /^url must be the http\(s\) incoming-webhook URL for a slack channel/,
    ],
    [
      "webpush without keys",
      {
        type: "webpush",
        name: "x",
        subscription: { endpoint: "https://93.184.215.14/p", keys: { p256dh: "x", auth: "y" } },
      },
      /^subscription must be a browser push subscription/,
    ],
    [
      "webpush over http",
      {
        type: "webpush",
        name: "x",
        subscription: { endpoint: "http://93.184.215.14/p", keys: { p256dh: P256DH, auth: AUTH } },
      },
      /^subscription.endpoint must be an https URL/,
    ],
    [
      "mqtt over http",
      { type: "mqtt", name: "x", serverUrl: "http://93.184.215.14" },
      /^serverUrl must be an mqtt:\/\/, mqtts:\/\/, ws:\/\/ or wss:\/\/ URL/,
    ],
    [
      "mqtt with a wildcard prefix",
      { type: "mqtt", name: "x", serverUrl: "mqtt://93.184.215.14", topic: "home/#" },
      /^topic must be an MQTT topic prefix/,
    ],
    [
      "mqtt with a password and no user",
      { type: "mqtt", name: "x", serverUrl: "mqtt://93.184.215.14", password: "pw" },
      /a password needs a username/,
    ],
    [
      "headers on an ntfy channel",
      { type: "ntfy", name: "x", topic: "a", headers: [{ name: "X-A", value: "b" }] },
      /^headers apply to webhook channels only/,
    ],
  ];
  test.each(invalid)("%s is refused, naming the field", async (_, input, message) => {
    const error = errorOf(await create(input));
    expect(error.code).toBe("BAD_USER_INPUT");
    expect(error.message).toMatch(message);
  });

  test.each([
    ["a Discord URL on a loopback host", { type: "discord", name: "x", url: "http://127.0.0.1:9/api/webhooks/1/a" }],
    [
      "a Gotify server in a private network",
      { type: "gotify", name: "x", serverUrl: "http://10.1.2.3", token: "AvKcy9o-yvVhyKd" },
    ],
    [
      "a push endpoint on a link-local host",
      {
        type: "webpush",
        name: "x",
        subscription: { endpoint: "https://169.254.169.254/p", keys: { p256dh: P256DH, auth: AUTH } },
      },
    ],
    ["a broker on localhost", { type: "mqtt", name: "x", serverUrl: "mqtt://[::1]:1883" }],
  ])("%s is refused as a private target", async (_, input) => {
    const error = errorOf(await create(input));
    expect(error.code).toBe("BAD_USER_INPUT");
    expect(error.message).toMatch(/private, loopback or link-local/);
  });
});

test("channelTypes lists every type createChannel takes, with its fields and the receiver's documentation", async () => {
  // A reference list: public data, read with an API token.
  const { secret } = await ctx.service.newToken();
  const body = (await ctx.service.graphql("{ channelTypes { value label description } }", { token: secret })).body;
  expect(body.errors).toBeUndefined();
  const types = body.data.channelTypes as Array<{ value: string; label: string; description: string }>;
  expect(types.map((t) => t.value)).toEqual([
    "email",
    "sms",
    "webhook",
    "telegram",
    "ntfy",
    "pushover",
    "gotify",
    "discord",
    "slack",
    "webpush",
    "mqtt",
  ]);
  expect(types.find((t) => t.value === "ntfy")!.description).toMatch(/topic.*https:\/\/docs\.ntfy\.sh\/publish/);
});
