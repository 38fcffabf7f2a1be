// Polls the due feeds of rss monitors (lib/feeds/rss/poll.ts). The crontab starts a round every
// minute, which also finds the feeds a monitor has just named; a round that leaves a feed due
// before a minute is out books the next round for then (tasks/poll-schedule.ts), so each feed is
// read on time, every RSS_POLL_INTERVAL seconds, and no round is booked further ahead (the next
// minute's round books it). Feeds are fetched side by side, so the task works on the worker's
// pool rather than one connection.
import type { Task } from "graphile-worker";
import type pg from "pg";
import { pollRssFeeds, type RssPollConfig } from "../lib/feeds/rss/poll.ts";
import { bookNextRound } from "./poll-schedule.ts";

/** How far ahead a round books the next: the crontab's minute. */
const LOOK_AHEAD_MS = 60_000;

export const makeRssPoll =
  (config: RssPollConfig, allowPrivateTargets: boolean, pool: pg.Pool): Task =>
  async (_payload, helpers) => {
    const nextDue = await pollRssFeeds(pool, config, allowPrivateTargets, helpers.logger);
    if (nextDue && nextDue.getTime() <= Date.now() + LOOK_AHEAD_MS) await bookNextRound(helpers, nextDue);
  };
