// Telegram: the plain text through the service's bot (TELEGRAM_BOT_TOKEN), Bot API sendMessage.
import { DeliveryError, type Sender } from "../notification.ts";
import { notificationText } from "../notification-text.ts";
import { postExpectingSuccess } from "./post.ts";

export const telegramSender: Sender = async (settings, n) => {
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
};
