// Polls the due feeds of rss monitors (lib/feeds/rss/poll.ts); scheduled every minute in
// tasks/index.ts, in its own queue so that rounds never overlap. Feeds are fetched side by side,
// so the task works on the worker's pool rather than one connection.
import type { Task } from "graphile-worker";
import type pg from "pg";
import { pollRssFeeds, type RssPollConfig } from "../lib/feeds/rss/poll.ts";

export const makeRssPoll = (config: RssPollConfig, pool: pg.Pool): Task => async (_payload, helpers) => {
  await pollRssFeeds(pool, config, helpers.logger);
};
