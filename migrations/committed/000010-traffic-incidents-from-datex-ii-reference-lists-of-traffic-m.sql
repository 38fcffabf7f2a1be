--! Previous: sha1:0d7c569be88599f3875f70fc6bb707b662a7591f
--! Hash: sha1:5ff7f8fd6a3fdf7f1ac01ead9ed72282c2326e3a
--! Message: Traffic incidents from DATEX II, reference lists of traffic monitors, trafficIncidents

-- Traffic incidents: accidents, broken-down and abandoned vehicles from the road-traffic data
-- portal's DATEX II situation publications (parsed in lib/feeds/traffic/), kept by situation
-- record id and version, closed (never deleted) when they end or leave the feed; the reference
-- lists of traffic monitors (incident types, severity levels, highways); the spec's trafficIncidents.

drop function if exists app_public.traffic_incidents(boolean, integer, integer);
drop function if exists app_public.traffic_incident_types();
drop function if exists app_public.accident_severity_levels();
drop function if exists app_public.highways();
drop function if exists app_private.ingest_traffic_incidents(jsonb, timestamptz, text);
drop function if exists app_private.upsert_highways(jsonb);
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
  road_from_location boolean not null default false,
  comment text check (length(comment) <= 2000),
  lanes_restricted integer,
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  closed_at timestamptz,
  -- What a list sorts by: the start as the feed gives it, else when we first saw it.
  sort_at timestamptz generated always as (coalesce(start_at, first_seen_at)) stored
);
comment on table app_public.traffic_incidents is
  E'@name traffic_incident\nAn accident, broken-down or abandoned vehicle on the road network; closed when it ends or leaves the feed, never deleted.';
comment on column app_public.traffic_incidents.record_id is 'The DATEX II situation record id.';
comment on column app_public.traffic_incidents.version is 'The record''s version: an older version never overwrites a newer one.';
comment on column app_public.traffic_incidents.road_number is 'The road (A12, N11): as the record states it, else the road of the nearest hectometre post.';
comment on column app_public.traffic_incidents.road_from_location is E'@behavior -*\nTrue when road_number was taken from the nearest hectometre post.';
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

-- One publication (its records as JSON, keys as parsed) in one transaction. A record is inserted,
-- or updated when its version is newer; the road comes from the record, else from the nearest
-- hectometre post within 2 km. A publication is the feed's whole file, so it closes the active
-- incidents it no longer holds; a record with an end time in the past, or suspended, is closed
-- too. Returns what changed.
create function app_private.ingest_traffic_incidents(records jsonb, publication_time timestamptz, source text) returns jsonb
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  inserted integer;
  updated integer;
  closed integer;
  at timestamptz := coalesce(publication_time, now());
begin
  drop table if exists pg_temp.incoming_incidents;
  create temporary table pg_temp.incoming_incidents on commit drop as
    select distinct on (r.record_id) r.*
      from jsonb_to_recordset(records) as r (record_id text, situation_id text, version integer, version_time timestamptz,
             type text, severity text, validity_status text, start_at timestamptz, end_at timestamptz, latitude double precision,
             longitude double precision, road_number text, comment text, lanes_restricted integer)
     order by r.record_id, r.version desc;

  with written as (
    insert into app_public.traffic_incidents as t (record_id, situation_id, version, version_time, type, severity, validity_status,
      start_at, end_at, latitude, longitude, road_number, road_from_location, comment, lanes_restricted, last_seen_at)
    select i.record_id, i.situation_id, i.version, i.version_time, i.type, i.severity, i.validity_status, i.start_at, i.end_at,
           i.latitude, i.longitude, coalesce(i.road_number, near.road), i.road_number is null and near.road is not null,
           i.comment, i.lanes_restricted, at
      from pg_temp.incoming_incidents i
      left join app_public.traffic_incidents old on old.record_id = i.record_id
      left join lateral (
        select r.name as road from app_public.hectometer_markers_nearest(i.latitude, i.longitude, 1) h
          join app_public.roads r on r.uuid = h.road_uuid
         where i.road_number is null and i.latitude is not null and i.longitude is not null
           and (old.uuid is null or old.version < i.version) and h.distance_km <= 2
      ) near on true
     where old.uuid is null or old.version < i.version
    on conflict (record_id) do update set
      situation_id = excluded.situation_id, version = excluded.version, version_time = excluded.version_time, type = excluded.type,
      severity = excluded.severity, validity_status = excluded.validity_status, start_at = excluded.start_at, end_at = excluded.end_at,
      latitude = excluded.latitude, longitude = excluded.longitude, road_number = excluded.road_number,
      road_from_location = excluded.road_from_location, comment = excluded.comment, lanes_restricted = excluded.lanes_restricted,
      last_seen_at = excluded.last_seen_at, closed_at = null
    where t.version < excluded.version
    returning (xmax = 0) as was_inserted
  )
  select count(*) filter (where was_inserted), count(*) filter (where not was_inserted) into inserted, updated from written;

  -- Still in the feed: seen now. Gone from a complete publication, ended or suspended: closed (a
  -- newer version of a closed incident opens it again above).
  update app_public.traffic_incidents t set last_seen_at = at
    from pg_temp.incoming_incidents i where i.record_id = t.record_id and t.last_seen_at < at and t.closed_at is null;
  with ended as (
    update app_public.traffic_incidents t set closed_at = at
     where t.closed_at is null
       and (not exists (select 1 from pg_temp.incoming_incidents i where i.record_id = t.record_id)
            or t.end_at <= at or t.validity_status = 'suspended')
    returning 1
  )
  select count(*) into closed from ended;

  return jsonb_build_object('records', jsonb_array_length(records), 'inserted', inserted, 'updated', updated, 'closed', closed,
    'source', left(source, 200));
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
