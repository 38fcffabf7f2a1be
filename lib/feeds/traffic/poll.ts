// One round of the traffic poller (task traffic__poll, every minute): fetch the incidents
// publication, store it when it changed, and log only when the feed's state changes
// (lib/feeds/feed-status.ts). A source that is down, or a file that is broken, leaves the last
// good state served.
import { Readable } from "node:stream";
import type pg from "pg";
import { fetchDocument } from "../fetch-document.ts";
import { feedValidators, recordFeedOutcome, type PollLog } from "../feed-status.ts";
import { describeTrafficIngest, ingestTrafficDocument } from "./ingest.ts";

const FEED = "traffic-incidents";

export async function pollTraffic(db: pg.Pool | pg.ClientBase, config: { enabled: boolean; url: string | undefined }, log: PollLog): Promise<void> {
  if (!config.enabled || !config.url) return;
  try {
    const fetched = await fetchDocument(config.url, { validators: await feedValidators(db, FEED) });
    if (!fetched.changed) {
      if (await recordFeedOutcome(db, FEED, { ok: true })) log.info(`${FEED}: working again (not modified since the last file).`);
      return;
    }
    const result = await ingestTrafficDocument(db, Readable.from([Buffer.from(fetched.text)]), config.url);
    if (await recordFeedOutcome(db, FEED, { ok: true, validators: fetched.validators })) log.info(`${FEED}: ${describeTrafficIngest(result)}`);
  } catch (error) {
    const message = `${(error as Error).message} (the last good file stays served)`;
    if (await recordFeedOutcome(db, FEED, { ok: false, message })) log.error(`${FEED}: ${message}`);
  }
}
