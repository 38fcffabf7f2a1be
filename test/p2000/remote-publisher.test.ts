// A remote receiver (`npm run ingest:flex -- --to URL`) against a stand-in for the service's
// publishP2000Lines: a real HTTP server that stores batches by id (answering a repeated id with
// duplicate, as the service does) and can be told to fail. Whatever happens between them (the
// service down, answering 503, an answer lost, the receiver restarted or killed), the lines the
// service stored, each batch id counted once, must be exactly the lines read, in order.
import { afterAll, afterEach, describe, expect, test } from "@jest/globals";
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ROOT_DIR } from "../../lib/paths.ts";
import { createRemotePublisher, type RemotePublisher } from "../../lib/p2000/remote-publisher.ts";
import { fixture } from "../helpers/cli.ts";
import { waitUntil } from "../helpers/wait.ts";

/** What the stand-in does with a request: answer it, or fail in one of the ways a service can. */
type Behaviour = "answer" | "unavailable" | "drop" | "slow" | "unauthenticated" | "bad-input";

interface FakeService {
  url: string;
  /** Every request as it came, resends included. */
  requests: { batchId: string; lines: string[]; authorization?: string; at: number }[];
  /** Lines by batch id, in the order first stored. */
  stored: Map<string, string[]>;
  /** Batch ids sent again with other lines than the first time (must stay empty). */
  conflicts: string[];
  behave: (batchId: string, lines: string[]) => Behaviour;
  retryAfter: string;
  slowMs: number;
  /** Everything stored, each batch once. */
  sequence(): string[];
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

const servers: FakeService[] = [];
const publishers: RemotePublisher[] = [];
afterEach(async () => {
  await Promise.all(publishers.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

async function fakeService(): Promise<FakeService> {
  let server: http.Server | undefined;
  let port = 0;
  const service: FakeService = {
    url: "",
    requests: [],
    stored: new Map(),
    conflicts: [],
    behave: () => "answer",
    retryAfter: "0",
    slowMs: 500,
    sequence: () => [...service.stored.values()].flat(),
    async stop() {
      if (!server) return;
      const closing = server;
      server = undefined;
      closing.closeAllConnections();
      await new Promise((resolve) => closing.close(resolve));
    },
    async start() {
      server = http.createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const raw = Buffer.concat(chunks);
        // The service's limit on request bodies (MAX_GRAPHQL_BODY_BYTES).
        if (raw.length > 100_000) {
          return json(res, 413, { errors: [{ message: "Too large", extensions: { code: "PAYLOAD_TOO_LARGE" } }] });
        }
        const { query, variables } = JSON.parse(raw.toString("utf8"));
        expect(req.headers["content-type"]).toBe("application/json");
        expect(query).toContain("publishP2000Lines(batchId: $batchId, lines: $lines)");
        const { batchId, lines } = variables as { batchId: string; lines: string[] };
        service.requests.push({ batchId, lines, authorization: req.headers.authorization, at: Date.now() });
        const behaviour = service.behave(batchId, lines);
        if (behaviour === "unavailable") {
          const errors = [{ message: "Try again later", extensions: { code: "SERVICE_UNAVAILABLE" } }];
          return json(res, 503, { errors }, { "retry-after": service.retryAfter });
        }
        if (behaviour === "unauthenticated") {
          return json(res, 401, { errors: [{ message: "Token revoked", extensions: { code: "UNAUTHENTICATED" } }] });
        }
        if (behaviour === "bad-input") {
          const errors = [{ message: "A line has at most 4000 characters.", extensions: { code: "BAD_USER_INPUT" } }];
          return json(res, 200, { data: { publishP2000Lines: null }, errors });
        }
        const duplicate = service.stored.has(batchId);
        if (!duplicate) service.stored.set(batchId, lines);
        else if (JSON.stringify(service.stored.get(batchId)) !== JSON.stringify(lines)) service.conflicts.push(batchId);
        // The batch is stored, but the receiver never hears so.
        if (behaviour === "drop") return req.socket.destroy();
        if (behaviour === "slow") await new Promise((resolve) => setTimeout(resolve, service.slowMs));
        if (res.destroyed) return;
        const pages = lines.filter((line) => line.startsWith("FLEX|") && line.includes("|ALN|")).length;
        const skipped = lines.filter((line) => line.startsWith("FLEX|") && !line.includes("|ALN|")).length;
        json(res, 200, {
          data: {
            publishP2000Lines: {
              batchId,
              lines: lines.length,
              pages,
              skipped,
              malformed: lines.length - pages - skipped,
              duplicate,
            },
          },
        });
      });
      await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
      service.url = `http://127.0.0.1:${port}/graphql`;
    },
  };
  await service.start();
  servers.push(service);
  return service;
}

const made: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flex-spool-"));
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const flexLines = (count: number, first = 0) =>
  Array.from(
    { length: count },
    (_, i) => `FLEX|2026-11-30 08:00:00|1600/2/K/A|12.077|001420059|ALN|A1 Ambulance rit ${first + i} Utrecht`,
  );

function publisher(
  service: FakeService,
  spoolDir: string,
  options: { batchLines?: number; segmentBytes?: number; fetch?: typeof fetch } = {},
) {
  const log: string[] = [];
  const p = createRemotePublisher({
    url: service.url,
    token: "nlis_test",
    spoolDir,
    log: (line) => log.push(line),
    retryDelayMs: 10,
    maxRetryDelayMs: 100,
    ...options,
  });
  publishers.push(p);
  return Object.assign(p, { log });
}

async function pushAll(p: RemotePublisher, lines: string[]) {
  for (const line of lines) await p.push(line);
}

const pendingFiles = (dir: string) => fs.readdirSync(dir).filter((name) => name.startsWith("pending-"));

describe("createRemotePublisher", () => {
  test("delivers every line once, in order, in batches of at most 500, with the token", async () => {
    const service = await fakeService();
    const dir = tmp();
    const p = publisher(service, dir);
    const lines = [...flexLines(1234), "garbage line", "FLEX|2026-11-30 08:00:01|1600/2/A|12.078|001234567|NUM|123"];
    await pushAll(p, lines);
    await p.drain();
    expect(service.sequence()).toEqual(lines);
    expect(service.requests.length).toBe(service.stored.size);
    expect(Math.max(...service.requests.map((r) => r.lines.length))).toBeLessThanOrEqual(500);
    expect(service.requests.every((r) => r.authorization === "Bearer nlis_test")).toBe(true);
    expect(p.stats).toEqual({ lines: 1236, sent: 1236, stored: 1234, skipped: 1, malformed: 1, rejected: 0 });
    await p.close();
    // Nothing is left to send: a new run finds an empty spool.
    const again = publisher(service, dir);
    await again.drain();
    expect(service.requests.length).toBe(service.stored.size);
  });

  test("keeps each request under the service's body limit, and sends a line too long for it alone", async () => {
    const service = await fakeService();
    const p = publisher(service, tmp());
    const lines = flexLines(400).map((line) => line + " " + "x".repeat(600));
    lines.splice(150, 0, "FLEX|" + "y".repeat(5000));
    await pushAll(p, lines);
    await p.drain();
    expect(service.sequence()).toEqual(lines);
    expect(p.stats.rejected).toBe(0);
    expect(service.requests.find((r) => r.lines.includes(lines[150]))!.lines).toEqual([lines[150]]);
  });

  test("rides out an outage: lines are spooled while the service is down and all arrive once, in order", async () => {
    const service = await fakeService();
    let attempts = 0;
    const counting: typeof fetch = (...args) => (attempts++, fetch(...args));
    const p = publisher(service, tmp(), { fetch: counting });
    const lines = flexLines(900);
    await pushAll(p, lines.slice(0, 300));
    await p.flush();
    expect(service.sequence()).toEqual(lines.slice(0, 300));

    await service.stop();
    // Reading goes on, and a flush does not wait for the service to come back.
    await pushAll(p, lines.slice(300, 600));
    await p.flush();
    expect(p.stats.sent).toBe(300);
    const refusedFrom = attempts;
    await waitUntil(
      () => attempts,
      (n) => n >= refusedFrom + 3,
      "attempts while the service is down",
    );

    service.behave = () => "unavailable";
    const before = service.requests.length;
    await service.start();
    await waitUntil(
      () => service.requests.length,
      (n) => n >= before + 2,
      "503 answers",
    );
    await pushAll(p, lines.slice(600));
    service.behave = () => "answer";
    await p.drain();

    expect(service.sequence()).toEqual(lines);
    expect(service.conflicts).toEqual([]);
    expect(p.stats.sent).toBe(900);
    expect(p.log.some((line) => /Cannot deliver .*ECONNREFUSED/.test(line))).toBe(true);
    expect(p.log.some((line) => /Cannot deliver .*HTTP 503 \(SERVICE_UNAVAILABLE/.test(line))).toBe(true);
    // Logged when the state changes, not at every attempt.
    expect(p.log.filter((line) => line.startsWith("Cannot deliver")).length).toBeLessThan(
      attempts - service.stored.size,
    );
    expect(p.log.at(-1)).toMatch(/Delivering to .* again/);
  });

  test("honours Retry-After", async () => {
    const service = await fakeService();
    service.retryAfter = "1";
    service.behave = () => (service.requests.length === 1 ? "unavailable" : "answer");
    const p = publisher(service, tmp());
    await pushAll(p, flexLines(3));
    await p.drain();
    const [refused, retried] = service.requests;
    expect(retried.batchId).toBe(refused.batchId);
    expect(retried.at - refused.at).toBeGreaterThanOrEqual(950);
  });

  test("an answer lost after the service stored the batch: resent under the same id, stored once", async () => {
    const service = await fakeService();
    service.behave = (batchId) => (service.stored.size === 1 && !service.stored.has(batchId) ? "drop" : "answer");
    const p = publisher(service, tmp(), { batchLines: 100 });
    const lines = flexLines(450);
    await pushAll(p, lines);
    await p.drain();
    expect(service.sequence()).toEqual(lines);
    const ids = service.requests.map((r) => r.batchId);
    expect(ids.length).toBe(new Set(ids).size + 1);
    expect(ids[1]).toBe(ids[2]);
    expect(service.conflicts).toEqual([]);
    expect(p.stats.sent).toBe(450);
  });

  test("a restart sends what the first run left, first and in order, resending the unanswered batch under its id", async () => {
    const service = await fakeService();
    service.behave = () => "slow";
    const dir = tmp();
    // Small spool files, so that the run crosses several and drops the acknowledged ones.
    const options = { batchLines: 50, segmentBytes: 2000 };
    const first = publisher(service, dir, options);
    const lines = flexLines(400);
    await pushAll(first, lines.slice(0, 300));
    expect(pendingFiles(dir).length).toBeGreaterThan(5);
    await waitUntil(
      () => service.requests.length,
      (n) => n >= 2,
      "two batches",
    );
    // Abandoned with a batch in flight that the service stores but whose answer is never read.
    await first.close();
    const abandoned = service.requests.at(-1)!;
    expect(first.stats.sent).toBeLessThan(300);

    service.behave = () => "answer";
    const second = publisher(service, dir, options);
    await pushAll(second, lines.slice(300));
    await second.drain();
    expect(second.log[0]).toMatch(/kept from an earlier run first/);
    expect(service.requests[service.requests.indexOf(abandoned) + 1].batchId).toBe(abandoned.batchId);
    expect(service.sequence()).toEqual(lines);
    expect(service.conflicts).toEqual([]);
    expect(first.stats.sent + second.stats.sent).toBe(400);
    expect(pendingFiles(dir).length).toBeLessThanOrEqual(1);
  });

  test("a record half-written when the process died is cut off at the next start", async () => {
    const service = await fakeService();
    const dir = tmp();
    const lines = flexLines(6);
    const first = publisher(service, dir);
    await pushAll(first, lines.slice(0, 5));
    await first.close();
    const [last] = pendingFiles(dir).slice(-1);
    fs.appendFileSync(path.join(dir, last), '{"line":"FLEX|2026-11-30 08:00:00|1600/2/K/A|12.07');
    const second = publisher(service, dir);
    await second.push(lines[5]);
    await second.drain();
    expect(service.sequence()).toEqual(lines);
  });

  test("a refused token stops it with an error and keeps the spool", async () => {
    const service = await fakeService();
    service.behave = () => "unauthenticated";
    const dir = tmp();
    const p = publisher(service, dir);
    const lines = flexLines(20);
    await pushAll(p, lines);
    await expect(p.failed).rejects.toThrow(/refused the token \(UNAUTHENTICATED: Token revoked\)/);
    await expect(p.drain()).rejects.toThrow(/UNAUTHENTICATED/);
    await expect(p.push("one more")).rejects.toThrow(/UNAUTHENTICATED/);
    await p.flush(); // never rejects
    await p.close();
    expect(service.stored.size).toBe(0);

    service.behave = () => "answer";
    const renewed = publisher(service, dir);
    await renewed.drain();
    expect(service.sequence()).toEqual(lines);
  });

  test("a batch refused as bad input goes to rejected.jsonl, and the rest is delivered", async () => {
    const service = await fakeService();
    service.behave = (_, lines) => (lines.some((line) => line.endsWith("rit 15 Utrecht")) ? "bad-input" : "answer");
    const dir = tmp();
    const p = publisher(service, dir, { batchLines: 10 });
    const lines = flexLines(35);
    await pushAll(p, lines);
    await p.drain();
    const refused = service.requests.find((r) => !service.stored.has(r.batchId))!;
    expect(refused.lines).toEqual(lines.slice(10, 20));
    expect(service.sequence()).toEqual([...lines.slice(0, 10), ...lines.slice(20)]);
    const rejected = fs
      .readFileSync(path.join(dir, "rejected.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rejected).toEqual([
      {
        batchId: refused.batchId,
        rejectedAt: expect.any(String),
        reason: "BAD_USER_INPUT: A line has at most 4000 characters.",
        lines: refused.lines,
      },
    ]);
    expect(p.stats).toMatchObject({ sent: 25, rejected: 10 });
    expect(p.log.some((line) => line.includes("refused batch"))).toBe(true);
  });

  test("refuses a second publisher on the same spool, and a token over plain http to another machine", async () => {
    const service = await fakeService();
    const dir = tmp();
    publisher(service, dir);
    expect(() => publisher(service, dir)).toThrow(/already open/);
    expect(() => createRemotePublisher({ url: "http://service.example/graphql", token: "t", spoolDir: tmp() })).toThrow(
      /only over https/,
    );
  });
});

// The CLI as a receiver's operator runs it.
const script = path.join(ROOT_DIR, "bin", "ingest-flex.ts");
const cliEnv = (extra: Record<string, string> = {}) => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "", ...extra };
  if (!("NLIS_TOKEN" in extra)) delete env.NLIS_TOKEN;
  return env;
};

function ingest(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [script, ...args],
      { cwd: ROOT_DIR, env: cliEnv(options.env) },
      (error, _, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
    );
    child.stdin!.end(options.input ?? "");
  });
}

