--! Previous: sha1:b818255a72f4820d3134ae5800f26b2c3b2dbfaf
--! Hash: sha1:afc9cb1c50819f1b0d715a72c901a567006bdb08
--! Message: Monitor areas: a named area matched by key, the message's areas looked up once

-- Issue 45, matching a named area by key: a message's position is looked up once in the named areas
-- (app_hidden.point_area_keys: the gemeente, woonplaats, postcode area, province and safety region
-- holding it, through a GiST index of their boxes), and a monitor naming one of them is found by that
-- key and matched by it, as capcodes are. Migration 000092 kept every named area's outlines in the
-- monitor's criteria and tested the point against them for each candidate: 30 ms a message at
-- 100,000 monitors (bench:monitors). Circles and drawn polygons keep their boxes and their test.

alter table app_public.named_areas add column if not exists bounds box generated always as (box(outline)) stored;
create index if not exists named_areas_bounds_idx on app_public.named_areas using gist (bounds);

create or replace function app_hidden.point_area_keys(latitude double precision, longitude double precision) returns text[]
  language sql stable parallel safe
as $$
  select coalesce(array_agg(distinct n.kind || ':' || n.code), '{}')
    from app_public.named_areas n
   where n.bounds @> box(point(longitude, latitude), point(longitude, latitude))
     and n.outline @> point(longitude, latitude)
     and not exists (select 1 from unnest(n.holes) h where h @> point(longitude, latitude))
$$;
comment on function app_hidden.point_area_keys(latitude double precision, longitude double precision) is 'The named areas a point lies in, as kind:code keys (gemeente:GM0363, woonplaats:WP3594, postcode:1012, province:noord-holland, region:13): inside a part''s outline and none of its holes (a point on the boundary is inside), found through the GiST index of the parts'' boxes.';

do $$
begin
  if not exists (select 1 from pg_attribute where attrelid = 'app_hidden.area_shapes'::regclass and attname = 'keys') then
    alter type app_hidden.area_shapes add attribute keys text[];
  end if;
end;
$$;
comment on type app_hidden.area_shapes is 'A monitor''s areas in matchable form: its named areas as kind:code keys, the outer rings of its drawn polygons (outlines; holes and hole_parts stay empty, as a drawn polygon has none), its circles as latitude, longitude, radius (km) triples, and a box around each polygon and circle for the index.';

alter table app_hidden.p2000_monitor_criteria add column if not exists area_keys text[] not null default '{}';

create or replace function app_hidden.area_shapes(areas jsonb) returns app_hidden.area_shapes
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  shapes app_hidden.area_shapes := row('{}', '{}', '{}', '{}', '{}', '{}');
  area jsonb;
  latitude double precision;
  longitude double precision;
  radius double precision;
begin
  for area in select a from jsonb_array_elements(areas) a loop
    if area->>'type' = 'circle' then
      latitude := (area->>'latitude')::double precision;
      longitude := (area->>'longitude')::double precision;
      radius := (area->>'radius')::double precision;
      shapes.circles := shapes.circles || array[latitude, longitude, radius];
      -- A little wider than the circle: the box only chooses candidates, the distance decides.
      shapes.boxes := shapes.boxes || box(
        point(longitude - radius / (111.0 * greatest(cos(radians(latitude)), 0.01)), latitude - radius / 111.0),
        point(longitude + radius / (111.0 * greatest(cos(radians(latitude)), 0.01)), latitude + radius / 111.0));
    elsif area->>'type' = 'polygon' then
      shapes.outlines := shapes.outlines || app_hidden.geojson_ring(area->'coordinates'->0);
      shapes.boxes := shapes.boxes || box(app_hidden.geojson_ring(area->'coordinates'->0));
    else
      -- A named area is a key: the message's own areas (app_hidden.point_area_keys) hold it or not.
      shapes.keys := shapes.keys || ((area->>'type') || ':' || (area->>'code'));
    end if;
  end loop;
  return shapes;
end;
$$;
comment on function app_hidden.area_shapes(areas jsonb) is 'The shapes of a monitor''s checked query.areas (app_hidden.checked_monitor_areas): named areas as keys, circles and polygons as shapes with their boxes.';

CREATE OR REPLACE FUNCTION app_hidden.p2000_criteria(mo app_public.monitors)
 RETURNS app_hidden.p2000_monitor_criteria
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  c app_hidden.p2000_monitor_criteria;
  lat_span integer;
  lon_span integer;
  shapes app_hidden.area_shapes;
