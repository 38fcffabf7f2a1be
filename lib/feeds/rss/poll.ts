// One round of the RSS poller (task rss__poll: every minute, and when a feed falls due): the feeds
// of active rss monitors that are due (each every RSS_POLL_INTERVAL seconds; a feed a monitor just
// named is due at once), a few at a time, each a round of lib/feeds/poll-feed.ts under its own
// name (rss:<uuid>), so its validators and failures are its own. A feed URL is user input: only
// public hosts are fetched (unless WEBHOOK_ALLOW_PRIVATE_TARGETS), on every redirect too, checked
// by the outbound guard on the address each connection uses (no check-then-fetch).
import type pg from "pg";
import { fetchDocument } from "../fetch-document.ts";
import { pollFeed, type PollLog } from "../poll-feed.ts";
import { parseRssDocument } from "./parser.ts";
import { storeRssDocument } from "./store.ts";

export interface RssPollConfig {
  /** RSS_POLL_INTERVAL: seconds between two reads of a feed. */
  intervalSeconds: number;
}

/** Feeds fetched in one round at most, and at once. */
const FEEDS_PER_ROUND = 40;
const AT_ONCE = 4;
/**
 * A round also reads the feeds due within this many seconds, rather than leaving each to a round
 * of its own moments later; a feed is then read at most this much early.
 */
const EARLY_SECONDS = 5;
/** Feeds that active rss monitors follow (`d`: app_public.rss_feeds). */
const FOLLOWED = "exists (select 1 from app_hidden.rss_monitor_criteria c where d.uuid = any (c.feed_uuids))";

interface DueFeed {
  uuid: string;
  url: string;
}

async function pollOne(db: pg.Pool, feed: DueFeed, allowPrivateTargets: boolean, log: PollLog): Promise<void> {
  await pollFeed(
    db,
    {
      feed: `rss:${feed.uuid}`,
      download: (validators) =>
        fetchDocument(feed.url, {
          validators,
          timeoutMs: 15_000,
          maxBytes: 5 * 2 ** 20,
          publicOnly: !allowPrivateTargets,
          what: "Feed",
        }),
      async store(body) {
        const document = parseRssDocument(body.toString("utf8"));
        const result = await storeRssDocument(db, feed.uuid, document);
        return { ...result, skipped: document.skipped };
      },
      describe: (result) =>
        `${feed.url}: ${result.items} item(s) read${result.skipped ? `, ${result.skipped} without an id skipped` : ""}; ${result.inserted} new.`,
    },
    log,
  );
}

/**
 * Reads the feeds that are due; returns when the next followed feed is due (null: none).
 * `allowPrivateTargets`: WEBHOOK_ALLOW_PRIVATE_TARGETS (config.delivery), which covers feed URLs too.
 */
export async function pollRssFeeds(
  db: pg.Pool,
  config: RssPollConfig,
  allowPrivateTargets: boolean,
  log: PollLog,
): Promise<Date | null> {
  // Claimed by moving their next poll ahead first: a slow round never fetches a feed twice.
  const { rows: due } = await db.query<DueFeed>(
    `update app_public.rss_feeds f set next_poll_at = now() + make_interval(secs => $1)
      where f.uuid in (select d.uuid from app_public.rss_feeds d
                        where d.next_poll_at <= now() + make_interval(secs => $3) and ${FOLLOWED}
                        order by d.next_poll_at limit $2 for update skip locked)
      returning f.uuid, f.url`,
    [config.intervalSeconds, FEEDS_PER_ROUND, EARLY_SECONDS],
  );
  // A feed never due ('infinity') books no round.
  const {
    rows: [next],
  } = await db.query<{ at: Date }>(
    `select d.next_poll_at as at from app_public.rss_feeds d where ${FOLLOWED} and isfinite(d.next_poll_at)
      order by d.next_poll_at limit 1`,
  );
  for (let start = 0; start < due.length; start += AT_ONCE) {
    await Promise.all(due.slice(start, start + AT_ONCE).map((feed) => pollOne(db, feed, allowPrivateTargets, log)));
  }
  return next?.at ?? null;
}
