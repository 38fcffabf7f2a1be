// A pg pool that survives its connections going away (a database restart, a dropped test
// database): without an "error" listener on the pool and on each client, node-postgres turns such
// an event into an uncaught exception that ends the process. graphile-worker checks for both.
import pg from "pg";

export function resilientPool(config: pg.PoolConfig, report: (error: Error) => void = () => {}): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on("error", report);
  pool.on("connect", (client) => client.on("error", report));
  return pool;
}
