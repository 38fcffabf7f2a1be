// Sending one notification through its channel: the text people read, the JSON webhooks get, and
// one sender per channel type. Failures are DeliveryErrors with the response code (and an SMTP
// server's reply); one marked permanent is not worth retrying (the service lacks a setting for the
// channel type). The same code sends the test notifications of sendTestNotification (kind test,
// no monitor). Error texts go to the delivery log, so the service's own secrets are cut out of them.
import nodemailer, { type Transporter } from "nodemailer";
import type { DeliveryConfig } from "../config.ts";
import { postRequest } from "../http/post.ts";
import { signWebhook } from "./webhook-signatures.ts";

/** config.delivery, and the nodemailer transport of its SMTP_URL (null without one). */
export interface NotificationSettings extends DeliveryConfig {
  mailer: Transporter | null;
}

/** The settings to send with: config.delivery and one SMTP transport for its SMTP_URL. */
export function notificationSettings(delivery: DeliveryConfig): NotificationSettings {
  return { ...delivery, mailer: delivery.smtpUrl ? nodemailer.createTransport(delivery.smtpUrl) : null };
}

/**
 * A row of app_private.notification_for_delivery. A P2000 notification carries the message's
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
}

/** The channel types of app_public.channel_types. */
export type ChannelType =
  | "email"
  | "sms"
  | "webhook"
  | "telegram"
  | "ntfy"
  | "pushover"
  | "gotify"
  | "discord"
  | "slack"
  | "webpush"
  | "mqtt";

export class DeliveryError extends Error {
  readonly responseCode: number | null;
  readonly permanent: boolean;
  /** The SMTP server's answer, when it refused the mail. */
  readonly reply: string | null;
  constructor(message: string, responseCode: number | null = null, permanent = false, reply: string | null = null) {
    super(message);
    this.responseCode = responseCode;
    this.permanent = permanent;
    this.reply = reply;
  }
}

/** What the receiving end answered: the HTTP status or SMTP reply code, and the SMTP reply. */
export interface DeliveryResult {
  responseCode: number | null;
  reply: string | null;
}

const TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;
const dutchTime = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  dateStyle: "short",
  timeStyle: "short",
});

function respondUrl(settings: NotificationSettings, n: PendingNotification): string | null {
  return n.respond_token && `${settings.publicUrl}/respond?token=${encodeURIComponent(n.respond_token)}`;
}

/** What an e-mail's subject and an SMS say first: a P2000 message as sent, else the headline. */
function headlineOf(n: PendingNotification): string {
  return (n.kind === "p2000" ? n.message : n.headline) ?? "";
}

/** The plain text of e-mails and chat messages: the message as sent (it names its own urgency), then the facts. */
export function notificationText(settings: NotificationSettings, n: PendingNotification): string {
  if (n.kind !== "p2000") {
    const monitor = n.monitor_name === null ? [] : [`Monitor: ${n.monitor_name}`];
    return [n.headline, "", ...(n.facts ?? []), ...monitor].join("\n");
  }
  const where = [n.street, n.postcode, n.city].filter(Boolean).join(", ");
  return [
    n.message,
    "",
    `Time: ${dutchTime.format(n.sended!)}`,
    n.urgency && `Urgency: ${n.urgency}`,
    where && `Place: ${where}`,
    [n.discipline, n.region].some(Boolean) && `Service: ${[n.discipline, n.region].filter(Boolean).join(", ")}`,
    `Monitor: ${n.monitor_name}`,
    "",
    `Are you going? ${respondUrl(settings, n)}`,
  ]
    .filter((line) => line !== false && line !== null && line !== undefined)
    .join("\n");
}

/** The JSON body of a webhook delivery (documented in docs/monitors.md). */
export function webhookBody(settings: NotificationSettings, n: PendingNotification): string {
  if (n.kind !== "p2000") {
    return JSON.stringify({
      id: n.notification_uuid,
      event: n.event_type,
      // A test send (event notification.test) has no monitor.
      ...(n.monitor_uuid === null ? {} : { monitor: { uuid: n.monitor_uuid, name: n.monitor_name } }),
      ...n.payload,
    });
  }
  return JSON.stringify({
    id: n.notification_uuid,
    event: "p2000.message.matched",
    monitor: { uuid: n.monitor_uuid, name: n.monitor_name },
    message: {
      uuid: n.message_uuid,
      message: n.message,
      sended: n.sended!.toISOString(),
      urgency: n.urgency,
      discipline: n.discipline,
      region: n.region,
      city: n.city,
      street: n.street,
      postcode: n.postcode,
      latitude: n.latitude,
      longitude: n.longitude,
      dossierUuid: n.dossier_uuid,
    },
    respond: { url: respondUrl(settings, n), token: n.respond_token },
  });
}

async function postExpectingSuccess(url: string, headers: Record<string, string>, body: string, publicOnly: boolean) {
  let result;
  try {
    result = await postRequest(url, {
      headers,
      body,
      timeoutMs: TIMEOUT_MS,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      publicOnly,
    });
  } catch (error) {
    throw new DeliveryError((error as Error).message);
  }
  if (result.status < 200 || result.status >= 300) {
    throw new DeliveryError(`HTTP ${result.status}: ${result.body.slice(0, 200)}`, result.status);
  }
  return { responseCode: result.status, reply: null };
}

type Sender = (settings: NotificationSettings, n: PendingNotification) => Promise<DeliveryResult>;

