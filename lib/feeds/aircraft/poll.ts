// One read of the aircraft poller (task aircraft__poll, every AIRCRAFT_POLL_SECONDS): the
// operator's own ADS-B receiver, a round of lib/feeds/poll-feed.ts (failures logged once per
// change of state).
import type pg from "pg";
import { fetchDocument } from "../fetch-document.ts";
import { pollFeed, type PollLog } from "../poll-feed.ts";
import { describeAircraftIngest, ingestAircraftDocument } from "./ingest.ts";

export interface AircraftPollConfig {
  url: string | undefined;
  intervalSeconds: number;
}

export async function pollAircraftOnce(db: pg.Pool | pg.ClientBase, url: string, log: PollLog): Promise<void> {
  await pollFeed(
    db,
    {
      feed: "aircraft",
      download: (validators) => fetchDocument(url, { validators, timeoutMs: 5_000, maxBytes: 20 * 2 ** 20 }),
      store: (body) => ingestAircraftDocument(db, body.toString("utf8"), url),
      describe: describeAircraftIngest,
      notable: (result) => result.takeOffs + result.landings > 0,
    },
    log,
  );
}

/** One read of the receiver, where one is configured. */
export async function pollAircraft(
  db: pg.Pool | pg.ClientBase,
  config: AircraftPollConfig,
  log: PollLog,
): Promise<void> {
  if (config.url) await pollAircraftOnce(db, config.url, log);
}
