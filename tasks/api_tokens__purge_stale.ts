// Deletes API tokens that were revoked or expired long ago (crontab: nightly). Recently dead tokens
// stay, so their owners can still see why a client stopped working.
import type { Task } from "graphile-worker";

export const API_TOKEN_RETENTION_DAYS = 90;

export const api_tokens__purge_stale: Task = async (_payload, helpers) => {
  const {
    rows: [result],
  } = await helpers.query<{ purged: number }>(
    "select app_private.purge_stale_api_tokens(make_interval(days => $1)) as purged",
    [API_TOKEN_RETENTION_DAYS],
  );
  helpers.logger.info(`Purged ${result.purged} API token(s) dead for over ${API_TOKEN_RETENTION_DAYS} days.`);
};
