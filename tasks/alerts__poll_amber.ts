// Polls the AMBER alert list (lib/feeds/alerts/poll.ts) every minute (tasks/poll-schedule.ts).
import type { Task } from "graphile-worker";
import { pollAmberAlerts, type AlertFeedConfig } from "../lib/feeds/alerts/poll.ts";
import { feedUrl } from "../lib/feeds/poll-feed.ts";
import { pollEvery } from "./poll-schedule.ts";

export const makeAlertsPollAmber = (config: AlertFeedConfig): Task =>
  pollEvery(60, feedUrl(config) !== undefined, (helpers) =>
    helpers.withPgClient((client) => pollAmberAlerts(client, config, helpers.logger)),
  );
