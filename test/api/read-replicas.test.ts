// Issue 33: public reads on a read replica (READ_REPLICA_URLS; lib/db/read-replicas.ts,
// lib/graphql/replica-routing.ts). A real streaming replica of a primary of the test's own
// (test/helpers/replica.ts). Which server answered is told by pausing the replica's replay
// (pg_wal_replay_pause): a message stored on the primary afterwards is missing from the replica's
// answers until the replica is left out for its lag, and then the primary's answers have it.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { loadConfig } from "../../lib/config.ts";
import { lsnValue, replicaUrl } from "../../lib/db/read-replicas.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { startReplicatedDatabase, type ReplicatedDatabase } from "../helpers/replica.ts";
import { startTestService, type TestService } from "../helpers/service.ts";
import { signUp } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";

/** Long enough that a paused replica is still in service for the few requests right after a write, even on a busy machine. */
const MAX_LAG_SECONDS = 3;

let replicated: ReplicatedDatabase;
let service: TestService;
let cached: TestService;

beforeAll(async () => {
  replicated = await startReplicatedDatabase();
  const readReplicas = { urls: [replicated.replicaUrl], maxLagSeconds: MAX_LAG_SECONDS };
  service = await startTestService(replicated.db, { database: { readReplicas } });
  cached = await startTestService(replicated.db, {
    database: { readReplicas },
    api: { responseCache: { maxBytes: 8 * 1024 * 1024, maxAgeMs: 60_000 } },
  });
  // A second cluster made by pg_basebackup and started as a standby: a minute on a quiet machine
  // is ample, but not on two cores that something else keeps busy.
}, 180_000);

afterAll(async () => {
  await service?.stop();
  await cached?.stop();
  await replicated?.stop();
});

interface Ready {
  replicas?: Array<{ replica: number; inService: boolean; lagSeconds: number | null }>;
}

async function replicaInService(): Promise<boolean | undefined> {
  const ready = (await (await fetch(`${service.url}/ready`)).json()) as Ready;
  return ready.replicas?.[0]?.inService;
}

async function metric(name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return Number(line?.split(" ").at(-1) ?? 0);
}

async function newestMessage(token: string, on = service): Promise<string | undefined> {
  const { body } = await on.graphql("{ p2000Messages(first: 1) { message } }", { token });
  expect(body.errors).toBeUndefined();
  return body.data.p2000Messages[0]?.message;
}

let messages = 0;
async function storeMessage(): Promise<string> {
  const message = `P 1 BDH-0${++messages} Brand woning Utrecht replica ${messages}`;
  await storeP2000Pages(replicated.db, [
    { message, capcodes: ["0923001"], sended: new Date(Date.now() + messages * 1000).toISOString() },
  ]);
  return message;
}

/**
 * Waits until nothing is left to announce and the replica has replayed all of it: the worker's jobs
 * after a stored page (dossiers, matching) announce changes of their own, and on a busy machine they
 * may come after a test pauses the replica, which would then rightly keep none of its answers.
 */
async function settled(): Promise<void> {
  await service.workerIdle();
  await cached.workerIdle();
  const { rows } = await replicated.db.asOwner<{ lsn: string }>("select pg_current_wal_insert_lsn()::text as lsn");
  const primary = lsnValue(rows[0]!.lsn);
  await waitUntil(
    async () => (await replicated.onReplica("select pg_last_wal_replay_lsn()::text as lsn")).rows[0].lsn as string,
    (replayed) => lsnValue(replayed) >= primary,
    "the replica to replay the primary's changes",
    15_000,
  );
}

/** Resumes the replica's replay and waits until it takes reads again. */
async function resumeReplay(): Promise<void> {
  await replicated.onReplica("select pg_wal_replay_resume()");
  await waitUntil(replicaInService, (inService) => inService === true, "the replica back in service", 15_000);
}

