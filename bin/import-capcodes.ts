// `npm run import:capcodes -- FILE.csv`: upserts a capcode list (capcode,discipline,region,location,
// description,remark) with a progress bar, against DATABASE_URL or the embedded default.
import { SingleBar, Presets } from "cli-progress";
import fs from "node:fs";
import pg from "pg";
import { importCapcodes } from "../lib/capcode-import.ts";
import { loadConfig } from "../lib/config.ts";
import { prepareDatabase } from "../lib/database.ts";

async function main() {
  const file = process.argv[2];
  if (!file || !fs.existsSync(file)) {
    console.error("Usage: npm run import:capcodes -- FILE.csv   (header: capcode,discipline,region,location,description,remark)");
    process.exit(2);
  }
  const database = await prepareDatabase(loadConfig());
  const pool = new pg.Pool({ connectionString: database.ownerUrl, max: 2 });
  const stream = fs.createReadStream(file);
  const bar = new SingleBar({ format: "capcodes [{bar}] {percentage}% | {value}/{total} KiB", stream: process.stderr, noTTYOutput: true, notTTYSchedule: 2000 }, Presets.shades_classic);
  bar.start(Math.ceil(fs.statSync(file).size / 1024), 0);
  try {
    const result = await importCapcodes(pool, stream, { onBatch: () => bar.update(Math.ceil(stream.bytesRead / 1024)) });
    bar.update(Math.ceil(fs.statSync(file).size / 1024));
    bar.stop();
    console.log(`${result.rows} rows: ${result.imported} capcodes imported or updated, ${result.rejected} rejected.`);
  } finally {
    bar.stop();
    await pool.end();
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
