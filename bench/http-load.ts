// Closed-loop HTTP load on the service's /graphql, shared by the read benchmarks: autocannon's
// connections POST back to back for a number of seconds; the latency and size of every answer with
// status 200 (summary() of results.ts), the errors, and where the cores went (cpu-accounting.ts).
import autocannon from "autocannon";
import { cpuSplit, type CpuSample } from "./cpu-accounting.ts";
import { summary } from "./results.ts";

export interface HttpLoad {
  url: string;
  headers: Record<string, string>;
  clients: number;
  seconds: number;
  /** The request's body: the same on every request, or a new one (new arguments) for each. */
  body: string | (() => string);
  /** autocannon's timeout of a request, in seconds (when not given, its default: 10). */
  timeoutSeconds?: number;
  /** Whether an answer with status 200 holds a GraphQL error (default: `"errors"` anywhere in it). */
  hasErrors?: (body: string) => boolean;
  /** The CPU split of the run: a sampler (makeCpuSampler) and the service's process. */
  cpu?: { sample: (servicePid: number | undefined) => CpuSample | undefined; servicePid: number | undefined };
  /** Decimals of the requests a second (summary). */
  rpsDigits?: number;
}

/** Closed-loop HTTP load; the latency of every answer, in ms. */
export async function httpLoad(load: HttpLoad) {
  const latencies: number[] = [];
  let bytes = 0;
  const { body } = load;
  const hasErrors = load.hasErrors ?? ((text: string) => text.includes('"errors"'));
  const before = load.cpu?.sample(load.cpu.servicePid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: load.url,
        connections: load.clients,
        duration: load.seconds,
        ...(load.timeoutSeconds !== undefined ? { timeout: load.timeoutSeconds } : {}),
        requests: [
          typeof body === "string"
            ? { method: "POST", headers: load.headers, body }
            : { method: "POST", headers: load.headers, setupRequest: (request) => ({ ...request, body: body() }) },
        ],
        // A GraphQL error comes with status 200: it counts as a mismatch.
        verifyBody: (text) => !hasErrors(String(text)),
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on("response", (_client, status, responseBytes, time) => {
      if (status !== 200) return;
      latencies.push(time);
      bytes += responseBytes;
    });
  });
  const cpu = load.cpu ? cpuSplit(before, load.cpu.sample(load.cpu.servicePid), latencies.length) : undefined;
  // autocannon's errors include its timeouts.
  return {
    ...summary(latencies, load.seconds, load.rpsDigits),
    bytesPerAnswer: Math.round(bytes / latencies.length),
    errors: result.errors + result.non2xx + result.mismatches,
    cpu,
  };
}
