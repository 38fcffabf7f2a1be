// A receiver on another machine than the service (`npm run ingest:flex -- --to URL`): the raw
// multimon-ng lines go to the service's publishP2000Lines mutation, which parses and stores them.
// The network and the service may be down for hours, and the receiver may be killed at any moment,
// so every line is first appended to a spool on disk and leaves it only once the service has
// acknowledged it. One background loop sends the spool, in order, one batch at a time (order is
// the order heard, and the service joins a page's fragments within a batch), retrying with backoff.
//
// The spool directory (one receiver per directory, guarded by a lock file):
//   spool-id               random, made once: the first part of every batch id
//   pending-<offset>.jsonl one {"line": …} per line; <offset> is the byte offset of its first line
//                          in the spool's whole history, so offsets only grow and name batches. A
//                          file is begun once the last reaches segmentBytes and deleted once every
//                          line in it is acknowledged: no file is ever rewritten.
//   cursor.json            {"acked": offset, "sending": {"from", "to"}}: what the service has, and
//                          the batch that may have reached it unanswered. A batch is fixed (and its
//                          id, <spool-id>-<from>-<to>, with it) before it is first sent, so a restart
//                          resends exactly that batch under the same id: the service answers a batch
//                          it stored with duplicate, and nothing is lost or stored twice.
//   rejected.jsonl         batches the service refused for good (BAD_USER_INPUT), with its reason.
// Files are written synchronously: each append is whole before push() resolves, the cursor is
// replaced atomically (write, fsync, rename), and a record half-written when the process died is
// cut off at the next start (its push never resolved). This survives the process being killed; a
// power cut may lose the lines of the last moments, never the order or the cursor's consistency.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { FlexIngester, FlexStats } from "./flex-ingest.ts";
import { withReadTime } from "./flex-parser.ts";
import { MAX_PUBLISHED_LINE_LENGTH, MAX_PUBLISHED_LINES } from "./publish-limits.ts";

const PUBLISH_MUTATION = `mutation Publish($batchId: String!, $lines: [String!]!) {
  publishP2000Lines(batchId: $batchId, lines: $lines) { batchId lines pages skipped malformed duplicate }
}`;

/**
 * The service refuses request bodies over 100,000 bytes (MAX_GRAPHQL_BODY_BYTES). A spooled line
 * is its JSON string plus 10 bytes, so batches of at most this many spool bytes leave room for the
 * query: long lines in the JSON output would otherwise make a 500-line batch too large for ever.
 */
const MAX_BATCH_BYTES = 80_000;
// The service refuses a batch with a line longer than MAX_PUBLISHED_LINE_LENGTH (garbage from a
// bad signal), so such a line travels alone: only it ends up in rejected.jsonl, not the pages sent
// with it.
/** An idle sender waits this long after the first new line, so a burst (a group call, a page's fragments) goes in one batch. */
const LINGER_MS = 100;
const REQUEST_TIMEOUT_MS = 30_000;
const SEGMENT_BYTES = 4 * 1024 * 1024;
const READ_CHUNK_BYTES = 64 * 1024;

export interface RemotePublisherOptions {
  /** The service's GraphQL endpoint: https, or http to this machine only (the token must not travel in clear). */
  url: string;
  /** An API token of a receiver. */
  token: string;
  spoolDir: string;
  log?: (line: string) => void;
  /** Lines per call, at most 500. */
  batchLines?: number;
  fetch?: typeof fetch;
  /** The first wait after a failed attempt (1 s); each further failure doubles it up to maxRetryDelayMs (30 s). */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Size at which a new spool file is begun. */
  segmentBytes?: number;
}

/** FlexStats as the service counted them: `stored` is the pages it stored or merged. */
export interface RemoteStats extends FlexStats {
  /** Lines the service acknowledged, including any a previous run left in the spool. */
  sent: number;
  /** Lines of batches the service refused for good (in rejected.jsonl). */
  rejected: number;
}

