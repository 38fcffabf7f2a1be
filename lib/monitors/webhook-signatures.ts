// Webhook signatures exactly as the Standard Webhooks specification (https://www.standardwebhooks.com/)
// has them, so receivers verify with its libraries (docs/monitors.md): HMAC-SHA256 over
// "<webhook-id>.<webhook-timestamp>.<body>", keyed with the bytes a `whsec_<base64>` secret encodes,
// sent as `webhook-signature: v1,<base64>`. The id is the notification uuid, the same on every retry.
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";
// Padded standard base64 only: the specification's libraries refuse anything else (base64url
// included), while Node's decoder would quietly accept it and sign with a key nobody can verify.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A new channel's secret: 32 random bytes, in the middle of the 24–64 the specification recommends. */
export function newSigningSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

function signingKey(secret: string): Buffer {
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : "";
  if (!encoded || !BASE64.test(encoded)) {
    throw new Error(
      "The channel's signing secret is not whsec_ followed by base64 (Standard Webhooks), so its deliveries cannot be signed.",
    );
  }
  return Buffer.from(encoded, "base64");
}

/** The `webhook-signature` header value of one delivery. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac("sha256", signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}
