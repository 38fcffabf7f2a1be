// `npm run ingest:flex -- [--to URL [--token TOKEN] [--spool DIR]] <FILE | - | --follow FILE | --tcp HOST:PORT>`:
// reads P2000 messages in multimon-ng FLEX output (classic lines or --json). FILE or - (stdin) is
// read once; --follow keeps reading a growing file (a receiver's log), --tcp a socket that streams
// lines (reconnecting).
// Without --to the pages are stored in the database: DATABASE_URL or the embedded default (a
// running `npm start` is reused); malformed lines are counted and logged, never fatal.
// With --to, a receiver next to the radio sends the raw lines to the service's GraphQL endpoint
// (publishP2000Lines, lib/p2000/remote-publisher.ts), which parses, counts and stores them; no
// database is opened. The token is a receiver's API token, from --token or NLIS_TOKEN (the
// environment keeps it out of the process list, where other users of the machine can read it).
// Lines wait in a spool directory (--spool, default ./.ingest-spool, one per receiver) until the
// service has them, so an outage or a restart loses none: the next run sends what is left first.
// A FILE or stdin ends once every line is delivered; SIGINT or SIGTERM stops at once and leaves
// the rest in the spool; a refused token ends the run with status 1, the spool kept.
import fs from "node:fs";
import net from "node:net";
import readline from "node:readline";
import { parseArgs } from "node:util";
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";
import { createFlexIngester, FLEX_READER_CONNECTIONS, type FlexIngester } from "../lib/p2000/flex-ingest.ts";
import { createRemotePublisher } from "../lib/p2000/remote-publisher.ts";

const USAGE = `Usage: npm run ingest:flex -- [--to URL [--token TOKEN] [--spool DIR]] FILE | - | --follow FILE | --tcp HOST:PORT
  --to URL     send the lines to the service's GraphQL endpoint (https://…/graphql) instead of the database
  --token T    a receiver's API token; or set NLIS_TOKEN
  --spool DIR  where lines wait until the service has them (default ./.ingest-spool)`;
const DEFAULT_SPOOL = "./.ingest-spool";

/** Where the lines go: the database, or the service (--to). */
interface Destination {
  ingester: FlexIngester;
  /** Rejects when the destination fails for good while lines are still being read. */
  failed: Promise<never>;
  /** At the end of input: stores or delivers the rest, reports, and lets go. */
  finish(): Promise<void>;
}

async function openDatabase(): Promise<Destination> {
  const database = await prepareDatabase(loadConfig().database);
  const pool = new pg.Pool({ connectionString: database.ownerUrl, max: FLEX_READER_CONNECTIONS });
  const ingester = createFlexIngester(pool);
  return {
    ingester,
    failed: new Promise<never>(() => {}),
    async finish() {
      await ingester.flush();
      const s = ingester.stats;
      console.error(
        `${s.lines} lines: ${s.stored} pages stored (copies merged), ${s.skipped} skipped, ${s.malformed} malformed.`,
      );
      await pool.end();
      await database.close();
    },
  };
}

function openService(url: string, token: string, spoolDir: string): Destination & { report(): void } {
  const publisher = createRemotePublisher({ url, token, spoolDir });
  const report = () => {
    const s = publisher.stats;
    console.error(
      `${s.lines} lines read, ${s.sent} delivered: ${s.stored} pages, ${s.skipped} skipped, ${s.malformed} malformed ` +
        `(as the service counted them)${s.rejected ? `; ${s.rejected} refused (in ${spoolDir}/rejected.jsonl)` : ""}.`,
    );
  };
  return {
    ingester: publisher,
    failed: publisher.failed,
    report,
    async finish() {
      try {
        await publisher.drain();
      } finally {
        await publisher.close();
        report();
      }
    },
  };
}

async function readOnce(stream: NodeJS.ReadableStream, ingester: FlexIngester) {
  for await (const line of readline.createInterface({ input: stream, crlfDelay: Infinity })) {
    await ingester.push(line);
  }
}

/** Reads a file as it grows (like tail -f), from its start; a truncated file is read anew. */
async function follow(file: string, ingester: FlexIngester, stopped: () => boolean) {
  let position = 0;
  let partial = "";
  while (!stopped()) {
    const size = fs.existsSync(file) ? fs.statSync(file).size : 0;
    if (size < position) position = 0;
    if (size > position) {
      const chunk = await new Promise<string>((resolve, reject) => {
        let data = "";
        fs.createReadStream(file, { start: position, end: size - 1, encoding: "utf8" })
          .on("data", (part) => (data += part))
          .on("end", () => resolve(data))
          .on("error", reject);
      });
      position = size;
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) await ingester.push(line);
      await ingester.flush();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Reads lines from a TCP socket, reconnecting with backoff when it closes. */
async function readTcp(address: string, ingester: FlexIngester, stopped: () => boolean) {
  const [host, port] = address.includes(":")
    ? [address.slice(0, address.lastIndexOf(":")), address.slice(address.lastIndexOf(":") + 1)]
    : ["127.0.0.1", address];
  let delay = 1000;
  while (!stopped()) {
    try {
      const socket = net.connect({ host, port: Number(port) });
      await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
      console.error(`Connected to ${host}:${port}.`);
      delay = 1000;
      const flusher = setInterval(() => void ingester.flush(), 1000);
      try {
        await readOnce(socket, ingester);
      } finally {
        clearInterval(flusher);
        await ingester.flush();
      }
      console.error(`${host}:${port} closed the connection.`);
    } catch (error) {
      console.error(`Cannot read ${host}:${port}: ${(error as Error).message}; retrying in ${delay / 1000} s.`);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 30_000);
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      follow: { type: "string" },
      tcp: { type: "string" },
      to: { type: "string" },
      token: { type: "string" },
      spool: { type: "string" },
    },
  });
  const modes = [positionals.length > 0, values.follow !== undefined, values.tcp !== undefined].filter(Boolean).length;
  const token = values.token ?? process.env.NLIS_TOKEN;
  const remoteOptions = values.token !== undefined || values.spool !== undefined;
  if (modes !== 1 || positionals.length > 1 || (values.to === undefined ? remoteOptions : !token)) {
    console.error(USAGE);
    process.exit(2);
  }
  const remote = values.to === undefined ? undefined : openService(values.to, token!, values.spool ?? DEFAULT_SPOOL);
  const destination = remote ?? (await openDatabase());
  const { ingester } = destination;
  let stopping = false;
  let finished: Promise<void> | undefined;
  const finish = () => (finished ??= destination.finish());
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      stopping = true;
      // The spool is made to survive a kill (lib/p2000/remote-publisher.ts), so there is nothing to
      // wait for: what is not delivered is sent by the next run.
      if (remote) {
        remote.report();
        process.exit(0);
      }
      if (values.tcp) void finish().then(() => process.exit(0));
    });
  }
  try {
    const reading = values.follow
      ? follow(values.follow, ingester, () => stopping)
      : values.tcp
        ? readTcp(values.tcp, ingester, () => stopping)
        : readOnce(positionals[0] === "-" ? process.stdin : fs.createReadStream(positionals[0]), ingester);
    // A refused token ends the run even while a follow or a socket would read on.
    await Promise.race([reading, destination.failed]);
  } finally {
    await finish();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