/** An SMTP reply as nodemailer gives it ("250 2.0.0 Ok: queued as …"), on one line. */
function smtpReply(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value.replace(/\s+/g, " ").trim().slice(0, 1000) : null;
}

/** The reply code at the start of an SMTP reply. */
function smtpCode(reply: string | null): number | null {
  const match = reply && /^([2-5][0-9]{2})\b/.exec(reply);
  return match ? Number(match[1]) : null;
}

const senders: Partial<Record<ChannelType, Sender>> = {
  async email(settings, n) {
    if (!settings.mailer)
      throw new DeliveryError("No SMTP_URL is configured: e-mail channels cannot deliver.", null, true);
    let info: { response?: unknown };
    try {
      info = await settings.mailer.sendMail({
        from: settings.mailFrom,
        to: n.email_address!,
        subject: headlineOf(n).slice(0, 150),
        text: notificationText(settings, n),
      });
    } catch (error) {
      const { responseCode, response } = error as { responseCode?: number; response?: unknown };
      throw new DeliveryError((error as Error).message, responseCode ?? null, false, smtpReply(response));
    }
    const reply = smtpReply(info.response);
    return { responseCode: smtpCode(reply), reply };
  },

  async webhook(settings, n) {
    const body = webhookBody(settings, n);
    const timestamp = Math.floor(Date.now() / 1000);
    let signature: string;
    try {
      signature = signWebhook(n.signing_secret!, n.notification_uuid, timestamp, body);
    } catch (error) {
      // A secret that is not in the whsec_ form stays so: no retry can sign it.
      throw new DeliveryError((error as Error).message, null, true);
    }
    const headers: Record<string, string> = {};
    for (const header of n.headers) headers[header.name.toLowerCase()] = header.value;
    Object.assign(headers, {
      "content-type": "application/json",
      "user-agent": "nl-incident-service-webhooks/1",
      "webhook-id": n.notification_uuid,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signature,
    });
    return postExpectingSuccess(n.url!, headers, body, !settings.allowPrivateTargets);
  },

  async sms(settings, n) {
    const { sms } = settings;
    if (!sms.providerUrl) {
      throw new DeliveryError("No SMS_PROVIDER_URL is configured: SMS channels cannot deliver.", null, true);
    }
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (sms.providerToken) headers.authorization = `Bearer ${sms.providerToken}`;
    const link = respondUrl(settings, n);
    const text = link ? `${headlineOf(n).slice(0, 100)}\n${link}` : headlineOf(n).slice(0, 160);
    return postExpectingSuccess(
      sms.providerUrl,
      headers,
      JSON.stringify({ from: sms.from, to: n.phone_number, text, reference: n.notification_uuid }),
      false,
    );
  },

  async telegram(settings, n) {
    const { telegram } = settings;
    if (!telegram.botToken) {
      throw new DeliveryError("No TELEGRAM_BOT_TOKEN is configured: Telegram channels cannot deliver.", null, true);
    }
    return postExpectingSuccess(
      `${telegram.apiUrl}/bot${telegram.botToken}/sendMessage`,
      { "content-type": "application/json" },
      JSON.stringify({ chat_id: n.chat_id, text: notificationText(settings, n), disable_web_page_preview: true }),
      false,
    );
  },
};

/** The service's own secrets, which no error text that reaches the delivery log may carry. */
function redact(settings: NotificationSettings, n: PendingNotification, text: string): string {
  const secrets = [
    settings.telegram.botToken,
    settings.sms.providerToken,
    n.signing_secret,
    settings.smtpUrl,
    ...Object.values(n.credentials),
  ];
  let result = text;
  for (const secret of secrets) if (secret && secret.length >= 4) result = result.split(secret).join("[redacted]");
  return result;
}

/** One timed attempt: what the receiving end answered, and the failure (null when it was delivered). */
export interface DeliveryAttempt extends DeliveryResult {
  failure: DeliveryError | null;
  latencyMs: number;
}

/**
 * Sends the notification once and says how it went, failures included, for the delivery log: the
 * worker's task (which retries) and sendTestNotification (which does not) record it alike.
 */
export async function attemptDelivery(
  settings: NotificationSettings,
  n: PendingNotification,
): Promise<DeliveryAttempt> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    return { ...(await deliverNotification(settings, n)), failure: null, latencyMs: latency() };
  } catch (error) {
    // deliverNotification throws DeliveryErrors only.
    const failure = error as DeliveryError;
    return { responseCode: failure.responseCode, reply: failure.reply, failure, latencyMs: latency() };
  }
}

/** Sends the notification; returns what the receiving end answered (HTTP status, SMTP reply). */
export async function deliverNotification(
  settings: NotificationSettings,
  n: PendingNotification,
): Promise<DeliveryResult> {
  try {
    if (n.channel_disabled_at) {
      throw new DeliveryError(
        `The channel was disabled on ${n.channel_disabled_at.toISOString()}: its receiver said it is gone. Create it again.`,
        null,
        true,
      );
    }
    const send = senders[n.channel_type];
    if (!send) throw new DeliveryError(`This server cannot send to ${n.channel_type} channels.`, null, true);
    return await send(settings, n);
  } catch (error) {
    const message = redact(settings, n, (error as Error).message ?? String(error));
    if (!(error instanceof DeliveryError)) throw new DeliveryError(message);
    if (message === error.message) throw error;
    throw new DeliveryError(message, error.responseCode, error.permanent, error.reply);
  }
}
