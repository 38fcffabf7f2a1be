// One embedded PostgreSQL for the whole run, in a temporary directory, with a migrated template
// database that every test file clones (test/helpers/database.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { prepareDatabase, EMBEDDED_OWNER } from "../lib/db/database.ts";
import { startEmbeddedPostgres } from "../lib/db/embedded-postgres.ts";
import { loadConfig } from "../lib/config.ts";
import { loadOrCreateSecrets } from "../lib/db/secrets.ts";
import { ensureRolesAndDatabase } from "../lib/db/bootstrap.ts";
import { pgUrl } from "../lib/db/pg-url.ts";
import { TEMPLATE_DATABASE } from "./helpers/template.ts";
import { freePort } from "./helpers/ports.ts";



export default async function globalSetup(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "incidents-test-"));
  fs.chmodSync(dir, 0o755);
  const secrets = loadOrCreateSecrets(dir);
  const cluster = await startEmbeddedPostgres({
    clusterDir: path.join(dir, "postgres"),
    port: await freePort(),
    superuserPassword: secrets.superuserPassword,
    // Durability is pointless for a throw-away cluster and costs most of the test time.
    settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
  });
  const ownerUrl = pgUrl(cluster.rootUrl, { user: EMBEDDED_OWNER, password: secrets.ownerPassword, database: TEMPLATE_DATABASE });
  await ensureRolesAndDatabase({
    rootUrl: cluster.rootUrl,
    databaseName: TEMPLATE_DATABASE,
    ownerRole: EMBEDDED_OWNER,
    passwords: { owner: secrets.ownerPassword, authenticator: secrets.authenticatorPassword, analyst: secrets.analystPassword },
  });
  await prepareDatabase({ ...loadConfig(), databaseUrl: ownerUrl });

  // Test workers inherit the environment; global-teardown reads the same values.
  process.env.TEST_PG_DIR = dir;
  process.env.TEST_ROOT_URL = cluster.rootUrl;
  (globalThis as { __stopTestCluster?: () => Promise<void> }).__stopTestCluster = async () => {
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
