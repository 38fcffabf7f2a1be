// `npm run ingest:alerts -- FILE [FILE …]`: stores AMBER alert lists (a JSON array, the whole
// list at its time: alerts it lacks have ended) and NL-Alert pages ({"data": [...]}), told apart
// by their shape, as the pollers do. A malformed file is rejected whole (nothing changes, exit 1).
import fs from "node:fs";
import { ingestAlertsDocument } from "../lib/feeds/alerts/ingest.ts";
import { runFeedCommand } from "../lib/setup/feed-cli.ts";

await runFeedCommand({
  usage: "npm run ingest:alerts -- FILE [FILE …]   (AMBER alert JSON or NL-Alert JSON)",
  ingest: (pool, file) => ingestAlertsDocument(pool, fs.readFileSync(file), file),
});
