// graphile-migrate, driven from code with the settings of .gmrc, so `npm start`, the test harness
// and a DBA's `npm run db -- <command>` all apply migrations the same way.
import fs from "node:fs";
import path from "node:path";
import { Logger, migrate, run, type Settings } from "graphile-migrate";
import { log } from "../ops/log.ts";
import { ROOT_DIR } from "../paths.ts";
import { pgUrl } from "./pg-url.ts";

function gmrc(): Settings {
  const settings = JSON.parse(fs.readFileSync(path.join(ROOT_DIR, ".gmrc"), "utf8"));
  delete settings["//"];
  return { ...settings, migrationsFolder: path.join(ROOT_DIR, "migrations") };
}

// Warnings and errors only: the entry points say what they did themselves. graphile-migrate keeps
// idle pools for a while; their connections ending when we stop the embedded server is expected.
const quietLogger = new Logger(() => (level, message) => {
  if (message.includes("terminating connection due to administrator command")) return;
  if (level === "error" || level === "warning") log.at(level, `graphile-migrate: ${message}`);
});

/** Applies every committed migration that has not run yet (never the current one). */
export async function runMigrations(ownerUrl: string, rootUrl?: string): Promise<void> {
  const settings: Settings = { ...gmrc(), connectionString: ownerUrl, logger: quietLogger };
  if (rootUrl) settings.rootConnectionString = rootUrl;
  await migrate(settings);
}

/** Runs migrations/afterReset.sql as the superuser inside the given database. */
export async function runAfterReset(options: { rootUrl: string; databaseName: string; ownerRole: string }) {
  const { rootUrl, databaseName, ownerRole } = options;
  const settings: Settings = {
    ...gmrc(),
    connectionString: pgUrl(rootUrl, { database: databaseName }),
    rootConnectionString: rootUrl,
    databaseOwner: ownerRole,
    logger: quietLogger,
  };
  const file = path.join(ROOT_DIR, "migrations", "afterReset.sql");
  await run(settings, fs.readFileSync(file, "utf8"), file, { root: true });
}
