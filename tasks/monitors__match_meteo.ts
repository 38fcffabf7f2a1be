// Matches new weather warning events against the meteo_weather monitors (queued per statement by
// a trigger on meteo_warning_events). The SQL records the matches and queues the deliveries in one
// transaction per event, so a retried job finds the work done and queues nothing twice.
import type { Task } from "graphile-worker";

export const monitors__match_meteo: Task = async (payload, helpers) => {
  const { eventUuids } = payload as { eventUuids: string[] };
  for (const uuid of eventUuids) await helpers.query("select app_private.match_meteo_event($1)", [uuid]);
};
