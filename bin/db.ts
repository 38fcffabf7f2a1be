// `npm run db -- <graphile-migrate command>`: runs graphile-migrate (commit, uncommit, watch,
// reset, status, …) against the embedded default or DATABASE_URL, with the connection strings it
// needs set for it. Example: npm run db -- commit --message "p2000 messages"
import { spawn } from "node:child_process";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { connectDatabase } from "../lib/db/database.ts";
import { ROOT_DIR } from "../lib/paths.ts";
import { pgUrl } from "../lib/db/pg-url.ts";

const config = loadConfig().database;
const database = await connectDatabase(config, (line) => {
  if (/FATAL|PANIC/.test(line)) console.error(`[postgres] ${line}`);
});

function shadowUrl(): string | undefined {
  if (config.shadowUrl) return config.shadowUrl;
  if (!database.embedded) return undefined;
  return pgUrl(database.ownerUrl, { database: `${config.name}_shadow` });
}

const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.ownerUrl };
if (database.rootUrl) env.ROOT_DATABASE_URL = database.rootUrl;
const shadow = shadowUrl();
if (shadow) env.SHADOW_DATABASE_URL = shadow;

const child = spawn(path.join(ROOT_DIR, "node_modules", ".bin", "graphile-migrate"), process.argv.slice(2), {
  cwd: ROOT_DIR,
  env,
  stdio: "inherit",
});
const code = await new Promise<number>((resolve) => child.on("exit", (status) => resolve(status ?? 1)));
await database.close();
process.exit(code);
