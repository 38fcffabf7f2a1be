// A ready installation, the path the server, the CLIs, the benchmarks and the test harness take:
// the database connected (lib/db/database.ts), migrated, graphile-worker's schema installed, the
// operator environment made, and the reference data of the domains (places, the shipped address
// index, starter capcodes, highways, railway routes, province and safety-region boundaries, the
// aircraft fleet) loaded when missing or changed.
// It sits above the domains it fills, so lib/db/ stays the ground floor.
import path from "node:path";
import pg from "pg";
import { Logger, runMigrations as installWorkerSchema } from "graphile-worker";
import { connectDatabase, type DatabaseConfig, type DatabaseConnection } from "../db/database.ts";
import { runMigrations } from "../db/migrate.ts";
import { ROOT_DIR } from "../paths.ts";
import { loadStarterCapcodes } from "../p2000/capcode-import.ts";
import { loadBoundaries } from "../places/boundaries.ts";
import { loadPlaces } from "../places/reference-data.ts";
import { loadShippedAddresses } from "../addresses/shipped-index.ts";
import { loadHighways } from "../feeds/traffic/highways.ts";
import { loadPlainWords } from "../p2000/plain-words.ts";
import { loadRailRoutes } from "../feeds/rail/routes.ts";
import { loadAircraftContent, loadAircraftFleet } from "../feeds/aircraft/fleet.ts";

const quietWorkerLogger = new Logger(() => () => {});

export interface Database extends DatabaseConnection {
  /** True when this call created the operator environment (the installation's first start). */
  firstStart: boolean;
  operatorEnvironmentUuid: string;
}

// On failure the embedded server is left running (it stops when the process exits): stopping it
// here would make graphile-migrate's idle pool end the process before the error is reported.
export async function prepareDatabase(
  config: DatabaseConfig,
  log: (line: string) => void = () => {},
): Promise<Database> {
  const connection = await connectDatabase(config, log);
  await runMigrations(connection.ownerUrl, connection.rootUrl);
  // SQL functions queue jobs (e-mail), so the worker's schema must exist before the first request.
  await installWorkerSchema({ connectionString: connection.ownerUrl, logger: quietWorkerLogger });
  const client = new pg.Client({ connectionString: connection.ownerUrl });
  await client.connect();
  try {
    const {
      rows: [operator],
    } = await client.query("select environment_uuid, created from app_private.ensure_operator_environment()");
    await loadPlaces(client);
    // after the places: a woonplaats's streets are linked to its place
    await loadShippedAddresses(client);
    await loadStarterCapcodes(client, path.join(ROOT_DIR, "data", "capcodes-starter.csv"));
    await loadPlainWords(client, path.join(ROOT_DIR, "data", "p2000-plain-words.csv"));
    await loadHighways(client, path.join(ROOT_DIR, "data", "highways.csv"));
    await loadRailRoutes(client, path.join(ROOT_DIR, "data", "rail-routes.csv"));
    await loadBoundaries(client, path.join(ROOT_DIR, "data"));
    await loadAircraftFleet(client, path.join(ROOT_DIR, "data", "aircraft-fleet.csv"));
    await loadAircraftContent(client, path.join(ROOT_DIR, "data", "aircraft-content.json"));
    return { ...connection, firstStart: operator.created, operatorEnvironmentUuid: operator.environment_uuid };
  } finally {
    await client.end();
  }
}
