// lib/db/pg-subscriber.ts: when the LISTEN connection is lost, every subscription on it ends with
// the interruption, not only every second one of each topic (PostGraphile's PgSubscriber skips
// those), so each client is told to subscribe again. A pool of fake connections stands in for
// PostgreSQL: the test loses the connection by emitting its error.
import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, jest, test } from "@jest/globals";
import type pg from "pg";
import { PgSubscriber } from "postgraphile/adaptors/pg";
import { WholePgSubscriber } from "../../lib/db/pg-subscriber.ts";
import { isConnectionError } from "../../lib/db/availability.ts";

function fakePool() {
  const clients: EventEmitter[] = [];
  const pool = {
    async connect() {
      const client = Object.assign(new EventEmitter(), {
        query: async () => ({ rows: [] }),
        escapeIdentifier: (name: string) => `"${name}"`,
        release: () => {},
      });
      clients.push(client);
      return client;
    },
  };
  return { pool: pool as unknown as pg.Pool, clients };
}

/** How each of `count` subscriptions to one topic ends after the connection is lost (or "open"). */
async function endsAfterLoss(subscriber: PgSubscriber, count: number): Promise<string[]> {
  const iterators = Array.from({ length: count }, () => subscriber.subscribe("p2000_messages"));
  const outcomes = iterators.map((iterator) =>
    iterator.next().then(
      () => "event",
      (error: unknown) => (isConnectionError(error) ? "interrupted" : String(error)),
    ),
  );
  // The LISTEN connection is made on the first subscription; then it fails.
  for (let i = 0; i < 100 && clientsOf(subscriber).length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  clientsOf(subscriber)[0].emit("error", new Error("Connection terminated unexpectedly"));
  const settled = await Promise.all(
    outcomes.map((outcome) => Promise.race([outcome, new Promise<string>((r) => setTimeout(() => r("open"), 200))])),
  );
  subscriber.release();
  return settled;
}

const pools = new WeakMap<PgSubscriber, EventEmitter[]>();
const clientsOf = (subscriber: PgSubscriber) => pools.get(subscriber)!;
function make(Kind: new (pool: pg.Pool) => PgSubscriber): PgSubscriber {
  const { pool, clients } = fakePool();
  const subscriber = new Kind(pool);
  pools.set(subscriber, clients);
  return subscriber;
}

describe("WholePgSubscriber", () => {
  // PgSubscriber prints the lost connection's error itself.
  beforeEach(() => {
    jest.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  test("PostGraphile's own skips every second subscription of a topic (why this exists)", async () => {
    expect(await endsAfterLoss(make(PgSubscriber), 4)).toEqual(["interrupted", "open", "interrupted", "open"]);
  });

  test("ends every subscription of the lost connection with the interruption", async () => {
    expect(await endsAfterLoss(make(WholePgSubscriber), 4)).toEqual(Array(4).fill("interrupted"));
  });
});
