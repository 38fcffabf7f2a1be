// The state of each polled feed in app_hidden.feed_status: whether its last poll worked, what
// went wrong, when it last got a good document, and the validators of its last response for a
// conditional request. A poll logs only when the state changes (working → failing, a different
// failure, failing → working), so a source that is down for a day writes two lines, not 288.
import type pg from "pg";

type Queryable = Pick<pg.ClientBase, "query">;

export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
}

export type FeedOutcome = { ok: true; validators?: FeedValidators } | { ok: false; message: string };

export async function feedValidators(db: Queryable, feed: string): Promise<FeedValidators> {
  const {
    rows: [row],
  } = await db.query<{ etag: string | null; last_modified: string | null }>(
    "select etag, last_modified from app_hidden.feed_status where feed = $1",
    [feed],
  );
  return { etag: row?.etag ?? null, lastModified: row?.last_modified ?? null };
}

/** Records a poll's outcome; returns true when the feed's state changed (worth a log line). */
export async function recordFeedOutcome(db: Queryable, feed: string, outcome: FeedOutcome): Promise<boolean> {
  const message = outcome.ok ? null : outcome.message.slice(0, 1000);
  const {
    rows: [row],
  } = await db.query<{ changed: boolean }>(
    `with previous as (select ok, message from app_hidden.feed_status where feed = $1)
     insert into app_hidden.feed_status as f (feed, ok, message, etag, last_modified, last_success_at, last_failure_at, changed_at)
     values ($1, $2, $3, $4, $5, case when $2 then now() end, case when not $2 then now() end, now())
     on conflict (feed) do update set
       ok = excluded.ok, message = excluded.message,
       etag = case when excluded.ok and $6 then excluded.etag else f.etag end,
       last_modified = case when excluded.ok and $6 then excluded.last_modified else f.last_modified end,
       last_success_at = coalesce(excluded.last_success_at, f.last_success_at),
       last_failure_at = coalesce(excluded.last_failure_at, f.last_failure_at),
       changed_at = case when (f.ok, f.message) is distinct from (excluded.ok, excluded.message) then now() else f.changed_at end
     returning coalesce((select (p.ok, p.message) is distinct from ($2, $3::text) from previous p), true) as changed`,
    [
      feed,
      outcome.ok,
      message,
      outcome.ok ? (outcome.validators?.etag ?? null) : null,
      outcome.ok ? (outcome.validators?.lastModified ?? null) : null,
      outcome.ok && outcome.validators !== undefined,
    ],
  );
  return row.changed;
}
