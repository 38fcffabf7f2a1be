// Whether this instance can serve: the database answers, the migrations this code needs are
// applied, the worker runs and grafserv has its schema. Load balancers and orchestrators ask
// often and in numbers, so an answer is kept for a second and probes that arrive meanwhile share
// it: at most two small queries a second, however many probes come.
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { ROOT_DIR } from "../paths.ts";
import { withDeadline } from "./deadline.ts";

export interface ReadinessSources {
  /** The owner pool: it can read graphile_migrate's table. */
  ownerPool: pg.Pool;
  /** Whether the graphile-worker runner is running. */
  workerRunning: () => boolean;
  /** grafserv's schema: a GraphQLSchema once built (a promise or null before). */
  currentSchema: () => unknown;
}

export interface Readiness {
  ready: boolean;
  checks: { database: boolean; migrations: boolean; worker: boolean; schema: boolean };
}

const CHECK_TIME_LIMIT_MS = 2000;
const KEEP_ANSWER_MS = 1000;

/** graphile-migrate's names of committed migrations: the number orders them. */
const MIGRATION_FILE = /^\d{6}(-[-_a-zA-Z0-9]*)?\.sql$/;

/** The hash graphile-migrate records for the newest committed migration (its `--! Hash:` header). */
export function newestMigrationHash(committedDir: string): string {
  const newest = fs
    .readdirSync(committedDir)
    .filter((name) => MIGRATION_FILE.test(name))
    .sort()
    .at(-1);
  if (!newest) throw new Error(`No committed migrations in ${committedDir}.`);
  const hash = /^--! Hash: (\S+)$/m.exec(fs.readFileSync(path.join(committedDir, newest), "utf8"))?.[1];
  if (!hash) throw new Error(`${newest} has no "--! Hash:" header.`);
  return hash;
}

async function passes(check: () => Promise<boolean>, what: string): Promise<boolean> {
  try {
    return await withDeadline(check(), CHECK_TIME_LIMIT_MS, what);
  } catch {
    return false;
  }
}

/**
 * grafserv holds a promise (or null) until the schema is built. Not graphql's isSchema: under some
 * loaders graphql is loaded twice (grafserv's CommonJS copy, and the ES module here), and its
 * instanceof check then fails for a real schema.
 */
function isBuilt(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && typeof (schema as { then?: unknown }).then !== "function";
}

/** Returns the probe: each call answers from the last second's check or runs a new one. */
export function makeReadinessCheck(sources: ReadinessSources): () => Promise<Readiness> {
  // Committed migrations do not change while the process runs.
  const expectedHash = newestMigrationHash(path.join(ROOT_DIR, "migrations", "committed"));
  let last: { answer: Promise<Readiness>; settledAt?: number } | undefined;

  const check = async (): Promise<Readiness> => {
    const [database, migrations] = await Promise.all([
      passes(async () => (await sources.ownerPool.query("select 1")).rowCount === 1, "select 1"),
      // Applied, not necessarily the newest row: during a rolling deploy a newer release may have
      // migrated further, and this one keeps serving until it is replaced.
      passes(
        async () =>
          (
            await sources.ownerPool.query<{ applied: boolean }>(
              "select exists (select from graphile_migrate.migrations where hash = $1) as applied",
              [expectedHash],
            )
          ).rows[0].applied,
        "the migrations check",
      ),
    ]);
    const checks = { database, migrations, worker: sources.workerRunning(), schema: isBuilt(sources.currentSchema()) };
    return { ready: Object.values(checks).every(Boolean), checks };
  };

  return () => {
    // A check in flight is shared too, so slow answers (a hanging database) do not pile up.
    if (last && (last.settledAt === undefined || Date.now() - last.settledAt < KEEP_ANSWER_MS)) return last.answer;
    const entry: { answer: Promise<Readiness>; settledAt?: number } = { answer: check() };
    const settle = () => {
      entry.settledAt = Date.now();
    };
    entry.answer.then(settle, settle);
    last = entry;
    return entry.answer;
  };
}
