// An embedded PostgreSQL cluster of a test file's own, for tests that kill it (the suite's shared
// cluster must not be killed): initdb and every migration, as the embedded default does on its
// first start, and its launcher, which starts a killed server again (lib/db/embedded-postgres.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { loadConfig, mergeConfig } from "../../lib/config.ts";
import { prepareDatabase } from "../../lib/setup/installation.ts";
import type { TestDatabase } from "./database.ts";
import { freePort } from "./ports.ts";

/** How long a cluster of its own takes to make: initdb and every migration, minutes on a busy machine. */
export const KILLABLE_CLUSTER_TIMEOUT = 300_000;

export interface KillableCluster {
  database: TestDatabase;
  /** A small pool of the owner, which survives the kill (its errors are ignored). */
  owner: pg.Pool;
  /** Kills the postmaster (SIGKILL) and resolves when a new one answers (Date.now() then). */
  killPostgres(timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

export async function startKillableCluster(prefix: string): Promise<KillableCluster> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `incidents-${prefix}-`));
  fs.chmodSync(dataDir, 0o755);
  const config = mergeConfig(loadConfig().database, {
    url: undefined,
    authUrl: undefined,
    rootUrl: undefined,
    dataDir,
    embeddedPgPort: await freePort(),
  });
  const prepared = await prepareDatabase(config);
  const owner = new pg.Pool({ connectionString: prepared.ownerUrl, max: 2 });
  owner.on("error", () => {});
  const database: TestDatabase = {
    ...prepared,
    name: config.name,
    asOwner: (sql, params) => owner.query(sql, params),
    drop: async () => {},
  };
  const postmasterPid = () =>
    Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
  return {
    database,
    owner,
    async killPostgres(timeoutMs = 60_000) {
      const killedPid = postmasterPid();
      process.kill(killedPid, "SIGKILL");
      // Back when a new postmaster answers on its own (not through the service).
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        try {
          if (postmasterPid() === killedPid) continue;
          const probe = new pg.Client({ connectionString: prepared.ownerUrl });
          await probe.connect();
          await probe.query("select 1");
          await probe.end();
          return Date.now();
        } catch {
          // not yet
        }
      }
      throw new Error(`PostgreSQL was not back within ${timeoutMs} ms of being killed.`);
    },
    async close() {
      await owner.end();
      await prepared.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
