// Sending one notification through its channel: the sender of its type (lib/monitors/channels/),
// one timed attempt for the delivery log, and error texts cut free of the service's own secrets
// and the channel's credentials. Failures are DeliveryErrors with the response code (and an SMTP
// server's reply); one marked permanent is not worth retrying (the service lacks a setting for
// the channel type, or the channel is disabled). The same code sends the test notifications of
// sendTestNotification (kind test, no monitor).
import nodemailer from "nodemailer";
import type { DeliveryConfig } from "../config.ts";
import { discordSender } from "./channels/discord.ts";
import { emailSender } from "./channels/email.ts";
import { gotifySender } from "./channels/gotify.ts";
import { ntfySender } from "./channels/ntfy.ts";
import { pushoverSender } from "./channels/pushover.ts";
import { slackSender } from "./channels/slack.ts";
import { mqttSender } from "./channels/mqtt.ts";
import { smsSender } from "./channels/sms.ts";
import { telegramSender } from "./channels/telegram.ts";
import { webhookSender } from "./channels/webhook.ts";
import { webpushSender } from "./channels/webpush.ts";
import {
  DeliveryError,
  type ChannelType,
  type DeliveryResult,
  type NotificationSettings,
  type PendingNotification,
  type Sender,
} from "./notification.ts";

/** The settings to send with: config.delivery and one SMTP transport for its SMTP_URL. */
export function notificationSettings(delivery: DeliveryConfig): NotificationSettings {
  return { ...delivery, mailer: delivery.smtpUrl ? nodemailer.createTransport(delivery.smtpUrl) : null };
}

const senders: Record<ChannelType, Sender> = {
  email: emailSender,
  webhook: webhookSender,
  sms: smsSender,
  telegram: telegramSender,
  ntfy: ntfySender,
  pushover: pushoverSender,
  gotify: gotifySender,
  discord: discordSender,
  slack: slackSender,
  mqtt: mqttSender,
  webpush: webpushSender,
};

/** The service's own secrets, which no error text that reaches the delivery log may carry. */
function redact(settings: NotificationSettings, n: PendingNotification, text: string): string {
  const secrets = [
    settings.telegram.botToken,
    settings.pushover.appToken,
    settings.sms.providerToken,
    n.signing_secret,
    settings.smtpUrl,
    settings.webPush.privateKey,
    ...Object.values(n.credentials),
  ];
  let result = text;
  for (const secret of secrets) if (secret && secret.length >= 4) result = result.split(secret).join("[redacted]");
  return result;
}

/**
 * What a network or TLS error text means, in words (English, for the service's log): the codes
 * Node's sockets, DNS and TLS give ("getaddrinfo ENOTFOUND ntfy.sh", "connect ECONNREFUSED
 * 1.2.3.4:443", "certificate has expired") and the outbound guard's own ("No answer within
 * 10000 ms."). Null for a text it does not know (which is then said as it is). The console says
 * the same in the reader's language (web/src/console/channels/failure-text.ts).
 */
export function failureInWords(message: string): string | null {
  const line = message.split("\n")[0];
  let found: RegExpExecArray | null;
  if ((found = /getaddrinfo (?:ENOTFOUND|EAI_NONAME|EAI_NODATA|EAI_FAIL) (\S+)/.exec(line)))
    return `the receiver's host name ${found[1]} does not exist (DNS)`;
  if ((found = /^(\S+) has no (?:IPv\d )?address\.?$/.exec(line)))
    return `the receiver's host name ${found[1]} does not exist (DNS)`;
  if ((found = /getaddrinfo EAI_AGAIN (\S+)/.exec(line)))
    return `the receiver's host name ${found[1]} could not be looked up: DNS did not answer (tried again later)`;
  if ((found = /ECONNREFUSED (\S+)/.exec(line)))
    return `the receiver at ${found[1]} refused the connection (nothing listens there)`;
  if (/ECONNREFUSED/.test(line)) return "the receiver refused the connection (nothing listens there)";
  if ((found = /No answer within (\d+) ms/.exec(line)))
    return `the receiver did not answer within ${Number(found[1]) / 1000} s (timeout)`;
  if (/ETIMEDOUT|ESOCKETTIMEDOUT|\btimed out\b/i.test(line)) return "the receiver did not answer in time (timeout)";
  if ((found = /(?:EHOSTUNREACH|ENETUNREACH)(?: (\S+))?/.exec(line)))
    return `the receiver${found[1] ? ` at ${found[1]}` : ""} cannot be reached (no route to it)`;
  if (/ECONNRESET|socket hang up|EPIPE/.test(line)) return "the receiver closed the connection before it answered";
  if (/certificate has expired|CERT_HAS_EXPIRED/i.test(line)) return "the receiver's TLS certificate has expired";
  if ((found = /Hostname\/IP does not match certificate's altnames: (?:Host|IP): (\S+?)\.? is not/.exec(line)))
    return `the receiver's TLS certificate is not made out to ${found[1]}`;
  if (/self[- ]signed certificate/i.test(line))
    return "the receiver's TLS certificate is self-signed, so it is not trusted";
  if (/unable to verify the first certificate|unable to get (?:local )?issuer certificate|UNABLE_TO_VERIFY/i.test(line))
    return "the receiver's TLS certificate cannot be verified (its issuer is unknown or the chain is incomplete)";
  if (/wrong version number|EPROTO|packet length too long|ERR_SSL/i.test(line))
    return "the TLS connection to the receiver failed (does it speak https on that port?)";
  return null;
}

/**
 * A failure in the words of one log line: the channel type, where it sends (a URL's scheme and
 * host only, since the rest of a URL may hold a token; else the channel's id) and what happened:
 * the status the receiver answered ("answered 503", an HTTP status or an SMTP reply code), or the
 * error in words ("failed: the receiver's host name ntfy.sh does not exist (DNS)"), else the
 * error's first line as it is. An MQTT broker's refusal carries its CONNACK return code, which is
 * no answer a reader knows by number: its words are said instead. The delivery log keeps the whole
 * answer.
 */
export function failureReason(n: PendingNotification, failure: DeliveryError): string {
  let target = `channel ${n.channel_uuid}`;
  const url = n.url ?? n.server_url;
  // (Not URL.origin: it is "null" for schemes the URL standard does not know, such as mqtt:.)
  if (url && URL.canParse(url)) {
    const { protocol, host } = new URL(url);
    target = `${protocol}//${host}/…`;
  }
  const what =
    failure.responseCode !== null && n.channel_type !== "mqtt"
      ? `answered ${failure.responseCode}`
      : `failed: ${failureInWords(failure.message) ?? failure.message.split("\n")[0].slice(0, 200)}`;
  return `${n.channel_type} ${target} ${what}`;
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
    return await senders[n.channel_type](settings, n);
  } catch (error) {
    const message = redact(settings, n, (error as Error).message ?? String(error));
    if (!(error instanceof DeliveryError)) throw new DeliveryError(message);
    if (message === error.message) throw error;
    throw new DeliveryError(message, error.responseCode, error.permanent, error.reply, error.disablesChannel);
  }
}
