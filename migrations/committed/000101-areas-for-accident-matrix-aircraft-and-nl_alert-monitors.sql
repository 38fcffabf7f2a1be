--! Previous: sha1:5e2864f8e2c7615888dbda777f9669efd781d6c2
--! Hash: sha1:226bd4b5226f0b2b6eaa9d22ab55585e7c3e1c46
--! Message: Areas for accident, matrix, aircraft and nl_alert monitors

-- Issue 45, areas for every monitor type with a position: accident (traffic incidents), matrix
-- (jams), aircraft (take-offs, landings, passes overhead) and nl_alert take query.areas as p2000 does
-- (circles, drawn polygons, named areas: app_hidden.checked_monitor_areas, migrations 000092-000094).
--
-- An item with a position (an incident, a jam, a take-off or landing, a route point) lies in a
-- monitor's areas by one definition, app_hidden.areas_hold: inside the box around all the areas
-- first (cheap: most items are far away), then in a named area (by key, app_hidden.point_area_keys),
-- a drawn polygon or a circle. Each type keeps its areas in its criteria row (built by the same
-- function for a saved monitor, an unsaved one in monitorPreview and the *ForMonitor reads), and the
-- type's one match definition tests them; with a location/radius both must hold.
--
-- An NL-Alert has no position but areas (polygons): it reaches a monitor when one of its polygons
-- meets one of the monitor's areas: overlaps or touches a drawn polygon, a circle (as the polygon of
-- 32 corners app_hidden.circle_polygon makes, as for location/radius), or a named area's outline
-- without lying wholly in one of its holes. The named areas an alert meets are computed once, when it
-- is stored (nl_alerts.area_keys, as its region_numbers), so matching compares keys. For nl_alert,
-- areas are one more place a monitor listens to: circle, point, regions or areas, any is enough.

------------------------------------------------------------------------------------------------
-- Shared: the areas' bounds, and the one definition of "a position in the areas".

do $$
begin
  if not exists (select 1 from pg_attribute where attrelid = 'app_hidden.area_shapes'::regclass and attname = 'bounds' and not attisdropped) then
    alter type app_hidden.area_shapes add attribute bounds box;
  end if;
end;
$$;
comment on type app_hidden.area_shapes is 'A monitor''s areas in matchable form: its named areas as kind:code keys, the outer rings of its drawn polygons (outlines; holes and hole_parts stay empty, as a drawn polygon has none), its circles as latitude, longitude, radius (km) triples, a box around each polygon and circle for the index, and bounds: one box around all of them, the named areas'' parts included (null when none has a place), which app_hidden.areas_hold tests first.';

create or replace function app_hidden.circle_box(latitude double precision, longitude double precision, radius double precision) returns box
  language sql immutable parallel safe strict
as $$
  -- A little wider than the circle (111.0 km a degree where app_hidden.distance_km's earth has
  -- 111.195): the box only chooses candidates, the distance decides.
  select pg_catalog.box(
    pg_catalog.point(longitude - radius / (111.0 * greatest(pg_catalog.cos(pg_catalog.radians(latitude)), 0.01)), latitude - radius / 111.0),
    pg_catalog.point(longitude + radius / (111.0 * greatest(pg_catalog.cos(pg_catalog.radians(latitude)), 0.01)), latitude + radius / 111.0))
$$;
comment on function app_hidden.circle_box(latitude double precision, longitude double precision, radius double precision) is 'A box (x = longitude, y = latitude) a little wider than a circle of radius km: the candidates'' box of a circle, never its test (app_hidden.distance_km decides).';

create or replace function app_hidden.bounds_of(boxes box[]) returns box
  language plpgsql immutable parallel safe
as $$
declare
  result box;
  b box;
begin
  foreach b in array coalesce(boxes, '{}') loop
    if b is not null then
      result := case when result is null then b else pg_catalog.bound_box(result, b) end;
    end if;
  end loop;
  return result;
end;
$$;
comment on function app_hidden.bounds_of(boxes box[]) is 'The smallest box around all the given boxes (nulls left out); null for none.';

create or replace function app_hidden.area_shapes(areas jsonb) returns app_hidden.area_shapes
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  shapes app_hidden.area_shapes := row('{}', '{}', '{}', '{}', '{}', '{}', null);
  area jsonb;
  latitude double precision;
  longitude double precision;
  radius double precision;
  named box[] := '{}';
begin
  for area in select a from jsonb_array_elements(areas) a loop
    if area->>'type' = 'circle' then
      latitude := (area->>'latitude')::double precision;
      longitude := (area->>'longitude')::double precision;
      radius := (area->>'radius')::double precision;
      shapes.circles := shapes.circles || array[latitude, longitude, radius];
      shapes.boxes := shapes.boxes || app_hidden.circle_box(latitude, longitude, radius);
    elsif area->>'type' = 'polygon' then
      shapes.outlines := shapes.outlines || app_hidden.geojson_ring(area->'coordinates'->0);
      shapes.boxes := shapes.boxes || box(app_hidden.geojson_ring(area->'coordinates'->0));
    else
      -- A named area is a key: the item's own areas (app_hidden.point_area_keys) hold it or not.
      -- Its parts' boxes go into the bounds only.
      shapes.keys := shapes.keys || ((area->>'type') || ':' || (area->>'code'));
      named := named || array(select n.bounds from app_public.named_areas n
                               where n.kind = area->>'type' and n.code = area->>'code' order by n.part);
    end if;
  end loop;
  shapes.bounds := app_hidden.bounds_of(shapes.boxes || named);
  return shapes;
end;
$$;
comment on function app_hidden.area_shapes(areas jsonb) is 'The shapes of a monitor''s checked query.areas (app_hidden.checked_monitor_areas): named areas as keys, circles and polygons as shapes with their boxes, and the bounds around all of them (named areas'' parts as app_public.named_areas holds them now; a boundary file loaded again makes the criteria again).';

create or replace function app_hidden.monitor_area_shapes(query jsonb) returns app_hidden.area_shapes
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case when jsonb_typeof(query->'areas') = 'array' and jsonb_array_length(query->'areas') > 0
              then app_hidden.area_shapes(query->'areas') end
$$;
comment on function app_hidden.monitor_area_shapes(query jsonb) is 'A monitor''s query.areas in matchable form (app_hidden.area_shapes), or null when it has none: null means "no area criterion", so test it with IS NULL on the whole value (a value with null bounds is not null).';

create or replace function app_hidden.areas_hold(areas app_hidden.area_shapes, latitude double precision, longitude double precision) returns boolean
  language sql stable parallel safe
