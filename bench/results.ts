// What the benchmarks share: closed-loop load, percentiles and a run's summary of its latencies, a
// description of the machine, and writing figures to bench/results/ (a dated JSON file and the
// Markdown docs/benchmarks.md shows).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const RESULTS_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), "results");

/** Closed-loop load: `clients` workers call `call` back to back for `seconds`; latencies (ms, ascending) and failures. */
export async function closedLoop(
  clients: number,
  seconds: number,
  call: () => Promise<unknown>,
): Promise<{ latencies: number[]; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        try {
          await call();
          latencies.push(performance.now() - started);
        } catch {
          errors++;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { latencies, errors };
}

/** The p-th percentile of ascending values. */
export function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

/**
 * The figures of a run's latencies (ms; sorted here, in place): requests, requests a second (whole,
 * or to `rpsDigits` decimals), p50, p95, p99 and the slowest, to a tenth of a millisecond.
 */
export function summary(latencies: number[], seconds: number, rpsDigits = 0) {
  latencies.sort((a, b) => a - b);
  const at = (p: number) => +percentile(latencies, p).toFixed(1);
  const rate = latencies.length / seconds;
  return {
    requests: latencies.length,
    rps: rpsDigits > 0 ? Number(rate.toFixed(rpsDigits)) : Math.round(rate),
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: +(latencies.at(-1) ?? NaN).toFixed(1),
  };
}

export function machine(): string {
  return `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`;
}

/** Writes `<name>-<date>.json` and the Markdown file; returns the Markdown file's path. */
export function writeResults(name: string, markdownFile: string, result: { date: string }, markdown: string[]): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(RESULTS_DIR, `${name}-${result.date.slice(0, 10)}.json`),
    JSON.stringify(result, null, 2) + "\n",
  );
  const file = path.join(RESULTS_DIR, markdownFile);
  fs.writeFileSync(file, [...markdown, ""].join("\n"));
  return path.relative(process.cwd(), file);
}
