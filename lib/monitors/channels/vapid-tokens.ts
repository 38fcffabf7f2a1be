// VAPID (RFC 8292) Authorization headers, signed once per push service and key for a period rather
// than once per push: a burst of thousands of pushes to one push service (FCM, Mozilla's autopush,
// Apple's) would otherwise make an ES256 signature for each. A token is valid for 12 hours (RFC 8292
// §2 allows up to 24) and is used until an hour before it expires, so a push service never gets one
// about to lapse. The cache is bounded: subscriptions name their push service, and a user can name
// any host.
import webpush from "web-push";

/** How long a signed token is valid. */
export const VAPID_TOKEN_SECONDS = 12 * 3600;
/** A token is signed anew once it has less than this left. */
const RENEW_BEFORE_SECONDS = 3600;
/** Push services remembered at most (the oldest is forgotten first). */
const MAX_AUDIENCES = 1000;

export interface VapidKeys {
  subject: string;
  publicKey: string;
  privateKey: string;
}

const signed = new Map<string, { authorization: string; expires: number }>();

/**
 * The Authorization header (`vapid t=<JWT>, k=<public key>`) for pushes to `endpoint`'s push
 * service (the JWT's audience is its origin), as of `nowMs`.
 */
export function vapidAuthorization(endpoint: string, keys: VapidKeys, nowMs = Date.now()): string {
  const audience = new URL(endpoint).origin;
  const key = `${audience} ${keys.publicKey} ${keys.subject}`;
  const now = Math.floor(nowMs / 1000);
  const known = signed.get(key);
  if (known && known.expires - now > RENEW_BEFORE_SECONDS) return known.authorization;
  const expires = now + VAPID_TOKEN_SECONDS;
  const { Authorization } = webpush.getVapidHeaders(
    audience,
    keys.subject,
    keys.publicKey,
    keys.privateKey,
    "aes128gcm",
    expires,
  ) as { Authorization: string };
  signed.delete(key); // re-inserted last: the Map's order is the order of signing
  signed.set(key, { authorization: Authorization, expires });
  if (signed.size > MAX_AUDIENCES) signed.delete(signed.keys().next().value!);
  return Authorization;
}
