// `npm run ingest:flex -- <FILE | - | --follow FILE | --tcp HOST:PORT>`: stores the P2000 messages
// in multimon-ng FLEX output (classic lines or --json). FILE or - (stdin) is read once; --follow
// keeps reading a growing file (a receiver's log), --tcp a socket that streams lines (reconnecting).
// Malformed lines are counted and logged, never fatal. Works against DATABASE_URL or the embedded
// default (a running `npm start` is reused).
import fs from "node:fs";
import net from "node:net";
import readline from "node:readline";
import { parseArgs } from "node:util";
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";
import { createFlexIngester, FLEX_READER_CONNECTIONS, type FlexIngester } from "../lib/p2000/flex-ingest.ts";

const USAGE = "Usage: npm run ingest:flex -- FILE | - | --follow FILE | --tcp HOST:PORT";

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
    options: { follow: { type: "string" }, tcp: { type: "string" } },
  });
  const modes = [positionals.length > 0, values.follow !== undefined, values.tcp !== undefined].filter(Boolean).length;
  if (modes !== 1 || positionals.length > 1) {
    console.error(USAGE);
    process.exit(2);
  }
  const database = await prepareDatabase(loadConfig().database);
  const pool = new pg.Pool({ connectionString: database.ownerUrl, max: FLEX_READER_CONNECTIONS });
  const ingester = createFlexIngester(pool);
  let stopping = false;
  let finished: Promise<void> | undefined;
  const finish = () =>
    (finished ??= (async () => {
      await ingester.flush();
      const s = ingester.stats;
      console.error(
        `${s.lines} lines: ${s.stored} pages stored (copies merged), ${s.skipped} skipped, ${s.malformed} malformed.`,
      );
      await pool.end();
      await database.close();
    })());
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      stopping = true;
      if (values.tcp) void finish().then(() => process.exit(0));
    });
  }
  try {
    if (values.follow) await follow(values.follow, ingester, () => stopping);
    else if (values.tcp) await readTcp(values.tcp, ingester, () => stopping);
    else await readOnce(positionals[0] === "-" ? process.stdin : fs.createReadStream(positionals[0]), ingester);
  } finally {
    await finish();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
