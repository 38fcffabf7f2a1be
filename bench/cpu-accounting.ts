// Where the two cores go during a benchmark's measurement, shared by the read benchmarks: Linux
// /proc, clock ticks of 10 ms. The service's process, PostgreSQL (the postmaster, its live
// children, and those it has reaped), this process (the load generator, or the pg clients), the
// kernel's interrupt work (loopback TCP is mostly softirq, charged to no process), anything else,
// idle, and time the hypervisor took (steal).
import fs from "node:fs";
import path from "node:path";

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

export interface CpuSample { total: number; idle: number; steal: number; interrupts: number; service: number; postgres: number; bench: number }
export const TICK_MS = 10;

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

/** A sampler for the embedded PostgreSQL whose data directory is `dataDir` (undefined where /proc is missing). */
export function makeCpuSampler(dataDir: string): (servicePid: number | undefined) => CpuSample | undefined {
  return (servicePid) => {
    if (!fs.existsSync("/proc/stat")) return undefined;
    const [, ...ticks] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks;
    const postmasterFile = path.join(dataDir, "postgres", "postmaster.pid");
    const postmaster = fs.existsSync(postmasterFile) ? Number(fs.readFileSync(postmasterFile, "utf8").split("\n")[0]) : -1;
    let postgres = 0;
    for (const entry of fs.readdirSync("/proc")) {
      const pid = Number(entry);
      if (pid > 0 && (pid === postmaster || parentOf(pid) === postmaster)) postgres += processTicks(pid, pid === postmaster);
    }
    return { total: user + nice + system + idle + iowait + irq + softirq + steal, idle: idle + iowait, steal, interrupts: irq + softirq,
      service: servicePid ? processTicks(servicePid) : 0, postgres, bench: processTicks(process.pid) };
  };
}

/** The CPU of each part between two samples, in ms per request and as a share of all the cores' time. */
export function cpuSplit(before: CpuSample | undefined, after: CpuSample | undefined, requests: number) {
  if (!before || !after || requests === 0) return undefined;
  const d = (key: keyof CpuSample) => after[key] - before[key];
  const other = d("total") - d("idle") - d("steal") - d("interrupts") - d("service") - d("postgres") - d("bench");
  const part = (ticks: number) => ({ msPerRequest: round((ticks * TICK_MS) / requests, 3), share: round((100 * ticks) / d("total"), 0) });
  return { service: part(d("service")), postgres: part(d("postgres")), loadGenerator: part(d("bench")), interrupts: part(d("interrupts")),
    other: part(Math.max(0, other)), idle: part(d("idle")), steal: part(d("steal")) };
}

export const describeCpu = (cpu: ReturnType<typeof cpuSplit>) => cpu
  ? `CPU per request: service ${cpu.service.msPerRequest} ms, PostgreSQL ${cpu.postgres.msPerRequest} ms, load generator ` +
    `${cpu.loadGenerator.msPerRequest} ms, kernel interrupts ${cpu.interrupts.msPerRequest} ms, other ${cpu.other.msPerRequest} ms; of the cores: ` +
    `${cpu.service.share}% / ${cpu.postgres.share}% / ${cpu.loadGenerator.share}% / ${cpu.interrupts.share}% / ${cpu.other.share}%, ` +
    `idle ${cpu.idle.share}%, steal ${cpu.steal.share}%`
  : "CPU split not available";

/** The service process this benchmark started (a child running server.ts), if /proc shows it. */
export function findServicePid(): number | undefined {
  try {
    return fs.readdirSync("/proc").map(Number).find((pid) => pid > 0 && parentOf(pid) === process.pid &&
      fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("server.ts"));
  } catch {
    return undefined;
  }
}
