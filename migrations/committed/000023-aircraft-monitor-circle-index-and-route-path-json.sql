--! Previous: sha1:4a09888f6482d8055ffbaba3765befac86d374bc
--! Hash: sha1:8e8ca6b8af2bd7e55691ad811c23f6b61e0faada
--! Message: Aircraft speed: aircraft monitors with a circle by a partial index, AircraftRoute.path as one JSON text

-- Aircraft speed: the overhead trigger looks up aircraft monitors with a circle by a partial
-- index (it ran on every stored point and read the whole monitors table: 7.5% of a core for 30
-- aircraft at one document a second with 100,000 monitors), and a route's path comes as one JSON
-- text built in one statement (AircraftRoute.path), for clients that draw a flight of thousands
-- of points without paying GraphQL's per-value cost of `points`.

drop index if exists app_public.monitors_aircraft_circles_idx;
drop function if exists app_public.aircraft_routes_path(app_public.aircraft_routes);

create index monitors_aircraft_circles_idx on app_public.monitors (uuid) where type = 'aircraft' and active and radius is not null;

create function app_public.aircraft_routes_path(r app_public.aircraft_routes) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(json_agg(json_build_array(p.longitude, p.latitude, p.altitude_ft, floor(extract(epoch from p.at))::bigint) order by p.at)::text, '[]')
    from app_public.aircraft_route_points p where p.route_uuid = r.uuid
$$;
comment on function app_public.aircraft_routes_path(app_public.aircraft_routes) is
  E'@notNull\nThe route''s points as one JSON text: [[longitude, latitude, altitudeFt, Unix seconds], …] in time order (GeoJSON coordinate order), for drawing long flights.';
