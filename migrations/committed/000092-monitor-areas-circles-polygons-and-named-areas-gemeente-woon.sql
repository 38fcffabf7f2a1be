--! Previous: sha1:5d4d7be93187046b2952d8f902320685bae47d4e
--! Hash: sha1:cb1272deb666ce3e047607bacc4a3c47fd4dab08
--! Message: Monitor areas: circles, polygons and named areas (gemeente, woonplaats, PC4, province, safety region) found through a box index

-- Issue 45, areas: a P2000 monitor's place may be any number of areas (query.areas), each a circle,
-- a polygon, or a named area (gemeente, woonplaats, PC4 postcode area, province, safety region) from
-- the boundary files in data/ (data/GEO-SOURCES.md). A message matches when its position lies in any
-- of them. The areas are kept in the monitor's criteria row (so monitorPreview checks an unsaved
-- monitor the same way), and their boxes in a GiST index through which a message finds the monitors
-- whose areas can contain it.

create table if not exists app_public.named_areas (
  kind text not null constraint named_areas_kind_check check (kind in ('gemeente', 'woonplaats', 'postcode', 'province', 'region')),
  code text not null,
  name text not null,
  municipality text,
  part integer not null,
  outline polygon not null,
  holes polygon[] not null default '{}',
  constraint named_areas_pkey primary key (kind, code, part)
);
create index if not exists named_areas_name_idx on app_public.named_areas (kind, lower(name));
alter table app_public.named_areas enable row level security;
drop policy if exists select_all on app_public.named_areas;
create policy select_all on app_public.named_areas for select to app_visitor, app_analyst using (true);
grant select on app_public.named_areas to app_visitor, app_analyst;
comment on table app_public.named_areas is E'@behavior -*\nThe areas a monitor can name (query.areas), one row per part of each: gemeenten (code GM0363), woonplaatsen (WP1602; a woonplaats without a CBS code is name@municipality), PC4 postcode areas (1012), provinces (noord-holland) and safety regions (13), loaded on start from data/*.geojson (sources in data/GEO-SOURCES.md). outline is a part''s outer ring and holes its holes, in longitude/latitude.';
drop trigger if exists _900_notify_data_changed on app_public.named_areas;
create trigger _900_notify_data_changed after insert or update or delete or truncate on app_public.named_areas
  for each statement execute function app_hidden.tg__notify_data_changed('places');

create or replace function app_hidden.geojson_ring(ring jsonb) returns polygon
  language sql immutable parallel safe
as $$
  select ('(' || string_agg(format('(%s,%s)', p->>0, p->>1), ',' order by n) || ')')::polygon
    from jsonb_array_elements(ring) with ordinality as x (p, n)
$$;
comment on function app_hidden.geojson_ring(ring jsonb) is 'A GeoJSON linear ring ([[longitude, latitude], …]) as a PostgreSQL polygon (x = longitude, y = latitude).';

drop type if exists app_hidden.area_shapes cascade;
create type app_hidden.area_shapes as (
  outlines polygon[],
  holes polygon[],
  hole_parts integer[],
  circles double precision[],
  boxes box[]
);
comment on type app_hidden.area_shapes is 'A monitor''s areas in matchable form: the outer rings of its polygons and named areas (outlines), their holes with the outline each belongs to (hole_parts, 1-based), its circles as latitude, longitude, radius (km) triples, and a box around each outline and circle for the index.';

create or replace function app_hidden.area_shapes(areas jsonb) returns app_hidden.area_shapes
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  shapes app_hidden.area_shapes := row('{}', '{}', '{}', '{}', '{}');
  area jsonb;
  part record;
  hole polygon;
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
      for part in select n.outline, n.holes from app_public.named_areas n
                   where n.kind = area->>'type' and n.code = area->>'code' order by n.part loop
        shapes.outlines := shapes.outlines || part.outline;
        shapes.boxes := shapes.boxes || box(part.outline);
        foreach hole in array part.holes loop
          shapes.holes := shapes.holes || hole;
          shapes.hole_parts := shapes.hole_parts || cardinality(shapes.outlines);
        end loop;
      end loop;
    end if;
  end loop;
  return shapes;