export interface RemotePublisher extends FlexIngester {
  stats: RemoteStats;
  /**
   * Sends what is spooled now; resolves once everything pushed before it is acknowledged, or at
   * once while the service is unreachable (the background loop keeps retrying). Never rejects: a
   * fatal error surfaces through `failed`, push() and drain().
   */
  flush(): Promise<void>;
  /** Resolves once everything pushed before it is acknowledged, however long that takes. */
  drain(): Promise<void>;
  /** Rejects when the service refuses the token (UNAUTHENTICATED or FORBIDDEN); the spool is kept. */
  failed: Promise<never>;
  /** Stops sending (a request in flight is abandoned, to be resent) and releases the spool. */
  close(): Promise<void>;
}

interface Extent {
  from: number;
  to: number;
}

interface Batch extends Extent {
  id: string;
  lines: string[];
}

interface PublishResult {
  pages: number;
  skipped: number;
  malformed: number;
}

interface GraphQLAnswer {
  data?: { publishP2000Lines?: PublishResult | null };
  errors?: { message?: string; extensions?: { code?: string } }[];
}

type Outcome =
  | { kind: "accepted"; result: PublishResult }
  | { kind: "rejected"; reason: string }
  | { kind: "fatal"; reason: string }
  | { kind: "retry"; reason: string; retryAfterMs?: number };

/** Spool directories open in this process: the lock file cannot tell them apart (same pid). */
const openSpools = new Set<string>();

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Two receivers on one spool would interleave their records, and the default directory is the
 * same for every receiver started in one place. A lock left by a dead process is taken over; so is
 * one with this process's own pid, a previous life of it (in a container the receiver is always
 * pid 1).
 */
