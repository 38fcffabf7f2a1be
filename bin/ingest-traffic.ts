// `npm run ingest:traffic -- FILE [FILE …]`: stores DATEX II situation publications (gzipped or
// plain XML, the v2 SOAP envelope or the v3 message container) once each, in the order given, as
// the poller does: each file is taken as the whole feed at its time, so incidents it lacks are
// closed. A malformed or truncated file is rejected whole (nothing changes, exit 1).
import fs from "node:fs";
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { FeedDocumentError } from "../lib/feeds/records.ts";
import { describeTrafficIngest, ingestTrafficDocument } from "../lib/feeds/traffic/ingest.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";

const files = process.argv.slice(2);
if (files.length === 0 || files.some((file) => !fs.existsSync(file))) {
  console.error("Usage: npm run ingest:traffic -- FILE [FILE …]   (DATEX II XML, gzipped or plain)");
  process.exit(2);
}
const database = await prepareDatabase(loadConfig());
const pool = new pg.Pool({ connectionString: database.ownerUrl, max: 1 });
let failed = false;
try {
  for (const file of files) {
    try {
      const result = await ingestTrafficDocument(pool, fs.createReadStream(file), file);
      console.log(`${file}: ${describeTrafficIngest(result)}`);
      for (const problem of result.problems) console.error(`  skipped: ${problem}`);
    } catch (error) {
      // Reported per file, and the next files are still read.
      failed = true;
      const why = error instanceof FeedDocumentError ? "rejected whole" : "not stored";
      console.error(`${file}: ${why}, nothing changed: ${(error as Error).message}`);
    }
  }
} finally {
  await pool.end();
  await database.close();
}
process.exit(failed ? 1 : 0);
