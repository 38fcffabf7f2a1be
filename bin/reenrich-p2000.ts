// `npm run p2000:reenrich -- [--batch 5000] [--after UUID]`: enriches the stored P2000 messages again
// with the current rules and reference data (lib/p2000/reenrich.ts), in batches of short
// transactions, printing its progress and the uuid to resume after. Only messages whose enrichment
// changes are written. Works against DATABASE_URL or the embedded default.
import { parseArgs } from "node:util";
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";
import { messagesAfter, REENRICH_BATCH_SIZE, reenrichP2000Messages } from "../lib/p2000/reenrich.ts";

const USAGE = `Usage: npm run p2000:reenrich -- [--batch N (default ${REENRICH_BATCH_SIZE})] [--after UUID (resume)]`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function main() {
  let values: { batch?: string; after?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { batch: { type: "string" }, after: { type: "string" }, help: { type: "boolean", short: "h" } },
    }));
  } catch {
    console.error(USAGE);
    process.exit(2);
  }
  const batchSize = values.batch === undefined ? REENRICH_BATCH_SIZE : Number(values.batch);
  if (values.help || !Number.isInteger(batchSize) || batchSize < 1 || (values.after && !UUID.test(values.after))) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const database = await prepareDatabase(loadConfig().database);
  const pool = new pg.Pool({ connectionString: database.ownerUrl, max: 1 });
  try {
    const after = values.after ?? null;
    const total = await messagesAfter(pool, after);
    console.log(`Re-enriching ${total} messages${after ? ` after ${after}` : ""}, ${batchSize} a batch.`);
    const started = Date.now();
    const result = await reenrichP2000Messages(pool, {
      batchSize,
      after,
      onBatch: (p) => {
        const percent = total ? Math.min(100, (100 * p.scanned) / total).toFixed(1) : "100.0";
        const seconds = (Date.now() - started) / 1000;
        console.log(
          `${p.scanned}/${total} read (${percent}%), ${p.changed} changed, ${Math.round(p.scanned / seconds)}/s; ` +
            `resume with --after ${p.lastUuid}`,
        );
      },
    });
    console.log(
      `Done: ${result.scanned} messages read, ${result.changed} changed, in ${result.batches} batch${result.batches === 1 ? "" : "es"}.`,
    );
  } finally {
    await pool.end();
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
