// Creates what migrations cannot: the cluster-wide roles and the database itself, as a superuser.
// Used by the embedded default, by ROOT_DATABASE_URL set-ups and by the test harness.
import pg from "pg";
import { runAfterReset } from "./migrate.ts";

export const ROLES = {
  authenticator: "app_authenticator",
  visitor: "app_visitor",
  analyst: "app_analyst",
} as const;

/** Passwords of roles created now; a role that exists keeps its password. */
export interface RolePasswords {
  owner: string | null;
  authenticator: string | null;
  analyst: string | null;
}

export interface BootstrapOptions {
  rootUrl: string;
  databaseName: string;
  ownerRole: string;
  passwords: RolePasswords;
  /**
   * The owner's login also serves GraphQL requests (no AUTH_DATABASE_URL): it is then made a
   * member of app_visitor, the role every request switches to.
   */
  ownerServesRequests?: boolean;
}

/**
 * Creates a missing role with the given attributes. A role that exists is a DBA's: its superuser,
 * createrole, login and other attributes are never changed (an earlier version demoted a superuser
 * DATABASE_URL login this way). Returns whether the role was created now.
 */
async function createRoleIfMissing(
  client: pg.Client,
  name: string,
  attributes: string,
  password: string | null,
): Promise<boolean> {
  const { rowCount } = await client.query("select 1 from pg_roles where rolname = $1", [name]);
  if (rowCount) return false;
  const withPassword = password === null ? "" : ` password ${client.escapeLiteral(password)}`;
  await client.query(`create role ${client.escapeIdentifier(name)} ${attributes}${withPassword}`);
  return true;
}

/**
 * Row-level security is the service's access control: it does not apply to superusers and roles
 * with BYPASSRLS, so the roles that serve requests and analysts must not be either. Such a role
 * is refused with the statement that fixes it rather than changed behind the DBA's back.
 */
export async function assertRowSecurityApplies(client: pg.Client, name: string): Promise<void> {
  const {
    rows: [role],
  } = await client.query<{ rolsuper: boolean; rolbypassrls: boolean }>(
    "select rolsuper, rolbypassrls from pg_roles where rolname = $1",
    [name],
  );
  if (role && (role.rolsuper || role.rolbypassrls)) {
    throw new Error(
      `The role ${name} exists with ${role.rolsuper ? "SUPERUSER" : "BYPASSRLS"}, so row-level security would not ` +
        `apply to it. Run "ALTER ROLE ${name} NOSUPERUSER NOBYPASSRLS;" as a superuser, or drop the role, and start again.`,
    );
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
    // The owner may be any login the DBA chose, a superuser too: it is used as it is.
    await createRoleIfMissing(client, ownerRole, "login nosuperuser nocreaterole", passwords.owner);
    await createRoleIfMissing(client, ROLES.visitor, "nologin", null);
    await createRoleIfMissing(
      client,
      ROLES.authenticator,
      "login noinherit nosuperuser nocreatedb nocreaterole",
      passwords.authenticator,
    );
    if (
      await createRoleIfMissing(client, ROLES.analyst, "login nosuperuser nocreatedb nocreaterole", passwords.analyst)
    ) {
      // Analysts query production data by hand: read-only, with a time limit (a DBA may change both later).
      await client.query(`alter role ${ROLES.analyst} set default_transaction_read_only = on`);
      await client.query(`alter role ${ROLES.analyst} set statement_timeout = '60s'`);
    }
    for (const role of Object.values(ROLES)) await assertRowSecurityApplies(client, role);
    await client.query(`grant ${ROLES.visitor} to ${ROLES.authenticator}`);
    if (options.ownerServesRequests)
      await client.query(`grant ${ROLES.visitor} to ${client.escapeIdentifier(ownerRole)}`);

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
