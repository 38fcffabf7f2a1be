// Fills a new installation with the demo weather (lib/feeds/meteo/demo-data.ts). Queued by the
// server on the first start of the embedded default with DEMO_DATA.
import type { Task } from "graphile-worker";
import { loadMeteoDemo } from "../lib/feeds/meteo/demo-data.ts";

export const meteo__load_demo: Task = async (_payload, helpers) => {
  const stored = await helpers.withPgClient((client) => loadMeteoDemo(client));
  helpers.logger.info(`Demo data: ${stored} synthetic weather documents (source "demo").`);
};
