// The VAPID token of a push service is signed once for a period (issue 47: a burst to one push
// service makes one ES256 signature, not one a push): the same header for every push to one
// origin while it has more than an hour left, its own for another origin or key, a new one an hour
// before the old expires; each a valid RFC 8292 token for its push service.
import { describe, expect, test } from "@jest/globals";
import webpush from "web-push";
import { VAPID_TOKEN_SECONDS, vapidAuthorization } from "../../lib/monitors/channels/vapid-tokens.ts";
import { vapidClaims } from "../helpers/web-push-user-agent.ts";

const keys = { subject: "mailto:ops@example.org", ...webpush.generateVAPIDKeys() };

const claims = (authorization: string) => vapidClaims(authorization, keys.publicKey);

describe("VAPID tokens", () => {
  // Now (web-push refuses an expiry more than 24 hours from the real clock), on a whole second.
  const t0 = Math.floor(Date.now() / 1000) * 1000;

  test("one token per push service while it has more than an hour left, valid for its origin", () => {
    const first = vapidAuthorization("https://fcm.googleapis.com/fcm/send/abc", keys, t0);
    expect(vapidAuthorization("https://fcm.googleapis.com/fcm/send/def", keys, t0 + 10 * 3600_000)).toBe(first);
    expect(claims(first)).toEqual({
      aud: "https://fcm.googleapis.com",
      exp: t0 / 1000 + VAPID_TOKEN_SECONDS,
      sub: "mailto:ops@example.org",
    });
    expect(first.endsWith(`, k=${keys.publicKey}`)).toBe(true);

    const mozilla = vapidAuthorization("https://updates.push.services.mozilla.com/wpush/v2/x", keys, t0);
    expect(mozilla).not.toBe(first);
    expect(claims(mozilla).aud).toBe("https://updates.push.services.mozilla.com");
  });

  test("signed anew an hour before it expires, and for another key", () => {
    const endpoint = "https://web.push.apple.com/QGuQyavXutnMH";
    const first = vapidAuthorization(endpoint, keys, t0);
    const renewedAt = t0 + (VAPID_TOKEN_SECONDS - 3600) * 1000;
    const renewed = vapidAuthorization(endpoint, keys, renewedAt);
    expect(renewed).not.toBe(first);
    expect(claims(renewed).exp).toBe(renewedAt / 1000 + VAPID_TOKEN_SECONDS);

    const otherKeys = { subject: keys.subject, ...webpush.generateVAPIDKeys() };
    const other = vapidAuthorization(endpoint, otherKeys, renewedAt);
    expect(other).not.toBe(renewed);
    expect(other.endsWith(`, k=${otherKeys.publicKey}`)).toBe(true);
  });
});
