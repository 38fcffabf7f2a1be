// Matches a batch of one feed's new or changed items (P2000 messages, weather warning events,
// traffic incidents and jams, railway disruptions, RSS items, aircraft take-offs and landings,
// NL-Alerts, AMBER alerts issued and ended)
// against that feed's monitors (lib/monitors/matchers.ts), queued per statement by a trigger on
// the feed's table (per message for P2000).
import type { Task } from "graphile-worker";
import { matchFeedItems, type MatchJob } from "../lib/monitors/matchers.ts";

export const monitors__match_feed: Task = async (payload, helpers) => {
  await matchFeedItems((text, values) => helpers.query(text, values), payload as MatchJob);
};