end;
$$;
comment on function app_hidden.area_shapes(areas jsonb) is 'The shapes of a monitor''s checked query.areas (app_hidden.checked_monitor_areas): named areas read from app_public.named_areas as they are now.';

create or replace function app_hidden.areas_contain(outlines polygon[], holes polygon[], hole_parts integer[], circles double precision[],
                                                    latitude double precision, longitude double precision) returns boolean
  language sql immutable parallel safe
as $$
  select exists (select 1 from unnest(outlines) with ordinality as o (outline, n)
                  where o.outline @> point(longitude, latitude)
                    and not exists (select 1 from unnest(holes, hole_parts) as h (hole, part)
                                     where h.part = o.n and h.hole @> point(longitude, latitude)))
      or exists (select 1 from generate_series(1, coalesce(cardinality(circles), 0) / 3) i
                  where app_hidden.distance_km(circles[3 * i - 2], circles[3 * i - 1], latitude, longitude) <= circles[3 * i])
$$;
comment on function app_hidden.areas_contain(outlines polygon[], holes polygon[], hole_parts integer[], circles double precision[], latitude double precision, longitude double precision) is 'Whether a point lies in any of the areas: inside an outline and none of its own holes (a point on the boundary is inside), or within a circle''s radius (great-circle distance).';

create or replace function app_hidden.checked_monitor_areas(areas jsonb) returns jsonb
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  result jsonb := '[]';
  area jsonb;
  i integer := -1;
  kind text;
  ring jsonb;
  points integer;
  total_points integer := 0;
  wanted text;
  found record;
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
    kind := case when jsonb_typeof(area) = 'object' then area->>'type' end;
    if kind is null or kind not in ('circle', 'polygon', 'gemeente', 'woonplaats', 'postcode', 'province', 'region') then
      raise exception 'query.areas[%]: type must be one of circle, polygon, gemeente, woonplaats, postcode, province, region.', i using errcode = 'XINPT';
    end if;
    if kind = 'circle' then
      if jsonb_typeof(area->'latitude') <> 'number' or jsonb_typeof(area->'longitude') <> 'number'
         or (area->>'latitude')::double precision not between 50.7 and 53.7 or (area->>'longitude')::double precision not between 3.2 and 7.3 then
        raise exception 'query.areas[%]: a circle needs a latitude (50.7-53.7) and longitude (3.2-7.3) in the Netherlands.', i using errcode = 'XINPT';
      end if;
      if jsonb_typeof(area->'radius') <> 'number' or (area->>'radius')::double precision <= 0 or (area->>'radius')::double precision > 250 then
        raise exception 'query.areas[%]: a circle''s radius is in kilometres, more than 0 and at most 250.', i using errcode = 'XINPT';
      end if;
      result := result || jsonb_build_array(jsonb_build_object('type', 'circle', 'latitude', area->'latitude', 'longitude', area->'longitude', 'radius', area->'radius'));
    elsif kind = 'polygon' then
      -- GeoJSON Polygon coordinates with one ring: [[[longitude, latitude], …]].
      if jsonb_typeof(area->'coordinates') <> 'array' or jsonb_array_length(area->'coordinates') <> 1
         or jsonb_typeof(area->'coordinates'->0) <> 'array' then
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
        raise exception 'query.areas[%]: a % needs its code or name (areaChoices lists them).', i, kind using errcode = 'XINPT';
      end if;
      select count(distinct n.code), min(n.code), min(n.name),
             string_agg(distinct n.name || ' (' || n.code || coalesce(', ' || n.municipality, '') || ')', '; ')
        into matches, found.code, found.name, choices
        from app_public.named_areas n
       where n.kind = checked_monitor_areas.kind
         and (n.code = case kind when 'gemeente' then upper(wanted) when 'region' then lpad(wanted, 2, '0') else wanted end
              or (area ? 'name' and lower(n.name) = lower(wanted)
                  and (area->>'municipality' is null or n.municipality = upper(area->>'municipality'))));
      if matches = 0 and kind = 'region' then
        -- A safety region also by its slug, as query.regions takes it.
        select count(*), min(n.code), min(n.name) into matches, found.code, found.name
          from app_public.named_areas n join app_public.p2000_regions g on g.number = n.code
         where n.kind = 'region' and n.part = 1 and g.slug = lower(wanted);
      end if;
      if matches = 0 then
        raise exception 'query.areas[%]: no % "%" (areaChoices lists them).', i, kind, wanted using errcode = 'XINPT';
      end if;
      if matches > 1 then
        raise exception 'query.areas[%]: "%" is more than one %: give its code (%).', i, wanted, kind, choices using errcode = 'XINPT';
      end if;
      result := result || jsonb_build_array(jsonb_build_object('type', kind, 'code', found.code, 'name', found.name));
    end if;
  end loop;
  if total_points > 5000 then
    raise exception 'query.areas: the polygons have more than 5000 points together.' using errcode = 'XINPT';
  end if;
  return result;
