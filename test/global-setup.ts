// One PostgreSQL for the whole run with a migrated template database that every test file clones
// (test/helpers/database.ts). Which server, in this order:
//   TEST_DATABASE_URL  a superuser login of a running server (any supported version);
//   TEST_PG_BIN        a directory of PostgreSQL binaries (e.g. /usr/lib/postgresql/15/bin): a
//                      throw-away cluster of that version;
//   neither            the embedded default's binaries, in a throw-away cluster.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { EMBEDDED_OWNER } from "../lib/db/database.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";
import { startEmbeddedPostgres } from "../lib/db/embedded-postgres.ts";
import { loadConfig } from "../lib/config.ts";
import { loadOrCreateSecrets, type LocalSecrets } from "../lib/db/secrets.ts";
import { ensureRolesAndDatabase, ROLES } from "../lib/db/bootstrap.ts";
import { pgUrl } from "../lib/db/pg-url.ts";
import { freePort } from "./helpers/ports.ts";

interface TestServer {
  rootUrl: string;
  stop(): Promise<void>;
}

async function throwAwayCluster(dir: string, secrets: LocalSecrets, binDir: string | undefined): Promise<TestServer> {
  const cluster = await startEmbeddedPostgres({
    clusterDir: path.join(dir, "postgres"),
    port: await freePort(),
    superuserPassword: secrets.superuserPassword,
    binDir,
    // Durability is pointless for a throw-away cluster and costs most of the test time.
    settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
  });
  return { rootUrl: cluster.rootUrl, stop: cluster.stop };
}

/**
 * A server of someone else's: the harness acts as its DBA. Roles are cluster-wide and may be left
 * from an earlier run with other passwords, so it sets this run's passwords on them.
 */
async function externalServer(rootUrl: string, secrets: LocalSecrets, templateDatabase: string): Promise<TestServer> {
  const passwords: Record<string, string> = {
    [EMBEDDED_OWNER]: secrets.ownerPassword,
    [ROLES.authenticator]: secrets.authenticatorPassword,
    [ROLES.analyst]: secrets.analystPassword,
  };
  const client = new pg.Client({ connectionString: rootUrl });
  await client.connect();
  try {
    for (const [role, password] of Object.entries(passwords)) {
      const exists = await client.query("select 1 from pg_roles where rolname = $1", [role]);
      if (exists.rowCount) await client.query(`alter role ${role} password ${client.escapeLiteral(password)}`);
    }
  } finally {
    await client.end();
  }
  return {
    rootUrl,
    async stop() {
      const client = new pg.Client({ connectionString: rootUrl });
      await client.connect();
      await client.query(`drop database if exists ${templateDatabase} with (force)`);
      await client.end();
    },
  };
}

export default async function globalSetup(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "incidents-test-"));
  fs.chmodSync(dir, 0o755);
  const secrets = loadOrCreateSecrets(dir);
  // Unique per run, so that runs may share an external server.
  const templateDatabase = `incidents_template_${randomBytes(4).toString("hex")}`;
  const external = process.env.TEST_DATABASE_URL;
  const server = external
    ? await externalServer(external, secrets, templateDatabase)
    : await throwAwayCluster(dir, secrets, process.env.TEST_PG_BIN || undefined);

  const ownerUrl = pgUrl(server.rootUrl, {
    user: EMBEDDED_OWNER,
    password: secrets.ownerPassword,
    database: templateDatabase,
  });
  await ensureRolesAndDatabase({
    rootUrl: server.rootUrl,
    databaseName: templateDatabase,
    ownerRole: EMBEDDED_OWNER,
    passwords: {
      owner: secrets.ownerPassword,
      authenticator: secrets.authenticatorPassword,
      analyst: secrets.analystPassword,
    },
  });
  await prepareDatabase({ ...loadConfig().database, url: ownerUrl });

  const root = new pg.Client({ connectionString: server.rootUrl });
  await root.connect();
  const {
    rows: [{ server_version }],
  } = await root.query("show server_version");
  await root.end();
  const where = external ? "TEST_DATABASE_URL" : process.env.TEST_PG_BIN ? process.env.TEST_PG_BIN : "embedded";
  console.log(`\nTests run on PostgreSQL ${server_version} (${where}).`);

  // Test workers inherit the environment; global-teardown reads the same values. Tests feed the
  // feeds from local servers: the public sources are never polled (every `npm start` a test runs
  // inherits this too).
  process.env.TRAFFIC_FEED_ENABLED = "false";
  process.env.AMBER_FEED_ENABLED = "false";
  process.env.NL_ALERT_FEED_ENABLED = "false";
  process.env.METEO_FEED_ENABLED = "false";
  // Nor the base map's tiles (PDOK's by default): the map tests name a local tile server.
  process.env.MAP_TILE_URL = "";
  process.env.TEST_PG_DIR = dir;
  process.env.TEST_ROOT_URL = server.rootUrl;
  process.env.TEST_TEMPLATE_DATABASE = templateDatabase;
  (globalThis as { __stopTestServer?: () => Promise<void> }).__stopTestServer = async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
