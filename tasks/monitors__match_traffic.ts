// Matches new traffic incident events (opened, type changed, closed) against the accident
// monitors (queued per statement by a trigger on traffic_incident_events). The SQL records the
// matches and queues the deliveries of the whole batch in one transaction, so a retried job queues nothing twice.
import type { Task } from "graphile-worker";

export const monitors__match_traffic: Task = async (payload, helpers) => {
  const { eventUuids } = payload as { eventUuids: string[] };
  // One statement for the batch (each event's matching is idempotent, so a retry redoes it safely).
  await helpers.query("select app_private.match_traffic_event(u) from unnest($1::uuid[]) u", [eventUuids]);
};
