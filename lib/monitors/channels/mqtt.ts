// MQTT: each monitor's matches published to the member's broker as JSON, with a Home Assistant
// MQTT discovery config beside them, so that every monitor shows up in Home Assistant as a sensor
// (its state the last match's title, its attributes the text, place, coordinates, urgency and
// link) without any YAML. Topics and payloads: docs/channels/mqtt.md.
//
// One connection per delivery: resolve the broker to one checked address, connect, publish the
// discovery config, the state and the event with QoS 1, wait for each PUBACK, disconnect. A
// cached connection per broker (DESIGN.md §12) would save a handshake per match, but it would
// carry an address check made for an earlier delivery, credentials that may have changed, and a
// socket whose death must be noticed and undone; a handful of matches per minute does not need it.
import { randomBytes } from "node:crypto";
import dns from "node:dns";
import net from "node:net";
import mqtt, { type IClientOptions, type MqttClient } from "mqtt";
import { hostOf, RefusedTarget, resolveTargetAddress, type ResolvedAddress } from "../../http/outbound.ts";
import { DeliveryError, type NotificationSettings, type PendingNotification, type Sender } from "../notification.ts";
import { headlineOf, notificationText, respondUrl } from "../notification-text.ts";

/** Connecting, publishing and every PUBACK together must be done within this. */
const TIMEOUT_MS = 10_000;
/** Home Assistant's discovery prefix (its default; the MQTT integration's "discovery prefix"). */
const DISCOVERY_PREFIX = "homeassistant";
/** Home Assistant keeps at most 255 characters of a sensor's state. */
const MAX_STATE_LENGTH = 255;
const DEFAULT_PORTS: Record<string, number> = { "mqtt:": 1883, "mqtts:": 8883, "ws:": 80, "wss:": 443 };

/**
 * The one address the connection goes to, checked as the delivery's SSRF rule says (refused for
 * good when private unless allowPrivateTargets), so the client never resolves the name itself.
 */
async function resolveBrokerAddress(host: string, publicOnly: boolean): Promise<ResolvedAddress> {
  try {
    return await resolveTargetAddress(host, { publicOnly, what: "MQTT broker" });
  } catch (error) {
    throw new DeliveryError((error as Error).message, null, error instanceof RefusedTarget);
  }
}

/** One message to publish; all with QoS 1. */
interface Publication {
  topic: string;
  payload: string;
  retain: boolean;
}

/** The JSON of a match on the state and event topics (and of a test send on <prefix>/test). */
export function mqttPayload(settings: NotificationSettings, n: PendingNotification, now = new Date()) {
  const p2000 = n.kind === "p2000";
  const title = headlineOf(n);
  return {
    id: n.notification_uuid,
    kind: n.kind,
    title: title.length > MAX_STATE_LENGTH ? `${title.slice(0, MAX_STATE_LENGTH - 1)}…` : title,
    text: notificationText(settings, n),
    // What a speaker reads aloud (Home Assistant's tts): the page in plain words, in the monitor's language.
    plainText: p2000 ? n.plain_text : null,
    time: (p2000 ? n.sended! : now).toISOString(),
    urgency: p2000 ? n.urgency : null,
    place: p2000 ? [n.street, n.postcode, n.city].filter(Boolean).join(", ") || null : null,
    latitude: p2000 ? n.latitude : (found(n.payload, "latitude", "number") as number | null),
    longitude: p2000 ? n.longitude : (found(n.payload, "longitude", "number") as number | null),
    link: p2000 ? respondUrl(settings, n) : (found(n.payload, "url", "string") ?? found(n.payload, "link", "string")),
    ...(n.monitor_uuid === null ? {} : { monitor: { uuid: n.monitor_uuid, name: n.monitor_name } }),
  };
}

/** A feed event's field, at the top of its payload or one object down (incident.latitude). */
function found(payload: Record<string, unknown> | null, key: string, type: "number" | "string") {
  if (!payload) return null;
  if (typeof payload[key] === type) return payload[key];
  for (const value of Object.values(payload)) {
    if (value && typeof value === "object" && typeof (value as Record<string, unknown>)[key] === type) {
      return (value as Record<string, unknown>)[key];
    }
  }
  return null;
}

