// The soak's faults, each a function that does it and says when it began and when what it broke
// was back: PostgreSQL killed (SIGKILL to the postmaster; the embedded launcher of the process that
// started it, lib/db/embedded-postgres.ts, starts it again on the same files), the worker process
// killed while a delivery is in flight (and started again, as a process supervisor would), and the
// webhook receiver unreachable for a while. "Disk nearly full" is not among them: filling the
// shared machine's disk would disturb the other work on it, and a loop-mounted small file system
// for the cluster would need privileges a CI machine may not give.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { ServerProcess } from "../server-process.ts";
import type { WebhookReceiver } from "./receiver.ts";

export type FaultKind = "postgres" | "worker" | "receiver";
export const FAULT_KINDS: FaultKind[] = ["postgres", "worker", "receiver"];

export interface Fault {
  kind: FaultKind;
  /** Date.now() when it was done and when what it broke was back. */
  startedAt: number;
  recoveredAt: number;
  detail: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Kills the postmaster of the cluster under `dataDir`; back when a new one answers (not through the service). */
export async function killPostgres(dataDir: string, ownerUrl: string): Promise<Fault> {
  const pidFile = path.join(dataDir, "postgres", "postmaster.pid");
  const postmaster = () => Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  const killed = postmaster();
  const startedAt = Date.now();
  process.kill(killed, "SIGKILL");
  for (const deadline = startedAt + 120_000; Date.now() < deadline;) {
    await sleep(100);
    try {
      if (postmaster() === killed) continue;
      const probe = new pg.Client({ connectionString: ownerUrl });
      probe.on("error", () => {});
      await probe.connect();
      try {
        await probe.query("select 1");
      } finally {
        await probe.end().catch(() => {});
      }
      const recoveredAt = Date.now();
      return { kind: "postgres", startedAt, recoveredAt, detail: `postmaster ${killed} killed` };
    } catch {
      // not yet
    }
  }
  throw new Error("PostgreSQL was not back within 2 minutes of being killed.");
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
