// The bootstrap with ROOT_DATABASE_URL on a server that has a DBA: roles it needs are created,
// roles that exist are never changed (a superuser DATABASE_URL stays a superuser), and roles
// that must obey row-level security are refused, with the statement that fixes them, when they
// would not.
import { randomBytes } from "node:crypto";
import { afterAll, expect, test } from "@jest/globals";
import pg from "pg";
import { loadConfig } from "../../lib/config.ts";
import { assertRowSecurityApplies, ensureRolesAndDatabase } from "../../lib/db/bootstrap.ts";
import { prepareDatabase } from "../../lib/setup/installation.ts";
import { pgUrl } from "../../lib/db/pg-url.ts";
import { waitUntil } from "../helpers/wait.ts";

// Each of these prepares a whole installation on a new database (every migration, the reference
// data): on a busy 2-core machine that can take over a minute.
const INSTALLATION_TIMEOUT_MS = 180_000;

const rootUrl = process.env.TEST_ROOT_URL!;
const suffix = randomBytes(4).toString("hex");
const cleanup: string[] = [];

async function asRoot<T extends pg.QueryResultRow = any>(sql: string, params?: unknown[]): Promise<pg.QueryResult<T>> {
  const client = new pg.Client({ connectionString: rootUrl });
  await client.connect();
  try {
    return await client.query<T>(sql, params);
  } finally {
    await client.end();
  }
}

const attributesOf = async (role: string) =>
  (await asRoot("select rolsuper, rolcreaterole, rolcreatedb, rolcanlogin from pg_roles where rolname = $1", [role]))
    .rows[0];

afterAll(async () => {
  // graphile-migrate keeps its pools open a moment after use, and ends the process when one of
  // their connections is terminated: let them close before the databases are dropped.
  await waitUntil(
    async () =>
      (await asRoot("select count(*)::int as n from pg_stat_activity where datname like $1", [`%${suffix}`])).rows[0].n,
    (n) => n === 0,
    "graphile-migrate's pools to close",
  );
  for (const statement of cleanup.reverse()) await asRoot(statement);
});

test(
  "a superuser DATABASE_URL keeps its rights and gets a working database",
  async () => {
    const dba = `dba_${suffix}`;
    const database = `superuser_owned_${suffix}`;
    await asRoot(`create role ${dba} login superuser createrole password 'dba-password'`);
    cleanup.push(`drop role ${dba}`, `drop database if exists ${database} with (force)`);

    const prepared = await prepareDatabase({
      ...loadConfig().database,
      url: pgUrl(rootUrl, { user: dba, password: "dba-password", database }),
      rootUrl,
    });
    expect(prepared.firstStart).toBe(true);
    expect(await attributesOf(dba)).toEqual({
      rolsuper: true,
      rolcreaterole: true,
      rolcreatedb: false,
      rolcanlogin: true,
    });
    const {
      rows: [owner],
    } = await asRoot("select pg_get_userbyid(datdba) as owner from pg_database where datname = $1", [database]);
    expect(owner.owner).toBe(dba);
  },
  INSTALLATION_TIMEOUT_MS,
);

test(
  "a missing owner role is created without privileges; an existing one is left as it is",
  async () => {
    const created = `new_owner_${suffix}`;
    const existing = `old_owner_${suffix}`;
    await asRoot(`create role ${existing} login createdb createrole password 'old-password'`);
    cleanup.push(
      `drop role ${existing}`,
      `drop role ${created}`,
      `drop database if exists db_${created} with (force)`,
      `drop database if exists db_${existing} with (force)`,
    );

    const passwords = { authenticator: null, analyst: null };
    await ensureRolesAndDatabase({
      rootUrl,
      databaseName: `db_${created}`,
      ownerRole: created,
      passwords: { owner: "new-password", ...passwords },
    });
    await ensureRolesAndDatabase({
      rootUrl,
      databaseName: `db_${existing}`,
      ownerRole: existing,
      passwords: { owner: "ignored", ...passwords },
    });

    expect(await attributesOf(created)).toEqual({
      rolsuper: false,
      rolcreaterole: false,
      rolcreatedb: false,
      rolcanlogin: true,
    });
    expect(await attributesOf(existing)).toEqual({
      rolsuper: false,
      rolcreaterole: true,
      rolcreatedb: true,
      rolcanlogin: true,
    });
    // The new role logs in with the password it was given; the existing one kept its own.
    const login = async (user: string, password: string) => {
      const client = new pg.Client({ connectionString: pgUrl(rootUrl, { user, password, database: `db_${user}` }) });
      await client.connect();
      await client.end();
    };
    await expect(login(created, "new-password")).resolves.toBeUndefined();
    await expect(login(existing, "old-password")).resolves.toBeUndefined();
  },
  INSTALLATION_TIMEOUT_MS,
);

test("a role that would bypass row-level security is refused with the statement that fixes it", async () => {
  const role = `bypassing_${suffix}`;
  await asRoot(`create role ${role} nologin bypassrls`);
  cleanup.push(`drop role ${role}`);
  const client = new pg.Client({ connectionString: rootUrl });
  await client.connect();
  try {
    await expect(assertRowSecurityApplies(client, role)).rejects.toThrow(
      `The role ${role} exists with BYPASSRLS, so row-level security would not apply to it. Run "ALTER ROLE ${role} NOSUPERUSER NOBYPASSRLS;"`,
    );
  } finally {
    await client.end();
  }
});
