// graphile-worker in the server's process, on the owner pool. Signals are the server's business:
// it stops the worker itself, after the HTTP server has stopped accepting requests.
import type pg from "pg";
import { consoleLogFactory, Logger, run, type Runner } from "graphile-worker";
import { LOG_LEVELS, type LogLevel, type WorkerConfig } from "./lib/config.ts";
import { isConnectionError, type DatabaseAvailability } from "./lib/db/availability.ts";
import { crontabFor, makeTaskList, POLL_TASKS, type TaskConfig } from "./tasks/index.ts";
import { startPollers } from "./tasks/poll-schedule.ts";

function workerLogger(least: LogLevel, availability: DatabaseAvailability | undefined): Logger {
  const threshold = LOG_LEVELS.indexOf(least);
  return new Logger((scope) => {
    const print = consoleLogFactory(scope);
    return (level, message, meta) => {
      // While the database is away the worker retries every poll; the availability probe says so
      // once (and once when it is back), so its failures are not repeated here each time.
      const error = (meta as { error?: unknown } | undefined)?.error;
      if (availability && (isConnectionError(error) || isConnectionError({ message }))) {
        availability.notice(error ?? { message });
        if (!availability.isUp) return;
      }
      // Job details (meta) only with errors: at info level they would swamp the log.
      if (LOG_LEVELS.indexOf(level as LogLevel) <= threshold) print(level, message, level === "error" ? meta : {});
    };
  });
}

/** The worker as the service holds it: started again whenever it ends without being asked to. */
export interface SupervisedWorker {
  isRunning(): boolean;
  stop(): Promise<void>;
}

export async function startWorker(
  ownerPool: pg.Pool,
  { concurrency, logLevel }: WorkerConfig,
  tasks: TaskConfig,
  availability?: DatabaseAvailability,
): Promise<SupervisedWorker> {
  const logger = workerLogger(logLevel, availability);
  const start = async () => {
    const runner = await run({
      pgPool: ownerPool,
      taskList: makeTaskList(tasks, ownerPool),
      crontab: crontabFor(tasks),
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
      logger,
      noHandleSignals: true,
      // Jobs still running this long after a stop request are released for another worker.
      gracefulShutdownAbortTimeout: 30_000,
    });
    // Every feed's first read now rather than at the next whole minute. Should this fail, the
    // crontab starts the pollers within a minute, so the worker runs on.
    await startPollers(runner, POLL_TASKS).catch((error: unknown) =>
      logger.error(`Could not start the feed pollers: ${(error as Error).message}`, { error }),
    );
    return runner;
  };
  let runner: Runner = await start();
  let running = true;
  let stopping = false;
  // graphile-worker ends its runner when its database connection is lost for good (PostgreSQL
  // restarted): start a new one, waiting a little longer after each failed attempt (up to 5 s).
  const supervise = (current: Runner) => {
    const ended = (error?: unknown) => {
      if (stopping || current !== runner) return;
      running = false;
      console.error(`The worker stopped${error ? ` (${(error as Error).message ?? error})` : ""}; starting it again.`);
      void (async () => {
        for (let attempt = 1; !stopping; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 5000)));
          if (stopping) return;
          try {
            runner = await start();
            running = true;
            console.error(`The worker runs again (attempt ${attempt}).`);
            supervise(runner);
            return;
          } catch {
            // the database is not back yet
          }
        }
      })();
    };
    current.promise.then(() => ended(), ended);
  };
  supervise(runner);
  return {
    isRunning: () => running,
    async stop() {
      stopping = true;
      if (running) await runner.stop();
    },
  };
}
