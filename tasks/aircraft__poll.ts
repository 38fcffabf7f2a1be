// Reads the ADS-B receiver for just under a minute (lib/feeds/aircraft/poll.ts); scheduled every
// minute in tasks/index.ts, in its own queue so that runs follow each other without overlapping.
import type { Task } from "graphile-worker";
import { pollAircraft, type AircraftPollConfig } from "../lib/feeds/aircraft/poll.ts";

export const makeAircraftPoll = (config: AircraftPollConfig): Task => async (_payload, helpers) => {
  await helpers.withPgClient((client) => pollAircraft(client, config, helpers.logger));
};
