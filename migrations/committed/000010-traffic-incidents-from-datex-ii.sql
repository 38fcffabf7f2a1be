--! Previous: sha1:76ec92543463c0e1393205c91a8753cd3c7b768a
--! Hash: sha1:3991851085446abf013364df321db1d1460a1da4
--! Message: Traffic incidents from DATEX II, reference lists of traffic monitors, trafficIncidents

-- Traffic incidents: accidents, broken-down and abandoned vehicles from the road-traffic data
-- portal's DATEX II situation publications (parsed in lib/feeds/traffic/), kept by situation
-- record id and version, closed (never deleted) when they end or leave the feed; the reference
-- lists of traffic monitors (incident types, severity levels, highways); the spec's trafficIncidents;
-- accident monitors on the shared mechanism and trafficIncidentsForMonitor.

drop function if exists app_public.traffic_incidents(boolean, integer, integer);
drop function if exists app_public.traffic_incident_types();
drop function if exists app_public.accident_severity_levels();
drop function if exists app_public.highways();
drop function if exists app_private.ingest_traffic_incidents(jsonb, timestamptz, text);
drop function if exists app_private.upsert_highways(jsonb);
drop function if exists app_public.traffic_incidents_for_monitor(app_public.monitor_ref, boolean, integer, integer);
drop function if exists app_hidden.accident_monitor_criteria(uuid);
drop function if exists app_hidden.accident_criteria_of(app_public.monitors);
drop function if exists app_private.match_traffic_event(uuid);
drop function if exists app_hidden.traffic_incident_passes(app_hidden.traffic_monitor_criteria, app_public.traffic_incidents);
drop trigger if exists _500_traffic_criteria on app_public.monitors;
drop function if exists app_hidden.tg_monitors__traffic_criteria();
drop function if exists app_hidden.tg_traffic_incidents__record_events() cascade;
drop function if exists app_hidden.tg_traffic_incident_events__queue_matching() cascade;
drop function if exists app_hidden.traffic_notification_subject(app_public.traffic_incident_events);
drop table if exists app_hidden.traffic_monitor_criteria, app_public.traffic_incident_events cascade;
drop table if exists app_hidden.traffic_publications cascade;
drop table if exists app_public.traffic_incidents, app_public.traffic_incident_types, app_public.accident_severity_levels,
  app_public.highways cascade;

create table app_public.traffic_incident_types (
  value text primary key,
  label text not null,
  description text not null,
  sort_order integer not null
);
comment on table app_public.traffic_incident_types is E'@behavior -*\nThe kinds of traffic incident kept: accident, breakdown, unattended.';
alter table app_public.traffic_incident_types enable row level security;
create policy select_all on app_public.traffic_incident_types for select to app_visitor, app_analyst using (true);
grant select on app_public.traffic_incident_types to app_visitor, app_analyst;
insert into app_public.traffic_incident_types values
  ('accident', 'Ongeval', 'An accident (DATEX II Accident).', 1),
  ('breakdown', 'Pechgeval', 'A broken-down vehicle (VehicleObstruction brokenDownVehicle).', 2),
  ('unattended', 'Achtergelaten voertuig', 'An abandoned vehicle (VehicleObstruction abandonedVehicle).', 3);

create table app_public.accident_severity_levels (
  value text primary key,
  label text not null,
  description text not null,
  sort_order integer not null
);
comment on table app_public.accident_severity_levels is E'@behavior -*\nDATEX II severity of a situation record, lowest to highest.';
alter table app_public.accident_severity_levels enable row level security;
create policy select_all on app_public.accident_severity_levels for select to app_visitor, app_analyst using (true);
grant select on app_public.accident_severity_levels to app_visitor, app_analyst;
insert into app_public.accident_severity_levels values
  ('lowest', 'Zeer licht', 'Hardly any effect on traffic.', 1),
  ('low', 'Licht', 'Little effect on traffic.', 2),
  ('medium', 'Gemiddeld', 'A noticeable effect on traffic.', 3),
  ('high', 'Ernstig', 'A large effect on traffic.', 4),
  ('highest', 'Zeer ernstig', 'The road is blocked or nearly so.', 5);

