--! Previous: sha1:47347a18e8f7119f9373357ebecc83ea38ca0b10
--! Hash: sha1:6e0e10706b2daf0ac9e30f6005c2940021d7d1df
--! Message: monitorPreview for every monitor type

-- monitorPreview for every monitor type (issue #29): accident, meteo_weather, nl_alert,
-- amber_alert, aircraft, matrix, rail_disruptions and rss monitors preview as P2000 ones do, and every preview lists its matched items with
-- their time and place for a map. Each type's "does this item match this monitor" is one SQL
-- definition that its live matcher and the preview both call:
-- - accident: app_hidden.traffic_event_incident (the incident as the event saw it) and
--   app_hidden.traffic_incident_passes over app_hidden.accident_criteria_of;
-- - meteo_weather: app_hidden.meteo_criteria_of and app_hidden.meteo_event_passes;
-- - nl_alert: app_hidden.nl_alert_criteria_of and app_hidden.nl_alert_passes (live matching
--   still finds its candidates through the criteria table's indexes);
-- - amber_alert: app_hidden.amber_alert_criteria_of and app_hidden.amber_alert_passes;
-- - aircraft: app_hidden.aircraft_event_passes (already shared with aircraftEventsForMonitor);
-- - matrix: app_hidden.matrix_criteria_of and app_hidden.traffic_jam_passes;
-- - rail_disruptions: app_hidden.rail_criteria_of and app_hidden.rail_disruption_passes;
-- - rss: app_hidden.rss_criteria_of and app_hidden.rss_item_passes.
-- Re-runnable while it is current.sql.
drop function if exists app_hidden.monitor_preview(integer, boolean, text, text, boolean, text, text, double precision,
  double precision, text, text, double precision, text, text);
drop function if exists app_hidden.monitor_preview_feed_items(app_public.monitors, timestamptz);
drop function if exists app_hidden.traffic_event_incident(app_public.traffic_incident_events, app_public.traffic_incidents);
drop function if exists app_hidden.meteo_event_passes(app_hidden.meteo_monitor_criteria, app_public.meteo_warning_events);
drop function if exists app_hidden.meteo_criteria_of(app_public.monitors);
drop function if exists app_hidden.nl_alert_passes(app_hidden.nl_alert_monitor_criteria, app_public.nl_alerts);
drop function if exists app_hidden.traffic_jam_passes(app_hidden.matrix_monitor_criteria, app_public.traffic_jams);
drop function if exists app_hidden.rail_disruption_passes(app_hidden.rail_monitor_criteria, app_public.rail_disruptions);
drop function if exists app_hidden.rss_item_passes(app_hidden.rss_monitor_criteria, app_public.rss_feed_items);
drop function if exists app_hidden.rss_criteria_of(app_public.monitors);
drop function if exists app_hidden.amber_alert_passes(app_hidden.amber_alert_monitor_criteria, app_public.amber_alerts);

-- The preview reads a window of traffic events by time.
create index if not exists traffic_incident_events_created_idx on app_public.traffic_incident_events (created);
comment on index app_public.traffic_incident_events_created_idx is 'The events of a time window, for monitorPreview of accident monitors.';

--------------------------------------------------------------------------------------------------
-- accident

create function app_hidden.traffic_event_incident(e app_public.traffic_incident_events, i app_public.traffic_incidents)
  returns app_public.traffic_incidents
  language plpgsql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  i.type := e.type;
  return i;
end;
$$;
comment on function app_hidden.traffic_event_incident(e app_public.traffic_incident_events, i app_public.traffic_incidents) is 'The incident as one of its events saw it: of the type the event was about, whatever it became since. Live accident matching and monitorPreview judge an event by it (with app_hidden.traffic_incident_passes).';

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

--------------------------------------------------------------------------------------------------
-- meteo_weather

create function app_hidden.meteo_criteria_of(mo app_public.monitors) returns app_hidden.meteo_monitor_criteria
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(mo.uuid,
             array(select p.uuid from app_public.meteo_provinces p
                    where p.code = any (array(select lower(x) from jsonb_array_elements_text(coalesce(mo.query->'regions', '[]')) x))),
             array(select l.status_code from app_public.meteo_levels l
                    where l.value = any (array(select lower(x) from jsonb_array_elements_text(coalesce(mo.query->'levels', '[]')) x)))
            )::app_hidden.meteo_monitor_criteria
$$;
comment on function app_hidden.meteo_criteria_of(mo app_public.monitors) is 'A meteo_weather monitor''s criteria as its query states them: province codes and level names resolved to uuids and status codes. It is one definition for the criteria trigger and monitorPreview.';

create or replace function app_hidden.tg_monitors__meteo_criteria() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.meteo_monitor_criteria c where c.monitor_uuid = new.uuid;
  if new.type = 'meteo_weather' and new.active then
    insert into app_hidden.meteo_monitor_criteria select (app_hidden.meteo_criteria_of(new)).*;
  end if;
  return null;
end;
$$;

-- Inlinable (plain SQL, everything named by schema).
create function app_hidden.meteo_event_passes(c app_hidden.meteo_monitor_criteria, e app_public.meteo_warning_events)
  returns boolean
  language sql immutable parallel safe
as $$
  select e.status_code > 0
     and (e.status_code <> e.previous_status_code or not e.phenomena operator(pg_catalog.<@) e.previous_phenomena)
     and (cardinality(c.province_uuids) = 0 or e.province_uuid = any (c.province_uuids))
     and (cardinality(c.status_codes) = 0 or e.status_code = any (c.status_codes))
$$;
comment on function app_hidden.meteo_event_passes(c app_hidden.meteo_monitor_criteria, e app_public.meteo_warning_events) is 'Whether a warning event notifies a meteo_weather monitor: it is news (a level above 0 that changed, or a phenomenon added) of one of its provinces and levels (an empty list means every one). One definition for app_private.match_meteo_event and monitorPreview.';

create or replace function app_private.match_meteo_event(event_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  e app_public.meteo_warning_events;
begin
  select * into e from app_public.meteo_warning_events x where x.uuid = match_meteo_event.event_uuid;
  if e.uuid is null then
    return 0;
  end if;
  return app_private.notify_feed_event('meteo', e.uuid, array(
    select c.monitor_uuid from app_hidden.meteo_monitor_criteria c
     where app_hidden.meteo_event_passes(c, e) order by c.monitor_uuid), app_hidden.meteo_notification_subject(e));
end;
$$;

--------------------------------------------------------------------------------------------------
-- nl_alert

create function app_hidden.nl_alert_passes(c app_hidden.nl_alert_monitor_criteria, a app_public.nl_alerts) returns boolean
  language sql immutable parallel safe
as $$
  select c.everywhere
      or c.region_numbers operator(pg_catalog.&&) a.region_numbers
      or exists (select 1 from pg_catalog.unnest(a.areas) x (area)
                  where c.area operator(pg_catalog.&&) x.area or c.point operator(pg_catalog.<@) x.area)
$$;
comment on function app_hidden.nl_alert_passes(c app_hidden.nl_alert_monitor_criteria, a app_public.nl_alerts) is 'Whether an NL-Alert reaches an nl_alert monitor: the monitor has neither location nor regions, or the alert covers one of its safety regions, meets its circle or covers its point. One definition for app_private.match_nl_alert (which finds the candidates through indexes first) and monitorPreview.';

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
      select c.monitor_uuid from unnest(a.areas) x (area) join app_hidden.nl_alert_monitor_criteria c on c.point <@ x.area)
       and app_hidden.nl_alert_passes(c, a)
     order by c.monitor_uuid), app_hidden.nl_alert_notification_subject(a));
