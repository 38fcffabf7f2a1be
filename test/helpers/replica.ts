// A primary of its own with a real streaming replica, for the read-replica tests (issue 33). The
// test cluster is shared by every test file, so copying it would copy their databases too: this
// helper starts a cluster of its own from the same binaries (the embedded ones, or TEST_PG_BIN's),
// prepares the service's database on it as the service does, and makes a hot standby of it with
// PostgreSQL's low-level base backup (pg_backup_start, a copy of the files, pg_backup_stop: the
// embedded binaries ship no pg_basebackup), a physical replication slot so that the primary keeps
// the WAL the standby needs, standby.signal and primary_conninfo. Both run under the embedded
// launcher, which starts a killed server again (lib/db/embedded-postgres.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { loadConfig } from "../../lib/config.ts";
import { ensureRolesAndDatabase, ROLES } from "../../lib/db/bootstrap.ts";
import { EMBEDDED_OWNER } from "../../lib/db/database.ts";
import { startEmbeddedPostgres, type EmbeddedCluster } from "../../lib/db/embedded-postgres.ts";
import { pgUrl } from "../../lib/db/pg-url.ts";
import { resilientPool } from "../../lib/db/pool.ts";
import { loadOrCreateSecrets } from "../../lib/db/secrets.ts";
import { prepareDatabase } from "../../lib/setup/installation.ts";
import type { TestDatabase } from "./database.ts";
import { freePort } from "./ports.ts";

export interface ReplicatedDatabase {
  /** The service's database on the primary. */
  db: TestDatabase;
  /** The replica's address, without a login (READ_REPLICA_URLS takes the authenticator's). */
  replicaUrl: string;
  /** Runs SQL on the replica as its superuser (pause and resume its replay). */
  onReplica(sql: string): Promise<pg.QueryResult>;
  /** SIGKILLs the replica's server; the launcher starts it again. */
  killReplica(): void;
  stop(): Promise<void>;
}

const DURABILITY_OFF = { fsync: "off", synchronous_commit: "off" };
const DATABASE = "incidents";

/** Files of a running cluster that a base backup leaves out (PostgreSQL's docs, "Making a Base Backup Using the Low Level API"). */
function leftOutOfBackup(relative: string): boolean {
  const name = path.basename(relative);
  return (
    ["postmaster.pid", "postmaster.opts"].includes(relative) ||
    name.startsWith(".s.PGSQL.") ||
    /^(pg_wal|pg_replslot|pg_stat_tmp|pg_dynshmem|pg_notify|pg_serial|pg_snapshots|pg_subtrans)\//.test(relative)
  );
}

/** Gives every file under dir to the cluster's owner (the tests may run as root; PostgreSQL then runs as "postgres"). */
function chownTree(dir: string, uid: number, gid: number): void {
  fs.chownSync(dir, uid, gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(full, uid, gid);
    else fs.chownSync(full, uid, gid);
  }
}

export async function startReplicatedDatabase(): Promise<ReplicatedDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "incidents-replica-"));
  fs.chmodSync(dir, 0o755);
  const secrets = loadOrCreateSecrets(dir);
  const binDir = process.env.TEST_PG_BIN || undefined;
  const primaryDir = path.join(dir, "primary");
  const primary: EmbeddedCluster = await startEmbeddedPostgres({
    clusterDir: primaryDir,
    port: await freePort(),
    superuserPassword: secrets.superuserPassword,
    binDir,
    settings: DURABILITY_OFF,
  });
  const clusters: EmbeddedCluster[] = [primary];
  const pools: pg.Pool[] = [];
  try {
    await ensureRolesAndDatabase({
      rootUrl: primary.rootUrl,
      databaseName: DATABASE,
      ownerRole: EMBEDDED_OWNER,
      passwords: {
        owner: secrets.ownerPassword,
        authenticator: secrets.authenticatorPassword,
        analyst: secrets.analystPassword,
      },
    });
    const ownerUrl = pgUrl(primary.rootTcpUrl, {
      user: EMBEDDED_OWNER,
      password: secrets.ownerPassword,
      database: DATABASE,
    });
    const database = await prepareDatabase({ ...loadConfig().database, url: ownerUrl, rootUrl: primary.rootUrl });

    // The base backup, with a slot that keeps the WAL from its start until the standby streams it.
    const replicaDir = path.join(dir, "replica");
    const root = new pg.Client({ connectionString: primary.rootUrl });
    await root.connect();
    try {
      await root.query("select pg_create_physical_replication_slot('replica', true)");
      await root.query("select pg_backup_start('replica', true)");
      fs.cpSync(primaryDir, replicaDir, {
        recursive: true,
        filter: (source) => !leftOutOfBackup(path.relative(primaryDir, source)),
      });
      for (const emptied of [
        "pg_wal",
        "pg_replslot",
        "pg_stat_tmp",
        "pg_notify",
        "pg_serial",
        "pg_snapshots",
        "pg_subtrans",
        "pg_dynshmem",
      ]) {
        fs.mkdirSync(path.join(replicaDir, emptied), { recursive: true, mode: 0o700 });
      }
      const {
        rows: [stopped],
      } = await root.query("select labelfile, spcmapfile from pg_backup_stop(false)");
      fs.writeFileSync(path.join(replicaDir, "backup_label"), stopped.labelfile);
      if (stopped.spcmapfile) fs.writeFileSync(path.join(replicaDir, "tablespace_map"), stopped.spcmapfile);
    } finally {
      await root.end();
    }
    fs.writeFileSync(path.join(replicaDir, "standby.signal"), "");
    const owner = fs.statSync(primaryDir);
    chownTree(replicaDir, owner.uid, owner.gid);
    fs.chmodSync(replicaDir, 0o700);

    const primaryAddress = new URL(primary.rootTcpUrl);
    const replicaPort = await freePort();
    const replica = await startEmbeddedPostgres({
      clusterDir: replicaDir,
      port: replicaPort,
      superuserPassword: secrets.superuserPassword,
      binDir,
      settings: {
        ...DURABILITY_OFF,
        primary_conninfo: `host=127.0.0.1 port=${primaryAddress.port} user=postgres password=${secrets.superuserPassword}`,
        primary_slot_name: "replica",
        hot_standby: "on",
      },
    });
    clusters.push(replica);

    const ownerPool = resilientPool({ connectionString: ownerUrl, max: 2 });
    const replicaRoot = resilientPool({ connectionString: replica.rootTcpUrl, max: 1 });
    pools.push(ownerPool, replicaRoot);
    const db: TestDatabase = {
      ...database,
      name: DATABASE,
      authUrl: pgUrl(primary.rootTcpUrl, {
        user: ROLES.authenticator,
        password: secrets.authenticatorPassword,
        database: DATABASE,
      }),
      asOwner: (sql, params) => ownerPool.query(sql, params),
      drop: async () => {},
    };
    return {
      db,
      replicaUrl: `postgres://127.0.0.1:${replicaPort}`,
      onReplica: (sql) => replicaRoot.query(sql),
      killReplica() {
        const pid = Number(fs.readFileSync(path.join(replicaDir, "postmaster.pid"), "utf8").split("\n")[0]);
        process.kill(pid, "SIGKILL");
      },
      async stop() {
        await Promise.all(pools.map((pool) => pool.end()));
        for (const cluster of clusters.reverse()) await cluster.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await Promise.all(pools.map((pool) => pool.end()));
    for (const cluster of clusters.reverse()) await cluster.stop();
    throw error;
  }
}