-- Motorways for the matrix, traffic-jam and accident filters; loaded from data/highways.csv.
create table app_public.highways (
  value text primary key check (value ~ '^A[0-9]{1,3}$'),
  label text not null,
  description text not null,
  sort_order integer not null
);
comment on table app_public.highways is E'@behavior -*\nDutch motorways (A roads) with their route, from data/highways.csv.';
alter table app_public.highways enable row level security;
create policy select_all on app_public.highways for select to app_visitor, app_analyst using (true);
grant select on app_public.highways to app_visitor, app_analyst;

create function app_private.upsert_highways(rows jsonb) returns integer
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  with upserted as (
    insert into app_public.highways (value, label, description, sort_order)
    select r.value, r.label, r.description, r.sort_order
      from jsonb_to_recordset(rows) as r (value text, label text, description text, sort_order integer)
    on conflict (value) do update set label = excluded.label, description = excluded.description, sort_order = excluded.sort_order
    where (highways.label, highways.description, highways.sort_order) is distinct from (excluded.label, excluded.description, excluded.sort_order)
    returning 1
  )
  select count(*)::integer from upserted
$$;

create table app_public.traffic_incidents (
  uuid uuid primary key default uuidv7(),
  record_id text not null unique check (length(record_id) <= 200),
  situation_id text check (length(situation_id) <= 200),
  version integer not null,
  version_time timestamptz,
  type text not null references app_public.traffic_incident_types,
  severity text references app_public.accident_severity_levels,
  validity_status text,
  start_at timestamptz,
  end_at timestamptz,
  latitude double precision check (latitude between -90 and 90),
  longitude double precision check (longitude between -180 and 180),
  road_number text,
  comment text check (length(comment) <= 2000),
  lanes_restricted integer,
  first_seen_at timestamptz not null default now(),
  closed_at timestamptz,
  -- What a list sorts by: the start as the feed gives it, else when we first saw it.
  sort_at timestamptz generated always as (coalesce(start_at, first_seen_at)) stored
);
comment on table app_public.traffic_incidents is
  E'@name traffic_incident\nAn accident, broken-down or abandoned vehicle on the road network; closed when it ends or leaves the feed, never deleted.';
comment on column app_public.traffic_incidents.record_id is 'The DATEX II situation record id.';
comment on column app_public.traffic_incidents.version is 'The record''s version: an older version never overwrites a newer one.';
comment on column app_public.traffic_incidents.road_number is 'The road (A12, N11): as the record states it, else the road of the nearest hectometre post.';
comment on column app_public.traffic_incidents.closed_at is 'When the incident ended or left the feed; null while it is active.';
comment on column app_public.traffic_incidents.sort_at is E'@behavior -*';
create index traffic_incidents_active_idx on app_public.traffic_incidents (sort_at desc, uuid) where closed_at is null;
create index traffic_incidents_closed_idx on app_public.traffic_incidents (sort_at desc, uuid) where closed_at is not null;
create index traffic_incidents_sort_idx on app_public.traffic_incidents (sort_at desc, uuid);
alter table app_public.traffic_incidents enable row level security;
create policy select_all on app_public.traffic_incidents for select to app_visitor, app_analyst using (true);
grant select on app_public.traffic_incidents to app_visitor, app_analyst;

create function app_public.traffic_incidents_active(i app_public.traffic_incidents) returns boolean
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select i.closed_at is null
$$;
comment on function app_public.traffic_incidents_active(app_public.traffic_incidents) is E'@notNull\nTrue while the incident is current.';

-- The newest publication stored: an older file read later (a backfill, a slow CLI run beside the
-- poller) updates versions but closes nothing.
create table app_hidden.traffic_publications (
  singleton boolean primary key default true check (singleton),
  newest_publication_time timestamptz not null
);
alter table app_hidden.traffic_publications enable row level security;

