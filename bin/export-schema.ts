// `npm run schema:export`: writes schema.graphql from the live schema of the embedded default
// (or DATABASE_URL), after applying committed migrations.
import fs from "node:fs";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";
import { ROOT_DIR } from "../lib/paths.ts";
import { printServiceSchema } from "../graphile.config.ts";

const database = await prepareDatabase(loadConfig().database);
try {
  const file = path.join(ROOT_DIR, "schema.graphql");
  fs.writeFileSync(file, await printServiceSchema(database.authUrl));
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
} catch (error) {
  // Said before the database closes: its idle pools could otherwise end the process first.
  console.error(error);
  process.exitCode = 1;
} finally {
  await database.close();
}
