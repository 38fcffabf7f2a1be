// Polls the configured railway-disruption source (lib/feeds/rail/poll.ts) every minute (tasks/poll-schedule.ts).
import type { Task } from "graphile-worker";
import { feedUrl } from "../lib/feeds/poll-feed.ts";
import { pollRailDisruptions, type RailPollConfig } from "../lib/feeds/rail/poll.ts";
import { pollEvery } from "./poll-schedule.ts";

export const makeRailPoll = (config: RailPollConfig): Task =>
  pollEvery(60, feedUrl(config) !== undefined, (helpers) =>
    helpers.withPgClient((client) => pollRailDisruptions(client, config, helpers.logger)),
  );
