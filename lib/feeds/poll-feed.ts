// One round of a feed's poller, the same for every feed: download with the last answer's
// validators, store what changed, record the outcome (lib/feeds/feed-status.ts), and write a log
// line only when the feed's state changes (or the feed says its result is news). A source that is
// down, or a document that is broken, leaves the last good state served.
import type pg from "pg";
import type { FetchedDocument } from "./fetch-document.ts";
import { feedValidators, recordFeedOutcome, type FeedValidators } from "./feed-status.ts";

/** Where a poller writes the lines it logs (graphile-worker's logger in the tasks). */
export interface PollLog {
  info(message: string): void;
  error(message: string): void;
}

/** The URL a feed with a switch is read from: none while it is switched off or has no URL. */
export function feedUrl(feed: { enabled: boolean; url: string | undefined }): string | undefined {
  return feed.enabled && feed.url ? feed.url : undefined;
}

export interface FeedRound<Result> {
  feed: string;
  download(validators: FeedValidators): Promise<FetchedDocument>;
  /** The downloaded document, as bytes (gzip already undone). */
  store(body: Buffer): Promise<Result>;
  describe(result: Result): string;
  /** Worth a line even when the feed's state did not change (news, such as warning events). */
  notable?(result: Result): boolean;
}

export async function pollFeed<Result>(
  db: pg.Pool | pg.ClientBase,
  round: FeedRound<Result>,
  log: PollLog,
): Promise<void> {
  const { feed } = round;
  try {
    const fetched = await round.download(await feedValidators(db, feed));
    if (!fetched.changed) {
      if (await recordFeedOutcome(db, feed, { ok: true }))
        log.info(`${feed}: working again (not modified since the last document).`);
      return;
    }
    const result = await round.store(fetched.body);
    const changed = await recordFeedOutcome(db, feed, { ok: true, validators: fetched.validators });
    if (changed || round.notable?.(result)) log.info(`${feed}: ${round.describe(result)}`);
  } catch (error) {
    const message = `${(error as Error).message} (the last good document stays served)`;
    if (await recordFeedOutcome(db, feed, { ok: false, message })) log.error(`${feed}: ${message}`);
  }
}
