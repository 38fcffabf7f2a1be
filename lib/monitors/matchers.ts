// Monitor matching: one SQL matcher per feed, each recording the matches of a batch of the feed's
// new or changed items and queueing their deliveries in one transaction. Every item's matching is
// idempotent (matches are keyed by monitor and item), so a retried job queues nothing twice. The
// triggers of each feed queue a monitors__match_feed job with { feed, uuids }.

/** Feed → its SQL matcher (and the monitor type it serves); only these names reach the statement. */
const MATCHERS: ReadonlyMap<string, string> = new Map([
  ["p2000", "app_private.match_p2000_message_in_runs"], // p2000 monitors (a big page in two runs)
  ["meteo", "app_private.match_meteo_event"], // meteo_weather
  ["traffic", "app_private.match_traffic_event"], // accident
  ["traffic_jam", "app_private.match_traffic_jam"], // matrix
  ["rail", "app_private.match_rail_disruption"], // rail_disruptions
  ["rss", "app_private.match_rss_item"], // rss
  ["aircraft", "app_private.match_aircraft_event"], // aircraft
  ["nl_alert", "app_private.match_nl_alert"], // nl_alert
  ["amber_alert", "app_private.match_amber_alert"], // amber_alert: an alert issued
  ["amber_alert_end", "app_private.match_amber_alert_end"], // amber_alert: its end
  ["related_signal", "app_private.match_related_signal"], // p2000 monitors with notificationRules.relatedSignals
  ["escalation", "app_private.match_escalation"], // p2000 monitors with notificationRules.escalations
]);

export interface MatchJob {
  feed: string;
  uuids: string[];
}

type Query = (text: string, values: unknown[]) => Promise<unknown>;

/** Matches a batch of one feed's items against that feed's monitors, in one statement. */
export async function matchFeedItems(query: Query, { feed, uuids }: MatchJob): Promise<void> {
  const matcher = MATCHERS.get(feed);
  if (!matcher) throw new Error(`No matcher for feed "${feed}".`);
  await query(`select ${matcher}(u) from unnest($1::uuid[]) u`, [uuids]);
}
