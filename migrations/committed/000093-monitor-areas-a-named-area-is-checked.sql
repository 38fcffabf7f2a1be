--! Previous: sha1:cb1272deb666ce3e047607bacc4a3c47fd4dab08
--! Hash: sha1:b818255a72f4820d3134ae5800f26b2c3b2dbfaf
--! Message: Monitor areas: a named area is checked

-- checked_monitor_areas (migration 000092) qualified a local variable by the function's name, which PL/pgSQL allows for parameters only: every named area failed.
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
      if jsonb_typeof(area->'latitude') <> 'number' or jsonb_typeof(area->'longitude') <> 'number'
         or (area->>'latitude')::double precision not between 50.7 and 53.7 or (area->>'longitude')::double precision not between 3.2 and 7.3 then
        raise exception 'query.areas[%]: a circle needs a latitude (50.7-53.7) and longitude (3.2-7.3) in the Netherlands.', i using errcode = 'XINPT';
      end if;
      if jsonb_typeof(area->'radius') <> 'number' or (area->>'radius')::double precision <= 0 or (area->>'radius')::double precision > 250 then
        raise exception 'query.areas[%]: a circle''s radius is in kilometres, more than 0 and at most 250.', i using errcode = 'XINPT';
      end if;
      result := result || jsonb_build_array(jsonb_build_object('type', 'circle', 'latitude', area->'latitude', 'longitude', area->'longitude', 'radius', area->'radius'));
    elsif area_kind = 'polygon' then
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
comment on function app_hidden.checked_monitor_areas(areas jsonb) is 'Checks query.areas and returns it normalised: at most 20 areas; a circle in the Netherlands with a radius of 0-250 km; a polygon of one closed ring of 4-2000 points inside the Netherlands'' bounds whose edges neither cross nor touch (5000 points in all); a named area by code or name, stored as {type, code, name} (a name shared by several woonplaatsen asks for the code, or a municipality). Every error names the area by its index.';
