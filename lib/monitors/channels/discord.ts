// Discord: one embed through the channel's webhook (Execute Webhook,
// https://discord.com/developers/docs/resources/webhook#execute-webhook): title linked to where
// the notification leads, the message, the facts as fields, the time, a colour per urgency.
// Texts are cut to Discord's embed limits (title 256, description 4096, field name 256, value
// 1024, 25 fields); nobody is pinged (allowed_mentions). 400/401/403/404 (a bad body, a deleted
// webhook) fail for good; 429 (rate limited, with retry_after) and 5xx are retried.
import { credentialOf, type NotificationSettings, type PendingNotification, type Sender } from "../notification.ts";
import { clip, fieldsOf, linkOf, respondUrl, timeOf, titleOf } from "../notification-text.ts";
import { urgencyColor, urgencyOf } from "../notification-urgency.ts";
import { postExpectingSuccess, refusedForGood } from "./post.ts";

/** The Execute Webhook body of a notification. */
export function discordBody(settings: NotificationSettings, n: PendingNotification): Record<string, unknown> {
  const { text, fields } = fieldsOf(n);
  const respond = respondUrl(settings, n);
  const description = respond ? `${text}\n\n[Are you going?](${respond})` : text;
  const time = timeOf(n);
  const embed = {
    title: clip(titleOf(n), 256),
    ...(description ? { description: clip(description, 4096) } : {}),
    url: linkOf(settings, n),
    ...(time ? { timestamp: time.toISOString() } : {}),
    color: urgencyColor(urgencyOf(n).level),
    fields: fields.slice(0, 25).map((f) => ({
      name: clip(f.label, 256),
      value: clip(f.value, 1024),
      inline: f.value.length <= 40,
    })),
    footer: { text: "NL incident service" },
  };
  return { embeds: [embed], allowed_mentions: { parse: [] } };
}

export const discordSender: Sender = async (settings, n) =>
  postExpectingSuccess(
    credentialOf(n, "webhookUrl", "webhook URL"),
    { "content-type": "application/json" },
    JSON.stringify(discordBody(settings, n)),
    !settings.allowPrivateTargets,
    refusedForGood,
    // 404 Unknown Webhook: the webhook was deleted.
    (status) => status === 404,
  );
