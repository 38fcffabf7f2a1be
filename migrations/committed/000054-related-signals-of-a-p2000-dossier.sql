--! Previous: sha1:ebd2c4a8f14767be9b9ed3f105c4cac99fb58769
--! Hash: sha1:6d8a65dcedad837281dcd7a167ed7ba2d8b61a40
--! Message: Related signals of a P2000 dossier

-- Issue 29, part 3: the related signals of a P2000 dossier. The service holds the road authority's
-- incidents, the helicopters' flights, the NL-Alerts and the weather warnings; a dossier with a
-- position lists those that belong with it: the incident on the road at the same place and time,
-- the trauma helicopter that landed next to it, the NL-Alert whose area covers it, the warning in
-- force in its province. Each kind is found through an index on its time (a window of hours), then
-- filtered by distance: no scan of all incidents or flights per dossier.

drop function if exists app_public.p2000_dossier_related_signals(app_public.p2000_dossier);
drop type if exists app_public.p2000_related_signal;
drop table if exists app_hidden.related_signal_windows;

create table app_hidden.related_signal_windows (
  singleton boolean primary key default true check (singleton),
  traffic_metres integer not null default 500 check (traffic_metres between 0 and 10000),
  traffic_before interval not null default '30 minutes',
  traffic_after interval not null default '2 hours',
  aircraft_metres integer not null default 1500 check (aircraft_metres between 0 and 20000),
  aircraft_after interval not null default '1 hour',
  nl_alert_after interval not null default '1 hour',
  nl_alert_longest interval not null default '3 days'
);
alter table app_hidden.related_signal_windows enable row level security;
create policy select_all on app_hidden.related_signal_windows for select to app_visitor, app_analyst using (true);
grant select on app_hidden.related_signal_windows to app_visitor, app_analyst;
insert into app_hidden.related_signal_windows default values;
comment on table app_hidden.related_signal_windows is 'How near in space and time a signal of another feed must be to belong with a P2000 dossier (app_public.p2000_dossier_related_signals): one row, which a DBA may update (docs/p2000.md#related-signals says why these values).';
comment on column app_hidden.related_signal_windows.singleton is 'Always true: the table has one row.';
comment on column app_hidden.related_signal_windows.traffic_metres is 'A traffic incident at most this far from the dossier''s position (500: a message''s hectometre post or street and the road authority''s point for one crash lie a few hundred metres apart; the next junction is further).';
comment on column app_hidden.related_signal_windows.traffic_before is 'A traffic incident that started at most this long before the first message (30 minutes: the road authority sometimes registers the crash before the 112 call has been dispatched).';
comment on column app_hidden.related_signal_windows.traffic_after is 'A traffic incident that started at most this long after the last message (2 hours: registration follows the first reports by minutes to an hour; a later one at the same place is another event).';
comment on column app_hidden.related_signal_windows.aircraft_metres is 'A helicopter landing or take-off at most this far from the dossier''s position (1,500: a trauma helicopter lands in the nearest field or street that is free, often several hundred metres from the scene).';
comment on column app_hidden.related_signal_windows.aircraft_after is 'A landing or take-off at most this long after the first message (1 hour: dispatch to landing takes 10-30 minutes, treatment on the scene before the take-off up to half an hour more).';
comment on column app_hidden.related_signal_windows.nl_alert_after is 'An NL-Alert that started at most this long after the last message (1 hour: an alert for a fire''s smoke follows the first alarms).';
comment on column app_hidden.related_signal_windows.nl_alert_longest is 'How long before the first message an NL-Alert that still runs may have started (3 days; a bound for the start-time index, longer alerts are rare).';

create type app_public.p2000_related_signal as (
  kind text,
  uuid uuid,
  at timestamptz,
  title text,
  latitude double precision,
  longitude double precision,
  distance_metres integer,
  road text
);
comment on type app_public.p2000_related_signal is 'A signal of another feed that belongs with a P2000 dossier: a traffic incident, a helicopter landing or take-off, an NL-Alert or a weather warning.';
comment on column app_public.p2000_related_signal.kind is E'@notNull\ntraffic_incident, aircraft_landing, aircraft_takeoff, nl_alert or weather_warning.';
comment on column app_public.p2000_related_signal.uuid is E'@notNull\nThe signal: trafficIncidents'' uuid, the flight (aircraftRoutes), nlAlerts'' uuid or the weather warning event.';
comment on column app_public.p2000_related_signal.at is E'@notNull\nWhen: the incident''s start, the landing, the take-off, the alert''s start, the warning''s issue.';
comment on column app_public.p2000_related_signal.title is E'@notNull\nWhat it is, in words (incident type and road, registration and kind of helicopter, the alert''s text, province and level).';
comment on column app_public.p2000_related_signal.latitude is 'Where it happened, for the signals with a point (incidents, landings, take-offs).';
comment on column app_public.p2000_related_signal.longitude is 'Where it happened, for the signals with a point.';
comment on column app_public.p2000_related_signal.distance_metres is 'How far from the dossier''s position (0 for an NL-Alert whose area covers it; null for a province''s warning).';
comment on column app_public.p2000_related_signal.road is 'The incident''s road (A12, N201, …).';

