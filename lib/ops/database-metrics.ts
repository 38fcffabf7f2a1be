// The gauges that describe state rather than events, sampled when a scrape asks: the pools'
// connections (from the pool objects, no query), and the job queue, the feeds and the P2000
// receivers (one round trip on the owner pool). A scrape must answer while the database is down: then nlis_database_up is 0
// and the job and feed gauges are left out rather than repeating stale values.
import type pg from "pg";
import { withDeadline } from "./deadline.ts";
import {
  databaseUp,
  feedLastSuccess,
  feedOk,
  jobsFailed,
  jobsOldestAge,
  jobsQueued,
  poolConnections,
  poolMaxConnections,
  receiverLastHeard,
  receiverLines,
} from "./metrics.ts";

export interface MetricsPools {
  owner: pg.Pool;
  auth: pg.Pool;
  /** The open data's reads (share pages, archive, calendars, OGC API), apart from GraphQL's. */
  open_data: pg.Pool;
}

/** Waiting for a pool connection and both statements together. */
const SCRAPE_TIME_LIMIT_MS = 2000;

// One simple-protocol message, so one implicit transaction: the SET LOCAL bounds both selects on
// the server too, and ends with them. Every registered task is listed, so idle ones read 0. Jobs
// are deleted when done, so the table holds the backlog only and the scan is short.
const SCRAPE_SQL = `
set local statement_timeout = ${SCRAPE_TIME_LIMIT_MS};
select t.identifier as task,
       count(j.id) filter (where j.is_available and j.run_at <= now())::int as queued,
       coalesce(extract(epoch from now() - min(j.run_at) filter (where j.is_available and j.run_at <= now())), 0)::float8 as oldest_age,
       count(j.id) filter (where j.attempts >= j.max_attempts)::int as failed
  from graphile_worker._private_tasks t
  left join graphile_worker._private_jobs j on j.task_id = t.id
 group by t.identifier;
select feed, ok, extract(epoch from last_success_at)::float8 as last_success from app_hidden.feed_status;
select r.environment_uuid as environment, r.name as receiver,
       (select extract(epoch from max(m.minute) + interval '1 minute') from app_hidden.p2000_receiver_minutes m
         where m.receiver_uuid = r.uuid and m.lines > 0)::float8 as last_heard,
       coalesce(sum(h.pages), 0)::int as page, coalesce(sum(h.skipped), 0)::int as skipped,
       coalesce(sum(h.malformed), 0)::int as malformed, coalesce(sum(h.garbled), 0)::int as garbled
  from app_public.p2000_receivers r
  left join app_hidden.p2000_receiver_minutes h on h.receiver_uuid = r.uuid and h.minute > now() - interval '1 hour'
 group by r.uuid;`;

interface JobRow {
  task: string;
  queued: number;
  oldest_age: number;
  failed: number;
}

interface ReceiverRow {
  environment: string;
  receiver: string;
  last_heard: number | null;
  page: number;
  skipped: number;
  malformed: number;
  garbled: number;
}

interface FeedRow {
  feed: string;
  ok: boolean;
  last_success: number | null;
}

function samplePools(pools: MetricsPools): void {
  for (const [name, pool] of Object.entries(pools)) {
    poolConnections.set({ pool: name, state: "total" }, pool.totalCount);
    poolConnections.set({ pool: name, state: "idle" }, pool.idleCount);
    poolConnections.set({ pool: name, state: "waiting" }, pool.waitingCount);
    poolMaxConnections.set({ pool: name }, pool.options.max ?? 10);
  }
}

export async function sampleDatabaseMetrics(pools: MetricsPools): Promise<void> {
  let results: pg.QueryResult[] | undefined;
  try {
    results = (await withDeadline(
      pools.owner.query(SCRAPE_SQL),
      SCRAPE_TIME_LIMIT_MS,
      "the metrics query",
    )) as unknown as pg.QueryResult[];
  } catch {
    // Down, or too slow to count as up: the scrape goes on with what needs no database.
  }
  // Set in one synchronous stretch, so a concurrent scrape never reads half-reset gauges.
  samplePools(pools);
  for (const gauge of [
    jobsQueued,
    jobsOldestAge,
    jobsFailed,
    feedLastSuccess,
    feedOk,
    receiverLastHeard,
    receiverLines,
  ])
    gauge.reset();
  databaseUp.set(results ? 1 : 0);
  if (!results) return;
  const [, jobs, feeds, receivers] = results as [
    pg.QueryResult,
    pg.QueryResult<JobRow>,
    pg.QueryResult<FeedRow>,
    pg.QueryResult<ReceiverRow>,
  ];
  for (const row of jobs.rows) {
    jobsQueued.set({ task: row.task }, row.queued);
    jobsOldestAge.set({ task: row.task }, row.oldest_age);
    jobsFailed.set({ task: row.task }, row.failed);
  }
  for (const row of feeds.rows) {
    feedOk.set({ feed: row.feed }, row.ok ? 1 : 0);
    // A feed that never got a good document has no timestamp (absent, not 0 = 1970).
    if (row.last_success !== null) feedLastSuccess.set({ feed: row.feed }, row.last_success);
  }
  for (const row of receivers.rows) {
    const labels = { environment: row.environment, receiver: row.receiver };
    if (row.last_heard !== null) receiverLastHeard.set(labels, row.last_heard);
    for (const kind of ["page", "skipped", "malformed", "garbled"] as const)
      receiverLines.set({ ...labels, kind }, row[kind]);
  }
}