function lockSpool(dir: string) {
  const file = path.join(dir, "lock");
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      return () => fs.rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let holder: number;
    try {
      holder = Number(fs.readFileSync(file, "utf8"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // released meanwhile
      throw error;
    }
    if (holder !== process.pid && isAlive(holder)) {
      throw new Error(`The spool ${dir} is in use by process ${holder}: give each receiver its own spool directory.`);
    }
    fs.rmSync(file, { force: true });
  }
}

function writeAtomically(file: string, text: string) {
  const temporary = `${file}.tmp`;
  const fd = fs.openSync(temporary, "w");
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
}

/** The length of a file up to and including its last newline. */
function wholeRecordsLength(file: string): number {
  const fd = fs.openSync(file, "r");
  try {
    for (let end = fs.fstatSync(fd).size; end > 0;) {
      const start = Math.max(0, end - READ_CHUNK_BYTES);
      const chunk = Buffer.alloc(end - start);
      fs.readSync(fd, chunk, 0, chunk.length, start);
      const newline = chunk.lastIndexOf(10);
      if (newline !== -1) return start + newline + 1;
      end = start;
    }
    return 0;
  } finally {
    fs.closeSync(fd);
  }
}

const SEGMENT = /^pending-(\d+)\.jsonl$/;

function openSpool(dir: string, segmentBytes: number) {
  fs.mkdirSync(dir, { recursive: true });
  const unlock = lockSpool(dir);
  const idFile = path.join(dir, "spool-id");
  if (!fs.existsSync(idFile)) writeAtomically(idFile, randomUUID());
  const id = fs.readFileSync(idFile, "utf8").trim();
  const cursorFile = path.join(dir, "cursor.json");
  const saved = (fs.existsSync(cursorFile) ? JSON.parse(fs.readFileSync(cursorFile, "utf8")) : {}) as {
    acked?: number;
    sending?: Extent;
  };
  const segmentFile = (start: number) => path.join(dir, `pending-${start}.jsonl`);
  const segments = fs
    .readdirSync(dir)
    .flatMap((name) => {
      const match = SEGMENT.exec(name);
      return match ? [Number(match[1])] : [];
    })
    .sort((a, b) => a - b);

  let lastSize = 0;
  if (segments.length > 0) {
    const last = segmentFile(segments.at(-1)!);
    lastSize = wholeRecordsLength(last);
    fs.truncateSync(last, lastSize);
  }
  let end = segments.length > 0 ? segments.at(-1)! + lastSize : (saved.acked ?? 0);
  let acked = Math.max(saved.acked ?? 0, segments[0] ?? 0);
  // A cursor beyond the data: lines the service has, or may have (the batch being sent), were lost
  // from the disk (a power cut). New lines continue after it, so no offset, and no batch id, is
  // used twice.
  end = Math.max(end, acked, saved.sending?.to ?? 0);
  let sending = saved.sending?.from === acked && saved.sending.to <= end ? saved.sending : undefined;
  let appender: { fd: number; size: number } | undefined;

  /** Deletes the files whose every line is acknowledged, but not the one being appended to. */
  function dropAcknowledged() {
    while (segments.length > (appender ? 1 : 0) && (segments[1] ?? end) <= acked) {
      fs.rmSync(segmentFile(segments.shift()!), { force: true });
    }
  }
  dropAcknowledged();
  if (segments.length > 0)
    appender = { fd: fs.openSync(segmentFile(segments.at(-1)!), "a"), size: end - segments.at(-1)! };

  function saveCursor() {
    writeAtomically(cursorFile, JSON.stringify(sending ? { acked, sending } : { acked }));
  }

  return {
    id,
    get acked() {
      return acked;
    },
    get end() {
      return end;
    },
    get sending() {
      return sending;
    },

    append(line: string) {
      const record = Buffer.from(JSON.stringify({ line }) + "\n");
      if (!appender || appender.size >= segmentBytes) {
        if (appender) fs.closeSync(appender.fd);
        segments.push(end);
        appender = { fd: fs.openSync(segmentFile(end), "a"), size: 0 };
      }
      try {
        const written = fs.writeSync(appender.fd, record);
        if (written < record.length)
          throw new Error(`The spool ${dir} took ${written} of ${record.length} bytes: is the disk full?`);
      } catch (error) {
        // A disk that is full may take part of the record: the next one must start where this did.
        fs.ftruncateSync(appender.fd, appender.size);
        throw error;
      }
      appender.size += record.length;
      end += record.length;
    },

    /**
     * The lines from `from` up to `until` (offsets of whole records). With `limits` (forming a
     * batch): at most that many lines and bytes of spool, but at least one line, and a line over
     * MAX_PUBLISHED_LINE_LENGTH only alone.
     */
    read(from: number, until: number, limits?: { lines: number; bytes: number }): { lines: string[]; to: number } {
      const lines: string[] = [];
      let offset = from;
      while (offset < until) {
        const index = segments.findLastIndex((start) => start <= offset);
        const start = segments[index];
        const stop = Math.min(segments[index + 1] ?? end, until);
        const fd = fs.openSync(segmentFile(start), "r");
        try {
          let carry = Buffer.alloc(0);
          let position = offset - start;
          while (offset < stop) {
            const chunk = Buffer.alloc(Math.min(READ_CHUNK_BYTES, stop - start - position));
            const read = fs.readSync(fd, chunk, 0, chunk.length, position);
            if (read === 0) throw new Error(`${segmentFile(start)} is shorter than the spool expects.`);
            position += read;
            let data = Buffer.concat([carry, chunk.subarray(0, read)]);
            for (let newline = data.indexOf(10); newline !== -1; newline = data.indexOf(10)) {
              const record = data.subarray(0, newline + 1);
              const { line } = JSON.parse(record.toString("utf8")) as { line: string };
              const alone = limits !== undefined && line.length > MAX_PUBLISHED_LINE_LENGTH;
              const full =
                limits !== undefined &&
                (lines.length >= limits.lines || offset + record.length - from > limits.bytes || alone);
              if (lines.length > 0 && full) return { lines, to: offset };
              lines.push(line);
              offset += record.length;
              if (alone) return { lines, to: offset };
              data = data.subarray(newline + 1);
            }
            carry = data;
          }
        } finally {
          fs.closeSync(fd);
        }
      }
      return { lines, to: offset };
    },

    /** Fixes the extent of the next batch before it is first sent. */
    beginBatch(extent: Extent) {
      sending = extent;
      saveCursor();
    },

    acknowledge(to: number) {
      acked = to;
      sending = undefined;
      saveCursor();
      dropAcknowledged();
    },

    reject(batch: Batch, reason: string) {
      const record = { batchId: batch.id, rejectedAt: new Date().toISOString(), reason, lines: batch.lines };
      fs.appendFileSync(path.join(dir, "rejected.jsonl"), JSON.stringify(record) + "\n");
    },

    close() {
      if (appender) fs.closeSync(appender.fd);
      appender = undefined;
      unlock();
    },
  };
}

/** Retry-After in seconds or as an HTTP date. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isNaN(ms) ? undefined : Math.max(0, ms);
}

function describeFetchError(error: unknown): string {
  const { message, cause } = error as Error & { cause?: Error & { code?: string } };
  return cause ? `${message}: ${cause.code ?? cause.message}` : message;
}

function isLoopback(hostname: string) {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

export function createRemotePublisher(options: RemotePublisherOptions): RemotePublisher {
  const url = new URL(options.url);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
    throw new Error(`${options.url}: the token travels only over https (or http to this machine).`);
  }
  const batchLines = options.batchLines ?? MAX_PUBLISHED_LINES;
  if (!Number.isInteger(batchLines) || batchLines < 1 || batchLines > MAX_PUBLISHED_LINES) {
    throw new Error(`batchLines is 1 to ${MAX_PUBLISHED_LINES}.`);
  }
  const log = options.log ?? ((line) => console.error(line));
  const fetchImpl = options.fetch ?? fetch;
  const firstDelay = options.retryDelayMs ?? 1000;
  const maxDelay = options.maxRetryDelayMs ?? 30_000;
  const spoolDir = path.resolve(options.spoolDir);
  if (openSpools.has(spoolDir)) throw new Error(`The spool ${spoolDir} is already open in this process.`);
  const spool = openSpool(spoolDir, options.segmentBytes ?? SEGMENT_BYTES);
  openSpools.add(spoolDir);

  const stats: RemoteStats = { lines: 0, stored: 0, skipped: 0, malformed: 0, sent: 0, rejected: 0 };
  const stopping = new AbortController();
  let fatal: Error | undefined;
  let rejectFailed: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (rejectFailed = reject));
  failed.catch(() => {}); // a caller that never looks at it is told through push() and drain()
  /** The latest attempt failed; cleared by the next success. */
  let unreachable = false;
  /** A flush asked to send without lingering. */
  let urgent = false;
  let wakeSender = () => {};
  const waiters: { target: number; drain: boolean; resolve: () => void; reject: (error: Error) => void }[] = [];

  function settleWaiters() {
    for (const waiter of [...waiters]) {
      const closed = stopping.signal.aborted;
      const done = spool.acked >= waiter.target;
      if (!(done || fatal || closed || (!waiter.drain && unreachable))) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      if (done || !waiter.drain) waiter.resolve();
      else waiter.reject(fatal ?? new Error(`Closed before everything was delivered; the rest waits in ${spoolDir}.`));
    }
  }

  function waitFor(drain: boolean) {
    const promise = new Promise<void>((resolve, reject) => waiters.push({ target: spool.end, drain, resolve, reject }));
    if (spool.end > spool.acked) urgent = true;
    wakeSender();
    settleWaiters();
    return promise;
  }

  async function publish(batch: Batch): Promise<Outcome> {
    let response: Response;
    let body: GraphQLAnswer;
    try {
      response = await fetchImpl(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${options.token}` },
        body: JSON.stringify({ query: PUBLISH_MUTATION, variables: { batchId: batch.id, lines: batch.lines } }),
        signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      });
      // Not JSON (a proxy's error page): judged by its status alone.
      body = ((await response.json().catch(() => undefined)) ?? {}) as GraphQLAnswer;
    } catch (error) {
      return { kind: "retry", reason: describeFetchError(error) };
    }
    const errors = body.errors ?? [];
    const described = errors.map((e) => `${e.extensions?.code ?? "no code"}: ${e.message}`).join("; ");
    const codes = new Set(errors.map((e) => e.extensions?.code));
    if (codes.has("UNAUTHENTICATED") || codes.has("FORBIDDEN")) return { kind: "fatal", reason: described };
    // A body over the service's limit is refused like bad input: sent again, it is refused again.
    if (codes.has("BAD_USER_INPUT") || response.status === 413) {
      return { kind: "rejected", reason: described || `HTTP ${response.status}` };
    }
    const result = body.data?.publishP2000Lines;
    if (response.ok && errors.length === 0 && result) return { kind: "accepted", result };
    return {
      kind: "retry",
      reason: `HTTP ${response.status}${described ? ` (${described})` : ""}`,
      retryAfterMs: retryAfterMs(response.headers.get("retry-after")),
    };
  }

  /** The batch left unanswered by an earlier attempt or run, or the next one from the spool. */
  function nextBatch(): Batch | undefined {
    const batch = (extent: Extent, lines: string[]) => ({
      ...extent,
      id: `${spool.id}-${extent.from}-${extent.to}`,
      lines,
    });
    const unanswered = spool.sending;
    if (unanswered) return batch(unanswered, spool.read(unanswered.from, unanswered.to).lines);
    if (spool.end === spool.acked) return undefined;
    const { lines, to } = spool.read(spool.acked, spool.end, { lines: batchLines, bytes: MAX_BATCH_BYTES });
    const extent = { from: spool.acked, to };
    spool.beginBatch(extent);
    return batch(extent, lines);
  }

  async function waitForLines() {
    if (spool.end === spool.acked && !stopping.signal.aborted) {
      await new Promise<void>((resolve) => (wakeSender = resolve));
    }
    if (!urgent) await sleep(LINGER_MS, undefined, { signal: stopping.signal }).catch(() => {});
    urgent = false;
  }

  async function run() {
    let delay = firstDelay;
    /** What went wrong last, so that each change of state is logged once, not every attempt. */
    let failure: string | undefined;
    if (spool.end > spool.acked) log(`Sending what ${spoolDir} kept from an earlier run first.`);
    while (!stopping.signal.aborted) {
      const batch = nextBatch();
      if (!batch) {
        await waitForLines();
        continue;
      }
      const outcome = await publish(batch);
      if (stopping.signal.aborted) break;
      if (outcome.kind === "fatal") {
        fatal = new Error(`${url.href} refused the token (${outcome.reason}); the lines wait in ${spoolDir}.`);
        rejectFailed(fatal);
        break;
      }
      if (outcome.kind === "retry") {
        if (outcome.reason !== failure) log(`Cannot deliver to ${url.href}: ${outcome.reason}; retrying.`);
        failure = outcome.reason;
        unreachable = true;
        settleWaiters();
        // Retry-After is the least wait the service asks for; the backoff still applies.
        await sleep(Math.max(outcome.retryAfterMs ?? 0, delay), undefined, { signal: stopping.signal }).catch(() => {});
        delay = Math.min(delay * 2, maxDelay);
        continue;
      }
      if (failure !== undefined) log(`Delivering to ${url.href} again.`);
      failure = undefined;
      unreachable = false;
      delay = firstDelay;
      if (outcome.kind === "rejected") {
        spool.reject(batch, outcome.reason);
        stats.rejected += batch.lines.length;
        log(
          `${url.href} refused batch ${batch.id} (${batch.lines.length} lines) for good: ${outcome.reason}; ` +
            `kept in ${path.join(spoolDir, "rejected.jsonl")}.`,
        );
      } else {
        // A duplicate's counts are those of its first delivery, whose answer this process never saw.
        stats.sent += batch.lines.length;
        stats.stored += outcome.result.pages;
        stats.skipped += outcome.result.skipped;
        stats.malformed += outcome.result.malformed;
      }
      spool.acknowledge(batch.to);
      settleWaiters();
    }
  }

  const running = run().catch((error: Error) => {
    fatal = error;
    rejectFailed(error);
  });
  // Settles the waiters once the loop ended on a fatal error.
  void running.then(settleWaiters);

  let closing: Promise<void> | undefined;
  return {
    stats,
    failed,
    async push(line) {
      if (fatal) throw fatal;
      if (stopping.signal.aborted) throw new Error("The publisher is closed.");
      // The time it was heard goes with a line that has none: it may be sent hours later.
      spool.append(withReadTime(line, new Date()));
      stats.lines++;
      wakeSender();
    },
    flush: () => waitFor(false),
    drain: () => waitFor(true),
    close() {
      return (closing ??= (async () => {
        stopping.abort();
        wakeSender();
        await running;
        settleWaiters();
        spool.close();
        openSpools.delete(spoolDir);
      })());
    },
  };
}
