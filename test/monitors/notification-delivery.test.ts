// What a failed delivery leaves in the delivery log: the service's own secrets (the Telegram bot
// token in the Bot API's path, the SMS provider token, a channel's signing secret) are cut out of
// the error text, even when the receiving end echoes them back; the status and permanence stay.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { deliverNotification } from "../../lib/monitors/notification-delivery.ts";
import { DeliveryError, type NotificationSettings, type PendingNotification } from "../../lib/monitors/notification.ts";
import { blankNotification, testNotificationSettings } from "../helpers/notifications.ts";

const BOT_TOKEN = "123456:bot-token-that-must-stay-secret";
const SMS_TOKEN = "sms-provider-token-that-must-stay-secret";
let server: http.Server;
let url: string;
beforeAll(async () => {
  // Answers 500 with the path, the Authorization header and the body it got: an echo of the secrets.
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () =>
      res.writeHead(500).end(`${req.url} ${req.headers.authorization ?? ""} ${Buffer.concat(chunks).toString()}`),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const PUSHOVER_TOKEN = "azGDORePK8gMaC0QOYAMyEEuzJnyUi";

function settings(pushoverToken?: string): NotificationSettings {
  return testNotificationSettings({
    sms: { providerUrl: `${url}/sms`, providerToken: SMS_TOKEN, from: "Test" },
    telegram: { botToken: BOT_TOKEN, apiUrl: url },
    pushover: { appToken: pushoverToken, apiUrl: url },
  });
}

/** A test send to a Telegram chat (or the channel given), as sendTestNotification renders it. */
function notification(channel: Partial<PendingNotification>): PendingNotification {
  return blankNotification({
    channel_type: "telegram",
    phone_number: "+31612345678",
    chat_id: "-100123",
    headline: "Test notification from the NL incident service",
    facts: ["This is a test."],
    event_type: "notification.test",
    payload: { test: true },
    ...channel,
  });
}

async function failure(n: PendingNotification, pushoverToken?: string): Promise<DeliveryError> {
  const error = await deliverNotification(settings(pushoverToken), n).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return error as DeliveryError;
}

test("a Telegram failure's error keeps the status, not the bot token", async () => {
  const error = await failure(notification({ channel_type: "telegram" }));
  expect(error.responseCode).toBe(500);
  expect(error.message).toMatch(/^HTTP 500: \/bot\[redacted\]\/sendMessage/);
  expect(error.message).not.toContain(BOT_TOKEN);
});

test("an SMS failure's error does not carry the provider token", async () => {
  const error = await failure(notification({ channel_type: "sms" }));
  expect(error.responseCode).toBe(500);
  expect(error.message).toContain("Bearer [redacted]");
  expect(error.message).not.toContain(SMS_TOKEN);
});

test("a channel type without its setting fails for good, with its sentence", async () => {
  const error = await failure(notification({ channel_type: "email", email_address: "a@example.org" }));
  expect(error.permanent).toBe(true);
  expect(error.message).toBe("No SMTP_URL is configured: e-mail channels cannot deliver.");
});

test("a Pushover failure's error does not carry the service's application token", async () => {
  const n = notification({ channel_type: "pushover", credentials: { userKey: "uQiRzpo4DXghDmr9QzzfQu27cmVRsG" } });
  const error = await failure(n, PUSHOVER_TOKEN);
  expect(error).toMatchObject({ responseCode: 500, permanent: false });
  expect(error.message).toMatch(/^HTTP 500: \/1\/messages\.json {2}token=\[redacted\]&user=\[redacted\]&/);
  expect(error.message).not.toContain(PUSHOVER_TOKEN);
});

test("a Pushover channel without PUSHOVER_APP_TOKEN fails for good, with its sentence", async () => {
  const error = await failure(notification({ channel_type: "pushover", credentials: { userKey: "u".repeat(30) } }));
  expect(error).toMatchObject({ responseCode: null, permanent: true });
  expect(error.message).toBe("No PUSHOVER_APP_TOKEN is configured: Pushover channels cannot deliver.");
});
