// Reads the ADS-B receiver (lib/feeds/aircraft/poll.ts) every AIRCRAFT_POLL_SECONDS, one job per
// read (tasks/poll-schedule.ts).
import type { Task } from "graphile-worker";
import { pollAircraft, type AircraftPollConfig } from "../lib/feeds/aircraft/poll.ts";
import { pollEvery } from "./poll-schedule.ts";

export const makeAircraftPoll = (config: AircraftPollConfig): Task =>
  pollEvery(config.intervalSeconds, Boolean(config.url), (helpers) =>
    helpers.withPgClient((client) => pollAircraft(client, config, helpers.logger)),
  );
