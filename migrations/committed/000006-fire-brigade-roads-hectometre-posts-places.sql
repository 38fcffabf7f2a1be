--! Previous: sha1:257b7b0b905b6e2530d3a2b6944e36f353a2e0dd
--! Hash: sha1:889836b645cda1bb3fd15fafe4996d452a4a04d5
--! Message: Fire brigade, roads, hectometre posts and places

-- Fire brigade, roads, hectometre posts and places (issue #6). Re-runnable while it is current.sql.
drop table if exists app_public.fire_vehicles, app_public.fire_stations, app_public.fire_vehicle_types, app_public.road_prefixes,
  app_public.hectometer_markers, app_public.roads, app_public.postcodes cascade;
drop type if exists app_public.parse_hectometer_search_result cascade;
drop type if exists app_public.fire_station_filter, app_public.fire_vehicle_filter, app_public.road_ref,
  app_public.road_filter, app_public.hectometer_marker_ref, app_public.hectometer_marker_filter,
  app_public.parse_hectometer_search_result, app_public.city,
  app_public.location_suggestion cascade;
drop function if exists app_public.roads_grouped_by_prefix() cascade;
drop type if exists app_public.roads_grouped_by_prefix cascade;
drop function if exists app_hidden.tg_p2000_messages__learn_vehicles() cascade;
drop function if exists app_hidden.tg_fire_stations__link_vehicles() cascade;
drop function if exists app_private.upsert_fire_station(text, text, text, text, text, text, text, text, double precision, double precision) cascade;
drop function if exists app_private.upsert_fire_vehicle(text, text, text, text) cascade;
drop function if exists app_private.learn_fire_vehicles(text[], timestamptz) cascade;
drop function if exists app_private.upsert_hectometer_markers(jsonb) cascade;
drop function if exists app_private.recount_road_markers() cascade;
drop function if exists app_private.upsert_postcodes(jsonb) cascade;
drop function if exists app_hidden.fire_call_number(text) cascade;
drop function if exists app_hidden.fire_stations_matching(app_public.fire_station_filter) cascade;
drop function if exists app_hidden.fire_vehicles_matching(app_public.fire_vehicle_filter) cascade;
drop function if exists app_hidden.region_by_key(text) cascade;
drop function if exists app_hidden.unit_sphere(double precision, double precision) cascade;
drop function if exists app_hidden.road_name(text) cascade;
drop function if exists app_hidden.find_road(app_public.road_ref) cascade;
drop function if exists app_hidden.require_search(text, integer) cascade;
drop index if exists app_public.places_name_trgm_idx;
drop index if exists app_hidden.place_names_name_pattern_idx;

--! split: 0100-fire-brigade.sql
-- The type digit of a fire call number (RR-PPTV): research/reference-data.md.
create table app_public.fire_vehicle_types (
  digit text primary key check (digit ~ '^[0-9]$'),
  code text not null,
  name text not null
);
comment on table app_public.fire_vehicle_types is 'Vehicle kind by the type digit of a fire call number (RR-PPTV, T = type).';
alter table app_public.fire_vehicle_types enable row level security;
create policy select_all on app_public.fire_vehicle_types for select to app_visitor, app_analyst using (true);
grant select on app_public.fire_vehicle_types to app_visitor, app_analyst;
insert into app_public.fire_vehicle_types (digit, code, name) values
  ('1', 'BV', 'Vaartuig'), ('2', 'MP', 'Personeel- en materieelvoertuig'), ('3', 'TS', 'Tankautospuit'),
  ('4', 'TS', 'Tankautospuit (tweede)'), ('5', 'AL/HW', 'Redvoertuig (autoladder of hoogwerker)'),
  ('6', 'SV', 'Specialistisch voertuig'), ('7', 'HV', 'Hulpverleningsvoertuig'), ('8', 'HA', 'Haakarmvoertuig'),
  ('9', 'OvD', 'Officiers- of specialistenvoertuig'), ('0', 'DA', 'Dienstauto');

create table app_public.fire_stations (
  uuid uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name text not null check (length(btrim(name)) between 1 and 200),
  region_uuid uuid references app_public.p2000_regions,
  -- The PP of RR-PPTV: vehicles with this region and post belong here.
  post_number text check (post_number ~ '^[0-9]{2}$'),
  street text,
  house_number text,
  zip_code text check (zip_code ~ '^[1-9][0-9]{3}[A-Z]{2}$'),
  city text,
  latitude double precision check (latitude between -90 and 90),
  longitude double precision check (longitude between -180 and 180),
  created timestamptz not null default now(),
  changed timestamptz not null default now(),
  unique (region_uuid, post_number)
);
comment on table app_public.fire_stations is E'@name FireStationListItem\nA fire station (kazerne, "post"), from an imported list.';
comment on column app_public.fire_stations.post_number is 'Post number within the region (the PP of call numbers RR-PPTV).';
comment on constraint fire_stations_region_uuid_fkey on app_public.fire_stations is E'@fieldName region\n@backwardBehavior -*';
create index fire_stations_name_trgm_idx on app_public.fire_stations using gin (lower(name) gin_trgm_ops);
create trigger _100_set_changed before update on app_public.fire_stations
  for each row execute function app_hidden.tg__set_changed();
alter table app_public.fire_stations enable row level security;
create policy select_all on app_public.fire_stations for select to app_visitor, app_analyst using (true);
grant select on app_public.fire_stations to app_visitor, app_analyst;

create table app_public.fire_vehicles (
  uuid uuid primary key default gen_random_uuid(),
  name text not null unique check (name ~ '^[0-9]{6}$'),
  region_uuid uuid references app_public.p2000_regions,
  station_uuid uuid references app_public.fire_stations on delete set null,
  type_digit text references app_public.fire_vehicle_types,
  material_function text,
  status text not null default 'active' check (status in ('active', 'reserve', 'out_of_service', 'retired')),
  -- imported (from a list) or learnt (seen in P2000 traffic first).
  source text not null default 'learnt' check (source in ('imported', 'learnt')),
  first_seen timestamptz,
  last_seen timestamptz,
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.fire_vehicles is E'A fire brigade vehicle by its call number (RR-PPTV); imported or learnt from P2000 traffic.';
comment on column app_public.fire_vehicles.name is 'The call number without hyphen (173151).';
comment on column app_public.fire_vehicles.material_function is 'What the vehicle is equipped for (from an imported list).';
comment on column app_public.fire_vehicles.status is 'active, reserve, out_of_service or retired.';
comment on column app_public.fire_vehicles.first_seen is 'First P2000 message that called it out.';
comment on column app_public.fire_vehicles.last_seen is 'Latest P2000 message that called it out.';
comment on column app_public.fire_vehicles.station_uuid is '@behavior -*';
comment on column app_public.fire_vehicles.type_digit is '@behavior -*';
comment on column app_public.fire_vehicles.source is 'imported (from a list) or learnt (first seen in P2000 traffic).';
comment on constraint fire_vehicles_region_uuid_fkey on app_public.fire_vehicles is E'@fieldName region\n@backwardBehavior -*';
comment on constraint fire_vehicles_station_uuid_fkey on app_public.fire_vehicles is E'@fieldName stationDetail\n@foreignFieldName vehicles';
comment on constraint fire_vehicles_type_digit_fkey on app_public.fire_vehicles is '@behavior -*';
create index fire_vehicles_station_uuid_idx on app_public.fire_vehicles (station_uuid);
create index fire_vehicles_region_uuid_idx on app_public.fire_vehicles (region_uuid, name);
create trigger _100_set_changed before update on app_public.fire_vehicles
  for each row execute function app_hidden.tg__set_changed();
alter table app_public.fire_vehicles enable row level security;
create policy select_all on app_public.fire_vehicles for select to app_visitor, app_analyst using (true);
grant select on app_public.fire_vehicles to app_visitor, app_analyst;

-- Computed fields of the spec's FireVehicle.
create function app_public.fire_vehicles_name_format(v app_public.fire_vehicles) returns text
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select left(v.name, 2) || '-' || right(v.name, 4)
$$;
comment on function app_public.fire_vehicles_name_format(app_public.fire_vehicles) is E'@notNull\nThe call number with hyphen (17-3151).';

create function app_public.fire_vehicles_number(v app_public.fire_vehicles) returns text
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select right(v.name, 4)
$$;
comment on function app_public.fire_vehicles_number(app_public.fire_vehicles) is E'@notNull\nThe number within the region: post, type digit and sequence (3151 of 17-3151).';

create function app_public.fire_vehicles_station(v app_public.fire_vehicles) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select s.name from app_public.fire_stations s where s.uuid = v.station_uuid
$$;
comment on function app_public.fire_vehicles_station(app_public.fire_vehicles) is 'The name of the station it belongs to (by its post number), if known.';

create function app_public.fire_vehicles_type(v app_public.fire_vehicles) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select t.code from app_public.fire_vehicle_types t where t.digit = v.type_digit
$$;
comment on function app_public.fire_vehicles_type(app_public.fire_vehicles) is 'Vehicle kind code from the type digit (TS, HV, AL/HW, ...).';

create function app_public.fire_vehicles_type_name(v app_public.fire_vehicles) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select t.name from app_public.fire_vehicle_types t where t.digit = v.type_digit
$$;
comment on function app_public.fire_vehicles_type_name(app_public.fire_vehicles) is 'Vehicle kind in words (Tankautospuit, ...).';

-- "17-3151", "173151", " 17 3151 " → "173151"; null unless six digits with a region 01-25.
create function app_hidden.fire_call_number(value text) returns text
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case when x ~ '^(0[1-9]|1[0-9]|2[0-5])[0-9]{4}$' then x end
    from (select regexp_replace(coalesce(value, ''), '[\s-]', '', 'g') as x) s
$$;

-- A region by uuid, number (17, "7" → "07") or slug.
create function app_hidden.region_by_key(key text) returns uuid
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select g.uuid from app_public.p2000_regions g
   where g.uuid = app_hidden.try_uuid(key) or g.number = lpad(btrim(key), 2, '0') or g.slug = lower(btrim(key))
   limit 1
$$;

-- Call numbers seen in traffic register their vehicles: region, post and type from the number,
-- the station when one with that post is known. Called by the statement trigger below.
create function app_private.learn_fire_vehicles(call_numbers text[], seen timestamptz) returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  insert into app_public.fire_vehicles as v (name, region_uuid, station_uuid, type_digit, first_seen, last_seen)
  select c, g.uuid, s.uuid, substr(c, 5, 1), seen, seen
    from (select distinct c from unnest(call_numbers) c where app_hidden.fire_call_number(c) = c) n (c)
    left join app_public.p2000_regions g on g.number = left(c, 2)
    left join app_public.fire_stations s on s.region_uuid = g.uuid and s.post_number = substr(c, 3, 2)
  order by c
  on conflict (name) do update
    set first_seen = least(v.first_seen, excluded.first_seen),
        last_seen = greatest(v.last_seen, excluded.last_seen),
        station_uuid = coalesce(v.station_uuid, excluded.station_uuid)
    where v.last_seen is null or v.last_seen < excluded.last_seen or v.first_seen > excluded.first_seen
$$;

create function app_hidden.tg_p2000_messages__learn_vehicles() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  numbers text[];
  latest timestamptz;
begin
  select array_agg(c), max(n.sended) into numbers, latest
    from new_messages n, unnest(n.call_numbers) c where cardinality(n.call_numbers) > 0;
  if numbers is not null then
    perform app_private.learn_fire_vehicles(numbers, latest);
  end if;
  return null;
end;
$$;
create trigger _700_learn_vehicles after insert on app_public.p2000_messages
  referencing new table as new_messages
  for each statement execute function app_hidden.tg_p2000_messages__learn_vehicles();

-- A station imported after its vehicles were learnt adopts them.
create function app_hidden.tg_fire_stations__link_vehicles() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if new.post_number is not null and new.region_uuid is not null then
    update app_public.fire_vehicles v set station_uuid = new.uuid
     where v.region_uuid = new.region_uuid and substr(v.name, 3, 2) = new.post_number and v.station_uuid is null;
  end if;
  return null;
end;
$$;
create trigger _500_link_vehicles after insert or update of post_number, region_uuid on app_public.fire_stations
  for each row execute function app_hidden.tg_fire_stations__link_vehicles();

-- Importer steps (bin/import-fire-brigade.ts). Upsert by slug / call number.
create function app_private.upsert_fire_station(slug text, name text, region text, post_number text, street text,
  house_number text, zip_code text, city text, latitude double precision, longitude double precision) returns uuid
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  result uuid;
begin
  insert into app_public.fire_stations as s (slug, name, region_uuid, post_number, street, house_number, zip_code, city, latitude, longitude)
  values (lower(btrim(slug)), btrim(name), app_hidden.region_by_key(region), nullif(lpad(btrim(post_number), 2, '0'), '00'),
          nullif(btrim(street), ''), nullif(btrim(house_number), ''), nullif(upper(replace(zip_code, ' ', '')), ''), nullif(btrim(city), ''),
          latitude, longitude)
  on conflict on constraint fire_stations_slug_key do update
    set name = excluded.name, region_uuid = excluded.region_uuid, post_number = excluded.post_number, street = excluded.street,
        house_number = excluded.house_number, zip_code = excluded.zip_code, city = excluded.city,
        latitude = excluded.latitude, longitude = excluded.longitude
  returning s.uuid into result;
  return result;
end;
$$;

create function app_private.upsert_fire_vehicle(call_number text, station_slug text, material_function text, status text)
  returns uuid
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  call text := app_hidden.fire_call_number(call_number);
  result uuid;
begin
  if call is null then
    raise exception 'Not a fire call number (RR-PPTV, region 01-25): %', call_number using errcode = 'XINPT';
  end if;
  insert into app_public.fire_vehicles as v (name, region_uuid, station_uuid, type_digit, material_function, status, source)
  values (call, (select g.uuid from app_public.p2000_regions g where g.number = left(call, 2)),
          coalesce((select s.uuid from app_public.fire_stations s where s.slug = lower(btrim(station_slug))),
                   (select s.uuid from app_public.fire_stations s join app_public.p2000_regions g on g.uuid = s.region_uuid
                     where g.number = left(call, 2) and s.post_number = substr(call, 3, 2))),
          substr(call, 5, 1), nullif(btrim(material_function), ''), coalesce(nullif(lower(btrim(status)), ''), 'active'), 'imported')
  on conflict (name) do update
    set station_uuid = coalesce(excluded.station_uuid, v.station_uuid), material_function = coalesce(excluded.material_function, v.material_function),
        status = excluded.status, source = 'imported'
  returning v.uuid into result;
  return result;
end;
$$;

create type app_public.fire_station_filter as (search text, region text);
comment on type app_public.fire_station_filter is E'Fire stations by name, city or slug (search) and region (number, slug or uuid).';
create type app_public.fire_vehicle_filter as (search text, region text, station text);
comment on type app_public.fire_vehicle_filter is E'Fire vehicles by call number, station or function (search), region, and station (slug, name or uuid).';

create function app_public.fire_station(slug text) returns app_public.fire_stations
  language sql stable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select s.* from app_public.fire_stations s
   where s.slug = lower(btrim(fire_station.slug)) or s.uuid = app_hidden.try_uuid(fire_station.slug)
      or lower(s.name) = lower(btrim(fire_station.slug))
   order by s.slug = lower(btrim(fire_station.slug)) desc, s.name
   limit 1
$$;
comment on function app_public.fire_station(text) is 'One fire station by slug, name or uuid; null when there is none.';

-- The stations a filter selects: fireStations orders and pages them, fireStationsCount counts them.
-- (No SET clause, so the callers inline it; every name in it is schema-qualified.)
create function app_hidden.fire_stations_matching(filter app_public.fire_station_filter) returns setof app_public.fire_stations
  language sql stable parallel safe
as $$
  select s.* from app_public.fire_stations s
   where ((filter).search is null or lower(s.name) like app_hidden.search_pattern((filter).search)
          or lower(s.city) like app_hidden.search_pattern((filter).search) or s.slug like app_hidden.search_pattern((filter).search))
     and ((filter).region is null or s.region_uuid = app_hidden.region_by_key((filter).region))
$$;

create function app_public.fire_stations(first integer default null, page integer default null,
  filter app_public.fire_station_filter default null) returns setof app_public.fire_stations
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select s.* from app_hidden.fire_stations_matching(filter) s
   order by s.name, s.uuid
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$$;
comment on function app_public.fire_stations(integer, integer, app_public.fire_station_filter) is 'Fire stations by name.';

create function app_public.fire_stations_count(filter app_public.fire_station_filter default null) returns integer
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select count(*)::integer from app_hidden.fire_stations_matching(filter)
$$;
comment on function app_public.fire_stations_count(app_public.fire_station_filter) is E'@notNull\nHow many fire stations fireStations would list with this filter.';

create function app_public.fire_vehicle(number text) returns app_public.fire_vehicles
  language sql stable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select v.* from app_public.fire_vehicles v where v.name = app_hidden.fire_call_number(fire_vehicle.number)
$$;
comment on function app_public.fire_vehicle(text) is 'One fire vehicle by call number, with or without hyphen (17-3151 or 173151).';

-- The vehicles a filter selects, for fireVehicles and fireVehiclesCount (inlined, as above).
create function app_hidden.fire_vehicles_matching(filter app_public.fire_vehicle_filter) returns setof app_public.fire_vehicles
  language sql stable parallel safe
as $$
  select v.* from app_public.fire_vehicles v
   where ((filter).search is null or v.name like app_hidden.search_pattern(regexp_replace((filter).search, '[\s-]', '', 'g'))
          or lower(v.material_function) like app_hidden.search_pattern((filter).search)
          or exists (select 1 from app_public.fire_stations s where s.uuid = v.station_uuid and lower(s.name) like app_hidden.search_pattern((filter).search)))
     and ((filter).region is null or v.region_uuid = app_hidden.region_by_key((filter).region))
     and ((filter).station is null or v.station_uuid = (select s.uuid from app_public.fire_station((filter).station) s))
$$;

create function app_public.fire_vehicles(first integer default null, page integer default null,
  filter app_public.fire_vehicle_filter default null) returns setof app_public.fire_vehicles
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select v.* from app_hidden.fire_vehicles_matching(filter) v
   order by v.name
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$$;
comment on function app_public.fire_vehicles(integer, integer, app_public.fire_vehicle_filter) is 'Fire vehicles by call number.';

create function app_public.fire_vehicles_count(filter app_public.fire_vehicle_filter default null) returns integer
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select count(*)::integer from app_hidden.fire_vehicles_matching(filter)
$$;
comment on function app_public.fire_vehicles_count(app_public.fire_vehicle_filter) is E'@notNull\nHow many fire vehicles fireVehicles would list with this filter.';

-- Vehicles already in stored traffic register now.
select app_private.learn_fire_vehicles(array_agg(c), max(m.sended))
  from app_public.p2000_messages m, unnest(m.call_numbers) c where cardinality(m.call_numbers) > 0;

--! split: 0200-roads-and-hectometre-posts.sql
-- A point on the unit sphere: GiST on cube orders by chord length, which orders like distance.
create function app_hidden.unit_sphere(latitude double precision, longitude double precision) returns cube
  language sql immutable strict parallel safe
as $$
  select public.cube(array[cos(radians(latitude)) * cos(radians(longitude)), cos(radians(latitude)) * sin(radians(longitude)), sin(radians(latitude))])
$$;

-- "a12", "A 12", "A012" → "A12"; null when it is not a road name.
create function app_hidden.road_name(value text) returns text
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select upper(m[1]) || ltrim(m[2], '0') from regexp_match(btrim(coalesce(value, '')), '^([ANSRE])\s*0*([0-9]{1,3})$', 'i') m
   where ltrim(m[2], '0') <> ''
$$;

create table app_public.roads (
  uuid uuid primary key default gen_random_uuid(),
  name text not null unique check (name ~ '^[ANSRE][1-9][0-9]{0,2}$'),
  prefix text not null generated always as (left(name, 1)) stored,
  number integer not null generated always as (substr(name, 2)::integer) stored,
  marker_count integer not null default 0,
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.roads is 'A numbered road: A (motorway), N, S (city ring) or R (ring) roads, E routes.';
comment on column app_public.roads.marker_count is 'Hectometre posts imported for it.';
create index roads_prefix_number_idx on app_public.roads (prefix, number);
create trigger _100_set_changed before update on app_public.roads
  for each row execute function app_hidden.tg__set_changed();
alter table app_public.roads enable row level security;
create policy select_all on app_public.roads for select to app_visitor, app_analyst using (true);
grant select on app_public.roads to app_visitor, app_analyst;

create table app_public.hectometer_markers (
  uuid uuid primary key default gen_random_uuid(),
  road_uuid uuid not null references app_public.roads on delete cascade,
  hectometer double precision not null,
  -- Li / Re carriageway, null for one-way or both.
  side text check (side in ('Li', 'Re')),
  letter text,
  latitude double precision not null check (latitude between -90 and 90),
  longitude double precision not null check (longitude between -180 and 180),
  -- NWB objectid, so a re-import updates instead of duplicating.
  source_id bigint unique,
  created timestamptz not null default now()
);
comment on table app_public.hectometer_markers is E'A hectometre post (hectopunt) of the national road database (NWB).';
comment on column app_public.hectometer_markers.hectometer is 'Kilometre value (45.6 for hectometre 456).';
comment on column app_public.hectometer_markers.side is 'Li or Re carriageway; null when the post is not tied to one.';
comment on column app_public.hectometer_markers.letter is 'NWB hecto letter for parallel carriageways and ramps (a, b, ...), if any.';
comment on column app_public.hectometer_markers.source_id is '@behavior -*';
comment on column app_public.hectometer_markers.road_uuid is '@behavior -*';
comment on constraint hectometer_markers_road_uuid_fkey on app_public.hectometer_markers is E'@fieldName road\n@backwardBehavior -*';
create index hectometer_markers_road_hectometer_idx on app_public.hectometer_markers (road_uuid, hectometer, side);
create index hectometer_markers_position_idx on app_public.hectometer_markers using gist (app_hidden.unit_sphere(latitude, longitude));
alter table app_public.hectometer_markers enable row level security;
create policy select_all on app_public.hectometer_markers for select to app_visitor, app_analyst using (true);
grant select on app_public.hectometer_markers to app_visitor, app_analyst;

-- Set by hectometerMarkersNearest (the distance from the asked point); null elsewhere.
alter table app_public.hectometer_markers add column distance_km double precision generated always as (null::double precision) stored;
comment on column app_public.hectometer_markers.distance_km is E'@exactName distance_km\nKilometres from the point hectometerMarkersNearest was asked for (null elsewhere).';

-- Importer step (bin/import-hectometers.ts): a batch of posts as a JSON array of
-- { source_id, road, hectometer, side, letter, latitude, longitude }.
create function app_private.upsert_hectometer_markers(batch jsonb) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  stored integer;
begin
  insert into app_public.roads (name)
  select distinct app_hidden.road_name(x->>'road') from jsonb_array_elements(batch) x where app_hidden.road_name(x->>'road') is not null
  order by 1
  on conflict (name) do nothing;
  insert into app_public.hectometer_markers as h (road_uuid, hectometer, side, letter, latitude, longitude, source_id)
  select r.uuid, (x->>'hectometer')::double precision, nullif(x->>'side', ''), nullif(x->>'letter', ''),
         (x->>'latitude')::double precision, (x->>'longitude')::double precision, (x->>'source_id')::bigint
    from jsonb_array_elements(batch) x join app_public.roads r on r.name = app_hidden.road_name(x->>'road')
  on conflict (source_id) do update
    set road_uuid = excluded.road_uuid, hectometer = excluded.hectometer, side = excluded.side, letter = excluded.letter,
        latitude = excluded.latitude, longitude = excluded.longitude;
  get diagnostics stored = row_count;
  return stored;
end;
$$;

create function app_private.recount_road_markers() returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  update app_public.roads r set marker_count = c.n
    from (select r2.uuid, count(h.uuid)::integer as n from app_public.roads r2
            left join app_public.hectometer_markers h on h.road_uuid = r2.uuid group by r2.uuid) c
   where c.uuid = r.uuid and r.marker_count <> c.n
$$;

create type app_public.road_ref as (uuid text, name text);
comment on type app_public.road_ref is E'A road by uuid or by name (A12, a 12).';
create type app_public.road_filter as (search text, prefix text, with_marker_count boolean);
comment on type app_public.road_filter is E'Roads by name (search, prefix A/N/S/R/E) and whether hectometre posts are known (withMarkerCount: true = only roads with posts, false = only without).';
create type app_public.hectometer_marker_ref as (uuid text);
comment on type app_public.hectometer_marker_ref is E'A hectometre post by uuid.';
create type app_public.hectometer_marker_filter as (road app_public.road_ref, hectometer double precision, side text);
comment on type app_public.hectometer_marker_filter is E'Posts of a road, at a kilometre value (within 50 m), on a side (Li/Re).';

create function app_hidden.find_road(ref app_public.road_ref) returns uuid
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select r.uuid from app_public.roads r
   where r.uuid = app_hidden.try_uuid((ref).uuid) or r.name = app_hidden.road_name((ref).name)
   limit 1
$$;

create function app_public.road(road app_public.road_ref) returns app_public.roads
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select r.* from app_public.roads r where r.uuid = app_hidden.find_road(road.road)
$$;
comment on function app_public.road(app_public.road_ref) is 'One road by uuid or name; null when there is none.';

create function app_public.roads(first integer default null, page integer default null,
  filter app_public.road_filter default null) returns setof app_public.roads
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select r.* from app_public.roads r
   where ((filter).search is null or r.name like upper(regexp_replace((filter).search, '\s', '', 'g')) || '%')
     and ((filter).prefix is null or r.prefix = upper(btrim((filter).prefix)))
     and ((filter).with_marker_count is null or (r.marker_count > 0) = (filter).with_marker_count)
   order by r.prefix, r.number
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$$;
comment on function app_public.roads(integer, integer, app_public.road_filter) is 'Roads by prefix, then number (A1, A2, ..., N1, ...).';

-- The road prefixes, each with its roads (a table, so `roads` is an ordered computed list).
create table app_public.road_prefixes (
  prefix text primary key check (prefix ~ '^[ANSRE]$'),
  position integer not null unique,
  description text not null
);
comment on table app_public.road_prefixes is E'@name RoadsGroupedByPrefix\nThe roads of one prefix: A (motorways), N, S, R, E.';
comment on column app_public.road_prefixes.position is '@behavior -*';
alter table app_public.road_prefixes enable row level security;
create policy select_all on app_public.road_prefixes for select to app_visitor, app_analyst using (true);
grant select on app_public.road_prefixes to app_visitor, app_analyst;
insert into app_public.road_prefixes (prefix, position, description) values
  ('A', 1, 'Autosnelwegen (motorways)'), ('N', 2, 'Niet-autosnelwegen (national and provincial roads)'),
  ('S', 3, 'Stadsroutes (city routes)'), ('R', 4, 'Ringwegen (ring roads)'), ('E', 5, 'Europese wegen (E routes)');

create function app_public.road_prefixes_roads(p app_public.road_prefixes) returns setof app_public.roads
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select r.* from app_public.roads r where r.prefix = p.prefix order by r.number
$$;
comment on function app_public.road_prefixes_roads(app_public.road_prefixes) is 'Its roads by number.';

create function app_public.road_prefixes_road_count(p app_public.road_prefixes) returns integer
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select count(*)::integer from app_public.roads r where r.prefix = p.prefix
$$;
comment on function app_public.road_prefixes_road_count(app_public.road_prefixes) is E'@notNull\nHow many roads it has.';

create function app_public.roads_grouped_by_prefix() returns setof app_public.road_prefixes
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select p.* from app_public.road_prefixes p order by p.position
$$;
comment on function app_public.roads_grouped_by_prefix() is 'Every road, grouped by prefix: A, N, S, R, E (empty groups included).';

create function app_public.search_roads(search text, first integer default null) returns setof app_public.roads
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  term text := upper(regexp_replace(coalesce(search, ''), '\s', '', 'g'));
begin
  if length(term) < 1 then
    raise exception 'search needs at least 1 character.' using errcode = 'XINPT';
  end if;
  -- "12" finds A12, N12 ...; "A1" finds A1, A10-A19, A100 ...: exact first, then by number.
  return query
    select r.* from app_public.roads r
     where r.name like term || '%' or (term ~ '^[0-9]+$' and r.number::text like term || '%')
     order by r.name = term desc, r.number::text = ltrim(term, 'ANSRE') desc, r.prefix, r.number
     limit app_hidden.page_limit(first, 50, 10);
end;
$$;
comment on function app_public.search_roads(text, integer) is 'Roads whose name starts with the search ("a1", "12"); first 1-50, default 10.';

create function app_public.available_hectometers(road app_public.road_ref) returns double precision[]
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(array_agg(distinct h.hectometer order by h.hectometer), '{}')
    from app_public.hectometer_markers h where h.road_uuid = app_hidden.find_road(available_hectometers.road)
$$;
comment on function app_public.available_hectometers(app_public.road_ref) is E'@notNull\nThe kilometre values with a post on the road, ascending (empty for an unknown road).';

create function app_public.hectometer_marker(marker app_public.hectometer_marker_ref) returns app_public.hectometer_markers
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select h.* from app_public.hectometer_markers h where h.uuid = app_hidden.try_uuid((marker).uuid)
$$;
comment on function app_public.hectometer_marker(app_public.hectometer_marker_ref) is 'One hectometre post by uuid; null when there is none.';

create function app_public.hectometer_markers(first integer default null, page integer default null,
  filter app_public.hectometer_marker_filter default null) returns setof app_public.hectometer_markers
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  target_road uuid := app_hidden.find_road((filter).road);
  wanted_side text := case lower(btrim((filter).side)) when 'li' then 'Li' when 'l' then 'Li' when 're' then 'Re' when 'r' then 'Re' end;
begin
  if (filter).side is not null and wanted_side is null then
    raise exception 'side must be Li or Re.' using errcode = 'XINPT';
  end if;
  if (((filter).road).uuid is not null or ((filter).road).name is not null) and target_road is null then
    return;
  end if;
  return query
    select h.* from app_public.hectometer_markers h
     where (target_road is null or h.road_uuid = target_road)
       and ((filter).hectometer is null or h.hectometer between (filter).hectometer - 0.05 and (filter).hectometer + 0.05)
       and (wanted_side is null or h.side = wanted_side)
     order by h.road_uuid, h.hectometer, h.side nulls first, h.letter nulls first, h.uuid
     limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page);
end;
$$;
comment on function app_public.hectometer_markers(integer, integer, app_public.hectometer_marker_filter) is 'Hectometre posts by road and kilometre value.';

create function app_public.hectometer_markers_nearest(lat double precision, lon double precision, "limit" integer default 10)
  returns setof app_public.hectometer_markers
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if lat is null or lon is null or lat not between -90 and 90 or lon not between -180 and 180 then
    raise exception 'lat must be -90..90 and lon -180..180.' using errcode = 'XINPT';
  end if;
  if "limit" is not null and "limit" not between 1 and 50 then
    raise exception 'limit must be 1 to 50.' using errcode = 'XINPT';
  end if;
  -- Nearest by the GiST index (KNN on the unit-sphere position), then the exact distance.
  return query
    select h.uuid, h.road_uuid, h.hectometer, h.side, h.letter, h.latitude, h.longitude, h.source_id, h.created,
           app_hidden.distance_km(lat, lon, h.latitude, h.longitude)
      from app_public.hectometer_markers h
     order by app_hidden.unit_sphere(h.latitude, h.longitude) <-> app_hidden.unit_sphere(lat, lon)
     limit coalesce("limit", 10);
end;
$$;
comment on function app_public.hectometer_markers_nearest(double precision, double precision, integer) is 'The hectometre posts nearest to a point, nearest first, with distance_km; limit 1-50, default 10.';

create type app_public.parse_hectometer_search_result as (
  road text,
  hectometer double precision,
  side text,
  marker app_public.hectometer_markers
);
comment on type app_public.parse_hectometer_search_result is 'A hectometre search understood: road, kilometre value, side, and the post that matches best.';
comment on column app_public.parse_hectometer_search_result.marker is 'The post of that road nearest to the kilometre value (the same side preferred); null when none is known.';

-- "A12 Re 45,6", "a2 li 223.5", "N59 42,3", "A4 HRL 31.2", "a 12 km 45.6 re": road, km, side.
create function app_public.parse_hectometer_search(search text) returns app_public.parse_hectometer_search_result
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  t text := btrim(regexp_replace(coalesce(search, ''), '\s+', ' ', 'g'));
  m text[];
  r app_public.parse_hectometer_search_result;
  target_road uuid;
begin
  if length(t) > 200 then
    raise exception 'search has at most 200 characters.' using errcode = 'XINPT';
  end if;
  m := regexp_match(t, '\m([ANSRE])\s?0*([1-9][0-9]{0,2})\M', 'i');
  if m is null then
    return null;
  end if;
  r.road := upper(m[1]) || m[2];
  m := regexp_match(t, '\m(li|links|l|hrl|re|rechts|r|hrr)\M', 'i');
  r.side := case when m is null then null when lower(m[1]) in ('li', 'links', 'l', 'hrl') then 'Li' else 'Re' end;
  m := regexp_match(regexp_replace(t, '\m[ANSRE]\s?0*[1-9][0-9]{0,2}\M', '', 'i'), '([0-9]{1,3})(?:[,.]([0-9]))?');
  if m is not null then
    r.hectometer := (m[1] || '.' || coalesce(m[2], '0'))::double precision;
  end if;
  target_road := (select x.uuid from app_public.roads x where x.name = r.road);
  if target_road is not null and r.hectometer is not null then
    select h into r.marker from app_public.hectometer_markers h
     where h.road_uuid = target_road and h.hectometer between r.hectometer - 1 and r.hectometer + 1
     order by abs(h.hectometer - r.hectometer), (h.side is not distinct from r.side) desc, h.letter nulls first
     limit 1;
  end if;
  return r;
end;
$$;
comment on function app_public.parse_hectometer_search(text) is 'Understands free text such as "A12 Re 45,6": road, kilometre value, side, and the matching post; null when no road is named.';

--! split: 0300-places.sql
create table app_public.postcodes (
  postcode text primary key check (postcode ~ '^[1-9][0-9]{3}([A-Z]{2})?$'),
  city text,
  municipality text,
  latitude double precision not null check (latitude between -90 and 90),
  longitude double precision not null check (longitude between -180 and 180),
  created timestamptz not null default now()
);
comment on table app_public.postcodes is E'A 4-digit (PC4) or 6-character (PC6) postcode with its centre, from an imported register.';
alter table app_public.postcodes enable row level security;
create policy select_all on app_public.postcodes for select to app_visitor, app_analyst using (true);
grant select on app_public.postcodes to app_visitor, app_analyst;

-- Importer step (bin/import-postcodes.ts): a JSON array of { postcode, city, municipality, latitude, longitude }.
create function app_private.upsert_postcodes(batch jsonb) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  stored integer;
begin
  insert into app_public.postcodes as p (postcode, city, municipality, latitude, longitude)
  select upper(replace(x->>'postcode', ' ', '')), nullif(btrim(x->>'city'), ''), nullif(btrim(x->>'municipality'), ''),
         (x->>'latitude')::double precision, (x->>'longitude')::double precision
    from jsonb_array_elements(batch) x
  on conflict (postcode) do update
    set city = excluded.city, municipality = excluded.municipality, latitude = excluded.latitude, longitude = excluded.longitude;
  get diagnostics stored = row_count;
  return stored;
end;
$$;

create index places_name_trgm_idx on app_public.places using gin (lower(name) gin_trgm_ops);
create index place_names_name_pattern_idx on app_hidden.place_names (name text_pattern_ops);

-- Searches of places and postcodes: at least `minimum` characters.
create function app_hidden.require_search(search text, minimum integer) returns text
  language plpgsql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if length(btrim(coalesce(search, ''))) < minimum then
    raise exception 'search needs at least % characters.', minimum using errcode = 'XINPT';
  end if;
  if length(search) > 100 then
    raise exception 'search has at most 100 characters.' using errcode = 'XINPT';
  end if;
  return lower(btrim(search));
end;
$$;

create type app_public.city as (
  uuid uuid,
  name text,
  display_name text,
  province text,
  latitude double precision,
  longitude double precision,
  population integer
);
comment on type app_public.city is E'A place as a search answer; displayName adds the province when places share a name.';

-- Places whose name or alias (or P2000 abbreviation) starts with the search, then similar names
-- (trigram), bigger places first.
create function app_public.cities(search text, first integer default null) returns setof app_public.city
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  with term as (select app_hidden.require_search(search, 2) as t),
  found as (
    select n.place_uuid, min(case when n.name = term.t then 0 else 1 end) as rank
      from app_hidden.place_names n, term where n.name like replace(replace(term.t, '%', ''), '_', '\_') || '%'
     group by n.place_uuid
    union all
    select p.uuid, 1 from app_hidden.p2000_place_abbreviations a, term
      join app_public.places p on true
     where lower(a.abbreviation) = term.t and lower(p.name) = lower(a.place_name)
    union all
    select p.uuid, 2 from app_public.places p, term where lower(p.name) % term.t
  ),
  best as (select f.place_uuid, min(f.rank) as rank from found f group by f.place_uuid)
  select p.uuid, p.name,
         case when (select count(*) from app_public.places q where lower(q.name) = lower(p.name)) > 1
              then p.name || ' (' || coalesce(p.province, '?') || ')' else p.name end,
         p.province, p.latitude, p.longitude, p.population
    from best b join app_public.places p on p.uuid = b.place_uuid, term
   order by b.rank, similarity(lower(p.name), term.t) desc, p.population desc nulls last, p.name
   limit app_hidden.page_limit(first, 50, 10)
$$;
comment on function app_public.cities(text, integer) is E'@notNull\nPlaces by name as someone types (at least 2 characters): prefix matches, then similar names, bigger places first; first 1-50, default 10.';

create function app_public.postcodes(search text, first integer default null) returns setof app_public.postcodes
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select p.* from app_public.postcodes p
   where p.postcode like upper(replace(app_hidden.require_search(search, 2), ' ', '')) || '%'
   order by length(p.postcode), p.postcode
   limit app_hidden.page_limit(first, 50, 10)
$$;
comment on function app_public.postcodes(text, integer) is E'@notNull\nPostcodes starting with the search ("3011", "3011 T", "3011TX"; at least 2 characters), 4-digit areas first; first 1-50, default 10.';

create type app_public.location_suggestion as (
  kind text,
  label text,
  detail text,
  latitude double precision,
  longitude double precision,
  uuid uuid,
  postcode text
);
comment on type app_public.location_suggestion is E'A place, postcode or address (fire station) with coordinates, for a location picker. kind: place, postcode or address.';

create function app_public.location_suggestions(search text, first integer default null) returns setof app_public.location_suggestion
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  with term as (select app_hidden.require_search(search, 2) as t),
  candidates as (
    select 'place' as kind, c.display_name as label, c.province as detail, c.latitude, c.longitude, c.uuid, null::text as postcode,
           case when lower(c.name) like term.t || '%' then 0 else 2 end as rank, coalesce(c.population, 0) as weight
      from term, app_public.cities(search, 20) c
    union all
    select 'postcode', p.postcode, concat_ws(', ', p.city, p.municipality), p.latitude, p.longitude, null, p.postcode, 1, 0
      from term, app_public.postcodes p
     where term.t ~ '^[1-9][0-9]' and p.postcode like upper(replace(term.t, ' ', '')) || '%'
    union all
    select 'address', concat_ws(' ', s.street, s.house_number), concat_ws(', ', s.zip_code, s.city, s.name), s.latitude, s.longitude,
           s.uuid, s.zip_code, case when lower(concat_ws(' ', s.street, s.house_number)) like term.t || '%' then 1 else 3 end, 0
      from term, app_public.fire_stations s
     where s.latitude is not null and s.street is not null
       and (lower(s.street) like term.t || '%' or lower(concat_ws(' ', s.street, s.house_number, s.city)) like '%' || term.t || '%')
  )
  select c.kind, c.label, c.detail, c.latitude, c.longitude, c.uuid, c.postcode
    from candidates c
   order by c.rank, c.weight desc, length(c.label), c.label
   limit app_hidden.page_limit(first, 20, 10)
$$;
comment on function app_public.location_suggestions(text, integer) is E'@notNull\nPlaces, postcodes and addresses as someone types (at least 2 characters): prefix matches first, then similar names, bigger places first; first 1-20, default 10.';