begin
  c.monitor_uuid := mo.uuid;
  c.capcode_names := array(select jsonb_array_elements_text(coalesce(mo.query->'capcodes', '[]')));
  c.region_uuids := array(select g.uuid from app_public.p2000_regions g where g.number in (select jsonb_array_elements_text(coalesce(mo.query->'regions', '[]'))));
  c.discipline_uuids := array(select d.uuid from app_public.p2000_disciplines d where d.name in (select jsonb_array_elements_text(coalesce(mo.query->'disciplines', '[]'))));
  c.urgency_uuids := array(select u.uuid from app_public.p2000_urgencies u where u.code in (select jsonb_array_elements_text(coalesce(mo.query->'urgencies', '[]'))));
  c.keyword_patterns := array(select app_hidden.contains_pattern(k) from jsonb_array_elements_text(coalesce(mo.query->'keywords', '[]')) k);
  c.exclude_patterns := array(select app_hidden.contains_pattern(k) from jsonb_array_elements_text(coalesce(mo.query->'excludeKeywords', '[]')) k);
  c.category_uuids := array(select k.uuid from app_public.p2000_categories k where k.code in (select jsonb_array_elements_text(coalesce(mo.query->'categories', '[]'))));
  c.exclude_category_uuids := array(select k.uuid from app_public.p2000_categories k where k.code in (select jsonb_array_elements_text(coalesce(mo.query->'excludeCategories', '[]'))));
  c.include_exercises := coalesce((mo.query->>'includeExercises')::boolean, false);
  shapes := app_hidden.area_shapes(coalesce(mo.query->'areas', '[]'));
  c.area_count := jsonb_array_length(coalesce(mo.query->'areas', '[]'));
  c.area_outlines := shapes.outlines;
  c.area_holes := shapes.holes;
  c.area_hole_parts := shapes.hole_parts;
  c.area_circles := shapes.circles;
  c.area_boxes := shapes.boxes;
  c.area_keys := shapes.keys;
  if mo.radius is not null then
    c.latitude := mo.latitude;
    c.longitude := mo.longitude;
    c.radius := mo.radius;
    lat_span := ceil(mo.radius / 111.0 / 0.1);
    lon_span := ceil(mo.radius / (111.0 * greatest(cos(radians(mo.latitude)), 0.01)) / 0.15);
  end if;
  c.anchor_keys := case
    when cardinality(c.capcode_names) > 0 then array(select 'c:' || n from unnest(c.capcode_names) n)
    -- Its named areas as keys a message in them probes with; its circles and polygons are found
    -- through their boxes (app_hidden.p2000_monitor_area_boxes).
    when c.area_count > 0 then array(select 'a:' || k from unnest(c.area_keys) k)
    when c.radius is not null and (2 * lat_span + 1) * (2 * lon_span + 1) <= 400 then array(
      select app_hidden.geo_cell(mo.latitude + dy * 0.1, mo.longitude + dx * 0.15)
        from generate_series(-lat_span, lat_span) dy, generate_series(-lon_span, lon_span) dx)
    when cardinality(c.region_uuids) > 0 then array(select 'r:' || r from unnest(c.region_uuids) r)
    when cardinality(c.category_uuids) > 0 then array(select 'k:' || k from unnest(c.category_uuids) k)
    when cardinality(c.discipline_uuids) > 0 then array(select 'd:' || d from unnest(c.discipline_uuids) d)
    else array['*']
  end;
  return c;
end;
$function$;

CREATE OR REPLACE FUNCTION app_hidden.p2000_criteria_match(c app_hidden.p2000_monitor_criteria, m app_public.p2000_messages)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select (cardinality(c.capcode_names) = 0 or c.capcode_names && m.capcode_names)
     and (cardinality(c.region_uuids) = 0 or m.region_uuid = any (c.region_uuids))
     and (cardinality(c.discipline_uuids) = 0 or m.discipline_uuid = any (c.discipline_uuids))
     and (cardinality(c.urgency_uuids) = 0 or m.urgency_uuid = any (c.urgency_uuids))
     and (cardinality(c.category_uuids) = 0 or m.category_uuid = any (c.category_uuids))
     and (cardinality(c.exclude_category_uuids) = 0 or m.category_uuid is null or m.category_uuid <> all (c.exclude_category_uuids))
     and (c.include_exercises or m.exercise_type = 'none')
     and (c.radius is null or (m.latitude is not null
          and app_hidden.distance_km(c.latitude, c.longitude, m.latitude, m.longitude) <= c.radius))
     and (c.area_count = 0 or (m.latitude is not null
          and (case when cardinality(c.area_keys) > 0 then c.area_keys && app_hidden.point_area_keys(m.latitude, m.longitude) else false end
               or app_hidden.areas_contain(c.area_outlines, c.area_holes, c.area_hole_parts, c.area_circles, m.latitude, m.longitude))))
     and (cardinality(c.keyword_patterns) = 0 or pg_catalog.lower(m.message) like any (c.keyword_patterns))
     and (cardinality(c.exclude_patterns) = 0 or not pg_catalog.lower(m.message) like any (c.exclude_patterns))
