// `npm run ingest:meteo -- FILE [FILE …]`: stores weather documents once, in the order given: a
// warnings XML (KNMI 48-hour province warnings) or an observations JSON array, told apart by
// content. A malformed or truncated file is rejected whole (nothing changes, exit 1); bad records
// in a good file are skipped and counted. Works against DATABASE_URL or the embedded default (a
// running `npm start` is reused).
import fs from "node:fs";
import { analyzeTables } from "../lib/db/fresh-statistics.ts";
import { describeIngest, ingestMeteoDocument, METEO_STORED_TABLES } from "../lib/feeds/meteo/ingest.ts";
import { runFeedCommand } from "../lib/setup/feed-cli.ts";

await runFeedCommand({
  usage: "npm run ingest:meteo -- FILE [FILE …]   (a warnings XML or an observations JSON array each)",
  async ingest(pool, file) {
    const result = await ingestMeteoDocument(pool, fs.readFileSync(file, "utf8"), file);
    return { summary: describeIngest(result), problems: result.problems };
  },
  // Many files are a bulk load: fresh statistics for the next reads (lib/db/fresh-statistics.ts).
  async afterAll(pool, files) {
    if (files.length > 1) await analyzeTables(pool, METEO_STORED_TABLES);
  },
});
