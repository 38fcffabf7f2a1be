// The real service (HTTP + worker) on a test database, on a free port, and a small client that
// speaks GraphQL to it over real HTTP.
import { createApiToken } from "../../lib/auth/api-tokens.ts";
import { loadConfig, mergeConfig, type ConfigOverrides } from "../../lib/config.ts";
import { startService, type Service } from "../../service.ts";
import { afterAll, beforeAll } from "@jest/globals";
import webpush from "web-push";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { freePort } from "./ports.ts";
import { waitUntil } from "./wait.ts";

export interface GraphQLResponse {
  status: number;
  body: { data?: any; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
}

export interface GraphQLOptions {
  variables?: Record<string, unknown>;
  token?: string;
  authorization?: string;
  headers?: Record<string, string>;
}

export interface TestService extends Service {
  graphql(query: string, options?: GraphQLOptions): Promise<GraphQLResponse>;
  /** Waits until the worker has nothing left to do (no job queued or running). */
  workerIdle(): Promise<void>;
  /** A new API token of the operator environment, plain secret. */
  newToken(options?: {
    scopes?: string[];
    validDays?: number;
    name?: string;
  }): Promise<{ uuid: string; secret: string }>;
}

/** The first error of a GraphQL answer, as { message, code }. */
export function errorOf(body: GraphQLResponse["body"]): { message: string | undefined; code: unknown } {
  return { message: body.errors?.[0]?.message, code: body.errors?.[0]?.extensions?.code };
}

/** Settings with no feed polling the internet (a test whose log or outage would see their failures). */
export const FEEDS_OFF = {
  traffic: { enabled: false },
  amber: { enabled: false },
  nlAlert: { enabled: false },
  meteo: { enabled: false },
  rail: { enabled: false },
  aircraft: { url: undefined },
} as const;

export const TEST_JWT_SECRET = "test-secret-that-is-long-enough-for-hs256";

/**
 * The test services' VAPID key pair (given, as with DATABASE_URL, so no test writes a
 * secrets.json into the working directory's .data).
 */
export const TEST_VAPID_KEYS = webpush.generateVAPIDKeys();

/** The test service's settings: the environment's, then the tests' defaults, then `overrides` (group by group). */
export async function startTestService(database: TestDatabase, overrides: ConfigOverrides = {}): Promise<TestService> {
  const port = await freePort();
  const defaults = mergeConfig(loadConfig(), {
    http: {
      port,
      host: "127.0.0.1",
      // Test files send many requests from one address and token; the budget tests set their own.
      requestBudgets: { perToken: 1_000_000, perAddress: 1_000_000, trustProxy: false },
    },
    // The response cache off: a test that writes and at once reads the same question again would race
    // the change notification (the stale window, measured in bench/). Its own tests turn it on.
    api: { graphiql: true, responseCache: { maxBytes: 0, maxAgeMs: 15_000 } },
    // No live demo ticking in tests unless one asks for it (test/tasks/demo-live.test.ts).
    demoData: false,
    // No open archive written by a test's worker (into the working directory's .data) unless the
    // test asks for one in a directory of its own (test/open-data/archive.test.ts).
    archive: { enabled: false },
    log: { level: "warning" },
    accounts: { jwtSecret: TEST_JWT_SECRET },
    delivery: {
      publicUrl: `http://127.0.0.1:${port}`,
      smtpUrl: undefined,
      webPush: { ...TEST_VAPID_KEYS, subject: "mailto:operator@example.org" },
    },
  });
  const service = await startService(mergeConfig(defaults, overrides), database);
  return {
    ...service,
    async graphql(query, options = {}) {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: "application/json",
        ...options.headers,
      };
      const authorization = options.authorization ?? (options.token ? `Bearer ${options.token}` : undefined);
      if (authorization) headers.authorization = authorization;
      const response = await fetch(service.graphqlUrl, {
        method: "POST",
        headers,
        body: JSON.stringify({ query, variables: options.variables }),
      });
      return { status: response.status, body: (await response.json()) as GraphQLResponse["body"] };
    },
    async workerIdle() {
      // Jobs due now; a poller's next round, booked for later (tasks/poll-schedule.ts), is no work left.
      const due = "select count(*)::int as n from graphile_worker._private_jobs where run_at <= now()";
      await waitUntil(
        async () => (await service.ownerPool.query(due)).rows[0].n,
        (jobs) => jobs === 0,
        "the worker to finish its jobs",
      );
    },
    async newToken(options = {}) {
      const { token, plainToken } = await createApiToken(service.ownerPool, {
        environmentUuid: database.operatorEnvironmentUuid,
        name: options.name ?? "test",
        scopes: options.scopes ?? [],
        validDays: options.validDays,
      });
      return { uuid: token.uuid, secret: plainToken };
    },
  };
}

/** A database and the running service on it for the whole test file. */
export function useTestService(overrides: () => ConfigOverrides = () => ({})): {
  db: TestDatabase;
  service: TestService;
} {
  const context = {} as { db: TestDatabase; service: TestService };
  beforeAll(async () => {
    context.db = await createTestDatabase();
    context.service = await startTestService(context.db, overrides());
  });
  afterAll(async () => {
    await context.service?.stop();
    await context.db?.drop();
  });
  return context;
}
