// How a GraphQL request reaches PostgreSQL. PostGraphile's own pg adaptor spends four round trips
// on every request with settings: begin, set_config, the query, commit. Here "begin" and the
// settings travel together as one simple-protocol message, so a request costs three; the settings
// stay transaction-local (set_config(…, true)), so nothing leaks to the next user of the
// connection. On a small machine every round trip is a wake-up of both processes, which is what
// the HTTP benchmark spends most of its time on (see bench/p2000.ts).
import type pg from "pg";
import * as pgAdaptor from "postgraphile/adaptors/pg";
import { isConnectionError } from "../db/availability.ts";
import { lsnValue, type Replica } from "../db/read-replicas.ts";
import { replicaReads } from "../ops/metrics.ts";

export type WithPgClient = ReturnType<typeof pgAdaptor.makePgAdaptorWithPgClient>;
type Settings = Parameters<WithPgClient>[0];
type Callback = Parameters<WithPgClient>[1];

const jitSetUp = Symbol("jitSetUp");

/** What the opening statement adds to begin and the settings. */
interface Opening {
  /** The check that the request's API token is still live (on the primary only: a replica may lag). */
  tokenCheck: boolean;
  /** On a replica: how far it has replayed, for the response cache (lib/http/response-cache/store.ts). */
  replayPosition: boolean;
}

/**
 * begin, the request's settings and (once per connection) the JIT choice, as one message; with an
 * API token on the primary also the check that it is still live, so a token revoked a moment ago
 * is refused even by an instance that has not yet heard of it (lib/auth/api-token-cache.ts). A
 * replica's reads go without it (makeReplicaWithPgClient): there, as for cached answers, the
 * token cache is the check, and a revocation reaches it within the notification's milliseconds.
 */
function openingStatement(
  client: pg.PoolClient & { [jitSetUp]?: boolean },
  entries: Array<[string, string]>,
  opening: Opening,
): string {
  // Like PostGraphile's adaptor: JIT optimisation costs more than it saves on API queries.
  const jit = client[jitSetUp] ? "" : "set jit_optimize_above_cost = -1; ";
  client[jitSetUp] = true;
  const tokenCheck =
    opening.tokenCheck && entries.some(([key]) => key === "app.api_token_uuid")
      ? "; select app_hidden.assert_api_token_live()"
      : "";
  const replay = opening.replayPosition ? "; select pg_last_wal_replay_lsn()::text as replayed" : "";
  return `${jit}begin; select set_config(el->>0, el->>1, true) from json_array_elements(${client.escapeLiteral(JSON.stringify(entries))}::json) el${tokenCheck}${replay}`;
}

function settingEntries(pgSettings: Settings): Array<[string, string]> {
  return Object.entries(pgSettings ?? {})
    .filter(([, value]) => value != null)
    .map(([key, value]) => [key, String(value)] as [string, string]);
}

/**
 * Runs the callback in one transaction on a connection of the pool, opened as `opening` says;
 * returns the callback's result and the opening's last answer (the replay position, if asked).
 */
async function inTransaction<T>(
  pool: pg.Pool,
  entries: Array<[string, string]>,
  opening: Opening,
  callback: (client: pg.PoolClient) => Promise<T>,
): Promise<{ result: T; replayed?: string }> {
  const client = await pool.connect();
  let discard: Error | undefined;
  try {
    const opened = (await client.query(openingStatement(client, entries, opening))) as unknown as pg.QueryResult[];
    const replayed = opening.replayPosition ? (opened.at(-1)?.rows[0]?.replayed as string | undefined) : undefined;
    const result = await callback(client);
    await client.query("commit");
    return { result, replayed };
  } catch (error) {
    // Leave no open transaction behind; a connection that cannot even roll back is closed.
    await client.query("rollback").catch((rollbackError: Error) => (discard = rollbackError));
    throw error;
  } finally {
    client.release(discard);
  }
}

/** Runs grafast's callback on a connection already in our transaction: its own transactions (mutations) become savepoints. */
const inOurTransaction = (callback: Callback) => (client: pg.PoolClient) =>
  pgAdaptor.makeWithPgClientViaPgClientAlreadyInTransaction(client, true)(null, callback);

const PRIMARY: Opening = { tokenCheck: true, replayPosition: false };
const REPLICA: Opening = { tokenCheck: false, replayPosition: true };

function makeWithPgClient(pool: pg.Pool): WithPgClient {
  const withoutSettings = pgAdaptor.makePgAdaptorWithPgClient(pool);
  const withPgClient = (async (pgSettings: Settings, callback: Callback) => {
    const entries = settingEntries(pgSettings);
    if (entries.length === 0) return withoutSettings(pgSettings, callback);
    return (await inTransaction(pool, entries, PRIMARY, inOurTransaction(callback))).result;
  }) as WithPgClient;
  withPgClient.release = withoutSettings.release;
  return withPgClient;
}

/** Where a public read was sent (lib/graphql/replica-routing.ts), and what it saw there. */
export interface ReplicaRead {
  /** The lowest replay position of the replica's transactions (the response cache compares it); unset while none ran there. */
  replayed?: bigint;
}

/**
 * A public read on a replica (lib/db/read-replicas.ts), for one request. No token check in the
 * transaction (the replica may not have a token made a moment ago; the API-token cache, which
 * listens on the primary, is the check, as for cached answers). When the replica cannot serve (gone,
 * no free connection in time, a query cancelled by a conflict with its recovery), the primary reads
 * instead: a read is safe to repeat. A replica that is gone is left out at once.
 */
export function makeReplicaWithPgClient(
  replica: Replica,
  primary: WithPgClient,
  read: ReplicaRead,
): (pgSettings: Settings, callback: Callback) => ReturnType<WithPgClient> {
  return async (pgSettings, callback) => {
    try {
      const { result, replayed } = await inTransaction(
        replica.pool,
        settingEntries(pgSettings),
        REPLICA,
        inOurTransaction(callback),
      );
      // No position (a server that is no longer a standby, until the next check says so): 0, so
      // the response cache keeps none of its answers.
      const position = replayed ? lsnValue(replayed) : 0n;
      read.replayed = read.replayed === undefined || position < read.replayed ? position : read.replayed;
      replicaReads.inc({ replica: replica.name, outcome: "read" });
      return result;
    } catch (error) {
      const gone = isConnectionError(error);
      if (!gone && !replicaCannotServe(error)) throw error;
      if (gone) replica.leaveOut(`down (${(error as Error).message})`);
      replicaReads.inc({ replica: replica.name, outcome: "primary" });
      return primary(pgSettings, callback);
    }
  };
}

/**
 * Recovery conflicts on a standby (40001, and 40P01 for a buffer-pin deadlock), a database dropped
 * under it (57P04), or pg-pool's wait for a free connection that ran out: the primary reads it.
 */
const REPLICA_CANNOT_SERVE = new Set(["40001", "40P01", "57P04"]);

function replicaCannotServe(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (typeof code === "string" && REPLICA_CANNOT_SERVE.has(code)) ||
    (typeof message === "string" && /timeout exceeded when trying to connect/i.test(message))
  );
}

/** makePgService with our withPgClient; everything else (introspection, LISTEN) as PostGraphile's. */
export function makeRequestPgService(options: Parameters<typeof pgAdaptor.makePgService>[0] & { pool: pg.Pool }) {
  const service = pgAdaptor.makePgService(options);
  return {
    ...service,
    adaptor: { ...pgAdaptor, createWithPgClient: () => makeWithPgClient(options.pool) },
  };
}
