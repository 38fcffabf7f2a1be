// The soak's webhook receiver: one local HTTP server with a path per channel (/hook/<key>), each
// checked with its channel's signing secret by the Standard Webhooks reference library, as
// docs/monitors.md tells receivers to. It records every accepted delivery by its Webhook-Id (the
// notification: the same on retries, so a second acceptance of one id is a double delivery), can
// go away for a while (its listener closed: the worker's connections are refused, as with a
// receiver that is down) and come back on the same port, and answers after a short delay so that
// a worker killed "mid-delivery" really has requests in flight.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Delivery {
  webhookId: string;
  channel: string;
  monitorUuid: string | undefined;
  messageUuid: string | undefined;
  text: string | undefined;
  /** Date.now() of its first acceptance. */
  at: number;
}

export class WebhookReceiver {
  /** First acceptance of each Webhook-Id. */
  readonly deliveries = new Map<string, Delivery>();
  /** Webhook-Ids accepted more than once, with how many times in all. */
  readonly doubled = new Map<string, number>();
  badSignatures = 0;
  /** The body of the first delivery accepted (bench/fan-out.ts sends the same from its minimal sender). */
  sampleBody: string | undefined;
  /** Requests being answered now (the worker is delivering). */
  inFlight = 0;
  requests = 0;
  private readonly verifiers = new Map<string, Webhook>();
  private server: http.Server | undefined;
  private port = 0;
  private readonly delayMs: number;

  constructor(delayMs: number) {
    this.delayMs = delayMs;
  }

  /** The URL of a channel's hook; its secret comes later (createChannel answers with it). */
  url(channel: string): string {
    return `http://127.0.0.1:${this.port}/hook/${channel}`;
  }

  addSecret(channel: string, signingSecret: string): void {
    this.verifiers.set(channel, new Webhook(signingSecret));
  }

  get listening(): boolean {
    return this.server !== undefined;
  }

  /** Listens (again), on the port it had before if it had one. */
  async open(): Promise<void> {
    const server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Unreachable: no listener, and the connections the worker keeps alive are cut. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.requests++;
    this.inFlight++;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      setTimeout(() => {
        this.inFlight--;
        res.writeHead(this.accept(req, Buffer.concat(chunks).toString("utf8"))).end();
      }, this.delayMs);
    });
    req.on("error", () => this.inFlight--);
  }

  /** The status to answer: 204 for a delivery whose signature holds (recorded), 400 otherwise. */
  private accept(req: http.IncomingMessage, body: string): number {
    const channel = /^\/hook\/([^/?]+)/.exec(req.url ?? "")?.[1] ?? "";
    const verifier = this.verifiers.get(channel);
    let payload: {
      monitor?: { uuid?: string };
      message?: { uuid?: string; message?: string };
    };
    try {
      if (!verifier) throw new Error("unknown channel");
      payload = verifier.verify(body, req.headers as Record<string, string>) as typeof payload;
    } catch {
      this.badSignatures++;
      return 400;
    }
    this.sampleBody ??= body;
    const webhookId = String(req.headers["webhook-id"]);
    if (this.deliveries.has(webhookId)) this.doubled.set(webhookId, (this.doubled.get(webhookId) ?? 1) + 1);
    else
      this.deliveries.set(webhookId, {
        webhookId,
        channel,
        monitorUuid: payload.monitor?.uuid,
        messageUuid: payload.message?.uuid,
        text: payload.message?.message,
        at: Date.now(),
      });
    return 204;
  }
}