as $$
  select case
    when latitude is null or longitude is null or (areas).bounds is null then false
    -- The box around every area first: most items are nowhere near.
    when not ((areas).bounds operator(pg_catalog.@>) pg_catalog.point(longitude, latitude)) then false
    else (pg_catalog.cardinality((areas).keys) > 0
          and (areas).keys operator(pg_catalog.&&) app_hidden.point_area_keys(latitude, longitude))
         or app_hidden.areas_contain((areas).outlines, (areas).holes, (areas).hole_parts, (areas).circles, latitude, longitude)
  end
$$;
comment on function app_hidden.areas_hold(areas app_hidden.area_shapes, latitude double precision, longitude double precision) is 'Whether a position lies in any of a monitor''s areas: inside their bounds (a box test that turns most items away at once), then in one of its named areas (the point''s own areas by app_hidden.point_area_keys: inside a part''s outline and none of its holes, the border inside), inside a drawn polygon (the border inside) or within a circle (great-circle distance, the border inside). No position is in no area. The one definition for accident, matrix and aircraft monitors, live and in monitorPreview and the *ForMonitor reads.';

------------------------------------------------------------------------------------------------
-- The check of query.areas (migration 000093) let a circle without a radius, latitude or longitude,
-- and a polygon without coordinates, through: compared with <>, a missing field's jsonb_typeof is
-- null, and so was the whole condition. Refused now, as a wrong field is.

create or replace function app_hidden.checked_monitor_areas(areas jsonb) returns jsonb
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  result jsonb := '[]';
  area jsonb;
  i integer := -1;
  area_kind text;
  ring jsonb;
  points integer;
  total_points integer := 0;
  wanted text;
  found_code text;
  found_name text;
  matches integer;
  choices text;
begin
  if jsonb_typeof(areas) <> 'array' then
    raise exception 'query.areas must be a list of areas ({"type": "circle" | "polygon" | "gemeente" | "woonplaats" | "postcode" | "province" | "region", …}).' using errcode = 'XINPT';
  end if;
  if jsonb_array_length(areas) > 20 then
    raise exception 'query.areas has more than 20 areas.' using errcode = 'XINPT';
  end if;
  for area in select a from jsonb_array_elements(areas) a loop
    i := i + 1;
    area_kind := case when jsonb_typeof(area) = 'object' then area->>'type' end;
    if area_kind is null or area_kind not in ('circle', 'polygon', 'gemeente', 'woonplaats', 'postcode', 'province', 'region') then
      raise exception 'query.areas[%]: type must be one of circle, polygon, gemeente, woonplaats, postcode, province, region.', i using errcode = 'XINPT';
    end if;
    if area_kind = 'circle' then
      if jsonb_typeof(area->'latitude') is distinct from 'number' or jsonb_typeof(area->'longitude') is distinct from 'number'
         or (area->>'latitude')::double precision not between 50.7 and 53.7 or (area->>'longitude')::double precision not between 3.2 and 7.3 then
        raise exception 'query.areas[%]: a circle needs a latitude (50.7-53.7) and longitude (3.2-7.3) in the Netherlands.', i using errcode = 'XINPT';
      end if;
      if jsonb_typeof(area->'radius') is distinct from 'number' or (area->>'radius')::double precision <= 0 or (area->>'radius')::double precision > 250 then
        raise exception 'query.areas[%]: a circle''s radius is in kilometres, more than 0 and at most 250.', i using errcode = 'XINPT';
      end if;
      result := result || jsonb_build_array(jsonb_build_object('type', 'circle', 'latitude', area->'latitude', 'longitude', area->'longitude', 'radius', area->'radius'));
    elsif area_kind = 'polygon' then
      -- GeoJSON Polygon coordinates with one ring: [[[longitude, latitude], …]].
      if jsonb_typeof(area->'coordinates') is distinct from 'array' or jsonb_array_length(area->'coordinates') <> 1
         or jsonb_typeof(area->'coordinates'->0) is distinct from 'array' then
        raise exception 'query.areas[%]: a polygon''s coordinates are GeoJSON''s with one ring: [[[longitude, latitude], …]] (no holes).', i using errcode = 'XINPT';
      end if;
      ring := area->'coordinates'->0;
      points := jsonb_array_length(ring);
      total_points := total_points + points;
      if exists (select 1 from jsonb_array_elements(ring) p
                  where jsonb_typeof(p) <> 'array' or jsonb_array_length(p) <> 2
                     or jsonb_typeof(p->0) <> 'number' or jsonb_typeof(p->1) <> 'number') then
        raise exception 'query.areas[%]: every point of a polygon is [longitude, latitude].', i using errcode = 'XINPT';
      end if;
      if points < 4 or points > 2000 then
        raise exception 'query.areas[%]: a polygon has 4 to 2000 points (the first repeated as the last).', i using errcode = 'XINPT';
      end if;
      if ring->0 <> ring->(points - 1) then
        raise exception 'query.areas[%]: a polygon must be closed: its last point the same as its first.', i using errcode = 'XINPT';
      end if;
      if exists (select 1 from jsonb_array_elements(ring) p
                  where (p->>0)::double precision not between 3.2 and 7.3 or (p->>1)::double precision not between 50.7 and 53.7) then
        raise exception 'query.areas[%]: a polygon must lie in the Netherlands (longitude 3.2-7.3, latitude 50.7-53.7).', i using errcode = 'XINPT';
      end if;
      if app_hidden.ring_crosses_itself(ring) then
        raise exception 'query.areas[%]: a polygon''s edges must not cross or touch each other.', i using errcode = 'XINPT';
      end if;
      result := result || jsonb_build_array(jsonb_build_object('type', 'polygon', 'coordinates', area->'coordinates'));
    else
      wanted := btrim(coalesce(area->>'code', area->>'name', ''));
      if wanted = '' then
        raise exception 'query.areas[%]: a % needs its code or name (areaChoices lists them).', i, area_kind using errcode = 'XINPT';
      end if;
      select count(distinct n.code), min(n.code), min(n.name),
             string_agg(distinct n.name || ' (' || n.code || coalesce(', ' || n.municipality, '') || ')', '; ')
        into matches, found_code, found_name, choices
        from app_public.named_areas n
       where n.kind = area_kind
         and (n.code = case area_kind when 'gemeente' then upper(wanted) when 'region' then lpad(wanted, 2, '0') else wanted end
              or (area ? 'name' and lower(n.name) = lower(wanted)
                  and (area->>'municipality' is null or n.municipality = upper(area->>'municipality'))));
      if matches = 0 and area_kind = 'region' then
        -- A safety region also by its slug, as query.regions takes it.
        select count(*), min(n.code), min(n.name) into matches, found_code, found_name
          from app_public.named_areas n join app_public.p2000_regions g on g.number = n.code
         where n.kind = 'region' and n.part = 1 and g.slug = lower(wanted);
      end if;
      if matches = 0 then
        raise exception 'query.areas[%]: no % "%" (areaChoices lists them).', i, area_kind, wanted using errcode = 'XINPT';
      end if;
      if matches > 1 then
        raise exception 'query.areas[%]: "%" is more than one %: give its code (%).', i, wanted, area_kind, choices using errcode = 'XINPT';
      end if;
      result := result || jsonb_build_array(jsonb_build_object('type', area_kind, 'code', found_code, 'name', found_name));
    end if;
  end loop;
  if total_points > 5000 then
    raise exception 'query.areas: the polygons have more than 5000 points together.' using errcode = 'XINPT';
  end if;
  return result;
