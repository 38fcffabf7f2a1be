--! Previous: sha1:b159ab5248cdb91bdea83adb1cd70b2baacad54a
--! Hash: sha1:4360ce9f5b8a6f310282a19db77828f47881a414
--! Message: Aircraft overhead: a flight entering an aircraft monitor's circle is that monitor's event, once per flight

-- Aircraft overhead: an aircraft monitor with a place and radius hears once per flight when the
-- aircraft comes within its circle. The event is the monitor's own (monitor_uuid), recorded by a
-- trigger on new route points, so it is found and matched like take-offs and landings.

drop trigger if exists _600_overhead_events on app_public.aircraft_route_points;
drop function if exists app_hidden.tg_aircraft_route_points__overhead_events();
alter table app_public.aircraft_events drop constraint if exists aircraft_events_route_uuid_kind_key;
alter table app_public.aircraft_events drop constraint if exists aircraft_events_once;
alter table app_public.aircraft_events drop constraint if exists aircraft_events_kind_check;
alter table app_public.aircraft_events drop column if exists monitor_uuid;

alter table app_public.aircraft_events add column monitor_uuid uuid references app_public.monitors on delete cascade;
comment on column app_public.aircraft_events.monitor_uuid is E'@behavior -*\nFor an overhead event: the monitor whose circle the aircraft entered.';
comment on constraint aircraft_events_monitor_uuid_fkey on app_public.aircraft_events is E'@behavior -*';
alter table app_public.aircraft_events add constraint aircraft_events_kind_check check (kind in ('take_off', 'landing', 'overhead'));
alter table app_public.aircraft_events add constraint aircraft_events_once check ((kind = 'overhead') = (monitor_uuid is not null));
create unique index if not exists aircraft_events_once_idx on app_public.aircraft_events (route_uuid, kind, coalesce(monitor_uuid, '00000000-0000-0000-0000-000000000000'));
comment on table app_public.aircraft_events is E'@name aircraft_event\nA take-off or landing of a tracked aircraft, or its first pass over an aircraft monitor''s circle on a flight.';

-- New points of a flight inside an aircraft monitor's circle (of its kinds and registrations):
-- the first such point of the flight is that monitor's overhead event.
create function app_hidden.tg_aircraft_route_points__overhead_events() returns trigger
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
   where (jsonb_array_length(coalesce(mo.query->'kinds', '[]')) = 0
          or f.kind in (select app_hidden.aircraft_kind(k) from jsonb_array_elements_text(mo.query->'kinds') k))
     and (jsonb_array_length(coalesce(mo.query->'registrations', '[]')) = 0
          or f.registration in (select upper(btrim(x)) from jsonb_array_elements_text(mo.query->'registrations') x))
   order by p.route_uuid, mo.uuid, p.at
  on conflict do nothing;
  return null;
end;
$$;
create trigger _600_overhead_events after insert on app_public.aircraft_route_points
  referencing new table as new_points for each statement execute function app_hidden.tg_aircraft_route_points__overhead_events();

-- An overhead event passes its own monitor only; take-offs and landings as before.
create or replace function app_hidden.aircraft_event_passes(mo app_public.monitors, e app_public.aircraft_events) returns boolean
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select (e.monitor_uuid is null or e.monitor_uuid = mo.uuid)
     and (jsonb_array_length(coalesce(mo.query->'kinds', '[]')) = 0
          or f.kind in (select app_hidden.aircraft_kind(k) from jsonb_array_elements_text(mo.query->'kinds') k))
     and (jsonb_array_length(coalesce(mo.query->'registrations', '[]')) = 0
          or f.registration in (select upper(btrim(r)) from jsonb_array_elements_text(mo.query->'registrations') r))
     and (mo.radius is null or (e.latitude is not null
          and app_hidden.distance_km(mo.latitude, mo.longitude, e.latitude, e.longitude) <= mo.radius))
    from app_public.aircraft_fleet f where f.icao = e.icao
$$;

create or replace function app_hidden.aircraft_notification_subject(e app_public.aircraft_events) returns app_hidden.notification_subject
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(
    format('%s %s%s', f.registration, case e.kind when 'take_off' then 'opgestegen' when 'landing' then 'geland' else 'overvliegend' end,
           case when e.place is not null then ' bij ' || e.place else '' end),
    array[
      format('Aircraft: %s (%s, %s)', f.registration, f.kind, coalesce(f.base, '-')),
      format('Event: %s', e.kind),
      format('At: %s (Europe/Amsterdam)', to_char(e.at at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI:SS')),
      format('Place: %s (%s, %s)', coalesce(e.place, '-'), e.latitude, e.longitude)],
    'aircraft.' || e.kind,
    jsonb_build_object('aircraftEvent', jsonb_build_object('uuid', e.uuid, 'icao', e.icao, 'registration', f.registration, 'kind', f.kind,
      'event', e.kind, 'at', e.at, 'latitude', e.latitude, 'longitude', e.longitude, 'place', e.place, 'routeUuid', e.route_uuid)))::app_hidden.notification_subject
    from app_public.aircraft_fleet f where f.icao = e.icao
$$;
