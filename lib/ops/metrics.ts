// The service's Prometheus metrics, on a registry of its own (not prom-client's global one, which
// any library may write to), served at GET /metrics (lib/http/ops-routes.ts). Counters are
// incremented where things happen; the gauges of pools, jobs and feeds are sampled when a scrape
// asks (lib/ops/database-metrics.ts). Every label has a bounded set of values: operations are
// root field names of the schema (or "other"), never a client's operationName.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

export const registry = new Registry();
// Node's process metrics (CPU, memory, event-loop lag, handles, GC), with their standard names.
collectDefaultMetrics({ register: registry });

const registers = [registry];

export const graphqlOperations = new Counter({
  name: "nlis_graphql_operations_total",
  help: "GraphQL operations executed, by the operation's first root field and whether the result had errors (ok, error).",
  labelNames: ["operation", "outcome"] as const,
  registers,
});

export const graphqlOperationDuration = new Histogram({
  name: "nlis_graphql_operation_duration_seconds",
  help: "Time to execute a GraphQL operation (parsed and validated), by its first root field.",
  labelNames: ["operation"] as const,
  // Up to the default statement timeout (15 s), which ends anything slower.
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
  registers,
});

export const graphqlErrors = new Counter({
  name: "nlis_graphql_errors_total",
  help: "GraphQL errors answered to clients, by extensions.code (including 401 and 429 answers).",
  labelNames: ["code"] as const,
  registers,
});

export const graphqlCacheRequests = new Counter({
  name: "nlis_graphql_cache_total",
  help: "Cacheable GraphQL reads (plugins/response-cache.ts), by their first root field and whether the answer came from this instance's cache (hit) or was executed (miss).",
  labelNames: ["operation", "outcome"] as const,
  registers,
});

/** What the response cache holds, asked at each scrape (set by plugins/response-cache.ts). */
let responseCacheBytes: () => number = () => 0;
export function measureResponseCache(bytes: () => number): void {
  responseCacheBytes = bytes;
}

export const graphqlCacheBytes = new Gauge({
  name: "nlis_graphql_cache_bytes",
  help: "Bytes of answers this instance's response cache holds (at most RESPONSE_CACHE_MB).",
  registers,
  collect() {
    this.set(responseCacheBytes());
  },
});

export const httpRequests = new Counter({
  name: "nlis_http_requests_total",
  help: "HTTP requests answered, by route (graphql, graphiql, auth, respond, health, ready, metrics, other) and status code.",
  labelNames: ["route", "status"] as const,
  registers,
});

export const notificationDeliveries = new Counter({
  name: "nlis_notification_deliveries_total",
  help: "Notification delivery attempts, by channel type and outcome (delivered, retrying, failed: for good).",
  labelNames: ["channel_type", "outcome"] as const,
  registers,
});

export const openSubscriptions = new Gauge({
  name: "nlis_subscriptions_open",
  help: "Open GraphQL subscriptions on this instance (WebSocket and SSE): the places SUBSCRIPTIONS_PER_TOKEN counts.",
  registers,
});

export const liveSubscriptions = new Gauge({
  name: "nlis_subscriptions_live",
  help: "Subscribers following a live execution on this instance; nlis_subscriptions_open staying above it means places held by subscriptions that have ended.",
  registers,
});

export const sharedSubscriptionExecutions = new Gauge({
  name: "nlis_subscription_executions",
  help: "Subscription executions on this instance: identical subscriptions of one API token share one.",
  registers,
});

export const databaseUp = new Gauge({
  name: "nlis_database_up",
  help: "1 when this scrape could read the database within its time limit, else 0 (jobs and feeds are then left out).",
  registers,
});

export const replicaInService = new Gauge({
  name: "nlis_db_replica_in_service",
  help: "1 while a read replica (READ_REPLICA_URLS) takes public reads; 0 while it is left out (down, promoted, or further behind than READ_REPLICA_MAX_LAG_SECONDS).",
  labelNames: ["replica"] as const,
  registers,
});

export const replicaLagSeconds = new Gauge({
  name: "nlis_db_replica_lag_seconds",
  help: "How far a read replica was behind the primary at its last check (seconds); not updated while it is down.",
  labelNames: ["replica"] as const,
  registers,
});

export const replicaReads = new Counter({
  name: "nlis_db_replica_reads_total",
  help: "Public reads sent to a read replica, by replica and outcome (read; primary: the replica was gone and the primary read it instead).",
  labelNames: ["replica", "outcome"] as const,
  registers,
});

export const poolConnections = new Gauge({
  name: "nlis_db_pool_connections",
  help: "Connections of a pool (owner: worker, account flows, rate limiter; auth: GraphQL requests; open_data: share pages, archive, calendars, OGC API), by state (total, idle, waiting: requests queued for a connection).",
  labelNames: ["pool", "state"] as const,
  registers,
});

export const poolMaxConnections = new Gauge({
  name: "nlis_db_pool_max_connections",
  help: "The most connections a pool opens.",
  labelNames: ["pool"] as const,
  registers,
});

export const jobsQueued = new Gauge({
  name: "nlis_jobs_queued",
  help: "graphile-worker jobs due and waiting for a worker (not running, attempts left), by task.",
  labelNames: ["task"] as const,
  registers,
});

export const jobsOldestAge = new Gauge({
  name: "nlis_jobs_oldest_age_seconds",
  help: "How long the longest-waiting due job of a task has been due (0 when none waits).",
  labelNames: ["task"] as const,
  registers,
});

export const jobsFailed = new Gauge({
  name: "nlis_jobs_failed",
  help: "graphile-worker jobs that used up their attempts and stay in the queue table, by task.",
  labelNames: ["task"] as const,
  registers,
});

export const feedLastSuccess = new Gauge({
  name: "nlis_feed_last_success_timestamp_seconds",
  help: "When a polled feed last got a good document (Unix time), from app_hidden.feed_status.",
  labelNames: ["feed"] as const,
  registers,
});

export const feedOk = new Gauge({
  name: "nlis_feed_ok",
  help: "1 when a feed's last poll worked, else 0.",
  labelNames: ["feed"] as const,
  registers,
});

// Per P2000 receiver (createP2000Receiver; an administrator registers each, so the set is bounded),
// labelled with its environment's uuid and its name, which is unique in its environment.
export const receiverLastHeard = new Gauge({
  name: "nlis_p2000_receiver_last_heard_timestamp_seconds",
  help: "When a P2000 receiver last sent a line (Unix time, to the minute), from app_hidden.p2000_receiver_minutes; absent before its first.",
  labelNames: ["environment", "receiver"] as const,
  registers,
});

export const receiverLines = new Gauge({
  name: "nlis_p2000_receiver_lines_last_hour",
  help: "Lines a P2000 receiver sent in the last hour, by kind: page, skipped (numeric and tone pages), malformed, and garbled (pages with unreadable characters, counted among page too).",
  labelNames: ["environment", "receiver", "kind"] as const,
  registers,
});
