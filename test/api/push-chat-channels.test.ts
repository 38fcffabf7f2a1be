// ntfy, Pushover, Gotify, Discord and Slack channels end to end, over real HTTP with the service's
// own worker: a FLEX message stored through the reader's path matches a P2000 monitor with one
// channel of each type, and each receiver (a local server standing in for the service's API) gets
// one request, exactly once, with the method, path, headers and body its official API documents;
// the delivery log shows it. A second matching and a repeated delivery job send nothing more. The
// test send works for each type; a receiver answering 400 makes a failure for good with its
// status in the log, one answering 500 a retry.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startApiReceiver, type ApiAnswer, type ApiReceiver } from "../helpers/api-receiver.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";

const APP_TOKEN = "azGDORePK8gMaC0QOYAMyEEuzJnyUi";
const USER_KEY = "uQiRzpo4DXghDmr9QzzfQu27cmVRsG";
const NTFY_TOKEN = "tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2";
const GOTIFY_TOKEN = "AvKcy9o-yvVhyKd";

let api: ApiReceiver;
beforeAll(async () => {
  api = await startApiReceiver();
  answerAsDocumented();
});
const ctx = useTestService(() => ({
  delivery: { allowPrivateTargets: true, pushover: { appToken: APP_TOKEN, apiUrl: `${api.url}/pushover` } },
}));
afterAll(async () => {
  await api?.stop();
});

const TYPES = ["ntfy", "pushover", "gotify", "discord", "slack"] as const;
type ChannelType = (typeof TYPES)[number];
/** Where each type's requests arrive on the receiver. */
const PATHS: Record<ChannelType, string> = {
  ntfy: "/ntfy/",
  pushover: "/pushover/1/messages.json",
  gotify: "/gotify/message",
  discord: "/discord/api/webhooks/1183000000000000000/Tq0-webhook-token",
  slack: "/slack/services/T0001/B0001/XXXXXXXXXXXXXXXXXXXXXXXX",
};

/** Each service's documented answer to a message it took. */
const SUCCESS: Record<ChannelType, ApiAnswer> = {
  ntfy: { status: 200, contentType: "application/json", body: '{"id":"sPs71M8A2T","event":"message"}' },
  pushover: {
    status: 200,
    contentType: "application/json",
    body: '{"status":1,"request":"647d2300-702c-4b38-8b2f-d56326ae460b"}',
  },
  gotify: { status: 200, contentType: "application/json", body: '{"id":25,"appid":5}' },
  discord: { status: 204 },
  slack: { status: 200, contentType: "text/html", body: "ok" },
};
function answerAsDocumented() {
  for (const type of TYPES) api.answers.set(PATHS[type], SUCCESS[type]);
}

let ada: TestUser;
const channels = {} as Record<ChannelType, string>;

