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

export async function pollTraffic(db: pg.Pool | pg.ClientBase, config: TrafficPollConfig, log: PollLog): Promise<void> {
  if (!config.enabled) return;
  const feeds: Array<[TrafficFeedKind, string | undefined]> = [["incidents", config.incidentsUrl], ["jams", config.jamsUrl]];
  for (const [kind, url] of feeds) {
    if (!url) continue;
    await pollFeed(db, {
      feed: `traffic-${kind}`,
      download: (validators) => fetchDocument(url, { validators }),
      store: (body) => ingestTrafficDocument(db, Readable.from([body]), url, kind),
      describe: describeTrafficIngest,
    }, log);
  }
}
