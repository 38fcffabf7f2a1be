// What the worker of a running service writes to the log (docs/operations.md#the-log): a failed
// delivery is one line with its reason (task, job, attempt k of n, where it went and what came
// back), without a stack unless LOG_LEVEL=debug; completed jobs only at debug; the same events as
// JSON objects with their fields under LOG_FORMAT=json; and a mail kept for lack of SMTP_URL as one
// line that stands out, with its link.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "@jest/globals";
import { mails } from "../../lib/accounts/emails.ts";
import { configureLog, writeLogTo, type LogLevel } from "../../lib/ops/log.ts";
import { OUTBOX_PREFIX } from "../../tasks/emails__send.ts";
import { FEEDS_OFF, useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

const lines: Array<{ level: LogLevel; line: string }> = [];
const undo = writeLogTo((level, line) => lines.push({ level, line }));
let receiver: WebhookReceiver;
afterAll(async () => {
  undo();
  await receiver?.stop();
});
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.respondWith.status = 500;
});
const ctx = useTestService(() => ({
  log: { level: "info", format: "text" },
  delivery: { allowPrivateTargets: true },
  // No feed polls the internet from here: their failures would be lines of their own.
  feeds: FEEDS_OFF,
}));
beforeEach(() => {
  lines.length = 0;
});

