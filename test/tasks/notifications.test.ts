// The delivery machinery through real graphile-worker runners on a test database: a worker
// stopped mid-delivery and a new one started send each notification exactly once; failures are
// recorded and retried (each try signed anew under the same webhook-id), permanent ones end as
// failed (a signing secret not in the whsec_ form too); SMS and Telegram go to their provider APIs;
// webhook targets on private addresses are refused at send time; notification rules suppress.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Webhook } from "standardwebhooks";
import type pg from "pg";
import { resilientPool } from "../../lib/db/pool.ts";
import { loadConfig, mergeConfig, type ConfigOverrides } from "../../lib/config.ts";
import { outboundRequest } from "../../lib/http/outbound.ts";
import { configureLog } from "../../lib/ops/log.ts";
import { assertChannelTargets } from "../../lib/monitors/channel-targets.ts";
import { startWorker, type SupervisedWorker } from "../../worker.ts";
import { useTestDatabase } from "../helpers/database.ts";
import { startServiceProcess } from "../helpers/service-process.ts";
import { waitUntil } from "../helpers/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let receiver: WebhookReceiver;
let pool: pg.Pool;
// Registered before the database's hooks, so the pool ends before the database is dropped.
afterAll(async () => {
  await pool?.end();
  await receiver?.stop();
});
const ctx = useTestDatabase();
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  pool = resilientPool({ connectionString: ctx.db.ownerUrl, max: 4 }); // the test database goes away at the end
});

function worker(overrides: ConfigOverrides = {}): Promise<SupervisedWorker> {
  const config = mergeConfig(loadConfig(), {
    delivery: {
      smtpUrl: undefined,
      publicUrl: "http://respond.test",
      allowPrivateTargets: true,
      sms: { providerUrl: `${receiver.url}/sms`, providerToken: "sms-secret" },
      telegram: { botToken: "123:abc", apiUrl: `${receiver.url}/telegram` },
    },
  });
  configureLog({ level: "error", format: "text" }); // the failures these tests make on purpose are warnings
  const merged = mergeConfig(config, overrides);
  return startWorker(pool, { ...merged.worker, concurrency: 2 }, merged);
}

// The example secret of the Standard Webhooks specification.
const SIGNING_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

let capcodeCounter = 1500000;
/** A P2000 monitor on a capcode (one of its own unless given), notifying one new channel. */
async function monitorWithChannel(
  channel: Record<string, unknown>,
  rules: Record<string, unknown> = {},
  capcode = String(++capcodeCounter),
) {
  const env = ctx.db.operatorEnvironmentUuid;
  const {
    rows: [c],
  } = await ctx.db.asOwner(
    `insert into app_public.channels (environment_uuid, type, name, url, phone_number, chat_id)
     values ($1, $2, 'test', $3, $4, $5) returning uuid`,
    [env, channel.type, channel.url ?? null, channel.phoneNumber ?? null, channel.chatId ?? null],
  );
  if (channel.type === "webhook") {
    await ctx.db.asOwner("insert into app_private.channel_secrets values ($1, $2)", [
      c.uuid,
      channel.signingSecret ?? SIGNING_SECRET,
    ]);
  }
  const {
    rows: [m],
  } = await ctx.db.asOwner(
    "insert into app_public.monitors (environment_uuid, name, query, notification_rules) values ($1, 'test', $2, $3) returning uuid",
    [env, JSON.stringify({ capcodes: [capcode] }), JSON.stringify(rules)],
  );
  await ctx.db.asOwner("insert into app_hidden.monitor_channels values ($1, $2)", [m.uuid, c.uuid]);
  return { capcode, monitorUuid: m.uuid as string, channelUuid: c.uuid as string };
}

/** `count` P2000 monitors on one capcode, each notifying a webhook of its own at `path`<i>; their uuids. */
async function manyMonitors(capcode: string, count: number, path: string): Promise<string[]> {
  const { rows } = await ctx.db.asOwner<{ uuid: string }>(
    `with c as (insert into app_public.channels (environment_uuid, type, name, url)
                select $1, 'webhook', $2 || i, $3 || i from generate_series(1, $4) i returning uuid, name),
          s as (insert into app_private.channel_secrets select uuid, $5 from c),
          m as (insert into app_public.monitors (environment_uuid, name, query)
                select $1, c.name, jsonb_build_object('capcodes', jsonb_build_array($6::text)) from c returning uuid, name),
          mc as (insert into app_hidden.monitor_channels select m.uuid, c.uuid from m join c using (name))
     select uuid from m`,
    [ctx.db.operatorEnvironmentUuid, `${capcode} `, `${receiver.url}${path}`, count, SIGNING_SECRET, capcode],
  );
  return rows.map((row) => row.uuid);
}

async function ingest(message: string, capcode: string): Promise<string> {
  const {
    rows: [row],
  } = await ctx.db.asOwner("select app_private.ingest_p2000_message($1, now(), array[$2], 'test') as uuid", [
    message,
    capcode,
  ]);
  return row.uuid;
}

