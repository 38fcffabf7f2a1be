// The mqtt channel type against a real broker (aedes, started here, which wants a user name and
// password) and a real MQTT client subscribed to Home Assistant's discovery prefix and the
// channel's topics: a P2000 monitor with the channel, a FLEX message stored through the reader's
// path, and what Home Assistant would see (the retained discovery config and state, one event per
// match, exactly once). A wrong password fails for good in the delivery log; a test send goes to
// <prefix>/test only; the broker's address is checked at send time; MQTT over WebSocket works too.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Aedes, type AuthenticateError } from "aedes";
import dns from "node:dns";
import http from "node:http";
import net from "node:net";
import tls from "node:tls";
import mqtt, { type MqttClient } from "mqtt";
import { WebSocketServer, createWebSocketStream } from "ws";
import { loadConfig } from "../../lib/config.ts";
import { mqttTopics } from "../../lib/monitors/channels/mqtt.ts";
import { deliverNotification, notificationSettings } from "../../lib/monitors/notification-delivery.ts";
import { DeliveryError, type PendingNotification } from "../../lib/monitors/notification.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { freePort } from "../helpers/ports.ts";
import { useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";

const USERNAME = "homeassistant";
const PASSWORD = "broker-password-of-the-member";

interface Received {
  topic: string;
  payload: string;
  retain: boolean;
}
/** What the service's own clients published to the broker, with the flags they set. */
interface Published extends Received {
  qos: number;
}

let broker: Aedes;
let tcp: net.Server;
let web: http.Server;
let sockets: WebSocketServer;
let brokerUrl: string;
let wsUrl: string;
let subscriber: MqttClient;
const received: Received[] = [];
const published: Published[] = [];
const connackCodes: number[] = [];

function listen(server: net.Server | http.Server | tls.Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port)));
}

/** A client that collects every message of `topics`, retained ones included. */
async function subscribe(topics: string[], into: Received[]): Promise<MqttClient> {
  const client = await mqtt.connectAsync(brokerUrl, { username: USERNAME, password: PASSWORD, reconnectPeriod: 0 });
  client.on("message", (topic, payload, packet) =>
    into.push({ topic, payload: payload.toString(), retain: packet.retain }),
  );
  await client.subscribeAsync(topics, { qos: 1 });
  return client;
}

beforeAll(async () => {
  broker = await Aedes.createBroker({
    authenticate: (_client, username, password, done) => {
      if (username === USERNAME && password?.toString() === PASSWORD) return done(null, true);
      done(Object.assign(new Error("Bad user name or password"), { returnCode: 4 }) as AuthenticateError, null);
    },
  });
  broker.on("publish", (packet, client) => {
    if (client?.id.startsWith("nlis-")) {
      published.push({
        topic: packet.topic,
        payload: packet.payload.toString(),
        retain: packet.retain,
        qos: packet.qos,
      });
    }
  });
  broker.on("connackSent", (packet) => connackCodes.push(packet.returnCode ?? 0));
  tcp = net.createServer(broker.handle);
  brokerUrl = `mqtt://127.0.0.1:${await listen(tcp, "127.0.0.1")}`;
  // MQTT over WebSocket on the address "localhost" resolves to, so the channel can name the host.
  const localhost = (await dns.promises.lookup("localhost")).address;
  web = http.createServer();
  sockets = new WebSocketServer({ server: web });
  sockets.on("connection", (socket, request) => broker.handle(createWebSocketStream(socket), request));
  wsUrl = `ws://localhost:${await listen(web, localhost)}/mqtt`;
  subscriber = await subscribe(["homeassistant/#", "nl-incidents/#"], received);
});
// The broker runs on this machine, so this service allows private targets.
const PUBLIC_URL = "https://incidents.example.org";
const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: true, publicUrl: PUBLIC_URL } }));
afterAll(async () => {
  await subscriber?.endAsync();
  await new Promise<void>((resolve) => broker?.close(() => resolve()));
  tcp?.close();
  sockets?.close();
  web?.closeAllConnections();
  web?.close();
});

