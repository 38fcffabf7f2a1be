// Web Push (RFC 8030, 8291, 8292): a small JSON message, encrypted for the browser's subscription
// (aes128gcm) by the web-push library and authorised with the service's VAPID key (a token signed
// once per push service for a period: vapid-tokens.ts), POSTed to the subscription's push service
// through the guarded outbound client. The service worker
// (GET /push/sw.js, lib/monitors/push-worker-route.ts) shows it. A push service answering 404 or 410 says the
// subscription is gone (RFC 8030 §7.3, §8.3): the channel is disabled, not retried, as it is once
// the subscription's expirationTime (kept with its keys) has passed.
import webpush, { type Urgency } from "web-push";
import { DeliveryError, type NotificationSettings, type PendingNotification, type Sender } from "../notification.ts";
import { clip, factLines, headlineOf, linkOf } from "../notification-text.ts";
import { postExpectingSuccess } from "./post.ts";
import { vapidAuthorization, type VapidKeys } from "./vapid-tokens.ts";

/** What the service worker gets (docs/channels/webpush.md). */
export interface PushMessage {
  title: string;
  body: string;
  /** Opened on a click: the respond page of a P2000 match, else the item's own link, else the service. */
  url: string;
  /** One notification per incident: a dossier's later messages replace its earlier one. */
  tag: string;
  /** When it happened, milliseconds since 1970. */
  timestamp: number;
  /** p2000, a feed's event kind or test. */
  kind: string;
  urgency: Urgency;
  /** A P2000 message's urgency code (A1, P2, …), else null. */
  code: string | null;
}

// A push message may carry 4096 bytes after encryption (RFC 8291 §4); these leave room for the JSON around them.
const MAX_TITLE = 200;
const MAX_BODY = 1500;

/**
 * RFC 8030 §5.3: how soon the browser's device should wake for it. Urgent P2000 calls and
 * government alerts are high; the other P2000 ambulance and fire calls normal; planned transports
 * low; exercises and tests (OEF) very low; feed events normal, aircraft and RSS low.
 */
export function pushUrgency(n: PendingNotification): Urgency {
  if (n.kind === "p2000") {
    const code = n.urgency ?? "";
    if (["A0", "A1", "P1"].includes(code)) return "high";
    if (["B2", "P3"].includes(code)) return "low";
    if (code === "OEF") return "very-low";
    return "normal";
  }
  if (n.kind === "nl_alert" || n.kind === "amber_alert") return "high";
  if (n.kind === "aircraft" || n.kind === "rss") return "low";
  return "normal";
}

/**
 * How long the push service keeps it for a browser that is offline (RFC 8030 §5.2): a P2000 call
 * is stale after an hour, a feed's event (a warning, a disruption) after a day.
 */
export function pushTtlSeconds(n: PendingNotification): number {
  return n.kind === "p2000" || n.kind === "test" ? 3600 : 86_400;
}

export function pushMessage(settings: NotificationSettings, n: PendingNotification): PushMessage {
  return {
    title: clip(headlineOf(n), MAX_TITLE),
    body: clip(factLines(n).join("\n"), MAX_BODY),
    url: linkOf(settings, n),
    tag: n.dossier_uuid ?? n.notification_uuid,
    timestamp: (n.sended ?? new Date()).getTime(),
    kind: n.kind,
    urgency: pushUrgency(n),
    code: n.kind === "p2000" ? n.urgency : null,
  };
}

/**
 * Any answer but a timeout, a rate limit or the push service's own trouble (400 malformed, 401/403
 * a subscription made for another VAPID key, 413 too large) would be the same again.
 */
const refusedAgain = (status: number) => !(status === 408 || status === 429 || status >= 500);

export interface PushSubscriptionKeys {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * A push's request: `message` encrypted for the subscription (aes128gcm, a fresh key agreement each
 * time), the push service's kept VAPID token, TTL and Urgency; the headers in lower case, without
 * Content-Length (Node's request sets it from the body). Throws when the subscription's keys are
 * not a P-256 point and a 16-byte secret.
 */
export function pushRequest(
  subscription: PushSubscriptionKeys,
  message: string,
  vapid: VapidKeys,
  options: { ttlSeconds: number; urgency: Urgency },
): { headers: Record<string, string>; body: Buffer } {
  const { endpoint, p256dh, auth } = subscription;
  const request = webpush.generateRequestDetails({ endpoint, keys: { p256dh, auth } }, message, {
    // Not signed here per push (no vapidDetails, and none set globally): the push service's kept token.
    headers: { Authorization: vapidAuthorization(endpoint, vapid) },
    contentEncoding: "aes128gcm",
    TTL: options.ttlSeconds,
    urgency: options.urgency,
  });
  const headers: Record<string, string> = { "user-agent": "nl-incident-service-webpush/1" };
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() !== "content-length") headers[name.toLowerCase()] = String(value);
  }
  return { headers, body: request.body };
}

export const webpushSender: Sender = async (settings, n) => {
  const { publicKey, privateKey, subject } = settings.webPush;
  if (!publicKey || !privateKey) {
    throw new DeliveryError(
      "This server has no VAPID keys for Web Push: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY.",
      null,
      true,
    );
  }
  const { endpoint, p256dh, auth, expiresAt } = n.credentials;
  // The browser said when it ends the subscription (its expirationTime): after that the push
  // service would refuse it, and a push could reach whoever holds the endpoint next.
  if (expiresAt && Date.parse(expiresAt) <= Date.now()) {
    // Said in words, not as stored: the channel's credentials are redacted from every error text.
    const when = `${new Date(expiresAt).toISOString().slice(0, 19).replace("T", " ")} UTC`;
    throw new DeliveryError(
      `The push subscription expired at ${when} (its expirationTime); the channel is disabled.`,
      null,
      true,
      null,
      true,
    );
  }
  const subscription = { endpoint, p256dh, auth };
  let request;
  try {
    request = pushRequest(
      subscription,
      JSON.stringify(pushMessage(settings, n)),
      { subject, publicKey, privateKey },
      { ttlSeconds: pushTtlSeconds(n), urgency: pushUrgency(n) },
    );
  } catch (error) {
    // Keys that are not a P-256 point and a 16-byte secret stay so: no retry can encrypt for them.
    throw new DeliveryError(`The push subscription cannot be encrypted for: ${(error as Error).message}`, null, true);
  }
  try {
    return await postExpectingSuccess(
      subscription.endpoint,
      request.headers,
      request.body,
      !settings.allowPrivateTargets,
      refusedAgain,
    );
  } catch (error) {
    const status = (error as DeliveryError).responseCode;
    if (status !== 404 && status !== 410) throw error;
    throw new DeliveryError(
      `The push service says the subscription is gone (${(error as Error).message}); the channel is disabled.`,
      status,
      true,
      null,
      true,
    );
  }
};
