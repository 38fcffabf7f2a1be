// Matches a batch of a feed's new or changed items (traffic jams, railway disruptions, RSS items, aircraft take-offs and landings) against
// that feed's monitors, queued per statement by a trigger on the feed's table. Each item's
// matching is idempotent (app_private.notify_feed_event records matches by item), so a retried job
// queues nothing twice.
import type { Task } from "graphile-worker";

/** The SQL matcher of each feed: only these names ever reach the statement. */
const MATCHERS = new Map([
  ["traffic_jam", "app_private.match_traffic_jam"],
  ["rail", "app_private.match_rail_disruption"],
  ["rss", "app_private.match_rss_item"],
  ["aircraft", "app_private.match_aircraft_event"],
]);

export const monitors__match_feed: Task = async (payload, helpers) => {
  const { feed, uuids } = payload as { feed: string; uuids: string[] };
  const matcher = MATCHERS.get(feed);
  if (!matcher) throw new Error(`No matcher for feed "${feed}".`);
  await helpers.query(`select ${matcher}(u) from unnest($1::uuid[]) u`, [uuids]);
};
