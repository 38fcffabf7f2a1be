// One outgoing POST for deliveries (webhooks, SMS provider, Telegram): a timeout, a cap on the
// response read, no redirects, and optionally a lookup that refuses private addresses.
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { guardedLookup, isPrivateAddress } from "./webhook-targets.ts";

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Refuse private, loopback and link-local targets (webhooks). */
  publicOnly: boolean;
}

export interface PostResult {
  status: number;
  body: string;
}

export function postRequest(target: string, options: PostOptions): Promise<PostResult> {
  const url = new URL(target);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  // http.request skips `lookup` for IP literals, so those are checked here.
  if (options.publicOnly && net.isIP(host) && isPrivateAddress(host)) {
    return Promise.reject(new Error(`Target ${host} is a private, loopback or link-local address.`));
  }
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { ...options.headers, "content-length": Buffer.byteLength(options.body) },
        lookup: guardedLookup(!options.publicOnly),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxResponseBytes) {
            response.destroy();
            return;
          }
          chunks.push(chunk);
        });
        const done = () => {
          clearTimeout(deadline);
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
        };
        response.on("close", done);
        response.on("error", done);
      },
    );
    // One deadline for the whole exchange (a socket timeout would let a slow trickle go on).
    const deadline = setTimeout(
      () => request.destroy(new Error(`No answer within ${options.timeoutMs} ms.`)),
      options.timeoutMs,
    );
    request.on("error", (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.end(options.body);
  });
}