async function ok(user: TestUser, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await ctx.service.graphql(query, { token: user.accessToken, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
}
async function createChannel(user: TestUser, input: Record<string, unknown>): Promise<string> {
  const data = await ok(user, "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }", {
    i: input,
  });
  return data.createChannel.channel.uuid;
}
async function createMonitor(user: TestUser, name: string, capcode: string, channel: string): Promise<string> {
  const data = await ok(user, "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }", {
    i: { name, query: JSON.stringify({ capcodes: [capcode] }), channels: JSON.stringify([channel]) },
  });
  return data.createMonitor.uuid;
}
const LOG = `query ($f: DeliveryFilterInput) { deliveries(filter: $f) {
  uuid outcome attempts responseCode reply error itemUuid } }`;
async function log(user: TestUser, filter: Record<string, unknown>) {
  return (await ok(user, LOG, { f: filter })).deliveries as Array<Record<string, any>>;
}
const TEST_SEND = `mutation ($c: String!) { sendTestNotification(channel: $c) { uuid outcome responseCode error } }`;

let ada: TestUser;
let channel: string;
beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org");
  channel = await createChannel(ada, {
    type: "mqtt",
    name: "Home Assistant",
    serverUrl: brokerUrl,
    username: USERNAME,
    password: PASSWORD,
  });
});

