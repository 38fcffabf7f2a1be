// E-mail: one plain-text mail through SMTP_URL; the SMTP server's reply goes to the delivery log.
import { DeliveryError, type Sender } from "../notification.ts";
import { headlineOf, notificationText } from "../notification-text.ts";

/** An SMTP reply as nodemailer gives it ("250 2.0.0 Ok: queued as …"), on one line. */
function smtpReply(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value.replace(/\s+/g, " ").trim().slice(0, 1000) : null;
}

/** The reply code at the start of an SMTP reply. */
function smtpCode(reply: string | null): number | null {
  const match = reply && /^([2-5][0-9]{2})\b/.exec(reply);
  return match ? Number(match[1]) : null;
}

export const emailSender: Sender = async (settings, n) => {
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
};
