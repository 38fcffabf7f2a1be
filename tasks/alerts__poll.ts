// Polls the AMBER alert list and the NL-Alert list (lib/feeds/alerts/poll.ts); both scheduled
// every minute in tasks/index.ts.
import type { Task } from "graphile-worker";
import { pollAmberAlerts, pollNlAlerts, type AlertFeedConfig } from "../lib/feeds/alerts/poll.ts";

export const makeAlertsPollAmber = (config: AlertFeedConfig): Task => async (_payload, helpers) => {
  await helpers.withPgClient((client) => pollAmberAlerts(client, config, helpers.logger));
};

export const makeAlertsPollNl = (config: AlertFeedConfig): Task => async (_payload, helpers) => {
  await helpers.withPgClient((client) => pollNlAlerts(client, config, helpers.logger));
};
