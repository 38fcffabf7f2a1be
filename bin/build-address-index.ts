// `npm run build:address-index -- "REGISTER"`: writes data/addresses/ (lib/addresses/shipped-index.ts)
// from the provinces imported into the database (`npm run import:addresses` first). REGISTER says
// which register file the rows come from, for the manifest and docs.
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { buildShippedIndex } from "../lib/addresses/shipped-index.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";

const register = process.argv[2];
if (!register) {
  console.error('Usage: npm run build:address-index -- "BAG extract, source and date"');
  process.exit(2);
}
const database = await prepareDatabase(loadConfig().database);
const client = new pg.Client({ connectionString: database.ownerUrl });
await client.connect();
try {
  const { rows } = await client.query<{ province: string }>(
    "select distinct province from app_hidden.address_streets where source = 'import' order by 1",
  );
  await buildShippedIndex(
    client,
    rows.map((r) => r.province),
    register,
  );
  console.log(`data/addresses/ written: ${rows.map((r) => r.province).join(", ")}.`);
} finally {
  await client.end();
  await database.close();
}
