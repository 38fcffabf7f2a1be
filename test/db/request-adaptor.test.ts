// lib/graphql/pg-request-adaptor.ts: how every GraphQL request reaches PostgreSQL. Its settings (role,
// API token, ...) must hold for the request and for nothing after it on the same connection; a
// failing request must leave the connection usable; mutations' own transactions nest inside.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type pg from "pg";
import { resilientPool } from "../../lib/db/pool.ts";
import { makeRequestPgService } from "../../lib/graphql/pg-request-adaptor.ts";
import { useTestDatabase } from "../helpers/database.ts";

type WithPgClient = (
  settings: Record<string, string> | null,
  callback: (client: any) => Promise<unknown>,
) => Promise<any>;

let pool: pg.Pool;
let withPgClient: WithPgClient;
afterAll(async () => {
  await pool?.end(); // before the database is dropped
});
const ctx = useTestDatabase();
beforeAll(() => {
  // One connection, so every request and check below uses the same one.
  pool = resilientPool({ connectionString: ctx.db.authUrl, max: 1 });
  const service = makeRequestPgService({ pool, schemas: ["app_public"], pubsub: false });
  withPgClient = service.adaptor.createWithPgClient() as unknown as WithPgClient;
});

const SETTINGS = { role: "app_visitor", "app.request_uuid": "7b0f6c1e-2f43-4a55-9d0e-2d3c8a1b9f00" };
const whoAmI = "select current_user as role, current_setting('app.request_uuid', true) as request";

describe("the request adaptor", () => {
  test("applies a request's settings for that request only", async () => {
    const inside = await withPgClient(SETTINGS, async (client) => (await client.query({ text: whoAmI })).rows[0]);
    expect(inside).toEqual({ role: "app_visitor", request: SETTINGS["app.request_uuid"] });
    const after = (await pool.query(whoAmI)).rows[0];
    expect(after.role).toBe("app_authenticator");
    expect(after.request ?? "").toBe("");
  });

  test("leaves the connection usable after a request fails", async () => {
    await expect(withPgClient(SETTINGS, (client) => client.query({ text: "select 1 / 0" }))).rejects.toThrow(
      /division by zero/,
    );
    const after = (await pool.query(whoAmI)).rows[0];
    expect(after.role).toBe("app_authenticator");
    expect((await pool.query("select 1 as one")).rows[0].one).toBe(1);
  });

  test("runs a mutation's transaction inside the request's, undoing only that part when it fails", async () => {
    const value = await withPgClient(SETTINGS, async (client) => {
      await client.query({ text: "select set_config('app.step', 'request', true)" });
      await expect(
        client.withTransaction(async (inner: any) => {
          await inner.query({ text: "select set_config('app.step', 'mutation', true)" });
          throw new Error("the mutation fails");
        }),
      ).rejects.toThrow("the mutation fails");
      return (await client.query({ text: "select current_setting('app.step') as step" })).rows[0].step;
    });
    expect(value).toBe("request");
  });
});
