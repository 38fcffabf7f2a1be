// Scale-out on PostgreSQL alone: two API processes (PROCESS_ROLE=api) and two worker processes
// (PROCESS_ROLE=worker), each `node server.ts` as an operator runs it, on one database. A matching
// message is delivered to its webhook once; an API token revoked through one API process is
// refused by both on the next request; and an every-minute cron task runs once per minute,
// whichever worker takes it.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import pg from "pg";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { useTestDatabase } from "./helpers/database.ts";
import { startServiceProcess, type ServiceProcess } from "./helpers/service-process.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.ts";

const ctx = useTestDatabase();
const SIGNING_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

const instances: ServiceProcess[] = [];
let receiver: WebhookReceiver;

async function startInstance(role: "api" | "worker"): Promise<ServiceProcess> {
  const instance = await startServiceProcess(ctx.db, role);
  instances.push(instance);
  return instance;
}

let apis: ServiceProcess[];
let workers: ServiceProcess[];
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  apis = [await startInstance("api"), await startInstance("api")];
  workers = [await startInstance("worker"), await startInstance("worker")];
}, 180_000);

afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await receiver?.stop();
});

/** The first error's code (or "ok") of a public read (`first` makes a document no other request asked). */
async function regions(api: ServiceProcess, token: string, first = 1): Promise<string> {
  const response = await fetch(`${api.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: `{ p2000Regions(first: ${first}) { number } }` }),
  });
  const body = (await response.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
  return body.errors ? String(body.errors[0].extensions?.code) : "ok";
}

test("each process does only its part", async () => {
  expect((await fetch(`${workers[0].url}/graphql`, { method: "POST" })).status).toBe(404);
  for (const instance of [...apis, ...workers]) expect((await fetch(`${instance.url}/ready`)).status).toBe(200);
});

test("a matching message is delivered to its webhook once, by one of the two workers", async () => {
  const env = ctx.db.operatorEnvironmentUuid;
  const {
    rows: [channel],
  } = await ctx.db.asOwner(
    "insert into app_public.channels (environment_uuid, type, name, url) values ($1, 'webhook', 'scale', $2) returning uuid",
    [env, `${receiver.url}/scale`],
  );
  await ctx.db.asOwner("insert into app_private.channel_secrets values ($1, $2)", [channel.uuid, SIGNING_SECRET]);
  const {
    rows: [monitor],
  } = await ctx.db.asOwner(
    "insert into app_public.monitors (environment_uuid, name, query) values ($1, 'scale', $2) returning uuid",
    [env, JSON.stringify({ capcodes: ["1700001"] })],
  );
  await ctx.db.asOwner("insert into app_hidden.monitor_channels values ($1, $2)", [monitor.uuid, channel.uuid]);
  for (let i = 0; i < 5; i++) {
    await ctx.db.asOwner("select app_private.ingest_p2000_message($1, now(), array['1700001'], 'test')", [
      `P 1 BDH-0${i} Scale-out test ${i} Utrecht`,
    ]);
  }
  const deliveries = await receiver.waitFor((r) => r.path === "/scale", 5);
  // Time for a second copy to arrive if any job ran twice.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expect(receiver.requests.filter((r) => r.path === "/scale")).toHaveLength(5);
  expect(new Set(deliveries.map((d) => d.headers["webhook-id"])).size).toBe(5);
}, 60_000);

test("an API token revoked in the database (as deleteApiToken or a DBA does) is refused by both API processes on the next request", async () => {
  const owner = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: 1 });
  const { token, plainToken } = await createApiToken(owner, {
    environmentUuid: ctx.db.operatorEnvironmentUuid,
    name: "scale",
    scopes: [],
  });
  await owner.end();
  // Both processes have cached it.
  expect([await regions(apis[0], plainToken), await regions(apis[1], plainToken)]).toEqual(["ok", "ok"]);
  await ctx.db.asOwner("update app_public.api_tokens set revoked_at = now() where uuid = $1", [token.uuid]);
  // A read that runs SQL is refused at once, whether or not the process has read the revocation's
  // announcement yet (before: by the request's own check in the database; after: by the emptied cache).
  expect([await regions(apis[1], plainToken, 2), await regions(apis[0], plainToken, 3)]).toEqual([
    "UNAUTHENTICATED",
    "UNAUTHENTICATED",
  ]);
  // A repeated read answered from the response cache runs no SQL: it is refused once the
  // announcement arrives, milliseconds after the commit (CI once saw it answered in between).
  const refusedWithin = Date.now() + 2_000;
  let answers: string[];
  do answers = [await regions(apis[1], plainToken), await regions(apis[0], plainToken)];
  while (answers.includes("ok") && Date.now() < refusedWithin);
  expect(answers).toEqual(["UNAUTHENTICATED", "UNAUTHENTICATED"]);
});

test("an every-minute cron task runs once a minute across the two workers", async () => {
  // From the next whole minute until 10 s after it: one traffic__poll in all.
  const nextMinute = Math.ceil(Date.now() / 60_000) * 60_000;
  const before = workers.map((w) => w.output().length);
  await new Promise((resolve) => setTimeout(resolve, nextMinute + 10_000 - Date.now()));
  const runs = workers.flatMap(
    (w, i) =>
      w
        .output()
        .slice(before[i])
        .match(/Completed task \d+ \(traffic__poll,/g) ?? [],
  );
  expect(runs).toHaveLength(1);
}, 90_000);
