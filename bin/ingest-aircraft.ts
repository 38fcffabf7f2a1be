// `npm run ingest:aircraft -- FILE [FILE …]`: stores recorded aircraft.json documents in the order
// given, as the poller does (time from each document's own `now`, so a replay gives the routes and
// events the live feed gave; reading the same files again changes nothing).
// `npm run ingest:aircraft -- --follow FILE`: reads FILE each time the receiver rewrites it (readsb
// writes aircraft.json every second) until interrupted.
import fs from "node:fs";
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { describeAircraftIngest, ingestAircraftDocument } from "../lib/feeds/aircraft/ingest.ts";
import { runFeedCommand } from "../lib/setup/feed-cli.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";

const follow = process.argv[2] === "--follow" ? process.argv[3] : undefined;

if (follow) {
  if (!fs.existsSync(follow)) {
    console.error("Usage: npm run ingest:aircraft -- --follow FILE");
    process.exit(2);
  }
  const database = await prepareDatabase(loadConfig().database);
  const pool = new pg.Pool({ connectionString: database.ownerUrl, max: 1 });
  let busy = false;
  const read = async () => {
    if (busy) return;
    busy = true;
    try {
      const result = await ingestAircraftDocument(pool, fs.readFileSync(follow, "utf8"), follow);
      if (result.takeOffs + result.landings > 0)
        console.log(`${new Date().toISOString()} ${describeAircraftIngest(result)}`);
    } catch (error) {
      // The receiver may be halfway through rewriting the file: the next change reads it whole.
      console.error(`${follow}: ${(error as Error).message}`);
    } finally {
      busy = false;
    }
  };
  fs.watchFile(follow, { interval: 500 }, () => void read());
  await read();
  console.log(`Following ${follow}; Ctrl-C stops.`);
  const stop = async () => {
    fs.unwatchFile(follow);
    await pool.end();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
} else {
  await runFeedCommand({
    usage: "npm run ingest:aircraft -- FILE [FILE …]   or   npm run ingest:aircraft -- --follow FILE",
    async ingest(pool, file) {
      return {
        summary: describeAircraftIngest(await ingestAircraftDocument(pool, fs.readFileSync(file, "utf8"), file)),
        problems: [],
      };
    },
  });
}
