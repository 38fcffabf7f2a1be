--! Previous: sha1:75489ef56d288d4b0f02770f566de9b32cb55526
--! Hash: sha1:20fb3eacb180109b382b2db10a51b80d4a58cbbc
--! Message: Traffic jams and railway disruptions for matrix and rail_disruptions monitors, railRoutes

-- Traffic jams and railway disruptions for their monitors: jam records (DATEX II AbnormalTraffic,
-- parsed in lib/feeds/traffic/) matched against matrix monitors by road and delay, the railway
-- routes of data/rail-routes.csv (railRoutes), and disruptions from a configured source (parsed in
-- lib/feeds/rail/) matched against rail_disruptions monitors by route. Both on the shared
-- mechanism: a monitor hears of a jam or a disruption once.

drop function if exists app_public.rail_routes();
drop function if exists app_private.upsert_rail_routes(jsonb);
drop function if exists app_private.ingest_traffic_jams(jsonb, timestamptz, text);
drop function if exists app_private.ingest_rail_disruptions(jsonb, text);
drop function if exists app_private.match_traffic_jam(uuid);
drop function if exists app_private.match_rail_disruption(uuid);
drop function if exists app_hidden.traffic_jam_notification_subject(app_public.traffic_jams);
drop function if exists app_hidden.rail_disruption_notification_subject(app_public.rail_disruptions);
drop trigger if exists _500_jam_and_rail_criteria on app_public.monitors;
drop function if exists app_hidden.tg_monitors__jam_and_rail_criteria();
drop function if exists app_hidden.matrix_criteria_of(app_public.monitors);
drop function if exists app_hidden.rail_criteria_of(app_public.monitors);
drop function if exists app_hidden.tg_traffic_jams__queue_matching() cascade;
drop function if exists app_hidden.tg_rail_disruptions__queue_matching() cascade;
drop table if exists app_hidden.matrix_monitor_criteria, app_hidden.rail_monitor_criteria, app_hidden.traffic_jam_publications,
  app_public.traffic_jams, app_public.rail_disruptions, app_public.rail_routes cascade;

--------------------------------------------------------------------------------------------------
-- Traffic jams

create table app_public.traffic_jams (
  uuid uuid primary key default uuidv7(),
  record_id text not null unique check (length(record_id) <= 200),
  situation_id text check (length(situation_id) <= 200),
  version integer not null,
  -- DATEX II abnormalTrafficType: stationaryTraffic, queuingTraffic, slowTraffic, heavyTraffic …
  jam_type text check (length(jam_type) <= 60),
  delay_minutes integer check (delay_minutes >= 0),
  queue_length_m integer check (queue_length_m >= 0),
  start_at timestamptz,
  end_at timestamptz,
  latitude double precision check (latitude between -90 and 90),
  longitude double precision check (longitude between -180 and 180),
  road_number text,
  first_seen_at timestamptz not null default now(),
  closed_at timestamptz
);
create index traffic_jams_active_idx on app_public.traffic_jams (road_number) where closed_at is null;
comment on table app_public.traffic_jams is
  E'@behavior -*\nTraffic jams (DATEX II AbnormalTraffic records) with their delay: what matrix monitors are told of; closed when they end or leave the feed.';
comment on column app_public.traffic_jams.delay_minutes is 'The delay the record states (delayTimeValue, rounded to whole minutes); null when it states none.';
alter table app_public.traffic_jams enable row level security;
create policy select_all on app_public.traffic_jams for select to app_analyst using (true);
grant select on app_public.traffic_jams to app_analyst;

-- The newest jams publication stored (as traffic_publications is for the incidents).
create table app_hidden.traffic_jam_publications (
  singleton boolean primary key default true check (singleton),
  newest_publication_time timestamptz not null
);
alter table app_hidden.traffic_jam_publications enable row level security;

-- One jams publication in one transaction, one at a time: a record is inserted or updated when
-- its version is newer; the newest publication closes the jams it no longer holds. The road
-- comes from the record, else from the nearest hectometre post within 2 km.
create function app_private.ingest_traffic_jams(records jsonb, publication_time timestamptz, source text) returns jsonb
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  inserted integer;
  updated integer;
  closed integer := 0;
  at timestamptz := coalesce(publication_time, now());
  is_newest boolean;
