// The soak's faults, each a function that does it and says when it began and when what it broke
// was back: PostgreSQL killed (SIGKILL to the postmaster; the embedded launcher of the process that
// started it, lib/db/embedded-postgres.ts, starts it again on the same files), the worker process
// killed while a delivery is in flight (and started again, as a process supervisor would), the
// webhook receiver unreachable for a while, and the database's disk nearly full. The disk is a
// file system of the soak's own (a tmpfs of --disk-mb, mounted by `mountSoakDisk`, which needs
// root), never the machine's: filling a shared disk would disturb everything else on it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { ServerProcess } from "../server-process.ts";
import type { WebhookReceiver } from "./receiver.ts";

export type FaultKind = "postgres" | "worker" | "receiver" | "disk";
export const FAULT_KINDS: FaultKind[] = ["postgres", "worker", "receiver", "disk"];
/** What runs without being asked: "disk" needs a file system mounted for the run (root). */
export const DEFAULT_FAULT_KINDS: FaultKind[] = ["postgres", "worker", "receiver"];

export interface Fault {
  kind: FaultKind;
  /** Date.now() when it was done and when what it broke was back. */
  startedAt: number;
  recoveredAt: number;
  detail: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pid of the running postmaster of the cluster under `dataDir` (NaN while there is none). */
const postmasterOf = (dataDir: string) => {
  try {
    return Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return Number.NaN;
  }
};

/** Whether PostgreSQL answers a new connection's `select 1` (not through the service). */
async function answers(ownerUrl: string): Promise<boolean> {
  const probe = new pg.Client({ connectionString: ownerUrl });
  probe.on("error", () => {});
  try {
    await probe.connect();
    await probe.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await probe.end().catch(() => {});
  }
}

/** Kills the postmaster of the cluster under `dataDir`; back when a new one answers (not through the service). */
export async function killPostgres(dataDir: string, ownerUrl: string): Promise<Fault> {
  // Between a restart's steps postmaster.pid may be absent or half written: wait for a pid.
  let killed = postmasterOf(dataDir);
  for (const deadline = Date.now() + 30_000; Number.isNaN(killed) && Date.now() < deadline;) {
    await sleep(100);
    killed = postmasterOf(dataDir);
  }
  if (Number.isNaN(killed)) throw new Error(`No postmaster.pid under ${dataDir} for 30 s: PostgreSQL is not running.`);
  const startedAt = Date.now();
  process.kill(killed, "SIGKILL");
  for (const deadline = startedAt + 120_000; Date.now() < deadline;) {
    await sleep(100);
    if (postmasterOf(dataDir) === killed || !(await answers(ownerUrl))) continue;
    return { kind: "postgres", startedAt, recoveredAt: Date.now(), detail: `postmaster ${killed} killed` };
  }
  throw new Error("PostgreSQL was not back within 2 minutes of being killed.");
}

/**
 * Mounts a tmpfs of `mb` megabytes at `dir` (empty; an earlier run's mount is taken down first),
 * so that the soak's cluster has a disk of its own to fill. Needs root.
 */
export function mountSoakDisk(dir: string, mb: number): void {
  if (process.getuid?.() !== 0) {
    throw new Error("The disk fault mounts a small file system for the soak's cluster, which needs root.");
  }
  unmountSoakDisk(dir);
  fs.mkdirSync(dir, { recursive: true });
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${mb}m,mode=0755`, "soak-disk", dir]);
}

/** Takes the soak's disk down (and everything on it) when it is mounted. */
export function unmountSoakDisk(dir: string): void {
  const mounted = fs
    .readFileSync("/proc/mounts", "utf8")
    .split("\n")
    .some((line) => line.split(" ")[1] === path.resolve(dir));
  if (mounted) execFileSync("umount", [dir]);
}

/**
 * Fills the file system under `dataDir` (the soak's own, `mountSoakDisk`) with a ballast file until
 * `reserveMb` are left, for `seconds`, then removes it; back when PostgreSQL answers (it may have
 * stopped for want of room to write its WAL: the embedded launcher starts it again).
 */
export async function diskNearlyFull(
  dataDir: string,
  ownerUrl: string,
  seconds: number,
  reserveMb: number,
): Promise<Fault> {
  const ballast = path.join(dataDir, "ballast");
  const postmasterBefore = postmasterOf(dataDir);
  const freeMb = () => {
    const { bavail, bsize } = fs.statfsSync(dataDir);
    return (bavail * bsize) / 2 ** 20;
  };
  let left = (freeMb() - reserveMb) * 2 ** 20;
  const chunk = Buffer.alloc(16 * 2 ** 20);
  const fd = fs.openSync(ballast, "w");
  try {
    while (left > 0) left -= fs.writeSync(fd, chunk, 0, Math.min(chunk.length, left));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    fs.closeSync(fd);
  }
  const startedAt = Date.now();
  const freeAtStart = freeMb();
  await sleep(seconds * 1000);
  const freeAtEnd = freeMb();
  fs.rmSync(ballast);
  for (const deadline = Date.now() + 120_000; !(await answers(ownerUrl)); await sleep(100)) {
    if (Date.now() > deadline) throw new Error("PostgreSQL did not answer within 2 minutes of the disk freed.");
  }
  const postmasterAfter = postmasterOf(dataDir);
  return {
    kind: "disk",
    startedAt,
    recoveredAt: Date.now(),
    detail:
      `disk filled to ${freeAtStart.toFixed(1)} MB free for ${seconds} s (${freeAtEnd.toFixed(1)} MB at the end); ` +
      (postmasterAfter === postmasterBefore
        ? "PostgreSQL kept running"
        : `PostgreSQL stopped (postmaster ${postmasterBefore}) and was started again (${postmasterAfter})`),
  };
}

/**
 * Kills the worker process once a delivery is in flight (the receiver is answering one; at most
 * 30 s of waiting), then starts a new one; back when the new one is ready.
 */
export async function killWorker(
  worker: ServerProcess,
  receiver: WebhookReceiver,
  start: () => Promise<ServerProcess>,
): Promise<{ fault: Fault; worker: ServerProcess }> {
  for (const deadline = Date.now() + 30_000; receiver.inFlight === 0 && Date.now() < deadline;) await sleep(5);
  const midDelivery = receiver.inFlight > 0;
  const startedAt = Date.now();
  process.kill(worker.pid, "SIGKILL");
  await worker.exited;
  const next = await start();
  return {
    fault: {
      kind: "worker",
      startedAt,
      recoveredAt: Date.now(),
      detail: `worker ${worker.pid} killed ${midDelivery ? "with a delivery in flight" : "(no delivery was in flight within 30 s)"}; new worker ${next.pid}`,
    },
    worker: next,
  };
}

/** The receiver closed for `seconds`, then listening again on the same port. */
export async function receiverOutage(receiver: WebhookReceiver, seconds: number): Promise<Fault> {
  const startedAt = Date.now();
  await receiver.close();
  await sleep(seconds * 1000);
  await receiver.open();
  return { kind: "receiver", startedAt, recoveredAt: Date.now(), detail: `receiver closed for ${seconds} s` };
}