end;
$$;
comment on function app_hidden.checked_monitor_areas(areas jsonb) is 'Checks query.areas and returns it normalised: at most 20 areas; a circle in the Netherlands with a radius of 0-250 km; a polygon of one closed ring of 4-2000 points inside the Netherlands'' bounds whose edges neither cross nor touch (5000 points in all); a named area by code or name, stored as {type, code, name} (a name shared by several woonplaatsen asks for the code, or a municipality). Every error names the area by its index. A missing field is refused as a wrong one is (is distinct from: compared with <>, a missing field''s null let the area through before migration 000099).';

------------------------------------------------------------------------------------------------
-- The query field.

insert into app_hidden.monitor_query_fields (monitor_type, field, kind, required, choices, description) values
  ('accident', 'areas', 'areas', false, null, 'Places, any of which an incident must lie in (at most 20; with a location and radius, inside the circle too): {"type": "circle", "latitude", "longitude", "radius" (km)}, {"type": "polygon", "coordinates": [[[longitude, latitude], …]]} (GeoJSON, one closed ring), or {"type": "gemeente" | "woonplaats" | "postcode" | "province" | "region", "code" or "name"} (areaChoices).'),
  ('matrix', 'areas', 'areas', false, null, 'Places, any of which a jam must lie in (at most 20): {"type": "circle", "latitude", "longitude", "radius" (km)}, {"type": "polygon", "coordinates": [[[longitude, latitude], …]]} (GeoJSON, one closed ring), or {"type": "gemeente" | "woonplaats" | "postcode" | "province" | "region", "code" or "name"} (areaChoices).'),
  ('aircraft', 'areas', 'areas', false, null, 'Places, any of which a take-off or landing must lie in, and whose entering by a flight is a pass overhead (at most 20; with a location and radius, inside the circle too): {"type": "circle", "latitude", "longitude", "radius" (km)}, {"type": "polygon", "coordinates": [[[longitude, latitude], …]]} (GeoJSON, one closed ring), or {"type": "gemeente" | "woonplaats" | "postcode" | "province" | "region", "code" or "name"} (areaChoices).'),
  ('nl_alert', 'areas', 'areas', false, null, 'Places an NL-Alert''s area must meet, any of them (at most 20; like regions and the circle, one more place the monitor listens to): {"type": "circle", "latitude", "longitude", "radius" (km)}, {"type": "polygon", "coordinates": [[[longitude, latitude], …]]} (GeoJSON, one closed ring), or {"type": "gemeente" | "woonplaats" | "postcode" | "province" | "region", "code" or "name"} (areaChoices). An alert meets an area when one of its polygons overlaps or touches it (a named area: its outline, not only its holes).')
on conflict (monitor_type, field) do update set kind = excluded.kind, description = excluded.description;

update app_public.monitor_types set description = 'Traffic incidents (accidents, breakdowns, unattended vehicles) near a location, in areas or on roads.' where name = 'accident';
update app_public.monitor_types set description = 'Trauma and police helicopters near a location or in areas.' where name = 'aircraft';
update app_public.monitor_types set description = 'Traffic jams on roads or in areas, from a minimum delay.' where name = 'matrix';
update app_public.monitor_types set description = 'NL-Alerts whose area meets a circle, covers a point, or meets chosen areas or safety regions.' where name = 'nl_alert';

------------------------------------------------------------------------------------------------
-- accident: traffic incidents.

alter table app_hidden.traffic_monitor_criteria add column if not exists areas app_hidden.area_shapes;
comment on table app_hidden.traffic_monitor_criteria is 'Active accident monitors in matchable form (incident types, roads, circle, areas). A trigger on monitors keeps it, using app_hidden.accident_criteria_of. Its row type is also what app_hidden.traffic_incident_passes takes, so live matching, trafficIncidentsForMonitor and monitorPreview apply one definition.';
comment on column app_hidden.traffic_monitor_criteria.areas is 'query.areas in matchable form (app_hidden.monitor_area_shapes); null without areas.';

create or replace function app_hidden.accident_criteria_of(mo app_public.monitors) returns app_hidden.traffic_monitor_criteria
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(mo.uuid, array(select lower(x) from jsonb_array_elements_text(coalesce(mo.query->'types', '[]')) x),
             array(select upper(regexp_replace(x, '\s', '', 'g')) from jsonb_array_elements_text(coalesce(mo.query->'roads', '[]')) x),
             mo.latitude, mo.longitude, mo.radius, app_hidden.monitor_area_shapes(mo.query))::app_hidden.traffic_monitor_criteria
$$;
comment on function app_hidden.accident_criteria_of(mo app_public.monitors) is 'An accident monitor''s criteria as its query and location state them (types in lower case, roads in upper case without spaces, areas in matchable form). It is one definition for the criteria trigger, trafficIncidentsForMonitor and monitorPreview.';

create or replace function app_hidden.traffic_incident_passes(c app_hidden.traffic_monitor_criteria, i app_public.traffic_incidents) returns boolean
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select (cardinality(c.types) = 0 or i.type = any (c.types))
     and (cardinality(c.roads) = 0 or i.road_number = any (c.roads))
     and (c.radius is null or (i.latitude is not null
          and app_hidden.distance_km(c.latitude, c.longitude, i.latitude, i.longitude) <= c.radius))
     and (c.areas is null or app_hidden.areas_hold(c.areas, i.latitude, i.longitude))
$$;
comment on function app_hidden.traffic_incident_passes(c app_hidden.traffic_monitor_criteria, i app_public.traffic_incidents) is 'Whether a traffic incident passes an accident monitor''s filters: its types, its roads, its circle and its areas (app_hidden.areas_hold, its bounds first). It is one definition for live matching, trafficIncidentsForMonitor and monitorPreview.';

