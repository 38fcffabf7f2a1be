// Where the data lives: the embedded PostgreSQL under DATA_DIR, or the server of DATABASE_URL.
// connectDatabase() boots or connects and creates roles and database when a superuser URL is
// known. Migrating and filling a new installation is lib/setup/installation.ts.
import path from "node:path";
import { ensureRolesAndDatabase, ROLES } from "./bootstrap.ts";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";
import { pgUrl } from "./pg-url.ts";
import { loadOrCreateSecrets } from "./secrets.ts";

/** The database: DATABASE_URL and its logins, or the embedded PostgreSQL under dataDir (read by lib/config.ts). */
export interface DatabaseConfig {
  /** Owner connection (migrations, worker, CLIs); unset = the embedded PostgreSQL under dataDir. */
  url: string | undefined;
  /** Login of the GraphQL server (the authenticator role); unset = url. */
  authUrl: string | undefined;
  /** Superuser connection used to create the roles and the database when they are missing. */
  rootUrl: string | undefined;
  /** Shadow database for `npm run db -- commit` (graphile-migrate). */
  shadowUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  /** Name of the embedded database. */
  name: string;
  /** Streaming replicas that take the public reads (lib/db/read-replicas.ts); none by default. */
  readReplicas: ReadReplicaConfig;
}

export interface ReadReplicaConfig {
  /** READ_REPLICA_URLS: one URL per replica; a URL without a login takes the authenticator's login and database. */
  urls: string[];
  /** READ_REPLICA_MAX_LAG_SECONDS: a replica further behind the primary is left out until it catches up. */
  maxLagSeconds: number;
}

export const EMBEDDED_OWNER = "app_owner";

export interface DatabaseConnection {
  /** Owner login: migrations, worker, CLIs. */
  ownerUrl: string;
  /** Authenticator login: the GraphQL server, which switches to the visitor role per request. */
  authUrl: string;
  /** Superuser URL (maintenance database), when known. */
  rootUrl: string | undefined;
  /** Read-only analyst login, when its password is known (the embedded default). */
  analystUrl: string | undefined;
  embedded: boolean;
  /** Stops the embedded cluster if this process started it. */
  close(): Promise<void>;
}

function passwordOf(url: string | undefined): string | null {
  return url ? decodeURIComponent(new URL(url).password) || null : null;
}

async function connectEmbedded(config: DatabaseConfig, log: (line: string) => void): Promise<DatabaseConnection> {
  const secrets = loadOrCreateSecrets(config.dataDir);
  const cluster = await startEmbeddedPostgres({
    clusterDir: path.join(config.dataDir, "postgres"),
    port: config.embeddedPgPort,
    superuserPassword: secrets.superuserPassword,
    log,
  });
  await ensureRolesAndDatabase({
    rootUrl: cluster.rootUrl,
    databaseName: config.name,
    ownerRole: EMBEDDED_OWNER,
    passwords: {
      owner: secrets.ownerPassword,
      authenticator: secrets.authenticatorPassword,
      analyst: secrets.analystPassword,
    },
  });
  const db = (base: string, user: string, password: string) => pgUrl(base, { user, password, database: config.name });
  return {
    ownerUrl: db(cluster.rootUrl, EMBEDDED_OWNER, secrets.ownerPassword),
    authUrl: db(cluster.rootUrl, ROLES.authenticator, secrets.authenticatorPassword),
    rootUrl: cluster.rootUrl,
    // Printed for analysts' psql: TCP, which works from any login on this machine.
    analystUrl: db(cluster.rootTcpUrl, ROLES.analyst, secrets.analystPassword),
    embedded: true,
    close: cluster.stop,
  };
}

async function connectExternal(config: DatabaseConfig, databaseUrl: string): Promise<DatabaseConnection> {
  if (config.rootUrl) {
    const owner = new URL(databaseUrl);
    await ensureRolesAndDatabase({
      rootUrl: config.rootUrl,
      databaseName: decodeURIComponent(owner.pathname.slice(1)),
      ownerRole: decodeURIComponent(owner.username),
      ownerServesRequests: !config.authUrl,
      // Passwords of roles created now come from the URLs that log in with them; the analyst's is
      // the DBA's to set.
      passwords: {
        owner: passwordOf(databaseUrl),
        authenticator: passwordOf(config.authUrl),
        analyst: null,
      },
    });
  }
  return {
    ownerUrl: databaseUrl,
    authUrl: config.authUrl ?? databaseUrl,
    rootUrl: config.rootUrl,
    analystUrl: undefined,
    embedded: false,
    close: async () => {},
  };
}

export function connectDatabase(
  config: DatabaseConfig,
  log: (line: string) => void = () => {},
): Promise<DatabaseConnection> {
  return config.url ? connectExternal(config, config.url) : connectEmbedded(config, log);
}