begin
  perform pg_advisory_xact_lock(hashtext('traffic_jams'));
  is_newest := coalesce(at >= (select p.newest_publication_time from app_hidden.traffic_jam_publications p), true);
  if is_newest then
    insert into app_hidden.traffic_jam_publications (newest_publication_time) values (at)
    on conflict (singleton) do update set newest_publication_time = excluded.newest_publication_time;
  end if;
  perform set_config('app.traffic_notify', (is_newest and at > now() - interval '1 hour')::text, true);

  drop table if exists pg_temp.incoming_jams;
  create temporary table pg_temp.incoming_jams on commit drop as
    select distinct on (r.record_id) r.*,
           (r.end_at is not null and r.end_at <= at) or r.validity_status = 'suspended' as ended
      from jsonb_to_recordset(records) as r (record_id text, situation_id text, version integer, jam_type text, delay_minutes integer,
             queue_length_m integer, validity_status text, start_at timestamptz, end_at timestamptz, latitude double precision,
             longitude double precision, road_number text)
     order by r.record_id, r.version desc;
  alter table pg_temp.incoming_jams add primary key (record_id);
  analyze pg_temp.incoming_jams;

  with written as (
    insert into app_public.traffic_jams as t (record_id, situation_id, version, jam_type, delay_minutes, queue_length_m, start_at,
      end_at, latitude, longitude, road_number, closed_at)
    select i.record_id, i.situation_id, i.version, i.jam_type, i.delay_minutes, i.queue_length_m, i.start_at, i.end_at,
           i.latitude, i.longitude,
           coalesce(i.road_number, case when i.latitude is not null and i.longitude is not null then
             (select r.name from app_public.hectometer_markers_nearest(i.latitude, i.longitude, 1) h
                join app_public.roads r on r.uuid = h.road_uuid where h.distance_km <= 2) end),
           case when i.ended then at end
      from pg_temp.incoming_jams i
      left join app_public.traffic_jams old on old.record_id = i.record_id
     where old.uuid is null or old.version < i.version
    on conflict (record_id) do update set
      situation_id = excluded.situation_id, version = excluded.version, jam_type = excluded.jam_type,
      delay_minutes = excluded.delay_minutes, queue_length_m = excluded.queue_length_m, start_at = excluded.start_at,
      end_at = excluded.end_at, latitude = excluded.latitude, longitude = excluded.longitude, road_number = excluded.road_number,
      closed_at = case when excluded.closed_at is not null then coalesce(t.closed_at, excluded.closed_at) end
    where t.version < excluded.version
    returning (xmax = 0) as was_inserted
  )
  select count(*) filter (where was_inserted), count(*) filter (where not was_inserted) into inserted, updated from written;

  if is_newest then
    with gone as (
      update app_public.traffic_jams t set closed_at = at
       where t.closed_at is null and not exists (select 1 from pg_temp.incoming_jams i where i.record_id = t.record_id)
      returning 1
    )
    select count(*) into closed from gone;
  end if;
  return jsonb_build_object('records', jsonb_array_length(records), 'inserted', inserted, 'updated', updated, 'closed', closed,
    'reopened', 0, 'older', not is_newest, 'source', left(source, 200));
end;
$$;

--------------------------------------------------------------------------------------------------
-- Railway routes and disruptions