$function$;

CREATE OR REPLACE FUNCTION app_private.match_p2000_message(message_uuid uuid)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  m app_public.p2000_messages;
  probe text[];
  matched uuid[];
  queued integer;
begin
  select * into m from app_public.p2000_messages x where x.uuid = match_p2000_message.message_uuid;
  if m.uuid is null then
    return 0;
  end if;
  probe := array['*'] || array(select 'c:' || n from unnest(m.capcode_names) n)
    || case when m.latitude is not null then array[app_hidden.geo_cell(m.latitude, m.longitude)] else '{}' end
    || case when m.region_uuid is not null then array['r:' || m.region_uuid] else '{}' end
    || case when m.category_uuid is not null then array['k:' || m.category_uuid] else '{}' end
    || case when m.discipline_uuid is not null then array['d:' || m.discipline_uuid] else '{}' end
    || case when m.latitude is not null then array(select 'a:' || k from unnest(app_hidden.point_area_keys(m.latitude, m.longitude)) k) else '{}' end;
  -- Candidates by index (anchor keys, and the boxes of monitors' areas), then every criterion in full.
  matched := array(
    select c.monitor_uuid from app_hidden.p2000_monitor_criteria c
     where c.monitor_uuid in (
             select x.monitor_uuid from app_hidden.p2000_monitor_criteria x where x.anchor_keys && probe
             union
             select b.monitor_uuid from app_hidden.p2000_monitor_area_boxes b
              where m.latitude is not null
                and b.area @> box(point(m.longitude, m.latitude), point(m.longitude, m.latitude)))
       and app_hidden.p2000_criteria_match(c, m)
       and not exists (select 1 from app_hidden.monitor_matches mm where mm.monitor_uuid = c.monitor_uuid and mm.message_uuid = m.uuid)
     order by c.monitor_uuid);
  if cardinality(matched) = 0 then
    return 0;
  end if;
  -- Throttles count earlier matches of the same monitor: one matcher per such monitor at a time,
  -- locked in a statement of its own so the next statement's snapshot sees what the last holder
  -- committed.
  perform pg_advisory_xact_lock(hashtext('monitor:' || mo.uuid))
     from app_public.monitors mo where mo.uuid = any (matched) and mo.notification_rules <> '{}' order by mo.uuid;
  with new_matches as (
    insert into app_hidden.monitor_matches (monitor_uuid, message_uuid, dossier_uuid, sended, suppressed_reason)
    select mo.uuid, m.uuid, m.dossier_uuid, m.sended,
           case when mo.notification_rules <> '{}' then app_hidden.monitor_suppression(mo, m) end
      from app_public.monitors mo where mo.uuid = any (matched)
    on conflict do nothing
    returning monitor_uuid, suppressed_reason
  ), new_notifications as (
    insert into app_private.notifications (monitor_uuid, channel_uuid, message_uuid, dossier_uuid)
    select nm.monitor_uuid, mc.channel_uuid, m.uuid, m.dossier_uuid
      from new_matches nm join app_hidden.monitor_channels mc on mc.monitor_uuid = nm.monitor_uuid
     where nm.suppressed_reason is null
    on conflict do nothing
    returning uuid
  )
  select count(*)::integer into queued from graphile_worker.add_jobs(array(
    select row('notifications__deliver', json_build_object('uuid', n.uuid), null, null, 6, 'notification:' || n.uuid, null, null)::graphile_worker.job_spec
      from new_notifications n));
  return queued;
end;
$function$;

-- The monitors with named areas again, their outlines now keys.
select app_hidden.store_p2000_criteria(m) from app_public.monitors m where m.query ? 'areas';
