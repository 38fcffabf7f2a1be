// Sends one queued e-mail (app_private.emails) through SMTP_URL with nodemailer. Without SMTP_URL
// the mail stays in the table with status "outbox" and its link is written to the log, on one line
// that stands out among the others (the README sends a new user there for the verification link),
// so a local user can follow it. Sent mail loses its body: the links in it are credentials.
import type { Transporter } from "nodemailer";
import type { Task } from "graphile-worker";
import type { DeliveryConfig } from "../lib/config.ts";

/** config.delivery's sender, and the nodemailer transport for its SMTP_URL (null without one). */
export interface MailSettings extends Pick<DeliveryConfig, "mailFrom"> {
  mailer: Transporter | null;
}

/** How the log line of a mail kept in the outbox starts: easy to spot, and to grep for. */
export const OUTBOX_PREFIX = ">>> E-MAIL";

export function makeEmailsSend(settings: MailSettings): Task {
  const transport = settings.mailer;
  return async (payload, helpers) => {
    const { uuid } = payload as { uuid: string };
    const {
      rows: [email],
    } = await helpers.query<{ to_address: string; subject: string; text_body: string }>(
      "select to_address, subject, text_body from app_private.emails where uuid = $1 and status = 'queued'",
      [uuid],
    );
    if (!email) return; // Already sent (a retried job) or purged.
    if (!transport) {
      // Every account mail carries one link; a mail without one is shown whole, on the same line.
      const link = /https?:\/\/\S+/.exec(email.text_body)?.[0];
      const content = link ?? email.text_body.replace(/\s+/g, " ").trim();
      helpers.logger.info(
        `${OUTBOX_PREFIX} (no SMTP_URL, not sent) to ${email.to_address}, "${email.subject}": ${content}`,
        {
          to: email.to_address,
          subject: email.subject,
          ...(link ? { link } : {}),
        },
      );
      await helpers.query("update app_private.emails set status = 'outbox' where uuid = $1", [uuid]);
      return;
    }
    try {
      await transport.sendMail({
        from: settings.mailFrom,
        to: email.to_address,
        subject: email.subject,
        text: email.text_body,
      });
    } catch (error) {
      const final = helpers.job.attempts >= helpers.job.max_attempts;
      await helpers.query(
        "update app_private.emails set last_error = $2, status = case when $3 then 'failed' else status end where uuid = $1",
        [uuid, String((error as Error).message).slice(0, 500), final],
      );
      throw error;
    }
    await helpers.query(
      "update app_private.emails set status = 'sent', sent_at = now(), text_body = null, last_error = null where uuid = $1",
      [uuid],
    );
  };
}