async function ok(query: string, variables: Record<string, unknown> = {}) {
  const { body } = await ctx.service.graphql(query, { token: ada.accessToken, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
}
async function log(filter: Record<string, unknown>) {
  const query = `query ($f: DeliveryFilterInput) { deliveries(filter: $f, first: 100) {
    uuid channelType itemKind outcome attempts responseCode error } }`;
  return (await ok(query, { f: filter })).deliveries as Array<Record<string, any>>;
}
async function createMonitor(name: string, capcode: string) {
  const { createMonitor } = await ok("mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }", {
    i: {
      name,
      query: JSON.stringify({ capcodes: [capcode] }),
      channels: JSON.stringify(TYPES.map((t) => channels[t])),
    },
  });
  return createMonitor.uuid as string;
}
/** The service's PUBLIC_URL (the test service sets its own address). */
const publicUrl = () => `http://127.0.0.1:${new URL(ctx.service.graphqlUrl).port}`;
/** The respond link of a notification, as the service makes it. */
async function respondLink(notificationUuid: string) {
  const { rows } = await ctx.service.ownerPool.query("select app_private.responder_token($1) as token", [
    notificationUuid,
  ]);
  return `${publicUrl()}/respond?token=${encodeURIComponent(rows[0].token)}`;
}
/** The notification uuids of a monitor, by channel type. */
async function notificationsOf(monitorUuid: string) {
  const rows = await log({ monitor: monitorUuid });
  return Object.fromEntries(rows.map((r) => [r.channelType, r.uuid])) as Record<ChannelType, string>;
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org");
  const inputs: Record<ChannelType, Record<string, unknown>> = {
    ntfy: { serverUrl: `${api.url}/ntfy`, topic: "nl-incidents-ada", token: NTFY_TOKEN },
    pushover: { userKey: USER_KEY },
    gotify: { serverUrl: `${api.url}/gotify/`, token: GOTIFY_TOKEN },
    discord: { url: `${api.url}${PATHS.discord}` },
    slack: { url: `${api.url}${PATHS.slack}` },
  };
  for (const type of TYPES) {
    const { createChannel } = await ok(
      "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
      { i: { type, name: `Ada's ${type}`, ...inputs[type] } },
    );
    channels[type] = createChannel.channel.uuid;
  }
});

const dutchTime = (date: Date) =>
  new Intl.DateTimeFormat("nl-NL", { timeZone: "Europe/Amsterdam", dateStyle: "short", timeStyle: "short" }).format(
    date,
  );

describe("a FLEX message matching a P2000 monitor", () => {
  const MESSAGE = "A1 AMBU 17107 Bachplein 3112AB Schiedam bon 1";
  /** The page in plain words (P2000Message.plainText, the monitor's language: Dutch), then as sent. */
  const PAGE = `A1 spoed, ambulance, Bachplein, Schiedam\n${MESSAGE}`;
  // Whole seconds, as the pager network sends them.
  const sended = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
  let monitorUuid: string;
  let ids: Record<ChannelType, string>;

  beforeAll(async () => {
    monitorUuid = await createMonitor("Ambulance Schiedam", "1420099");
    await storeP2000Pages(ctx.db, [{ message: MESSAGE, sended: sended.toISOString(), capcodes: ["1420099"] }]);
    await waitUntil(
      () => log({ monitor: monitorUuid }),
      (rows) => rows.length === 5 && rows.every((r) => r.outcome === "delivered"),
      "five deliveries",
    );
    ids = await notificationsOf(monitorUuid);
  });

  test("the delivery log shows one delivery per channel", async () => {
    const rows = await log({ monitor: monitorUuid });
    expect(rows.map((r) => r.channelType).sort()).toEqual([...TYPES].sort());
    for (const row of rows) {
      expect(row).toMatchObject({
        itemKind: "p2000",
        outcome: "delivered",
        attempts: 1,
        responseCode: row.channelType === "discord" ? 204 : 200,
        error: null,
      });
    }
  });

  /** The plain text every push channel shows under its title. */
  const text = (link: string) =>
    [
      PAGE,
      "",
      `Time: ${dutchTime(sended)}`,
      "Urgency: A1",
      "Place: Bachplein, 3112AB, Schiedam",
      "Service: Ambulance, Rotterdam-Rijnmond",
      "Monitor: Ambulance Schiedam",
      "",
      `Are you going? ${link}`,
    ].join("\n");
  const TITLE = "A1 · Ambulance · Schiedam";

  test("ntfy: JSON to the server's root with topic, title, message, priority 5, tags, click and the access token", async () => {
    const requests = api.at(PATHS.ntfy);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    const link = await respondLink(ids.ntfy);
    expect(request).toMatchObject({ method: "POST", path: "/ntfy/" });
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers.authorization).toBe(`Bearer ${NTFY_TOKEN}`);
    expect(JSON.parse(request.body)).toEqual({
      topic: "nl-incidents-ada",
      title: TITLE,
      message: text(link),
      priority: 5,
      tags: ["rotating_light", "p2000"],
      click: link,
    });
  });

  test("Pushover: the Message API, form-encoded, with the service's app token and the channel's user key", async () => {
    const requests = api.at(PATHS.pushover);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    const link = await respondLink(ids.pushover);
    expect(request).toMatchObject({ method: "POST", path: "/pushover/1/messages.json" });
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request.headers.authorization).toBeUndefined();
    expect([...new URLSearchParams(request.body)]).toEqual([
      ["token", APP_TOKEN],
      ["user", USER_KEY],
      ["title", TITLE],
      ["message", text(link)],
      ["priority", "1"],
      ["url", link],
      ["url_title", "Are you going?"],
      ["timestamp", String(sended.getTime() / 1000)],
    ]);
  });

  test("Gotify: POST <server>/message with X-Gotify-Key, title, message, priority 10 and the click extra", async () => {
    const requests = api.at(PATHS.gotify);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    const link = await respondLink(ids.gotify);
    expect(request).toMatchObject({ method: "POST", path: "/gotify/message" });
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["x-gotify-key"]).toBe(GOTIFY_TOKEN);
    expect(JSON.parse(request.body)).toEqual({
      title: TITLE,
      message: text(link),
      priority: 10,
      extras: {
        "client::display": { contentType: "text/plain" },
        "client::notification": { click: { url: link } },
      },
    });
  });

  test("Discord: one embed with title, link, message, time, colour and the facts as fields; nobody pinged", async () => {
    const requests = api.at(PATHS.discord);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    const link = await respondLink(ids.discord);
    expect(request).toMatchObject({ method: "POST", path: PATHS.discord });
    expect(request.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request.body)).toEqual({
      embeds: [
        {
          title: TITLE,
          description: `${PAGE}\n\n[Are you going?](${link})`,
          url: link,
          timestamp: sended.toISOString(),
          color: 0xd32f2f,
          fields: [
            { name: "Time", value: dutchTime(sended), inline: true },
            { name: "Urgency", value: "A1", inline: true },
            { name: "Place", value: "Bachplein, 3112AB, Schiedam", inline: true },
            { name: "Service", value: "Ambulance, Rotterdam-Rijnmond", inline: true },
            { name: "Monitor", value: "Ambulance Schiedam", inline: true },
          ],
          footer: { text: "NL incident service" },
        },
      ],
      allowed_mentions: { parse: [] },
    });
  });

  test("Slack: the text fallback and Block Kit header, section with mrkdwn fields, and context with the link", async () => {
    const requests = api.at(PATHS.slack);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    const link = await respondLink(ids.slack);
    expect(request).toMatchObject({ method: "POST", path: PATHS.slack });
    expect(request.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request.body)).toEqual({
      text: `${TITLE}: ${PAGE}`,
      blocks: [
        { type: "header", text: { type: "plain_text", text: `:rotating_light: ${TITLE}`, emoji: true } },
        {
          type: "section",
          text: { type: "mrkdwn", text: PAGE },
          fields: [
            { type: "mrkdwn", text: `*Time*\n${dutchTime(sended)}` },
            { type: "mrkdwn", text: "*Urgency*\nA1" },
            { type: "mrkdwn", text: "*Place*\nBachplein, 3112AB, Schiedam" },
            { type: "mrkdwn", text: "*Service*\nAmbulance, Rotterdam-Rijnmond" },
            { type: "mrkdwn", text: "*Monitor*\nAmbulance Schiedam" },
          ],
        },
        { type: "context", elements: [{ type: "mrkdwn", text: `<${link}|Are you going?>` }] },
      ],
    });
  });

  test("a second matching and a repeated delivery job send nothing more", async () => {
    const before = api.requests.length;
    const { rows } = await ctx.service.ownerPool.query(
      "select sum(app_private.match_p2000_message(m.uuid))::int as queued from app_public.p2000_messages m where m.message = $1",
      [MESSAGE],
    );
    expect(rows[0].queued).toBe(0);
    // The deliverer's job again, as a redelivery would queue it: the notification is no longer queued.
    for (const uuid of Object.values(ids)) {
      await ctx.service.ownerPool.query("select graphile_worker.add_job('notifications__deliver', $1::json)", [
        JSON.stringify({ uuid }),
      ]);
    }
    await ctx.service.workerIdle();
    expect(api.requests.length).toBe(before);
    for (const type of TYPES) expect(api.at(PATHS[type])).toHaveLength(1);
    expect((await log({ monitor: monitorUuid })).map((r) => r.attempts)).toEqual([1, 1, 1, 1, 1]);
  });
});