describe("read replicas", () => {
  test("the replica is checked at start and said in /ready and /metrics", async () => {
    await waitUntil(replicaInService, (inService) => inService === true, "the replica in service", 15_000);
    const ready = (await (await fetch(`${service.url}/ready`)).json()) as Ready;
    expect(ready.replicas).toEqual([{ replica: 1, inService: true, lagSeconds: expect.any(Number) }]);
    await waitUntil(
      () => metric("nlis_db_replica_in_service", "127.0.0.1"),
      (inService) => inService === 1,
      "the gauge at 1",
      3_000,
    );
  });

  test("public reads come from the replica; a token made a moment ago works there, accounts stay on the primary; a lagging replica is left out", async () => {
    await replicated.onReplica("select pg_wal_replay_pause()");
    try {
      // Both made on the primary after the replica stopped replaying: it has neither.
      const token = (await service.newToken()).secret;
      const before = await metric("nlis_db_replica_reads_total", 'outcome="read"');
      const message = await storeMessage();
      expect(await newestMessage(token)).not.toBe(message);
      expect(await metric("nlis_db_replica_reads_total", 'outcome="read"')).toBeGreaterThan(before);
      // Registering writes, and `me` must see that write: both on the primary.
      const user = await signUp(service, "replica-reader@example.org");
      const { body } = await service.graphql("{ me { email { address } } }", { token: user.accessToken });
      expect(body).toEqual({ data: { me: { email: { address: "replica-reader@example.org" } } } });
      // Further behind than READ_REPLICA_MAX_LAG_SECONDS: left out, and the primary answers.
      await waitUntil(
        () => newestMessage(token),
        (newest) => newest === message,
        "the primary's answer",
        15_000,
      );
      expect(await replicaInService()).toBe(false);
      // The gauge is the process's: the other service of this file checks the same replica, a
      // second apart at most.
      await waitUntil(
        () => metric("nlis_db_replica_in_service", "127.0.0.1"),
        (inService) => inService === 0,
        "the gauge at 0",
        3_000,
      );
    } finally {
      await resumeReplay();
    }
  });

  test("a replica killed under load costs the clients nothing, and takes reads again once it is back", async () => {
    const token = (await service.newToken()).secret;
    await waitUntil(replicaInService, (inService) => inService === true, "the replica in service", 15_000);
    const fellBack = await metric("nlis_db_replica_reads_total", 'outcome="primary"');
    let running = true;
    const failures: unknown[] = [];
    let killed = false;
    let answersSinceKill = 0;
    const reader = async () => {
      while (running) {
        const { status, body } = await service.graphql("{ p2000Messages(first: 5) { message } }", { token });
        if (status !== 200 || body.errors) failures.push({ status, errors: body.errors });
        if (killed) answersSinceKill++;
      }
    };
    const readers = Array.from({ length: 6 }, reader);
    await new Promise((resolve) => setTimeout(resolve, 500));
    replicated.killReplica();
    killed = true;
    // Counted, not timed: a busy CI machine answers fewer a second (it once made 9 in 2 s).
    await waitUntil(
      () => answersSinceKill,
      (n) => n >= 20,
      "20 reads answered since the kill",
      45_000,
    );
    running = false;
    await Promise.all(readers);
    expect(failures).toEqual([]);
    expect(await metric("nlis_db_replica_reads_total", 'outcome="primary"')).toBeGreaterThan(fellBack);
    // The launcher starts it again; the checks take it back.
    await waitUntil(replicaInService, (inService) => inService === true, "the replica back after the kill", 30_000);
    const reads = await metric("nlis_db_replica_reads_total", 'outcome="read"');
    await newestMessage(token);
    expect(await metric("nlis_db_replica_reads_total", 'outcome="read"')).toBeGreaterThan(reads);
  }, 120_000);

  test("the response cache never keeps a replica's answer from before an announced change", async () => {
    const token = (await cached.newToken()).secret;
    await waitUntil(replicaInService, (inService) => inService === true, "the replica in service", 15_000);
    // A message the replica has too, read (and kept) before it stops replaying.
    const before = await storeMessage();
    await waitUntil(
      () => newestMessage(token, cached),
      (newest) => newest === before,
      "the first message",
      3_000,
    );
    // Paused with nothing left to replay, so that its lag starts at the pause (CI once saw it left
    // out for its lag, behind on the worker's jobs after the first message, before it could answer).
    await settled();
    await replicated.onReplica("select pg_wal_replay_pause()");
    let message: string;
    try {
      message = await storeMessage();
      // The change is announced, so the cached answer goes; the replica's answer without the
      // message is given (the replica is within its lag) but must not be kept.
      await waitUntil(
        () => newestMessage(token, cached),
        (newest) => newest === before,
        "the replica's answer without it",
        2_000,
      );
    } finally {
      await resumeReplay();
    }
    await waitUntil(
      () => newestMessage(token, cached),
      (newest) => newest === message,
      "the new message",
      3_000,
    );
  });
});

