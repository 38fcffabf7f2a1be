// The service as an operator runs it for scale-out: `node server.ts` in a process of its own with
// PROCESS_ROLE api or worker, on a test database (DATABASE_URL), no feed polling the internet.
import { spawn, type ChildProcess } from "node:child_process";
import { FEEDS_OFF_ENVIRONMENT } from "../../lib/config.ts";
import { ROOT_DIR } from "../../lib/paths.ts";
import type { TestDatabase } from "./database.ts";
import { freePort } from "./ports.ts";
import { TEST_JWT_SECRET } from "./service.ts";
import { waitUntil } from "./wait.ts";

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** Everything it wrote, stdout and stderr. */
  output: () => string;
  /** SIGTERM (or `signal`), resolved when it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the process and waits for its "Ready in" line; `env` adds or overrides settings. */
export async function startServiceProcess(
  db: TestDatabase,
  role: "api" | "worker",
  env: Record<string, string> = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ["server.ts"], {
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      NODE_OPTIONS: "",
      PROCESS_ROLE: role,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: db.ownerUrl,
      AUTH_DATABASE_URL: db.authUrl,
      JWT_SECRET: TEST_JWT_SECRET,
      DEMO_DATA: "false",
      LOG_LEVEL: "debug", // completed jobs are debug lines (lib/ops/log.ts)
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      GRAPHILE_ENV: "production",
      ...FEEDS_OFF_ENVIRONMENT,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await waitUntil(
    async () => output,
    (text) => /Ready in/.test(text) || child.exitCode !== null,
    `the ${role} process to start`,
    60_000,
  );
  if (child.exitCode !== null) throw new Error(`The ${role} process exited:\n${output}`);
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
