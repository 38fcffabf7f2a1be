--! Previous: sha1:ce20539007f4ba430d070504684eb493cdb44f93
--! Hash: sha1:e484d838a1eae1e989ef1e76a6eed8d1d7dbd5e3
--! Message: Response cache: data_changed notifications per domain

-- Issue 33: the response cache of the API instances hears when public data changes. Every table
-- a public read reads announces, once per statement that changes it, the domain it belongs to on
-- the channel data_changed (a new P2000 batch: 'p2000'; a weather poll: 'meteo'; …). NOTIFY is
-- delivered at commit and identical notifications of one transaction are delivered once, so a
-- batch of 500 P2000 messages is one notification per domain it touched, after its commit.
-- lib/graphql/cache-domains.ts says which Query fields read which domains.

create or replace function app_hidden.tg__notify_data_changed() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform pg_notify('data_changed', tg_argv[0]);
  return null;
end;
$$;
comment on function app_hidden.tg__notify_data_changed() is
  'Trigger (per statement): NOTIFY data_changed with the domain named by the trigger''s argument (p2000, meteo, traffic, …), so the API instances'' response caches drop the answers that read it. Sent at commit, once per transaction and domain.';

do $$
declare
  item record;
begin
  for item in
    select * from (values
      ('p2000', 'app_public.p2000_messages'), ('p2000', 'app_public.p2000_message_capcodes'),
      ('p2000', 'app_public.p2000_dossiers'), ('p2000', 'app_public.p2000_dossier_events'),
      ('p2000', 'app_public.p2000_capcodes'), ('p2000', 'app_public.p2000_regions'),
      ('p2000', 'app_public.p2000_disciplines'), ('p2000', 'app_public.p2000_categories'),
      ('p2000', 'app_public.p2000_urgencies'), ('p2000', 'app_public.p2000_grip_levels'),
      ('p2000', 'app_public.p2000_qualifications'), ('p2000', 'app_hidden.p2000_daily_counts'),
      ('p2000', 'app_hidden.p2000_hourly_counts'), ('p2000', 'app_hidden.p2000_hourly_urgency_counts'),
      ('p2000', 'app_hidden.p2000_daily_capcode_counts'), ('p2000', 'app_hidden.p2000_capcode_blocks'),
      ('p2000', 'app_hidden.p2000_place_abbreviations'), ('p2000', 'app_hidden.analytics_cache'),
      ('fire', 'app_public.fire_stations'), ('fire', 'app_public.fire_vehicles'),
      ('fire', 'app_public.fire_vehicle_types'),
      ('meteo', 'app_public.meteo_levels'), ('meteo', 'app_public.meteo_observations'),
      ('meteo', 'app_public.meteo_phenomena'), ('meteo', 'app_public.meteo_provinces'),
      ('meteo', 'app_public.meteo_stations'), ('meteo', 'app_public.meteo_warning_events'),
      ('meteo', 'app_public.meteo_warning_slices'), ('meteo', 'app_hidden.meteo_daily_levels'),
      ('meteo', 'app_hidden.meteo_day_snapshots'), ('meteo', 'app_hidden.meteo_documents'),
      ('meteo', 'app_hidden.meteo_region_states'),
      ('traffic', 'app_public.traffic_incidents'), ('traffic', 'app_public.traffic_incident_events'),
      ('traffic', 'app_public.traffic_incident_types'), ('traffic', 'app_public.traffic_jams'),
      ('traffic', 'app_public.accident_severity_levels'), ('traffic', 'app_hidden.traffic_feed_publications'),
      ('alerts', 'app_public.nl_alerts'), ('alerts', 'app_public.nl_alert_regions'),
      ('alerts', 'app_public.amber_alerts'),
      ('aircraft', 'app_public.aircraft_content_items'), ('aircraft_events', 'app_public.aircraft_events'),
      ('aircraft', 'app_public.aircraft_fleet'), ('aircraft', 'app_public.aircraft_route_log'),
      ('aircraft', 'app_public.aircraft_route_points'), ('aircraft', 'app_public.aircraft_routes'),
      ('aircraft', 'app_public.aircraft_states'), ('aircraft', 'app_hidden.aircraft_route_paths'),
      ('rss', 'app_public.rss_feeds'), ('rss', 'app_public.rss_feed_items'),
      ('rail', 'app_public.rail_disruptions'), ('rail', 'app_public.rail_routes'),
      ('places', 'app_public.places'), ('places', 'app_public.postcodes'),
      ('places', 'app_public.nl_provinces'), ('places', 'app_public.safety_region_areas'),
      ('places', 'app_public.roads'), ('places', 'app_public.road_prefixes'),
      ('places', 'app_public.highways'), ('places', 'app_public.hectometer_markers'),
      ('places', 'app_hidden.place_names'), ('places', 'app_hidden.streets'),
      ('places', 'app_hidden.street_segments'), ('places', 'app_hidden.geo_data_versions'),
      ('places', 'app_hidden.related_signal_windows'),
      ('service', 'app_public.channel_types'), ('service', 'app_public.monitor_types'),
      ('service', 'app_public.api_scopes'),
      -- What the environment-bound reads (…ForMonitor, RSS items of followed feeds) depend on.
      ('monitors', 'app_public.monitors'), ('monitors', 'app_hidden.monitor_query_fields'),
      ('monitors', 'app_hidden.feed_monitor_matches'), ('monitors', 'app_hidden.amber_alert_monitor_criteria'),
      ('monitors', 'app_hidden.matrix_monitor_criteria'), ('monitors', 'app_hidden.meteo_monitor_criteria'),
      ('monitors', 'app_hidden.nl_alert_monitor_criteria'), ('monitors', 'app_hidden.p2000_monitor_criteria'),
      ('monitors', 'app_hidden.rail_monitor_criteria'), ('monitors', 'app_hidden.rss_monitor_criteria'),
      ('monitors', 'app_hidden.traffic_monitor_criteria')
    ) as t(domain, relation)
  loop
    execute format('drop trigger if exists _900_notify_data_changed on %s', item.relation);
    execute format(
      'create trigger _900_notify_data_changed after insert or update or delete or truncate on %s
         for each statement execute function app_hidden.tg__notify_data_changed(%L)',
      item.relation, item.domain);
  end loop;
end;
$$;