/** Waits until the monitor has matched a message. */
async function matchedOnce(monitorUuid: string) {
  await waitUntil(
    async () =>
      (
        await ctx.db.asOwner("select count(*)::int as n from app_hidden.monitor_matches where monitor_uuid = $1", [
          monitorUuid,
        ])
      ).rows[0].n,
    (n) => n > 0,
    "the first match",
  );
}

async function notifications(monitorUuid: string) {
  const { rows } = await ctx.db.asOwner(
    `select n.uuid, n.status, n.attempts, (select count(*)::int from app_private.notification_attempts a where a.notification_uuid = n.uuid) as recorded
       from app_private.notifications n where n.monitor_uuid = $1 order by n.created`,
    [monitorUuid],
  );
  return rows as Array<{ uuid: string; status: string; attempts: number; recorded: number }>;
}

const until = <T>(probe: () => Promise<T>, done: (value: T) => boolean) => waitUntil(probe, done, "the worker");

test("a worker whose runner ends mid-delivery frees the jobs it held", async () => {
  const { capcode } = await monitorWithChannel({ type: "webhook", url: `${receiver.url}/runner-ends` });
  receiver.respondWith.delayMs = 1500;
  for (let i = 0; i < 3; i++) await ingest(`P 1 BDH-01 Brand woning Kerkstraat Delft bon ${7100 + i}`, capcode);
  const running = await worker();
  const database = ctx.db.ownerUrl.split("/").pop()!.split("?")[0];
  const lockedDeliveries = async () =>
    (
      await ctx.db.asOwner(
        "select count(*)::int as n from graphile_worker.jobs where task_identifier = 'notifications__deliver' and locked_by is not null",
      )
    ).rows[0].n as number;
  try {
    await receiver.waitFor((r) => r.path === "/runner-ends");
    // A database that can no longer write (as a full disk): the worker's connections are cut and
    // come back read-only, so recording the deliveries in flight fails, and then recording those
    // failures: graphile-worker ends the runner with their jobs locked (it would free them after
    // 4 hours), and the service starts a new one.
    await ctx.db.asOwner(`alter database "${database}" set default_transaction_read_only = on`);
    await ctx.db.asOwner(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    await new Promise((resolve) => setTimeout(resolve, 4000));
    // Writable again, and every connection opened meanwhile (read-only for good) cut, but this one,
    // which is made read-write itself: the tests after this one use these pools.
    await ctx.db.asOwner(
      `begin read write; alter database "${database}" reset default_transaction_read_only; commit;
       set default_transaction_read_only = off;
       select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500)); // the pools drop the cut connections
    // The new runner unlocks the ended one's jobs.
    await until(lockedDeliveries, (n) => n === 0);
  } finally {
    await running.stop();
    receiver.respondWith.delayMs = 0;
  }
});

test("a worker process killed mid-delivery: a live worker frees its job and sends it again under the same Webhook-Id", async () => {
  const { capcode, monitorUuid } = await monitorWithChannel({ type: "webhook", url: `${receiver.url}/killed` });
  // The killed process's request is never answered (its socket goes with it).
  receiver.respondWith.delayMs = 30_000;
  const doomed = await startServiceProcess(ctx.db, "worker", {
    WORKER_HEARTBEAT_SECONDS: "1",
    WORKER_LOST_AFTER_SECONDS: "3",
  });
  try {
    await ingest("P 1 BDH-01 Brand woning Molenstraat Delft bon 7200", capcode);
    await receiver.waitFor((r) => r.path === "/killed");
  } finally {
    await doomed.stop("SIGKILL");
    receiver.respondWith.delayMs = 0;
  }
  const locked = await ctx.db.asOwner(
    "select locked_by from graphile_worker.jobs where task_identifier = 'notifications__deliver' and locked_by is not null",
  );
  // Its local queue holds what it fetched in one batch: this delivery, and others still queued.
  const lockedBy = new Set(locked.rows.map((row) => row.locked_by));
  expect(lockedBy.size).toBe(1);
  // A live worker that has beaten for the lost period frees the job (not after graphile-worker's 4 hours).
  const survivor = await worker({ worker: { heartbeatMs: 250, lostAfterMs: 3000 } });
  try {
    await waitUntil(
      () => notifications(monitorUuid),
      (rows) => rows.length === 1 && rows[0].status === "delivered",
      "the killed worker's delivery sent by the survivor",
      30_000,
    );
  } finally {
    await survivor.stop();
  }
  const ids = receiver.requests.filter((r) => r.path === "/killed").map((r) => r.headers["webhook-id"]);
  expect(ids).toHaveLength(2);
  expect(new Set(ids).size).toBe(1);
  const { rows: heartbeats } = await ctx.db.asOwner("select worker_id from app_private.worker_heartbeats");
  expect(heartbeats.map((h) => h.worker_id)).not.toContain([...lockedBy][0]);
  const stillLocked = await ctx.db.asOwner("select count(*)::int as n from graphile_worker.jobs where locked_by = $1", [
    [...lockedBy][0],
  ]);
  expect(stillLocked.rows[0].n).toBe(0);
});

test("a worker stopped mid-delivery and a new one send each notification exactly once", async () => {
  const { capcode, monitorUuid } = await monitorWithChannel({ type: "webhook", url: `${receiver.url}/exactly-once` });
  receiver.respondWith.delayMs = 400;
  for (let i = 0; i < 4; i++) await ingest(`P 1 BDH-01 Brand woning Dorpsstraat Delft bon ${7000 + i}`, capcode);
  const first = await worker();
  await receiver.waitFor((r) => r.path === "/exactly-once");
  await first.stop(); // waits for the delivery in flight; queued ones stay queued
  const afterStop = receiver.requests.filter((r) => r.path === "/exactly-once").length;
  expect(afterStop).toBeLessThan(4);
  const second = await worker();
  try {
    await until(
      () => notifications(monitorUuid),
      (rows) => rows.length === 4 && rows.every((n) => n.status === "delivered"),
    );
  } finally {
    await second.stop();
    receiver.respondWith.delayMs = 0;
  }
  const ids = receiver.requests.filter((r) => r.path === "/exactly-once").map((r) => r.headers["webhook-id"]);
  expect(ids).toHaveLength(4);
  expect(new Set(ids).size).toBe(4);
  for (const n of await notifications(monitorUuid)) expect(n).toMatchObject({ attempts: 1, recorded: 1 });

  // Matching the same messages again (a retried or duplicate job) queues nothing.
  const { rows } = await ctx.db.asOwner(
    "select sum(app_private.match_p2000_message(m.uuid))::int as queued from app_public.p2000_messages m where $1 = any (m.capcode_names)",
    [capcode],
  );
  expect(rows[0].queued).toBe(0);
});

describe("with a running worker", () => {
  let runner: SupervisedWorker;
  beforeAll(async () => {
    runner = await worker();
  });
  afterAll(async () => {
    await runner?.stop();
  });

  test("a failed delivery is recorded and retried until it succeeds", async () => {
    const { capcode, monitorUuid } = await monitorWithChannel({ type: "webhook", url: `${receiver.url}/flaky` });
    receiver.respondWith.status = 503;
    await ingest("A1 AMBU 09101 Stationsplein Utrecht bon 555001", capcode);
    const [failed] = await until(
      () => notifications(monitorUuid),
      (rows) => rows.length === 1 && rows[0].attempts === 1,
    );
    expect(failed.status).toBe("queued");
    const {
      rows: [attempt],
    } = await ctx.db.asOwner(
      "select succeeded, response_code, error from app_private.notification_attempts where notification_uuid = $1",
      [failed.uuid],
    );
    expect(attempt).toMatchObject({ succeeded: false, response_code: 503 });
    expect(attempt.error).toMatch(/^HTTP 503/);
    receiver.respondWith.status = 200;
    // Skip the backoff wait (the first retry is due after e^1 seconds).
    await ctx.db.asOwner(
      "update graphile_worker._private_jobs set run_at = now() where task_id = (select id from graphile_worker._private_tasks where identifier = 'notifications__deliver')",
    );
    const [delivered] = await until(
      () => notifications(monitorUuid),
      (rows) => rows[0].status === "delivered",
    );
    expect(delivered).toMatchObject({ attempts: 2, recorded: 2 });
    const tries = receiver.requests.filter((r) => r.path === "/flaky");
    expect(tries.map((r) => r.headers["webhook-id"])).toEqual([failed.uuid, failed.uuid]);
    for (const { body, headers } of tries)
      expect(() => new Webhook(SIGNING_SECRET).verify(body, headers as Record<string, string>)).not.toThrow();
  });

  test("a page for many monitors goes out in batch jobs: the failed ones alone are tried again, each sent once", async () => {
    // 30 monitors on one capcode: a batch of 25 and one of 5 (app_hidden.notification_batch_size()).
    const capcode = String(++capcodeCounter);
    const monitors: Array<{ monitorUuid: string }> = [];
    for (let i = 0; i < 30; i++)
      monitors.push(await monitorWithChannel({ type: "webhook", url: `${receiver.url}/batch/${i}` }, {}, capcode));
    const failing = ["/batch/3", "/batch/27"];
    for (const path of failing) receiver.respondWith.statusByPath.set(path, 503);
    await ingest("P 1 BDH-01 Middelbrand woning Domplein Utrecht", capcode);
    const all = async () => (await Promise.all(monitors.map((m) => notifications(m.monitorUuid)))).flat();
    const firstRound = await until(all, (rows) => rows.length === 30 && rows.every((n) => n.attempts === 1));
    expect(firstRound.filter((n) => n.status === "delivered")).toHaveLength(28);
    const failed = firstRound.filter((n) => n.status === "queued");
    expect(failed).toHaveLength(2);
    expect(firstRound.every((n) => n.recorded === 1)).toBe(true);
    // What goes back to the queue is the batches' failed entries alone (graphile-worker's partial
    // success): lists holding the two that failed (in one batch or two), tried once so far.
    const { rows: jobs } = await ctx.db.asOwner(
      "select j.payload, j.attempts from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'notifications__deliver'",
    );
    expect(jobs.length).toBeGreaterThanOrEqual(1);
    for (const job of jobs) expect(job).toMatchObject({ attempts: 1, payload: expect.any(Array) });
    expect(jobs.flatMap((job) => (job.payload as Array<{ uuid: string }>).map((entry) => entry.uuid)).sort()).toEqual(
      failed.map((n) => n.uuid).sort(),
    );

    for (const path of failing) receiver.respondWith.statusByPath.delete(path);
    await ctx.db.asOwner(
      "update graphile_worker._private_jobs set run_at = now() where task_id = (select id from graphile_worker._private_tasks where identifier = 'notifications__deliver')",
    );
    const done = await until(all, (rows) => rows.every((n) => n.status === "delivered"));
    for (const n of done)
      expect(n).toMatchObject(
        failed.some((f) => f.uuid === n.uuid) ? { attempts: 2, recorded: 2 } : { attempts: 1, recorded: 1 },
      );
    // Each channel heard once (the two failed ones twice, under the same Webhook-Id), every body signed.
    const batch = receiver.requests.filter((r) => r.path.startsWith("/batch/"));
    expect(batch).toHaveLength(32);
    expect(new Set(batch.map((r) => r.path)).size).toBe(30);
    for (const path of failing) {
      const tries = batch.filter((r) => r.path === path);
      expect(tries.map((r) => r.headers["webhook-id"])).toEqual([
        tries[0].headers["webhook-id"],
        tries[0].headers["webhook-id"],
      ]);
    }
    for (const { body, headers } of batch)
      expect(() => new Webhook(SIGNING_SECRET).verify(body, headers as Record<string, string>)).not.toThrow();
  });

  test("a page for more monitors than the first chunk: 1,000 matched in a transaction of their own, the rest by a second run, each told once", async () => {
    const capcode = String(++capcodeCounter);
    const MONITORS = 1_100;
    const {
      rows: [{ first }],
    } = await ctx.db.asOwner<{ first: number }>("select app_hidden.first_match_chunk() as first");
    expect(first).toBe(1_000);
    const uuids = await manyMonitors(capcode, MONITORS, "/many/");
    const message = await ingest("P 1 BDH-01 GRIP 1 Middelbrand woning Domplein Utrecht", capcode);
    const delivered = async () =>
      (
        await ctx.db.asOwner<{ n: number }>(
          "select count(*)::int as n from app_private.notifications where message_uuid = $1 and status = 'delivered'",
          [message],
        )
      ).rows[0].n;
    await waitUntil(delivered, (n) => n === MONITORS, "every monitor's delivery", 60_000);
    // Two transactions: the first run's 1,000 matches, then the second run's rest; nothing kept after.
    const { rows: runs } = await ctx.db.asOwner<{ n: number }>(
      "select count(*)::int as n from app_hidden.monitor_matches where message_uuid = $1 group by xmin::text order by 1 desc",
      [message],
    );
    expect(runs.map((r) => r.n)).toEqual([first, MONITORS - first].sort((a, b) => b - a));
    const { rows: kept } = await ctx.db.asOwner("select * from app_hidden.p2000_match_rests where message_uuid = $1", [
      message,
    ]);
    expect(kept).toEqual([]);
    const { rows: matched } = await ctx.db.asOwner<{ monitor_uuid: string }>(
      "select monitor_uuid from app_hidden.monitor_matches where message_uuid = $1",
      [message],
    );
    expect(matched.map((m) => m.monitor_uuid).sort()).toEqual(uuids.sort());
    // Each receiver heard it once.
    const heard = receiver.requests.filter((r) => r.path.startsWith("/many/"));
    expect(heard).toHaveLength(MONITORS);
    expect(new Set(heard.map((r) => r.path)).size).toBe(MONITORS);
  });

  test("a webhook channel whose secret is not whsec_ and base64 fails for good, unsent", async () => {
    // A secret as the service made them before Standard Webhooks (base64url): no library could verify it.
    const { capcode, monitorUuid } = await monitorWithChannel({
      type: "webhook",
      url: `${receiver.url}/unsigned`,
      signingSecret: "whsec_rf2h-Qm0_kX3vYbDq8LzN1cTg5sWj7uPaE4oHiKdMnB",
    });
    await ingest("A1 AMBU 09102 Stationsplein Utrecht bon 555002", capcode);
    const [failed] = await until(
      () => notifications(monitorUuid),
      (rows) => rows[0]?.status === "failed",
    );
    expect(failed).toMatchObject({ attempts: 1, recorded: 1 });
    const {
      rows: [attempt],
    } = await ctx.db.asOwner("select error from app_private.notification_attempts where notification_uuid = $1", [
      failed.uuid,
    ]);
    expect(attempt.error).toMatch(/not whsec_ followed by base64/);
    expect(receiver.requests.some((r) => r.path === "/unsigned")).toBe(false);
  });

  test("SMS and Telegram go to their provider APIs", async () => {
    const sms = await monitorWithChannel({ type: "sms", phoneNumber: "+31612345678" });
    const telegram = await monitorWithChannel({ type: "telegram", chatId: "-100123" });
    await ingest("A2 AMBU 17101 Kerkstraat Schiedam bon 600001", sms.capcode);
    await ingest("A2 AMBU 17102 Kerkstraat Schiedam bon 600002", telegram.capcode);
    const [smsRequest] = await receiver.waitFor((r) => r.path === "/sms");
    expect(smsRequest.headers.authorization).toBe("Bearer sms-secret");
    expect(JSON.parse(smsRequest.body)).toMatchObject({
      to: "+31612345678",
      text: expect.stringContaining("http://respond.test/respond?token="),
    });
    const [telegramRequest] = await receiver.waitFor((r) => r.path === "/telegram/bot123:abc/sendMessage");
    expect(JSON.parse(telegramRequest.body)).toMatchObject({
      chat_id: "-100123",
      text: expect.stringContaining("A2 AMBU 17102 Kerkstraat Schiedam"),
    });
  });

  test("notification rules: quiet hours, minimum urgency and throttles per dossier and per period suppress", async () => {
    // Quiet from an hour ago to an hour from now, Dutch time (across midnight at times).
    const dutch = (offsetMs: number) =>
      new Intl.DateTimeFormat("en-GB", {
        timeZone: "Europe/Amsterdam",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      }).format(new Date(Date.now() + offsetMs));
    const quiet = await monitorWithChannel(
      { type: "webhook", url: `${receiver.url}/quiet` },
      { quietHours: { from: dutch(-3_600_000), to: dutch(3_600_000) } },
    );
    const urgent = await monitorWithChannel({ type: "webhook", url: `${receiver.url}/urgent` }, { minUrgency: "A1" });
    const throttled = await monitorWithChannel(
      { type: "webhook", url: `${receiver.url}/throttled` },
      { maxPerDossier: 1 },
    );
    const periodic = await monitorWithChannel(
      { type: "webhook", url: `${receiver.url}/periodic` },
      { maxPerPeriod: { count: 1, minutes: 60 } },
    );
    await ingest("A1 AMBU 17103 Kerkstraat Schiedam bon 610001", quiet.capcode);
    await ingest("A2 AMBU 17104 Kerkstraat Schiedam bon 610002", urgent.capcode);
    await ingest("A1 AMBU 17105 Hoofdweg Schiedam bon 610003", urgent.capcode);
    // A throttle counts what was matched before: the second message of each pair comes once the
    // first is matched, as traffic spaces them (arriving together, either could be the one let through).
    await ingest("A2 AMBU 17106 Nieuwstraat Schiedam bon 610004", throttled.capcode);
    await matchedOnce(throttled.monitorUuid);
    await ingest("A1 AMBU 17106 Nieuwstraat Schiedam bon 610004", throttled.capcode); // same dossier, raised
    await ingest("A2 AMBU 17107 Dorpsstraat Schiedam bon 610005", periodic.capcode);
    await matchedOnce(periodic.monitorUuid);
    await ingest("A2 AMBU 17108 Molenweg Schiedam bon 610006", periodic.capcode); // another incident, same hour
    const reasons = async () =>
      (
        await ctx.db.asOwner(
          `select mm.monitor_uuid, mm.suppressed_reason from app_hidden.monitor_matches mm
        where mm.monitor_uuid = any ($1) order by mm.sended, mm.matched_at`,
          [[quiet.monitorUuid, urgent.monitorUuid, throttled.monitorUuid, periodic.monitorUuid]],
        )
      ).rows;
    const rows = await until(reasons, (r) => r.length === 7);
    const byMonitor = (uuid: string) => rows.filter((r) => r.monitor_uuid === uuid).map((r) => r.suppressed_reason);
    expect(byMonitor(quiet.monitorUuid)).toEqual(["quiet_hours"]);
    expect(byMonitor(urgent.monitorUuid)).toEqual(["min_urgency", null]);
    expect(byMonitor(throttled.monitorUuid)).toEqual([null, "max_per_dossier"]);
    expect(byMonitor(periodic.monitorUuid)).toEqual([null, "max_per_period"]);
    await receiver.waitFor((r) => r.path === "/urgent");
    await receiver.waitFor((r) => r.path === "/throttled");
    expect(
      receiver.requests
        .filter((r) => ["/quiet", "/urgent", "/throttled"].includes(r.path))
        .map((r) => r.path)
        .sort(),
    ).toEqual(["/throttled", "/urgent"]);
  });

  test("a webhook on a private address is refused at send time, and an e-mail without SMTP fails for good", async () => {
    const guarded = await worker({ delivery: { allowPrivateTargets: false } });
    await runner.stop();
    runner = guarded;
    const hook = await monitorWithChannel({ type: "webhook", url: `${receiver.url}/private` });
    await ingest("A1 AMBU 17107 Kerkstraat Schiedam bon 620001", hook.capcode);
    const [refused] = await until(
      () => notifications(hook.monitorUuid),
      (rows) => rows.length === 1 && rows[0].attempts >= 1,
    );
    const {
      rows: [attempt],
    } = await ctx.db.asOwner("select error from app_private.notification_attempts where notification_uuid = $1", [
      refused.uuid,
    ]);
    expect(attempt.error).toMatch(/private, loopback or link-local/);
    expect(receiver.requests.some((r) => r.path === "/private")).toBe(false);

    const {
      rows: [channel],
    } = await ctx.db.asOwner(
      "insert into app_public.channels (environment_uuid, type, name, email_address) values ($1, 'email', 'mail', 'x@example.org') returning uuid",
      [ctx.db.operatorEnvironmentUuid],
    );
    await ctx.db.asOwner("insert into app_hidden.monitor_channels values ($1, $2)", [hook.monitorUuid, channel.uuid]);
    await ingest("A1 AMBU 17108 Kerkstraat Schiedam bon 620002", hook.capcode);
    const {
      rows: [failed],
    } = await until(
      () =>
        ctx.db.asOwner("select status, attempts from app_private.notifications where channel_uuid = $1", [
          channel.uuid,
        ]),
      (result) => result.rows[0]?.status === "failed",
    );
    expect(failed).toEqual({ status: "failed", attempts: 1 });
  });
});

describe("webhook target guard", () => {
  test.each([
    "http://127.0.0.1/",
    "http://localhost:8080/x",
    "http://10.1.2.3/",
    "http://169.254.169.254/latest",
    "http://[::1]/",
    "http://[fd00::1]/",
    "http://[::ffff:192.168.1.1]/",
  ])("refuses %s", async (url) => {
    await expect(assertChannelTargets("webhook", { url }, false)).rejects.toThrow(/private, loopback or link-local/);
  });
  test("allows public addresses, and private ones when configured", async () => {
    await expect(
      assertChannelTargets("webhook", { url: "https://93.184.215.14/hook" }, false),
    ).resolves.toBeUndefined();
    await expect(assertChannelTargets("webhook", { url: "http://127.0.0.1/" }, true)).resolves.toBeUndefined();
    await expect(assertChannelTargets("webhook", { url: "https://user:pw@93.184.215.14/" }, false)).rejects.toThrow(
      /credentials/,
    );
  });
  test("send time: private addresses are refused after resolution", async () => {
    const options = { method: "POST", body: "{}", timeoutMs: 1000, maxResponseBytes: 1000, publicOnly: true };
    await expect(outboundRequest(`${receiver.url.replace("127.0.0.1", "localhost")}/x`, options)).rejects.toThrow(
      /private, loopback or link-local/,
    );
    await expect(outboundRequest(`${receiver.url}/x`, options)).rejects.toThrow(/private, loopback or link-local/);
  });
});

describe("the delivery machinery in SQL, without a worker", () => {
  /** How many matches of a page each transaction recorded, most first. */
  const runsOf = async (message: string) =>
    (
      await ctx.db.asOwner<{ n: number }>(
        "select count(*)::int as n from app_hidden.monitor_matches where message_uuid = $1 group by xmin::text order by 1 desc",
        [message],
      )
    ).rows.map((row) => row.n);

  test("a page is matched whole by match_p2000_message (as the escalation matcher needs), in two runs only through the task's matcher", async () => {
    const capcode = String(++capcodeCounter);
    await manyMonitors(capcode, 1_050, "/sql-many/");
    try {
      const whole = await ingest("P 1 BDH-01 GRIP 2 Grote brand Domplein Utrecht", capcode);
      const {
        rows: [{ queued }],
      } = await ctx.db.asOwner<{ queued: number }>("select app_private.match_p2000_message($1) as queued", [whole]);
      expect(queued).toBe(1_050);
      expect(await runsOf(whole)).toEqual([1_050]);

      const split = await ingest("P 1 BDH-01 GRIP 2 Grote brand Neude Utrecht", capcode);
      await ctx.db.asOwner("select app_private.match_p2000_message_in_runs($1)", [split]);
      expect(await runsOf(split)).toEqual([1_000]);
      const {
        rows: [rest],
      } = await ctx.db.asOwner<{ left: number }>(
        "select cardinality(monitor_uuids) as left from app_hidden.p2000_match_rests where message_uuid = $1",
        [split],
      );
      expect(rest.left).toBe(50);
      await ctx.db.asOwner("select app_private.match_p2000_message_in_runs($1)", [split]);
      expect(await runsOf(split)).toEqual([1_000, 50]);
      const { rows: kept } = await ctx.db.asOwner(
        "select 1 from app_hidden.p2000_match_rests where message_uuid = $1",
        [split],
      );
      expect(kept).toEqual([]);
    } finally {
      // No worker runs here: the deliveries and matching queued stay unsent.
      await ctx.db.asOwner(
        `delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
          where t.id = j.task_id and t.identifier in ('notifications__deliver', 'monitors__match_feed')`,
      );
    }
  });

  test("a city's page is matched in runs that grow (1,000, then up to three times what came before), its plain words written once, its burst in larger batches", async () => {
    const capcode = String(++capcodeCounter);
    await manyMonitors(capcode, 4_100, "/sql-city/");
    const {
      rows: [{ small, burst }],
    } = await ctx.db.asOwner<{ small: number; burst: number }>(
      "select app_hidden.delivery_batch_size(1000) as small, app_hidden.delivery_batch_size(3000) as burst",
    );
    expect({ small, burst }).toEqual({ small: 25, burst: 100 });
    try {
      const page = await ingest("P 1 BDH-01 GRIP 2 Grote brand Oudegracht Utrecht", capcode);
      const rest = async () =>
        (
          await ctx.db.asOwner<{ left: number }>(
            "select cardinality(monitor_uuids) as left from app_hidden.p2000_match_rests where message_uuid = $1",
            [page],
          )
        ).rows.map((row) => row.left);
      const kept = async () =>
        (
          await ctx.db.asOwner<{ language: string }>(
            "select language from app_hidden.p2000_plain_texts where message_uuid = $1 and plain_text is not null",
            [page],
          )
        ).rows.map((row) => row.language);
      /** The sizes of the delivery jobs queued for this page's notifications, largest first. */
      const batches = async () =>
        (
          await ctx.db.asOwner<{ entries: number }>(
            `select json_array_length(j.payload) as entries
               from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
              where t.identifier = 'notifications__deliver' and json_typeof(j.payload) = 'array'
                and (j.payload->0->>'uuid')::uuid in (select n.uuid from app_private.notifications n where n.message_uuid = $1)
              order by 1 desc`,
            [page],
          )
        ).rows.map((row) => row.entries);
      const run = () => ctx.db.asOwner("select app_private.match_p2000_message_in_runs($1)", [page]);

      await run();
      expect(await runsOf(page)).toEqual([1_000]);
      expect(await rest()).toEqual([3_100]);
      // Written out by the first run, before any delivery needs it.
      expect(await kept()).toEqual(["nl"]);
      expect(await batches()).toEqual(Array(40).fill(25));

      await run();
      expect(await runsOf(page)).toEqual([3_000, 1_000]);
      expect(await rest()).toEqual([100]);

      await run();
      expect(await runsOf(page)).toEqual([3_000, 1_000, 100]);
      expect(await rest()).toEqual([]);
      expect(await batches()).toEqual([...Array(30).fill(100), ...Array(44).fill(25)]);

      // Nothing more to do: a repeated run records and queues nothing.
      await run();
      expect(await runsOf(page)).toEqual([3_000, 1_000, 100]);
      expect((await batches()).length).toBe(74);
    } finally {
      // No worker runs here: the deliveries and matching queued stay unsent.
      await ctx.db.asOwner(
        `delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
          where t.id = j.task_id and t.identifier in ('notifications__deliver', 'monitors__match_feed')`,
      );
    }
  });

  test("a batch's read and record go by primary key whatever the statistics say (a restated function keeps its setting)", async () => {
    // CREATE OR REPLACE drops what ALTER FUNCTION ... SET gave a function: a migration restating
    // either must say it again (a plan made while the table looked empty scanned every notification).
    const { rows } = await ctx.db.asOwner<{ name: string; config: string[] | null }>(
      `select p.proname as name, p.proconfig as config from pg_catalog.pg_proc p
        where p.pronamespace = 'app_private'::regnamespace
          and p.proname in ('notifications_for_delivery', 'record_notification_attempts') order by 1`,
    );
    expect(
      rows.map((row) => ({ name: row.name, seqscanOff: row.config?.includes("enable_seqscan=off") ?? false })),
    ).toEqual([
      { name: "notifications_for_delivery", seqscanOff: true },
      { name: "record_notification_attempts", seqscanOff: true },
    ]);
  });

  test("a later run whose page's matches are gone meanwhile still takes its rest, and leaves none", async () => {
    const capcode = String(++capcodeCounter);
    await manyMonitors(capcode, 1_100, "/sql-gone/");
    try {
      const page = await ingest("P 1 BDH-01 GRIP 1 Middelbrand Vredenburg Utrecht", capcode);
      await ctx.db.asOwner("select app_private.match_p2000_message_in_runs($1)", [page]);
      expect(await runsOf(page)).toEqual([1_000]);
      // The monitors of the first run's matches are deleted: their matches go with them.
      await ctx.db.asOwner(
        "delete from app_public.monitors where uuid in (select monitor_uuid from app_hidden.monitor_matches where message_uuid = $1)",
        [page],
      );
      expect(await runsOf(page)).toEqual([]);
      await ctx.db.asOwner("select app_private.match_p2000_message_in_runs($1)", [page]);
      expect(await runsOf(page)).toEqual([100]);
      const { rows: kept } = await ctx.db.asOwner(
        "select 1 from app_hidden.p2000_match_rests where message_uuid = $1",
        [page],
      );
      expect(kept).toEqual([]);
    } finally {
      await ctx.db.asOwner(
        `delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
          where t.id = j.task_id and t.identifier in ('notifications__deliver', 'monitors__match_feed')`,
      );
    }
  });

  test("a feed's event for many monitors is queued in batch jobs, and a repeated match queues nothing", async () => {
    const monitors = await manyMonitors(String(++capcodeCounter), 30, "/feed-batch/");
    const event = "00000000-0000-4000-8000-000000000470";
    const notify = async () =>
      (
        await ctx.db.asOwner<{ queued: number }>(
          `select app_private.notify_feed_event('nl_alert', $1, $2::uuid[],
                    row('NL-Alert: test', array['Utrecht'], 'alert', '{}')::app_hidden.notification_subject) as queued`,
          [event, monitors],
        )
      ).rows[0].queued;
    const jobs = async () =>
      (
        await ctx.db.asOwner<{ entries: number }>(
          `select case when json_typeof(j.payload) = 'array' then json_array_length(j.payload) else 1 end as entries
             from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
            where t.identifier = 'notifications__deliver'
              and j.payload::text like any (select '%' || n.uuid || '%' from app_private.notifications n where n.event_uuid = $1)
            order by 1 desc`,
          [event],
        )
      ).rows.map((row) => row.entries);
    try {
      expect(await notify()).toBe(30);
      expect(await jobs()).toEqual([25, 5]);
      expect(await notify()).toBe(0);
      expect(await jobs()).toEqual([25, 5]);
    } finally {
      // No worker runs here: the deliveries queued stay unsent.
      await ctx.db.asOwner(
        `delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
          where t.id = j.task_id and t.identifier = 'notifications__deliver'`,
      );
    }
  });

  test("a batch's record leaves out a notification deleted meanwhile and records the others", async () => {
    const { capcode, monitorUuid } = await monitorWithChannel({ type: "webhook", url: `${receiver.url}/recorded` });
    const message = await ingest("A1 AMBU 09103 Stationsplein Utrecht bon 555003", capcode);
    await ctx.db.asOwner("select app_private.match_p2000_message($1)", [message]);
    await ctx.db.asOwner(
      `delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
        where t.id = j.task_id and t.identifier in ('notifications__deliver', 'monitors__match_feed')`,
    );
    const [kept] = await notifications(monitorUuid);
    const attempt = (uuid: string) => ({
      notification_uuid: uuid,
      succeeded: true,
      response_code: 200,
      reply: null,
      error: null,
      duration_ms: 3,
      final: false,
    });
    await ctx.db.asOwner("select app_private.record_notification_attempts($1::jsonb)", [
      JSON.stringify([attempt(kept.uuid), attempt("00000000-0000-4000-8000-000000000047")]),
    ]);
    expect(await notifications(monitorUuid)).toEqual([
      { uuid: kept.uuid, status: "delivered", attempts: 1, recorded: 1 },
    ]);
  });

  test("a page's plain words are written out once and kept, and written anew when the page's place changes", async () => {
    const { capcode } = await monitorWithChannel({ type: "webhook", url: `${receiver.url}/kept` });
    const message = await ingest("P 1 BDH-01 Middelbrand woning Domplein Utrecht", capcode);
    const kept = async () =>
      (
        await ctx.db.asOwner<{ said: string; rows: number }>(
          `select app_hidden.p2000_plain_text_kept(m, 'en') as said,
                  (select count(*)::int from app_hidden.p2000_plain_texts k where k.message_uuid = m.uuid and k.language = 'en') as rows
             from app_public.p2000_messages m where m.uuid = $1`,
          [message],
        )
      ).rows[0];
    const first = await kept();
    expect(first.said).toContain("Domplein");
    expect((await kept()).rows).toBe(1);
    await ctx.db.asOwner("update app_public.p2000_messages set street = 'Neude' where uuid = $1", [message]);
    const moved = await kept();
    expect(moved.said).toContain("Neude");
    expect(moved.said).not.toContain("Domplein");
    await ctx.db.asOwner(
      `delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
        where t.id = j.task_id and t.identifier in ('notifications__deliver', 'monitors__match_feed')`,
    );
  });

  test("a batch size set to nonsense falls back to a sane one", async () => {
    const sizeWith = async (value: string) => {
      const results = (await ctx.db.asOwner(
        `begin; select set_config('nlis.notification_batch_size', '${value}', true); select app_hidden.notification_batch_size() as size; commit;`,
      )) as unknown as Array<{ rows: Array<{ size: number }> }>;
      return results[2].rows[0].size;
    };
    expect(await sizeWith("50")).toBe(50);
    expect(await sizeWith("0")).toBe(1);
    expect(await sizeWith("many")).toBe(25);
    expect(await sizeWith("")).toBe(25);
  });
});
