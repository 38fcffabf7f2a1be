// Fills a new installation with the demo traffic (lib/feeds/traffic/demo-data.ts). Queued by the
// server on the first start of the embedded default with DEMO_DATA.
import type { Task } from "graphile-worker";
import { loadTrafficDemo } from "../lib/feeds/traffic/demo-data.ts";

export const traffic__load_demo: Task = async (_payload, helpers) => {
  await helpers.withPgClient((client) => loadTrafficDemo(client));
  helpers.logger.info('Demo data: three traffic incidents and a jam (ids "DEMO_…").');
};
