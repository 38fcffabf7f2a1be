// Polls the traffic incidents and jams publications (lib/feeds/traffic/poll.ts) every minute (tasks/poll-schedule.ts).
import type { Task } from "graphile-worker";
import { pollTraffic, trafficFeeds, type TrafficPollConfig } from "../lib/feeds/traffic/poll.ts";
import { pollEvery } from "./poll-schedule.ts";

export const makeTrafficPoll = (config: TrafficPollConfig): Task =>
  pollEvery(60, trafficFeeds(config).length > 0, (helpers) =>
    helpers.withPgClient((client) => pollTraffic(client, config, helpers.logger)),
  );
