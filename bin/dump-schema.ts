// graphile-migrate's afterAllMigrations hook on the shadow database (see .gmrc): writes
// sql/schema.sql, the reviewed dump of what the migrations build.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { ROOT_DIR } from "../lib/paths.ts";
import { dumpSchema } from "../lib/db/schema-dump.ts";

const url = process.env.GM_DBURL;
if (!url) {
  console.error("GM_DBURL is not set: this script is run by graphile-migrate (npm run db -- commit).");
  process.exit(1);
}
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  fs.writeFileSync(path.join(ROOT_DIR, "sql", "schema.sql"), await dumpSchema(client));
} finally {
  await client.end();
}
