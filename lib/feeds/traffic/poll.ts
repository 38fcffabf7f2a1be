// One round of the traffic poller (task traffic__poll, every minute): the incidents publication
// and the jams of the current-situation publication, each a round of lib/feeds/poll-feed.ts.
import { Readable } from "node:stream";
import type pg from "pg";
import { fetchDocument } from "../fetch-document.ts";
import { pollFeed, type PollLog } from "../poll-feed.ts";
import { describeTrafficIngest, ingestTrafficDocument, type TrafficFeedKind } from "./ingest.ts";

export interface TrafficPollConfig {
  enabled: boolean;
  incidentsUrl: string | undefined;
  jamsUrl: string | undefined;
}

/** The publications to poll: none while the feed is switched off, and only those with a URL. */
export function trafficFeeds(config: TrafficPollConfig): Array<{ kind: TrafficFeedKind; url: string }> {
  if (!config.enabled) return [];
  const feeds: Array<[TrafficFeedKind, string | undefined]> = [
    ["incidents", config.incidentsUrl],
    ["jams", config.jamsUrl],
  ];
  return feeds.flatMap(([kind, url]) => (url ? [{ kind, url }] : []));
}

export async function pollTraffic(db: pg.Pool | pg.ClientBase, config: TrafficPollConfig, log: PollLog): Promise<void> {
  for (const { kind, url } of trafficFeeds(config)) {
    await pollFeed(
      db,
      {
        feed: `traffic-${kind}`,
        download: (validators) => fetchDocument(url, { validators }),
        store: (body) => ingestTrafficDocument(db, Readable.from([body]), url, kind),
        describe: describeTrafficIngest,
      },
      log,
    );
  }
}
