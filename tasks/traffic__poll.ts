// Polls the traffic incidents publication (lib/feeds/traffic/poll.ts); scheduled every minute in tasks/index.ts.
import type { Task } from "graphile-worker";
import { pollTraffic } from "../lib/feeds/traffic/poll.ts";

export const makeTrafficPoll = (config: { enabled: boolean; url: string | undefined }): Task => async (_payload, helpers) => {
  await helpers.withPgClient((client) => pollTraffic(client, config, helpers.logger));
};
