// The service's log (lib/ops/log.ts) at each LOG_LEVEL and in each LOG_FORMAT: which lines are
// written, how they read, and that no password of a connection string gets through.
import { afterEach, beforeEach, describe, expect, test } from "@jest/globals";
import { configureLog, log, LOG_LEVELS, redactPasswords, writeLogTo, type LogLevel } from "../../lib/ops/log.ts";

let lines: Array<{ level: LogLevel; line: string }>;
let undo: () => void;
beforeEach(() => {
  lines = [];
  undo = writeLogTo((level, line) => lines.push({ level, line }));
});
afterEach(() => {
  undo();
  configureLog({ level: "info", format: "text" });
});

function writeOneOfEach() {
  log.error("The database is gone.");
  log.warning("A webhook answered 500.");
  log.info("Ready in 1.0 s.");
  log.debug("Completed task 7 (monitors__match_feed, 2.00ms) with success");
}

describe("text", () => {
  test.each([
    ["error", ["ERROR The database is gone."]],
    ["warning", ["ERROR The database is gone.", "WARNING A webhook answered 500."]],
    ["info", ["ERROR The database is gone.", "WARNING A webhook answered 500.", "Ready in 1.0 s."]],
    [
      "debug",
      [
        "ERROR The database is gone.",
        "WARNING A webhook answered 500.",
        "Ready in 1.0 s.",
        "DEBUG Completed task 7 (monitors__match_feed, 2.00ms) with success",
      ],
    ],
  ] as Array<[LogLevel, string[]]>)("LOG_LEVEL=%s writes its level and the more severe ones", (level, expected) => {
    configureLog({ level, format: "text" });
    writeOneOfEach();
    expect(lines.map((l) => l.line)).toEqual(expected);
  });

  test("the message says it all; fields are for JSON, but a stack given follows the message, indented", () => {
    configureLog({ level: "info", format: "text" });
    log.warning("Task notifications__deliver (job 12) failed", { task: "notifications__deliver", jobId: "12" });
    log.error("[error abc] boom", { stack: "Error: boom\n    at here (file.ts:1:1)" });
    expect(lines.map((l) => l.line)).toEqual([
      "WARNING Task notifications__deliver (job 12) failed",
      "ERROR [error abc] boom\n    Error: boom\n        at here (file.ts:1:1)",
    ]);
  });
});

describe("json", () => {
  test.each(LOG_LEVELS.map((level): [LogLevel, number] => [level, LOG_LEVELS.indexOf(level) + 1]))(
    "LOG_LEVEL=%s: one JSON object per line, %s of them",
    (level, count) => {
      configureLog({ level, format: "json" });
      writeOneOfEach();
      expect(lines).toHaveLength(count);
      for (const { line } of lines) expect(line).not.toContain("\n");
      const entries = lines.map((l) => JSON.parse(l.line));
      expect(entries.map((e) => e.level)).toEqual(LOG_LEVELS.slice(0, count));
      expect(entries[0]).toEqual({ time: expect.any(String), level: "error", message: "The database is gone." });
      expect(new Date(entries[0].time).getTime()).toBeGreaterThan(Date.now() - 60_000);
    },
  );

  test("fields are fields of their own; an error becomes its message; time, level and message stay the log's", () => {
    configureLog({ level: "info", format: "json" });
    log.warning("\nTask notifications__deliver (job 12) failed, attempt 2 of 10", {
      task: "notifications__deliver",
      jobId: "12",
      attempt: 2,
      maxAttempts: 10,
      error: new Error("webhook answered 500"),
      level: "not this",
      absent: undefined,
    });
    expect(JSON.parse(lines[0].line)).toEqual({
      time: expect.any(String),
      level: "warning",
      message: "Task notifications__deliver (job 12) failed, attempt 2 of 10",
      task: "notifications__deliver",
      jobId: "12",
      attempt: 2,
      maxAttempts: 10,
      error: "webhook answered 500",
    });
  });

  test("a field that cannot be serialised costs the fields, not the line", () => {
    configureLog({ level: "info", format: "json" });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    log.info("still written", { cycle });
    expect(JSON.parse(lines[0].line)).toEqual({ time: expect.any(String), level: "info", message: "still written" });
  });
});

test("errors and warnings go to stderr, the rest to stdout (the default writer), each with a newline", () => {
  undo();
  const written: string[] = [];
  const spies = (["stdout", "stderr"] as const).map((stream) => {
    const original = process[stream].write;
    process[stream].write = ((chunk: string) => written.push(`${stream}:${chunk}`) > 0) as typeof original;
    return () => (process[stream].write = original);
  });
  try {
    configureLog({ level: "debug", format: "text" });
    writeOneOfEach();
  } finally {
    for (const restore of spies) restore();
    undo = writeLogTo((level, line) => lines.push({ level, line }));
  }
  expect(written.filter((w) => /gone|answered 500|Ready in|Completed task 7/.test(w))).toEqual([
    "stderr:ERROR The database is gone.\n",
    "stderr:WARNING A webhook answered 500.\n",
    "stdout:Ready in 1.0 s.\n",
    "stdout:DEBUG Completed task 7 (monitors__match_feed, 2.00ms) with success\n",
  ]);
});

test("no password of a connection string gets into a line, in either format", () => {
  expect(redactPasswords("connect postgres://app_owner:s3cr%40t@127.0.0.1:5432/incidents failed")).toBe(
    "connect postgres://app_owner:***@127.0.0.1:5432/incidents failed",
  );
  expect(redactPasswords("smtps://mailer:hunter2@smtp.example.org and postgresql://u:p@h/d")).toBe(
    "smtps://mailer:***@smtp.example.org and postgresql://u:***@h/d",
  );
  expect(redactPasswords("host=db user=app password=hunter2 dbname=x")).toBe("host=db user=app password=*** dbname=x");
  // A URL without a password, and a plain address, stay as they are.
  expect(redactPasswords("postgres://app_analyst@127.0.0.1:54329/incidents, mail@example.org")).toBe(
    "postgres://app_analyst@127.0.0.1:54329/incidents, mail@example.org",
  );

  for (const format of ["text", "json"] as const) {
    configureLog({ level: "debug", format });
    const error = new Error('getaddrinfo ENOTFOUND for "postgres://app_owner:hunter2@db:5432/incidents"');
    log.error(`Using postgres://app_owner:hunter2@db:5432/incidents: ${error.message}`, {
      error,
      url: "postgres://app_owner:hunter2@db/incidents",
      stack: error.stack,
    });
  }
  expect(lines).toHaveLength(2);
  for (const { line } of lines) {
    expect(line).not.toContain("hunter2");
    expect(line).toContain("postgres://app_owner:***@db");
  }
});