create or replace function app_private.match_traffic_event(event_uuid uuid) returns integer
  language plpgsql
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
  i := app_hidden.traffic_event_incident(e, i);
  return app_private.notify_feed_event('traffic', e.uuid, array(
    select c.monitor_uuid from app_hidden.traffic_monitor_criteria c
     where app_hidden.traffic_incident_passes(c, i) order by c.monitor_uuid), app_hidden.traffic_notification_subject(e));
end;
$$;
comment on function app_private.match_traffic_event(event_uuid uuid) is 'The matcher of accident monitors (task monitors__match_traffic): an incident event matches the monitors whose types, roads, circle and areas the incident passes (app_hidden.traffic_incident_passes: cheap tests and the areas'' bounds before any outline), judged by the type the event was about, not what the incident became since. The rest is app_private.notify_feed_event, so a second run queues nothing.';

comment on function app_public.traffic_incidents_for_monitor(monitor app_public.monitor_ref, active boolean, first integer, page integer) is '@notNull
The incidents that pass an accident monitor''s types, roads, circle and areas (caller''s environment only), newest first.';

------------------------------------------------------------------------------------------------
-- matrix: traffic jams.

alter table app_hidden.matrix_monitor_criteria add column if not exists areas app_hidden.area_shapes;
comment on table app_hidden.matrix_monitor_criteria is 'Active matrix (traffic jam) monitors in matchable form: their roads normalised (A12), their minimum delay and their areas. A trigger on monitors keeps it (app_hidden.matrix_criteria_of), so matching a jam reads this small table and does not parse every monitor''s query.';
comment on column app_hidden.matrix_monitor_criteria.areas is 'query.areas in matchable form (app_hidden.monitor_area_shapes); null without areas.';

create or replace function app_hidden.matrix_criteria_of(mo app_public.monitors) returns app_hidden.matrix_monitor_criteria
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(mo.uuid, array(select upper(regexp_replace(x, '\s', '', 'g')) from jsonb_array_elements_text(coalesce(mo.query->'roads', '[]')) x),
             coalesce((mo.query->>'minDelayMinutes')::integer, 0), app_hidden.monitor_area_shapes(mo.query))::app_hidden.matrix_monitor_criteria
$$;
comment on function app_hidden.matrix_criteria_of(mo app_public.monitors) is 'A matrix monitor''s criteria as its query states them (roads in upper case without spaces, minDelayMinutes defaulting to 0, areas in matchable form). It is one definition for the trigger and monitorPreview.';

create or replace function app_hidden.traffic_jam_passes(c app_hidden.matrix_monitor_criteria, j app_public.traffic_jams) returns boolean
  language sql stable parallel safe
as $$
  select (cardinality(c.roads) = 0 or j.road_number = any (c.roads))
     and coalesce(j.delay_minutes, 0) >= c.min_delay_minutes
     and (c.areas is null or app_hidden.areas_hold(c.areas, j.latitude, j.longitude))
$$;
comment on function app_hidden.traffic_jam_passes(c app_hidden.matrix_monitor_criteria, j app_public.traffic_jams) is 'Whether a jam (as it is) reaches a matrix monitor: on one of its roads (or it names none), with at least its minimum delay, in one of its areas (app_hidden.areas_hold; or it has none). One definition for app_private.match_traffic_jam and monitorPreview.';

comment on function app_private.match_traffic_jam(jam_uuid uuid) is 'The matcher of matrix monitors (task monitors__match_feed): an open jam matches the monitors of its road and areas whose minimum delay it reaches (app_hidden.traffic_jam_passes). notify_feed_event records the match by the jam, so a monitor hears of a jam once, when its delay first reaches the minimum.';

------------------------------------------------------------------------------------------------
-- aircraft: take-offs, landings and passes overhead.

create table if not exists app_hidden.aircraft_monitor_criteria (
  monitor_uuid uuid primary key references app_public.monitors (uuid) on delete cascade,
  areas app_hidden.area_shapes,
  reach box
);
create index if not exists aircraft_monitor_criteria_reach_idx on app_hidden.aircraft_monitor_criteria using gist (reach);
alter table app_hidden.aircraft_monitor_criteria enable row level security;
comment on table app_hidden.aircraft_monitor_criteria is 'Active aircraft monitors in matchable form: their areas, and reach, a box around their circle and areas (null with neither). A trigger on monitors keeps it (app_hidden.aircraft_criteria_of). The overhead trigger finds the monitors a route point can be in through reach''s GiST index, and match_aircraft_event turns away a monitor whose reach does not hold the event before any other test.';
comment on column app_hidden.aircraft_monitor_criteria.areas is 'query.areas in matchable form (app_hidden.monitor_area_shapes); null without areas.';
comment on column app_hidden.aircraft_monitor_criteria.reach is 'A box around the monitor''s circle (app_hidden.circle_box) and its areas'' bounds; null when it has neither (it listens everywhere, and has no passes overhead).';

create or replace function app_hidden.aircraft_criteria_of(mo app_public.monitors) returns app_hidden.aircraft_monitor_criteria
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(mo.uuid, s.shapes,
             -- (not (x is null): a composite "is not null" only when every field is.)
             case when mo.radius is not null or not (s.shapes is null)
                  then app_hidden.bounds_of(array[app_hidden.circle_box(mo.latitude, mo.longitude, mo.radius), (s.shapes).bounds])
             end)::app_hidden.aircraft_monitor_criteria
    from (select app_hidden.monitor_area_shapes(mo.query) as shapes) s
$$;
comment on function app_hidden.aircraft_criteria_of(mo app_public.monitors) is 'An aircraft monitor''s areas and reach (the box around its circle and areas). One definition for the criteria trigger, aircraftEventsForMonitor and monitorPreview.';

create or replace function app_hidden.aircraft_monitor_holds(mo app_public.monitors, c app_hidden.aircraft_monitor_criteria, latitude double precision, longitude double precision) returns boolean
  language sql stable parallel safe
as $$
  select case
    -- Neither circle nor areas: everywhere, with or without a position.
    when mo.radius is null and c.areas is null then true
    when latitude is null or longitude is null or c.reach is null then false
    when not (c.reach operator(pg_catalog.@>) pg_catalog.point(longitude, latitude)) then false
    else (mo.radius is null or app_hidden.distance_km(mo.latitude, mo.longitude, latitude, longitude) operator(pg_catalog.<=) mo.radius)
         and (c.areas is null or app_hidden.areas_hold(c.areas, latitude, longitude))
  end
