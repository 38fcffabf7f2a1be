// Pushover: the service's application (PUSHOVER_APP_TOKEN) sends to the channel's user or group
// key through the Message API (https://pushover.net/api): POST /1/messages.json, form-encoded.
// Pushover says not to repeat a request it answered with a 4xx (status 0: bad input, an unknown
// user key, the application over its monthly limit), so those fail for good; 5xx are retried.
import { credentialOf, DeliveryError, type Sender } from "../notification.ts";
import { bodyOf, clip, linkOf, respondUrl, timeOf, titleOf } from "../notification-text.ts";
import { pushoverPriority, urgencyOf } from "../notification-urgency.ts";
import { postExpectingSuccess } from "./post.ts";

export const pushoverSender: Sender = async (settings, n) => {
  const { pushover } = settings;
  if (!pushover.appToken) {
    throw new DeliveryError("No PUSHOVER_APP_TOKEN is configured: Pushover channels cannot deliver.", null, true);
  }
  // Pushover's limits: message 1024 characters, title 250, url 512, url_title 100.
  const form = new URLSearchParams({
    token: pushover.appToken,
    user: credentialOf(n, "userKey", "user key"),
    title: clip(titleOf(n), 250),
    message: clip(bodyOf(settings, n), 1024),
    priority: String(pushoverPriority(urgencyOf(n).level)),
    url: clip(linkOf(settings, n), 512),
    url_title: respondUrl(settings, n) ? "Are you going?" : "Open",
  });
  const time = timeOf(n);
  if (time) form.set("timestamp", String(Math.floor(time.getTime() / 1000)));
  return postExpectingSuccess(
    `${pushover.apiUrl}/1/messages.json`,
    { "content-type": "application/x-www-form-urlencoded" },
    form.toString(),
    false,
    (status) => status >= 400 && status < 500,
  );
};