describe("sendTestNotification", () => {
  const TEST_SEND = `mutation ($c: String!) { sendTestNotification(channel: $c) {
    uuid outcome delivered responseCode error } }`;
  const TEST_TITLE = "Test notification from the NL incident service";
  const testText = (type: string) =>
    `This is a test of the channel "Ada's ${type}". No incident happened; nothing needs doing.`;

  test.each(TYPES)("a %s channel gets a test, and the answer is its outcome", async (type) => {
    const before = api.at(PATHS[type]).length;
    const { sendTestNotification: sent } = await ok(TEST_SEND, { c: channels[type] });
    expect(sent).toMatchObject({
      outcome: "delivered",
      delivered: true,
      responseCode: type === "discord" ? 204 : 200,
      error: null,
    });
    const requests = api.at(PATHS[type]);
    expect(requests).toHaveLength(before + 1);
    const request = requests.at(-1)!;
    const body = type === "pushover" ? Object.fromEntries(new URLSearchParams(request.body)) : JSON.parse(request.body);
    const expected: Record<ChannelType, unknown> = {
      ntfy: {
        topic: "nl-incidents-ada",
        title: TEST_TITLE,
        message: testText(type),
        priority: 3,
        tags: ["test"],
        click: publicUrl(),
      },
      pushover: {
        token: APP_TOKEN,
        user: USER_KEY,
        title: TEST_TITLE,
        message: testText(type),
        priority: "0",
        url: publicUrl(),
        url_title: "Open",
      },
      gotify: {
        title: TEST_TITLE,
        message: testText(type),
        priority: 5,
        extras: {
          "client::display": { contentType: "text/plain" },
          "client::notification": { click: { url: publicUrl() } },
        },
      },
      discord: {
        embeds: [
          {
            title: TEST_TITLE,
            description: testText(type),
            url: publicUrl(),
            color: 0x1976d2,
            fields: [],
            footer: { text: "NL incident service" },
          },
        ],
        allowed_mentions: { parse: [] },
      },
      slack: {
        text: TEST_TITLE,
        blocks: [
          { type: "header", text: { type: "plain_text", text: TEST_TITLE, emoji: true } },
          { type: "section", text: { type: "mrkdwn", text: testText(type) } },
          { type: "context", elements: [{ type: "mrkdwn", text: `<${publicUrl()}|Open>` }] },
        ],
      },
    };
    expect(body).toEqual(expected[type]);
    const [row] = await log({ channel: channels[type], outcome: "delivered" });
    expect(row).toMatchObject({ uuid: sent.uuid, itemKind: "test", attempts: 1 });
  });
});

