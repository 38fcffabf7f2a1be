// graphile-worker in the server's process, on the owner pool. Signals are the server's business:
// it stops the worker itself, after the HTTP server has stopped accepting requests.
import type pg from "pg";
import { EventEmitter } from "node:events";
import { Logger, run, type Job, type Runner, type WorkerEvents } from "graphile-worker";
import type { WorkerConfig } from "./lib/config.ts";
import { isConnectionError, type DatabaseAvailability } from "./lib/db/availability.ts";
import { WorkerHeartbeat } from "./lib/db/worker-heartbeat.ts";
import { log, logs, type LogFields, type LogLevel } from "./lib/ops/log.ts";
import { crontabFor, makeTaskList, POLL_TASKS, type TaskConfig } from "./tasks/index.ts";
import { startPollers } from "./tasks/poll-schedule.ts";

/** What graphile-worker passes with a line: the job and error of a failed task, the job of a completed one. */
interface WorkerMeta {
  failure?: boolean;
  success?: boolean;
  job?: Job;
  error?: unknown;
}

function jobFields(job: Job): LogFields {
  return { task: job.task_identifier, jobId: job.id, attempt: job.attempts, maxAttempts: job.max_attempts };
}

/** The error's stack, for debug level only: the one line of a failure says what an operator needs. */
function stackOf(error: unknown): LogFields {
  return logs("debug") && error instanceof Error && error.stack ? { stack: error.stack } : {};
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How many of a batch job's failed entries its line names; the rest are counted. */
const BATCH_REASONS_SAID = 3;

/**
 * Why a job failed, in one line: its error's first line, or for a batch job (graphile-worker's
 * "Batch failures:" and a line per failed entry) how many failed and the first entries' reasons.
 */
function failureOf(error: unknown): string {
  const [first, ...entries] = errorMessage(error).split("\n");
  if (first !== "Batch failures:" || entries.length === 0) return first;
  if (entries.length === 1) return entries[0];
  const said = entries.slice(0, BATCH_REASONS_SAID).join("; ");
  const more = entries.length - BATCH_REASONS_SAID;
  return `${entries.length} of the batch failed: ${said}${more > 0 ? ` (and ${more} more)` : ""}`;
}

/** A failed job in one line: task, job id, attempt k of n and why. */
function failedJobLine(job: Job, error: unknown): { message: string; final: boolean } {
  const reason = failureOf(error);
  const final = job.attempts >= job.max_attempts;
  const next = final ? "no attempts left" : "tried again later";
  return {
    message: `Task ${job.task_identifier} (job ${job.id}) failed, attempt ${job.attempts} of ${job.max_attempts} (${next}): ${reason}`,
    final,
  };
}

/**
 * graphile-worker's lines in the service's log: a completed job is a debug line (every matching and
 * delivery job is one: at info they were nine lines in ten), a failed job one warning (one error
 * when no attempt is left) with its reason, and what a task logs (helpers.logger) carries its task
 * and job id as fields.
 */
function workerLogger(availability: DatabaseAvailability | undefined): Logger {
  return new Logger((scope) => (workerLevel, message, meta) => {
    // graphile-worker's levels are named as the service's.
    const level = workerLevel as string as LogLevel;
    const { failure, success, job, error, ...rest } = (meta ?? {}) as WorkerMeta & LogFields;
    // A task's own lines (helpers.logger) say which task and job; graphile-worker's other lines
    // carry internals (its options, pools) that are no log fields.
    const fields: LogFields = scope.label === "job" ? { task: scope.taskIdentifier, jobId: scope.jobId, ...rest } : {};
    // While the database is away the worker retries every poll; the availability probe says so
    // once (and once when it is back), so its failures are not repeated here each time. Nor are
    // they said while the service stops: its connections end then.
    if (availability && (isConnectionError(error) || isConnectionError({ message }))) {
      availability.notice(error ?? { message });
      if (!availability.isUp || availability.stopping) return log.debug(message, fields);
    }
    if (success && job) return log.debug(message, jobFields(job));
    if (failure && job) {
      const line = failedJobLine(job, error);
      return log.at(line.final ? "error" : "warning", line.message, {
        ...jobFields(job),
        error: errorMessage(error),
        ...stackOf(error),
      });
    }
    // A task's warnings and errors name the task and the job, as a failed job's line does.
    const said = scope.label === "job" && (level === "warning" || level === "error");
    log.at(
      level,
      said ? `Task ${scope.taskIdentifier} (job ${scope.jobId}): ${message}` : message,
      error === undefined ? fields : { ...fields, error: errorMessage(error), ...stackOf(error) },
    );
  });
}

/** The worker as the service holds it: started again whenever it ends without being asked to. */
export interface SupervisedWorker {
  isRunning(): boolean;
  stop(): Promise<void>;
}

export async function startWorker(
  ownerPool: pg.Pool,
  { concurrency, heartbeatMs, lostAfterMs }: WorkerConfig,
  tasks: TaskConfig,
  availability?: DatabaseAvailability,
): Promise<SupervisedWorker> {
  const logger = workerLogger(availability);
  // The ids a runner locks jobs under: its pool's (the local queue fetches for the pool) and its
  // workers'. When a runner ends without being asked to, the jobs it held stay locked (graphile-worker
  // frees a lost worker's jobs only after 4 hours), so they are unlocked once a new runner runs; the
  // same ids are the heartbeat's, by which live workers free the jobs of a process killed outright.
  const lockIds = new WeakMap<Runner, string[]>();
  const start = async () => {
    const ids: string[] = [];
    const events: WorkerEvents = new EventEmitter();
    events.on("pool:create", ({ workerPool }) => ids.push(workerPool.id));
    events.on("worker:create", ({ worker }) => ids.push(worker.workerId));
    const runner = await run({
      events,
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
    lockIds.set(runner, ids);
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
      log.warning(`The worker stopped${error ? ` (${(error as Error).message ?? error})` : ""}; starting it again.`);
      void (async () => {
        for (let attempt = 1; !stopping; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 5000)));
          if (stopping) return;
          try {
            runner = await start();
            running = true;
            log.info(`The worker runs again (attempt ${attempt}).`);
            void unlockJobsOf(current);
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
  /**
   * The ended runner's jobs, free for the new one. Tried until it works (a full disk that ended the
   * runner may still refuse the update), unless the worker is stopped first.
   */
  const unlockJobsOf = async (ended: Runner) => {
    const ids = lockIds.get(ended) ?? [];
    for (let attempt = 1; ids.length > 0 && !stopping; attempt++) {
      try {
        await ownerPool.query("select graphile_worker.force_unlock_workers($1::text[])", [ids]);
        return;
      } catch (error) {
        if (attempt === 1) log.warning(`Could not unlock the stopped worker's jobs yet: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 5000)));
      }
    }
  };
  supervise(runner);
  // A process killed outright unlocks nothing: the others free its jobs once it is unheard of.
  const heartbeat = new WorkerHeartbeat(ownerPool, () => lockIds.get(runner) ?? [], {
    intervalMs: heartbeatMs,
    staleAfterMs: lostAfterMs,
    onFreed: (ids) =>
      log.warning(`Freed the jobs of worker ${ids.join(", ")}, unheard of for ${lostAfterMs / 1000} s.`),
  });
  heartbeat.start();
  return {
    isRunning: () => running,
    async stop() {
      stopping = true;
      if (running) await runner.stop();
      await heartbeat.stop();
    },
  };
}
