// Creates what migrations cannot: the cluster-wide roles and the database itself, as a superuser.
// Used by the embedded default, by ROOT_DATABASE_URL set-ups and by the test harness.
import pg from "pg";
import { runAfterReset } from "./migrate.ts";

export const ROLES = {
  authenticator: "app_authenticator",
  visitor: "app_visitor",
  analyst: "app_analyst",
} as const;

export interface RolePasswords {
  /** Login password of the owner; null leaves an existing password alone. */
  owner: string | null;
  authenticator: string | null;
  analyst: string | null;
}

export interface BootstrapOptions {
  rootUrl: string;
  databaseName: string;
  ownerRole: string;
  passwords: RolePasswords;
}

async function ensureRole(client: pg.Client, name: string, attributes: string, password: string | null) {
  const { rowCount } = await client.query("select 1 from pg_roles where rolname = $1", [name]);
  const ident = client.escapeIdentifier(name);
  if (!rowCount) await client.query(`create role ${ident} ${attributes}`);
  else await client.query(`alter role ${ident} ${attributes}`);
  if (password !== null) {
    await client.query(`alter role ${ident} password ${client.escapeLiteral(password)}`);
  }
}

/**
 * Roles and database, idempotently; returns true when the database was created now. The
 * afterReset script runs every time: it is idempotent, and so a bootstrap that was interrupted
 * right after CREATE DATABASE is completed by the next one.
 */
export async function ensureRolesAndDatabase(options: BootstrapOptions): Promise<boolean> {
  const { rootUrl, databaseName, ownerRole, passwords } = options;
  const client = new pg.Client({ connectionString: rootUrl });
  await client.connect();
  let created = false;
  try {
    // Roles are shared by every database of the cluster; concurrent bootstraps (parallel test
    // workers) take turns.
    await client.query("select pg_advisory_lock(hashtext('app_roles_bootstrap'))");
    await ensureRole(client, ownerRole, "login nosuperuser nocreaterole", passwords.owner);
    await ensureRole(client, ROLES.visitor, "nologin", null);
    await ensureRole(client, ROLES.authenticator, "login noinherit nosuperuser nocreatedb nocreaterole", passwords.authenticator);
    await ensureRole(client, ROLES.analyst, "login nosuperuser nocreatedb nocreaterole", passwords.analyst);
    // Analysts query production data by hand: read-only, with a time limit.
    await client.query(`alter role ${ROLES.analyst} set default_transaction_read_only = on`);
    await client.query(`alter role ${ROLES.analyst} set statement_timeout = '60s'`);
    await client.query(`grant ${ROLES.visitor} to ${ROLES.authenticator}`);

    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [databaseName]);
    if (!rowCount) {
      await client.query(
        `create database ${client.escapeIdentifier(databaseName)} owner ${client.escapeIdentifier(ownerRole)}`,
      );
      created = true;
    }
  } finally {
    await client.query("select pg_advisory_unlock(hashtext('app_roles_bootstrap'))").catch(() => {});
    await client.end();
  }
  await runAfterReset({ rootUrl, databaseName, ownerRole });
  return created;
}
