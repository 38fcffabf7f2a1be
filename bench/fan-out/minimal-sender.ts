// The burst bench's limit (issue 47): a minimal sender that does for each target what the service's
// worker does, made as the service makes it (Standard Webhooks signing, Web Push encryption with the
// push service's kept VAPID token, the same JSON bodies, three QoS 1 publications over an MQTT
// connection of its own per target), over kept-alive connections with at most SOCKETS_PER_HOST
// sockets per receiver as the service's pools have, `inFlight` at a time in a plain loop: no
// queue, no database. It runs in a process of its own, as the worker does, so that neither shares
// a core with the receivers: `runMinimalSender` starts it on a job and answers its CPU time (ms).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import mqtt from "mqtt";
import { SOCKETS_PER_HOST } from "../../lib/http/outbound.ts";
import { pushRequest, type PushSubscriptionKeys } from "../../lib/monitors/channels/webpush.ts";
import type { VapidKeys } from "../../lib/monitors/channels/vapid-tokens.ts";
import { signWebhook } from "../../lib/monitors/webhook-signatures.ts";
import { PUSH_CERTIFICATE } from "./receivers.ts";

export type MinimalTarget =
  | { type: "webhook" | "ntfy" | "discord" | "mqtt"; target: string; url: string }
  | { type: "webpush"; target: string; subscription: PushSubscriptionKeys };

export interface MinimalJob {
  inFlight: number;
  /** Every webhook channel's signing secret. */
  secret: string;
  vapid: VapidKeys;
  /**
   * What the service's worker sent first of each kind (a push: its decrypted JSON; MQTT: its three
   * publications), for each kind among the targets.
   */
  samples: {
    webhook?: string;
    push?: string;
    ntfy?: string;
    discord?: string;
    mqtt?: { config: string; state: string; event: string };
  };
  targets: MinimalTarget[];
}

/** Sends the job from a child process; its CPU time in ms (user and system) when it is done. */
export async function runMinimalSender(job: MinimalJob): Promise<number> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fan-out-")), "job.json");
  fs.writeFileSync(file, JSON.stringify(job));
  try {
    const child = spawn(process.execPath, [new URL(import.meta.url).pathname, file], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`The minimal sender ended with ${code}.`);
    return JSON.parse(out).cpuMs;
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

async function send(job: MinimalJob): Promise<void> {
  const { samples, secret, vapid } = job;
  const agent = new http.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_HOST });
  const tlsAgent = new https.Agent({
    keepAlive: true,
    maxSockets: SOCKETS_PER_HOST,
    ca: fs.readFileSync(PUSH_CERTIFICATE, "utf8"),
  });
  const post = (url: string, headers: Record<string, string>, body: string | Buffer) =>
    new Promise<void>((resolve, reject) => {
      const secure = url.startsWith("https:");
      const request = (secure ? https : http).request(
        url,
        { method: "POST", headers, agent: secure ? tlsAgent : agent },
        (response) => {
          response.resume();
          response.on("end", () =>
            response.statusCode! < 300 ? resolve() : reject(new Error(`${url} answered ${response.statusCode}.`)),
          );
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  const json = { "content-type": "application/json", "user-agent": "fan-out-bench-minimal/1" };
  const sendTo = async (t: MinimalTarget) => {
    switch (t.type) {
      case "webhook": {
        const id = randomUUID();
        const timestamp = Math.floor(Date.now() / 1000);
        const signature = signWebhook(secret, id, timestamp, samples.webhook!);
        const headers = {
          ...json,
          "webhook-id": id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signature,
        };
        return post(t.url, headers, samples.webhook!);
      }
      case "webpush": {
        const { headers, body } = pushRequest(t.subscription, samples.push!, vapid, {
          ttlSeconds: 3600,
          urgency: "high",
        });
        return post(t.subscription.endpoint, headers, body);
      }
      case "ntfy":
        return post(t.url, json, JSON.stringify({ ...JSON.parse(samples.ntfy!), topic: `fanout-${t.target}` }));
      case "discord":
        return post(t.url, json, samples.discord!);
      case "mqtt": {
        const { config, state, event } = samples.mqtt!;
        const client = await mqtt.connectAsync(t.url, { clientId: `minimal-${t.target}`, reconnectPeriod: 0 });
        const prefix = `fanout/${t.target}/${randomUUID()}`;
        await Promise.all([
          client.publishAsync(`homeassistant/sensor/fanout_${t.target}/config`, config, { qos: 1, retain: true }),
          client.publishAsync(`${prefix}/state`, state, { qos: 1, retain: true }),
          client.publishAsync(`${prefix}/event`, event, { qos: 1 }),
        ]);
        await client.endAsync();
      }
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: job.inFlight }, async () => {
      while (next < job.targets.length) await sendTo(job.targets[next++]);
    }),
  );
  agent.destroy();
  tlsAgent.destroy();
}

// As a child process: node minimal-sender.ts <job.json>.
if (process.argv[1] === new URL(import.meta.url).pathname) {
  const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8")) as MinimalJob;
  const started = process.cpuUsage();
  await send(job);
  const cpu = process.cpuUsage(started);
  process.stdout.write(JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000 }));
}