describe("the response cache on a replica, by domain", () => {
  test("a change of another domain does not stop a replica's answer from being kept", async () => {
    const token = (await cached.newToken()).secret;
    await waitUntil(replicaInService, (inService) => inService === true, "the replica in service", 15_000);
    await settled();
    await replicated.onReplica("select pg_wal_replay_pause()");
    try {
      // Announced in the "service" domain (which no P2000 read reads), and not replayed by the replica.
      await replicated.db.asOwner("update app_public.api_scopes set description = description");
      await new Promise((resolve) => setTimeout(resolve, 200));
      const hits = async () => {
        const text = await (await fetch(`${cached.url}/metrics`)).text();
        const line = text
          .split("\n")
          .find((l) => l.startsWith('nlis_graphql_cache_total{operation="p2000Messages",outcome="hit"}'));
        return Number(line?.split(" ").at(-1) ?? 0);
      };
      const before = await hits();
      const query = "{ p2000Messages(first: 2) { message } }";
      await cached.graphql(query, { token });
      await cached.graphql(query, { token });
      expect(await hits()).toBe(before + 1);
    } finally {
      await resumeReplay();
    }
  });
});

describe("the settings", () => {
  function withReplicaUrls<T>(value: string, read: () => T): T {
    const saved = process.env.READ_REPLICA_URLS;
    process.env.READ_REPLICA_URLS = value;
    try {
      return read();
    } finally {
      if (saved === undefined) delete process.env.READ_REPLICA_URLS;
      else process.env.READ_REPLICA_URLS = saved;
    }
  }

  test("READ_REPLICA_URLS lists postgres:// URLs by commas or spaces; anything else is refused at start without echoing it", () => {
    const urls = withReplicaUrls(
      "postgres://10.0.0.2:5432, postgresql://reader:secret@10.0.0.3/incidents",
      () => loadConfig().database.readReplicas.urls,
    );
    expect(urls).toEqual(["postgres://10.0.0.2:5432", "postgresql://reader:secret@10.0.0.3/incidents"]);
    for (const bad of ["10.0.0.2:5432", "http://10.0.0.2", "postgres://user:s3cret@/db"]) {
      expect(() => withReplicaUrls(bad, () => loadConfig())).toThrow(/READ_REPLICA_URLS must list postgres:\/\/ URLs/);
      expect(() => withReplicaUrls(bad, () => loadConfig())).not.toThrow(/s3cret/);
    }
  });

  test("a replica URL without a login takes the authenticator's login and database; one with a login is used as it is", () => {
    const auth = "postgres://app_authenticator:p%40ss@primary:5432/incidents";
    expect(replicaUrl("postgres://replica:5433", auth)).toBe(
      "postgres://app_authenticator:p%40ss@replica:5433/incidents",
    );
    expect(replicaUrl("postgres://replica:5433/other", auth)).toBe(
      "postgres://app_authenticator:p%40ss@replica:5433/other",
    );
    expect(replicaUrl("postgres://reader:x@replica/db", auth)).toBe("postgres://reader:x@replica/db");
  });

  test("WAL positions compare as numbers", () => {
    expect(lsnValue("16/B374D848")).toBe(0x16b374d848n);
    expect(lsnValue("0/FFFFFFFF") < lsnValue("1/0")).toBe(true);
  });
});
