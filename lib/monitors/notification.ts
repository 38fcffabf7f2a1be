// What one notification is on its way out: the row the deliverer reads, the settings it sends
// with, what a sender answers, and the error a failed send is. Each channel type's sender
// (lib/monitors/channels/) works with these; lib/monitors/notification-delivery.ts picks the sender.
import type { Transporter } from "nodemailer";
import type { DeliveryConfig } from "../config.ts";

/** config.delivery, and the nodemailer transport of its SMTP_URL (null without one). */
export interface NotificationSettings extends DeliveryConfig {
  mailer: Transporter | null;
}

/**
 * A row of app_private.notifications_for_delivery. A P2000 notification carries the message's
 * columns (and a respond link); every feed's event (weather warnings, traffic incidents, …)
 * comes as the headline, fact lines and webhook payload its matcher rendered into the
 * notification (app_private.notify_feed_event), so a new kind needs no code here.
 */
export interface PendingNotification {
  notification_uuid: string;
  channel_type: ChannelType;
  channel_uuid: string;
  channel_name: string;
  email_address: string | null;
  phone_number: string | null;
  url: string | null;
  headers: Array<{ name: string; value: string }>;
  chat_id: string | null;
  signing_secret: string | null;
  /** null for a test send (sendTestNotification). */
  monitor_uuid: string | null;
  monitor_name: string | null;
  message_uuid: string | null;
  message: string | null;
  sended: Date | null;
  urgency: string | null;
  discipline: string | null;
  region: string | null;
  city: string | null;
  street: string | null;
  postcode: string | null;
  latitude: number | null;
  longitude: number | null;
  dossier_uuid: string | null;
  respond_token: string | null;
  /** p2000, a feed's event kind (meteo, traffic, …) or test. */
  kind: string;
  headline: string | null;
  facts: string[] | null;
  event_type: string | null;
  payload: Record<string, unknown> | null;
  /** ntfy and Gotify: the server; mqtt: the broker. */
  server_url: string | null;
  /** ntfy: the topic; mqtt: the topic prefix. */
  topic: string | null;
  /** The channel's secrets (app_private.channel_credentials): tokens, keys, a webhook URL, a push subscription. */
  credentials: Record<string, string>;
  /** Set once a receiver said the channel is gone for good (a Web Push subscription: 404/410). */
  channel_disabled_at: Date | null;
  /** A P2000 message in plain words (P2000Message.plainText) in the monitor's language; null for a feed's event. */
  plain_text: string | null;
  /** The monitor's notificationRules.language: nl (the default) or en. */
  language: string;
  /** A reAlert rule's second page of a P2000 message (its headline says how many are coming). */
  re_alert: boolean;
}

/**
 * The channel types of app_public.channel_types, in its order (the console's); test/api/installation.test.ts
 * holds the two to the same list.
 */
export const CHANNEL_TYPES = [
  "email",
  "sms",
  "webhook",
  "telegram",
  "ntfy",
  "pushover",
  "gotify",
  "discord",
  "slack",
  "webpush",
  "mqtt",
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export class DeliveryError extends Error {
  readonly responseCode: number | null;
  readonly permanent: boolean;
  /** The SMTP server's answer, when it refused the mail. */
  readonly reply: string | null;
  /**
   * The receiver said the channel is gone for good (a Web Push subscription: 404 or 410): the
   * deliverer disables the channel (app_private.disable_channel) with this error's message. Always permanent.
   */
  readonly disablesChannel: boolean;
  constructor(
    message: string,
    responseCode: number | null = null,
    permanent = false,
    reply: string | null = null,
    disablesChannel = false,
  ) {
    super(message);
    this.responseCode = responseCode;
    this.permanent = permanent || disablesChannel;
    this.reply = reply;
    this.disablesChannel = disablesChannel;
  }
}

/** A secret of the channel (app_private.channel_credentials); a channel without it cannot deliver, ever. */
export function credentialOf(n: PendingNotification, key: string, what: string): string {
  const value = n.credentials[key];
  if (!value) throw new DeliveryError(`The ${n.channel_type} channel has no ${what}: create it again.`, null, true);
  return value;
}

/** What the receiving end answered: the HTTP status or SMTP reply code, and the SMTP reply. */
export interface DeliveryResult {
  responseCode: number | null;
  reply: string | null;
}

/** Sends one notification through one channel type; throws DeliveryErrors. */
export type Sender = (settings: NotificationSettings, n: PendingNotification) => Promise<DeliveryResult>;