end;
$$;
comment on function app_hidden.checked_monitor_areas(areas jsonb) is 'Checks query.areas and returns it normalised: at most 20 areas; a circle in the Netherlands with a radius of 0-250 km; a polygon of one closed ring of 4-2000 points inside the Netherlands'' bounds whose edges neither cross nor touch (5000 points in all); a named area by code or name, stored as {type, code, name} (a name shared by several woonplaatsen asks for the code, or a municipality). Every error names the area by its index.';

create or replace function app_hidden.ring_crosses_itself(ring jsonb) returns boolean
  language sql immutable parallel safe
as $$
  -- Every pair of edges that do not follow each other (the last edge follows the first too).
  with points as (
    select n, point((p->>0)::double precision, (p->>1)::double precision) as at
      from jsonb_array_elements(ring) with ordinality as x (p, n)
  ), edges as (
    select a.n as i, lseg(a.at, b.at) as edge from points a join points b on b.n = a.n + 1
  )
  select exists (select 1 from edges e1 join edges e2 on e2.i > e1.i + 1
                  where not (e1.i = 1 and e2.i = jsonb_array_length(ring) - 1)
                    and e1.edge ?# e2.edge)
$$;
comment on function app_hidden.ring_crosses_itself(ring jsonb) is 'Whether a closed GeoJSON ring has two edges that are not neighbours yet cross or touch: a figure eight, or a ring that meets itself. Quadratic in the points, which checked_monitor_areas keeps at 2000 a ring.';

alter table app_hidden.monitor_query_fields drop constraint if exists monitor_query_fields_kind_check;
alter table app_hidden.monitor_query_fields add constraint monitor_query_fields_kind_check check (kind = any (array[
  'strings', 'capcodes', 'regions', 'disciplines', 'urgencies', 'categories', 'areas', 'choices', 'urls', 'boolean', 'integer']));
insert into app_hidden.monitor_query_fields (monitor_type, field, kind, required, choices, description) values
  ('p2000', 'areas', 'areas', false, null, 'Places, any of which a message must lie in (at most 20): {"type": "circle", "latitude", "longitude", "radius" (km)}, {"type": "polygon", "coordinates": [[[longitude, latitude], …]]} (GeoJSON, one closed ring), or {"type": "gemeente" | "woonplaats" | "postcode" | "province" | "region", "code" or "name"} (areaChoices).')
on conflict (monitor_type, field) do update set kind = excluded.kind, description = excluded.description;

alter table app_hidden.p2000_monitor_criteria
  add column if not exists area_count integer not null default 0,
  add column if not exists area_outlines polygon[] not null default '{}',
  add column if not exists area_holes polygon[] not null default '{}',
  add column if not exists area_hole_parts integer[] not null default '{}',
  add column if not exists area_circles double precision[] not null default '{}',
  add column if not exists area_boxes box[] not null default '{}';

create table if not exists app_hidden.p2000_monitor_area_boxes (
  monitor_uuid uuid not null references app_public.monitors (uuid) on delete cascade,
  area box not null
);
create index if not exists p2000_monitor_area_boxes_area_idx on app_hidden.p2000_monitor_area_boxes using gist (area);
create index if not exists p2000_monitor_area_boxes_monitor_idx on app_hidden.p2000_monitor_area_boxes (monitor_uuid);
alter table app_hidden.p2000_monitor_area_boxes enable row level security;
comment on table app_hidden.p2000_monitor_area_boxes is 'A box around each area of each active P2000 monitor with query.areas (kept with p2000_monitor_criteria by its trigger): app_private.match_p2000_message finds the monitors whose areas can hold a message''s position through the GiST index, and checks them in full.';

create or replace function app_hidden.store_p2000_criteria(mo app_public.monitors) returns void
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  c app_hidden.p2000_monitor_criteria;
begin
  delete from app_hidden.p2000_monitor_criteria x where x.monitor_uuid = mo.uuid;
  delete from app_hidden.p2000_monitor_area_boxes b where b.monitor_uuid = mo.uuid;
  if mo.type = 'p2000' and mo.active then
    c := app_hidden.p2000_criteria(mo);
    insert into app_hidden.p2000_monitor_criteria select c.*;
    insert into app_hidden.p2000_monitor_area_boxes (monitor_uuid, area) select mo.uuid, b from unnest(c.area_boxes) b;
  end if;
end;
$$;
comment on function app_hidden.store_p2000_criteria(mo app_public.monitors) is 'Stores a P2000 monitor''s criteria row and the boxes of its areas (or removes them for an inactive monitor or another type): its trigger calls it, and the load of a boundary file for the monitors whose areas it names.';

create or replace function app_hidden.tg_monitors__p2000_criteria() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform app_hidden.store_p2000_criteria(new);
  return null;
end;
$$;

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
                  where m.type = 'p2000' and m.query->'areas' @> jsonb_build_array(jsonb_build_object('type', load_named_areas.kind)) loop
    perform app_hidden.store_p2000_criteria(monitor);
  end loop;
  insert into app_hidden.geo_data_versions (name, digest) values ('areas:' || kind, digest)
  on conflict (name) do update set digest = excluded.digest, loaded_at = now();
  return loaded;
end;
$$;
comment on function app_private.load_named_areas(features jsonb, digest text, kind text) is 'Loads one kind of named area (gemeente, woonplaats, postcode, province, region) from its GeoJSON file on start (lib/places/boundaries.ts), skipped when the file''s SHA-256 is the one loaded, and makes the criteria of the monitors that name such an area again. Returns how many areas it holds.';

drop type if exists app_public.area_choice cascade;
create type app_public.area_choice as (
  kind text,
  code text,
  name text,
  municipality text,
  municipality_name text
);
comment on type app_public.area_choice is 'A named area a monitor''s query.areas can hold: {"type": kind, "code": code}.';
comment on column app_public.area_choice.kind is 'gemeente, woonplaats, postcode (PC4), province or region (safety region).';
comment on column app_public.area_choice.code is 'What query.areas takes as code: GM0363, WP1602, 1012, noord-holland, 13.';
comment on column app_public.area_choice.municipality is 'The gemeente code of a woonplaats or postcode area.';
comment on column app_public.area_choice.municipality_name is 'That gemeente''s name, to tell woonplaatsen of one name apart.';

create or replace function app_public.area_choices(search text, kind text default null, first integer default 10)
returns setof app_public.area_choice
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if search is null or length(btrim(search)) not between 1 and 100 then
    raise exception 'search must have 1 to 100 characters.' using errcode = 'XINPT';
  end if;
  if kind is not null and kind not in ('gemeente', 'woonplaats', 'postcode', 'province', 'region') then
    raise exception 'kind must be gemeente, woonplaats, postcode, province or region.' using errcode = 'XINPT';
  end if;
  if first is null or first not between 1 and 50 then
    raise exception 'first must be from 1 to 50.' using errcode = 'XINPT';
  end if;
  return query
  select n.kind, n.code, n.name, n.municipality, m.name
    from (select distinct on (a.kind, a.code) a.kind, a.code, a.name, a.municipality
            from app_public.named_areas a
           where (area_choices.kind is null or a.kind = area_choices.kind)
             and (a.code = btrim(search) or a.code = upper(btrim(search))
                  or lower(a.name) like substr(app_hidden.contains_pattern(lower(btrim(search))), 2))
           order by a.kind, a.code) n
    left join lateral (select g.name from app_public.named_areas g where g.kind = 'gemeente' and g.code = n.municipality limit 1) m on true
   order by lower(n.name) = lower(btrim(search)) desc,
            array_position(array['gemeente', 'woonplaats', 'postcode', 'region', 'province'], n.kind), n.name, n.code
   limit first;
end;
$$;
comment on function app_public.area_choices(search text, kind text, first integer) is 'Named areas for a monitor''s query.areas whose name starts with the search, or whose code it is ("Oss", "GM0828", "5341"), exact names first, then gemeenten, woonplaatsen, postcode areas, safety regions and provinces; kind narrows to one of them; first 1-50 (10). Public reference data: an API token, like the other reference lists.';

CREATE OR REPLACE FUNCTION app_hidden.validate_monitor_query(monitor_type text, query jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  f app_hidden.monitor_query_fields;
  value jsonb;
  result jsonb := '{}';
  item text;
  items text[];
  unknown text;
begin
  if jsonb_typeof(query) is distinct from 'object' then
    raise exception 'query must be a JSON object.' using errcode = 'XINPT';
  end if;
  select string_agg(k, ', ' order by k) into unknown from jsonb_object_keys(query) k
   where not exists (select 1 from app_hidden.monitor_query_fields q where q.monitor_type = validate_monitor_query.monitor_type and q.field = k);
  if unknown is not null then
    raise exception 'query.%: not a field of % monitors (fields: %).', unknown, monitor_type,
      (select string_agg(q.field, ', ' order by q.field) from app_hidden.monitor_query_fields q where q.monitor_type = validate_monitor_query.monitor_type)
      using errcode = 'XINPT';
  end if;
  for f in select * from app_hidden.monitor_query_fields q where q.monitor_type = validate_monitor_query.monitor_type order by q.field loop
    value := query -> f.field;
    if value is null or value = 'null' then
      if f.required then
        raise exception 'query.% is required for % monitors.', f.field, monitor_type using errcode = 'XINPT';
      end if;
      continue;
    end if;
    if f.kind = 'boolean' then
      if jsonb_typeof(value) <> 'boolean' then
        raise exception 'query.% must be true or false.', f.field using errcode = 'XINPT';
      end if;
      result := result || jsonb_build_object(f.field, value);
      continue;
    end if;
    if f.kind = 'integer' then
      if jsonb_typeof(value) <> 'number' or value::text !~ '^[0-9]{1,5}$' or value::text::integer > 10000 then
        raise exception 'query.% must be a whole number from 0 to 10000.', f.field using errcode = 'XINPT';
      end if;
      result := result || jsonb_build_object(f.field, value);
      continue;
    end if;
    if f.kind = 'areas' then
      result := result || jsonb_build_object(f.field, app_hidden.checked_monitor_areas(value));
      continue;
    end if;
    if jsonb_typeof(value) <> 'array' or exists (select 1 from jsonb_array_elements(value) e where jsonb_typeof(e) not in ('string', 'number')) then
      raise exception 'query.% must be a list of strings.', f.field using errcode = 'XINPT';
    end if;
    if jsonb_array_length(value) > 500 then
      raise exception 'query.% has more than 500 entries.', f.field using errcode = 'XINPT';
    end if;
    items := array(select distinct btrim(e) from jsonb_array_elements_text(value) e where btrim(e) <> '' order by 1);
    if f.required and cardinality(items) = 0 then
      raise exception 'query.% needs at least one entry.', f.field using errcode = 'XINPT';
    end if;
    case f.kind
    when 'capcodes' then
      select string_agg(i, ', ') into unknown from unnest(items) i where app_hidden.p2000_normalize_capcode(i) is null;
      items := array(select distinct app_hidden.p2000_normalize_capcode(i) from unnest(items) i order by 1);
    when 'regions' then
      select string_agg(i, ', ') into unknown from unnest(items) i
       where not exists (select 1 from app_public.p2000_regions g where g.number = lpad(i, 2, '0') or g.slug = lower(i));
      items := array(select distinct g.number from unnest(items) i join app_public.p2000_regions g on g.number = lpad(i, 2, '0') or g.slug = lower(i) order by 1);
    when 'disciplines' then
      select string_agg(i, ', ') into unknown from unnest(items) i
       where not exists (select 1 from app_public.p2000_disciplines d where lower(d.name) = lower(i) or d.slug = lower(i));
      items := array(select distinct d.name from unnest(items) i join app_public.p2000_disciplines d on lower(d.name) = lower(i) or d.slug = lower(i) order by 1);
    when 'categories' then
      select string_agg(i, ', ') into unknown from unnest(items) i
       where not exists (select 1 from app_public.p2000_categories k where k.code = lower(i) or lower(k.name) = lower(i));
      items := array(select distinct k.code from unnest(items) i join app_public.p2000_categories k on k.code = lower(i) or lower(k.name) = lower(i) order by 1);
    when 'urgencies' then
      select string_agg(i, ', ') into unknown from unnest(items) i
       where not exists (select 1 from app_public.p2000_urgencies u where u.code = upper(i));
      items := array(select distinct upper(i) from unnest(items) i order by 1);
    when 'choices' then
      select string_agg(i, ', ') into unknown from unnest(items) i where not lower(i) = any (f.choices);
      items := array(select distinct lower(i) from unnest(items) i order by 1);
    when 'urls' then
      select string_agg(i, ', ') into unknown from unnest(items) i where i !~ '^https?://[^\s/?#]+([/?#]\S*)?$';
    when 'strings' then
      if exists (select 1 from unnest(items) i where length(i) > 200) then
        raise exception 'query.%: entries have at most 200 characters.', f.field using errcode = 'XINPT';
      end if;
      if f.field in ('keywords', 'excludeKeywords') then
        items := array(select distinct lower(i) from unnest(items) i order by 1);
      end if;
    end case;
    if unknown is not null then
      raise exception 'query.%: unknown or malformed value(s): %.', f.field, unknown using errcode = 'XINPT';
    end if;
    result := result || jsonb_build_object(f.field, to_jsonb(items));
  end loop;
  return result;
end;
$function$;

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
  if mo.radius is not null then
    c.latitude := mo.latitude;
    c.longitude := mo.longitude;
    c.radius := mo.radius;
    lat_span := ceil(mo.radius / 111.0 / 0.1);
    lon_span := ceil(mo.radius / (111.0 * greatest(cos(radians(mo.latitude)), 0.01)) / 0.15);
  end if;
  c.anchor_keys := case
    when cardinality(c.capcode_names) > 0 then array(select 'c:' || n from unnest(c.capcode_names) n)
    -- Found through the boxes of its areas (app_hidden.p2000_monitor_area_boxes), not by a key.
    when c.area_count > 0 then '{}'
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
          and app_hidden.areas_contain(c.area_outlines, c.area_holes, c.area_hole_parts, c.area_circles, m.latitude, m.longitude)))
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
    || case when m.discipline_uuid is not null then array['d:' || m.discipline_uuid] else '{}' end;
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