describe("mqtt channel with Home Assistant discovery", () => {
  let monitor: string;

  test("a FLEX message's match: discovery config, retained state and one event, exactly once", async () => {
    monitor = await createMonitor(ada, "Ambulance Schiedam", "1420099", channel);
    const sended = new Date(Date.now() - 5_000);
    await storeP2000Pages(ctx.db, [
      { message: "A1 AMBU 17107 Bachplein Schiedam bon 1", sended: sended.toISOString(), capcodes: ["1420099"] },
      { message: "B2 AMBU 17108 not for this monitor", sended: sended.toISOString(), capcodes: ["1420100"] },
    ]);
    const [delivery] = await waitUntil(
      () => log(ada, { monitor }),
      (rows) => rows.length === 1 && rows[0].outcome === "delivered",
      "the monitor's delivery",
    );
    expect(delivery).toMatchObject({ attempts: 1, responseCode: 0, reply: null, error: null });
    await ctx.service.workerIdle();

    const topics = mqttTopics("nl-incidents", monitor);
    expect(topics).toEqual({
      state: `nl-incidents/${monitor}/state`,
      event: `nl-incidents/${monitor}/event`,
      discovery: `homeassistant/sensor/nl-incidents/${monitor}/config`,
      uniqueId: `nl-incidents_${monitor}`,
    });
    // What the service published, in order, each with QoS 1; config and state retained.
    expect(published.map(({ topic, retain, qos }) => ({ topic, retain, qos }))).toEqual([
      { topic: topics.discovery, retain: true, qos: 1 },
      { topic: topics.state, retain: true, qos: 1 },
      { topic: topics.event, retain: false, qos: 1 },
    ]);

    // Home Assistant's sensor: the fields its MQTT discovery needs, the state from the title.
    await waitUntil(
      () => received.length,
      (n) => n === 3,
      "the subscriber's three messages",
    );
    const config = JSON.parse(received.find((m) => m.topic === topics.discovery)!.payload);
    expect(config).toEqual({
      name: null,
      unique_id: topics.uniqueId,
      state_topic: topics.state,
      value_template: "{{ value_json.title }}",
      json_attributes_topic: topics.state,
      icon: "mdi:alarm-light",
      qos: 1,
      device: {
        identifiers: [topics.uniqueId],
        name: "Ambulance Schiedam",
        manufacturer: "NL incident service",
        model: "p2000 monitor",
        configuration_url: PUBLIC_URL,
      },
      origin: { name: "NL incident service", url: PUBLIC_URL },
    });

    const {
      rows: [message],
    } = await ctx.service.ownerPool.query(
      `select m.uuid, m.latitude, m.longitude, u.code as urgency, concat_ws(', ', m.street, m.postcode, m.city) as place
         from app_public.p2000_messages m left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
        where m.message like 'A1 AMBU 17107%'`,
    );
    expect(delivery.itemUuid).toBe(message.uuid);
    const state = JSON.parse(received.find((m) => m.topic === topics.state)!.payload);
    expect(state).toMatchObject({
      id: delivery.uuid,
      kind: "p2000",
      // What Home Assistant's sensor shows and a speaker reads: the page in plain words.
      title: "A1 spoed, ambulance, Bachplein, Schiedam",
      plainText: "A1 spoed, ambulance, Bachplein, Schiedam",
      time: sended.toISOString(),
      urgency: "A1",
      place: message.place || null,
      latitude: message.latitude,
      longitude: message.longitude,
      monitor: { uuid: monitor, name: "Ambulance Schiedam" },
    });
    expect(state.link).toMatch(new RegExp(`^${PUBLIC_URL}/respond\\?token=`));
    expect(state.text).toContain("A1 AMBU 17107 Bachplein Schiedam bon 1");
    expect(state.text).toContain("Monitor: Ambulance Schiedam");
    expect(received.find((m) => m.topic === topics.event)!.payload).toBe(JSON.stringify(state));

    // Home Assistant after a restart: the retained config and state are there, the event is not.
    const late: Received[] = [];
    const restarted = await subscribe(["homeassistant/#", "nl-incidents/#"], late);
    await waitUntil(
      () => late.length,
      (n) => n === 2,
      "the retained messages",
    );
    await restarted.endAsync();
    expect(late.map(({ topic, retain }) => ({ topic, retain })).sort((a, b) => a.topic.localeCompare(b.topic))).toEqual(
      [
        { topic: topics.discovery, retain: true },
        { topic: topics.state, retain: true },
      ],
    );
    // The broker saw the service's credentials (its authenticate accepted them).
    expect(connackCodes).not.toContain(4);
  });

  test("a wrong password fails for good: one attempt, the broker's CONNACK code, no secret in the log", async () => {
    const wrong = await createChannel(ada, {
      type: "mqtt",
      name: "Wrong password",
      serverUrl: brokerUrl,
      topic: "wrong/prefix",
      username: USERNAME,
      password: "not-the-broker-password",
    });
    const failing = await createMonitor(ada, "Wrong password monitor", "1420200", wrong);
    const before = published.length;
    await storeP2000Pages(ctx.db, [
      { message: "A2 AMBU 17200 Wrong password test", sended: new Date().toISOString(), capcodes: ["1420200"] },
    ]);
    const [row] = await waitUntil(
      () => log(ada, { monitor: failing }),
      (rows) => rows.length === 1 && rows[0].outcome === "failed",
      "the failed delivery",
    );
    expect(row).toMatchObject({
      outcome: "failed",
      attempts: 1,
      responseCode: 4,
      error: "The broker refused the connection: bad user name or password.",
    });
    await ctx.service.workerIdle();
    expect(published.length).toBe(before);
    expect(JSON.stringify(await log(ada, { channel: wrong }))).not.toContain("not-the-broker-password");
    // The worker gave up at once: no retry is queued.
    const { rows } = await ctx.service.ownerPool.query(
      `select count(*)::int as n from graphile_worker._private_jobs j
         join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'notifications__deliver'`,
    );
    expect(rows[0].n).toBe(0);
  });

  test("sendTestNotification publishes to <prefix>/test only, not retained", async () => {
    const before = received.length;
    const { sendTestNotification: sent } = await ok(ada, TEST_SEND, { c: channel });
    expect(sent).toMatchObject({ outcome: "delivered", responseCode: 0, error: null });
    await waitUntil(
      () => received.length,
      (n) => n === before + 1,
      "the test message",
    );
    const [message] = received.slice(before);
    expect(message.topic).toBe("nl-incidents/test");
    expect(JSON.parse(message.payload)).toMatchObject({
      id: sent.uuid,
      kind: "test",
      title: "Test notification from the NL incident service",
      urgency: null,
      latitude: null,
      longitude: null,
    });
    expect(published.at(-1)).toMatchObject({ topic: "nl-incidents/test", retain: false, qos: 1 });
  });

  test("a monitor that leaves the channel (deleted, or the channel taken off its list) leaves Home Assistant", async () => {
    const leaving = await createMonitor(ada, "Leaves by update", "1420300", channel);
    await storeP2000Pages(ctx.db, [
      { message: "P1 BRW 17300 Leaves by update", sended: new Date().toISOString(), capcodes: ["1420300"] },
    ]);
    await waitUntil(
      () => log(ada, { monitor: leaving }),
      (rows) => rows.length === 1 && rows[0].outcome === "delivered",
      "the second monitor's delivery",
    );
    const before = published.length;
    await ok(ada, "mutation ($i: UpdateMonitorInput!) { updateMonitor(input: $i) { uuid } }", {
      i: { uuid: leaving, channels: "[]" },
    });
    await ok(ada, "mutation ($u: String!) { deleteMonitor(uuid: $u) }", { u: monitor });
    await waitUntil(
      () => published.length,
      (n) => n === before + 4,
      "the cleared topics",
    );
    await ctx.service.workerIdle();
    const cleared = published.slice(before).map(({ topic, payload, retain, qos }) => ({ topic, payload, retain, qos }));
    const expected = [leaving, monitor].flatMap((m) => [
      { topic: mqttTopics("nl-incidents", m).discovery, payload: "", retain: true, qos: 1 },
      { topic: mqttTopics("nl-incidents", m).state, payload: "", retain: true, qos: 1 },
    ]);
    const byTopic = (a: { topic: string }, b: { topic: string }) => a.topic.localeCompare(b.topic);
    expect(cleared.sort(byTopic)).toEqual(expected.sort(byTopic));

    // Home Assistant, connecting now, finds no sensor and no last match of either.
    const late: Received[] = [];
    const restarted = await subscribe(["homeassistant/#", "nl-incidents/#"], late);
    await restarted.publishAsync("nl-incidents/marker", "end of retained", { qos: 1 });
    await waitUntil(
      () => late.length,
      (n) => n >= 1,
      "the marker",
    );
    await restarted.endAsync();
    expect(late.map((m) => m.topic)).toEqual(["nl-incidents/marker"]);
  });

  test("MQTT over WebSocket (ws://) delivers through the same code", async () => {
    const viaWs = await createChannel(ada, {
      type: "mqtt",
      name: "Over WebSocket",
      serverUrl: wsUrl,
      topic: "ha/ws",
      username: USERNAME,
      password: PASSWORD,
    });
    const { sendTestNotification: sent } = await ok(ada, TEST_SEND, { c: viaWs });
    expect(sent).toMatchObject({ outcome: "delivered", responseCode: 0, error: null });
    expect(published.at(-1)).toMatchObject({ topic: "ha/ws/test", retain: false, qos: 1 });
    expect(JSON.parse(published.at(-1)!.payload).id).toBe(sent.uuid);
  });
});