-- One publication (its records as JSON, keys as parsed) in one transaction, one at a time. A
-- record is inserted, or updated when its version is newer; the road comes from the record, else
-- from the nearest hectometre post within 2 km. An incident is closed when it has ended or is
-- suspended (decided with its own version, so a version that only changes the comment neither
-- reopens nor closes it); the newest publication, the feed's whole file, also closes the active
-- incidents it no longer holds and reopens those it holds again. Returns what changed.
create function app_private.ingest_traffic_incidents(records jsonb, publication_time timestamptz, source text) returns jsonb
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  inserted integer;
  updated integer;
  closed integer := 0;
  reopened integer := 0;
  at timestamptz := coalesce(publication_time, now());
  is_newest boolean;
begin
  perform pg_advisory_xact_lock(hashtext('traffic_incidents'));
  is_newest := coalesce(at >= (select p.newest_publication_time from app_hidden.traffic_publications p), true);
  if is_newest then
    insert into app_hidden.traffic_publications (newest_publication_time) values (at)
    on conflict (singleton) do update set newest_publication_time = excluded.newest_publication_time;
  end if;
  -- Monitors hear of a live publication only: the trigger that queues matching reads this.
  perform set_config('app.traffic_notify', (is_newest and at > now() - interval '1 hour')::text, true);

  drop table if exists pg_temp.incoming_incidents;
  create temporary table pg_temp.incoming_incidents on commit drop as
    select distinct on (r.record_id) r.*,
           (r.end_at is not null and r.end_at <= at) or r.validity_status = 'suspended' as ended
      from jsonb_to_recordset(records) as r (record_id text, situation_id text, version integer, version_time timestamptz,
             type text, severity text, validity_status text, start_at timestamptz, end_at timestamptz, latitude double precision,
             longitude double precision, road_number text, comment text, lanes_restricted integer)
     order by r.record_id, r.version desc;
  -- Temporary tables are never analysed on their own: without these the joins below planned as
  -- nested loops over the whole file (24 s instead of a second for 20,000 records).
  alter table pg_temp.incoming_incidents add primary key (record_id);
  analyze pg_temp.incoming_incidents;

  with written as (
    insert into app_public.traffic_incidents as t (record_id, situation_id, version, version_time, type, severity, validity_status,
      start_at, end_at, latitude, longitude, road_number, comment, lanes_restricted, closed_at)
    select i.record_id, i.situation_id, i.version, i.version_time, i.type, i.severity, i.validity_status, i.start_at, i.end_at,
           i.latitude, i.longitude,
           -- The nearest post only when the record names no road and has a place (CASE keeps the
           -- lookup from running otherwise).
           coalesce(i.road_number, case when i.latitude is not null and i.longitude is not null then
             (select r.name from app_public.hectometer_markers_nearest(i.latitude, i.longitude, 1) h
                join app_public.roads r on r.uuid = h.road_uuid where h.distance_km <= 2) end),
           i.comment, i.lanes_restricted, case when i.ended then at end
      from pg_temp.incoming_incidents i
      left join app_public.traffic_incidents old on old.record_id = i.record_id
     where old.uuid is null or old.version < i.version
    on conflict (record_id) do update set
      situation_id = excluded.situation_id, version = excluded.version, version_time = excluded.version_time, type = excluded.type,
      severity = excluded.severity, validity_status = excluded.validity_status, start_at = excluded.start_at, end_at = excluded.end_at,
      latitude = excluded.latitude, longitude = excluded.longitude, road_number = excluded.road_number,
      comment = excluded.comment, lanes_restricted = excluded.lanes_restricted,
      closed_at = case when excluded.closed_at is not null then coalesce(t.closed_at, excluded.closed_at) end
    where t.version < excluded.version
    returning (xmax = 0) as was_inserted
  )
  select count(*) filter (where was_inserted), count(*) filter (where not was_inserted) into inserted, updated from written;

  if is_newest then
    -- Gone from the feed's whole file: closed. Back in it, and not ended: open again.
    with gone as (
      update app_public.traffic_incidents t set closed_at = at
       where t.closed_at is null and not exists (select 1 from pg_temp.incoming_incidents i where i.record_id = t.record_id)
      returning 1
    )
    select count(*) into closed from gone;
    with back as (
      update app_public.traffic_incidents t set closed_at = null
        from pg_temp.incoming_incidents i
       where i.record_id = t.record_id and t.closed_at is not null and not i.ended and i.version = t.version
      returning 1
    )
    select count(*) into reopened from back;
  end if;

  return jsonb_build_object('records', jsonb_array_length(records), 'inserted', inserted, 'updated', updated, 'closed', closed,
    'reopened', reopened, 'older', not is_newest, 'source', left(source, 200));
