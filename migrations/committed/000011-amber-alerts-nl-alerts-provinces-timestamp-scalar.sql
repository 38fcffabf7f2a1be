--! Previous: sha1:3991851085446abf013364df321db1d1460a1da4
--! Hash: sha1:75489ef56d288d4b0f02770f566de9b32cb55526
--! Message: Alerts and provinces: the Timestamp scalar, AMBER and missing-child alerts, NL-Alerts by safety region, province boundaries

-- Alerts and provinces: the spec's Timestamp scalar (Unix seconds, app_public.unix_time), the
-- twelve provinces with their boundaries (nlProvinces, nlProvincesGeoJson; the weather provinces
-- use their codes), the safety regions' areas (which regions an NL-Alert covers), AMBER and
-- missing-child alerts (a live alert with its personal details, erased when it ends, and a history
-- of what and when), and NL-Alerts with their areas. Documents are parsed in lib/feeds/alerts/.

drop function if exists app_public.amber_alerts(integer, integer, boolean);
drop function if exists app_public.amber_alert_history(integer, integer, app_public.unix_time, app_public.unix_time, boolean);
drop function if exists app_public.nl_alerts(integer, integer, app_public.unix_time, app_public.unix_time, text, boolean);
drop function if exists app_public.nl_provinces();
drop function if exists app_public.nl_provinces_geo_json();
drop function if exists app_private.ingest_amber_alerts(jsonb, text);
drop function if exists app_private.ingest_nl_alerts(jsonb, text);
drop function if exists app_private.load_nl_province_boundaries(jsonb, text);
drop function if exists app_private.load_safety_region_areas(jsonb, text);
drop function if exists app_hidden.nl_alert_region_numbers(polygon[]);
drop function if exists app_hidden.refresh_nl_alert_regions(uuid[]);
drop function if exists app_hidden.nl_alert_of(app_public.nl_alerts);
drop function if exists app_hidden.geojson_polygons(jsonb);
drop function if exists app_hidden.amber_alert_label(integer);
drop function if exists app_hidden.to_unix_time(timestamptz);
drop function if exists app_hidden.time_window(app_public.unix_time, app_public.unix_time);
alter table if exists app_public.meteo_provinces drop constraint if exists meteo_provinces_code_fkey;
drop table if exists app_public.nl_alert_regions, app_public.nl_alerts, app_public.amber_alerts, app_public.safety_region_areas,
  app_public.nl_provinces, app_hidden.geo_data_versions cascade;
drop type if exists app_public.amber_alert, app_public.amber_alert_history, app_public.nl_alert cascade;
drop domain if exists app_public.unix_time cascade;

--------------------------------------------------------------------------------------------------
-- Time as Unix seconds

-- plugins/timestamp-scalar.ts maps this domain to the GraphQL scalar Timestamp, which accepts
-- whole seconds in this range only (up to the end of the year 9999).
create domain app_public.unix_time as bigint check (value between 0 and 253402300799);
comment on domain app_public.unix_time is 'A moment as Unix seconds (the GraphQL scalar Timestamp).';

create function app_hidden.to_unix_time(t timestamptz) returns app_public.unix_time
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select floor(extract(epoch from t))::bigint::app_public.unix_time
$$;

-- The window a since/until pair bounds (both inclusive, whole seconds), checked once for every query.
create function app_hidden.time_window(since app_public.unix_time, until app_public.unix_time, out from_at timestamptz, out to_at timestamptz)
  language plpgsql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if since is not null and until is not null and since > until then
    raise exception 'Argument "since" (%) is after "until" (%).', since, until using errcode = 'XINPT';
  end if;
  from_at := coalesce(to_timestamp(since), '-infinity');
  -- until is a whole second: everything within that second is inside the window.
  to_at := coalesce(to_timestamp(until + 1) - interval '1 microsecond', 'infinity');
end;
$$;

