--! Previous: sha1:c0397347f54d3cd7c71529605d3e6a7e33a12d84
--! Hash: sha1:4da670ed716438db96f2aee0372a7b9d6d34cd05
--! Message: Streets, and messages read as a dispatcher would

--! split: 1-streets.sql
-- Streets of the national road register (NWB wegvakken: street name, woonplaats, municipality,
-- geometry, house-number ranges), imported by `npm run import:streets` (lib/streets/import.ts), so
-- that a P2000 message naming a street and a place is placed on that street; and
-- p2000_messages.position_precision, which says how precise a message's position is.
-- Idempotent: everything it creates is dropped first.

drop function if exists app_hidden.p2000_street_position(text, text, uuid, integer);
drop function if exists app_hidden.p2000_hectometre_position(text, double precision, text);
drop function if exists app_private.upsert_street_segments(jsonb);
drop function if exists app_private.refresh_streets();
drop table if exists app_hidden.streets;
drop table if exists app_hidden.street_segments;
drop function if exists app_hidden.street_key(text);
drop function if exists app_hidden.street_place_key(text);
drop type if exists app_hidden.p2000_position;

-- Normalised names --------------------------------------------------------------------------------

create function app_hidden.street_key(name text) returns text
  language sql immutable parallel safe strict
  set search_path to pg_catalog, public, pg_temp
