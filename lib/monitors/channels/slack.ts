// Slack: one message through the channel's incoming webhook (https://api.slack.com/messaging/webhooks)
// in Block Kit: a header with the title, a section with the message and the facts as mrkdwn
// fields, a context line with the link; `text` is the fallback notifications show. Slack answers
// 200 "ok"; 400 invalid_payload, 403 action_prohibited, 404 channel_not_found / no_service and
// 410 channel_is_archived fail for good, 429 and 5xx are retried.
import { credentialOf, type NotificationSettings, type PendingNotification, type Sender } from "../notification.ts";
import { clip, fieldsOf, linkOf, respondUrl, titleOf } from "../notification-text.ts";
import { urgencyOf } from "../notification-urgency.ts";
import { postExpectingSuccess, refusedForGood } from "./post.ts";

/** Text as Slack's mrkdwn reads it literally: &, < and > escaped (https://api.slack.com/reference/surfaces/formatting#escaping). */
function escaped(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The incoming webhook's body of a notification, within Block Kit's limits (header 150, section text 3000, 10 fields of 2000). */
export function slackBody(settings: NotificationSettings, n: PendingNotification): Record<string, unknown> {
  const title = titleOf(n);
  const { text, fields } = fieldsOf(n);
  const emoji = urgencyOf(n)
    .emoji.map((name) => `:${name}: `)
    .join("");
  const link = linkOf(settings, n);
  const section: Record<string, unknown> = { type: "section" };
  if (text) section.text = { type: "mrkdwn", text: clip(escaped(text), 3000) };
  if (fields.length > 0) {
    section.fields = fields
      .slice(0, 10)
      .map((f) => ({ type: "mrkdwn", text: clip(`*${escaped(f.label)}*\n${escaped(f.value)}`, 2000) }));
  }
  const blocks: Array<Record<string, unknown>> = [
    { type: "header", text: { type: "plain_text", text: clip(`${emoji}${title}`, 150), emoji: true } },
  ];
  if (section.text || section.fields) blocks.push(section);
  blocks.push({
    type: "context",
    elements: [{ type: "mrkdwn", text: `<${link}|${respondUrl(settings, n) ? "Are you going?" : "Open"}>` }],
  });
  return { text: clip(n.kind === "p2000" && text ? `${title}: ${text}` : title, 3000), blocks };
}

export const slackSender: Sender = async (settings, n) =>
  postExpectingSuccess(
    credentialOf(n, "webhookUrl", "webhook URL"),
    { "content-type": "application/json" },
    JSON.stringify(slackBody(settings, n)),
    !settings.allowPrivateTargets,
    refusedForGood,
    // 404 no_service or channel_not_found, 410 channel_is_archived: the webhook or its channel is gone.
    (status) => status === 404 || status === 410,
  );
