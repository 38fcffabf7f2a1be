// Matches new weather warning events against the meteo_weather monitors (queued per statement by
// a trigger on meteo_warning_events). The SQL records the matches and queues the deliveries in one
// transaction (the whole batch), so a retried job finds the work done and queues nothing twice.
import type { Task } from "graphile-worker";

export const monitors__match_meteo: Task = async (payload, helpers) => {
  const { eventUuids } = payload as { eventUuids: string[] };
  // One statement for the batch (each event's matching is idempotent, so a retry redoes it safely).
  await helpers.query("select app_private.match_meteo_event(u) from unnest($1::uuid[]) u", [eventUuids]);
};