as $$
  select nullif(array_to_string(array(
    select case w
             when 'burg' then 'burgemeester' when 'dr' then 'dokter' when 'st' then 'sint'
             when 'mr' then 'meester' when 'prof' then 'professor' when 'pr' then 'prins'
             when 'gen' then 'generaal' when 'ir' then 'ingenieur' when 'ds' then 'dominee'
             when 'mgr' then 'monseigneur' when 'past' then 'pastoor' when 'weth' then 'wethouder'
             when 'kard' then 'kardinaal' when 'v' then 'van' else w end
      from unnest(regexp_split_to_array(btrim(regexp_replace(
             translate(lower(name), 'áàâäãåéèêëíìîïóòôöõúùûüýÿçñ’`', 'aaaaaaeeeeiiiiooooouuuuyycn'''''),
             '[^a-z0-9]+', ' ', 'g')), ' ')) with ordinality as x (w, i)
     order by x.i), ' '), '')
$$;
comment on function app_hidden.street_key(text) is 'A street name as it is compared: lower case, accents and punctuation off, words separated by one space, and the abbreviated titles that street names and P2000 texts use written out ("Burg. de Withstraat" and "Burgemeester de Withstraat" are both "burgemeester de withstraat"). Only letters, digits and single spaces remain, so the key can be used in a LIKE pattern as it is.';

create function app_hidden.street_place_key(name text) returns text
  language sql immutable parallel safe strict
  set search_path to pg_catalog, public, pg_temp
as $$
  select nullif(btrim(regexp_replace(translate(lower(name), '’`', ''''''), '\s+', ' ', 'g')), '')
$$;
comment on function app_hidden.street_place_key(text) is 'A woonplaats or municipality name as streets are keyed by it: lower case, spaces collapsed ("Hoogvliet Rotterdam", "''s-Gravenhage", "Bergen (NH)" as NWB writes them).';

-- Tables ------------------------------------------------------------------------------------------

create table app_hidden.street_segments (
  wvk_id bigint primary key,
  street text not null,
  woonplaats text not null,
  municipality text,
  place_key text not null,
  street_key text not null,
  length_m double precision not null check (length_m >= 0),
  begin_latitude double precision not null,
  begin_longitude double precision not null,
  mid_latitude double precision not null,
  mid_longitude double precision not null,
  end_latitude double precision not null,
  end_longitude double precision not null,
  left_first integer check (left_first > 0),
  left_last integer check (left_last > 0),
  left_parity text check (left_parity in ('O', 'E')),
  right_first integer check (right_first > 0),
  right_last integer check (right_last > 0),
  right_parity text check (right_parity in ('O', 'E')),
  check ((left_first is null) = (left_last is null) and (right_first is null) = (right_last is null))
);
alter table app_hidden.street_segments enable row level security;
create index street_segments_street_idx on app_hidden.street_segments (place_key, street_key);
create policy select_all on app_hidden.street_segments for select to app_visitor, app_analyst using (true);
grant select on app_hidden.street_segments to app_visitor, app_analyst;
comment on table app_hidden.street_segments is 'Road segments (wegvakken) of the national road register NWB (Rijkswaterstaat) that carry a street name, in WGS84, imported by npm run import:streets. A segment keeps only its begin, its middle (the point halfway along it) and its end, which is all the street positions need, rather than its whole line (about 1.5 million segments).';
comment on column app_hidden.street_segments.wvk_id is 'NWB wegvak id (WVK_ID): re-imports update the segment.';
comment on column app_hidden.street_segments.street is 'Street name as NWB writes it (STT_NAAM).';
comment on column app_hidden.street_segments.woonplaats is 'Woonplaats (WPSNAAM), or the municipality where NWB gives none.';
comment on column app_hidden.street_segments.municipality is 'Municipality (GME_NAAM).';
comment on column app_hidden.street_segments.place_key is 'app_hidden.street_place_key(woonplaats).';
comment on column app_hidden.street_segments.street_key is 'app_hidden.street_key(street).';
comment on column app_hidden.street_segments.length_m is 'Length of the segment in metres (RD New).';
comment on column app_hidden.street_segments.mid_latitude is 'The point halfway along the segment (on the line, not the middle of its ends).';
comment on column app_hidden.street_segments.left_first is 'First house number on the left (E_HNR_LNKS), at the begin of the segment; null when NWB has none.';
comment on column app_hidden.street_segments.left_last is 'Last house number on the left (L_HNR_LNKS), at the end of the segment.';
comment on column app_hidden.street_segments.left_parity is 'O (odd) or E (even) numbers on the left (HNRSTRLNKS); null when mixed or unknown.';
comment on column app_hidden.street_segments.right_first is 'First house number on the right (E_HNR_RHTS).';
comment on column app_hidden.street_segments.right_last is 'Last house number on the right (L_HNR_RHTS).';
comment on column app_hidden.street_segments.right_parity is 'O (odd) or E (even) numbers on the right (HNRSTRRHTS).';

create table app_hidden.streets (
  place_key text not null,
  street_key text not null,
  name text not null,
  woonplaats text not null,
  municipality text,
  place_uuid uuid references app_public.places (uuid) on delete set null,
  latitude double precision not null check (latitude between -90 and 90),
  longitude double precision not null check (longitude between -180 and 180),
  segment_count integer not null,
  length_m double precision not null,
  primary key (place_key, street_key)
);
alter table app_hidden.streets enable row level security;
create index streets_place_idx on app_hidden.streets (place_uuid, street_key);
create index streets_place_suffix_idx on app_hidden.streets (place_uuid, reverse(street_key) text_pattern_ops);
create index streets_municipality_idx on app_hidden.streets (app_hidden.street_place_key(municipality), street_key);
create policy select_all on app_hidden.streets for select to app_visitor, app_analyst using (true);
grant select on app_hidden.streets to app_visitor, app_analyst;
comment on table app_hidden.streets is 'One row per street of a woonplaats, made from app_hidden.street_segments after each import (app_private.refresh_streets), with the point P2000 messages naming the street are placed on: the middle of its segment nearest to the centre of all its segments (weighted by length), so the point lies on the street even when the street bends or is in parts.';
comment on column app_hidden.streets.name is 'The street name as most of its segments write it.';
comment on column app_hidden.streets.place_uuid is 'The place (app_public.places) of the woonplaats: by name or alias, the one in the street''s municipality first; null when no place has the name.';
comment on column app_hidden.streets.latitude is 'The street''s representative point (see the table).';
comment on column app_hidden.streets.segment_count is 'NWB segments of the street.';
comment on column app_hidden.streets.length_m is 'Total length of its segments in metres.';

-- Import ------------------------------------------------------------------------------------------

create function app_private.upsert_street_segments(batch jsonb) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  changed integer;
begin
  insert into app_hidden.street_segments as s (wvk_id, street, woonplaats, municipality, place_key, street_key, length_m,
      begin_latitude, begin_longitude, mid_latitude, mid_longitude, end_latitude, end_longitude,
      left_first, left_last, left_parity, right_first, right_last, right_parity)
  select distinct on (x.wvk_id) x.wvk_id, x.street, x.woonplaats, nullif(x.municipality, ''),
         app_hidden.street_place_key(x.woonplaats), app_hidden.street_key(x.street), x.length_m,
         x.begin_latitude, x.begin_longitude, x.mid_latitude, x.mid_longitude, x.end_latitude, x.end_longitude,
         x.left_first, x.left_last, x.left_parity, x.right_first, x.right_last, x.right_parity
    from jsonb_to_recordset(batch) as x (wvk_id bigint, street text, woonplaats text, municipality text, length_m double precision,
           begin_latitude double precision, begin_longitude double precision, mid_latitude double precision,
           mid_longitude double precision, end_latitude double precision, end_longitude double precision,
           left_first integer, left_last integer, left_parity text, right_first integer, right_last integer, right_parity text)
   where app_hidden.street_key(x.street) is not null and app_hidden.street_place_key(x.woonplaats) is not null
   order by x.wvk_id
  on conflict (wvk_id) do update
    set street = excluded.street, woonplaats = excluded.woonplaats, municipality = excluded.municipality,
        place_key = excluded.place_key, street_key = excluded.street_key, length_m = excluded.length_m,
        begin_latitude = excluded.begin_latitude, begin_longitude = excluded.begin_longitude,
        mid_latitude = excluded.mid_latitude, mid_longitude = excluded.mid_longitude,
        end_latitude = excluded.end_latitude, end_longitude = excluded.end_longitude,
        left_first = excluded.left_first, left_last = excluded.left_last, left_parity = excluded.left_parity,
        right_first = excluded.right_first, right_last = excluded.right_last, right_parity = excluded.right_parity
    where (s.street, s.woonplaats, s.municipality, s.length_m, s.begin_latitude, s.begin_longitude, s.mid_latitude,
           s.mid_longitude, s.end_latitude, s.end_longitude, s.left_first, s.left_last, s.left_parity, s.right_first,
           s.right_last, s.right_parity)
          is distinct from
          (excluded.street, excluded.woonplaats, excluded.municipality, excluded.length_m, excluded.begin_latitude,
           excluded.begin_longitude, excluded.mid_latitude, excluded.mid_longitude, excluded.end_latitude,
           excluded.end_longitude, excluded.left_first, excluded.left_last, excluded.left_parity, excluded.right_first,
           excluded.right_last, excluded.right_parity);
  get diagnostics changed = row_count;
  return changed;
end;
$$;
comment on function app_private.upsert_street_segments(jsonb) is 'Importer step (bin/import-streets.ts): a batch of NWB segments, inserted or updated by wvk_id; returns how many were new or changed (a row that is the same is not written, so a re-import changes nothing).';

create function app_private.refresh_streets() returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  changed integer;
  removed integer;
begin
  with per_street as (
    select g.place_key, g.street_key,
           mode() within group (order by g.street) as name,
           mode() within group (order by g.woonplaats) as woonplaats,
           mode() within group (order by g.municipality) as municipality,
           count(*)::integer as segment_count, sum(g.length_m) as length_m,
           -- the centre of the street's segments, weighted by length (a zero-length one still counts)
           sum(g.mid_latitude * (g.length_m + 1)) / sum(g.length_m + 1) as centre_latitude,
           sum(g.mid_longitude * (g.length_m + 1)) / sum(g.length_m + 1) as centre_longitude
      from app_hidden.street_segments g
     group by g.place_key, g.street_key
  ), middle as (
    select distinct on (s.place_key, s.street_key) s.*, g.mid_latitude as latitude, g.mid_longitude as longitude
      from per_street s
      join app_hidden.street_segments g on g.place_key = s.place_key and g.street_key = s.street_key
     order by s.place_key, s.street_key,
              (g.mid_latitude - s.centre_latitude) ^ 2 + ((g.mid_longitude - s.centre_longitude) * cos(radians(s.centre_latitude))) ^ 2,
              g.wvk_id
  )
  insert into app_hidden.streets as t (place_key, street_key, name, woonplaats, municipality, place_uuid, latitude, longitude,
      segment_count, length_m)
  select m.place_key, m.street_key, m.name, m.woonplaats, m.municipality, p.uuid, m.latitude, m.longitude,
         m.segment_count, round(m.length_m::numeric, 1)::double precision
    from middle m
    left join lateral (
      -- "Bergen (NH)" is the place Bergen with the alias "Bergen NH"; "Hoogvliet Rotterdam" is Hoogvliet.
      select c.uuid from app_hidden.place_names n join app_public.places c on c.uuid = n.place_uuid
       where n.name in (m.place_key, btrim(regexp_replace(m.place_key, '[()]', '', 'g')), btrim(regexp_replace(m.place_key, '\s*\(.*$', '')))
       order by app_hidden.street_place_key(c.municipality) = app_hidden.street_place_key(m.municipality) desc nulls last,
                n.name = m.place_key desc, c.population desc nulls last, c.uuid
       limit 1) p on true
  on conflict (place_key, street_key) do update
    set name = excluded.name, woonplaats = excluded.woonplaats, municipality = excluded.municipality,
        place_uuid = excluded.place_uuid, latitude = excluded.latitude, longitude = excluded.longitude,
        segment_count = excluded.segment_count, length_m = excluded.length_m
    where (t.name, t.woonplaats, t.municipality, t.place_uuid, t.latitude, t.longitude, t.segment_count, t.length_m)
          is distinct from (excluded.name, excluded.woonplaats, excluded.municipality, excluded.place_uuid,
                            excluded.latitude, excluded.longitude, excluded.segment_count, excluded.length_m);
  get diagnostics changed = row_count;
  delete from app_hidden.streets t
   where not exists (select 1 from app_hidden.street_segments g where g.place_key = t.place_key and g.street_key = t.street_key);
  get diagnostics removed = row_count;
  return changed + removed;
end;
$$;
comment on function app_private.refresh_streets() is 'Importer step, once after all segments are stored: one app_hidden.streets row per (woonplaats, street) with its representative point and place; only rows that changed are written, streets without segments are removed. Returns how many rows changed.';

-- Positions for P2000 messages --------------------------------------------------------------------

create type app_hidden.p2000_position as (
  latitude double precision,
  longitude double precision,
  position_precision text
);
comment on type app_hidden.p2000_position is 'A position found for a P2000 message and how precise it is (street or hectometre), as app_hidden.p2000_street_position and app_hidden.p2000_hectometre_position return it to app_hidden.p2000_enrich.';

create function app_hidden.p2000_street_position(street text, city text, place_uuid uuid, house_number integer default null)
  returns app_hidden.p2000_position
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  key text := app_hidden.street_key(street);
  found_street app_hidden.streets;
  segment record;
  fraction double precision;
  result app_hidden.p2000_position;
begin
  if key is null then
    return null;
  end if;
  -- The street in the place the enrichment found (one index probe) ...
  if place_uuid is not null then
    select s.* into found_street from app_hidden.streets s
     where s.place_uuid = p2000_street_position.place_uuid and s.street_key = key;
  end if;
  -- ... else in the woonplaats named so (a place with no row in app_public.places) ...
  if found_street.street_key is null and city is not null then
    select s.* into found_street from app_hidden.streets s
     where s.place_key = app_hidden.street_place_key(city) and s.street_key = key;
  end if;
  -- ... else the one street of that name in the municipality so named (a village's street with its
  -- municipality's name in the text) ...
  if found_street.street_key is null and city is not null then
    select s.* into found_street from app_hidden.streets s
     where app_hidden.street_place_key(s.municipality) = app_hidden.street_place_key(city) and s.street_key = key
     order by s.segment_count desc limit 1;
    if found_street.street_key is not null and (select count(*) from (select 1 from app_hidden.streets s
         where app_hidden.street_place_key(s.municipality) = app_hidden.street_place_key(city) and s.street_key = key limit 2) x) > 1 then
      found_street := null;
    end if;
  end if;
  -- ... else the one street of the place whose name ends in the words given: P2000 texts drop
  -- titles ("De Withstraat" for "Burgemeester de Withstraat").
  if found_street.street_key is null and place_uuid is not null then
    select s.* into found_street from app_hidden.streets s
     where s.place_uuid = p2000_street_position.place_uuid and reverse(s.street_key) like reverse(' ' || key) || '%'
     limit 1;
    if found_street.street_key is not null and (select count(*) from (select 1 from app_hidden.streets s
         where s.place_uuid = p2000_street_position.place_uuid and reverse(s.street_key) like reverse(' ' || key) || '%' limit 2) x) > 1 then
      found_street := null;
    end if;
  end if;
  if found_street.street_key is null then
    return null;
  end if;
  result := (found_street.latitude, found_street.longitude, 'street');
  if house_number is null or house_number <= 0 then
    return result;
  end if;
  -- The side of a segment whose number range holds the number (the right parity first), else the
  -- one whose range ends nearest to it; the point along the segment where the number falls, on
  -- the path begin -> middle -> end.
  select g.*, h.first, h.last into segment
    from app_hidden.street_segments g
    cross join lateral (values (g.left_first, g.left_last, g.left_parity), (g.right_first, g.right_last, g.right_parity)) as h (first, last, parity)
   where g.place_key = found_street.place_key and g.street_key = found_street.street_key and h.first is not null
   order by greatest(least(h.first, h.last) - house_number, house_number - greatest(h.first, h.last), 0),
            (h.parity = 'O' and house_number % 2 = 0) or (h.parity = 'E' and house_number % 2 = 1),
            g.wvk_id
   limit 1;
  if segment.wvk_id is null then
    return result;
  end if;
  fraction := case when segment.first = segment.last then 0.5
                   else greatest(0, least(1, (house_number - segment.first)::double precision / (segment.last - segment.first))) end;
  if fraction <= 0.5 then
    result.latitude := segment.begin_latitude + (segment.mid_latitude - segment.begin_latitude) * fraction * 2;
    result.longitude := segment.begin_longitude + (segment.mid_longitude - segment.begin_longitude) * fraction * 2;
  else
    result.latitude := segment.mid_latitude + (segment.end_latitude - segment.mid_latitude) * (fraction * 2 - 1);
    result.longitude := segment.mid_longitude + (segment.end_longitude - segment.mid_longitude) * (fraction * 2 - 1);
  end if;
  result.latitude := round(result.latitude::numeric, 7)::double precision;
  result.longitude := round(result.longitude::numeric, 7)::double precision;
  return result;
end;
$$;
comment on function app_hidden.p2000_street_position(text, text, uuid, integer) is 'Where a P2000 message that names a street and a place is placed (for app_hidden.p2000_enrich): the street''s point in app_hidden.streets (by the place found, else the woonplaats or municipality of that name, else the one street of the place whose name ends in the words given), and with a house number the point along the segment whose NWB number range holds it (or ends nearest to it). Precision ''street''; null when the street is not known there, and then the place''s centre stays.';

create function app_hidden.p2000_hectometre_position(road text, hectometer double precision, carriageway text default null)
  returns app_hidden.p2000_position
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select h.latitude, h.longitude, 'hectometre'::text
    from app_public.roads r
    join app_public.hectometer_markers h on h.road_uuid = r.uuid
   where r.name = p2000_hectometre_position.road
     and h.hectometer between p2000_hectometre_position.hectometer - 0.5 and p2000_hectometre_position.hectometer + 0.5
   order by abs(h.hectometer - p2000_hectometre_position.hectometer), (h.side is not distinct from p2000_hectometre_position.carriageway) desc,
            h.letter nulls first, h.uuid
   limit 1
$$;
comment on function app_hidden.p2000_hectometre_position(text, double precision, text) is 'Where a P2000 message that names a road and a kilometre value ("A12 Re 45,6") is placed (for app_hidden.p2000_enrich): the imported hectometre post of that road nearest to the value, within 500 m, on the carriageway named first. Precision ''hectometre''; null without such a post.';

-- How precise a message's position is -------------------------------------------------------------

alter type app_hidden.p2000_enrichment drop attribute if exists position_precision;
alter type app_hidden.p2000_enrichment add attribute position_precision text;

alter table app_public.p2000_messages drop column if exists position_precision;
-- Every message with a position has it from its place today: the default gives the existing rows
-- 'place' without rewriting them, only those without a position are written (with their update
-- triggers off: nothing counted changes), and new rows get theirs from the insert trigger.
alter table app_public.p2000_messages add column position_precision text default 'place'
  constraint p2000_messages_position_precision_check check (position_precision in ('street', 'place', 'hectometre'));
alter table app_public.p2000_messages disable trigger _100_set_changed, disable trigger _310_unroll_updated;
update app_public.p2000_messages set position_precision = null where latitude is null or longitude is null;
alter table app_public.p2000_messages enable trigger _100_set_changed, enable trigger _310_unroll_updated;
alter table app_public.p2000_messages alter column position_precision drop default;
comment on column app_public.p2000_messages.position_precision is 'How precise latitude and longitude are: street (on the street the message names, nearer the house number where the road register has one), place (the centre of the place), hectometre (the hectometre post on the road); null without a position.';

-- The insert trigger and the batch insert carry the enrichment's position_precision; a row with a
-- position but no precision (a DBA's insert with coordinates, an enrichment computed by an older
-- server) is taken as placed on its place, and a row without a position has none.
create or replace function app_hidden.tg_p2000_messages__prepare() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
  set plan_cache_mode to force_generic_plan
as $$
declare
  earlier uuid;
  e app_hidden.p2000_enrichment;
begin
  new.message := btrim(new.message);
  new.capcode_names := app_hidden.p2000_clean_capcodes(new.capcode_names);

  select x.uuid into earlier from app_public.p2000_messages x
   where x.sended between new.sended - interval '10 seconds' and new.sended + interval '10 seconds'
     and md5(x.message) = md5(new.message) and x.message = new.message
   order by x.sended limit 1;
  if earlier is not null then
    perform app_hidden.p2000_create_capcodes(new.capcode_names);
    update app_public.p2000_messages x
       set capcode_names = array(select distinct c from unnest(x.capcode_names || new.capcode_names) c order by 1)
     where x.uuid = earlier;
    insert into app_public.p2000_message_capcodes (message_uuid, capcode_uuid, sended)
    select earlier, c.uuid, x.sended from app_public.p2000_capcodes c, app_public.p2000_messages x
     where c.name = any (new.capcode_names) and x.uuid = earlier
    on conflict do nothing;
    return null;
  end if;

  -- An importer may pass the enrichment it computed (app_private.p2000_enrich_messages); the
  -- grouping text is never null once a message is enriched.
  if new.normalized_text is null then
    e := app_hidden.p2000_enrich(new.message, new.capcode_names);
    new.urgency_uuid := e.urgency_uuid;
    new.discipline_uuid := e.discipline_uuid;
    new.region_uuid := e.region_uuid;
    new.category_uuid := e.category_uuid;
    new.street := e.street;
    new.postcode := e.postcode;
    new.city := e.city;
    new.place_uuid := e.place_uuid;
    new.latitude := e.latitude;
    new.longitude := e.longitude;
    new.position_precision := e.position_precision;
    new.road := e.road;
    new.hectometer := e.hectometer;
    new.carriageway := e.carriageway;
    new.grip_level := e.grip_level;
    new.exercise_type := e.exercise_type;
    new.incident_number := e.incident_number;
    new.normalized_text := e.normalized_text;
    new.call_numbers := e.call_numbers;
  end if;
  new.position_precision := case when new.latitude is not null and new.longitude is not null
                                 then coalesce(new.position_precision, 'place') end;
  new.dossier_uuid := app_hidden.p2000_assign_dossier(new);
  return new;
end;
$$;
comment on function app_hidden.tg_p2000_messages__prepare() is 'Trigger before a message is stored. It trims the text and cleans the capcodes. The same text received within 10 seconds (from another receiver) is merged into the first copy and not stored. Otherwise it enriches the message (unless an importer passed the enrichment) and assigns its dossier; a position without a precision is a place''s. plan_cache_mode is force_generic_plan so that its queries are planned once per connection and not again for every message.';

create or replace function app_private.ingest_p2000_messages(messages json, source text) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  insert into app_public.p2000_messages (message, sended, capcode_names, source, urgency_uuid, discipline_uuid,
      region_uuid, category_uuid, street, postcode, city, place_uuid, latitude, longitude, position_precision, road, hectometer,
      carriageway, grip_level, exercise_type, incident_number, normalized_text, call_numbers)
  select p.value ->> 'message', (p.value ->> 'sended')::timestamptz,
         coalesce(array(select json_array_elements_text(p.value -> 'capcodes')), '{}'), ingest_p2000_messages.source,
         e.urgency_uuid, e.discipline_uuid, e.region_uuid, e.category_uuid, e.street, e.postcode, e.city, e.place_uuid,
         e.latitude, e.longitude, e.position_precision, e.road, e.hectometer, e.carriageway, e.grip_level, coalesce(e.exercise_type, 'none'),
         e.incident_number, e.normalized_text, coalesce(e.call_numbers, '{}')
    from json_array_elements(messages) with ordinality as p (value, n),
         lateral json_populate_record(null::app_hidden.p2000_enrichment, p.value -> 'enrichment') as e
   order by p.n;
  return json_array_length(messages);
end;
$$;
comment on function app_private.ingest_p2000_messages(messages json, source text) is 'Stores (or merges into earlier copies) a batch of P2000 messages [{message, sended, capcodes}] in order, with the enrichment app_private.p2000_enrich_messages computed for each (position and its precision included); returns the batch size.';

--! split: 2-enrichment-rules.sql
-- Every P2000 message read as a dispatcher reads it (issue 27, part 1):
-- 1. Region from the place. Where the text names its place, the place's safety region is the
--    message's region; capcodes and call-sign numbers decide only where it names none. Each place
--    gets its safety region (app_public.places.region_uuid) from the shipped boundaries
--    (data/safety-regions.geojson, in app_public.safety_region_areas): the region its point lies
--    in, made the same for every woonplaats of a municipality (safety regions are whole
--    municipalities; the majority outvotes a border village that the simplified outline puts next
--    door). app_private.refresh_place_regions computes it, after the areas or the places load.
-- 2. Priority wherever it stands: after "Herhaalde alarmering" or "Oefening" at the start, and
--    "prio 2" or "P 1" (with its space) further on; lower case as well. A road "A12" or "A2 li
--    223,5" at the start, and "P3" in the middle ("parkeergarage P3"), are no priority.
-- 3. The text's discipline wins over the capcodes': a fire talkgroup ("BZO-02", any case) is the
--    fire brigade, "ambu"/"ambulance" (not "assistentie ambulance") the ambulance.
-- And the statistics leave out keys whose roll-up count went back to 0 (messages re-enriched into
-- another region), rather than list them with a count of 0.
-- Stored messages keep their enrichment until `npm run p2000:reenrich` (app_private.
-- reenrich_p2000_messages, batch by batch) brings them up to date: this migration is one
-- transaction, and re-enriching a long history in it would hold every message row and the
-- roll-ups locked for as long as that takes.

-- The safety region of each place ------------------------------------------------------------------

alter table app_public.places add column if not exists region_uuid uuid references app_public.p2000_regions (uuid);
comment on column app_public.places.region_uuid is 'The safety region the place lies in (app_private.refresh_place_regions): the same for every woonplaats of a municipality. P2000 enrichment takes a message''s region from the place its text names.';

create or replace function app_private.refresh_place_regions() returns integer
  language sql
  set search_path to pg_catalog, public, pg_temp
as $$
  -- The region whose area holds the place's point; else (a point on the water, an island the
  -- outline lacks) the nearest. Then every woonplaats of a municipality gets the region most of
  -- them lie in.
  with located as (
    select p.uuid, p.province, p.municipality,
           coalesce((select s.region_uuid from app_public.safety_region_areas s
                      where s.area @> point(p.longitude, p.latitude) limit 1),
                    (select s.region_uuid from app_public.safety_region_areas s
                      order by s.area <-> point(p.longitude, p.latitude) limit 1)) as region_uuid
      from app_public.places p
  ), municipalities as (
    select l.province, l.municipality, mode() within group (order by l.region_uuid) as region_uuid
      from located l where l.municipality is not null group by l.province, l.municipality
  ), changed as (
    update app_public.places p set region_uuid = x.region_uuid
      from (select l.uuid, coalesce(g.region_uuid, l.region_uuid) as region_uuid
              from located l
              left join municipalities g on g.province = l.province and g.municipality = l.municipality) x
     where p.uuid = x.uuid and p.region_uuid is distinct from x.region_uuid
    returning 1
  )
  select count(*)::integer from changed
$$;
comment on function app_private.refresh_place_regions() is 'Sets app_public.places.region_uuid: the safety region whose area (app_public.safety_region_areas) holds the place''s point, the nearest for a point outside every area (water), and for a woonplaats the region most woonplaatsen of its municipality lie in, since safety regions are whole municipalities. Runs when the areas load (app_private.load_safety_region_areas) and after the places load (lib/places/reference-data.ts); rows already right are left alone. Returns how many places changed.';

-- The areas load after the places on a new installation: the places get their regions then.
create or replace function app_private.load_safety_region_areas(features jsonb, digest text) returns integer
  language plpgsql
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
  perform app_private.refresh_place_regions();
  insert into app_hidden.geo_data_versions (name, digest) values ('safety-regions', digest)
  on conflict (name) do update set digest = excluded.digest, loaded_at = now();
  return regions;
end;
$$;
comment on function app_private.load_safety_region_areas(jsonb, text) is
  'Loads the areas of the 25 safety regions (data/safety-regions.geojson) on start, skipped when the file''s SHA-256 '
  'is the one loaded, and recomputes what comes from these areas: every NL-Alert''s regions and every place''s '
  '(app_private.refresh_place_regions). Raises unless the file holds all 25.';

-- An installation that has its places and areas already.
select app_private.refresh_place_regions();

-- The enrichment -----------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION app_hidden.p2000_enrich(message text, capcode_names text[])
 RETURNS app_hidden.p2000_enrichment
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
declare
  r app_hidden.p2000_enrichment;
  t text := btrim(regexp_replace(message, '\s+', ' ', 'g'));
  m text[];
  urgency_code text;
  discipline_name text;
  text_discipline text;
  region_number text;
  all_test_codes boolean;
  place app_public.places;
  weak_place boolean;
  words text[];
  candidates text[];
  -- Woonplaatsen that are words of P2000 texts ("een persoon", "Kerkstraat hoek Markt", "BR winkel",
  -- "natuurbrand heide"): never a place in lower case, and in capitals only when no other is named.
  common_words constant text[] := array['een', 'hoek', 'heide', 'winkel', 'veen', 'sluis', 'zeeland', 'nederland'];
  -- Place names that are never the place in a P2000 text: "Brand" (a district of Helmond, no
  -- woonplaats) is the fire ("P 1 Brand woning"), in any case.
  not_places constant text[] := array['brand'];
  body text;
  category_code text;
  padded text;
  spaced text;
  explicit_priority boolean := false;
  lead text;
  compact text;
  code_letter text;
  after_lead text;
  found_latitude double precision;
  found_longitude double precision;
  found_precision text;
  house_number integer;
begin
  -- Lower-case words of the text, and the text as " word word ": keyword rules test these
  -- instead of running a regex each (PostgreSQL caches only 32 compiled regexes per session).
  words := regexp_split_to_array(btrim(regexp_replace(lower(t), '[^[:alnum:]''’ -]+', ' ', 'g')), '\s+');
  padded := ' ' || array_to_string(words, ' ') || ' ';

  -- Urgency, wherever the dispatcher wrote it. At the start, after "Herhaalde alarmering",
  -- "Herhaling" or "Oefening" if one comes first: "P 1", "PRIO 1", "P1" and a bare 1-3 are P1-P3,
  -- A0-A2, B1 and B2 as written (not a road there: "A2 li 223,5", "A12"). Further on only the
  -- unmistakable forms: "prio 2" and "P 2" with its space ("parkeergarage P3" is no priority).
  -- Any case ("p 1 bzo-02", "a1"). The text after the leading code is the body the road is read
  -- from, so that "A1" is no road.
  -- (No capture groups in the leading pattern: with them PostgreSQL's matcher backtracks through
  -- the alternatives and costs a hundred times as much; the code is read from the match instead.)
  lead := (regexp_match(t, '^(?:(?:herhaalde\s+alarmering|herhaling|oefening)\s*:?\s*)?(?:(?:prio|p)\s*:?\s*[123]|[ab]\s?[0-2]|[123](?=\s))\M', 'i'))[1];
  if lead is not null then
    compact := translate(lower(lead), ' :', '');
    code_letter := substr(compact, length(compact) - 1, 1);
    -- After an A or B code, a carriageway or a kilometre value makes it a road ("A2 li 223,5").
    after_lead := split_part(lower(btrim(substr(t, length(lead) + 1))), ' ', 1);
    if code_letter in ('a', 'b') and (upper(right(compact, 2)) not in ('A0', 'A1', 'A2', 'B1', 'B2')
        or after_lead in ('li', 're', 'hrl', 'hrr')
        or (translate(after_lead, '0123456789', '') in (',', '.') and left(after_lead, 1) between '0' and '9'
            and right(after_lead, 1) between '0' and '9')) then
      lead := null;
    end if;
  end if;
  if lead is not null then
    urgency_code := case when code_letter in ('a', 'b') then upper(right(compact, 2)) else 'P' || right(compact, 1) end;
    -- "P"/"PRIO" before the digit (the letter before it is p or the o of prio), not a bare digit.
    explicit_priority := code_letter in ('p', 'o');
    body := substr(t, length(lead) + 1);
  else
    body := t;
    m := regexp_match(t, '\m(?:prio\s*:?\s*|p\s+)([123])\M', 'i');
    if m is not null then
      urgency_code := 'P' || m[1];
      explicit_priority := true;
    end if;
  end if;
  select u.uuid into r.urgency_uuid from app_public.p2000_urgencies u where u.code = urgency_code;

  -- Discipline: what the text says decides: a fire talkgroup ("BZO-02", any case) is the fire
  -- brigade, "ambu"/"ambulance" the ambulance ("assistentie ambulance" is a fire brigade's job).
  -- (The talkgroup regex is the one the grouping text uses below: one compiled regex.)
  text_discipline := case
    when lower(t) ~ '\mb[a-z]{2}-[0-9]{2}\M' then 'Brandweer'
    when words && array['ambu', 'ambulance'] and strpos(padded, ' assistentie ambu') = 0 and strpos(padded, ' ass ambu') = 0
      then 'Ambulance'
  end;

  -- Else the discipline, and the region, from the capcodes that address units (not group calls,
  -- not monitor codes), by majority; their own data first, their 4-digit block second.
  select mode() within group (order by coalesce(c.discipline_uuid, b.discipline_uuid)),
         mode() within group (order by coalesce(c.region_uuid, b.region_uuid)),
         bool_and(c.kind = 'test')
    into r.discipline_uuid, r.region_uuid, all_test_codes
    from (select distinct app_hidden.p2000_normalize_capcode(x) as name from unnest(capcode_names) x) as n
    left join app_public.p2000_capcodes c on c.name = n.name
    -- lateral: one index probe per capcode, not a hash of the whole block table per message
    left join lateral (select b.discipline_uuid, b.region_uuid from app_hidden.p2000_capcode_blocks b
                        where b.block = left(n.name, 4)) as b on true
   where n.name is not null and n.name not between '2029568' and '2029583'
     and coalesce(c.kind, app_hidden.p2000_capcode_kind(n.name, null)) in ('unit', 'test');

  if text_discipline is not null then
    discipline_name := text_discipline;
    select d.uuid into r.discipline_uuid from app_public.p2000_disciplines d where d.name = discipline_name;
  elsif r.discipline_uuid is null then
    discipline_name := case
      when left(urgency_code, 1) in ('A', 'B') or words && array['ambu', 'lifeliner', 'traumaheli', 'mmt']
        or strpos(padded, ' dia ja ') > 0 or strpos(padded, ' directe inzet ') > 0 then 'Ambulance'
      when explicit_priority then 'Brandweer'
      when words && array['br', 'brandweer', 'brand'] then 'Brandweer'
      when words && array['knrm'] then 'KNRM'
      when words && array['politie'] then 'Politie'
    end;
    select d.uuid into r.discipline_uuid from app_public.p2000_disciplines d where d.name = discipline_name;
  else
    select d.name into discipline_name from app_public.p2000_disciplines d where d.uuid = r.discipline_uuid;
  end if;

  -- Fire call numbers (RRPPTV, the region first) and ambulance unit numbers (RRNNN).
  r.call_numbers := coalesce(array(
    select distinct x[1] from regexp_matches(t, '\m((?:0[1-9]|1[0-9]|2[0-5])[0-9]{4})\M', 'g') as x
     where discipline_name = 'Brandweer'), '{}');
  if r.region_uuid is null then
    -- "AMBU 17106", or the unit number right after the urgency ("A1 13108 ...").
    m := regexp_match(t, '(?:\mambu\s+|^(?:a[0-2]|b[12])\s+)((?:0[1-9]|1[0-9]|2[0-5]))[0-9]{3}\M', 'i');
    region_number := coalesce(m[1], left(r.call_numbers[1], 2));
    select g.uuid into r.region_uuid from app_public.p2000_regions g where g.number = region_number;
  end if;
  -- So far the region of the units paged; the place named below decides where there is one.

  -- Tests and exercises.
  r.exercise_type := case
    when words && array['testoproep', 'testbericht', 'testpage'] or t ~* '^((p|prio)\s*[123]\s+)?test\M' then 'test'
    when strpos(lower(t), 'proefalarm') > 0 then 'proefalarm'
    when words && array['oefening', 'oefenalarm'] then 'oefening'
    when all_test_codes then 'test'
    else 'none'
  end;
  -- Exercises and tests have the exercise urgency, whatever priority their text gives (the spec's
  -- urgencies: urgent, less urgent, exercise); exercise_type keeps which kind they are.
  if r.exercise_type <> 'none' then
    select u.uuid into r.urgency_uuid from app_public.p2000_urgencies u where u.code = 'OEF';
  end if;

  m := regexp_match(t, '\mGRIP\s*([1-5])\M', 'i');
  r.grip_level := m[1]::smallint;

  m := regexp_match(t, '\m([1-9][0-9]{3}) ?([A-Z]{2})\M');
  if m is not null and m[2] not in ('SA', 'SD', 'SS') then r.postcode := m[1] || m[2]; end if;

  -- Roads: "A12 Re 45,6", "a2 li 223.5", "N59 42,3" (in the body: not the urgency code at the start).
  m := regexp_match(body, '\m([ANS])\s?([0-9]{1,3})\M', 'i');
  if m is not null then
    r.road := upper(m[1]) || m[2];
    m := regexp_match(body, '\m[ANS]\s?[0-9]{1,3}\M(?:\s+(Li|Re|HRL|HRR)\M)?[^0-9]{0,40}?\m([0-9]{1,3})[,.]([0-9])\M', 'i');
    if m is not null then
      r.hectometer := (m[2] || '.' || m[3])::double precision;
    end if;
    m := regexp_match(body, '\m(Li|Re|HRL|HRR)\M', 'i');
    r.carriageway := case upper(m[1]) when 'LI' then 'Li' when 'HRL' then 'Li' when 'RE' then 'Re' when 'HRR' then 'Re' end;
  end if;

  -- Street: a word with a Dutch street suffix, with a title word before it ("Burgemeester ...").
  -- Matched in the lower-case text (a case-insensitive match of this pattern costs twice as much),
  -- then taken from the text as written. "Herhaalde alarmering" is no street.
  m := regexp_match(lower(t),
    '((?:\m(?:burgemeester|dokter|dr\.|sint|st\.|prins|prinses|koning|koningin|graaf|professor|prof\.|van|de|den)\s+)?'
    '\m(?!alarmering\M)[a-zà-ÿ''’-]*(?:straat|weg|laan|plein|kade|singel|dijk|gracht|pad|dreef|hof|baan|boulevard|steeg|wal|markt|ring|allee|plantsoen|erf|haven|brug|park|oord))\M');
  if m is not null and m[1] !~ '^(auto)?snelweg$|^rijksweg$' then
    r.street := app_hidden.proper_case(substr(t, strpos(lower(t), m[1]), length(m[1])));
  end if;

  -- Place: a P2000 abbreviation (VLAARD), else the place name that ends last in the text (the
  -- longest there: the town ends the text, after its street: "Hoofdweg 12 Nieuw-Vennep"); where
  -- names repeat, the one in the region of the units paged, then in its province, then the
  -- biggest. A place name that may be a word of the message counts only when no other place is
  -- named: one written in lower case ("Amstelveen hoofdweg"), and the common words above in
  -- capitals ("BR WINKEL ... HOORN"). The few abbreviations are tested as whole words of the text
  -- (as written: they are capitals); each found one is an index probe.
  spaced := ' ' || regexp_replace(t, '[^[:alnum:]]+', ' ', 'g') || ' ';
  select p.* into place
    from app_hidden.p2000_place_abbreviations a
    join app_hidden.place_names n on n.name = lower(a.place_name)
    join app_public.places p on p.uuid = n.place_uuid
   where strpos(spaced, ' ' || a.abbreviation || ' ') > 0
   order by p.population desc nulls last limit 1;
  weak_place := false;
  if place.uuid is null then
    -- Word n-grams of the text, preferred first: the one ending last, then the longest; each is
    -- one index probe into the place names.
    candidates := array(
      select array_to_string(words[i:i + n - 1], ' ')
        from generate_subscripts(words, 1) as i, generate_series(1, 4) as n
       -- not only digits, spaces and hyphens (translate: a regex per n-gram costs more)
       where i + n - 1 <= array_length(words, 1) and translate(array_to_string(words[i:i + n - 1], ' '), '0123456789 -', '') <> ''
       order by i + n desc, n desc);
    -- A weak find (a common word, or a name in lower case in a text that has capitals) names the
    -- place but does not overrule the region of the units paged.
    select p.uuid, p.name, p.province, p.latitude, p.longitude, p.region_uuid,
           c.name = any (common_words) or (t <> lower(t) and strpos(spaced, ' ' || c.name || ' ') > 0)
      into place.uuid, place.name, place.province, place.latitude, place.longitude, place.region_uuid, weak_place
      from unnest(candidates) with ordinality as c (name, position)
      join app_hidden.place_names n on n.name = c.name
      join app_public.places p on p.uuid = n.place_uuid
      left join app_public.p2000_regions g on g.uuid = r.region_uuid
     -- (lower case as written: the name is a whole word or words of the text as it stands)
     where not (c.name = any (common_words) and strpos(spaced, ' ' || c.name || ' ') > 0) and c.name <> all (not_places)
     order by strpos(spaced, ' ' || c.name || ' ') > 0 or c.name = any (common_words),
              c.position, (p.region_uuid = r.region_uuid) desc nulls last, (p.province = g.province) desc nulls last,
              p.population desc nulls last
     limit 1;
  end if;
  if place.uuid is not null then
    -- The place's safety region is the message's (the units paged may come from next door, or the
    -- capcode be a national one). A province with one safety region names the region where the
    -- place has none yet (Zeeland, Utrecht, Flevoland, ...).
    if place.region_uuid is not null and (not weak_place or r.region_uuid is null) then
      r.region_uuid := place.region_uuid;
    elsif r.region_uuid is null then
      select min(g.uuid::text)::uuid into r.region_uuid from app_public.p2000_regions g
       where g.province = place.province having count(*) = 1;
    end if;
    r.place_uuid := place.uuid;
    r.city := place.name;
    r.latitude := place.latitude;
    r.longitude := place.longitude;
    r.position_precision := 'place';
  end if;

  -- Position: the hectometre post of the road named (the streets migration's lookups, one index
  -- probe each), else the street named in the place, nearer the house number written right after
  -- it ("Wilhelminastraat 49 Venlo"; not a call number, not a postcode "3111 AB"), else the
  -- place's centre (above).
  if r.road is not null and r.hectometer is not null then
    select p.latitude, p.longitude, p.position_precision into found_latitude, found_longitude, found_precision
      from app_hidden.p2000_hectometre_position(r.road, r.hectometer, r.carriageway) p;
  end if;
  if found_latitude is null and r.street is not null and (r.place_uuid is not null or r.city is not null) then
    m := regexp_match(substr(t, strpos(lower(t), lower(r.street)) + length(r.street)),
                      '^\s*([1-9][0-9]{0,3})(?![0-9]|\s?[A-Z]{2}\M)');
    house_number := m[1]::integer;
    select p.latitude, p.longitude, p.position_precision into found_latitude, found_longitude, found_precision
      from app_hidden.p2000_street_position(r.street, r.city, r.place_uuid, house_number) p;
  end if;
  if found_latitude is not null then
    r.latitude := found_latitude;
    r.longitude := found_longitude;
    r.position_precision := found_precision;
  end if;

  -- Decided once, then looked up (inside the lookup the regexes would run for every category row).
  category_code := case
    when r.exercise_type <> 'none' then 'test'
    when words && array['vws', 'dienstverlening', 'postbezetting'] or strpos(padded, ' post bezetting ') > 0 then 'dienstverlening'
    when urgency_code in ('B1', 'B2') then 'besteld_vervoer'
    when words && array['oms', 'brandmeldinstallatie', 'am'] or strpos(padded, ' automatische melding ') > 0
      or strpos(padded, ' automatische brandmelding ') > 0 or strpos(padded, ' automatisch brandalarm ') > 0 then 'automatisch_alarm'
    when words && array['gaslek', 'gaslekkage', 'gaslucht', 'ogs'] or strpos(padded, ' gevaarlijke stof') > 0 then 'gevaarlijke_stoffen'
    when words && array['waterongeval', 'ijs'] or strpos(padded, ' te water ') > 0 then 'waterongeval'
    when words && array['ongeval', 'aanrijding', 'ovw', 'wegvervoer'] then 'ongeval'
    when words && array['br', 'rookmelder'] or exists (select 1 from unnest(words) w where w like '%brand') then 'brand'
    when words && array['hv', 'hulpverlening', 'liftopsluiting', 'dier', 'stormschade', 'wateroverlast', 'nacontrole', 'assistentie'] then 'hulpverlening'
    when left(urgency_code, 1) = 'A' or discipline_name = 'Ambulance' then 'medisch'
    when words && array['klaarliggen', 'info', 'informatie'] or strpos(padded, ' contact meldkamer ') > 0 then 'informatie'
  end;
  select c.uuid into r.category_uuid from app_public.p2000_categories c where c.code = category_code;

  -- Incident number: after bon/rit/icnum, or a trailing 5-8 digit number (not for the fire
  -- brigade, whose texts end in call numbers).
  m := regexp_match(t, '\m(?:bon|rit|icnum|incident|incidentnummer)\s*:?\s*([0-9]{4,8})\M', 'i');
  r.incident_number := coalesce(m[1],
    case when discipline_name is distinct from 'Brandweer' then (regexp_match(t, '\m([0-9]{5,8})$'))[1] end);

  -- Text without what differs between retransmissions of one incident, for grouping: the body
  -- (without the leading urgency and a "Herhaalde alarmering" before it), talkgroups, numbers.
  r.normalized_text := btrim(regexp_replace(regexp_replace(regexp_replace(lower(body),
    '\mb[a-z]{2}-[0-9]{2}\M', ' ', 'g'),
    '\m[0-9]{4,}\M|\m(bon|rit|icnum)\M|[[:punct:]]', ' ', 'g'),
    '\s+', ' ', 'g'));
  return r;
end;
$function$;
comment on function app_hidden.p2000_enrich(message text, capcode_names text[]) is 'Urgency, discipline, region, place, address, road, GRIP, exercise, category, incident number and grouping text of a message, read as a dispatcher reads it: the priority wherever the text gives it, the discipline the text names (a fire talkgroup, "ambu") before the capcodes'', and the region of the place the text names (app_public.places.region_uuid) before the capcodes'' and call numbers''. docs/p2000.md#enrichment-fields-of-p2000message says how each field is derived.';

-- Re-enriching stored messages ---------------------------------------------------------------------

create or replace function app_private.reenrich_p2000_messages(after_uuid uuid, batch_size integer default 5000,
    out last_uuid uuid, out scanned integer, out changed integer)
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  -- Every column the enrichment writes: the attributes of app_hidden.p2000_enrichment that
  -- messages have (a field added to the enrichment is re-enriched without a change here).
  columns text[] := array(
    select a.attname::text from pg_catalog.pg_attribute a
     where a.attrelid = 'app_hidden.p2000_enrichment'::regclass and a.attnum > 0 and not a.attisdropped
       and exists (select 1 from pg_catalog.pg_attribute c
                    where c.attrelid = 'app_public.p2000_messages'::regclass and c.attname = a.attname and not c.attisdropped)
     order by a.attnum);
begin
  if batch_size is null or batch_size < 1 then
    raise exception 'batch_size must be at least 1 (got %).', batch_size using errcode = 'XINPT';
  end if;
  -- One batch in uuid order after the cursor: enriched once each (materialized: the fields of an
  -- inlined function result would call it once per field), and only the rows whose enrichment
  -- differs are updated, so the roll-up triggers see those alone.
  execute format($f$
    with batch as materialized (
      select m.uuid, app_hidden.p2000_enrich(m.message, m.capcode_names) as e
        from app_public.p2000_messages m
       where $1 is null or m.uuid > $1
       order by m.uuid limit $2
    ), updated as (
      update app_public.p2000_messages m set (%1$s) = (%2$s)
        from batch b
       where m.uuid = b.uuid and (%3$s) is distinct from (%2$s)
      returning 1
    )
    select (select b.uuid from batch b order by b.uuid desc limit 1), (select count(*)::integer from batch),
           (select count(*)::integer from updated)$f$,
    (select string_agg(format('%I', c), ', ') from unnest(columns) c),
    (select string_agg(format('(b.e).%I', c), ', ') from unnest(columns) c),
    (select string_agg(format('m.%I', c), ', ') from unnest(columns) c))
  into last_uuid, scanned, changed
  using after_uuid, batch_size;
  last_uuid := coalesce(last_uuid, after_uuid);
end;
$$;
comment on function app_private.reenrich_p2000_messages(uuid, integer) is 'Enriches up to batch_size stored messages again (uuid order, after after_uuid; null starts at the first) with the current app_hidden.p2000_enrich, and updates the ones whose enrichment changed, so that only their roll-ups move. Returns the cursor for the next batch (last_uuid), how many were read and how many changed. `npm run p2000:reenrich` (lib/p2000/reenrich.ts) calls it batch after batch, each in its own short transaction; dossiers are kept as they are.';

-- Statistics list only the keys that have messages ------------------------------------------------

-- A roll-up row whose messages moved elsewhere (a re-enriched region, a DBA's update) stays with
-- 0 messages: the statistics leave such keys out instead of listing them with a count of 0.

CREATE OR REPLACE FUNCTION app_hidden.p2000_daily_counts_by(since date, until date, dimension text)
 RETURNS app_public.p2000_count[]
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select coalesce(array_agg(row(x.key, x.name, x.n)::app_public.p2000_count order by x.n desc, x.key), '{}')
    from (select case d.dimension when 'discipline' then d.key when 'region' then g.number when 'urgency' then u.code
                                  when 'category' then c.code else d.key end as key,
                 coalesce(ds.name, g.name, u.name, c.name, d.key) as name,
                 sum(d.messages)::integer as n
            from app_hidden.p2000_daily_counts d
            left join app_public.p2000_disciplines ds on d.dimension = 'discipline' and ds.uuid::text = d.key
            left join app_public.p2000_regions g on d.dimension = 'region' and g.uuid::text = d.key
            left join app_public.p2000_urgencies u on d.dimension = 'urgency' and u.uuid::text = d.key
            left join app_public.p2000_categories c on d.dimension = 'category' and c.uuid::text = d.key
           where d.day >= since and d.day < until and d.exercise_type = 'none' and d.dimension = p2000_daily_counts_by.dimension
           group by 1, 2
          having sum(d.messages) <> 0) x
$function$;


CREATE OR REPLACE FUNCTION app_public.p2000_statistics(period app_public.p2000_statistics_period DEFAULT 'LAST_7_DAYS'::app_public.p2000_statistics_period)
 RETURNS app_public.p2000_statistics
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  result app_public.p2000_statistics;
  today date := (now() at time zone 'Europe/Amsterdam')::date;
  first_day date;
begin
  result.period := coalesce(period, 'LAST_7_DAYS');
  result."to" := now();
  if result.period = 'LAST_24_HOURS' then
    -- A rolling day: one pass over the hourly counts, grouped by each dimension at once.
    result."from" := now() - interval '24 hours';
    with counts as (
      select h.discipline_uuid, h.region_uuid, h.urgency_uuid, h.category_uuid,
             extract(hour from h.hour at time zone 'Europe/Amsterdam')::integer as local_hour,
             grouping(h.discipline_uuid, h.region_uuid, h.urgency_uuid, h.category_uuid,
                      extract(hour from h.hour at time zone 'Europe/Amsterdam')::integer) as set_id,
             sum(h.messages)::integer as n
        from app_hidden.p2000_hourly_counts h
       where h.hour >= date_trunc('hour', result."from") and h.exercise_type = 'none'
       group by grouping sets ((), (h.discipline_uuid), (h.region_uuid), (h.urgency_uuid), (h.category_uuid),
                               (extract(hour from h.hour at time zone 'Europe/Amsterdam')::integer))
    )
    select coalesce((select c.n from counts c where c.set_id = 31), 0),
           coalesce((select array_agg(row(d.uuid::text, d.name, c.n)::app_public.p2000_count order by c.n desc, d.name)
                       from counts c join app_public.p2000_disciplines d on d.uuid = c.discipline_uuid where c.set_id = 15 and c.n <> 0), '{}'),
           coalesce((select array_agg(row(g.number, g.name, c.n)::app_public.p2000_count order by c.n desc, g.number)
                       from counts c join app_public.p2000_regions g on g.uuid = c.region_uuid where c.set_id = 23 and c.n <> 0), '{}'),
           coalesce((select array_agg(row(u.code, u.name, c.n)::app_public.p2000_count order by c.n desc, u.code)
                       from counts c join app_public.p2000_urgencies u on u.uuid = c.urgency_uuid where c.set_id = 27 and c.n <> 0), '{}'),
           coalesce((select array_agg(row(x.code, x.name, c.n)::app_public.p2000_count order by c.n desc, x.code)
                       from counts c join app_public.p2000_categories x on x.uuid = c.category_uuid where c.set_id = 29 and c.n <> 0), '{}'),
           (select c.local_hour from counts c where c.set_id = 30 and c.n > 0 order by c.n desc, c.local_hour limit 1)
      into result.total, result.by_discipline, result.by_region, result.by_urgency, result.by_category, result.busiest_hour;
    return result;
  end if;
  -- Whole Dutch days up to and including today, from the daily roll-up (a year is a few thousand
  -- rows); the busiest hour from the hourly urgency counts.
  first_day := case result.period
    when 'LAST_7_DAYS' then today - 6
    when 'LAST_30_DAYS' then today - 29
    when 'THIS_YEAR' then date_trunc('year', today)::date
  end;
  result."from" := first_day::timestamp at time zone 'Europe/Amsterdam';
  select coalesce(sum(d.messages), 0)::integer into result.total from app_hidden.p2000_daily_counts d
   where d.day >= first_day and d.exercise_type = 'none' and d.dimension = 'total';
  result.by_discipline := app_hidden.p2000_daily_counts_by(first_day, 'infinity', 'discipline');
  result.by_region := app_hidden.p2000_daily_counts_by(first_day, 'infinity', 'region');
  result.by_urgency := app_hidden.p2000_daily_counts_by(first_day, 'infinity', 'urgency');
  result.by_category := app_hidden.p2000_daily_counts_by(first_day, 'infinity', 'category');
  select extract(hour from h.hour at time zone 'Europe/Amsterdam')::integer into result.busiest_hour
    from app_hidden.p2000_hourly_urgency_counts h
   where h.hour >= result."from" and h.exercise_type = 'none'
   group by 1 having sum(h.messages) > 0 order by sum(h.messages) desc, 1 limit 1;
  return result;
end;
$function$;
