// A failed delivery's one log line (failureReason, issue 44): the channel type, where it sends (a
// URL's scheme and host only) and what happened in words, not Node's codes: a host name that does not
// exist, a refused connection, a timeout, TLS trouble, the receiver's HTTP status. One refused
// connection is a real one (a webhook to a closed port); the other texts are Node's own, as its
// DNS, socket and TLS errors write them.
import { expect, test } from "@jest/globals";
import { deliverNotification, failureInWords, failureReason } from "../../lib/monitors/notification-delivery.ts";
import { DeliveryError } from "../../lib/monitors/notification.ts";
import { blankNotification, testNotificationSettings } from "../helpers/notifications.ts";
import { freePort } from "../helpers/ports.ts";

const ntfy = blankNotification({ channel_type: "ntfy", server_url: "https://ntfy.sh", topic: "alerts" });
const reason = (message: string, responseCode: number | null = null) =>
  failureReason(ntfy, new DeliveryError(message, responseCode));

test("a host name that does not exist is said as such (DNS), not as getaddrinfo ENOTFOUND", () => {
  expect(reason("getaddrinfo ENOTFOUND ntfy.sh")).toBe(
    "ntfy https://ntfy.sh/… failed: the receiver's host name ntfy.sh does not exist (DNS)",
  );
  // The outbound guard's own words for a name without addresses.
  expect(reason("ntfy.sh has no address.")).toBe(
    "ntfy https://ntfy.sh/… failed: the receiver's host name ntfy.sh does not exist (DNS)",
  );
  expect(reason("getaddrinfo EAI_AGAIN ntfy.sh")).toBe(
    "ntfy https://ntfy.sh/… failed: the receiver's host name ntfy.sh could not be looked up: DNS did not answer (tried again later)",
  );
});

test("a refused connection, from a real webhook to a closed port", async () => {
  // A port that was free a moment ago: nothing listens there.
  const port = await freePort();
  const webhook = blankNotification({
    channel_type: "webhook",
    url: `http://127.0.0.1:${port}/secret-path`,
    signing_secret: `whsec_${Buffer.alloc(24, 7).toString("base64")}`,
  });
  const failure = await deliverNotification(testNotificationSettings(), webhook).then(
    () => null,
    (error: unknown) => error as DeliveryError,
  );
  expect(failure).toBeInstanceOf(DeliveryError);
  expect(failureReason(webhook, failure!)).toBe(
    `webhook http://127.0.0.1:${port}/… failed: the receiver at 127.0.0.1:${port} refused the connection (nothing listens there)`,
  );
});

test("a timeout, a connection cut and an unreachable address", () => {
  expect(reason("No answer within 10000 ms.")).toBe(
    "ntfy https://ntfy.sh/… failed: the receiver did not answer within 10 s (timeout)",
  );
  expect(reason("connect ETIMEDOUT 104.21.2.3:443")).toBe(
    "ntfy https://ntfy.sh/… failed: the receiver did not answer in time (timeout)",
  );
  expect(reason("socket hang up")).toBe(
    "ntfy https://ntfy.sh/… failed: the receiver closed the connection before it answered",
  );
  expect(reason("read ECONNRESET")).toBe(
    "ntfy https://ntfy.sh/… failed: the receiver closed the connection before it answered",
  );
  expect(reason("connect EHOSTUNREACH 10.1.2.3:443")).toBe(
    "ntfy https://ntfy.sh/… failed: the receiver at 10.1.2.3:443 cannot be reached (no route to it)",
  );
});

test("TLS errors: expired, self-signed, unverifiable, for another name, not TLS at all", () => {
  expect(failureInWords("certificate has expired")).toBe("the receiver's TLS certificate has expired");
  expect(failureInWords("self-signed certificate")).toBe(
    "the receiver's TLS certificate is self-signed, so it is not trusted",
  );
  expect(failureInWords("self-signed certificate in certificate chain")).toBe(
    "the receiver's TLS certificate is self-signed, so it is not trusted",
  );
  expect(failureInWords("unable to verify the first certificate")).toBe(
    "the receiver's TLS certificate cannot be verified (its issuer is unknown or the chain is incomplete)",
  );
  expect(
    failureInWords(
      "Hostname/IP does not match certificate's altnames: Host: ntfy.sh. is not in the cert's altnames: DNS:example.org",
    ),
  ).toBe("the receiver's TLS certificate is not made out to ntfy.sh");
  expect(
    failureInWords(
      "C0B7A2E0EC7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:354:",
    ),
  ).toBe("the TLS connection to the receiver failed (does it speak https on that port?)");
});

test("an HTTP status is the receiver's answer; an unknown text is said as it is, its first line only", () => {
  expect(reason("HTTP 503: down for maintenance", 503)).toBe("ntfy https://ntfy.sh/… answered 503");
  expect(reason("The ntfy channel has no topic: create it again.\nat somewhere")).toBe(
    "ntfy https://ntfy.sh/… failed: The ntfy channel has no topic: create it again.",
  );
  expect(failureInWords("No SMTP_URL is configured: e-mail channels cannot deliver.")).toBeNull();
  // A channel without a URL is named by its id.
  expect(
    failureReason(
      blankNotification({ channel_type: "email", email_address: "ada@example.org" }),
      new DeliveryError("getaddrinfo ENOTFOUND smtp.example.org"),
    ),
  ).toBe(
    "email channel 00000000-0000-4000-8000-000000000002 failed: the receiver's host name smtp.example.org does not exist (DNS)",
  );
});

test("an MQTT broker: its URL's scheme and host (not URL.origin's \"null\"), and a refusal in words, not its CONNACK code", () => {
  const mqtt = blankNotification({ channel_type: "mqtt", server_url: "mqtts://broker.example.org:8883/secret" });
  expect(
    failureReason(mqtt, new DeliveryError("The broker refused the connection: bad user name or password.", 4, true)),
  ).toBe(
    "mqtt mqtts://broker.example.org:8883/… failed: The broker refused the connection: bad user name or password.",
  );
});
