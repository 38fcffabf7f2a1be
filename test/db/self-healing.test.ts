// Self-healing on the embedded default: PostgreSQL killed (SIGKILL) under a load of writes is
// started again by the service; while it is away GraphQL answers 503 with SERVICE_UNAVAILABLE and
// Retry-After (never a 400 or a 500); writes are accepted again within 5 s of the database being
// back; and every write that was acknowledged is there afterwards. Runs on a cluster of its own
// (the suite's shared one must not be killed).
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import pg from "pg";
import { KILLABLE_CLUSTER_TIMEOUT, startKillableCluster, type KillableCluster } from "../helpers/killable-cluster.ts";
import { FEEDS_OFF, startTestService, type TestService } from "../helpers/service.ts";
import { signUp } from "../helpers/users.ts";

let cluster: KillableCluster;
let service: TestService;

beforeAll(async () => {
  cluster = await startKillableCluster("healing");
  service = await startTestService(cluster.database, {
    feeds: FEEDS_OFF,
  });
}, KILLABLE_CLUSTER_TIMEOUT);

afterAll(async () => {
  await service?.stop();
  await cluster?.close();
});

test("PostgreSQL killed under load: 503s meanwhile, back within 5 s of the database, no acknowledged write lost", async () => {
  const admin = await signUp(service, "admin@example.org", { admin: true });
  const acknowledged: string[] = [];
  const refusals: Array<{ status: number; code: unknown; retryAfter: string | null }> = [];
  let stop = false;
  let sequence = 0;
  const write = async () => {
    const n = sequence++;
    const response = await fetch(service.graphqlUrl, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${admin.accessToken}` },
      body: JSON.stringify({
        query: "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid } }",
        variables: {
          i: {
            message: `P 2 BDH-${n} Heal test ${n} Utrecht`,
            sended: new Date().toISOString(),
            capcodes: [{ name: "0923001" }],
          },
        },
      }),
    }).catch(() => undefined);
    if (!response) return { ok: false };
    const body = (await response.json()) as {
      data?: { createP2000Message?: { uuid: string } };
      errors?: Array<{ extensions?: { code?: string } }>;
    };
    const uuid = body.data?.createP2000Message?.uuid;
    if (response.status === 200 && uuid) {
      acknowledged.push(uuid);
      return { ok: true };
    }
    refusals.push({
      status: response.status,
      code: body.errors?.[0]?.extensions?.code,
      retryAfter: response.headers.get("retry-after"),
    });
    return { ok: false };
  };
  // Four clients writing back to back, a little apart.
  const clients = Array.from({ length: 4 }, async () => {
    while (!stop) {
      if (!(await write()).ok) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  await new Promise((resolve) => setTimeout(resolve, 1500));
  const before = acknowledged.length;
  expect(before).toBeGreaterThan(0);
  const databaseBackAt = await cluster.killPostgres();
  const ackedWhenBack = acknowledged.length;
  for (const deadline = databaseBackAt + 5_000; acknowledged.length === ackedWhenBack && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const recoveredAfterMs = Date.now() - databaseBackAt;
  await new Promise((resolve) => setTimeout(resolve, 500));
  stop = true;
  await Promise.all(clients);

  expect(acknowledged.length).toBeGreaterThan(ackedWhenBack);
  expect(recoveredAfterMs).toBeLessThan(5_000);
  // Every refusal while the database was away was a 503 with its code and Retry-After.
  expect(refusals.length).toBeGreaterThan(0);
  for (const refusal of refusals)
    expect(refusal).toEqual({ status: 503, code: "SERVICE_UNAVAILABLE", retryAfter: "2" });
  // The worker was started again and the service says it is ready (database, migrations, worker).
  let ready = 0;
  for (const deadline = Date.now() + 10_000; ready !== 200 && Date.now() < deadline;) {
    ready = (await fetch(service.url + "/ready")).status;
    if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(ready).toBe(200);
  // Nothing acknowledged is lost.
  const { rows } = await cluster.owner.query(
    "select count(*)::int as n from app_public.p2000_messages where uuid = any ($1::uuid[])",
    [acknowledged],
  );
  expect(rows[0].n).toBe(acknowledged.length);
}, 180_000);

test("connections cut by the server (as a restart of an external PostgreSQL does): pools reconnect, the API answers within 5 s", async () => {
  const token = (await service.newToken()).secret;
  const regions = async () => (await service.graphql("{ p2000Regions(first: 1) { number } }", { token })).status;
  expect(await regions()).toBe(200);
  const root = new pg.Client({ connectionString: cluster.database.rootUrl });
  await root.connect();
  const { rows } = await root.query(
    "select count(pg_terminate_backend(pid))::int as cut from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
    [cluster.database.name],
  );
  await root.end();
  expect(rows[0].cut).toBeGreaterThan(0);
  const cutAt = Date.now();
  let status = 0;
  while (status !== 200 && Date.now() - cutAt < 5_000) {
    status = await regions();
    if (status !== 200) {
      expect(status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  expect(status).toBe(200);
});
