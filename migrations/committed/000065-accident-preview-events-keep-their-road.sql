--! Previous: sha1:5910aedc091420cddd3d593d7e02844368f2f8a6
--! Hash: sha1:18e85288ef5f72835274ad2115f30976d56c33b0
--! Message: Accident preview: events keep their road

-- monitorPreview of accident monitors at the benches' history sizes (bench/monitor-preview.ts):
-- the candidates were the window's events of the monitor's types joined to every incident of its
-- roads, which the planner read by scanning all incidents (a million over three years). An event
-- now keeps the road its incident was on when it happened, as it keeps its type, so the window's
-- events are narrowed by type and road on their own rows and only the few that pass are joined.

-- The road an event's incident was on when it happened (set by the trigger that records events).
alter table app_public.traffic_incident_events add column if not exists road_number text;
comment on column app_public.traffic_incident_events.road_number is 'The road number of the incident when the event happened (as type is its type then); accident matching and monitorPreview judge the event by both.';

-- Events recorded before the column: their incident's road (roads do not change in DATEX II
-- records in practice, so this is the road they had).
update app_public.traffic_incident_events e
   set road_number = i.road_number
  from app_public.traffic_incidents i
 where i.uuid = e.incident_uuid and e.road_number is null and i.road_number is not null;

create or replace function app_hidden.tg_traffic_incidents__record_events()
  returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if tg_op = 'INSERT' then
    insert into app_public.traffic_incident_events (incident_uuid, kind, type, road_number)
    select n.uuid, 'opened', n.type, n.road_number from new_incidents n where n.closed_at is null;
  else
    insert into app_public.traffic_incident_events (incident_uuid, kind, type, road_number)
    select n.uuid,
           case when o.closed_at is null and n.closed_at is not null then 'closed'
                when o.closed_at is not null and n.closed_at is null then 'opened'
                else 'type_changed' end,
           n.type, n.road_number
      from new_incidents n join old_incidents o on o.uuid = n.uuid
     where (o.closed_at is null) <> (n.closed_at is null) or (o.type <> n.type and n.closed_at is null);
  end if;
  return null;
end;
$$;

-- The incident as the event saw it: its type and its road then.
create or replace function app_hidden.traffic_event_incident(e app_public.traffic_incident_events, i app_public.traffic_incidents)
  returns app_public.traffic_incidents
  language plpgsql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  i.type := e.type;
  i.road_number := coalesce(e.road_number, i.road_number);
  return i;
end;
$$;
comment on function app_hidden.traffic_event_incident(e app_public.traffic_incident_events, i app_public.traffic_incidents) is 'The incident as one of its events saw it: of the type and on the road the event was about, whatever it became since. Live accident matching and monitorPreview judge an event by it (with app_hidden.traffic_incident_passes).';

create or replace function app_hidden.monitor_preview_feed_items(mo app_public.monitors, since timestamptz)
  returns table (kind text, uuid uuid, at timestamptz, title text, latitude double precision, longitude double precision)
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
    item_kind := 'aircraft';
    uuids := array(
      select e.uuid from app_public.aircraft_events e
       where e.at >= since and e.at <= now() and app_hidden.aircraft_event_passes(mo, e));
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
comment on function app_hidden.monitor_preview_feed_items(mo app_public.monitors, since timestamptz) is 'The items since a moment that a feed monitor (every type but p2000) matches, through the same definitions as its live matcher, with the conditions its feed''s queueing trigger puts on an item: its kind (as feed_monitor_matches names it), uuid, time, a title and its place for a map (the centre of an NL-Alert''s first area; null where the feed has none). Aircraft: take-offs and landings through app_hidden.aircraft_event_passes (overhead events belong to a saved monitor). Matrix: jams by first sight, as they are now, through app_hidden.traffic_jam_passes. Rail: disruptions by when they became news (first sight, or a later start), not those still to start, through app_hidden.rail_disruption_passes. RSS: the items of its followed feeds by first sight (rss_feed_items_feed_first_seen_idx), through app_hidden.rss_item_passes. Each type''s criteria are resolved once per call; accident candidates are narrowed by their events'' own type and road, rss candidates by their feeds, before the definition decides. SECURITY DEFINER because traffic events are app_analyst''s to read; it reads feed data only, for a monitor the caller''s input describes.';
