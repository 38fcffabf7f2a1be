// Running a bin/ command as an operator would: a real Node process against a test database.
import { execFile } from "node:child_process";
import path from "node:path";
import { ROOT_DIR } from "../../lib/paths.ts";

export const fixture = (name: string) => path.join(ROOT_DIR, "test", "fixtures", name);

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(script: string, args: string[], databaseUrl: string, input?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(ROOT_DIR, "bin", script), ...args],
      { cwd: ROOT_DIR, env: { ...process.env, DATABASE_URL: databaseUrl, NODE_OPTIONS: "" } },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}
