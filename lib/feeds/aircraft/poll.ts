// The aircraft poller (task aircraft__poll): the operator's own ADS-B receiver is read every
// AIRCRAFT_POLL_SECONDS, which is more often than the worker's schedule (once a minute) can start a
// task, so each run reads the receiver for just under a minute and the next run takes over. Each
// read is a round of lib/feeds/poll-feed.ts (failures logged once per change of state).
import type pg from "pg";
import { fetchDocument } from "../fetch-document.ts";
import { pollFeed, type PollLog } from "../poll-feed.ts";
import { describeAircraftIngest, ingestAircraftDocument } from "./ingest.ts";

export interface AircraftPollConfig {
  url: string | undefined;
  intervalSeconds: number;
}

export async function pollAircraftOnce(db: pg.Pool | pg.ClientBase, url: string, log: PollLog): Promise<void> {
  await pollFeed(db, {
    feed: "aircraft",
    download: (validators) => fetchDocument(url, { validators, timeoutMs: 5_000, maxBytes: 20 * 2 ** 20 }),
    store: (body) => ingestAircraftDocument(db, body.toString("utf8"), url),
    describe: describeAircraftIngest,
    notable: (result) => result.takeOffs + result.landings > 0,
  }, log);
}

/** Reads the receiver every intervalSeconds for `forMs`. */
export async function pollAircraft(db: pg.Pool | pg.ClientBase, config: AircraftPollConfig, log: PollLog, forMs = 55_000): Promise<void> {
  const url = config.url;
  if (!url) return;
  const until = Date.now() + forMs;
  for (;;) {
    const started = Date.now();
    await pollAircraftOnce(db, url, log);
    const next = started + config.intervalSeconds * 1000;
    if (next >= until) return;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
  }
}