end;
$$;

create function app_public.traffic_incidents(active boolean default null, first integer default null, page integer default null)
  returns setof app_public.traffic_incidents
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  -- Three statements, one per index, so each plans to its own partial index.
  if active then
    return query select t.* from app_public.traffic_incidents t where t.closed_at is null
      order by t.sort_at desc, t.uuid limit app_hidden.page_limit(first, 200) offset app_hidden.page_offset(first, page, 200);
  elsif not active then
    return query select t.* from app_public.traffic_incidents t where t.closed_at is not null
      order by t.sort_at desc, t.uuid limit app_hidden.page_limit(first, 200) offset app_hidden.page_offset(first, page, 200);
  else
    return query select t.* from app_public.traffic_incidents t
      order by t.sort_at desc, t.uuid limit app_hidden.page_limit(first, 200) offset app_hidden.page_offset(first, page, 200);
  end if;
end;
$$;
comment on function app_public.traffic_incidents(boolean, integer, integer) is
  E'@notNull\nTraffic incidents, newest first: active null = all, true = current, false = closed.';

create function app_public.traffic_incident_types() returns setof app_public.monitor_reference_item
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(t.value, t.label, t.description, null)::app_public.monitor_reference_item
    from app_public.traffic_incident_types t order by t.sort_order
$$;
comment on function app_public.traffic_incident_types() is E'@notNull\nThe incident types an accident monitor''s query.types takes.';

create function app_public.accident_severity_levels() returns setof app_public.monitor_reference_item
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(s.value, s.label, s.description, null)::app_public.monitor_reference_item
    from app_public.accident_severity_levels s order by s.sort_order
$$;
comment on function app_public.accident_severity_levels() is E'@notNull\nDATEX II severity levels of traffic incidents, lowest to highest.';

create function app_public.highways() returns setof app_public.monitor_reference_item
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(h.value, h.label, h.description, null)::app_public.monitor_reference_item
    from app_public.highways h order by h.sort_order
$$;
comment on function app_public.highways() is E'@notNull\nDutch motorways, for the roads of matrix, traffic-jam and accident monitors.';

--------------------------------------------------------------------------------------------------
-- Accident monitors

-- What monitors are told of: an incident that opened, changed its type, or closed. A new version
-- that only changes the comment or the lanes is no event.
create table app_public.traffic_incident_events (
  uuid uuid primary key default uuidv7(),
  incident_uuid uuid not null references app_public.traffic_incidents on delete cascade,
  kind text not null check (kind in ('opened', 'type_changed', 'closed')),
  type text not null,
  created timestamptz not null default now()
);
create index traffic_incident_events_incident_idx on app_public.traffic_incident_events (incident_uuid);
comment on table app_public.traffic_incident_events is E'@behavior -*\nAn incident opened, changed its type or closed: what accident monitors are told of.';
alter table app_public.traffic_incident_events enable row level security;
create policy select_all on app_public.traffic_incident_events for select to app_analyst using (true);
grant select on app_public.traffic_incident_events to app_analyst;

