// The service's log (docs/operations.md#the-log): one line per event that matters, at one of four
// levels (LOG_LEVEL), as plain text for a terminal or journald, or as one JSON object per line for
// a log service (LOG_FORMAT). Every part of the service writes through `log`, so the level, the
// format and the removal of passwords hold for every line: a log shipped elsewhere must carry no
// credential, whoever wrote the message (a driver's error may quote its connection string).

export const LOG_LEVELS = ["error", "warning", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ["text", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** config.log: the least severe level written, and the format. */
export interface LogConfig {
  level: LogLevel;
  format: LogFormat;
}

/**
 * What a line carries besides its message: fields of their own in JSON (task, jobId, attempt, …).
 * The text format shows the message only, which says it all; a `stack` follows it there, indented.
 */
export type LogFields = Record<string, unknown>;

/** Takes one finished line (without its newline). */
export type LogWriter = (level: LogLevel, line: string) => void;

// Errors and warnings on stderr, the rest on stdout, as a process manager expects.
const toStandardStreams: LogWriter = (level, line) =>
  void (level === "error" || level === "warning" ? process.stderr : process.stdout).write(`${line}\n`);

let settings: LogConfig = { level: "info", format: "text" };
let writer: LogWriter = toStandardStreams;

/** Sets the process's log level and format (server.ts at once, startService again with the same). */
export function configureLog(config: LogConfig): void {
  settings = { level: config.level, format: config.format };
}

/** Sends the lines to `target` instead of stdout and stderr (tests); returns the undo. */
export function writeLogTo(target: LogWriter): () => void {
  const previous = writer;
  writer = target;
  return () => {
    writer = previous;
  };
}

/** Whether lines of this level are written (to leave out work only a debug line needs). */
export function logs(level: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf(settings.level);
}

/**
 * The text with the passwords of URLs (postgres://user:password@host, smtps://…) and of
 * key=value connection strings replaced by ***.
 */
export function redactPasswords(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):[^\s@/]*@/gi, "$1:***@")
    .replace(/\b(password\s*=\s*)('[^']*'|[^\s&;]+)/gi, "$1***");
}

const TEXT_PREFIX: Record<LogLevel, string> = { error: "ERROR ", warning: "WARNING ", info: "", debug: "DEBUG " };

function jsonValue(value: unknown): unknown {
  if (typeof value === "string") return redactPasswords(value);
  if (value instanceof Error) return redactPasswords(value.message);
  return value;
}

function format(level: LogLevel, message: string, fields: LogFields): string {
  if (settings.format === "json") {
    const entry: LogFields = { time: new Date().toISOString(), level, message: redactPasswords(message.trim()) };
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined && !(key in entry)) entry[key] = jsonValue(value);
    }
    try {
      return JSON.stringify(entry);
    } catch {
      // A field that cannot be serialised (a cycle, a BigInt) must not cost the line.
      return JSON.stringify({ time: entry.time, level, message: entry.message });
    }
  }
  const stack = typeof fields.stack === "string" ? `\n    ${fields.stack.split("\n").join("\n    ")}` : "";
  return redactPasswords(`${TEXT_PREFIX[level]}${message}${stack}`);
}

function write(level: LogLevel, message: string, fields: LogFields = {}): void {
  if (logs(level)) writer(level, format(level, message, fields));
}

/** The service's log. Messages are whole sentences an operator can act on; fields are for machines. */
export const log = {
  error: (message: string, fields?: LogFields) => write("error", message, fields),
  warning: (message: string, fields?: LogFields) => write("warning", message, fields),
  info: (message: string, fields?: LogFields) => write("info", message, fields),
  debug: (message: string, fields?: LogFields) => write("debug", message, fields),
  at: write,
};