const fileLines = (file: string) => fs.readFileSync(file, "utf8").split("\n").slice(0, -1);

/**
 * What the service got from a file, with the time the reader wrote into a line without one
 * (lib/p2000/flex-parser.ts withReadTime) checked and taken out again: the file's lines, in order.
 */
function asRead(sent: string[]): string[] {
  return sent.map((line) => {
    const stamped = /^FLEX\|(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\|(\d{3,4}\/\d.*)$/.exec(line);
    if (!stamped || Math.abs(Date.parse(`${stamped[1]}Z`) - Date.now()) > 600_000) return line;
    return `FLEX|${stamped[2]}`;
  });
}

/** The spooled lines not yet acknowledged (cursor.json's acked is the offset of the first). */
function spooledRecords(dir: string) {
  return pendingFiles(dir).reduce(
    (n, name) => n + fs.readFileSync(path.join(dir, name), "utf8").split("\n").length - 1,
    0,
  );
}

describe("npm run ingest:flex -- --to", () => {
  test("delivers a file and exits 0 once every line is acknowledged", async () => {
    const service = await fakeService();
    const spool = tmp();
    const file = fixture("multimon-flex.txt");
    const result = await ingest(["--to", service.url, "--token", "x", "--spool", spool, file]);
    expect(result.stderr).toContain("10 lines read, 10 delivered: 7 pages, 1 skipped, 2 malformed");
    expect(result.code).toBe(0);
    expect(asRead(service.sequence())).toEqual(fileLines(file));
    expect(service.requests[0].authorization).toBe("Bearer x");
  });

  test("takes the token from NLIS_TOKEN, and refuses unclear arguments", async () => {
    const service = await fakeService();
    const lines = flexLines(2);
    const args = ["--to", service.url, "--spool", tmp(), "-"];
    const result = await ingest(args, { input: lines.join("\n") + "\n", env: { NLIS_TOKEN: "from-env" } });
    expect(result.code).toBe(0);
    expect(service.sequence()).toEqual(lines);
    expect(service.requests[0].authorization).toBe("Bearer from-env");

    expect((await ingest(args)).code).toBe(2); // no token
    expect((await ingest(["--token", "x", "-"])).code).toBe(2); // a token without --to
  });

  test("killed mid-way, the next run sends the rest: every line once, in order", async () => {
    const service = await fakeService();
    service.behave = () => "slow";
    service.slowMs = 150;
    const spool = tmp();
    const file = path.join(tmp(), "capture.log");
    const lines = flexLines(3000);
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const child = spawn(process.execPath, [script, "--to", service.url, "--token", "x", "--spool", spool, file], {
      cwd: ROOT_DIR,
      env: cliEnv(),
    });
    const exited = new Promise((resolve) => child.on("exit", (_, signal) => resolve(signal)));
    await waitUntil(
      () => spooledRecords(spool),
      (n) => n === 3000,
      "the whole file spooled",
    );
    await waitUntil(
      () => service.requests.length,
      (n) => n >= 2,
      "two batches",
    );
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    expect(service.sequence().length).toBeLessThan(3000);

    service.behave = () => "answer";
    const rest = await ingest(["--to", service.url, "--token", "x", "--spool", spool, "-"]);
    expect(rest.code).toBe(0);
    expect(rest.stderr).toContain("kept from an earlier run first");
    expect(service.sequence()).toEqual(lines);
    expect(service.conflicts).toEqual([]);
  });

  test("a refused token ends the run with status 1 and keeps the spool", async () => {
    const service = await fakeService();
    service.behave = () => "unauthenticated";
    const spool = tmp();
    const file = fixture("multimon-flex.txt");
    const refused = await ingest(["--to", service.url, "--token", "revoked", "--spool", spool, file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the token \(UNAUTHENTICATED: Token revoked\); the lines wait in/);

    service.behave = () => "answer";
    const renewed = await ingest(["--to", service.url, "--token", "renewed", "--spool", spool, "-"]);
    expect(renewed.code).toBe(0);
    expect(asRead(service.sequence())).toEqual(fileLines(file));
  });

  test("follows a growing file and stops at once on SIGTERM", async () => {
    const service = await fakeService();
    const file = path.join(tmp(), "receiver.log");
    const [firstLine, secondLine] = flexLines(2);
    fs.writeFileSync(file, firstLine + "\n");
    const child = spawn(
      process.execPath,
      [script, "--to", service.url, "--token", "x", "--spool", tmp(), "--follow", file],
      { cwd: ROOT_DIR, env: cliEnv() },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    await waitUntil(
      () => service.sequence().length,
      (n) => n === 1,
      "the first line",
    );
    fs.appendFileSync(file, secondLine + "\n");
    await waitUntil(
      () => service.sequence().length,
      (n) => n === 2,
      "the appended line",
    );
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(service.sequence()).toEqual([firstLine, secondLine]);
  });
});
