// The burst bench's receivers for the channel types other than the webhook (bench/soak/receiver.ts
// is the webhook's): a push service over TLS, an ntfy server, Discord's webhook API and an MQTT
// broker, each local, each answering as its original does and counting what arrives per target
// (the bench's channel number, read from the path, topic or body). The push service decrypts a
// sample of the pushes and checks their VAPID token (test/helpers/web-push-user-agent.ts); what a
// receiver could not read counts as bad.
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { Aedes } from "aedes";
import { browserKeys, decryptPush, vapidClaims } from "../../test/helpers/web-push-user-agent.ts";

/** What arrived for each target of one kind: its first arrival's time, and anything beyond it. */
export class Arrivals {
  readonly first = new Map<string, number>();
  /** Arrivals of a target that had one already (sent again: a retry, or a killed worker's batch). */
  again = 0;
  /** Requests that could not be read or did not check out. */
  bad = 0;

  record(target: string): void {
    if (this.first.has(target)) this.again++;
    else this.first.set(target, Date.now());
  }
}

/** A local HTTP(S) server on 127.0.0.1 answering each request, once read whole, with the status `handle` gives. */
async function listen(
  handle: (req: http.IncomingMessage, body: Buffer) => number,
  tls?: { key: string; cert: string },
): Promise<{ port: number; close: () => Promise<void> }> {
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => res.writeHead(handle(req, Buffer.concat(chunks))).end());
  };
  const server = tls ? https.createServer(tls, onRequest) : http.createServer(onRequest);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The push service's test-only certificate (127.0.0.1): its workers trust it through NODE_EXTRA_CA_CERTS. */
export const PUSH_CERTIFICATE = new URL("../../test/fixtures/push-service-tls/cert.pem", import.meta.url).pathname;
const PUSH_KEY = new URL("../../test/fixtures/push-service-tls/key.pem", import.meta.url).pathname;

/**
 * A push service (RFC 8030) at https://127.0.0.1:<port>/push/<target>, answering 201. Every
 * subscription shares one browser key pair (each push is still encrypted anew: a key agreement
 * with a fresh key of the sender's); one push in `sampleEvery` is decrypted and its VAPID token
 * verified against `vapidPublicKey`, and the first decrypted message is kept for the minimal sender.
 */
export async function startPushService(vapidPublicKey: string, sampleEvery = 50) {
  const browser = browserKeys();
  const arrivals = new Arrivals();
  let seen = 0;
  let sample: string | undefined;
  const server = await listen(
    (req, body) => {
      const target = /^\/push\/([^/?]+)/.exec(req.url ?? "")?.[1];
      if (!target) return 404;
      if (seen++ % sampleEvery === 0) {
        try {
          const { aud, exp } = vapidClaims(String(req.headers.authorization), vapidPublicKey);
          if (aud !== `https://127.0.0.1:${server.port}` || exp * 1000 < Date.now())
            throw new Error("another audience");
          const text = decryptPush(browser, body);
          JSON.parse(text);
          sample ??= text;
        } catch {
          arrivals.bad++;
          return 400;
        }
      }
      arrivals.record(target);
      return 201;
    },
    { key: fs.readFileSync(PUSH_KEY, "utf8"), cert: fs.readFileSync(PUSH_CERTIFICATE, "utf8") },
  );
  return {
    arrivals,
    /** A subscription as a browser gives it, for the channel's credentials. */
    subscription: (target: string) => ({
      endpoint: `https://127.0.0.1:${server.port}/push/${target}`,
      ...browser.keys,
    }),
    sample: () => sample,
    close: server.close,
  };
}

/**
 * An ntfy server's publish-as-JSON endpoint (POST / with {topic, title, message, …}, 200) or a
 * Discord webhook (POST /api/webhooks/<target>/<token> with {embeds}, 204); the first body is kept.
 */
export async function startJsonReceiver(kind: "ntfy" | "discord") {
  const arrivals = new Arrivals();
  let sample: string | undefined;
  const server = await listen((req, body) => {
    let target: string | undefined;
    try {
      const json = JSON.parse(body.toString("utf8"));
      target =
        kind === "ntfy"
          ? /^fanout-(\d+)$/.exec(json.topic)?.[1]
          : Array.isArray(json.embeds) && json.embeds.length > 0
            ? /^\/api\/webhooks\/(\d+)\/token$/.exec(req.url ?? "")?.[1]
            : undefined;
    } catch {
      target = undefined;
    }
    if (!target) {
      arrivals.bad++;
      return 400;
    }
    sample ??= body.toString("utf8");
    arrivals.record(target);
    return kind === "ntfy" ? 200 : 204;
  });
  const base = `http://127.0.0.1:${server.port}`;
  return {
    arrivals,
    base,
    /** Where a target's message goes: ntfy's root (its topic says the target), Discord's webhook URL. */
    url: (target: string) => (kind === "ntfy" ? `${base}/` : `${base}/api/webhooks/${target}/token`),
    sample: () => sample,
    close: server.close,
  };
}

/**
 * An MQTT broker (aedes) on mqtt://127.0.0.1:<port>: a delivery publishes a discovery config, a
 * state and an event under the channel's topic prefix fanout/<target>; the event counts, and the
 * first of each is kept.
 */
export async function startMqttBroker() {
  const arrivals = new Arrivals();
  /** The first discovery config, state and event published, by the topic's last level. */
  const sample: Partial<Record<"config" | "state" | "event", string>> = {};
  const broker = await Aedes.createBroker();
  broker.on("publish", (packet, client) => {
    if (!client) return; // the broker's own ($SYS) messages
    const last = packet.topic.split("/").at(-1);
    if (last === "config" || last === "state" || last === "event") sample[last] ??= packet.payload.toString();
    const target = /^fanout\/(\d+)\/[^/]+\/event$/.exec(packet.topic)?.[1];
    if (target) arrivals.record(target);
  });
  const server = net.createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    arrivals,
    url: `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    sample: () =>
      sample.config && sample.state && sample.event
        ? { config: sample.config, state: sample.state, event: sample.event }
        : undefined,
    // The broker closes its clients' connections first: the server then has none left to wait for.
    close: () => new Promise<void>((resolve) => broker.close(() => server.close(() => resolve()))),
  };
}