let capcodes = 1_700_000;
/** A new P2000 monitor notifying a webhook at the receiver, and a message it matches: one notification. */
async function failingDelivery(): Promise<string> {
  const db = ctx.db;
  const capcode = String(++capcodes);
  const {
    rows: [channel],
  } = await db.asOwner(
    "insert into app_public.channels (environment_uuid, type, name, url) values ($1, 'webhook', 'log test', $2) returning uuid",
    [db.operatorEnvironmentUuid, `${receiver.url}/hooks/secret-path-${capcode}`],
  );
  await db.asOwner("insert into app_private.channel_secrets values ($1, $2)", [
    channel.uuid,
    "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  ]);
  const {
    rows: [monitor],
  } = await db.asOwner(
    "insert into app_public.monitors (environment_uuid, name, query) values ($1, 'log test', $2) returning uuid",
    [db.operatorEnvironmentUuid, JSON.stringify({ capcodes: [capcode] })],
  );
  await db.asOwner("insert into app_hidden.monitor_channels values ($1, $2)", [monitor.uuid, channel.uuid]);
  await db.asOwner("select app_private.ingest_p2000_message($1, now(), array[$2], 'test')", [
    `A1 AMBU 09101 Stationsplein Utrecht bon ${capcode}`,
    capcode,
  ]);
  const [notification] = await waitUntil(
    async () =>
      (
        await db.asOwner(
          "select n.uuid from app_private.notifications n join app_private.notification_attempts a on a.notification_uuid = n.uuid where n.monitor_uuid = $1",
          [monitor.uuid],
        )
      ).rows,
    (rows) => rows.length > 0,
    "the first failed attempt",
  );
  return notification.uuid;
}

/** The next attempt now rather than after graphile-worker's backoff, as the last one when `last`. */
async function retryNow(notificationUuid: string, last: boolean) {
  await ctx.db.asOwner(
    `update graphile_worker._private_jobs set run_at = now(), max_attempts = case when $2 then attempts + 1 else max_attempts end
      where key = 'notification:' || $1`,
    [notificationUuid, last],
  );
}

async function attemptsRecorded(notificationUuid: string, count: number) {
  await waitUntil(
    async () =>
      (
        await ctx.db.asOwner(
          "select count(*)::int as n from app_private.notification_attempts where notification_uuid = $1",
          [notificationUuid],
        )
      ).rows[0].n,
    (n) => n >= count,
    `attempt ${count}`,
  );
  // The job's own line comes after the attempt is recorded.
  await ctx.service.workerIdle();
  await new Promise((resolve) => setTimeout(resolve, 300));
}

const about = (uuid: string) => lines.filter((l) => l.line.includes(uuid));

describe("LOG_LEVEL=info, text", () => {
  test("each failed attempt of a delivery is one warning line with its reason, without a stack", async () => {
    const uuid = await failingDelivery();
    await attemptsRecorded(uuid, 1);
    const first = about(uuid);
    expect(first).toHaveLength(1);
    expect(first[0].level).toBe("warning");
    expect(first[0].line).toMatch(
      new RegExp(
        `^WARNING Task notifications__deliver \\(job \\d+\\) failed, attempt 1 of 6 \\(tried again later\\): notification ${uuid}: webhook http://127\\.0\\.0\\.1:\\d+/… answered 500$`,
      ),
    );
    // The webhook's path (it may hold a token) stays out of the log.
    expect(first[0].line).not.toContain("secret-path");

    lines.length = 0;
    await retryNow(uuid, true);
    await attemptsRecorded(uuid, 2);
    const last = about(uuid);
    expect(last).toHaveLength(1);
    expect(last[0].level).toBe("warning");
    expect(last[0].line).toMatch(
      new RegExp(
        `^WARNING Task notifications__deliver \\(job \\d+\\): Notification failed for good, attempt 2 of 2: notification ${uuid}: webhook http://127\\.0\\.0\\.1:\\d+/… answered 500$`,
      ),
    );
  });

  test("completed jobs are not written: the matching job that queued the delivery is no line", async () => {
    const uuid = await failingDelivery();
    await attemptsRecorded(uuid, 1);
    expect(lines.map((l) => l.line).filter((line) => /Completed task|monitors__match_feed/.test(line))).toEqual([]);
    expect(lines.filter((l) => l.level === "info" || l.level === "debug").map((l) => l.line)).toEqual([]);
  });

  test("a mail kept for lack of SMTP_URL is one info line that stands out, with its link", async () => {
    const link = "http://127.0.0.1:5678/auth/verify-email?token=abc123";
    const mail = mails.verifyEmail(link);
    await ctx.db.asOwner("select app_private.queue_email($1, $2, $3)", ["eva@example.org", mail.subject, mail.text]);
    await ctx.service.workerIdle();
    const mailLines = lines.filter((l) => l.line.includes("eva@example.org"));
    expect(mailLines).toEqual([
      {
        level: "info",
        line: `${OUTBOX_PREFIX} (no SMTP_URL, not sent) to eva@example.org, "Confirm your e-mail address": ${link}`,
      },
    ]);
  });
});

describe("LOG_LEVEL=debug", () => {
  beforeAll(() => configureLog({ level: "debug", format: "text" }));
  afterAll(() => configureLog({ level: "info", format: "text" }));

  test("completed jobs are debug lines, and a failure's line carries its stack", async () => {
    const uuid = await failingDelivery();
    await attemptsRecorded(uuid, 1);
    expect(lines).toContainEqual({
      level: "debug",
      line: expect.stringMatching(/^DEBUG Completed task \d+ \(monitors__match_feed, /),
    });
    const failure = lines.filter(
      (l) => l.line.startsWith("WARNING Task notifications__deliver") && l.line.includes(uuid),
    );
    expect(failure).toHaveLength(1);
    expect(failure[0].line).toMatch(/answered 500\n {4}Error: notification .*\n {8}at /);
  });
});

describe("LOG_FORMAT=json", () => {
  beforeAll(() => configureLog({ level: "info", format: "json" }));
  afterAll(() => configureLog({ level: "info", format: "text" }));

  test("a failed attempt is one object with the task, the job id, the attempt and the reason", async () => {
    const uuid = await failingDelivery();
    await attemptsRecorded(uuid, 1);
    const entries = lines.map((l) => JSON.parse(l.line));
    const failures = entries.filter((e) => JSON.stringify(e).includes(uuid));
    expect(failures).toEqual([
      {
        time: expect.any(String),
        level: "warning",
        message: expect.stringMatching(/^Task notifications__deliver \(job \d+\) failed, attempt 1 of 6/),
        task: "notifications__deliver",
        jobId: expect.stringMatching(/^\d+$/),
        attempt: 1,
        maxAttempts: 6,
        error: expect.stringMatching(
          new RegExp(`^notification ${uuid}: webhook http://127\\.0\\.0\\.1:\\d+/… answered 500$`),
        ),
      },
    ]);
  });

  test("a mail kept for lack of SMTP_URL carries its address, subject and link as fields", async () => {
    const link = "http://127.0.0.1:5678/auth/magic-link?token=def456";
    const mail = mails.magicLink(link);
    await ctx.db.asOwner("select app_private.queue_email($1, $2, $3)", ["jan@example.org", mail.subject, mail.text]);
    await ctx.service.workerIdle();
    const entries = lines.map((l) => JSON.parse(l.line)).filter((e) => e.to === "jan@example.org");
    expect(entries).toEqual([
      {
        time: expect.any(String),
        level: "info",
        message: `${OUTBOX_PREFIX} (no SMTP_URL, not sent) to jan@example.org, "Your login link": ${link}`,
        task: "emails__send",
        jobId: expect.stringMatching(/^\d+$/),
        to: "jan@example.org",
        subject: "Your login link",
        link,
      },
    ]);
  });
});
