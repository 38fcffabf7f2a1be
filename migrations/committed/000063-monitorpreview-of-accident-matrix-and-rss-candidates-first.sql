--! Previous: sha1:9ae560b90ae2d15861805ba179f4c74b0ff331a6
--! Hash: sha1:3b2d0ab67e5d9faa2668e6ffa7dcd26bc930f9df
--! Message: monitorPreview of accident, matrix and rss: candidates first

-- monitorPreview of accident, matrix and rss monitors at the benches' history sizes
-- (bench/monitor-preview.ts, docs/benchmarks.md "Monitor preview"). The rss preview read every
-- item of the window (and the whole table: no index by first sight) and resolved the monitor's
-- criteria (app_hidden.rss_criteria_of, which reads the feeds) again for each item; the matrix
-- preview scanned every jam; the accident preview ran its match definition (not inlinable) for
-- every incident event of the window. Now the criteria of matrix, rail_disruptions and rss
-- monitors are resolved once per preview, as the other types' already were; an rss preview reads
-- only its feeds' items of the window through an index, and an accident preview only the events
-- of its types on incidents of its roads, before the one definition decides, as
-- app_private.match_nl_alert finds its candidates first; jams are read by an index of their first
-- sight.

-- monitorPreview of matrix monitors reads the jams of the window by first sight (300 a day over
-- years: a table scan otherwise).
create index if not exists traffic_jams_first_seen_idx on app_public.traffic_jams (first_seen_at);
comment on index app_public.traffic_jams_first_seen_idx is 'The jams of a time window by first sight, for monitorPreview of matrix monitors.';

-- monitorPreview of rss monitors reads the window of the monitor's feeds by first sight.
create index if not exists rss_feed_items_feed_first_seen_idx on app_public.rss_feed_items (feed_uuid, first_seen_at);
comment on index app_public.rss_feed_items_feed_first_seen_idx is 'The items of some feeds in a time window by first sight, for monitorPreview of rss monitors.';

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
    -- The events of the monitor's types on incidents of its roads first (the same tests the
    -- definition makes, so none it would pass is left out), then the one definition decides.
    uuids := array(
      select e.uuid
        from app_public.traffic_incident_events e join app_public.traffic_incidents i on i.uuid = e.incident_uuid
       where e.created >= since and e.created <= now()
         and (cardinality(traffic.types) = 0 or e.type = any (traffic.types))
         and (cardinality(traffic.roads) = 0 or i.road_number = any (traffic.roads))
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
comment on function app_hidden.monitor_preview_feed_items(mo app_public.monitors, since timestamptz) is 'The items since a moment that a feed monitor (every type but p2000) matches, through the same definitions as its live matcher, with the conditions its feed''s queueing trigger puts on an item: its kind (as feed_monitor_matches names it), uuid, time, a title and its place for a map (the centre of an NL-Alert''s first area; null where the feed has none). Aircraft: take-offs and landings through app_hidden.aircraft_event_passes (overhead events belong to a saved monitor). Matrix: jams by first sight, as they are now, through app_hidden.traffic_jam_passes. Rail: disruptions by when they became news (first sight, or a later start), not those still to start, through app_hidden.rail_disruption_passes. RSS: the items of its followed feeds by first sight (rss_feed_items_feed_first_seen_idx), through app_hidden.rss_item_passes. Each type''s criteria are resolved once per call; accident and rss candidates are narrowed by the criteria the definition tests (types and roads, feeds) before it decides. SECURITY DEFINER because traffic events are app_analyst''s to read; it reads feed data only, for a monitor the caller''s input describes.';
