// Gotify: POST <server>/message with the channel's application token in X-Gotify-Key
// (https://gotify.net/docs/pushmsg), JSON title, message and priority, and the click link as the
// client::notification extra (https://gotify.net/docs/msgextras).
import { credentialOf, type Sender } from "../notification.ts";
import { bodyOf, linkOf, titleOf } from "../notification-text.ts";
import { gotifyPriority, urgencyOf } from "../notification-urgency.ts";
import { postExpectingSuccess, refusedForGood } from "./post.ts";

export const gotifySender: Sender = async (settings, n) => {
  const body = {
    title: titleOf(n),
    message: bodyOf(settings, n),
    priority: gotifyPriority(urgencyOf(n).level),
    extras: {
      "client::display": { contentType: "text/plain" },
      "client::notification": { click: { url: linkOf(settings, n) } },
    },
  };
  // The server may sit under a path (a reverse proxy's /gotify): the API is below it.
  const server = n.server_url!.replace(/\/+$/, "");
  return postExpectingSuccess(
    `${server}/message`,
    { "content-type": "application/json", "x-gotify-key": credentialOf(n, "appToken", "application token") },
    JSON.stringify(body),
    !settings.allowPrivateTargets,
    refusedForGood,
  );
};
