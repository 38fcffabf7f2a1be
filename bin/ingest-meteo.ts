// `npm run ingest:meteo -- FILE [FILE …]`: stores weather documents once, in the order given: a
// warnings XML (KNMI 48-hour province warnings) or an observations JSON array, told apart by
// content. A malformed or truncated file is rejected whole (nothing changes, exit 1); bad records
// in a good file are skipped and counted. Works against DATABASE_URL or the embedded default (a
// running `npm start` is reused).
import fs from "node:fs";
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";
import { FeedDocumentError } from "../lib/feeds/records.ts";
import { analyzeTables } from "../lib/db/fresh-statistics.ts";
import { describeIngest, ingestMeteoDocument, METEO_STORED_TABLES } from "../lib/feeds/meteo/ingest.ts";

const files = process.argv.slice(2);
if (files.length === 0 || files.some((file) => !fs.existsSync(file))) {
  console.error("Usage: npm run ingest:meteo -- FILE [FILE …]   (a warnings XML or an observations JSON array each)");
  process.exit(2);
}
const database = await prepareDatabase(loadConfig());
const pool = new pg.Pool({ connectionString: database.ownerUrl, max: 1 });
let failed = false;
try {
  for (const file of files) {
    try {
      const result = await ingestMeteoDocument(pool, fs.readFileSync(file, "utf8"), file);
      console.log(`${file}: ${describeIngest(result)}`);
      for (const problem of result.problems) console.error(`  skipped: ${problem}`);
    } catch (error) {
      // Reported per file, and the next files are still read.
      failed = true;
      const why = error instanceof FeedDocumentError ? "rejected whole" : "not stored";
      console.error(`${file}: ${why}, nothing changed: ${(error as Error).message}`);
    }
  }
  // Many files are a bulk load: fresh statistics for the next reads (lib/db/fresh-statistics.ts).
  if (files.length > 1) await analyzeTables(pool, METEO_STORED_TABLES);
} finally {
  await pool.end();
  await database.close();
}
process.exit(failed ? 1 : 0);
