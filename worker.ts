// graphile-worker in the server's process, on the owner pool. Signals are the server's business:
// it stops the worker itself, after the HTTP server has stopped accepting requests.
import type pg from "pg";
import { consoleLogFactory, Logger, run, type Runner } from "graphile-worker";
import { LOG_LEVELS, type LogLevel } from "./lib/config.ts";
import { crontab, makeTaskList, type TaskConfig } from "./tasks/index.ts";

function workerLogger(least: LogLevel): Logger {
  const threshold = LOG_LEVELS.indexOf(least);
  return new Logger((scope) => {
    const print = consoleLogFactory(scope);
    return (level, message, meta) => {
      // Job details (meta) only with errors: at info level they would swamp the log.
      if (LOG_LEVELS.indexOf(level as LogLevel) <= threshold) print(level, message, level === "error" ? meta : {});
    };
  });
}

export async function startWorker(
  ownerPool: pg.Pool, concurrency: number, logLevel: LogLevel, tasks: TaskConfig,
): Promise<Runner> {
  return run({
    pgPool: ownerPool,
    taskList: makeTaskList(tasks, ownerPool),
    crontab,
    concurrency,
    preset: {
      worker: {
        // Deliveries come in bursts of many short jobs: fetch a batch of jobs per round trip and
        // complete them in batches.
        localQueue: { size: concurrency + 1 },
        completeJobBatchDelay: 0,
        failJobBatchDelay: 0,
      },
    },
    logger: workerLogger(logLevel),
    noHandleSignals: true,
    // Jobs still running this long after a stop request are released for another worker.
    gracefulShutdownAbortTimeout: 30_000,
  });
}
