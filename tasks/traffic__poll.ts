// Polls the traffic incidents and jams publications (lib/feeds/traffic/poll.ts); scheduled every minute in tasks/index.ts.
import type { Task } from "graphile-worker";
import { pollTraffic, type TrafficPollConfig } from "../lib/feeds/traffic/poll.ts";

export const makeTrafficPoll = (config: TrafficPollConfig): Task => async (_payload, helpers) => {
  await helpers.withPgClient((client) => pollTraffic(client, config, helpers.logger));
};