describe("a receiver that refuses", () => {
  /** What each service answers to a request it refuses, as its documentation shows. */
  const refusals: Record<ChannelType, string> = {
    ntfy: '{"code":40003,"http":400,"error":"invalid request: message is empty"}',
    pushover:
      '{"user":"invalid","errors":["user identifier is not a valid user, group, or subscribed user key"],"status":0}',
    gotify: '{"error":"Bad Request","errorCode":400,"errorDescription":"Field \'message\' is required"}',
    discord: '{"message": "Invalid Form Body", "code": 50035}',
    slack: "invalid_payload",
  };
  function answerAll(status: number) {
    for (const type of TYPES) {
      api.answers.set(PATHS[type], { status, contentType: "text/plain", body: status === 400 ? refusals[type] : "" });
    }
  }
  const ingest = (message: string, capcode: string) =>
    storeP2000Pages(ctx.db, [{ message, sended: new Date().toISOString(), capcodes: [capcode] }]);

  test("answering 400 makes a failure for good, with the status and answer in the log", async () => {
    const monitorUuid = await createMonitor("Refused", "1420100");
    answerAll(400);
    try {
      await ingest("B2 AMBU 17108 Rotterdamseweg Delft bon 2", "1420100");
      const rows = await waitUntil(
        () => log({ monitor: monitorUuid }),
        (found) => found.length === 5 && found.every((r) => r.outcome === "failed"),
        "five failures",
      );
      for (const row of rows) {
        expect(row).toMatchObject({ outcome: "failed", attempts: 1, responseCode: 400 });
        expect(row.error).toBe(`HTTP 400: ${refusals[row.channelType as ChannelType]}`);
      }
    } finally {
      answerAsDocumented();
    }
  });

  test("answering 500 is retried until it succeeds", async () => {
    const monitorUuid = await createMonitor("Flaky", "1420101");
    answerAll(500);
    try {
      await ingest("B2 AMBU 17109 Rotterdamseweg Delft bon 3", "1420101");
      const rows = await waitUntil(
        () => log({ monitor: monitorUuid }),
        (found) => found.length === 5 && found.every((r) => r.attempts === 1 && r.outcome === "retrying"),
        "five retries",
      );
      for (const row of rows) expect(row).toMatchObject({ responseCode: 500, error: "HTTP 500: " });
    } finally {
      answerAsDocumented();
    }
    // Skip the backoff wait (the first retry is due after e^1 seconds).
    await ctx.service.ownerPool.query(
      "update graphile_worker._private_jobs set run_at = now() where task_id = (select id from graphile_worker._private_tasks where identifier = 'notifications__deliver')",
    );
    const rows = await waitUntil(
      () => log({ monitor: monitorUuid }),
      (found) => found.every((r) => r.outcome === "delivered"),
      "five deliveries",
    );
    for (const row of rows) expect(row).toMatchObject({ attempts: 2, error: null });
  });
});

