// How a GraphQL request reaches PostgreSQL. PostGraphile's own pg adaptor spends four round trips
// on every request with settings: begin, set_config, the query, commit. Here "begin" and the
// settings travel together as one simple-protocol message, so a request costs three; the settings
// stay transaction-local (set_config(…, true)), so nothing leaks to the next user of the
// connection. On a small machine every round trip is a wake-up of both processes, which is what
// the HTTP benchmark spends most of its time on (see bench/p2000.ts).
import type pg from "pg";
import * as pgAdaptor from "postgraphile/adaptors/pg";

type WithPgClient = ReturnType<typeof pgAdaptor.makePgAdaptorWithPgClient>;
type Settings = Parameters<WithPgClient>[0];
type Callback = Parameters<WithPgClient>[1];

const jitSetUp = Symbol("jitSetUp");

/**
 * begin, the request's settings and (once per connection) the JIT choice, as one message; with an
 * API token also the check that it is still live, so a token revoked a moment ago is refused
 * even by an instance that has not yet heard of it (lib/auth/api-token-cache.ts).
 */
function openingStatement(client: pg.PoolClient & { [jitSetUp]?: boolean }, entries: Array<[string, string]>): string {
  // Like PostGraphile's adaptor: JIT optimisation costs more than it saves on API queries.
  const jit = client[jitSetUp] ? "" : "set jit_optimize_above_cost = -1; ";
  client[jitSetUp] = true;
  const tokenCheck = entries.some(([key]) => key === "app.api_token_uuid")
    ? "; select app_hidden.assert_api_token_live()"
    : "";
  return `${jit}begin; select set_config(el->>0, el->>1, true) from json_array_elements(${client.escapeLiteral(JSON.stringify(entries))}::json) el${tokenCheck}`;
}

function makeWithPgClient(pool: pg.Pool): WithPgClient {
  const withoutSettings = pgAdaptor.makePgAdaptorWithPgClient(pool);
  const withPgClient = (async (pgSettings: Settings, callback: Callback) => {
    const entries = Object.entries(pgSettings ?? {})
      .filter(([, value]) => value != null)
      .map(([key, value]) => [key, String(value)] as [string, string]);
    if (entries.length === 0) return withoutSettings(pgSettings, callback);
    const client = await pool.connect();
    let discard: Error | undefined;
    try {
      await client.query(openingStatement(client, entries));
      // PostGraphile's client for a connection already in a transaction: its own transactions
      // (mutations) become savepoints inside ours.
      const result = await pgAdaptor.makeWithPgClientViaPgClientAlreadyInTransaction(client, true)(null, callback);
      await client.query("commit");
      return result;
    } catch (error) {
      // Leave no open transaction behind; a connection that cannot even roll back is closed.
      await client.query("rollback").catch((rollbackError: Error) => (discard = rollbackError));
      throw error;
    } finally {
      client.release(discard);
    }
  }) as WithPgClient;
  withPgClient.release = withoutSettings.release;
  return withPgClient;
}

/** makePgService with our withPgClient; everything else (introspection, LISTEN) as PostGraphile's. */
export function makeRequestPgService(options: Parameters<typeof pgAdaptor.makePgService>[0] & { pool: pg.Pool }) {
  const service = pgAdaptor.makePgService(options);
  return {
    ...service,
    adaptor: { ...pgAdaptor, createWithPgClient: () => makeWithPgClient(options.pool) },
  };
}