/** A topic prefix as a discovery topic's node id, which allows [a-zA-Z0-9_-] only. */
function nodeIdOf(prefix: string): string {
  return prefix.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/** The topics and discovery config of one monitor under one prefix. */
export function mqttTopics(prefix: string, monitorUuid: string) {
  const nodeId = nodeIdOf(prefix);
  return {
    state: `${prefix}/${monitorUuid}/state`,
    event: `${prefix}/${monitorUuid}/event`,
    discovery: `${DISCOVERY_PREFIX}/sensor/${nodeId}/${monitorUuid}/config`,
    uniqueId: `${nodeId}_${monitorUuid}`,
  };
}

/**
 * Home Assistant's discovery config of a monitor's sensor: the entity is the device's main feature
 * (name null), so Home Assistant names it after the monitor and derives its entity id from that.
 */
export function discoveryConfig(settings: NotificationSettings, n: PendingNotification, prefix: string) {
  const topics = mqttTopics(prefix, n.monitor_uuid!);
  return {
    name: null,
    unique_id: topics.uniqueId,
    state_topic: topics.state,
    value_template: "{{ value_json.title }}",
    json_attributes_topic: topics.state,
    icon: "mdi:alarm-light",
    qos: 1,
    device: {
      identifiers: [topics.uniqueId],
      name: n.monitor_name,
      manufacturer: "NL incident service",
      model: `${n.kind} monitor`,
      configuration_url: settings.publicUrl,
    },
    origin: { name: "NL incident service", url: settings.publicUrl },
  };
}

/** What one delivery publishes, in order: the discovery config first, so the sensor exists when its state arrives. */
export function mqttPublications(settings: NotificationSettings, n: PendingNotification): Publication[] {
  const prefix = n.topic ?? "nl-incidents";
  const payload = JSON.stringify(mqttPayload(settings, n));
  // A test send has no monitor, so no entity: one message under the prefix.
  if (n.monitor_uuid === null) return [{ topic: `${prefix}/test`, payload, retain: false }];
  const topics = mqttTopics(prefix, n.monitor_uuid);
  return [
    { topic: topics.discovery, payload: JSON.stringify(discoveryConfig(settings, n, prefix)), retain: true },
    { topic: topics.state, payload, retain: true },
    { topic: topics.event, payload, retain: false },
  ];
}

/** MQTT 3.1.1's CONNACK return codes (section 3.2.2.3); 3 (server unavailable) is worth retrying. */
const CONNACK_REFUSALS: Record<number, string> = {
  1: "unacceptable protocol version",
  2: "client identifier rejected",
  3: "server unavailable",
  4: "bad user name or password",
  5: "not authorized",
};

function failure(error: Error): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "number" && code > 0) {
    return new DeliveryError(
      `The broker refused the connection: ${CONNACK_REFUSALS[code] ?? `return code ${code}`}.`,
      code,
      code !== 3,
    );
  }
  return new DeliveryError(`MQTT: ${error.message}`);
}

/** Connects to exactly `address` (the URL's host stays the TLS server name and the WebSocket's Host). */
function clientOptions(url: URL, address: { address: string; family: number }, credentials: Record<string, string>) {
  const protocol = url.protocol.slice(0, -1) as "mqtt" | "mqtts" | "ws" | "wss";
  const host = hostOf(url);
  const options: IClientOptions = {
    protocol,
    port: url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol],
    username: credentials.username,
    password: credentials.password,
    clientId: `nlis-${randomBytes(8).toString("hex")}`,
    clean: true,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: TIMEOUT_MS,
  };
  if (protocol === "ws" || protocol === "wss") {
    // The WebSocket's URL keeps the name (Host header, TLS server name); its lookup answers the checked address.
    Object.assign(options, {
      hostname: url.hostname,
      path: `${url.pathname}${url.search}`,
      wsOptions: {
        lookup: (_host: string, opts: dns.LookupOptions, callback: (...args: unknown[]) => void) =>
          opts.all ? callback(null, [address]) : callback(null, address.address, address.family),
      },
    });
  } else {
    Object.assign(options, { host: address.address, hostname: address.address });
    // (A name, not an IP literal: RFC 6066 allows no address as the server name.)
    if (protocol === "mqtts" && !net.isIP(host)) options.servername = host;
  }
  return options;
}

/** Connects, publishes each message with QoS 1 and waits for its PUBACK, then disconnects. */
async function publishAll(options: IClientOptions, publications: Publication[]): Promise<void> {
  let client: MqttClient | undefined;
  let deadline: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      deadline = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms.`)), TIMEOUT_MS);
      client = mqtt.connect(options);
      client.once("error", reject);
      client.once("close", () => reject(new Error("the broker closed the connection.")));
      client.once("connect", () => {
        Promise.all(publications.map((p) => client!.publishAsync(p.topic, p.payload, { qos: 1, retain: p.retain })))
          .then(() => resolve())
          .catch(reject);
      });
    });
  } catch (error) {
    // (Later events of this client call reject again, which does nothing on a settled promise.)
    client?.end(true);
    throw failure(error as Error);
  } finally {
    clearTimeout(deadline);
  }
  // Every PUBACK is in: a clean DISCONNECT.
  client!.end();
}

/** One connection to the channel's broker, at its checked address, for `publications`. */
async function publishToBroker(
  settings: NotificationSettings,
  serverUrl: string,
  credentials: Record<string, string>,
  publications: Publication[],
): Promise<void> {
  const url = new URL(serverUrl);
  const address = await resolveBrokerAddress(hostOf(url), !settings.allowPrivateTargets);
  await publishAll(clientOptions(url, address, credentials), publications);
}

export const mqttSender: Sender = async (settings, n) => {
  await publishToBroker(settings, n.server_url!, n.credentials, mqttPublications(settings, n));
  // The CONNACK return code: 0, connection accepted.
  return { responseCode: 0, reply: null };
};

/** A row of app_private.mqtt_discovery_to_clear: a channel's broker and the monitors that left it. */
export interface MqttMonitorsToClear {
  server_url: string;
  topic: string;
  credentials: Record<string, string>;
  monitor_uuids: string[];
}

/**
 * Takes monitors that left the channel out of Home Assistant: an empty retained message on each
 * one's discovery topic (Home Assistant removes the sensor) and state topic (the broker forgets the
 * last match). Throws DeliveryErrors, like a delivery.
 */
export async function clearMqttMonitors(settings: NotificationSettings, channel: MqttMonitorsToClear): Promise<void> {
  const publications = channel.monitor_uuids.flatMap((monitor) => {
    const topics = mqttTopics(channel.topic, monitor);
    return [topics.discovery, topics.state].map((topic) => ({ topic, payload: "", retain: true }));
  });
  if (publications.length > 0) await publishToBroker(settings, channel.server_url, channel.credentials, publications);
}
