// SMS through the configured provider (SMS_PROVIDER_URL): the headline and the respond link in
// one message.
import { DeliveryError, type Sender } from "../notification.ts";
import { headlineOf, respondUrl } from "../notification-text.ts";
import { postExpectingSuccess } from "./post.ts";

export const smsSender: Sender = async (settings, n) => {
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
};
