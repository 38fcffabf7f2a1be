// Recomputes the cached answers of the hubAnalytics* operations (every window of 7-90 days), so
// requests read one row instead of aggregating the roll-ups. Scheduled hourly.
import type { Task } from "graphile-worker";

export const analytics__refresh_cache: Task = async (_payload, helpers) => {
  const {
    rows: [{ stored }],
  } = await helpers.query<{ stored: number }>("select app_private.refresh_analytics_cache() as stored");
  helpers.logger.debug(`Analytics cache: ${stored} answers refreshed.`);
};
