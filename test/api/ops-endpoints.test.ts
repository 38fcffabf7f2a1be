// GET /health, /ready and /metrics: liveness always, readiness with its checks (503 while the
// newest migration is not applied), and Prometheus metrics that count what the service did
// (operations, errors once each, HTTP requests) and sample pools, jobs and feeds at scrape time,
// answered to loopback callers unless METRICS_PUBLIC.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { JobHelpers } from "graphile-worker";
import pg from "pg";
import { loadConfig, mergeConfig } from "../../lib/config.ts";
import { makeNotificationsDeliver } from "../../tasks/notifications__deliver.ts";
import { mayReadMetrics } from "../../lib/http/ops-routes.ts";
import { sampleDatabaseMetrics } from "../../lib/ops/database-metrics.ts";
import { registry } from "../../lib/ops/metrics.ts";
import { routeOf } from "../../lib/ops/http-metrics.ts";
import { blankNotification } from "../helpers/notifications.ts";
import { useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService();

let token: string;
beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format 0.0.4: every line a comment (# HELP, # TYPE) or a well-formed sample. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("# HELP ") || line.startsWith("# TYPE ")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`Not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key] = value;
    const value = Number(match[3].replace("+Inf", "Infinity"));
    // prom-client writes NaN as "Nan"; Prometheus reads it case-insensitively (Go's ParseFloat).
    if (Number.isNaN(value) && !/^nan$/i.test(match[3])) throw new Error(`Not a number: ${line}`);
    samples.push({ name: match[1], labels, value });
  }
  return samples;
}

async function scrape(headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await fetch(`${ctx.service.url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return parseMetrics(await response.text());
}

/** The value of the one sample with this name and these labels (0 when absent: a counter not yet counted). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

async function ready(): Promise<{ status: number; body: any }> {
  const response = await fetch(`${ctx.service.url}/ready`);
  return { status: response.status, body: await response.json() };
}

describe("/health and /ready", () => {
  test("/health answers 200 while the process runs", async () => {
    const response = await fetch(`${ctx.service.url}/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok" });
  });

  test("/ready answers 200 with every check passed once grafserv has built the schema", async () => {
    // The schema is built in the background after the server listens; until then only it fails.
    const first = await ready();
    if (first.status === 503)
      expect(first.body.checks).toEqual({ database: true, migrations: true, worker: true, schema: false });
    expect(await waitUntil(ready, (answer) => answer.status === 200, "/ready")).toEqual({
      status: 200,
      body: {
        status: "ready",
        checks: { database: true, migrations: true, worker: true, schema: true },
        subscriptions: { open: 0, live: 0 },
      },
    });
  });

  test("only GET and HEAD", async () => {
    const response = await fetch(`${ctx.service.url}/health`, { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect((await fetch(`${ctx.service.url}/ready`, { method: "HEAD" })).status).toBe(200);
  });

  test("/ready answers 503 while the newest migration is not applied, and 200 again once it is", async () => {
    const {
      rows: [newest],
    } = await ctx.db.asOwner("select * from graphile_migrate.migrations order by filename desc limit 1");
    await ctx.db.asOwner("delete from graphile_migrate.migrations where hash = $1", [newest.hash]);
    try {
      // Answers are kept for a second.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await ready()).toEqual({
        status: 503,
        body: {
          status: "not ready",
          checks: { database: true, migrations: false, worker: true, schema: true },
          subscriptions: { open: 0, live: 0 },
        },
      });
    } finally {
      await ctx.db.asOwner(
        "insert into graphile_migrate.migrations (hash, previous_hash, filename, date) values ($1, $2, $3, $4)",
        [newest.hash, newest.previous_hash, newest.filename, newest.date],
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await ready()).status).toBe(200);
  });
});