create table app_public.rail_routes (
  value text primary key check (value ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  label text not null,
  description text not null,
  -- The principal stations along the route, by the railway's station codes (ASD, UT …).
  stations text[] not null check (cardinality(stations) >= 2),
  sort_order integer not null
);
comment on table app_public.rail_routes is E'@behavior -*\nRailway routes for rail_disruptions monitors, from data/rail-routes.csv.';
alter table app_public.rail_routes enable row level security;
create policy select_all on app_public.rail_routes for select to app_visitor, app_analyst using (true);
grant select on app_public.rail_routes to app_visitor, app_analyst;

create function app_private.upsert_rail_routes(rows jsonb) returns integer
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  with upserted as (
    insert into app_public.rail_routes (value, label, description, stations, sort_order)
    select r.value, r.label, r.description, r.stations, r.sort_order
      from jsonb_to_recordset(rows) as r (value text, label text, description text, stations text[], sort_order integer)
    on conflict (value) do update set label = excluded.label, description = excluded.description, stations = excluded.stations,
      sort_order = excluded.sort_order
    where (rail_routes.label, rail_routes.description, rail_routes.stations, rail_routes.sort_order)
          is distinct from (excluded.label, excluded.description, excluded.stations, excluded.sort_order)
    returning 1
  )
  select count(*)::integer from upserted
$$;

create function app_public.rail_routes() returns setof app_public.monitor_reference_item
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(r.value, r.label, r.description, null)::app_public.monitor_reference_item
    from app_public.rail_routes r order by r.sort_order
$$;
comment on function app_public.rail_routes() is E'@notNull\nRailway routes, for the routes of rail_disruptions monitors.';

create table app_public.rail_disruptions (
  uuid uuid primary key default uuidv7(),
  kind text not null check (kind in ('disruption', 'maintenance', 'calamity')),
  source_id text not null check (length(source_id) between 1 and 200),
  title text not null check (length(title) <= 500),
  description text check (length(description) <= 2000),
  active boolean not null,
  start_at timestamptz,
  end_at timestamptz,
  station_codes text[] not null default '{}',
  first_seen_at timestamptz not null default now(),
  changed timestamptz not null default now(),
  -- The source numbers each kind on its own.
  unique (kind, source_id)
);
create index rail_disruptions_active_idx on app_public.rail_disruptions (start_at desc) where active;
comment on table app_public.rail_disruptions is
  E'@behavior -*\nRailway disruptions, maintenance and calamities from the configured source; inactive once the source says so or no longer lists them.';
alter table app_public.rail_disruptions enable row level security;
create policy select_all on app_public.rail_disruptions for select to app_analyst using (true);
grant select on app_public.rail_disruptions to app_analyst;

-- The source's whole list in one transaction: items inserted or updated; an item it no longer
-- lists is no longer active.
create function app_private.ingest_rail_disruptions(items jsonb, source text) returns jsonb
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  inserted integer;
  updated integer;
  ended integer;
begin
  perform pg_advisory_xact_lock(hashtext('rail_disruptions'));
  drop table if exists pg_temp.incoming_rail;
  create temporary table pg_temp.incoming_rail on commit drop as
    select distinct on (d.kind, d.source_id) d.*
      from jsonb_to_recordset(items) as d (kind text, source_id text, title text, description text, active boolean,
             start_at timestamptz, end_at timestamptz, station_codes text[])
     order by d.kind, d.source_id;
  with written as (
    insert into app_public.rail_disruptions as t (kind, source_id, title, description, active, start_at, end_at, station_codes)
    select i.kind, i.source_id, i.title, i.description, i.active, i.start_at, i.end_at, i.station_codes from pg_temp.incoming_rail i
    on conflict (kind, source_id) do update set title = excluded.title, description = excluded.description, active = excluded.active,
      start_at = excluded.start_at, end_at = excluded.end_at, station_codes = excluded.station_codes, changed = now()
    where (t.title, t.description, t.active, t.start_at, t.end_at, t.station_codes)
          is distinct from (excluded.title, excluded.description, excluded.active, excluded.start_at, excluded.end_at, excluded.station_codes)
    returning (xmax = 0) as was_inserted
  )
  select count(*) filter (where was_inserted), count(*) filter (where not was_inserted) into inserted, updated from written;
  with gone as (
    update app_public.rail_disruptions t set active = false, changed = now()
     where t.active and not exists (select 1 from pg_temp.incoming_rail i where i.kind = t.kind and i.source_id = t.source_id)
    returning 1
  )
  select count(*) into ended from gone;
  return jsonb_build_object('items', jsonb_array_length(items), 'inserted', inserted, 'updated', updated, 'ended', ended,
    'source', left(source, 200));
end;
$$;

--------------------------------------------------------------------------------------------------
-- Matrix and rail_disruptions monitors

create table app_hidden.matrix_monitor_criteria (
  monitor_uuid uuid primary key references app_public.monitors on delete cascade,
  roads text[] not null,
  min_delay_minutes integer not null
);
alter table app_hidden.matrix_monitor_criteria enable row level security;

create table app_hidden.rail_monitor_criteria (
  monitor_uuid uuid primary key references app_public.monitors on delete cascade,
  routes text[] not null
);
alter table app_hidden.rail_monitor_criteria enable row level security;

-- A monitor's criteria as its query states them: one definition for the trigger and the backfill.
create function app_hidden.matrix_criteria_of(mo app_public.monitors) returns app_hidden.matrix_monitor_criteria
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(mo.uuid, array(select upper(regexp_replace(x, '\s', '', 'g')) from jsonb_array_elements_text(coalesce(mo.query->'roads', '[]')) x),
             coalesce((mo.query->>'minDelayMinutes')::integer, 0))::app_hidden.matrix_monitor_criteria
$$;

create function app_hidden.rail_criteria_of(mo app_public.monitors) returns app_hidden.rail_monitor_criteria
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(mo.uuid, array(select lower(btrim(x)) from jsonb_array_elements_text(coalesce(mo.query->'routes', '[]')) x))::app_hidden.rail_monitor_criteria
$$;

create function app_hidden.tg_monitors__jam_and_rail_criteria() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.matrix_monitor_criteria c where c.monitor_uuid = new.uuid;
  delete from app_hidden.rail_monitor_criteria c where c.monitor_uuid = new.uuid;
  if new.active and new.type = 'matrix' then
    insert into app_hidden.matrix_monitor_criteria select (app_hidden.matrix_criteria_of(new)).*;
  elsif new.active and new.type = 'rail_disruptions' then
    insert into app_hidden.rail_monitor_criteria select (app_hidden.rail_criteria_of(new)).*;
  end if;
  return null;
end;
$$;
create trigger _500_jam_and_rail_criteria after insert or update on app_public.monitors
  for each row execute function app_hidden.tg_monitors__jam_and_rail_criteria();
insert into app_hidden.matrix_monitor_criteria
select (app_hidden.matrix_criteria_of(m)).* from app_public.monitors m where m.active and m.type = 'matrix';
insert into app_hidden.rail_monitor_criteria
select (app_hidden.rail_criteria_of(m)).* from app_public.monitors m where m.active and m.type = 'rail_disruptions';

create function app_hidden.traffic_jam_notification_subject(j app_public.traffic_jams) returns app_hidden.notification_subject
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(
    format('File op de %s%s', coalesce(j.road_number, 'onbekende weg'),
           case when j.delay_minutes is not null then format(': %s min vertraging', j.delay_minutes) else '' end),
    array[
      format('Road: %s', coalesce(j.road_number, '-')),
      format('Delay: %s', coalesce(j.delay_minutes || ' min', '-')),
      format('Length: %s', coalesce(round(j.queue_length_m / 1000.0, 1) || ' km', '-')),
      format('Since: %s (Europe/Amsterdam)', to_char(coalesce(j.start_at, j.first_seen_at) at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI')),
      format('Place: %s, %s', j.latitude, j.longitude)],
    'traffic.jam',
    jsonb_build_object('jam', jsonb_build_object('uuid', j.uuid, 'recordId', j.record_id, 'type', j.jam_type, 'roadNumber', j.road_number,
      'delayMinutes', j.delay_minutes, 'queueLengthMetres', j.queue_length_m, 'latitude', j.latitude, 'longitude', j.longitude,
      'startAt', j.start_at, 'version', j.version)))::app_hidden.notification_subject
$$;

-- A matrix monitor hears of a jam on its roads once, when the jam's delay first reaches its minimum
-- (notify_feed_event records the match by the jam, so later versions add nothing for it).
create function app_private.match_traffic_jam(jam_uuid uuid) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  j app_public.traffic_jams;
begin
  select * into j from app_public.traffic_jams x where x.uuid = match_traffic_jam.jam_uuid;
  if j.uuid is null or j.closed_at is not null then
    return 0;
  end if;
  return app_private.notify_feed_event('traffic_jam', j.uuid, array(
    select c.monitor_uuid from app_hidden.matrix_monitor_criteria c
     where (cardinality(c.roads) = 0 or j.road_number = any (c.roads))
       and coalesce(j.delay_minutes, 0) >= c.min_delay_minutes
     order by c.monitor_uuid), app_hidden.traffic_jam_notification_subject(j));
end;
$$;

create function app_hidden.tg_traffic_jams__queue_matching() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  changed uuid[];
begin
  if coalesce(current_setting('app.traffic_notify', true), '') <> 'true' then
    return null;
  end if;
  -- New open jams, and open jams whose delay changed (it may now reach a monitor's minimum).
  if tg_op = 'INSERT' then
    changed := array(select n.uuid from new_jams n where n.closed_at is null order by n.uuid);
  else
    changed := array(select n.uuid from new_jams n join old_jams o on o.uuid = n.uuid
                      where n.closed_at is null and n.delay_minutes is distinct from o.delay_minutes order by n.uuid);
  end if;
  if cardinality(changed) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'traffic_jam', 'uuids', changed), max_attempts := 10);
  end if;
  return null;
end;
$$;
create trigger _600_queue_matching_on_insert after insert on app_public.traffic_jams
  referencing new table as new_jams for each statement execute function app_hidden.tg_traffic_jams__queue_matching();
create trigger _600_queue_matching_on_update after update on app_public.traffic_jams
  referencing new table as new_jams old table as old_jams for each statement execute function app_hidden.tg_traffic_jams__queue_matching();

create function app_hidden.rail_disruption_notification_subject(d app_public.rail_disruptions) returns app_hidden.notification_subject
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(
    format('%s: %s', case d.kind when 'maintenance' then 'Werkzaamheden' when 'calamity' then 'Calamiteit' else 'Storing' end, d.title),
    array[
      format('Kind: %s', d.kind),
      format('Stations: %s', coalesce(nullif(array_to_string(d.station_codes, ', '), ''), '-')),
      format('From: %s (Europe/Amsterdam)', coalesce(to_char(d.start_at at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI'), '-')),
      format('Until: %s', coalesce(to_char(d.end_at at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI'), 'unknown')),
      left(coalesce(d.description, ''), 300)],
    'rail.' || d.kind,
    jsonb_build_object('disruption', jsonb_build_object('uuid', d.uuid, 'kind', d.kind, 'sourceId', d.source_id, 'title', d.title,
      'description', d.description, 'stations', d.station_codes, 'startAt', d.start_at, 'endAt', d.end_at)))::app_hidden.notification_subject
$$;

-- A rail_disruptions monitor hears of a disruption once, when it is active and lies on one of its
-- routes: at least two of the route's stations among the disruption's (a stretch of the route),
-- or its only station. A calamity (national, usually without stations) reaches every monitor, as
-- does anything for a monitor without routes.
create function app_private.match_rail_disruption(disruption_uuid uuid) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  d app_public.rail_disruptions;
begin
  select * into d from app_public.rail_disruptions x where x.uuid = match_rail_disruption.disruption_uuid;
  if d.uuid is null or not d.active then
    return 0;
  end if;
  return app_private.notify_feed_event('rail', d.uuid, array(
    select c.monitor_uuid from app_hidden.rail_monitor_criteria c
     where cardinality(c.routes) = 0 or d.kind = 'calamity'
        or exists (select 1 from app_public.rail_routes r
                    where r.value = any (c.routes)
                      and cardinality(array(select unnest(r.stations) intersect select unnest(d.station_codes)))
                          >= least(2, cardinality(d.station_codes)))
     order by c.monitor_uuid), app_hidden.rail_disruption_notification_subject(d));
end;
$$;

create function app_hidden.tg_rail_disruptions__queue_matching() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  changed uuid[];
begin
  if tg_op = 'INSERT' then
    changed := array(select n.uuid from new_items n where n.active order by n.uuid);
  else
    changed := array(select n.uuid from new_items n join old_items o on o.uuid = n.uuid
                      where n.active and (not o.active or n.station_codes is distinct from o.station_codes) order by n.uuid);
  end if;
  if cardinality(changed) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'rail', 'uuids', changed), max_attempts := 10);
  end if;
  return null;
end;
$$;
create trigger _600_queue_matching_on_insert after insert on app_public.rail_disruptions
  referencing new table as new_items for each statement execute function app_hidden.tg_rail_disruptions__queue_matching();
create trigger _600_queue_matching_on_update after update on app_public.rail_disruptions
  referencing new table as new_items old table as old_items for each statement execute function app_hidden.tg_rail_disruptions__queue_matching();
