// What the benchmarks with a database of their own share: its data directory under bench/ (kept
// between runs; --fresh starts over), the installation on it (migrations and reference data, no
// demo data), an owner pool, and a seeded random generator so that every run asks the same things.
// The service under measurement runs in its own process (server-process.ts), with every feed off.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";

export const BENCH_DIR = path.dirname(new URL(import.meta.url).pathname);

export async function openBenchDatabase(name: string, pgPort: number, fresh: boolean) {
  const dataDir = path.join(BENCH_DIR, `.data-${name}`);
  if (fresh) fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const config = { ...loadConfig(), databaseUrl: undefined, dataDir, embeddedPgPort: pgPort, port: 0, logLevel: "error" as const,
    demoData: false };
  const database = await prepareDatabase(config);
  const owner = new pg.Pool({ connectionString: database.ownerUrl, max: 2 });
  owner.on("error", () => {}); // idle connections end when the embedded server stops at the end
  return { dataDir, config, database, owner };
}

/** A small seeded generator (mulberry32): the same seed gives the same numbers on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