describe("/metrics", () => {
  test("counts operations by root field, each error code once, and HTTP requests by route", async () => {
    const before = await scrape();
    const regions = "query ($first: Int) { p2000Regions(first: $first) { number } }";
    for (let i = 0; i < 3; i++)
      expect((await ctx.service.graphql(regions, { token, variables: { first: 5 } })).status).toBe(200);
    // An execution error beside data (p2000Regions: null), a validation error, a syntax error and
    // a public read without a token (401), each answered once.
    expect((await ctx.service.graphql(regions, { token, variables: { first: 0 } })).body.errors).toHaveLength(1);
    expect((await ctx.service.graphql("{ noSuchField }", { token })).body.errors).toHaveLength(1);
    expect((await ctx.service.graphql("{ p2000Regions {", { token })).body.errors).toHaveLength(1);
    expect((await ctx.service.graphql(regions)).status).toBe(401);
    // The client's operation name never becomes a label.
    await ctx.service.graphql("query Anything123 { __typename }", { token });
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string>) =>
      (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
    expect(delta("nlis_graphql_operations_total", { operation: "p2000Regions", outcome: "ok" })).toBe(3);
    expect(delta("nlis_graphql_operations_total", { operation: "p2000Regions", outcome: "error" })).toBe(1);
    expect(delta("nlis_graphql_operations_total", { operation: "other", outcome: "ok" })).toBe(1);
    expect(after.some((s) => Object.values(s.labels).includes("Anything123"))).toBe(false);
    expect(delta("nlis_graphql_operation_duration_seconds_count", { operation: "p2000Regions" })).toBe(4);
    expect(delta("nlis_graphql_errors_total", { code: "BAD_USER_INPUT" })).toBe(1);
    expect(delta("nlis_graphql_errors_total", { code: "GRAPHQL_VALIDATION_FAILED" })).toBe(1);
    expect(delta("nlis_graphql_errors_total", { code: "GRAPHQL_PARSE_FAILED" })).toBe(1);
    expect(delta("nlis_graphql_errors_total", { code: "UNAUTHENTICATED" })).toBe(1);
    expect(delta("nlis_http_requests_total", { route: "graphql", status: "200" })).toBe(7);
    expect(delta("nlis_http_requests_total", { route: "graphql", status: "401" })).toBe(1);
    // The first scrape was answered (and counted) before the second began.
    expect(delta("nlis_http_requests_total", { route: "metrics", status: "200" })).toBe(1);
    // Node's process metrics come along.
    expect(valueOf(after, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
  });

  test("samples the pools, the job queue and the feeds at scrape time", async () => {
    await ctx.db.asOwner(
      "insert into app_hidden.feed_status (feed, ok, message, last_success_at, last_failure_at) values " +
        "('ops-test-good', true, null, '2024-01-02T03:04:05Z', null), ('ops-test-never', false, 'down', null, now())",
    );
    // A task no worker knows, due a minute ago: it waits in the queue for good.
    await ctx.db.asOwner(
      "select graphile_worker.add_job('ops_test__unknown', '{}', job_key => 'ops-test', run_at => now() - interval '60 seconds')",
    );
    try {
      const samples = await scrape();
      expect(valueOf(samples, "nlis_database_up")).toBe(1);
      for (const pool of ["owner", "auth"]) {
        expect(valueOf(samples, "nlis_db_pool_connections", { pool, state: "total" })).toBeGreaterThan(0);
        expect(valueOf(samples, "nlis_db_pool_connections", { pool, state: "idle" })).toBeGreaterThanOrEqual(0);
        expect(valueOf(samples, "nlis_db_pool_connections", { pool, state: "waiting" })).toBe(0);
      }
      // Ten request connections and three LISTEN connections (service.ts).
      expect(valueOf(samples, "nlis_db_pool_max_connections", { pool: "auth" })).toBe(13);
      // The open data's own few, opened when a crawler asks (none may be open yet).
      expect(valueOf(samples, "nlis_db_pool_max_connections", { pool: "open_data" })).toBe(4);
      expect(
        valueOf(samples, "nlis_db_pool_connections", { pool: "open_data", state: "total" }),
      ).toBeGreaterThanOrEqual(0);
      expect(valueOf(samples, "nlis_db_pool_connections", { pool: "open_data", state: "waiting" })).toBe(0);
      expect(valueOf(samples, "nlis_jobs_queued", { task: "ops_test__unknown" })).toBe(1);
      expect(valueOf(samples, "nlis_jobs_oldest_age_seconds", { task: "ops_test__unknown" })).toBeGreaterThanOrEqual(
        60,
      );
      expect(valueOf(samples, "nlis_jobs_failed", { task: "ops_test__unknown" })).toBe(0);
      expect(valueOf(samples, "nlis_feed_ok", { feed: "ops-test-good" })).toBe(1);
      expect(valueOf(samples, "nlis_feed_last_success_timestamp_seconds", { feed: "ops-test-good" })).toBe(
        Date.UTC(2024, 0, 2, 3, 4, 5) / 1000,
      );
      expect(valueOf(samples, "nlis_feed_ok", { feed: "ops-test-never" })).toBe(0);
      expect(valueOf(samples, "nlis_feed_last_success_timestamp_seconds", { feed: "ops-test-never" })).toBeUndefined();
    } finally {
      await ctx.db.asOwner("delete from app_hidden.feed_status where feed like 'ops-test-%'");
      await ctx.db.asOwner("select graphile_worker.remove_job('ops-test')");
    }
    // Removed rows are gone from the next scrape, not left at their last value.
    expect(valueOf(await scrape(), "nlis_feed_ok", { feed: "ops-test-good" })).toBeUndefined();
  });

  test("answers loopback callers by the socket's address, whatever X-Forwarded-For says", async () => {
    expect((await scrape({ "x-forwarded-for": "192.0.2.1" })).length).toBeGreaterThan(0);
    expect(mayReadMetrics("127.0.0.1", false)).toBe(true);
    expect(mayReadMetrics("127.10.0.3", false)).toBe(true);
    expect(mayReadMetrics("::1", false)).toBe(true);
    expect(mayReadMetrics("::ffff:127.0.0.1", false)).toBe(true);
    expect(mayReadMetrics("192.0.2.1", false)).toBe(false);
    expect(mayReadMetrics("::ffff:192.0.2.1", false)).toBe(false);
    expect(mayReadMetrics("2001:db8::1", false)).toBe(false);
    expect(mayReadMetrics(undefined, false)).toBe(false);
    // METRICS_PUBLIC opens it to a scraper elsewhere.
    expect(mayReadMetrics("192.0.2.1", true)).toBe(true);
  });

  test("routes are a fixed set", () => {
    expect(
      [
        "/graphql",
        "/graphql?query=x",
        "/graphiql",
        "/ruru-static/ruru.js",
        "/auth/magic-link?token=x",
        "/respond",
        "/health",
        "/ready",
        "/metrics",
        "/",
        "/wp-admin/x",
      ].map(routeOf),
    ).toEqual([
      "graphql",
      "graphql",
      "graphiql",
      "graphiql",
      "auth",
      "respond",
      "health",
      "ready",
      "metrics",
      "other",
      "other",
    ]);
  });
});

describe("deliveries by channel type and outcome", () => {
  let provider: Server;
  let providerUrl: string;
  beforeAll(async () => {
    // An SMS provider that accepts /ok and fails everything else.
    provider = createServer((req, res) => {
      req.resume();
      res.writeHead(req.url === "/ok" ? 200 : 500).end();
    });
    await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
    providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => provider.close(resolve));
  });

  /** Runs the delivery task once for an SMS notification, with graphile-worker's helpers faked. */
  async function deliverSms(smsProviderUrl: string | undefined): Promise<void> {
    const notification = blankNotification({
      notification_uuid: "00000000-0000-0000-0000-000000000001",
      channel_type: "sms",
      phone_number: "+31600000000",
      kind: "p2000",
      message: "A1 test",
    });
    const helpers = {
      query: async (sql: string) => ({ rows: sql.includes("notifications_for_delivery") ? [notification] : [] }),
      job: { attempts: 1, max_attempts: 25 },
      logger: { warn() {} },
    } as unknown as JobHelpers;
    const delivery = mergeConfig(loadConfig().delivery, {
      allowPrivateTargets: false,
      sms: { providerUrl: smsProviderUrl },
    });
    const task = makeNotificationsDeliver({ ...delivery, mailer: null });
    // A failure with attempts left is thrown for graphile-worker to retry.
    await Promise.resolve(task({ uuid: notification.notification_uuid }, helpers)).catch(() => {});
  }

  const count = async (outcome: string) =>
    valueOf(parseMetrics(await registry.metrics()), "nlis_notification_deliveries_total", {
      channel_type: "sms",
      outcome,
    }) ?? 0;

  test("delivered, retrying (a failure with attempts left) and failed (for good)", async () => {
    const before = {
      delivered: await count("delivered"),
      retrying: await count("retrying"),
      failed: await count("failed"),
    };
    await deliverSms(`${providerUrl}/ok`);
    await deliverSms(`${providerUrl}/down`);
    await deliverSms(undefined); // no SMS provider configured: permanent
    expect(await count("delivered")).toBe(before.delivered + 1);
    expect(await count("retrying")).toBe(before.retrying + 1);
    expect(await count("failed")).toBe(before.failed + 1);
  });
});

describe("a scrape while the database is down", () => {
  let unreachable: pg.Pool;
  beforeAll(() => {
    // Nothing listens on port 1: every connection attempt fails at once.
    unreachable = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none" });
  });
  afterAll(async () => {
    await unreachable.end();
  });

  test("reports nlis_database_up 0 and what needs no database", async () => {
    await sampleDatabaseMetrics({ owner: unreachable, auth: unreachable, open_data: unreachable });
    const samples = parseMetrics(await registry.metrics());
    expect(valueOf(samples, "nlis_database_up")).toBe(0);
    expect(valueOf(samples, "nlis_db_pool_connections", { pool: "owner", state: "waiting" })).toBe(0);
    expect(samples.some((s) => s.name === "nlis_jobs_queued")).toBe(false);
  });
});