create function app_hidden.tg_traffic_incidents__record_events() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if tg_op = 'INSERT' then
    insert into app_public.traffic_incident_events (incident_uuid, kind, type)
    select n.uuid, 'opened', n.type from new_incidents n where n.closed_at is null;
  else
    insert into app_public.traffic_incident_events (incident_uuid, kind, type)
    select n.uuid,
           case when o.closed_at is null and n.closed_at is not null then 'closed'
                when o.closed_at is not null and n.closed_at is null then 'opened'
                else 'type_changed' end,
           n.type
      from new_incidents n join old_incidents o on o.uuid = n.uuid
     where (o.closed_at is null) <> (n.closed_at is null) or (o.type <> n.type and n.closed_at is null);
  end if;
  return null;
end;
$$;
create trigger _600_record_events_on_insert after insert on app_public.traffic_incidents
  referencing new table as new_incidents for each statement execute function app_hidden.tg_traffic_incidents__record_events();
create trigger _600_record_events_on_update after update on app_public.traffic_incidents
  referencing new table as new_incidents old table as old_incidents
  for each statement execute function app_hidden.tg_traffic_incidents__record_events();

create table app_hidden.traffic_monitor_criteria (
  monitor_uuid uuid primary key references app_public.monitors on delete cascade,
  types text[] not null,
  roads text[] not null,
  latitude double precision,
  longitude double precision,
  radius double precision
);
alter table app_hidden.traffic_monitor_criteria enable row level security;

-- An accident monitor's criteria as its query and place state them.
create function app_hidden.accident_criteria_of(mo app_public.monitors) returns app_hidden.traffic_monitor_criteria
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(mo.uuid, array(select lower(x) from jsonb_array_elements_text(coalesce(mo.query->'types', '[]')) x),
             array(select upper(regexp_replace(x, '\s', '', 'g')) from jsonb_array_elements_text(coalesce(mo.query->'roads', '[]')) x),
             mo.latitude, mo.longitude, mo.radius)::app_hidden.traffic_monitor_criteria
$$;

create function app_hidden.tg_monitors__traffic_criteria() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.traffic_monitor_criteria c where c.monitor_uuid = new.uuid;
  if new.type = 'accident' and new.active then
    insert into app_hidden.traffic_monitor_criteria select (app_hidden.accident_criteria_of(new)).*;
  end if;
  return null;
end;
$$;
create trigger _500_traffic_criteria after insert or update on app_public.monitors
  for each row execute function app_hidden.tg_monitors__traffic_criteria();
insert into app_hidden.traffic_monitor_criteria
select (app_hidden.accident_criteria_of(m)).* from app_public.monitors m where m.type = 'accident' and m.active;

-- Whether an incident passes an accident monitor's filters: its types, its roads, its circle.
-- One definition for live matching and for trafficIncidentsForMonitor.
create function app_hidden.traffic_incident_passes(c app_hidden.traffic_monitor_criteria, i app_public.traffic_incidents) returns boolean
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select (cardinality(c.types) = 0 or i.type = any (c.types))
     and (cardinality(c.roads) = 0 or i.road_number = any (c.roads))
     and (c.radius is null or (i.latitude is not null
          and app_hidden.distance_km(c.latitude, c.longitude, i.latitude, i.longitude) <= c.radius))
$$;

