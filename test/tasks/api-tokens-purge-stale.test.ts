// The nightly clean-up through graphile-worker itself: queued as a job, run by the worker.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { Logger, quickAddJob, runOnce } from "graphile-worker";
import { taskList } from "../../tasks/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

test("api_tokens__purge_stale deletes tokens dead for over 90 days and keeps the rest", async () => {
  const make = (name: string, hash: string) =>
    db.asOwner("select uuid from app_private.create_api_token($1, $2, '{}', null, sha256($3::bytea), 'nlis_…test')",
      [db.operatorEnvironmentUuid, name, hash]);
  await make("revoked long ago", "a");
  await make("expired long ago", "b");
  await make("revoked lately", "c");
  await make("alive", "d");
  await db.asOwner(`update app_public.api_tokens set revoked_at = now() - interval '100 days' where name = 'revoked long ago'`);
  await db.asOwner(`update app_public.api_tokens set expires_at = now() - interval '91 days' where name = 'expired long ago'`);
  await db.asOwner(`update app_public.api_tokens set revoked_at = now() - interval '10 days' where name = 'revoked lately'`);

  await quickAddJob({ connectionString: db.ownerUrl }, "api_tokens__purge_stale", {});
  await runOnce({ connectionString: db.ownerUrl, taskList, logger: new Logger(() => () => {}) });

  const { rows } = await db.asOwner("select name from app_public.api_tokens order by name");
  expect(rows.map((row) => row.name)).toEqual(["alive", "revoked lately"]);
  const { rows: secrets } = await db.asOwner("select count(*)::int as n from app_private.api_token_secrets");
  expect(secrets[0].n).toBe(2);
  const { rows: jobs } = await db.asOwner("select count(*)::int as n from graphile_worker.jobs");
  expect(jobs[0].n).toBe(0);
});
