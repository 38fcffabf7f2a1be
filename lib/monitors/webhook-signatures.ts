// Webhook signatures: HMAC-SHA256 over "<timestamp>.<body>" with the channel's signing secret,
// sent as `Webhook-Signature: v1=<hex>` next to `Webhook-Timestamp` (Unix seconds) and
// `Webhook-Id` (the notification uuid, the same on every retry, for de-duplication). Receivers
// verify with verifyWebhookSignature (or the few lines in docs/monitors.md).
import { createHmac, timingSafeEqual } from "node:crypto";

export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** True when the signature is ours and the timestamp is within `toleranceSeconds` of now. */
export function verifyWebhookSignature(
  secret: string, headers: { timestamp: string | undefined; signature: string | undefined }, body: string,
  toleranceSeconds = 300, now = Date.now(),
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > toleranceSeconds || !headers.signature) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(headers.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
