// Fills a new installation with the demo alerts (lib/feeds/alerts/demo-data.ts). Queued by the
// server on the first start of the embedded default with DEMO_DATA.
import type { Task } from "graphile-worker";
import { loadAlertsDemo } from "../lib/feeds/alerts/demo-data.ts";

export const alerts__load_demo: Task = async (_payload, helpers) => {
  await helpers.withPgClient((client) => loadAlertsDemo(client));
  helpers.logger.info('Demo data: one ended AMBER alert and two NL-Alerts (ids "DEMO…"/"demo…").');
};
