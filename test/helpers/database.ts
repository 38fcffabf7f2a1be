// Each test file gets its own database, cloned from the migrated template of global-setup.ts
// (named per run in TEST_TEMPLATE_DATABASE).
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll } from "@jest/globals";
import pg from "pg";
import { EMBEDDED_OWNER } from "../../lib/db/database.ts";
import type { Database } from "../../lib/setup/installation.ts";
import { ROLES } from "../../lib/db/bootstrap.ts";
import { pgUrl } from "../../lib/db/pg-url.ts";
import { resilientPool } from "../../lib/db/pool.ts";
import { loadOrCreateSecrets } from "../../lib/db/secrets.ts";

export interface TestDatabase extends Database {
  name: string;
  /** Runs SQL as the owner (no RLS for owned tables). */
  asOwner<T extends pg.QueryResultRow = any>(sql: string, params?: unknown[]): Promise<pg.QueryResult<T>>;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const rootUrl = process.env.TEST_ROOT_URL!;
  const secrets = loadOrCreateSecrets(path.resolve(process.env.TEST_PG_DIR!));
  const name = `test_${randomBytes(6).toString("hex")}`;
  const root = new pg.Client({ connectionString: rootUrl });
  await root.connect();
  try {
    // A template can be cloned by one CREATE DATABASE at a time.
    await root.query("select pg_advisory_lock(hashtext('clone_template'))");
    await root.query(`create database ${name} template ${process.env.TEST_TEMPLATE_DATABASE} owner ${EMBEDDED_OWNER}`);
    await root.query("select pg_advisory_unlock(hashtext('clone_template'))");
  } finally {
    await root.end();
  }
  const ownerUrl = pgUrl(rootUrl, { user: EMBEDDED_OWNER, password: secrets.ownerPassword, database: name });
  // Its connections end when the database is dropped (with force): that must not crash the run.
  const owner = resilientPool({ connectionString: ownerUrl, max: 2 });
  const {
    rows: [installation],
  } = await owner.query("select operator_environment_uuid from app_private.installation");
  return {
    name,
    ownerUrl,
    authUrl: pgUrl(rootUrl, { user: ROLES.authenticator, password: secrets.authenticatorPassword, database: name }),
    analystUrl: pgUrl(rootUrl, { user: ROLES.analyst, password: secrets.analystPassword, database: name }),
    rootUrl,
    embedded: false,
    firstStart: false,
    operatorEnvironmentUuid: installation.operator_environment_uuid,
    close: async () => {},
    asOwner: (sql, params) => owner.query(sql, params),
    async drop() {
      await owner.end();
      const client = new pg.Client({ connectionString: rootUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A database for the whole test file: created before its tests, dropped after them. */
export function useTestDatabase(): { db: TestDatabase } {
  const context = {} as { db: TestDatabase };
  beforeAll(async () => {
    context.db = await createTestDatabase();
  });
  afterAll(async () => {
    await context.db?.drop();
  });
  return context;
}