$$;
comment on function app_hidden.aircraft_monitor_holds(mo app_public.monitors, c app_hidden.aircraft_monitor_criteria, latitude double precision, longitude double precision) is 'Whether a position is where an aircraft monitor listens: within its circle (if it has one) and in one of its areas (if it has them, app_hidden.areas_hold), its reach box tested first; anywhere when it has neither. One definition for take-offs and landings (app_hidden.aircraft_event_passes) and passes overhead (the route points'' trigger).';

create or replace function app_hidden.tg_monitors__aircraft_criteria() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.aircraft_monitor_criteria c where c.monitor_uuid = new.uuid;
  if new.active and new.type = 'aircraft' then
    insert into app_hidden.aircraft_monitor_criteria select (app_hidden.aircraft_criteria_of(new)).*;
  end if;
  return null;
end;
$$;
comment on function app_hidden.tg_monitors__aircraft_criteria() is 'Trigger: keeps the monitor''s row in aircraft_monitor_criteria (app_hidden.aircraft_criteria_of) while it is an active aircraft monitor, a new location or query included, and removes it otherwise.';
drop trigger if exists _500_aircraft_criteria on app_public.monitors;
create trigger _500_aircraft_criteria after insert or update on app_public.monitors
  for each row execute function app_hidden.tg_monitors__aircraft_criteria();

delete from app_hidden.aircraft_monitor_criteria;
insert into app_hidden.aircraft_monitor_criteria
select (app_hidden.aircraft_criteria_of(m)).* from app_public.monitors m where m.type = 'aircraft' and m.active;

drop function if exists app_hidden.aircraft_event_passes(mo app_public.monitors, e app_public.aircraft_events);
create or replace function app_hidden.aircraft_event_passes(mo app_public.monitors, c app_hidden.aircraft_monitor_criteria, e app_public.aircraft_events) returns boolean
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select (e.monitor_uuid is null or e.monitor_uuid = mo.uuid)
     and app_hidden.aircraft_monitor_holds(mo, c, e.latitude, e.longitude)
     and app_hidden.aircraft_monitor_follows(mo, f)
    from app_public.aircraft_fleet f where f.icao = e.icao
$$;
comment on function app_hidden.aircraft_event_passes(mo app_public.monitors, c app_hidden.aircraft_monitor_criteria, e app_public.aircraft_events) is 'Whether an aircraft event passes a monitor with its criteria (app_hidden.aircraft_criteria_of). An overhead event passes only the monitor it was made for; a take-off or landing passes any monitor that follows the aircraft and whose circle and areas, if it has them, hold the event (app_hidden.aircraft_monitor_holds). It is one definition for app_private.match_aircraft_event, aircraftEventsForMonitor and monitorPreview.';

