// Polls the configured railway-disruption source (lib/feeds/rail/poll.ts); scheduled every minute in tasks/index.ts.
import type { Task } from "graphile-worker";
import { pollRailDisruptions, type RailPollConfig } from "../lib/feeds/rail/poll.ts";

export const makeRailPoll = (config: RailPollConfig): Task => async (_payload, helpers) => {
  await helpers.withPgClient((client) => pollRailDisruptions(client, config, helpers.logger));
};
