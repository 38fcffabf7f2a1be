// Polls the weather sources (lib/feeds/meteo/poll.ts) every 5 minutes (tasks/poll-schedule.ts).
import type { Task } from "graphile-worker";
import { meteoSources, pollMeteo, type MeteoPollConfig } from "../lib/feeds/meteo/poll.ts";
import { pollEvery } from "./poll-schedule.ts";

export const makeMeteoPoll = (config: MeteoPollConfig): Task =>
  pollEvery(300, meteoSources(config).length > 0, (helpers) =>
    helpers.withPgClient((client) => pollMeteo(client, config, helpers.logger)),
  );