end;
$$;

--------------------------------------------------------------------------------------------------
-- amber_alert

create function app_hidden.amber_alert_passes(c app_hidden.amber_alert_monitor_criteria, a app_public.amber_alerts)
  returns boolean
  language sql immutable parallel safe
as $$
  select (cardinality(c.kinds) = 0 or (case a.level when 10 then 'amber' else 'missing_child' end) = any (c.kinds))
     and (a.level = 10 or cardinality(c.province_codes) = 0 or c.province_codes operator(pg_catalog.&&) a.province_codes)
$$;
comment on function app_hidden.amber_alert_passes(c app_hidden.amber_alert_monitor_criteria, a app_public.amber_alerts) is 'Whether an alert''s issue reaches an amber_alert monitor: of one of its kinds (the kind of app_hidden.amber_alert_label), and nationwide (an AMBER Alert, level 10), or of one of its provinces, or the monitor names none. One definition for app_private.match_amber_alert and monitorPreview.';

create or replace function app_private.match_amber_alert(alert_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  a app_public.amber_alerts;
begin
  -- The issue and the end of one alert are matched one at a time, each reading the alert after
  -- the lock: an end matched first finds no issue's matches, and an issue matched after the end
  -- finds the alert ended, so nobody hears of the one without the other.
  perform pg_advisory_xact_lock(hashtext('amber_alert:' || match_amber_alert.alert_uuid));
  select * into a from app_public.amber_alerts x where x.uuid = match_amber_alert.alert_uuid;
  if a.uuid is null or a.ended_at is not null then
    return 0;
  end if;
  return app_private.notify_feed_event('amber_alert', a.uuid, array(
    select c.monitor_uuid from app_hidden.amber_alert_monitor_criteria c
     where app_hidden.amber_alert_passes(c, a)
     order by c.monitor_uuid), app_hidden.amber_alert_notification_subject(a, false));
end;
$$;

--------------------------------------------------------------------------------------------------
-- matrix

create function app_hidden.traffic_jam_passes(c app_hidden.matrix_monitor_criteria, j app_public.traffic_jams) returns boolean
  language sql immutable parallel safe
as $$
  select (cardinality(c.roads) = 0 or j.road_number = any (c.roads))
     and coalesce(j.delay_minutes, 0) >= c.min_delay_minutes
$$;
comment on function app_hidden.traffic_jam_passes(c app_hidden.matrix_monitor_criteria, j app_public.traffic_jams) is 'Whether a jam (as it is) reaches a matrix monitor: on one of its roads (or it names none), with at least its minimum delay. One definition for app_private.match_traffic_jam and monitorPreview.';

create or replace function app_private.match_traffic_jam(jam_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  j app_public.traffic_jams;
begin
  select * into j from app_public.traffic_jams x where x.uuid = match_traffic_jam.jam_uuid;
  if j.uuid is null or j.closed_at is not null then
    return 0;
  end if;
  return app_private.notify_feed_event('traffic_jam', j.uuid, array(
    select c.monitor_uuid from app_hidden.matrix_monitor_criteria c
     where app_hidden.traffic_jam_passes(c, j)
     order by c.monitor_uuid), app_hidden.traffic_jam_notification_subject(j));
end;
$$;

--------------------------------------------------------------------------------------------------
-- rail_disruptions

create function app_hidden.rail_disruption_passes(c app_hidden.rail_monitor_criteria, d app_public.rail_disruptions)
  returns boolean
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select cardinality(c.routes) = 0 or d.kind = 'calamity'
      or (cardinality(d.station_codes) > 0 and exists (select 1 from app_public.rail_routes r
                  where r.value = any (c.routes)
                    and cardinality(array(select unnest(r.stations) intersect select unnest(d.station_codes)))
                        >= least(2, cardinality(d.station_codes))))
$$;
comment on function app_hidden.rail_disruption_passes(c app_hidden.rail_monitor_criteria, d app_public.rail_disruptions) is 'Whether a railway disruption reaches a rail_disruptions monitor: at least two stations of one of its routes are among the disruption''s (a stretch of the route), or its only station is; a calamity reaches every monitor, as anything reaches a monitor without routes. One definition for app_private.match_rail_disruption and monitorPreview.';

create or replace function app_private.match_rail_disruption(disruption_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  d app_public.rail_disruptions;
begin
  select * into d from app_public.rail_disruptions x where x.uuid = match_rail_disruption.disruption_uuid;
  if d.uuid is null or not d.active then
    return 0;
  end if;
  return app_private.notify_feed_event('rail', d.uuid, array(
    select c.monitor_uuid from app_hidden.rail_monitor_criteria c
     where app_hidden.rail_disruption_passes(c, d)
     order by c.monitor_uuid), app_hidden.rail_disruption_notification_subject(d));
end;
$$;

--------------------------------------------------------------------------------------------------
-- rss

create function app_hidden.rss_criteria_of(mo app_public.monitors) returns app_hidden.rss_monitor_criteria
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(mo.uuid,
             array(select f.uuid from app_public.rss_feeds f where f.url in (select jsonb_array_elements_text(coalesce(mo.query->'feeds', '[]')))),
             array(select lower(k) from jsonb_array_elements_text(coalesce(mo.query->'keywords', '[]')) k),
             coalesce(mo.created, '-infinity'))::app_hidden.rss_monitor_criteria
$$;
comment on function app_hidden.rss_criteria_of(mo app_public.monitors) is 'An rss monitor''s criteria: the feeds of its query that are followed (by uuid), its keywords in lower case, and since its creation (an unsaved monitor, for monitorPreview, since ever). One definition for app_hidden.sync_rss_monitor and monitorPreview.';

create or replace function app_hidden.sync_rss_monitor(mo app_public.monitors) returns void
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.rss_monitor_criteria c where c.monitor_uuid = mo.uuid;
  if mo.type <> 'rss' then
    return;
  end if;
  insert into app_public.rss_feeds (url)
  select distinct u from jsonb_array_elements_text(coalesce(mo.query->'feeds', '[]')) u
  on conflict (url) do nothing;
  if mo.active then
    insert into app_hidden.rss_monitor_criteria select (app_hidden.rss_criteria_of(mo)).*;
  end if;
end;
$$;

create function app_hidden.rss_item_passes(c app_hidden.rss_monitor_criteria, i app_public.rss_feed_items) returns boolean
  language sql immutable parallel safe
as $$
  select i.feed_uuid = any (c.feed_uuids) and c.since <= i.first_seen_at
     and (cardinality(c.keywords) = 0 or exists (select 1 from pg_catalog.unnest(c.keywords) k
            where pg_catalog.strpos(pg_catalog.lower(coalesce(i.title, '') || ' ' || coalesce(i.summary, '')), k) > 0))
$$;
comment on function app_hidden.rss_item_passes(c app_hidden.rss_monitor_criteria, i app_public.rss_feed_items) is 'Whether an RSS item reaches an rss monitor: of a feed it follows, first seen after the monitor was made, holding one of its keywords (case-insensitive, in title or summary) or it has none. One definition for app_private.match_rss_item and monitorPreview.';

create or replace function app_private.match_rss_item(item_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  i app_public.rss_feed_items;
begin
  select * into i from app_public.rss_feed_items x where x.uuid = match_rss_item.item_uuid;
  if i.uuid is null then
    return 0;
  end if;
  return app_private.notify_feed_event('rss', i.uuid, array(
    select c.monitor_uuid from app_hidden.rss_monitor_criteria c
     where app_hidden.rss_item_passes(c, i)
     order by c.monitor_uuid), app_hidden.rss_notification_subject(i));
end;
$$;

--------------------------------------------------------------------------------------------------
-- The preview.

-- The items of the window a feed monitor matches, through the definitions above, with the
-- conditions its feed's queueing trigger puts on an item (live when stored). SECURITY DEFINER:
-- a user reads the traffic events that live matching reads (app_analyst's table otherwise).
create function app_hidden.monitor_preview_feed_items(mo app_public.monitors, since timestamptz)
  returns table (kind text, uuid uuid, at timestamptz, title text, latitude double precision, longitude double precision)
  language plpgsql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  traffic app_hidden.traffic_monitor_criteria;
  meteo app_hidden.meteo_monitor_criteria;
  nl app_hidden.nl_alert_monitor_criteria;
  amber app_hidden.amber_alert_monitor_criteria;
begin
  case mo.type
  when 'accident' then
    traffic := app_hidden.accident_criteria_of(mo);
    return query
      select 'traffic', e.uuid, e.created, concat_ws(' ', e.kind, e.type, i.road_number), i.latitude, i.longitude
        from app_public.traffic_incident_events e join app_public.traffic_incidents i on i.uuid = e.incident_uuid
       where e.created >= since and e.created <= now()
         and app_hidden.traffic_incident_passes(traffic, app_hidden.traffic_event_incident(e, i));
  when 'meteo_weather' then
    meteo := app_hidden.meteo_criteria_of(mo);
    return query
      select 'meteo', e.uuid, e.created, concat_ws(' ', p.name, e.level, array_to_string(e.phenomena, ', ')),
             null::double precision, null::double precision
        from app_public.meteo_warning_events e join app_public.meteo_provinces p on p.uuid = e.province_uuid
       where e.created >= since and e.created <= now() and e.period_to > e.created
         and app_hidden.meteo_event_passes(meteo, e);
  when 'nl_alert' then
    nl := app_hidden.nl_alert_criteria_of(mo);
    return query
      select 'nl_alert', a.uuid, a.start_at, left(btrim(split_part(a.message, '***', 1)), 140),
             (@@ a.areas[1])[1], (@@ a.areas[1])[0]
        from app_public.nl_alerts a
       where a.start_at >= since and a.start_at <= now()
         and (a.stop_at is null or a.stop_at > a.first_seen_at) and a.start_at > a.first_seen_at - interval '24 hours'
         and app_hidden.nl_alert_passes(nl, a);
  when 'amber_alert' then
    amber := app_hidden.amber_alert_criteria_of(mo);
    return query
      select 'amber_alert', a.uuid, a.started_at, coalesce(a.title, (app_hidden.amber_alert_label(a.level)).label),
             null::double precision, null::double precision
        from app_public.amber_alerts a
       where a.started_at >= since and a.started_at <= now() and a.started_at > a.first_seen_at - interval '24 hours'
         and app_hidden.amber_alert_passes(amber, a);
  when 'aircraft' then
    -- Take-offs and landings; overhead events are made for one saved monitor (aircraft_event_passes
    -- lets an unsaved one see none).
    return query
      select 'aircraft', e.uuid, e.at, concat_ws(' ', f.registration, e.kind, e.place), e.latitude, e.longitude
        from app_public.aircraft_events e join app_public.aircraft_fleet f on f.icao = e.icao
       where e.at >= since and e.at <= now() and app_hidden.aircraft_event_passes(mo, e);
  when 'matrix' then
    -- Jams as they are now (no history of a jam's delay is kept), by when they were first seen.
    return query
      select 'traffic_jam', j.uuid, j.first_seen_at,
             concat_ws(' ', j.road_number, j.jam_type, j.delay_minutes || ' min', j.queue_length_m || ' m'), j.latitude, j.longitude
        from app_public.traffic_jams j
       where j.first_seen_at >= since and j.first_seen_at <= now()
         and app_hidden.traffic_jam_passes(app_hidden.matrix_criteria_of(mo), j);
  when 'rail_disruptions' then
    -- Disruptions by when they became news: first seen, or their start if later (live matching
    -- waits for a planned one to become active); not those still to start. Ended ones count.
    return query
      select 'rail', d.uuid, greatest(d.first_seen_at, d.start_at), d.title, null::double precision, null::double precision
        from app_public.rail_disruptions d
       where greatest(d.first_seen_at, d.start_at) >= since and greatest(d.first_seen_at, d.start_at) <= now()
         and app_hidden.rail_disruption_passes(app_hidden.rail_criteria_of(mo), d);
  when 'rss' then
    -- Items by first sight, of the feeds already followed (a preview follows no new feed).
    return query
      select 'rss', i.uuid, i.first_seen_at, coalesce(i.title, i.link), i.latitude, i.longitude
        from app_public.rss_feed_items i
       where i.first_seen_at >= since and i.first_seen_at <= now()
         and app_hidden.rss_item_passes(app_hidden.rss_criteria_of(mo), i);
  end case;
end;
$$;
comment on function app_hidden.monitor_preview_feed_items(mo app_public.monitors, since timestamptz) is 'The items since a moment that a feed monitor (every type but p2000) matches, through the same definitions as its live matcher, with the conditions its feed''s queueing trigger puts on an item: its kind (as feed_monitor_matches names it), uuid, time, a title and its place for a map (the centre of an NL-Alert''s first area; null where the feed has none). Aircraft: take-offs and landings through app_hidden.aircraft_event_passes (overhead events belong to a saved monitor). Matrix: jams by first sight, as they are now, through app_hidden.traffic_jam_passes. Rail: disruptions by when they became news (first sight, or a later start), not those still to start, through app_hidden.rail_disruption_passes. RSS: items by first sight through app_hidden.rss_item_passes. SECURITY DEFINER because traffic events are app_analyst''s to read; it reads feed data only, for a monitor the caller''s input describes.';

-- monitorPreview (plugins/monitor-preview.ts): the arguments of createMonitor, checked as it
-- checks them, and the days (1-90) of history: from midnight (Dutch time) `days - 1` days ago
-- until now. Returns the matches and the notifications its rules let through, in total and per
-- day (every day of the window, oldest first), the newest 20 matched P2000 messages, and the
-- newest 500 matched items of any type with time and place. The rules apply as live matching
-- applies them, at each item's time, the throttles counting the preview's own earlier
-- notifications. It writes nothing.
create function app_hidden.monitor_preview(days integer, location_given boolean, name text, description text,
  active boolean, type text, query text, latitude double precision, longitude double precision, location_mode text,
  location_live_source_id text, radius double precision, channels text, notification_rules text,
  out matches integer, out notifications integer, out by_day jsonb, out message_uuids uuid[], out items jsonb)
  language plpgsql stable
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  mo app_public.monitors;
  c app_hidden.p2000_monitor_criteria;
  rules jsonb;
  first_day date;
  since timestamptz;
  capcode_uuids uuid[];
  matched text;
  r record;
  reason text;
  period interval;
  uuids uuid[] := '{}';
  sendeds timestamptz[] := '{}';
  reasons text[] := '{}';
  notified_at timestamptz[] := '{}';
  window_start integer := 1;
  dossier_notified integer[] := '{}';
  feed_items jsonb;
  newest uuid[];
begin
  if monitor_preview.days is null or monitor_preview.days not between 1 and 90 then
    raise exception 'days must be from 1 to 90.' using errcode = 'XINPT';
  end if;
  mo := (app_hidden.checked_monitor(environment, null, location_given, name, description, active, type, query, latitude,
    longitude, location_mode, location_live_source_id, radius, channels, notification_rules)).monitor;
  rules := mo.notification_rules;
  first_day := (now() at time zone 'Europe/Amsterdam')::date - (monitor_preview.days - 1);
  since := first_day::timestamp at time zone 'Europe/Amsterdam';

  if mo.type = 'p2000' then
    -- The matches: the messages of the window, every criterion checked in full, with the reason of
    -- the rules that look at the message alone. The query is built and planned for this preview,
    -- its criteria as constants, so PostgreSQL picks by its statistics between the window's index
    -- and a criterion's own (capcodes through their links, by uuid).
    c := app_hidden.p2000_criteria(mo);
    capcode_uuids := array(select k.uuid from app_public.p2000_capcodes k where k.name = any (c.capcode_names));
    matched := format($query$
      select m.uuid, m.sended, m.dossier_uuid, s.reason
        from app_public.p2000_messages m, app_hidden.p2000_message_suppression($3, m, m.sended) s (reason)
       where %s and m.sended >= $2 and m.sended <= now() and app_hidden.p2000_criteria_match($1, m)
      $query$, case when cardinality(c.capcode_names) > 0 then
        'm.uuid in (select mc.message_uuid from app_public.p2000_message_capcodes mc where mc.capcode_uuid = any ($4) and mc.sended >= $2)'
        else 'true' end);
  else
    -- A feed monitor: its items, quiet hours at each item's time (minUrgency and maxPerDossier
    -- are P2000's); no dossiers.
    feed_items := coalesce((select jsonb_agg(jsonb_build_object('kind', f.kind, 'uuid', f.uuid, 'at', f.at, 'title', f.title,
                                 'latitude', f.latitude, 'longitude', f.longitude) order by f.at, f.uuid)
                              from app_hidden.monitor_preview_feed_items(mo, since) f), '[]');
    matched := $query$
      select (f->>'uuid')::uuid as uuid, (f->>'at')::timestamptz as sended, null::uuid as dossier_uuid,
             case when app_hidden.in_quiet_hours($3, (f->>'at')::timestamptz) then 'quiet_hours' end as reason, f as item
        from jsonb_array_elements($10) f
      $query$;
  end if;

  -- The throttles depend on what came before: the matches in time order, as live matching met them.
  if rules ?| array['maxPerDossier', 'maxPerPeriod'] then
    period := make_interval(mins => (rules->'maxPerPeriod'->>'minutes')::integer);
    for r in execute format('select x.uuid, x.sended, x.dossier_uuid, x.reason, dense_rank() over (order by x.dossier_uuid)::integer as dossier from (%s) x order by x.sended, x.uuid', matched)
      using c, since, rules, capcode_uuids, null::uuid[], null::timestamptz[], null::text[], first_day, monitor_preview.days, feed_items
    loop
      reason := r.reason;
      if reason is null then
        while window_start <= cardinality(notified_at) and notified_at[window_start] <= r.sended - period loop
          window_start := window_start + 1;
        end loop;
        reason := app_hidden.p2000_throttle_suppression(rules, r.dossier_uuid is not null, coalesce(dossier_notified[r.dossier], 0),
          cardinality(notified_at) - window_start + 1);
        if reason is null then
          notified_at[cardinality(notified_at) + 1] := r.sended;
          dossier_notified[r.dossier] := coalesce(dossier_notified[r.dossier], 0) + 1;
        end if;
      end if;
      uuids[cardinality(uuids) + 1] := r.uuid;
      sendeds[cardinality(sendeds) + 1] := r.sended;
      reasons[cardinality(reasons) + 1] := reason;
    end loop;
    matched := 'select * from unnest($5::uuid[], $6::timestamptz[], $7::text[]) m (uuid, sended, reason)';
  end if;

  execute format($query$
    with matched as materialized (select x.uuid, x.sended, x.reason from (%s) x),
         per_day as (select (m.sended at time zone 'Europe/Amsterdam')::date as day, count(*)::integer as matches,
                            count(*) filter (where m.reason is null)::integer as notifications
                       from matched m group by 1)
    select coalesce((select sum(d.matches) from per_day d), 0)::integer,
           coalesce((select sum(d.notifications) from per_day d), 0)::integer,
           (select jsonb_agg(jsonb_build_object('date', $8 + i, 'matches', coalesce(d.matches, 0),
                                                'notifications', coalesce(d.notifications, 0)) order by i)
              from generate_series(0, $9 - 1) i left join per_day d on d.day = $8 + i),
           array(select m.uuid from matched m order by m.sended desc, m.uuid desc limit 500)
    $query$, matched)
    into matches, notifications, by_day, newest
    using c, since, rules, capcode_uuids, uuids, sendeds, reasons, first_day, monitor_preview.days, feed_items;

  -- The newest 500 matches with time and place, newest first.
  if mo.type = 'p2000' then
    message_uuids := newest[1:20];
    items := coalesce((select jsonb_agg(jsonb_build_object('kind', 'p2000', 'uuid', m.uuid, 'at', m.sended,
                         'title', m.message, 'latitude', m.latitude, 'longitude', m.longitude) order by m.sended desc, m.uuid desc)
                         from app_public.p2000_messages m where m.uuid = any (newest)), '[]');
  else
    message_uuids := '{}';
    items := coalesce((select jsonb_agg(f order by (f->>'at')::timestamptz desc, f->>'uuid' desc)
                         from (select f from jsonb_array_elements(feed_items) f
                                order by (f->>'at')::timestamptz desc, f->>'uuid' desc limit 500) x), '[]');
  end if;
end;
$$;
comment on function app_hidden.monitor_preview(days integer, location_given boolean, name text, description text, active boolean, type text, query text, latitude double precision, longitude double precision, location_mode text, location_live_source_id text, radius double precision, channels text, notification_rules text, out matches integer, out notifications integer, out by_day jsonb, out message_uuids uuid[], out items jsonb) is 'monitorPreview (plugins/monitor-preview.ts) for monitors of every type. It checks the arguments of createMonitor (app_hidden.checked_monitor) and replays the last days (1-90) of stored history through the same match definitions and rules as live matching: the matches and the notifications its rules let through, in total and per day, the newest 20 matched P2000 messages, and the newest 500 matched items of any type with time, title and place. Its throttles count the preview''s own earlier notifications. It writes nothing.';
