--! Previous: sha1:44838d2ec294d152b597e3df5e8b2b69aba89b7c
--! Hash: sha1:7537a0b8f73f318adac4f8a1079f96941b38d0b0
--! Message: Worker heartbeats: a killed worker's jobs are freed by the live ones

-- Worker heartbeats (issue 47: nothing lost or doubled, also when a worker is killed halfway).
-- graphile-worker frees the jobs of a worker that ended without unlocking them (a process killed
-- outright, a machine gone) only after 4 hours; until then a delivery it held waits. Each worker
-- process now says every few seconds which worker ids it runs (worker.ts), and the jobs of ids
-- that have not been heard of for a while are freed by the next live worker that beats.
create table if not exists app_private.worker_heartbeats (
  worker_id text primary key,
  beat_at timestamptz not null default now()
);
alter table app_private.worker_heartbeats enable row level security;
comment on table app_private.worker_heartbeats is 'The graphile-worker ids (graphile_worker._private_jobs.locked_by) each live worker process runs, with when it last said so (app_private.worker_heartbeat); ids not heard of for a while are of a process that ended without unlocking its jobs.';
comment on column app_private.worker_heartbeats.worker_id is 'A graphile-worker worker or pool id, as in graphile_worker._private_jobs.locked_by.';
comment on column app_private.worker_heartbeats.beat_at is 'When its process last said it runs it.';

create or replace function app_private.worker_heartbeat(worker_ids text[], stale_after interval, sweep boolean)
  returns text[]
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  freed text[];
begin
  insert into app_private.worker_heartbeats (worker_id, beat_at)
  select id, now() from unnest(worker_ids) as id
  on conflict (worker_id) do update set beat_at = excluded.beat_at;
  if not sweep then
    return '{}';
  end if;
  with stale as (
    delete from app_private.worker_heartbeats h
     where h.beat_at < now() - stale_after
    returning h.worker_id
  )
  select array_agg(worker_id) into freed from stale;
  if freed is not null then
    perform graphile_worker.force_unlock_workers(freed);
  end if;
  return coalesce(freed, '{}');
end;
$$;
comment on function app_private.worker_heartbeat(text[], interval, boolean) is 'Called by every worker process every few seconds (worker.ts): notes that its worker ids are alive and, when sweep is true (the caller has itself been beating without a gap, so a database outage cannot make live processes look dead), frees the jobs of worker ids not heard of for stale_after (graphile_worker.force_unlock_workers) and forgets them. Returns the ids whose jobs it freed.';

create or replace function app_private.worker_farewell(worker_ids text[])
  returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  delete from app_private.worker_heartbeats where worker_id = any(worker_ids);
$$;
comment on function app_private.worker_farewell(text[]) is 'A worker process that stops cleanly (its jobs unlocked by graphile-worker) forgets its worker ids (worker.ts).';