describe("the broker's address and network failures at send time", () => {
  /** A stored-looking notification to `serverUrl`, sent straight through the deliverer. */
  function notification(serverUrl: string): PendingNotification {
    return {
      notification_uuid: "00000000-0000-4000-8000-000000000001",
      channel_type: "mqtt",
      server_url: serverUrl,
      topic: "nl-incidents",
      credentials: { username: USERNAME, password: PASSWORD },
      monitor_uuid: null,
      kind: "test",
      headline: "Test",
      facts: [],
      payload: {},
      channel_disabled_at: null,
    } as unknown as PendingNotification;
  }
  const settings = (allowPrivateTargets: boolean) =>
    notificationSettings({
      ...loadConfig().delivery,
      smtpUrl: undefined,
      publicUrl: PUBLIC_URL,
      allowPrivateTargets,
    });

  test("a broker on a private address is refused for good unless private targets are allowed", async () => {
    const before = published.length;
    const error = (await deliverNotification(settings(false), notification(brokerUrl)).catch(
      (e) => e,
    )) as DeliveryError;
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error.message).toMatch(/^MQTT broker 127\.0\.0\.1 is a private, loopback or link-local address/);
    expect(error.permanent).toBe(true);
    expect(published.length).toBe(before);
    await expect(deliverNotification(settings(true), notification(brokerUrl))).resolves.toEqual({
      responseCode: 0,
      reply: null,
    });
  });

  test("mqtts:// goes to the checked address with the broker's name for TLS; a certificate it cannot check is retried", async () => {
    // A TLS server that records the server name the client asks for, and has no certificate to offer.
    const names: string[] = [];
    const server = tls.createServer({
      SNICallback: (name, callback) => {
        names.push(name);
        callback(new Error("no certificate here"), undefined);
      },
    });
    const port = await listen(server, (await dns.promises.lookup("localhost")).address);
    try {
      const error = (await deliverNotification(settings(true), notification(`mqtts://localhost:${port}`)).catch(
        (e) => e,
      )) as DeliveryError;
      expect(error).toBeInstanceOf(DeliveryError);
      expect(error.permanent).toBe(false);
      expect(names).toEqual(["localhost"]);
    } finally {
      server.close();
    }
  });

  test("a broker that does not answer is worth retrying", async () => {
    const closed = `mqtt://127.0.0.1:${await freePort()}`;
    const error = (await deliverNotification(settings(true), notification(closed)).catch((e) => e)) as DeliveryError;
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.permanent).toBe(false);
  });
});
