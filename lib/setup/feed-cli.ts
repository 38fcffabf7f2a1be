// The shared shape of the feed commands (`npm run ingest:<feed> -- FILE [FILE …]`): check the
// files, open DATABASE_URL or the embedded default, store each file in the order given and say
// what happened to it. A file that fails (rejected whole as malformed, or not stored) is reported
// and the next files are still read; the exit code is 1 when any failed.
import fs from "node:fs";
import pg from "pg";
import { loadConfig } from "../config.ts";
import { FeedDocumentError } from "../feeds/records.ts";
import { prepareDatabase } from "./installation.ts";

export interface FeedCommand {
  usage: string;
  /** Stores one file; returns the line to print and the reasons records were skipped. */
  ingest(pool: pg.Pool, file: string): Promise<{ summary: string; problems: string[] }>;
  /** After all files (a bulk load: fresh statistics, for instance). */
  afterAll?(pool: pg.Pool, files: string[]): Promise<void>;
}

export async function runFeedCommand(command: FeedCommand): Promise<never> {
  const files = process.argv.slice(2);
  if (files.length === 0 || files.some((file) => !fs.existsSync(file))) {
    console.error(`Usage: ${command.usage}`);
    process.exit(2);
  }
  const database = await prepareDatabase(loadConfig().database);
  const pool = new pg.Pool({ connectionString: database.ownerUrl, max: 1 });
  let failed = false;
  try {
    for (const file of files) {
      try {
        const { summary, problems } = await command.ingest(pool, file);
        console.log(`${file}: ${summary}`);
        for (const problem of problems) console.error(`  skipped: ${problem}`);
      } catch (error) {
        failed = true;
        const why = error instanceof FeedDocumentError ? "rejected whole" : "not stored";
        console.error(`${file}: ${why}, nothing changed: ${(error as Error).message}`);
      }
    }
    await command.afterAll?.(pool, files);
  } finally {
    await pool.end();
    await database.close();
  }
  process.exit(failed ? 1 : 0);
}
