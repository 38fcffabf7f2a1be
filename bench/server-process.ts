// The service under measurement runs as its own process, started the way `npm start` starts it,
// so that the load generator does not share its event loop (on two cores it still shares the
// CPUs, which the figures say).
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import readline from "node:readline";
import { FEEDS_OFF_ENVIRONMENT } from "../lib/config.ts";
import { SERVICE_ENVIRONMENT, SERVICE_NODE_FLAGS } from "../lib/ops/node-flags.ts";

const ROOT = path.join(path.dirname(new URL(import.meta.url).pathname), "..");

export interface ServerProcess {
  graphqlUrl: string;
  pid: number;
  /** Resolves with the exit code, or the signal that ended it, when the process has ended. */
  exited: Promise<number | NodeJS.Signals | null>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts server.ts on an embedded cluster that is already running (dataDir, pgPort). */
export async function startServerProcess(options: {
  dataDir: string;
  pgPort: number;
  env?: Record<string, string>;
  /**
   * Where its log goes: appended to this file (stderr, and stdout after "Ready in"); by default
   * stderr is this process's. A long run (bench/soak.ts) counts the lines instead of printing them.
   */
  logFile?: string;
}): Promise<ServerProcess> {
  const port = await freePort();
  const logFd = options.logFile === undefined ? undefined : fs.openSync(options.logFile, "a");
  // With the V8 flags and environment npm start gives it: the service as operators run it.
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, "server.ts"], {
    cwd: ROOT,
    env: {
      ...SERVICE_ENVIRONMENT,
      ...process.env,
      DATA_DIR: options.dataDir,
      EMBEDDED_PG_PORT: String(options.pgPort),
      PORT: String(port),
      DEMO_DATA: "false",
      // Benchmarks measure the service, not the public feeds nor the operator's aircraft receiver.
      ...FEEDS_OFF_ENVIRONMENT,
      // Info, not less: readiness is its "Ready in" line, an info line (lib/ops/log.ts). At info
      // the service says little (its start, its stop, warnings); each job's line is at debug.
      LOG_LEVEL: "info",
      GRAPHILE_ENV: "production",
      // Budgets on (their counting is part of what is measured), far above what one client sends.
      RATE_LIMIT_PER_TOKEN: "1000000000",
      RATE_LIMIT_PER_ADDRESS: "1000000000",
      // The response cache off: the benches measure executing the operations (each request's SQL);
      // bench/request-path.ts turns it on for the cached targets it measures beside them.
      RESPONSE_CACHE_MB: "0",
      ...options.env,
    },
    stdio: ["ignore", "pipe", logFd ?? "inherit"],
  });
  if (logFd !== undefined) fs.closeSync(logFd); // the child has its own copy
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal)),
  );
  let ready = false;
  await new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      if (ready && options.logFile) fs.appendFileSync(options.logFile, line + "\n");
      if (line.startsWith("Ready in")) {
        ready = true;
        resolve();
      }
    });
    void exited.then((code) =>
      reject(
        new Error(
          `server.ts exited (code ${code}) before it was ready${options.logFile ? `; its log: ${options.logFile}` : ""}`,
        ),
      ),
    );
  });
  return {
    graphqlUrl: `http://127.0.0.1:${port}/graphql`,
    pid: child.pid!,
    exited,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
