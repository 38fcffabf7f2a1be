// The deliverer's inputs for unit tests of the senders: delivery settings with every channel
// type's setting off (a test sets what it sends through), and a notification with every column
// of app_private.notifications_for_delivery empty (a test sets what its case needs).
import type { NotificationSettings, PendingNotification } from "../../lib/monitors/notification.ts";

export function testNotificationSettings(overrides: Partial<NotificationSettings> = {}): NotificationSettings {
  return {
    publicUrl: "http://respond.test",
    smtpUrl: undefined,
    mailFrom: "service@example.org",
    allowPrivateTargets: true,
    sms: { providerUrl: undefined, providerToken: undefined, from: "Test" },
    telegram: { botToken: undefined, apiUrl: "http://127.0.0.1:9" },
    pushover: { appToken: undefined, apiUrl: "http://127.0.0.1:9" },
    webPush: { publicKey: undefined, privateKey: undefined, subject: "mailto:service@example.org" },
    mailer: null,
    ...overrides,
  };
}

export function blankNotification(overrides: Partial<PendingNotification>): PendingNotification {
  return {
    notification_uuid: "00000000-0000-4000-8000-000000000001",
    channel_type: "webhook",
    channel_uuid: "00000000-0000-4000-8000-000000000002",
    channel_name: "test",
    email_address: null,
    phone_number: null,
    url: null,
    headers: [],
    chat_id: null,
    signing_secret: null,
    monitor_uuid: null,
    monitor_name: null,
    message_uuid: null,
    message: null,
    sended: null,
    urgency: null,
    discipline: null,
    region: null,
    city: null,
    street: null,
    postcode: null,
    latitude: null,
    longitude: null,
    dossier_uuid: null,
    respond_token: null,
    kind: "test",
    headline: null,
    facts: null,
    event_type: null,
    payload: null,
    server_url: null,
    topic: null,
    credentials: {},
    channel_disabled_at: null,
    plain_text: null,
    language: "nl",
    re_alert: false,
    ...overrides,
  };
}
