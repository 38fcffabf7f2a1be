// The nightly clean-up through graphile-worker itself: queued as a job, run by the worker.
import { expect, test } from "@jest/globals";
import { Logger, quickAddJob, runOnce } from "graphile-worker";
import { makeTaskList } from "../../tasks/index.ts";
import { useTestDatabase } from "../helpers/database.ts";

const ctx = useTestDatabase();

test("api_tokens__purge_stale deletes tokens dead for over 90 days and keeps the rest", async () => {
  const make = (name: string, hash: string) =>
    ctx.db.asOwner("select uuid from app_private.create_api_token($1, $2, '{}', null, sha256($3::bytea), 'nlis_…test')",
      [ctx.db.operatorEnvironmentUuid, name, hash]);
  await make("revoked long ago", "a");
  await make("expired long ago", "b");
  await make("revoked lately", "c");
  await make("alive", "d");
  await ctx.db.asOwner(`update app_public.api_tokens set revoked_at = now() - interval '100 days' where name = 'revoked long ago'`);
  await ctx.db.asOwner(`update app_public.api_tokens set expires_at = now() - interval '91 days' where name = 'expired long ago'`);
  await ctx.db.asOwner(`update app_public.api_tokens set revoked_at = now() - interval '10 days' where name = 'revoked lately'`);

  await quickAddJob({ connectionString: ctx.db.ownerUrl }, "api_tokens__purge_stale", {});
  await runOnce({ connectionString: ctx.db.ownerUrl, taskList: makeTaskList({ smtpUrl: undefined, mailFrom: "test@localhost" }), logger: new Logger(() => () => {}) });

  const { rows } = await ctx.db.asOwner("select name from app_public.api_tokens order by name");
  expect(rows.map((row) => row.name)).toEqual(["alive", "revoked lately"]);
  const { rows: secrets } = await ctx.db.asOwner("select count(*)::int as n from app_private.api_token_secrets");
  expect(secrets[0].n).toBe(2);
  const { rows: jobs } = await ctx.db.asOwner("select count(*)::int as n from graphile_worker.jobs");
  expect(jobs[0].n).toBe(0);
});
