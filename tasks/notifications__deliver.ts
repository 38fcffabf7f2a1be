// Delivers one notification (queued by app_private.match_p2000_message with the job key
// notification:<uuid>). A notification that is no longer queued (delivered, failed, deleted) is
// skipped, so a repeated job never sends twice. Every attempt is recorded; graphile-worker retries
// failures with exponential backoff, and the last attempt (or a permanent error) marks it failed;
// a receiver that says the channel is gone for good (Web Push 404/410) disables the channel.
// Outcomes are counted here (nlis_notification_deliveries_total), where it is known whether a
// failure will be retried, and before recording, so a send whose record fails still counts. A
// failure is one line in the service's log with its reason (the worker's line for a retried one);
// the delivery log keeps the detail.
import type { Task } from "graphile-worker";
import { attemptDelivery, failureReason } from "../lib/monitors/notification-delivery.ts";
import type { NotificationSettings, PendingNotification } from "../lib/monitors/notification.ts";
import { notificationDeliveries } from "../lib/ops/metrics.ts";

export function makeNotificationsDeliver(settings: NotificationSettings): Task {
  return async (payload, helpers) => {
    const { uuid } = payload as { uuid: string };
    const {
      rows: [notification],
    } = await helpers.query<PendingNotification>("select * from app_private.notification_for_delivery($1)", [uuid]);
    if (!notification) return;
    const attempt = await attemptDelivery(settings, notification);
    const { failure } = attempt;
    const final = failure !== null && (failure.permanent || helpers.job.attempts >= helpers.job.max_attempts);
    notificationDeliveries.inc({
      channel_type: notification.channel_type,
      outcome: failure === null ? "delivered" : final ? "failed" : "retrying",
    });
    // A receiver that said the channel is gone (Web Push 404/410): nothing more goes to it.
    if (failure?.disablesChannel) {
      await helpers.query("select app_private.disable_channel($1, $2)", [notification.channel_uuid, failure.message]);
    }
    await helpers.query("select app_private.record_notification_attempt($1, $2, $3, $4, $5, $6, $7)", [
      uuid,
      failure === null,
      attempt.responseCode,
      attempt.reply,
      failure?.message ?? null,
      attempt.latencyMs,
      final,
    ]);
    if (failure === null) return;
    const reason = `notification ${uuid}: ${failureReason(notification, failure)}`;
    if (final) {
      const { attempts, max_attempts } = helpers.job;
      helpers.logger.warn(`Notification failed for good, attempt ${attempts} of ${max_attempts}: ${reason}`);
      return;
    }
    // graphile-worker logs it (worker.ts: task, job, attempt k of n and this message) and retries.
    throw new Error(reason);
  };
}