test("a Discord or Slack webhook that is gone (404, 410) disables its channel; later sends fail at once", async () => {
  const gone = {
    discord: { path: "/discord/gone/1/x", status: 404 },
    slack: { path: "/slack/gone/T0/B0/x", status: 410 },
  };
  for (const [type, { path, status }] of Object.entries(gone)) {
    api.answers.set(path, { status, contentType: "text/plain", body: type === "slack" ? "channel_is_archived" : "" });
    const { createChannel } = await ok(
      "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
      { i: { type, name: `Ada's old ${type}`, url: `${api.url}${path}` } },
    );
    const uuid = createChannel.channel.uuid as string;
    const send = "mutation ($c: String!) { sendTestNotification(channel: $c) { outcome responseCode error } }";
    const first = (await ok(send, { c: uuid })).sendTestNotification;
    expect(first).toMatchObject({ outcome: "failed", responseCode: status });
    expect(first.error).toMatch(/the target is gone; the channel is disabled/);
    const { channels: all } = await ok("{ channels { uuid disabledAt disabledReason } }");
    const channel = all.find((c: { uuid: string }) => c.uuid === uuid);
    expect(channel.disabledAt).not.toBeNull();
    expect(channel.disabledReason).toMatch(new RegExp(`HTTP ${status}`));
    const requests = api.at(path).length;
    const second = (await ok(send, { c: uuid })).sendTestNotification;
    expect(second).toMatchObject({ outcome: "failed", responseCode: null });
    expect(second.error).toMatch(/The channel was disabled/);
    expect(api.at(path)).toHaveLength(requests);
  }
});
