// How the feed pollers are scheduled (docs/operations.md, "Feed scheduling"): each poller is a
// chain of graphile-worker jobs, one job per round, each booking the poller's next round (run_at)
// at the time it is due. The job key and the queue of every round are the poller's task name, so
// all worker processes share one booked round per poller (N workers still read each feed once per
// interval) and two rounds of a poller never run at once. The worker's start and the crontab only
// start a chain that is not running: they never move a booked round (preserve_run_at).
import type { JobHelpers, Runner, Task } from "graphile-worker";

/**
 * A round that starts later than this after its time (at most half an interval) starts the
 * cadence afresh; one less late keeps it, so graphile-worker's pick-up delay (up to its 2 s poll
 * interval) is not added to every interval.
 */
const LATE_MS = 5_000;

const roundOf = (task: string) => ({ jobKey: task, queueName: task });

/** The crontab line that starts a poller's chain once a minute if it is not running. */
export function pollerCrontabLine(task: string): string {
  return `* * * * * ${task} ?queue=${task}&jobKey=${task}&jobKeyMode=preserve_run_at`;
}

/** Starts each poller's chain now, unless a round is booked already (by another worker, or before a restart). */
export async function startPollers(runner: Pick<Runner, "addJob">, tasks: readonly string[]): Promise<void> {
  await Promise.all(tasks.map((task) => runner.addJob(task, {}, { ...roundOf(task), jobKeyMode: "preserve_run_at" })));
}

/** Books the running poller's next round at `at`, replacing any start queued meanwhile. */
export async function bookNextRound(helpers: JobHelpers, at: Date): Promise<void> {
  const task = helpers.job.task_identifier;
  await helpers.addJob(task, {}, { ...roundOf(task), runAt: at, jobKeyMode: "replace" });
}

/** When the round after one due at `dueAt` is due: an interval later, unless this round is late. */
export function nextRoundAt(dueAt: Date, intervalMs: number, now = Date.now()): Date {
  return new Date(Math.max(dueAt.getTime() + intervalMs, now + intervalMs - Math.min(LATE_MS, intervalMs / 2)));
}

/**
 * A poller that reads every `intervalSeconds` while `on` (switched on and a source configured).
 * The next round is booked before this one reads, so a round that fails or hangs does not stop
 * the feed; a poller that is off books nothing, so its chain ends.
 */
export function pollEvery(intervalSeconds: number, on: boolean, round: (helpers: JobHelpers) => Promise<void>): Task {
  return async (_payload, helpers) => {
    if (!on) return;
    await bookNextRound(helpers, nextRoundAt(helpers.job.run_at, intervalSeconds * 1000));
    await round(helpers);
  };
}
