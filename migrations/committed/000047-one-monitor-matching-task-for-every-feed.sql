--! Previous: sha1:689b7432d75990387651279a152c21815558d8ba
--! Hash: sha1:c0397347f54d3cd7c71529605d3e6a7e33a12d84
--! Message: One monitor matching task for every feed

-- One matching task with a matcher per feed (tasks/monitors__match_feed.ts, lib/monitors/matchers.ts):
-- the P2000, weather and traffic-incident triggers queue it too, as the jams, rail, RSS and
-- aircraft triggers already do, with the same payload: { feed, uuids }.
create or replace function app_hidden.tg_p2000_messages__queue_matching()
  returns trigger language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'p2000', 'uuids', json_build_array(new.uuid)),
                                  max_attempts := 10);
  return null;
end;
$$;
comment on function app_hidden.tg_p2000_messages__queue_matching() is
  'Queues the monitor matching of a live message (sent within an hour of now): a monitors__match_feed job of feed p2000.';

create or replace function app_hidden.tg_meteo_warning_events__queue_matching()
  returns trigger language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  live uuid[];
begin
  live := array(select n.uuid from new_events n where n.status_code > 0 and n.period_to > now() order by n.uuid);
  if cardinality(live) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'meteo', 'uuids', live), max_attempts := 10);
  end if;
  return null;
end;
$$;
comment on function app_hidden.tg_meteo_warning_events__queue_matching() is
  'Trigger: queues one monitors__match_feed job (feed meteo) per statement for new warning events with a level, still running or ahead. A backfill of history announces nothing.';

create or replace function app_hidden.tg_traffic_incident_events__queue_matching()
  returns trigger language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  live uuid[];
begin
  if coalesce(current_setting('app.traffic_notify', true), '') <> 'true' then
    return null;
  end if;
  live := array(select n.uuid from new_events n order by n.uuid);
  if cardinality(live) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'traffic', 'uuids', live), max_attempts := 10);
  end if;
  return null;
end;
$$;
comment on function app_hidden.tg_traffic_incident_events__queue_matching() is
  'Trigger: queues one monitors__match_feed job (feed traffic) per statement for the new events, but only for a live publication (app.traffic_notify, set by claim_traffic_publication). Old files notify nobody.';

-- Jobs still waiting under the old task names are queued again under the new one. Their payloads
-- are only in graphile-worker's own table (its jobs view leaves them out); a database the worker
-- has not set up yet has none.
do $$
begin
  if to_regclass('graphile_worker._private_jobs') is null then
    return;
  end if;
  perform graphile_worker.add_job('monitors__match_feed', json_build_object(
            'feed', case t.identifier when 'monitors__match_p2000' then 'p2000' when 'monitors__match_meteo' then 'meteo' else 'traffic' end,
            'uuids', coalesce(j.payload -> 'eventUuids', json_build_array(j.payload ->> 'uuid'))), max_attempts := 10)
     from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
    where t.identifier in ('monitors__match_p2000', 'monitors__match_meteo', 'monitors__match_traffic') and j.locked_at is null;
  perform graphile_worker.complete_jobs(array(
    select j.id from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier in ('monitors__match_p2000', 'monitors__match_meteo', 'monitors__match_traffic') and j.locked_at is null));
end
$$;