-- What a traffic notification says: headline, facts, and the webhook's incident object, of the
-- incident as the event found it.
create function app_hidden.traffic_notification_subject(e app_public.traffic_incident_events) returns app_hidden.notification_subject
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(
    format('%s%s: %s%s', ty.label, case when e.kind = 'closed' then ' voorbij' else '' end, coalesce(i.road_number, 'onbekende weg'),
           case when i.comment is not null then ' – ' || left(i.comment, 120) else '' end),
    array[
      format('Event: %s', e.kind),
      format('Type: %s', e.type),
      format('Road: %s', coalesce(i.road_number, '-')),
      format('Since: %s (Europe/Amsterdam)', to_char(coalesce(i.start_at, i.first_seen_at) at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI')),
      format('Place: %s, %s', i.latitude, i.longitude)],
    'traffic.incident.' || e.kind,
    jsonb_build_object('incident', jsonb_build_object(
      'uuid', i.uuid, 'recordId', i.record_id, 'type', e.type, 'severity', i.severity, 'roadNumber', i.road_number,
      'comment', i.comment, 'latitude', i.latitude, 'longitude', i.longitude, 'startAt', i.start_at, 'endAt', i.end_at,
      'active', e.kind <> 'closed', 'version', i.version, 'event', e.kind)))::app_hidden.notification_subject
    from app_public.traffic_incidents i
    join app_public.traffic_incident_types ty on ty.value = e.type
   where i.uuid = e.incident_uuid
$$;

-- The matcher of accident monitors (task monitors__match_traffic): the monitors whose types,
-- roads and circle the incident passes, by the event's type; the rest is
-- app_private.notify_feed_event. A second run queues nothing.
create function app_private.match_traffic_event(event_uuid uuid) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  e app_public.traffic_incident_events;
  i app_public.traffic_incidents;
begin
  select * into e from app_public.traffic_incident_events x where x.uuid = match_traffic_event.event_uuid;
  select * into i from app_public.traffic_incidents x where x.uuid = e.incident_uuid;
  if i.uuid is null then
    return 0;
  end if;
  i.type := e.type; -- the type the event was about, whatever the incident became since
  return app_private.notify_feed_event('traffic', e.uuid, array(
    select c.monitor_uuid from app_hidden.traffic_monitor_criteria c
     where app_hidden.traffic_incident_passes(c, i) order by c.monitor_uuid), app_hidden.traffic_notification_subject(e));
end;
$$;

-- New events queue one matching job per statement, for a live publication only (the newest, and
-- less than an hour old: app_private.ingest_traffic_incidents says so); old files notify nobody.
create function app_hidden.tg_traffic_incident_events__queue_matching() returns trigger
  language plpgsql
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
    perform graphile_worker.add_job('monitors__match_traffic', json_build_object('eventUuids', live), max_attempts := 10);
  end if;
  return null;
end;
$$;
create trigger _600_queue_matching after insert on app_public.traffic_incident_events
  referencing new table as new_events
  for each statement execute function app_hidden.tg_traffic_incident_events__queue_matching();

-- An accident monitor's criteria as its query states them (an inactive monitor too), for a
-- monitor of the request's environment. (Security definer: API tokens read no monitor rows.)
create function app_hidden.accident_monitor_criteria(monitor_uuid uuid) returns app_hidden.traffic_monitor_criteria
  language sql stable security definer parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select app_hidden.accident_criteria_of(mo)
    from app_public.monitors mo
   where mo.uuid = accident_monitor_criteria.monitor_uuid and mo.type = 'accident'
     and mo.environment_uuid = app_hidden.current_environment_uuid()
$$;

create function app_public.traffic_incidents_for_monitor(monitor app_public.monitor_ref, active boolean default null,
    first integer default null, page integer default null) returns setof app_public.traffic_incidents
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  c app_hidden.traffic_monitor_criteria := app_hidden.accident_monitor_criteria(app_hidden.try_uuid((traffic_incidents_for_monitor.monitor).uuid));
begin
  if c.monitor_uuid is null then
    raise exception 'Accident monitor not found in this environment.' using errcode = 'XNOTF';
  end if;
  return query
    select t.* from app_public.traffic_incidents t
     where (traffic_incidents_for_monitor.active is null or (t.closed_at is null) = traffic_incidents_for_monitor.active)
       and app_hidden.traffic_incident_passes(c, t)
     order by t.sort_at desc, t.uuid
     limit app_hidden.page_limit(first, 200) offset app_hidden.page_offset(first, page, 200);
end;
$$;
comment on function app_public.traffic_incidents_for_monitor(app_public.monitor_ref, boolean, integer, integer) is
  E'@notNull\nThe incidents that pass an accident monitor''s types, roads and circle (caller''s environment only), newest first.';
