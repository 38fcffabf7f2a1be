--! Previous: sha1:443a12d6a5c70956f8b7db022b4725e611a0580e
--! Hash: sha1:bf777a248fcd89da814fe6db24206cac772af2c1
--! Message: Aircraft: a completed route's path kept as its text (built once when the route completes, rebuilt when its points change)

-- A completed route's path kept as its text. A route no longer changes once it is completed
-- (landed or signal lost: ingestion starts a new route for the next flight), so its path is
-- built once, when it completes, instead of aggregating thousands of points on every request
-- (aircraftRoute with 5,000 points: 6.2 ms of SQL a call built, 0.9 ms kept; docs/benchmarks.md).
-- Whatever else changes a completed route's points (a DBA's insert, update or delete) rebuilds it.

drop trigger if exists _500_keep_path on app_public.aircraft_routes;
drop trigger if exists _500_keep_paths_after_insert on app_public.aircraft_route_points;
drop trigger if exists _500_keep_paths_after_update on app_public.aircraft_route_points;
drop trigger if exists _500_keep_paths_after_delete on app_public.aircraft_route_points;
drop table if exists app_hidden.aircraft_route_paths cascade;
drop function if exists app_hidden.keep_completed_route_paths();
drop function if exists app_hidden.keep_completed_route_path();
drop function if exists app_hidden.aircraft_route_path_built(uuid);

create function app_hidden.aircraft_route_path_built(route uuid) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(json_agg(json_build_array(p.longitude, p.latitude, p.altitude_ft, floor(extract(epoch from p.at))::bigint) order by p.at)::text, '[]')
    from app_public.aircraft_route_points p where p.route_uuid = route
$$;
comment on function app_hidden.aircraft_route_path_built(uuid) is
  'A route''s points as one JSON text, [[longitude, latitude, altitudeFt, Unix seconds], …] in time order: the one definition of AircraftRoute.path.';

create table app_hidden.aircraft_route_paths (
  route_uuid uuid primary key references app_public.aircraft_routes on delete cascade,
  path text not null
);
comment on table app_hidden.aircraft_route_paths is 'The path of each completed route, built once when it completed (kept by triggers; read by AircraftRoute.path).';
alter table app_hidden.aircraft_route_paths enable row level security;

insert into app_hidden.aircraft_route_paths (route_uuid, path)
select r.uuid, app_hidden.aircraft_route_path_built(r.uuid) from app_public.aircraft_routes r where r.status = 'completed';

create function app_hidden.keep_completed_route_path() returns trigger
  language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if new.status = 'completed' then
    insert into app_hidden.aircraft_route_paths (route_uuid, path) values (new.uuid, app_hidden.aircraft_route_path_built(new.uuid))
    on conflict (route_uuid) do update set path = excluded.path;
  else
    delete from app_hidden.aircraft_route_paths k where k.route_uuid = new.uuid;
  end if;
  return null;
end;
$$;
create trigger _500_keep_path after insert or update of status on app_public.aircraft_routes
  for each row execute function app_hidden.keep_completed_route_path();

-- Statement-level with transition tables: one statement however many points it touched, and
-- nothing to do for the points ingestion adds to active routes.
create function app_hidden.keep_completed_route_paths() returns trigger
  language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    insert into app_hidden.aircraft_route_paths (route_uuid, path)
    select r.uuid, app_hidden.aircraft_route_path_built(r.uuid)
      from app_public.aircraft_routes r where r.status = 'completed' and r.uuid in (select route_uuid from new_points)
    on conflict (route_uuid) do update set path = excluded.path;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    insert into app_hidden.aircraft_route_paths (route_uuid, path)
    select r.uuid, app_hidden.aircraft_route_path_built(r.uuid)
      from app_public.aircraft_routes r where r.status = 'completed' and r.uuid in (select route_uuid from old_points)
    on conflict (route_uuid) do update set path = excluded.path;
  end if;
  return null;
end;
$$;
create trigger _500_keep_paths_after_insert after insert on app_public.aircraft_route_points
  referencing new table as new_points for each statement execute function app_hidden.keep_completed_route_paths();
create trigger _500_keep_paths_after_update after update on app_public.aircraft_route_points
  referencing old table as old_points new table as new_points for each statement execute function app_hidden.keep_completed_route_paths();
create trigger _500_keep_paths_after_delete after delete on app_public.aircraft_route_points
  referencing old table as old_points for each statement execute function app_hidden.keep_completed_route_paths();

-- Security definer: the kept paths table has no policy for app_visitor; the caller already sees
-- the route it passes (the routes' own policy), and a path holds nothing the route's points do not.
create or replace function app_public.aircraft_routes_path(r app_public.aircraft_routes) returns text
  language sql stable parallel safe security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce((select k.path from app_hidden.aircraft_route_paths k where k.route_uuid = r.uuid),
                  app_hidden.aircraft_route_path_built(r.uuid))
$$;