create or replace function app_private.match_aircraft_event(event_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  e app_public.aircraft_events;
begin
  select * into e from app_public.aircraft_events x where x.uuid = match_aircraft_event.event_uuid;
  if e.uuid is null then
    return 0;
  end if;
  return app_private.notify_feed_event('aircraft', e.uuid, array(
    select mo.uuid from app_hidden.aircraft_monitor_criteria c join app_public.monitors mo on mo.uuid = c.monitor_uuid
     where app_hidden.aircraft_event_passes(mo, c, e) order by mo.uuid),
    app_hidden.aircraft_notification_subject(e));
end;
$$;
comment on function app_private.match_aircraft_event(event_uuid uuid) is 'The matcher of aircraft monitors (task monitors__match_feed): a take-off or landing matches the active monitors (aircraft_monitor_criteria) it passes by app_hidden.aircraft_event_passes, the one definition that aircraftEventsForMonitor and monitorPreview use too (each monitor''s reach box first). The rest is app_private.notify_feed_event, so a second run queues nothing.';

create or replace function app_public.aircraft_events_for_monitor(monitor app_public.monitor_ref, first integer default 50, page integer default 1)
returns setof app_public.aircraft_events
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  mo app_public.monitors := app_hidden.environment_aircraft_monitor(app_hidden.try_uuid((aircraft_events_for_monitor.monitor).uuid));
  c app_hidden.aircraft_monitor_criteria;
begin
  if mo.uuid is null then
    raise exception 'Aircraft monitor not found in this environment.' using errcode = 'XNOTF';
  end if;
  c := app_hidden.aircraft_criteria_of(mo);
  return query select e.* from app_public.aircraft_events e where app_hidden.aircraft_event_passes(mo, c, e)
    order by e.at desc, e.uuid limit app_hidden.page_limit(first, 200) offset app_hidden.page_offset(first, page, 200);
end;
$$;
comment on function app_public.aircraft_events_for_monitor(monitor app_public.monitor_ref, first integer, page integer) is '@notNull
The take-offs and landings that pass an aircraft monitor''s kinds, registrations, circle and areas, and its own passes overhead (caller''s environment only), newest first.';

create or replace function app_hidden.tg_aircraft_route_points__overhead_events() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  insert into app_public.aircraft_events (icao, route_uuid, kind, at, latitude, longitude, place, monitor_uuid)
  select distinct on (p.route_uuid, mo.uuid) r.icao, p.route_uuid, 'overhead', p.at, p.latitude, p.longitude,
         app_hidden.nearest_place_name(p.latitude, p.longitude), mo.uuid
    from new_points p
    join app_public.aircraft_routes r on r.uuid = p.route_uuid
    join app_public.aircraft_fleet f on f.icao = r.icao
    -- The monitors with a circle or areas whose box holds the point (GiST), then the full test.
    join app_hidden.aircraft_monitor_criteria c
      on c.reach @> box(point(p.longitude, p.latitude), point(p.longitude, p.latitude))
    join app_public.monitors mo on mo.uuid = c.monitor_uuid
   where app_hidden.aircraft_monitor_holds(mo, c, p.latitude, p.longitude)
     and app_hidden.aircraft_monitor_follows(mo, f)
   order by p.route_uuid, mo.uuid, p.at
  on conflict do nothing;
  return null;
end;
$$;
comment on function app_hidden.tg_aircraft_route_points__overhead_events() is 'Trigger: new route points make an overhead event for each active aircraft monitor with a circle or areas that follows the aircraft and where a point lies (app_hidden.aircraft_monitor_holds, found through aircraft_monitor_criteria''s reach index). Each route and monitor gets its first such point only (once per flight), named after the nearest place.';

------------------------------------------------------------------------------------------------
-- nl_alert: an alert's polygons meeting the monitor's areas.

create or replace function app_hidden.polygons_area_keys(areas polygon[]) returns text[]
  language sql stable parallel safe
as $$
  select coalesce(array_agg(distinct n.kind || ':' || n.code), '{}')
    from pg_catalog.unnest(areas) a (area)
    join app_public.named_areas n on n.bounds operator(pg_catalog.&&) pg_catalog.box(a.area)
     and n.outline operator(pg_catalog.&&) a.area
   where not exists (select 1 from pg_catalog.unnest(n.holes) h (hole) where h.hole operator(pg_catalog.@>) a.area)
$$;
comment on function app_hidden.polygons_area_keys(areas polygon[]) is 'The named areas (kind:code keys, as app_hidden.point_area_keys) that any of the polygons meets: overlaps or touches a part''s outline (&& on polygons is exact), unless it lies wholly in one of that part''s holes. Candidates through the GiST index of the parts'' boxes. An NL-Alert''s are kept in nl_alerts.area_keys.';

alter table app_public.nl_alerts add column if not exists area_keys text[] not null default '{}';
comment on column app_public.nl_alerts.area_keys is 'The named areas its areas meet (app_hidden.polygons_area_keys: gemeente:GM0363, postcode:1012, …), computed with region_numbers when it is stored and again when a boundary file is loaded, so that nl_alert monitors with query.areas are matched by key.';

create or replace function app_hidden.refresh_nl_alert_regions(alert_uuids uuid[]) returns void
  language sql
  set search_path to pg_catalog, public, pg_temp
as $$
  update app_public.nl_alerts a set region_numbers = app_hidden.nl_alert_region_numbers(a.areas),
                                    area_keys = app_hidden.polygons_area_keys(a.areas)
   where alert_uuids is null or a.uuid = any (alert_uuids);
  delete from app_public.nl_alert_regions ar where alert_uuids is null or ar.alert_uuid = any (alert_uuids);
  insert into app_public.nl_alert_regions (alert_uuid, region_number, start_at)
  select a.uuid, n.number, a.start_at
    from app_public.nl_alerts a, unnest(a.region_numbers) n (number)
   where alert_uuids is null or a.uuid = any (alert_uuids);
$$;
comment on function app_hidden.refresh_nl_alert_regions(alert_uuids uuid[]) is 'Recomputes the regions of the given NL-Alerts (all when null): their region_numbers and their rows in nl_alert_regions, by which nlAlerts(regionNumber) pages through an index, and the named areas they meet (area_keys). It runs when alerts are stored and when the region areas are (re)loaded; app_private.load_named_areas recomputes area_keys when another boundary file is.';

update app_public.nl_alerts a set area_keys = k.keys
  from (select x.uuid, app_hidden.polygons_area_keys(x.areas) as keys from app_public.nl_alerts x) k
 where k.uuid = a.uuid and a.area_keys is distinct from k.keys;

alter table app_hidden.nl_alert_monitor_criteria
  add column if not exists area_keys text[] not null default '{}',
  add column if not exists area_polygons polygon[] not null default '{}',
  add column if not exists area_bounds box;
create index if not exists nl_alert_monitor_criteria_area_keys_idx on app_hidden.nl_alert_monitor_criteria using gin (area_keys);
create index if not exists nl_alert_monitor_criteria_area_bounds_idx on app_hidden.nl_alert_monitor_criteria using gist (area_bounds);
comment on table app_hidden.nl_alert_monitor_criteria is 'Active nl_alert monitors in matchable form: their safety region numbers, their circle as a polygon (area, with a radius) or their point (a location without one), their query.areas (named areas as keys; circles and drawn polygons as polygons, with the box around them), and everywhere when they have none of these. A trigger on monitors keeps it (app_hidden.nl_alert_criteria_of); app_private.match_nl_alert finds an alert''s monitors through its indexes.';
comment on column app_hidden.nl_alert_monitor_criteria.area_keys is 'The named areas of query.areas as kind:code keys (GIN): an alert whose area_keys share one meets them.';
comment on column app_hidden.nl_alert_monitor_criteria.area_polygons is 'The circles (app_hidden.circle_polygon, as for location/radius) and drawn polygons of query.areas.';
comment on column app_hidden.nl_alert_monitor_criteria.area_bounds is 'The box around area_polygons (GiST), by which an alert''s polygons find the monitors they may meet; null without any.';

create or replace function app_hidden.nl_alert_criteria_of(mo app_public.monitors) returns app_hidden.nl_alert_monitor_criteria
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(mo.uuid,
             array(select distinct x from jsonb_array_elements_text(coalesce(mo.query->'regions', '[]')) x order by 1),
             case when mo.radius is not null then app_hidden.circle_polygon(mo.latitude, mo.longitude, mo.radius) end,
             case when mo.radius is null and mo.latitude is not null then point(mo.longitude, mo.latitude) end,
             mo.latitude is null and jsonb_array_length(coalesce(mo.query->'regions', '[]')) = 0 and s.shapes is null,
             coalesce((s.shapes).keys, '{}'),
             p.polygons,
             app_hidden.bounds_of(array(select box(x) from unnest(p.polygons) x)))::app_hidden.nl_alert_monitor_criteria
    from (select app_hidden.monitor_area_shapes(mo.query) as shapes) s,
         lateral (select coalesce((s.shapes).outlines, '{}')
                         || array(select app_hidden.circle_polygon((s.shapes).circles[3 * i - 2], (s.shapes).circles[3 * i - 1], (s.shapes).circles[3 * i])
                                    from generate_series(1, coalesce(cardinality((s.shapes).circles), 0) / 3) i order by i) as polygons) p
$$;
comment on function app_hidden.nl_alert_criteria_of(mo app_public.monitors) is 'An nl_alert monitor''s criteria as its query and location state them (regions are already region numbers, validate_monitor_query normalises them; areas as keys and polygons). It is one definition for the trigger and monitorPreview.';

create or replace function app_hidden.nl_alert_passes(c app_hidden.nl_alert_monitor_criteria, a app_public.nl_alerts) returns boolean
  language sql immutable parallel safe
as $$
  select c.everywhere
      or c.region_numbers operator(pg_catalog.&&) a.region_numbers
      or exists (select 1 from pg_catalog.unnest(a.areas) x (area)
                  where c.area operator(pg_catalog.&&) x.area or c.point operator(pg_catalog.<@) x.area)
      or c.area_keys operator(pg_catalog.&&) a.area_keys
      or exists (select 1 from pg_catalog.unnest(a.areas) x (area), pg_catalog.unnest(c.area_polygons) p (area)
                  where p.area operator(pg_catalog.&&) x.area)
$$;
comment on function app_hidden.nl_alert_passes(c app_hidden.nl_alert_monitor_criteria, a app_public.nl_alerts) is 'Whether an NL-Alert reaches an nl_alert monitor: the monitor has no place (location, regions, areas), or the alert covers one of its safety regions, meets its circle, covers its point, or meets one of its areas: one of its polygons overlaps or touches a circle''s polygon or a drawn polygon, or a named area it meets (nl_alerts.area_keys, computed when it is stored) is one of the monitor''s. One definition for app_private.match_nl_alert (which finds the candidates through indexes first) and monitorPreview.';

create or replace function app_private.match_nl_alert(alert_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  a app_public.nl_alerts;
begin
  select * into a from app_public.nl_alerts x where x.uuid = match_nl_alert.alert_uuid;
  if a.uuid is null or a.stop_at <= now() then
    return 0;
  end if;
  -- Candidates through the criteria table's indexes, then the one definition.
  return app_private.notify_feed_event('nl_alert', a.uuid, array(
    select c.monitor_uuid from app_hidden.nl_alert_monitor_criteria c
     where c.monitor_uuid in (
      select c.monitor_uuid from app_hidden.nl_alert_monitor_criteria c where c.everywhere
      union all
      select c.monitor_uuid from app_hidden.nl_alert_monitor_criteria c where c.region_numbers && a.region_numbers
      union all
      select c.monitor_uuid from unnest(a.areas) x (area) join app_hidden.nl_alert_monitor_criteria c on c.area && x.area
      union all
      select c.monitor_uuid from unnest(a.areas) x (area) join app_hidden.nl_alert_monitor_criteria c on c.point <@ x.area
      union all
      select c.monitor_uuid from app_hidden.nl_alert_monitor_criteria c where c.area_keys && a.area_keys
      union all
      select c.monitor_uuid from unnest(a.areas) x (area) join app_hidden.nl_alert_monitor_criteria c on c.area_bounds && box(x.area))
       and app_hidden.nl_alert_passes(c, a)
     order by c.monitor_uuid), app_hidden.nl_alert_notification_subject(a));
end;
$$;
comment on function app_private.match_nl_alert(alert_uuid uuid) is 'The matcher of nl_alert monitors (task monitors__match_feed): an NL-Alert still running matches the monitors whose circle one of its areas meets, whose point one covers, one of whose safety regions it covers, one of whose areas it meets (named areas by key, circles and drawn polygons through the box around them), or that have no place at all, each found through an index of nl_alert_monitor_criteria. notify_feed_event records the match by the alert, so a monitor hears of an alert once, when it first reaches it (an alert widened later reaches the monitors it newly meets).';

------------------------------------------------------------------------------------------------
-- Criteria made again: a monitor's, and those naming an area of a boundary file loaded again.

create or replace function app_hidden.store_area_criteria(mo app_public.monitors) returns void
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if mo.type = 'accident' then
    delete from app_hidden.traffic_monitor_criteria c where c.monitor_uuid = mo.uuid;
    if mo.active then
      insert into app_hidden.traffic_monitor_criteria select (app_hidden.accident_criteria_of(mo)).*;
    end if;
  elsif mo.type = 'matrix' then
    delete from app_hidden.matrix_monitor_criteria c where c.monitor_uuid = mo.uuid;
    if mo.active then
      insert into app_hidden.matrix_monitor_criteria select (app_hidden.matrix_criteria_of(mo)).*;
    end if;
  elsif mo.type = 'aircraft' then
    delete from app_hidden.aircraft_monitor_criteria c where c.monitor_uuid = mo.uuid;
    if mo.active then
      insert into app_hidden.aircraft_monitor_criteria select (app_hidden.aircraft_criteria_of(mo)).*;
    end if;
  elsif mo.type = 'nl_alert' then
    delete from app_hidden.nl_alert_monitor_criteria c where c.monitor_uuid = mo.uuid;
    if mo.active then
      insert into app_hidden.nl_alert_monitor_criteria select (app_hidden.nl_alert_criteria_of(mo)).*;
    end if;
  end if;
end;
$$;
comment on function app_hidden.store_area_criteria(mo app_public.monitors) is 'Makes the criteria row of an accident, matrix, aircraft or nl_alert monitor again, as its trigger does: app_private.load_named_areas calls it for the monitors whose areas name a kind it loaded (their bounds come from the outlines).';

create or replace function app_private.load_named_areas(features jsonb, digest text, kind text) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  loaded integer;
  monitor app_public.monitors;
begin
  if exists (select 1 from app_hidden.geo_data_versions v where v.name = 'areas:' || kind and v.digest = load_named_areas.digest) then
    return 0;
  end if;
  delete from app_public.named_areas n where n.kind = load_named_areas.kind;
  insert into app_public.named_areas (kind, code, name, municipality, part, outline, holes)
  select load_named_areas.kind, x.code, x.name, x.municipality, p.n,
         app_hidden.geojson_ring(p.part->0),
         array(select app_hidden.geojson_ring(r) from jsonb_array_elements(p.part) with ordinality as h (r, k) where h.k > 1 order by h.k)
    from jsonb_array_elements(features) f,
         lateral (select case load_named_areas.kind
                           when 'region' then f->'properties'->>'number'
                           when 'woonplaats' then coalesce(f->'properties'->>'code', (f->'properties'->>'name') || '@' || (f->'properties'->>'municipality'))
                           else f->'properties'->>'code' end as code,
                         coalesce(f->'properties'->>'name', f->'properties'->>'code') as name,
                         f->'properties'->>'municipality' as municipality) x,
         jsonb_array_elements(f->'geometry'->'coordinates') with ordinality as p (part, n);
  select count(distinct n.code) into loaded from app_public.named_areas n where n.kind = load_named_areas.kind;
  -- The monitors that name an area of this kind have their criteria made again from the new outlines.
  for monitor in select m.* from app_public.monitors m
                  where m.type in ('p2000', 'accident', 'matrix', 'aircraft', 'nl_alert')
                    and m.query->'areas' @> jsonb_build_array(jsonb_build_object('type', load_named_areas.kind)) loop
    if monitor.type = 'p2000' then
      perform app_hidden.store_p2000_criteria(monitor);
    else
      perform app_hidden.store_area_criteria(monitor);
    end if;
  end loop;
  -- And the NL-Alerts the named areas they meet.
  update app_public.nl_alerts a set area_keys = k.keys
    from (select x.uuid, app_hidden.polygons_area_keys(x.areas) as keys from app_public.nl_alerts x) k
   where k.uuid = a.uuid and a.area_keys is distinct from k.keys;
  insert into app_hidden.geo_data_versions (name, digest) values ('areas:' || kind, digest)
  on conflict (name) do update set digest = excluded.digest, loaded_at = now();
  return loaded;
end;
$$;
comment on function app_private.load_named_areas(features jsonb, digest text, kind text) is 'Loads one kind of named area (gemeente, woonplaats, postcode, province, region) from its GeoJSON file on start (lib/places/boundaries.ts), skipped when the file''s SHA-256 is the one loaded, makes the criteria of the monitors that name such an area again (every type with areas), and recomputes the named areas each NL-Alert meets. Returns how many areas it holds.';

-- Monitors with areas made again (none before this migration; a second run of it finds its own).
select app_hidden.store_area_criteria(m) from app_public.monitors m
 where m.type in ('accident', 'matrix', 'aircraft', 'nl_alert') and m.query ? 'areas';

------------------------------------------------------------------------------------------------
-- monitorPreview: aircraft with its criteria (the others' criteria_of hold their areas already).

create or replace function app_hidden.monitor_preview_feed_items(mo app_public.monitors, since timestamp with time zone)
returns table (kind text, uuid uuid, at timestamp with time zone, title text, latitude double precision, longitude double precision)
  language plpgsql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  traffic app_hidden.traffic_monitor_criteria;
  meteo app_hidden.meteo_monitor_criteria;
  nl app_hidden.nl_alert_monitor_criteria;
  amber app_hidden.amber_alert_monitor_criteria;
  jam app_hidden.matrix_monitor_criteria;
  rail app_hidden.rail_monitor_criteria;
  rss app_hidden.rss_monitor_criteria;
  air app_hidden.aircraft_monitor_criteria;
  item_kind text;
  uuids uuid[];
begin
  case mo.type
  when 'accident' then
    traffic := app_hidden.accident_criteria_of(mo);
    item_kind := 'traffic';
    -- The events of the window of the monitor's types and roads first, by the event's own type
    -- and road (the same tests the definition makes of the incident as the event saw it, so
    -- none it would pass is left out), then the one definition decides; only those candidates
    -- are joined to their incident.
    uuids := array(
      select e.uuid
        from app_public.traffic_incident_events e join app_public.traffic_incidents i on i.uuid = e.incident_uuid
       where e.created >= since and e.created <= now()
         and (cardinality(traffic.types) = 0 or e.type = any (traffic.types))
         and (cardinality(traffic.roads) = 0 or e.road_number = any (traffic.roads))
         and app_hidden.traffic_incident_passes(traffic, app_hidden.traffic_event_incident(e, i)));
  when 'meteo_weather' then
    meteo := app_hidden.meteo_criteria_of(mo);
    item_kind := 'meteo';
    uuids := array(
      select e.uuid from app_public.meteo_warning_events e
       where e.created >= since and e.created <= now() and e.period_to > e.created
         and app_hidden.meteo_event_passes(meteo, e));
  when 'nl_alert' then
    nl := app_hidden.nl_alert_criteria_of(mo);
    item_kind := 'nl_alert';
    uuids := array(
      select a.uuid from app_public.nl_alerts a
       where a.start_at >= since and a.start_at <= now()
         and (a.stop_at is null or a.stop_at > a.first_seen_at) and a.start_at > a.first_seen_at - interval '24 hours'
         and app_hidden.nl_alert_passes(nl, a));
  when 'amber_alert' then
    amber := app_hidden.amber_alert_criteria_of(mo);
    item_kind := 'amber_alert';
    uuids := array(
      select a.uuid from app_public.amber_alerts a
       where a.started_at >= since and a.started_at <= now() and a.started_at > a.first_seen_at - interval '24 hours'
         and app_hidden.amber_alert_passes(amber, a));
  when 'aircraft' then
    -- Take-offs and landings; overhead events are made for one saved monitor (aircraft_event_passes
    -- lets an unsaved one see none).
    air := app_hidden.aircraft_criteria_of(mo);
    item_kind := 'aircraft';
    uuids := array(
      select e.uuid from app_public.aircraft_events e
       where e.at >= since and e.at <= now() and app_hidden.aircraft_event_passes(mo, air, e));
  when 'matrix' then
    jam := app_hidden.matrix_criteria_of(mo);
    -- Jams as they are now (no history of a jam's delay is kept), by when they were first seen
    -- (traffic_jams_first_seen_idx).
    item_kind := 'traffic_jam';
    uuids := array(
      select j.uuid from app_public.traffic_jams j
       where j.first_seen_at >= since and j.first_seen_at <= now()
         and app_hidden.traffic_jam_passes(jam, j));
  when 'rail_disruptions' then
    rail := app_hidden.rail_criteria_of(mo);
    -- Disruptions by when they became news: first seen, or their start if later (live matching
    -- waits for a planned one to become active); not those still to start. Ended ones count.
    item_kind := 'rail';
    uuids := array(
      select d.uuid from app_public.rail_disruptions d
       where greatest(d.first_seen_at, d.start_at) >= since and greatest(d.first_seen_at, d.start_at) <= now()
         and app_hidden.rail_disruption_passes(rail, d));
  when 'rss' then
    rss := app_hidden.rss_criteria_of(mo);
    -- Items by first sight, of the feeds already followed (a preview follows no new feed): the
    -- candidates of its feeds in the window through rss_feed_items_feed_first_seen_idx, then the
    -- one definition.
    item_kind := 'rss';
    uuids := array(
      select i.uuid from app_public.rss_feed_items i
       where i.feed_uuid = any (rss.feed_uuids) and i.first_seen_at >= since and i.first_seen_at <= now()
         and app_hidden.rss_item_passes(rss, i));
  end case;
  return query
    select x.kind, x.uuid, x.at, x.title, x.latitude, x.longitude from app_hidden.monitor_items(item_kind, uuids) x;
end;
$$;
comment on function app_hidden.monitor_preview_feed_items(mo app_public.monitors, since timestamp with time zone) is 'The items since a moment that a feed monitor (every type but p2000) matches, through the same definitions as its live matcher, with the conditions its feed''s queueing trigger puts on an item: its kind (as feed_monitor_matches names it), uuid, time, a title and its place for a map (the centre of an NL-Alert''s first area; null where the feed has none). Accident, matrix, aircraft and nl_alert criteria hold the monitor''s query.areas, tested by the same definitions. Aircraft: take-offs and landings through app_hidden.aircraft_event_passes with app_hidden.aircraft_criteria_of (overhead events belong to a saved monitor). Matrix: jams by first sight, as they are now, through app_hidden.traffic_jam_passes. Rail: disruptions by when they became news (first sight, or a later start), not those still to start, through app_hidden.rail_disruption_passes. RSS: the items of its followed feeds by first sight (rss_feed_items_feed_first_seen_idx), through app_hidden.rss_item_passes. Each type''s criteria are resolved once per call; accident candidates are narrowed by their events'' own type and road, rss candidates by their feeds, before the definition decides. SECURITY DEFINER because traffic events are app_analyst''s to read; it reads feed data only, for a monitor the caller''s input describes.';
