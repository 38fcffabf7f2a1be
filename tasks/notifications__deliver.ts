// Delivers one notification (queued by app_private.match_p2000_message with the job key
// notification:<uuid>). A notification that is no longer queued (delivered, failed, deleted) is
// skipped, so a repeated job never sends twice. Every attempt is recorded; graphile-worker retries
// failures with exponential backoff, and the last attempt (or a permanent error) marks it failed.
// Outcomes are counted here (nlis_notification_deliveries_total), where it is known whether a
// failure will be retried, and before recording, so a send whose record fails still counts.
import type { Task } from "graphile-worker";
import {
  DeliveryError,
  deliverNotification,
  type DeliveryResult,
  type NotificationSettings,
  type PendingNotification,
} from "../lib/monitors/notification-delivery.ts";
import { notificationDeliveries } from "../lib/ops/metrics.ts";

export function makeNotificationsDeliver(settings: NotificationSettings): Task {
  return async (payload, helpers) => {
    const { uuid } = payload as { uuid: string };
    const {
      rows: [notification],
    } = await helpers.query<PendingNotification>("select * from app_private.notification_for_delivery($1)", [uuid]);
    if (!notification) return;
    const started = performance.now();
    const record = (succeeded: boolean, answer: DeliveryResult, error: string | null, final: boolean) =>
      helpers.query("select app_private.record_notification_attempt($1, $2, $3, $4, $5, $6, $7)", [
        uuid,
        succeeded,
        answer.responseCode,
        answer.reply,
        error,
        Math.round(performance.now() - started),
        final,
      ]);
    let answer: DeliveryResult;
    try {
      answer = await deliverNotification(settings, notification);
    } catch (error) {
      const permanent = error instanceof DeliveryError && error.permanent;
      const final = permanent || helpers.job.attempts >= helpers.job.max_attempts;
      notificationDeliveries.inc({ channel_type: notification.channel_type, outcome: final ? "failed" : "retrying" });
      const failure = error instanceof DeliveryError ? error : null;
      await record(
        false,
        { responseCode: failure?.responseCode ?? null, reply: failure?.reply ?? null },
        (error as Error).message,
        final,
      );
      if (final) {
        helpers.logger.warn(`Notification ${uuid} failed for good: ${(error as Error).message}`);
        return;
      }
      throw error;
    }
    notificationDeliveries.inc({ channel_type: notification.channel_type, outcome: "delivered" });
    await record(true, answer, null, false);
  };
}
