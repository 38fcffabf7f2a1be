// ntfy: one message published as JSON to the server's root (https://docs.ntfy.sh/publish/#publish-as-json),
// with the channel's topic, the title and body, the priority and emoji tags of its urgency
// (notification-urgency.ts), a click link, and the channel's access token when it has one.
import type { Sender } from "../notification.ts";
import { bodyOf, linkOf, titleOf } from "../notification-text.ts";
import { urgencyOf } from "../notification-urgency.ts";
import { postExpectingSuccess, refusedForGood } from "./post.ts";

export const ntfySender: Sender = async (settings, n) => {
  const urgency = urgencyOf(n);
  const headers: Record<string, string> = { "content-type": "application/json" };
  // A protected topic takes an access token (tk_…) as a Bearer token.
  if (n.credentials.accessToken) headers.authorization = `Bearer ${n.credentials.accessToken}`;
  const body = {
    topic: n.topic,
    title: titleOf(n),
    message: bodyOf(settings, n),
    priority: urgency.level,
    // Emoji shortcodes show before the title; the kind (p2000, meteo, …) shows as a tag.
    tags: [...urgency.emoji, n.kind],
    click: linkOf(settings, n),
  };
  const server = (n.server_url ?? "https://ntfy.sh").replace(/\/+$/, "");
  return postExpectingSuccess(
    `${server}/`,
    headers,
    JSON.stringify(body),
    !settings.allowPrivateTargets,
    refusedForGood,
  );
};
