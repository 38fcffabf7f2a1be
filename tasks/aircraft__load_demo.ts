// Fills a new installation with the demo flights (lib/feeds/aircraft/demo-data.ts). Queued by the
// server on the first start of the embedded default with DEMO_DATA.
import type { Task } from "graphile-worker";
import { loadAircraftDemo } from "../lib/feeds/aircraft/demo-data.ts";

export const aircraft__load_demo: Task = async (_payload, helpers) => {
  const documents = await helpers.withPgClient((client) => loadAircraftDemo(client));
  helpers.logger.info(`Demo data: two flights of PH-DEMO (${documents} aircraft.json documents, source "demo").`);
};