--------------------------------------------------------------------------------------------------
-- Provinces and safety-region areas (boundaries from data/*.geojson, loaded on start)

create table app_public.nl_provinces (
  uuid uuid primary key default gen_random_uuid(),
  code text not null unique check (code ~ '^[a-z]+(-[a-z]+)*$'),
  iso_code text not null unique check (iso_code ~ '^NL-[A-Z]{2}$'),
  name text not null,
  capital text not null,
  sort_order integer not null,
  boundary jsonb check (boundary is null or boundary->>'type' = 'MultiPolygon')
);
comment on table app_public.nl_provinces is E'@name nl_province\nThe twelve provinces of the Netherlands.';
comment on column app_public.nl_provinces.code is 'Lower-case slug, the same as the weather region code (MeteoRegion.code).';
comment on column app_public.nl_provinces.iso_code is 'ISO 3166-2 code (NL-NH).';
comment on column app_public.nl_provinces.capital is 'The seat of the provincial government.';
comment on column app_public.nl_provinces.sort_order is E'@behavior -*';
comment on column app_public.nl_provinces.boundary is E'@behavior -*\nGeoJSON MultiPolygon (WGS84), from data/nl-provinces.geojson; null until loaded.';
alter table app_public.nl_provinces enable row level security;
create policy select_all on app_public.nl_provinces for select to app_visitor, app_analyst using (true);
grant select on app_public.nl_provinces to app_visitor, app_analyst;
insert into app_public.nl_provinces (code, iso_code, name, capital, sort_order) values
  ('groningen', 'NL-GR', 'Groningen', 'Groningen', 1), ('friesland', 'NL-FR', 'Friesland', 'Leeuwarden', 2),
  ('drenthe', 'NL-DR', 'Drenthe', 'Assen', 3), ('noord-holland', 'NL-NH', 'Noord-Holland', 'Haarlem', 4),
  ('flevoland', 'NL-FL', 'Flevoland', 'Lelystad', 5), ('overijssel', 'NL-OV', 'Overijssel', 'Zwolle', 6),
  ('gelderland', 'NL-GE', 'Gelderland', 'Arnhem', 7), ('utrecht', 'NL-UT', 'Utrecht', 'Utrecht', 8),
  ('zuid-holland', 'NL-ZH', 'Zuid-Holland', 'Den Haag', 9), ('zeeland', 'NL-ZE', 'Zeeland', 'Middelburg', 10),
  ('noord-brabant', 'NL-NB', 'Noord-Brabant', '''s-Hertogenbosch', 11), ('limburg', 'NL-LI', 'Limburg', 'Maastricht', 12);
-- The weather part names its regions by these codes.
alter table app_public.meteo_provinces add constraint meteo_provinces_code_fkey foreign key (code) references app_public.nl_provinces (code);

-- Which version of a boundary file is loaded (its SHA-256): a start with an unchanged file does nothing.
create table app_hidden.geo_data_versions (
  name text primary key,
  digest text not null,
  loaded_at timestamptz not null default now()
);
alter table app_hidden.geo_data_versions enable row level security;

-- The outer rings of a GeoJSON Polygon or MultiPolygon as PostgreSQL polygons (x = longitude,
-- y = latitude). Holes are left out: an area then covers a little more than it should.
create function app_hidden.geojson_polygons(geometry jsonb) returns polygon[]
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select array(
    select ('(' || (select string_agg(format('(%s,%s)', point->>0, point->>1), ',' order by n)
                      from jsonb_array_elements(part->0) with ordinality as p (point, n)) || ')')::polygon
      from jsonb_array_elements(case geometry->>'type' when 'Polygon' then jsonb_build_array(geometry->'coordinates')
                                                      else geometry->'coordinates' end) as parts (part))
$$;

create function app_private.load_nl_province_boundaries(features jsonb, digest text) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  changed integer;
begin
  if exists (select 1 from app_hidden.geo_data_versions v where v.name = 'nl-provinces' and v.digest = load_nl_province_boundaries.digest) then
    return 0;
  end if;
  update app_public.nl_provinces p set boundary = f->'geometry'
    from jsonb_array_elements(features) f where f->'properties'->>'code' = p.code;
  get diagnostics changed = row_count;
  if changed <> 12 then
    raise exception 'The province file holds % of the 12 provinces.', changed using errcode = 'XINPT';
  end if;
  insert into app_hidden.geo_data_versions (name, digest) values ('nl-provinces', digest)
  on conflict (name) do update set digest = excluded.digest, loaded_at = now();
  return changed;
end;
$$;

-- Each safety region's area as polygons (a region of islands has several).
create table app_public.safety_region_areas (
  region_uuid uuid not null references app_public.p2000_regions on delete cascade,
  part integer not null,
  area polygon not null,
  primary key (region_uuid, part)
);
create index safety_region_areas_area_idx on app_public.safety_region_areas using gist (area);
comment on table app_public.safety_region_areas is
  E'@behavior -*\nThe safety regions'' areas (outer rings, longitude/latitude), from data/safety-regions.geojson: which regions an NL-Alert covers.';
alter table app_public.safety_region_areas enable row level security;
create policy select_all on app_public.safety_region_areas for select to app_visitor, app_analyst using (true);
grant select on app_public.safety_region_areas to app_visitor, app_analyst;

--------------------------------------------------------------------------------------------------
-- AMBER and missing-child alerts

-- One row per alert: its history (what and when) and, while it runs, the personal details the
-- alert publishes. The check makes details on an ended alert impossible, whatever writes the row.
create table app_public.amber_alerts (
  uuid uuid primary key default uuidv7(),
  alert_id text not null unique check (length(alert_id) between 1 and 100),
  level integer not null check (level in (5, 10)),
  started_at timestamptz not null,
  ended_at timestamptz,
  title text check (length(title) <= 500),
  description text check (length(description) <= 10000),
  description_ext text check (length(description_ext) <= 2000),
  image_url text check (length(image_url) <= 2000),
  read_more_url text check (length(read_more_url) <= 2000),
  first_seen_at timestamptz not null default now(),
  changed timestamptz not null default now(),
  constraint amber_alerts_no_personal_details_once_ended
    check (ended_at is null or num_nonnulls(title, description, description_ext, image_url, read_more_url) = 0)
);
create index amber_alerts_started_idx on app_public.amber_alerts (started_at desc, uuid);
create index amber_alerts_active_idx on app_public.amber_alerts (started_at desc, uuid) where ended_at is null;
comment on table app_public.amber_alerts is
  E'@behavior -*\nAMBER Alerts (level 10, national) and missing-child alerts (level 5, regional). Title, text, photo and link only while the alert runs; an ended alert keeps what and when.';
alter table app_public.amber_alerts enable row level security;
create policy select_all on app_public.amber_alerts for select to app_visitor, app_analyst using (true);
grant select on app_public.amber_alerts to app_visitor, app_analyst;

create function app_hidden.amber_alert_label(level integer, out kind text, out label text)
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case level when 10 then 'amber' else 'missing_child' end,
         case level when 10 then 'AMBER Alert' else 'Vermist Kind Alert' end
$$;

create type app_public.amber_alert as (
  uuid uuid, alert_id text, level integer, kind text, label text, active boolean, started_at app_public.unix_time,
  ended_at app_public.unix_time, title text, description text, description_ext text, image_url text, read_more_url text
);
comment on type app_public.amber_alert is
  'An AMBER Alert (level 10, national) or missing-child alert (level 5, regional). Title, text, photo and link are null once it has ended: they are erased.';
comment on column app_public.amber_alert.uuid is E'@notNull';
comment on column app_public.amber_alert.alert_id is E'@notNull\nThe alert''s id at the source.';
comment on column app_public.amber_alert.level is E'@notNull\n10: AMBER Alert (national); 5: missing-child alert (regional).';
comment on column app_public.amber_alert.kind is E'@notNull\namber or missing_child.';
comment on column app_public.amber_alert.label is E'@notNull';
comment on column app_public.amber_alert.active is E'@notNull\nTrue while the alert runs.';
comment on column app_public.amber_alert.started_at is E'@notNull';
comment on column app_public.amber_alert.description is 'The alert''s text (plain text).';
comment on column app_public.amber_alert.description_ext is 'The source''s short extra line (such as since when the child is missing).';

create type app_public.amber_alert_history as (
  uuid uuid, alert_id text, level integer, kind text, label text, active boolean, started_at app_public.unix_time,
  ended_at app_public.unix_time, duration_minutes integer
);
comment on type app_public.amber_alert_history is 'What alert ran and when: never a name, photo or last-seen text.';
comment on column app_public.amber_alert_history.uuid is E'@notNull';
comment on column app_public.amber_alert_history.alert_id is E'@notNull';
comment on column app_public.amber_alert_history.level is E'@notNull';
comment on column app_public.amber_alert_history.kind is E'@notNull';
comment on column app_public.amber_alert_history.label is E'@notNull';
comment on column app_public.amber_alert_history.active is E'@notNull';
comment on column app_public.amber_alert_history.started_at is E'@notNull';
comment on column app_public.amber_alert_history.duration_minutes is 'How long it ran; null while it runs.';

-- One document of the alert feed (its alerts as JSON, keys as parsed), which lists every alert
-- that runs: an Alert starts or updates its alert, a Cancel ends it, and an alert the document no
-- longer lists has ended too. Ending erases the personal details in the same statement.
create function app_private.ingest_amber_alerts(alerts jsonb, source text) returns jsonb
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  started integer;
  updated integer;
  ended integer;
begin
  perform pg_advisory_xact_lock(hashtext('amber_alerts'));
  drop table if exists pg_temp.incoming_amber;
  -- A Cancel outranks an Alert of the same id in one document.
  create temporary table pg_temp.incoming_amber on commit drop as
    select distinct on (a.alert_id) a.*
      from jsonb_to_recordset(alerts) as a (alert_id text, level integer, type text, sent timestamptz, title text,
             description text, description_ext text, image_url text, read_more_url text)
     order by a.alert_id, a.type = 'cancel' desc;

  with written as (
    insert into app_public.amber_alerts as t (alert_id, level, started_at, title, description, description_ext, image_url, read_more_url)
    select a.alert_id, a.level, coalesce(a.sent, now()), a.title, a.description, a.description_ext, a.image_url, a.read_more_url
      from pg_temp.incoming_amber a where a.type = 'alert'
    on conflict (alert_id) do update set
      level = excluded.level, started_at = excluded.started_at, ended_at = null, title = excluded.title,
      description = excluded.description, description_ext = excluded.description_ext, image_url = excluded.image_url,
      read_more_url = excluded.read_more_url, changed = now()
    where (t.level, t.started_at, t.ended_at, t.title, t.description, t.description_ext, t.image_url, t.read_more_url)
          is distinct from (excluded.level, excluded.started_at, null::timestamptz, excluded.title, excluded.description,
                            excluded.description_ext, excluded.image_url, excluded.read_more_url)
    returning (xmax = 0) as was_inserted
  )
  select count(*) filter (where was_inserted), count(*) filter (where not was_inserted) into started, updated from written;

  -- A Cancel of an alert never seen running still belongs in the history.
  insert into app_public.amber_alerts (alert_id, level, started_at, ended_at)
  select a.alert_id, a.level, coalesce(a.sent, now()), now() from pg_temp.incoming_amber a where a.type = 'cancel'
  on conflict (alert_id) do nothing;

  with gone as (
    update app_public.amber_alerts t set ended_at = now(), title = null, description = null, description_ext = null,
           image_url = null, read_more_url = null, changed = now()
     where t.ended_at is null
       and not exists (select 1 from pg_temp.incoming_amber a where a.alert_id = t.alert_id and a.type = 'alert')
    returning 1
  )
  select count(*) into ended from gone;

  return jsonb_build_object('alerts', jsonb_array_length(alerts), 'started', started, 'updated', updated, 'ended', ended,
    'source', left(source, 200));
end;
$$;

create function app_public.amber_alerts(first integer default null, page integer default null, active_only boolean default null)
  returns setof app_public.amber_alert
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select a.uuid, a.alert_id, a.level, l.kind, l.label, a.ended_at is null, app_hidden.to_unix_time(a.started_at),
         app_hidden.to_unix_time(a.ended_at), a.title, a.description, a.description_ext, a.image_url, a.read_more_url
    from app_public.amber_alerts a, app_hidden.amber_alert_label(a.level) l
   where not coalesce(active_only, false) or a.ended_at is null
   order by a.started_at desc, a.uuid
   limit app_hidden.page_limit(first, 100) offset app_hidden.page_offset(first, page, 100)
$$;
comment on function app_public.amber_alerts(integer, integer, boolean) is
  E'@notNull\nAMBER and missing-child alerts, newest first; activeOnly: only those that run.';

create function app_public.amber_alert_history(first integer default null, page integer default null,
    since app_public.unix_time default null, until app_public.unix_time default null, active_only boolean default null)
  returns setof app_public.amber_alert_history
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select a.uuid, a.alert_id, a.level, l.kind, l.label, a.ended_at is null, app_hidden.to_unix_time(a.started_at),
         app_hidden.to_unix_time(a.ended_at), (extract(epoch from a.ended_at - a.started_at) / 60)::integer
    from app_hidden.time_window(since, until) w, app_public.amber_alerts a, app_hidden.amber_alert_label(a.level) l
   where a.started_at between w.from_at and w.to_at
     and (not coalesce(active_only, false) or a.ended_at is null)
   order by a.started_at desc, a.uuid
   limit app_hidden.page_limit(first, 100) offset app_hidden.page_offset(first, page, 100)
$$;
comment on function app_public.amber_alert_history(integer, integer, app_public.unix_time, app_public.unix_time, boolean) is
  E'@notNull\nWhich alerts ran and when, newest first; since/until bound startedAt (inclusive). No name, photo or last-seen text.';

--------------------------------------------------------------------------------------------------
-- NL-Alerts

create table app_public.nl_alerts (
  uuid uuid primary key default uuidv7(),
  alert_id text not null unique check (length(alert_id) between 1 and 100),
  message text not null check (length(message) <= 10000),
  start_at timestamptz not null,
  stop_at timestamptz,
  -- The areas as the source writes them ("lat,lon lat,lon …") and as polygons (longitude, latitude).
  area_texts text[] not null default '{}',
  areas polygon[] not null default '{}',
  resource_uri text check (length(resource_uri) <= 2000),
  first_seen_at timestamptz not null default now(),
  changed timestamptz not null default now()
);
create index nl_alerts_start_idx on app_public.nl_alerts (start_at desc, uuid);
comment on table app_public.nl_alerts is E'@behavior -*\nNL-Alerts: the government''s public warnings by cell broadcast, with their areas.';
alter table app_public.nl_alerts enable row level security;
create policy select_all on app_public.nl_alerts for select to app_visitor, app_analyst using (true);
grant select on app_public.nl_alerts to app_visitor, app_analyst;

-- Which safety regions each alert's areas cover (partly): nlAlerts(regionNumber) reads this index.
create table app_public.nl_alert_regions (
  alert_uuid uuid not null references app_public.nl_alerts on delete cascade,
  region_number text not null references app_public.p2000_regions (number),
  start_at timestamptz not null,
  primary key (alert_uuid, region_number)
);
create index nl_alert_regions_region_idx on app_public.nl_alert_regions (region_number, start_at desc, alert_uuid);
comment on table app_public.nl_alert_regions is E'@behavior -*\nThe safety regions an NL-Alert''s areas cover, at least in part.';
alter table app_public.nl_alert_regions enable row level security;
create policy select_all on app_public.nl_alert_regions for select to app_visitor, app_analyst using (true);
grant select on app_public.nl_alert_regions to app_visitor, app_analyst;

-- The regions whose area overlaps any of the polygons (&& on polygons is an exact overlap test;
-- the GiST index finds the candidates by bounding box).
create function app_hidden.nl_alert_region_numbers(areas polygon[]) returns text[]
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(array_agg(distinct r.number order by r.number), '{}')
    from unnest(areas) a (area)
    join app_public.safety_region_areas s on s.area && a.area
    join app_public.p2000_regions r on r.uuid = s.region_uuid
$$;

-- Recomputes the regions of the given alerts (null: of every alert, after new region areas).
create function app_hidden.refresh_nl_alert_regions(alert_uuids uuid[]) returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  delete from app_public.nl_alert_regions ar where alert_uuids is null or ar.alert_uuid = any (alert_uuids);
  insert into app_public.nl_alert_regions (alert_uuid, region_number, start_at)
  select a.uuid, n.number, a.start_at
    from app_public.nl_alerts a, unnest(app_hidden.nl_alert_region_numbers(a.areas)) n (number)
   where alert_uuids is null or a.uuid = any (alert_uuids);
$$;

create function app_private.load_safety_region_areas(features jsonb, digest text) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  regions integer;
begin
  if exists (select 1 from app_hidden.geo_data_versions v where v.name = 'safety-regions' and v.digest = load_safety_region_areas.digest) then
    return 0;
  end if;
  delete from app_public.safety_region_areas;
  insert into app_public.safety_region_areas (region_uuid, part, area)
  select r.uuid, p.n, p.area
    from jsonb_array_elements(features) f
    join app_public.p2000_regions r on r.number = f->'properties'->>'number',
         unnest(app_hidden.geojson_polygons(f->'geometry')) with ordinality as p (area, n);
  select count(distinct region_uuid) into regions from app_public.safety_region_areas;
  if regions <> 25 then
    raise exception 'The safety-region file holds % of the 25 regions.', regions using errcode = 'XINPT';
  end if;
  perform app_hidden.refresh_nl_alert_regions(null);
  insert into app_hidden.geo_data_versions (name, digest) values ('safety-regions', digest)
  on conflict (name) do update set digest = excluded.digest, loaded_at = now();
  return regions;
end;
$$;

-- NL-Alert documents are pages of the source's list: alerts are inserted or updated (a withdrawn
-- alert gets its stop time), never ended for being absent.
create function app_private.ingest_nl_alerts(alerts jsonb, source text) returns jsonb
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  written_uuids uuid[];
  inserted integer;
begin
  perform pg_advisory_xact_lock(hashtext('nl_alerts'));
  with incoming as (
    select distinct on (a.alert_id) a.*
      from jsonb_to_recordset(alerts) as a (alert_id text, message text, start_at timestamptz, stop_at timestamptz,
             area_texts text[], areas polygon[], resource_uri text)
     order by a.alert_id
  ), written as (
    insert into app_public.nl_alerts as t (alert_id, message, start_at, stop_at, area_texts, areas, resource_uri)
    select i.alert_id, i.message, i.start_at, i.stop_at, i.area_texts, i.areas, i.resource_uri from incoming i
    on conflict (alert_id) do update set message = excluded.message, start_at = excluded.start_at, stop_at = excluded.stop_at,
      area_texts = excluded.area_texts, areas = excluded.areas, resource_uri = excluded.resource_uri, changed = now()
    where (t.message, t.start_at, t.stop_at, t.area_texts, t.resource_uri)
          is distinct from (excluded.message, excluded.start_at, excluded.stop_at, excluded.area_texts, excluded.resource_uri)
    returning t.uuid, (xmax = 0) as was_inserted
  )
  select array_agg(w.uuid), count(*) filter (where w.was_inserted) into written_uuids, inserted from written w;
  perform app_hidden.refresh_nl_alert_regions(coalesce(written_uuids, '{}'));
  return jsonb_build_object('alerts', jsonb_array_length(alerts), 'inserted', inserted,
    'updated', coalesce(cardinality(written_uuids), 0) - inserted, 'source', left(source, 200));
end;
$$;

create type app_public.nl_alert as (
  uuid uuid, alert_id text, message text, message_nl text, message_en text, active boolean, start_at app_public.unix_time,
  stop_at app_public.unix_time, areas text[], region_numbers text[], resource_uri text
);
comment on type app_public.nl_alert is 'An NL-Alert: the government''s public warning by cell broadcast to an area.';
comment on column app_public.nl_alert.uuid is E'@notNull';
comment on column app_public.nl_alert.alert_id is E'@notNull\nThe alert''s id at the source.';
comment on column app_public.nl_alert.message is E'@notNull\nThe whole text as broadcast (Dutch, then *** and English).';
comment on column app_public.nl_alert.message_nl is E'@notNull\nThe Dutch text.';
comment on column app_public.nl_alert.message_en is 'The English text, when the alert has one.';
comment on column app_public.nl_alert.active is E'@notNull\nNot withdrawn, and its stop time in the future or none.';
comment on column app_public.nl_alert.start_at is E'@notNull';
comment on column app_public.nl_alert.stop_at is 'When it stopped or stops (the source sets it when the alert is withdrawn).';
comment on column app_public.nl_alert.areas is E'@notNull\n@notNullItems\nThe broadcast areas, each as "lat,lon lat,lon …" (WGS84).';
comment on column app_public.nl_alert.region_numbers is E'@notNull\n@notNullItems\nThe P2000 safety regions the areas cover, at least in part.';

-- One alert as the API shows it.
create function app_hidden.nl_alert_of(a app_public.nl_alerts) returns app_public.nl_alert
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select a.uuid, a.alert_id, a.message,
         -- The source writes the Dutch text, then ***, then the English one (if any).
         btrim(split_part(a.message, '***', 1)),
         case when strpos(a.message, '***') > 0 then nullif(btrim(substr(a.message, strpos(a.message, '***') + 3)), '') end,
         a.stop_at is null or a.stop_at > now(), app_hidden.to_unix_time(a.start_at), app_hidden.to_unix_time(a.stop_at),
         a.area_texts, array(select ar.region_number from app_public.nl_alert_regions ar where ar.alert_uuid = a.uuid order by 1),
         a.resource_uri
$$;

create function app_public.nl_alerts(first integer default null, page integer default null, since app_public.unix_time default null,
    until app_public.unix_time default null, region_number text default null, active_only boolean default null)
  returns setof app_public.nl_alert
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  from_at timestamptz;
  to_at timestamptz;
  region text;
  page_size integer := app_hidden.page_limit(first, 100);
  skip integer := app_hidden.page_offset(first, page, 100);
  only_active boolean := coalesce(active_only, false);
begin
  select w.from_at, w.to_at into from_at, to_at from app_hidden.time_window(since, until) w;
  if region_number is not null then
    select r.number into region from app_public.p2000_regions r
     where r.number = lpad(btrim(region_number), 2, '0') or r.code = upper(btrim(region_number));
    if region is null then
      raise exception 'Unknown region number "%": give a safety-region number from 01 to 25.', left(region_number, 20)
        using errcode = 'XINPT';
    end if;
    -- The region's index gives its alerts in order.
    return query
      select o.* from (
        select a, a.start_at, a.uuid from app_public.nl_alert_regions ar join app_public.nl_alerts a on a.uuid = ar.alert_uuid
         where ar.region_number = region and ar.start_at between from_at and to_at
           and (not only_active or a.stop_at is null or a.stop_at > now())
         order by ar.start_at desc, ar.alert_uuid limit page_size offset skip
      ) picked (a, start_at, uuid), app_hidden.nl_alert_of(picked.a) o
      order by picked.start_at desc, picked.uuid;
  else
    return query
      select o.* from (
        select a, a.start_at, a.uuid from app_public.nl_alerts a
         where a.start_at between from_at and to_at and (not only_active or a.stop_at is null or a.stop_at > now())
         order by a.start_at desc, a.uuid limit page_size offset skip
      ) picked (a, start_at, uuid), app_hidden.nl_alert_of(picked.a) o
      order by picked.start_at desc, picked.uuid;
  end if;
end;
$$;
comment on function app_public.nl_alerts(integer, integer, app_public.unix_time, app_public.unix_time, text, boolean) is
  E'@notNull\nNL-Alerts, newest first: since/until bound startAt (inclusive), regionNumber the P2000 safety region their areas cover, activeOnly only those not withdrawn or stopped.';

--------------------------------------------------------------------------------------------------
-- Provinces

create function app_public.nl_provinces() returns setof app_public.nl_provinces
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select p.* from app_public.nl_provinces p order by p.sort_order
$$;
comment on function app_public.nl_provinces() is E'@notNull\nThe twelve provinces.';

create function app_public.nl_provinces_geo_json() returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case when count(p.boundary) = 12 then jsonb_build_object('type', 'FeatureCollection', 'features', jsonb_agg(
           jsonb_build_object('type', 'Feature', 'id', p.code, 'geometry', p.boundary,
             'properties', jsonb_build_object('code', p.code, 'isoCode', p.iso_code, 'name', p.name)) order by p.sort_order))::text end
    from app_public.nl_provinces p
$$;
comment on function app_public.nl_provinces_geo_json() is
  'The twelve provinces as a GeoJSON FeatureCollection (WGS84; properties code, isoCode, name); null until the boundaries are loaded.';
