// Where the two cores go during a benchmark's measurement, shared by the read benchmarks: Linux
// /proc, clock ticks of 10 ms. The service's process, PostgreSQL (the postmaster, its live
// children, and those it has reaped), this process (the load generator, or the pg clients), the
// kernel's interrupt work (loopback TCP is mostly softirq, charged to no process), anything else,
// idle, and time the hypervisor took (steal). Also: the load average, waiting for a quiet moment of
// the cores, and a measurement taken again while other processes disturbed it.
import fs from "node:fs";
import path from "node:path";

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

export interface CpuSample {
  total: number;
  idle: number;
  steal: number;
  interrupts: number;
  service: number;
  postgres: number;
  bench: number;
}
export const TICK_MS = 10;

/** A process's resident memory in MB (VmRSS), NaN once it has ended. */
export function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
  } catch {
    return NaN;
  }
}

const processTicks = (pid: number, reapedChildren = false): number => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime, stime (and cutime, cstime: the children it has waited for)
    return Number(fields[11]) + Number(fields[12]) + (reapedChildren ? Number(fields[13]) + Number(fields[14]) : 0);
  } catch {
    return 0; // ended in between
  }
};

const parentOf = (pid: number): number => {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);
  } catch {
    return -1;
  }
};

/** The ticks of all the cores since boot (/proc/stat's first line; undefined where it is missing). */
function coreTicks(): Pick<CpuSample, "total" | "idle" | "steal" | "interrupts"> | undefined {
  if (!fs.existsSync("/proc/stat")) return undefined;
  const [, ...ticks] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks;
  return {
    total: user + nice + system + idle + iowait + irq + softirq + steal,
    idle: idle + iowait,
    steal,
    interrupts: irq + softirq,
  };
}

/** A sampler for the embedded PostgreSQL whose data directory is `dataDir` (undefined where /proc is missing). */
export function makeCpuSampler(dataDir: string): (servicePid: number | undefined) => CpuSample | undefined {
  return (servicePid) => {
    const cores = coreTicks();
    if (!cores) return undefined;
    const postmasterFile = path.join(dataDir, "postgres", "postmaster.pid");
    const postmaster = fs.existsSync(postmasterFile)
      ? Number(fs.readFileSync(postmasterFile, "utf8").split("\n")[0])
      : -1;
    let postgres = 0;
    for (const entry of fs.readdirSync("/proc")) {
      const pid = Number(entry);
      if (pid > 0 && (pid === postmaster || parentOf(pid) === postmaster))
        postgres += processTicks(pid, pid === postmaster);
    }
    return { ...cores, service: servicePid ? processTicks(servicePid) : 0, postgres, bench: processTicks(process.pid) };
  };
}

/** The CPU of each part between two samples, in ms per request and as a share of all the cores' time. */
export function cpuSplit(before: CpuSample | undefined, after: CpuSample | undefined, requests: number) {
  if (!before || !after || requests === 0) return undefined;
  const d = (key: keyof CpuSample) => after[key] - before[key];
  const other = d("total") - d("idle") - d("steal") - d("interrupts") - d("service") - d("postgres") - d("bench");
  const part = (ticks: number) => ({
    msPerRequest: round((ticks * TICK_MS) / requests, 3),
    share: round((100 * ticks) / d("total"), 0),
  });
  return {
    service: part(d("service")),
    postgres: part(d("postgres")),
    loadGenerator: part(d("bench")),
    interrupts: part(d("interrupts")),
    other: part(Math.max(0, other)),
    idle: part(d("idle")),
    steal: part(d("steal")),
  };
}

export const describeCpu = (cpu: ReturnType<typeof cpuSplit>) =>
  cpu
    ? `CPU per request: service ${cpu.service.msPerRequest} ms, PostgreSQL ${cpu.postgres.msPerRequest} ms, load generator ` +
      `${cpu.loadGenerator.msPerRequest} ms, kernel interrupts ${cpu.interrupts.msPerRequest} ms, other ${cpu.other.msPerRequest} ms; of the cores: ` +
      `${cpu.service.share}% / ${cpu.postgres.share}% / ${cpu.loadGenerator.share}% / ${cpu.interrupts.share}% / ${cpu.other.share}%, ` +
      `idle ${cpu.idle.share}%, steal ${cpu.steal.share}%`
    : "CPU split not available";

/** The service process this benchmark started (a child running server.ts), if /proc shows it. */
export function findServicePid(): number | undefined {
  try {
    return fs
      .readdirSync("/proc")
      .map(Number)
      .find(
        (pid) =>
          pid > 0 &&
          parentOf(pid) === process.pid &&
          fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("server.ts"),
      );
  } catch {
    return undefined;
  }
}

/** The load average (1, 5 and 15 minutes) from /proc/loadavg; empty where it is missing. */
export function loadAverage(): number[] {
  return fs.existsSync("/proc/loadavg")
    ? fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number)
    : [];
}

/** The share (0-1) of the cores' time that went anywhere but idle (steal counts as busy) over the next second. */
async function busyShare(): Promise<number> {
  const before = coreTicks();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = coreTicks();
  if (!before || !after) return 0;
  const total = after.total - before.total;
  return total > 0 ? 1 - (after.idle - before.idle) / total : 0;
}

/**
 * Two shared cores: anything else running (another bench, a test run) shows as "other" CPU and
 * inflates every figure. Waits (up to `maxSeconds`) for a second in which the cores are at least
 * 90% idle; says so when none came, and measuring goes on all the same.
 */
export async function quietMoment(maxSeconds: number): Promise<void> {
  if (!fs.existsSync("/proc/stat")) return;
  const until = performance.now() + maxSeconds * 1000;
  let busy = await busyShare();
  while (busy > 0.1 && performance.now() < until) busy = await busyShare();
  if (busy > 0.1)
    console.log(
      `  (the cores are still ${Math.round(busy * 100)}% busy with something else after ${maxSeconds} s; measuring anyway)`,
    );
}

/**
 * A measurement on shared cores: taken at a quiet moment (quietMoment(quietWaitSeconds)), and taken
 * again (at most `retries` times) while more than `otherShareLimit`% of the cores went to other
 * processes during it (`otherShare` of the measurement); the least disturbed one is kept, with the
 * number of attempts. `label` names the measurement in the log.
 */
export async function leastDisturbed<T>(
  label: string,
  options: { quietWaitSeconds: number; otherShareLimit: number; retries: number },
  measure: () => Promise<T>,
  otherShare: (measured: T) => number,
): Promise<{ best: T; attempts: number }> {
  let best: { measured: T } | undefined;
  for (let attempts = 1; ; attempts++) {
    await quietMoment(options.quietWaitSeconds);
    const measured = await measure();
    const other = otherShare(measured);
    if (!best || other < otherShare(best.measured)) best = { measured };
    if (other <= options.otherShareLimit || attempts > options.retries) return { best: best.measured, attempts };
    console.log(`  ${label}: ${other}% of the cores went to other processes; measuring again`);
  }
}
