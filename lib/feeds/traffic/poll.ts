// One round of the traffic poller (task traffic__poll, every minute): the incidents publication,
// a round of lib/feeds/poll-feed.ts.
import { Readable } from "node:stream";
import type pg from "pg";
import { fetchDocument } from "../fetch-document.ts";
import { pollFeed, type PollLog } from "../poll-feed.ts";
import { describeTrafficIngest, ingestTrafficDocument } from "./ingest.ts";

export async function pollTraffic(db: pg.Pool | pg.ClientBase, config: { enabled: boolean; url: string | undefined }, log: PollLog): Promise<void> {
  const url = config.url;
  if (!config.enabled || !url) return;
  await pollFeed(db, {
    feed: "traffic-incidents",
    download: (validators) => fetchDocument(url, { validators }),
    store: (body) => ingestTrafficDocument(db, Readable.from([body]), url),
    describe: describeTrafficIngest,
  }, log);
}
