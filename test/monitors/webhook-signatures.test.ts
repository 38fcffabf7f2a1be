// The signer against the Standard Webhooks specification: its published example signs to the
// published signature, the reference library verifies what we sign with a new secret (and its
// id, timestamp and body are all covered), and a secret not in the whsec_<base64> form is refused.
import { describe, expect, test } from "@jest/globals";
import { Webhook } from "standardwebhooks";
import { newSigningSecret, signWebhook } from "../../lib/monitors/webhook-signatures.ts";

describe("signWebhook", () => {
  test("signs the specification's example as the specification does", () => {
    expect(
      signWebhook(
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  test("what it signs with a new secret, the reference library verifies; a change to id, timestamp or body fails", () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = "0193b1c2-6f1e-7c3a-9d4e-2b8f0a1c5d7e";
    const timestamp = Math.floor(Date.now() / 1000);
    const body = '{"event":"p2000.message.matched"}';
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook(secret, id, timestamp, body),
    };
    const receiver = new Webhook(secret);
    expect(receiver.verify(body, headers)).toEqual({ event: "p2000.message.matched" });
    expect(() => receiver.verify(body, { ...headers, "webhook-id": `${id}x` })).toThrow("No matching signature found");
    expect(() => receiver.verify(body, { ...headers, "webhook-timestamp": String(timestamp - 1) })).toThrow(
      "No matching signature found",
    );
    expect(() => receiver.verify(`${body} `, headers)).toThrow("No matching signature found");
  });

  test.each([
    ["a raw secret", "a-long-enough-secret-without-the-prefix"],
    ["base64url", "whsec_rf2h-Qm0_kX3vYbDq8LzN1cTg5sWj7uPaE4oHiKdMnB"],
    ["unpadded base64", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS"],
    ["no key", "whsec_"],
  ])("refuses %s", (_, secret) => {
    expect(() => signWebhook(secret, "id", 1614265330, "{}")).toThrow(/not whsec_ followed by base64/);
  });
});
