// Webhooks: the JSON body signed as Standard Webhooks specify (webhook-id, webhook-timestamp,
// webhook-signature), with the channel's own headers.
import { DeliveryError, type Sender } from "../notification.ts";
import { webhookBody } from "../notification-text.ts";
import { signWebhook } from "../webhook-signatures.ts";
import { postExpectingSuccess } from "./post.ts";

export const webhookSender: Sender = async (settings, n) => {
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
};
