// The e-mails the account flows send, and how they are queued: app_private.queue_email stores the
// mail and adds an emails__send job in the same transaction as the token it carries.
import type pg from "pg";

export interface Mail {
  subject: string;
  text: string;
}

export const mails = {
  verifyEmail: (url: string): Mail => ({
    subject: "Confirm your e-mail address",
    text: `Welcome! Confirm your e-mail address by opening this link (valid for 7 days):\n\n${url}\n\nIf you did not create an account, ignore this e-mail.\n`,
  }),
  magicLink: (url: string): Mail => ({
    subject: "Your login link",
    text: `Open this link to log in (valid for 15 minutes, once):\n\n${url}\n\nIf you did not ask for it, ignore this e-mail.\n`,
  }),
  passwordReset: (url: string): Mail => ({
    subject: "Reset your password",
    text: `Open this link to choose a new password (valid for 1 hour, once):\n\n${url}\n\nIf you did not ask for it, ignore this e-mail; your password stays as it is.\n`,
  }),
};

export async function queueEmail(client: pg.ClientBase, to: string, mail: Mail): Promise<void> {
  await client.query("select app_private.queue_email($1, $2, $3)", [to, mail.subject, mail.text]);
}