create function app_public.p2000_dossier_related_signals(d app_public.p2000_dossier)
returns setof app_public.p2000_related_signal language sql stable parallel safe as $$
  with w as (select * from app_hidden.related_signal_windows),
       -- the dossier's province: the place of its first message that names one
       province as (
         select mp.uuid, mp.name
           from app_public.p2000_messages m
           join app_public.places p on p.uuid = m.place_uuid
           join app_public.nl_provinces np on np.iso_code = 'NL-' || p.province_code
           join app_public.meteo_provinces mp on mp.code = np.code
          where m.dossier_uuid = d.uuid and m.place_uuid is not null
          order by m.sended limit 1)
  select s.* from (
    select 'traffic_incident', t.uuid, t.sort_at, t.type || coalesce(' on ' || t.road_number, ''), t.latitude, t.longitude,
           round(1000 * app_hidden.distance_km(d.latitude, d.longitude, t.latitude, t.longitude))::int, t.road_number
      from w, app_public.traffic_incidents t
     where t.sort_at >= d.first_sended - w.traffic_before and t.sort_at <= d.last_sended + w.traffic_after
       and 1000 * app_hidden.distance_km(d.latitude, d.longitude, t.latitude, t.longitude) <= w.traffic_metres
    union all
    select 'aircraft_landing', r.uuid, r.landed_at, a.registration || ' (' || a.kind || ') landed',
           r.end_latitude, r.end_longitude,
           round(1000 * app_hidden.distance_km(d.latitude, d.longitude, r.end_latitude, r.end_longitude))::int, null
      from w, app_public.aircraft_routes r join app_public.aircraft_fleet a on a.icao = r.icao
     where r.landed_at >= d.first_sended and r.landed_at <= d.first_sended + w.aircraft_after
       and 1000 * app_hidden.distance_km(d.latitude, d.longitude, r.end_latitude, r.end_longitude) <= w.aircraft_metres
    union all
    select 'aircraft_takeoff', r.uuid, r.took_off_at, a.registration || ' (' || a.kind || ') took off',
           r.start_latitude, r.start_longitude,
           round(1000 * app_hidden.distance_km(d.latitude, d.longitude, r.start_latitude, r.start_longitude))::int, null
      from w, app_public.aircraft_routes r join app_public.aircraft_fleet a on a.icao = r.icao
     where r.took_off_at >= d.first_sended and r.took_off_at <= d.first_sended + w.aircraft_after
       and 1000 * app_hidden.distance_km(d.latitude, d.longitude, r.start_latitude, r.start_longitude) <= w.aircraft_metres
    union all
    select 'nl_alert', n.uuid, n.start_at, left(n.message, 500), null::float8, null::float8, 0, null
      from w, app_public.nl_alerts n
     where n.start_at >= d.first_sended - w.nl_alert_longest and n.start_at <= d.last_sended + w.nl_alert_after
       and coalesce(n.stop_at, 'infinity') > d.first_sended
       and exists (select 1 from unnest(n.areas) as a (area) where a.area @> point(d.longitude, d.latitude))
    union all
    -- the warning in force: the province's latest event issued by the first message, if it has a level
    -- and its period covers the incident
    select 'weather_warning', e.uuid, e.issued_at,
           province.name || ': ' || e.level || coalesce(' (' || nullif(array_to_string(e.phenomena, ', '), '') || ')', ''),
           null, null, null, null
      from province
      join lateral (select x.* from app_public.meteo_warning_events x
                     where x.province_uuid = province.uuid and x.issued_at <= d.first_sended
                     order by x.issued_at desc, x.uuid desc limit 1) e on true
     where e.status_code > 0 and coalesce(e.period_from, '-infinity') <= d.last_sended
       and coalesce(e.period_to, 'infinity') > d.first_sended
  ) as s (kind, uuid, at, title, latitude, longitude, distance_metres, road)
  where d.latitude is not null and d.longitude is not null
  order by s.at, s.kind, s.uuid
$$;
comment on function app_public.p2000_dossier_related_signals(app_public.p2000_dossier) is E'@behavior -queryField +typeField\n@notNull\nThe signals of the other feeds that belong with the dossier, oldest first: traffic incidents near its position around its time, helicopter landings and take-offs nearby in the hour after its first message, NL-Alerts whose area covers it while it runs, and the weather warning in force in its province. Empty for a dossier without a position. The windows are app_hidden.related_signal_windows.';

-- The flights of a window of time, for the related signals (a flight's times are not in its
-- aircraft's index).
create index if not exists aircraft_routes_landed_idx on app_public.aircraft_routes (landed_at) where landed_at is not null;
create index if not exists aircraft_routes_took_off_idx on app_public.aircraft_routes (took_off_at) where took_off_at is not null;
comment on index app_public.aircraft_routes_landed_idx is 'Landings in a window of time (app_public.p2000_dossier_related_signals).';
comment on index app_public.aircraft_routes_took_off_idx is 'Take-offs in a window of time (app_public.p2000_dossier_related_signals).';
