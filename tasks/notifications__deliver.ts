// Delivers notifications: one (a payload { uuid }, the job keyed notification:<uuid>) or a batch (a
// payload that is a list of them: a graphile-worker batch job, queued by
// app_hidden.queue_notification_deliveries). A batch is read in one statement, sent all at once, and
// its attempts recorded in one statement; graphile-worker puts back only the notifications that are
// to be tried again, with its back-off, so a batch's retry has been attempted as often as each of its
// notifications. A notification that is no longer queued (delivered, failed, deleted) is skipped, so
// a repeated job never sends twice. The last attempt (or a permanent error) marks it failed; a
// receiver that says the channel is gone for good (Web Push 404/410) disables the channel.
// Outcomes are counted here (nlis_notification_deliveries_total), where it is known whether a
// failure will be retried, and before recording, so a send whose record fails still counts. A
// failure is one line in the service's log with its reason (the worker's line for a retried one);
// the delivery log keeps the detail.
import type { JobHelpers, Task } from "graphile-worker";
import { attemptDelivery, failureReason, type DeliveryAttempt } from "../lib/monitors/notification-delivery.ts";
import type { NotificationSettings, PendingNotification } from "../lib/monitors/notification.ts";
import { notificationDeliveries } from "../lib/ops/metrics.ts";

interface Entry {
  uuid: string;
}

/** One notification's try: sent, failed for good, or to be tried again (its reason then). */
interface Outcome {
  notification: PendingNotification;
  attempt: DeliveryAttempt;
  final: boolean;
}

async function attemptEach(
  settings: NotificationSettings,
  notifications: PendingNotification[],
  helpers: JobHelpers,
): Promise<Outcome[]> {
  const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
  return Promise.all(
    notifications.map(async (notification) => {
      const attempt = await attemptDelivery(settings, notification);
      const { failure } = attempt;
      const final = failure !== null && (failure.permanent || lastAttempt);
      notificationDeliveries.inc({
        channel_type: notification.channel_type,
        outcome: failure === null ? "delivered" : final ? "failed" : "retrying",
      });
      return { notification, attempt, final };
    }),
  );
}

function recordStatement(outcomes: Outcome[]): [string, unknown[]] {
  return [
    "select app_private.record_notification_attempts($1::jsonb)",
    [
      JSON.stringify(
        outcomes.map(({ notification, attempt, final }) => ({
          notification_uuid: notification.notification_uuid,
          succeeded: attempt.failure === null,
          response_code: attempt.responseCode,
          reply: attempt.reply,
          error: attempt.failure?.message ?? null,
          duration_ms: attempt.latencyMs,
          final,
        })),
      ),
    ],
  ];
}

/**
 * Records the attempts: a batch in one statement. Should that fail, each is recorded on its own,
 * so that one bad row does not send the whole batch again; the notifications whose own record
 * failed too are returned with that error (they go back to the queue: sent at least once).
 */
async function record(outcomes: Outcome[], helpers: JobHelpers): Promise<Map<string, Error>> {
  // A receiver that said the channel is gone (Web Push 404/410): nothing more goes to it.
  for (const { notification, attempt } of outcomes)
    if (attempt.failure?.disablesChannel)
      await helpers.query("select app_private.disable_channel($1, $2)", [
        notification.channel_uuid,
        attempt.failure.message,
      ]);
  const unrecorded = new Map<string, Error>();
  try {
    await helpers.query(...recordStatement(outcomes));
  } catch (error) {
    if (outcomes.length === 1) throw error;
    for (const outcome of outcomes) {
      const uuid = outcome.notification.notification_uuid;
      await helpers
        .query(...recordStatement([outcome]))
        .catch((own: Error) =>
          unrecorded.set(uuid, new Error(`notification ${uuid}: its attempt was not recorded: ${own.message}`)),
        );
    }
  }
  return unrecorded;
}

/** A failure to try again, as graphile-worker logs it (worker.ts); null when there is none. */
function retryReason({ notification, attempt, final }: Outcome, helpers: JobHelpers): Error | null {
  if (attempt.failure === null) return null;
  const reason = `notification ${notification.notification_uuid}: ${failureReason(notification, attempt.failure)}`;
  if (!final) return new Error(reason);
  const { attempts, max_attempts } = helpers.job;
  helpers.logger.warn(`Notification failed for good, attempt ${attempts} of ${max_attempts}: ${reason}`);
  return null;
}

export function makeNotificationsDeliver(settings: NotificationSettings): Task {
  return async (payload, helpers) => {
    const entries = (Array.isArray(payload) ? payload : [payload]) as Entry[];
    const { rows } = await helpers.query<PendingNotification>(
      "select * from app_private.notifications_for_delivery($1::uuid[])",
      [entries.map((entry) => entry.uuid)],
    );
    const outcomes = await attemptEach(settings, rows, helpers);
    const unrecorded = outcomes.length > 0 ? await record(outcomes, helpers) : new Map<string, Error>();
    const retries = new Map(
      outcomes.map((outcome) => {
        const uuid = outcome.notification.notification_uuid;
        return [uuid, unrecorded.get(uuid) ?? retryReason(outcome, helpers)];
      }),
    );
    if (!Array.isArray(payload)) {
      const retry = retries.get(entries[0].uuid);
      if (retry) throw retry;
      return;
    }
    // A batch job: one result per entry; the rejected ones go back to the queue.
    return entries.map((entry) => {
      const retry = retries.get(entry.uuid);
      if (!retry) return Promise.resolve();
      const rejected = Promise.reject(retry);
      rejected.catch(() => {}); // graphile-worker reads it with Promise.allSettled
      return rejected;
    });
  };
}
