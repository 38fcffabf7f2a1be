--! Previous: sha1:1a6e2016c1186847a308316450a137760de69ae9
--! Hash: sha1:443a12d6a5c70956f8b7db022b4725e611a0580e
--! Message: Review mends: one definition of whether an aircraft monitor follows an aircraft; aircraft pages rewritten only when changed

-- Review mends. Whether an aircraft monitor follows an aircraft (its kinds, in either
-- vocabulary, and its registrations) has one definition, used by the overhead trigger and by
-- aircraft_event_passes alike. The aircraft pages are rewritten on start only when they changed.

drop function if exists app_hidden.aircraft_monitor_follows(app_public.monitors, app_public.aircraft_fleet) cascade;

create function app_hidden.aircraft_monitor_follows(mo app_public.monitors, f app_public.aircraft_fleet) returns boolean
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select (jsonb_array_length(coalesce(mo.query->'kinds', '[]')) = 0
          or f.kind in (select app_hidden.aircraft_kind(k) from jsonb_array_elements_text(mo.query->'kinds') k))
     and (jsonb_array_length(coalesce(mo.query->'registrations', '[]')) = 0
          or f.registration in (select upper(btrim(r)) from jsonb_array_elements_text(mo.query->'registrations') r))
$$;

create or replace function app_hidden.aircraft_event_passes(mo app_public.monitors, e app_public.aircraft_events) returns boolean
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select (e.monitor_uuid is null or e.monitor_uuid = mo.uuid)
     and app_hidden.aircraft_monitor_follows(mo, f)
     and (mo.radius is null or (e.latitude is not null
          and app_hidden.distance_km(mo.latitude, mo.longitude, e.latitude, e.longitude) <= mo.radius))
    from app_public.aircraft_fleet f where f.icao = e.icao
$$;

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
    join app_public.monitors mo on mo.type = 'aircraft' and mo.active and mo.radius is not null
         and app_hidden.distance_km(mo.latitude, mo.longitude, p.latitude, p.longitude) <= mo.radius
   where app_hidden.aircraft_monitor_follows(mo, f)
   order by p.route_uuid, mo.uuid, p.at
  on conflict do nothing;
  return null;
end;
$$;

create or replace function app_private.upsert_aircraft_content(items jsonb) returns integer
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  with upserted as (
    insert into app_public.aircraft_content_items as c (slug, type, name, registrations, aircraft_type, base, description, image_url, sources, sort_order)
    select i.slug, i.type, i.name, coalesce(i.registrations, '{}'), i."aircraftType", i.base, i.description, i."imageUrl",
           coalesce(i.sources, '{}'), row_number() over ()
      from jsonb_to_recordset(items) as i (slug text, type text, name text, registrations text[], "aircraftType" text, base text,
             description text, "imageUrl" text, sources text[])
    on conflict (slug) do update set type = excluded.type, name = excluded.name, registrations = excluded.registrations,
      aircraft_type = excluded.aircraft_type, base = excluded.base, description = excluded.description, image_url = excluded.image_url,
      sources = excluded.sources, sort_order = excluded.sort_order
    where (c.type, c.name, c.registrations, c.aircraft_type, c.base, c.description, c.image_url, c.sources, c.sort_order)
          is distinct from (excluded.type, excluded.name, excluded.registrations, excluded.aircraft_type, excluded.base,
                            excluded.description, excluded.image_url, excluded.sources, excluded.sort_order)
    returning 1
  )
  select count(*)::integer from upserted
$$;
