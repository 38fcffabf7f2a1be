// Polls the weather sources (lib/feeds/meteo/poll.ts); scheduled every 5 minutes in tasks/index.ts.
import type { Task } from "graphile-worker";
import { pollMeteo, type MeteoPollConfig } from "../lib/feeds/meteo/poll.ts";

export const makeMeteoPoll = (config: MeteoPollConfig): Task => async (_payload, helpers) => {
  await helpers.withPgClient((client) => pollMeteo(client, config, helpers.logger));
};
