// graphile-worker in the server's process, on the owner pool. Signals are the server's business:
// it stops the worker itself, after the HTTP server has stopped accepting requests.
import type pg from "pg";
import { run, type Runner } from "graphile-worker";
import { crontab, taskList } from "../tasks/index.ts";

export async function startWorker(ownerPool: pg.Pool, concurrency: number): Promise<Runner> {
  return run({
    pgPool: ownerPool,
    taskList,
    crontab,
    concurrency,
    noHandleSignals: true,
    // Jobs still running this long after a stop request are released for another worker.
    gracefulShutdownAbortTimeout: 30_000,
  });
}
