// A real SMTP server (smtp-server) that keeps what it receives, parsed with mailparser, so tests
// can read the mails the service sends and follow their links.
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { freePort } from "./ports.ts";
import { waitUntil } from "./wait.ts";

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

export interface MailSink {
  url: string;
  mails: ReceivedMail[];
  /** Waits for a mail to the address whose subject matches, and returns it. */
  waitFor(to: string, subject: RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  /** The first link in the mail's text that starts with the given prefix. */
  linkIn(mail: ReceivedMail, prefix: string): string;
  stop(): Promise<void>;
}

export async function startMailSink(): Promise<MailSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
          mails.push({ to: to?.value[0]?.address ?? "", subject: parsed.subject ?? "", text: parsed.text ?? "" });
          callback();
        })
        .catch(callback);
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, subject, timeoutMs = 15_000) {
      const matches = (m: ReceivedMail) => m.to === to && subject.test(m.subject);
      // The probe lists what did arrive, so a timeout shows it.
      await waitUntil(
        () => mails.map((m) => `${m.to}: ${m.subject}`),
        () => mails.some(matches),
        `a mail to ${to} matching ${subject}`,
        timeoutMs,
      );
      return mails.find(matches)!;
    },
    linkIn(mail, prefix) {
      const link = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
      if (!link) throw new Error(`No link starting ${prefix} in:\n${mail.text}`);
      return link;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
