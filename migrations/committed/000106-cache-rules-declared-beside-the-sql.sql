--! Previous: sha1:80149d007963e9b548febc443f1db7c0b51692f8
--! Hash: sha1:1d373c71cdae261b68975aaad927e01d79b0d3d5
--! Message: cache rules declared beside the SQL

-- Issue 46, part 3: the response cache's rules beside the SQL. Every function behind a field the
-- response cache may keep says in its comment which tables it reads (lib/graphql/cache-rules.ts,
-- docs/api.md "Response cache"); plugins/cache-rules.ts gathers them into the schema with the
-- data_changed domains of those tables, in place of the hand-kept list of
-- lib/graphql/cache-domains.ts, and test/db/cache-reads.test.ts checks each declaration against
-- what the function really reads.
--
--   @cacheReads <schema.table> …   every table or view the function's own SQL reads (through the
--                                   helpers it calls and the row-level security of what it reads);
--                                   a bare @cacheReads: none. The GraphQL fields of what it returns
--                                   declare their own (computed fields, the table of a row type).
--   @cacheMonitorReads <table> …   read only when an argument names a monitor: of the domain
--                                   monitors, which the cache adds (per environment) for such a read.
--   @cacheEnvironmentBound         the answer depends on the caller's environment.
--
-- Each comment keeps its text; the tags go first, where PostGraphile reads smart tags (and leaves
-- them out of the GraphQL description).

-- Tables those functions read that announced no change, so a cached answer could outlive one: the
-- address register's places and house numbers (cities, locationSuggestions: an import of the
-- register changed them silently), the aircraft monitors' criteria and the monitors' daily counts
-- (written with the monitors and matches they derive from, which announce, but every table a
-- declaration names announces its own).
do $$
declare
  item record;
begin
  for item in
    select * from (values
      ('places', 'app_hidden.address_woonplaatsen'), ('places', 'app_hidden.address_numbers'),
      ('monitors', 'app_hidden.aircraft_monitor_criteria'), ('monitors', 'app_hidden.monitor_daily_counts')
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

-- The declarations.
comment on function app_public.accident_severity_levels() is
  E'@cacheReads app_public.accident_severity_levels\n@notNull\nDATEX II severity levels of traffic incidents, lowest to highest.';
comment on function app_public.aircraft() is
  E'@cacheReads app_public.aircraft_fleet app_public.aircraft_states\n@notNull\nEvery tracked aircraft with its latest position: trauma helicopters first, then police.';
comment on function app_public.aircraft_content_item(text) is
  E'@cacheReads app_public.aircraft_content_items\nA page about an aircraft or fleet by slug; null when unknown.';
comment on function app_public.aircraft_content_items(text) is
  E'@cacheReads app_public.aircraft_content_items\n@notNull\nPages about the aircraft: type lifeliner (trauma helicopters) or politie (police); trauma and police are aliases.';
comment on function app_public.aircraft_events_for_monitor(app_public.monitor_ref,integer,integer) is
  E'@cacheReads app_hidden.aircraft_monitor_criteria app_public.aircraft_events\n@cacheReads app_public.aircraft_fleet app_public.monitors app_public.named_areas\n@cacheEnvironmentBound\n@notNull\nThe take-offs and landings that pass an aircraft monitor\'s kinds, registrations, circle and areas, and its own passes overhead (caller\'s environment only), newest first.';
comment on function app_public.aircraft_flight_facts(timestamp with time zone,timestamp with time zone) is
  E'@cacheReads app_public.aircraft_flight_facts\n@behavior +connection -list\nFlights that started in [windowStart, windowEnd) (at most 366 days).';
comment on function app_public.aircraft_live(text) is
  E'@cacheReads app_public.aircraft_fleet app_public.aircraft_states\nOne tracked aircraft by ICAO address (or registration) with its latest position; null when not tracked.';
comment on function app_public.aircraft_route(app_public.aircraft_route_ref,text) is
  E'@cacheReads app_public.aircraft_routes\nOne route with its points and log (route: { uuid }; routeUuid is the deprecated form); null when unknown.';
comment on function app_public.aircraft_routes(text,text,boolean,integer) is
  E'@cacheReads app_public.aircraft_fleet app_public.aircraft_routes\n@notNull\nAn aircraft\'s routes (by ICAO address or registration): by default only started ones (take-off seen), most relevant first; limit default 20, at most 100.';
comment on function app_public.aircraft_routes_active(app_public.aircraft_routes) is
  E'@cacheReads\n@notNull\nTrue while the aircraft is in the air on this route.';
comment on function app_public.aircraft_routes_log(app_public.aircraft_routes) is
  E'@cacheReads app_public.aircraft_route_log\n@notNull\nWhat happened on the route, in time order.';
comment on function app_public.aircraft_routes_path(app_public.aircraft_routes) is
  E'@cacheReads app_hidden.aircraft_route_paths app_public.aircraft_route_points\n@notNull\nThe route\'s points as one JSON text: [[longitude, latitude, altitudeFt, Unix seconds], …] in time order (GeoJSON coordinate order), for drawing long flights.';
comment on function app_public.aircraft_routes_points(app_public.aircraft_routes) is
  E'@cacheReads app_public.aircraft_route_points\n@notNull\nThe route\'s points, in time order.';
comment on function app_public.aircraft_statistics() is
  E'@cacheReads app_public.aircraft_fleet app_public.aircraft_routes\n@notNull\nFlights, flight hours and the latest flight per aircraft over the last 365 days.';
comment on function app_public.alert_facts(timestamp with time zone,timestamp with time zone) is
  E'@cacheReads app_public.alert_facts\n@behavior +connection -list\nNL-Alerts (per region) and AMBER alerts that started in [windowStart, windowEnd) (at most 366 days).';
comment on function app_public.amber_alert_history(integer,integer,app_public.unix_time,app_public.unix_time,boolean) is
  E'@cacheReads app_public.amber_alerts\n@notNull\nWhich alerts ran and when, newest first; since/until bound startedAt (inclusive). No name, photo or last-seen text.';
comment on function app_public.amber_alerts(integer,integer,boolean) is
  E'@cacheReads app_public.amber_alerts\n@notNull\nAMBER and missing-child alerts, newest first; activeOnly: only those that run.';
comment on function app_public.area_choices(text,text,integer) is
  E'@cacheReads app_public.named_areas\nNamed areas for a monitor\'s query.areas whose name starts with the search, or whose code it is ("Oss", "GM0828", "5341"), exact names first, then gemeenten, woonplaatsen, postcode areas, safety regions and provinces; kind narrows to one of them; first 1-50 (10). Public reference data: an API token, like the other reference lists.';
comment on function app_public.available_hectometers(app_public.road_ref) is
  E'@cacheReads app_public.hectometer_markers app_public.roads\nThe kilometre values with a post on the road, ascending (empty for an unknown road).';
comment on function app_public.channel_types() is
  E'@cacheReads app_public.channel_types\n@notNull\nThe channel types createChannel takes (value), each with what it delivers to (label), and its input fields and the receiver\'s documentation (description).';
comment on function app_public.cities(text,integer) is
  E'@cacheReads app_hidden.address_woonplaatsen app_hidden.p2000_place_abbreviations\n@cacheReads app_hidden.place_names app_public.places\n@notNull\nPlaces by name as someone types (at least 2 characters): prefix matches, then similar names, bigger places first; first 1-50, default 10.';
comment on function app_public.fire_station(text) is
  E'@cacheReads app_public.fire_stations\nOne fire station by slug, name or uuid; null when there is none.';
comment on function app_public.fire_stations(integer,integer,app_public.fire_station_filter) is
  E'@cacheReads app_public.fire_stations app_public.p2000_regions\nFire stations by name.';
comment on function app_public.fire_stations_count(app_public.fire_station_filter) is
  E'@cacheReads app_public.fire_stations app_public.p2000_regions\n@notNull\nHow many fire stations fireStations would list with this filter.';
comment on function app_public.fire_vehicle(text) is
  E'@cacheReads app_public.fire_vehicles\nOne fire vehicle by call number, with or without hyphen (17-3151 or 173151).';
comment on function app_public.fire_vehicles(integer,integer,app_public.fire_vehicle_filter) is
  E'@cacheReads app_public.fire_stations app_public.fire_vehicles app_public.p2000_regions\nFire vehicles by call number.';
comment on function app_public.fire_vehicles_count(app_public.fire_vehicle_filter) is
  E'@cacheReads app_public.fire_stations app_public.fire_vehicles app_public.p2000_regions\n@notNull\nHow many fire vehicles fireVehicles would list with this filter.';
comment on function app_public.fire_vehicles_name_format(app_public.fire_vehicles) is
  E'@cacheReads\n@notNull\nThe call number with hyphen (17-3151).';
comment on function app_public.fire_vehicles_number(app_public.fire_vehicles) is
  E'@cacheReads\n@notNull\nThe number within the region: post, type digit and sequence (3151 of 17-3151).';
comment on function app_public.fire_vehicles_station(app_public.fire_vehicles) is
  E'@cacheReads app_public.fire_stations\nThe name of the station it belongs to (by its post number), if known.';
comment on function app_public.fire_vehicles_type(app_public.fire_vehicles) is
  E'@cacheReads app_public.fire_vehicle_types\nVehicle kind code from the type digit (TS, HV, AL/HW, ...).';
comment on function app_public.fire_vehicles_type_name(app_public.fire_vehicles) is
  E'@cacheReads app_public.fire_vehicle_types\nVehicle kind in words (Tankautospuit, ...).';
comment on function app_public.hectometer_marker(app_public.hectometer_marker_ref) is
  E'@cacheReads app_public.hectometer_markers\nOne hectometre post by uuid; null when there is none.';
comment on function app_public.hectometer_markers(integer,integer,app_public.hectometer_marker_filter) is
  E'@cacheReads app_public.hectometer_markers app_public.roads\nHectometre posts by road and kilometre value.';
comment on function app_public.hectometer_markers_nearest(double precision,double precision,integer) is
  E'@cacheReads app_public.hectometer_markers\nThe hectometre posts nearest to a point, nearest first, with distance_km; limit 1-50, default 10.';
comment on function app_public.highways() is
  E'@cacheReads app_public.highways\n@notNull\nDutch motorways, for the roads of matrix, traffic-jam and accident monitors.';
comment on function app_public.hub_analytics_hourly(integer) is
  E'@cacheReads app_hidden.analytics_cache app_hidden.p2000_hourly_urgency_counts\n@notNull\nReal alerts per hour of the day; days 7-90, default 28 (cached, refreshed hourly).';
comment on function app_public.hub_analytics_urgency(integer) is
  E'@cacheReads app_hidden.analytics_cache app_hidden.p2000_daily_counts\n@cacheReads app_hidden.p2000_hourly_urgency_counts app_public.p2000_categories\n@cacheReads app_public.p2000_disciplines app_public.p2000_regions app_public.p2000_urgencies\n@notNull\nReal alerts by urgency; days 7-90, default 28 (cached, refreshed hourly).';
comment on function app_public.hub_analytics_weekdays(integer) is
  E'@cacheReads app_hidden.analytics_cache app_hidden.p2000_hourly_urgency_counts\n@notNull\nReal alerts per weekday with the expected average, and yesterday against expected; days 7-90, default 28 (cached, refreshed hourly).';
comment on function app_public.location_suggestions(text,integer) is
  E'@cacheReads app_hidden.address_numbers app_hidden.address_streets app_hidden.address_woonplaatsen\n@cacheReads app_hidden.p2000_place_abbreviations app_hidden.place_names app_public.fire_stations\n@cacheReads app_public.places app_public.postcodes\n@notNull\nPlaces, streets, addresses and postcodes as someone types (at least 2 characters), from the address register where it is imported or shipped: an address on the street as typed first ("stationsweg 12 amst": Stationsweg 12, Amstelveen), then places and postcodes by prefix, the street as typed, similar place names, longer streets, then fire stations\' addresses; bigger places and streets first. kind: place, street, address or postcode. first 1-20, default 10.';
comment on function app_public.meteo_color_codes() is
  E'@cacheReads app_public.meteo_levels\n@notNull\nThe warning levels a meteo_weather monitor\'s query.levels takes.';
comment on function app_public.meteo_general() is
  E'@cacheReads app_hidden.meteo_documents app_public.meteo_levels app_public.meteo_phenomena\n@cacheReads app_public.meteo_provinces app_public.meteo_warning_slices\nThe national picture: per phenomenon the highest level of any province, each period naming its provinces; null before the first warnings document.';
comment on function app_public.meteo_latest_observation(text) is
  E'@cacheReads app_public.meteo_observations\nThe latest observation of a station (WMO id; null = 06260 De Bilt); null when it has none.';
comment on function app_public.meteo_observation_history(text,integer,integer,integer) is
  E'@cacheReads app_public.meteo_observations\n@notNull\nObservations of a station from fromTs to toTs (Unix seconds, both included), oldest first; limit defaults to 1000 and is capped at 10000.';
comment on function app_public.meteo_observations_station_name(app_public.meteo_observations) is
  E'@cacheReads app_public.meteo_stations\nThe station\'s name.';
comment on function app_public.meteo_region_detail(text) is
  E'@cacheReads app_hidden.meteo_documents app_public.meteo_levels app_public.meteo_phenomena\n@cacheReads app_public.meteo_provinces app_public.meteo_warning_slices\nOne province by code (lower-case slug such as noord-holland); null when unknown or before the first warnings document.';
comment on function app_public.meteo_region_details() is
  E'@cacheReads app_hidden.meteo_documents app_public.meteo_levels app_public.meteo_phenomena\n@cacheReads app_public.meteo_provinces app_public.meteo_warning_slices\n@notNull\nThe 12 provinces with the warnings that are on now or announced (empty before the first warnings document).';
comment on function app_public.meteo_regions() is
  E'@cacheReads app_hidden.meteo_documents app_public.meteo_levels app_public.meteo_phenomena\n@cacheReads app_public.meteo_provinces app_public.meteo_warning_slices\n@notNull\nThe 12 provinces with their current level: the highest of the warnings on now or announced (null before the first warnings document).';
comment on function app_public.meteo_snapshot(text) is
  E'@cacheReads app_hidden.meteo_day_snapshots app_hidden.meteo_documents app_public.meteo_levels\n@cacheReads app_public.meteo_phenomena app_public.meteo_provinces app_public.meteo_warning_slices\n@notNull\nThe 12 provinces on a day (YYYY-MM-DD, Europe/Amsterdam): today live; another day the state at its end, what was in force at 23:59:59 and what had been announced by then for later.';
comment on function app_public.meteo_stats_available_years() is
  E'@cacheReads app_hidden.meteo_daily_levels\n@notNull\nYears (Europe/Amsterdam) with at least one day with a warning: the years meteoStatsMonthly has something for.';
comment on function app_public.meteo_stats_monthly(integer,text) is
  E'@cacheReads app_hidden.meteo_daily_levels app_public.meteo_provinces\n@notNull\nPer month of the year the whole days per warning level up to today (a day counts as its highest level, Europe/Amsterdam); regionCode null = all provinces combined.';
comment on function app_public.meteo_warning_day_facts(date,date,boolean) is
  E'@cacheReads app_public.meteo_warning_day_facts\n@behavior +connection -list\nDays up to today in [windowStart, windowEnd) (at most 3,660 days) with a weather warning, at their highest level: one row per day for the whole country (as meteoStatsMonthly without regionCode), or with byProvince one per province and day. Count them with distinctCount { day }, grouped by month, year, level, province.';
comment on function app_public.meteo_warning_event_facts(timestamp with time zone,timestamp with time zone) is
  E'@cacheReads app_public.meteo_warning_event_facts\n@behavior +connection -list\nWeather warning events issued in [windowStart, windowEnd) (at most 366 days).';
comment on function app_public.meteo_warning_events_for_monitor(app_public.monitor_ref,integer,integer) is
  E'@cacheReads app_hidden.feed_monitor_matches app_public.meteo_warning_events app_public.monitors\n@cacheEnvironmentBound\n@notNull\nThe warning events that matched a meteo_weather monitor of the caller\'s environment, newest first.';
comment on function app_public.meteo_warning_events_region_code(app_public.meteo_warning_events) is
  E'@cacheReads app_public.meteo_provinces\nThe province\'s code (MeteoRegion.code).';
comment on function app_public.meteo_warning_events_region_name(app_public.meteo_warning_events) is
  E'@cacheReads app_public.meteo_provinces\nThe province\'s name.';
comment on function app_public.monitor_types() is
  E'@cacheReads app_hidden.monitor_query_fields app_public.monitor_types\n@notNull\nThe monitor types createMonitor takes (value), each with what it notifies of (label) and the fields of its query (description).';
comment on function app_public.nl_alerts(integer,integer,app_public.unix_time,app_public.unix_time,text,boolean) is
  E'@cacheReads app_public.nl_alert_regions app_public.nl_alerts app_public.p2000_regions\n@notNull\nNL-Alerts, newest first: since/until bound startAt (inclusive), regionNumber the P2000 safety region their areas cover, activeOnly only those not withdrawn or stopped.';
comment on function app_public.nl_provinces() is
  E'@cacheReads app_public.nl_provinces\n@notNull\nThe twelve provinces.';
comment on function app_public.nl_provinces_geo_json() is
  E'@cacheReads app_public.nl_provinces\nThe twelve provinces as a GeoJSON FeatureCollection (WGS84; properties code, isoCode, name); null until the boundaries are loaded.';
comment on function app_public.p2000_capcode(text) is
  E'@cacheReads app_public.p2000_capcodes\nOne capcode by uuid; null when there is none.';
comment on function app_public.p2000_capcodes(integer,integer,app_public.p2000_capcode_filter) is
  E'@cacheReads app_public.p2000_capcodes app_public.p2000_message_capcodes\nCapcodes by number.';
comment on function app_public.p2000_capcodes_count(app_public.p2000_capcode_filter) is
  E'@cacheReads app_public.p2000_capcodes app_public.p2000_message_capcodes\n@notNull\nHow many capcodes p2000Capcodes would list with this filter.';
comment on function app_public.p2000_categories() is
  E'@cacheReads app_public.p2000_categories\n@notNull\nAll message categories, by name, each saying whether it counts as a call-out.';
comment on function app_public.p2000_day_count_facts(text,date,date,boolean) is
  E'@cacheReads app_public.p2000_day_count_facts\n@behavior +connection -list\nP2000 messages per Amsterdam day in [windowStart, windowEnd) (at most 3,660 days) and value of one dimension (total, region, discipline, urgency, category or road), real alerts only unless includeExercises: group by day, week, month, year, weekday, name and sum messages. From the daily roll-ups: the counts p2000MessagesCount gives for whole days.';
comment on function app_public.p2000_discipline(text) is
  E'@cacheReads app_public.p2000_disciplines\nOne discipline by uuid; null when there is none.';
comment on function app_public.p2000_disciplines(integer,integer,app_public.p2000_discipline_filter) is
  E'@cacheReads app_public.p2000_disciplines\nDisciplines by name; filter.search matches name and abbreviation.';
comment on function app_public.p2000_dossier(app_public.p2000_message_dossier_ref,app_public.p2000_message_ref,text,text) is
  E'@cacheReads app_public.p2000_dossiers app_public.p2000_messages\n@deprecated Use p2000Dossiers(filter: { message: { uuid } }) or filter dossier instead.\nOne dossier by dossier or message (give one, not both).';
comment on function app_public.p2000_dossier_category(app_public.p2000_dossier) is
  E'@cacheReads app_public.p2000_categories\n@behavior -queryField +typeField';
comment on function app_public.p2000_dossier_discipline(app_public.p2000_dossier) is
  E'@cacheReads app_public.p2000_disciplines\n@behavior -queryField +typeField';
comment on function app_public.p2000_dossier_facts(timestamp with time zone,timestamp with time zone,boolean) is
  E'@cacheReads app_public.p2000_dossier_facts\n@behavior +connection -list\nP2000 dossiers whose first message is in [windowStart, windowEnd) (at most 366 days), real incidents only unless includeExercises.';
comment on function app_public.p2000_dossier_messages(app_public.p2000_dossier) is
  E'@cacheReads app_public.p2000_messages\n@behavior -queryField +typeField\n@notNull\nThe messages of the dossier (at most 500), in the order asked for (sendedAsc by default).';
comment on function app_public.p2000_dossier_region(app_public.p2000_dossier) is
  E'@cacheReads app_public.p2000_regions\n@behavior -queryField +typeField';
comment on function app_public.p2000_dossier_related_signals(app_public.p2000_dossier) is
  E'@cacheReads app_hidden.related_signal_windows app_public.aircraft_fleet app_public.aircraft_routes\n@cacheReads app_public.meteo_provinces app_public.meteo_warning_events app_public.nl_alerts\n@cacheReads app_public.nl_provinces app_public.p2000_messages app_public.places\n@cacheReads app_public.traffic_incidents\n@behavior -queryField +typeField\n@notNull\nThe signals of the other feeds that belong with the dossier, oldest first: traffic incidents near its position around its time (further where its messages are placed only at their place, and further still on the road they name), helicopter landings and take-offs nearby in the hour after its first message, NL-Alerts whose area covers it while it runs, and the weather warning in force in its province. Empty for a dossier without a position. The windows are app_hidden.related_signal_windows.';
comment on function app_public.p2000_dossier_timeline(app_public.p2000_dossier_timeline_filter,integer,integer) is
  E'@cacheReads app_public.p2000_dossier_events app_public.p2000_dossiers app_public.p2000_messages\n@cacheReads app_public.p2000_urgencies\n@notNull\nThe timeline of the dossier of filter.dossier or filter.message (at least one; both must name the same dossier).';
comment on function app_public.p2000_dossier_timeline_entries(app_public.p2000_dossier) is
  E'@cacheReads app_public.p2000_dossier_events app_public.p2000_messages app_public.p2000_urgencies\n@behavior -queryField +typeField\n@notNull\n@fieldName timeline\nWhat happened, in the order asked for (newestFirst by default).';
comment on function app_public.p2000_dossier_urgency(app_public.p2000_dossier) is
  E'@cacheReads app_public.p2000_urgencies\n@behavior -queryField +typeField\nHighest urgency reached.';
comment on function app_public.p2000_dossiers(integer,integer,app_public.p2000_dossier_filter) is
  E'@cacheReads app_public.p2000_dossiers app_public.p2000_messages\n@notNull\nDossiers (incidents): an overview, or the one of a message or dossier.';
comment on function app_public.p2000_grip_levels(integer,integer,app_public.p2000_taxonomy_filter) is
  E'@cacheReads app_public.p2000_grip_levels\nGRIP 1 to 5; filter.search matches the name.';
comment on function app_public.p2000_message(text) is
  E'@cacheReads app_public.p2000_messages\nOne P2000 message by uuid (exercises included); null when there is none.';
comment on function app_public.p2000_message_facts(timestamp with time zone,timestamp with time zone,boolean) is
  E'@cacheReads app_public.p2000_message_facts\n@behavior +connection -list\nP2000 messages sent in [windowStart, windowEnd) (at most 366 days), real alerts only unless includeExercises: count, group (sentDay, region, …) and aggregate them.';
comment on function app_public.p2000_message_statistics(app_public.p2000_message_filter,integer) is
  E'@cacheReads app_hidden.p2000_daily_capcode_counts app_hidden.p2000_daily_counts\n@cacheReads app_hidden.p2000_hourly_counts app_hidden.p2000_hourly_urgency_counts\n@cacheReads app_public.p2000_capcodes app_public.p2000_disciplines app_public.p2000_message_capcodes\n@cacheReads app_public.p2000_messages app_public.p2000_regions app_public.p2000_urgencies\n@cacheMonitorReads app_hidden.monitor_daily_counts app_hidden.monitor_matches app_public.monitors\n@notNull\nCounts for a message filter (real alerts only by default); chartDays 1-90, default 30.';
comment on function app_public.p2000_messages(integer,integer,app_public.p2000_message_filter) is
  E'@cacheReads app_public.p2000_capcodes app_public.p2000_disciplines app_public.p2000_message_capcodes\n@cacheReads app_public.p2000_messages\n@cacheMonitorReads app_hidden.monitor_matches app_public.monitors\nP2000 messages, newest first; real alerts only unless filter.exerciseType says otherwise.';
comment on function app_public.p2000_messages_capcodes(app_public.p2000_messages) is
  E'@cacheReads app_public.p2000_capcodes app_public.p2000_message_capcodes\n@notNull\nThe capcodes the message was sent to.';
comment on function app_public.p2000_messages_count(app_public.p2000_message_filter) is
  E'@cacheReads app_hidden.p2000_daily_capcode_counts app_hidden.p2000_daily_counts\n@cacheReads app_hidden.p2000_hourly_counts app_hidden.p2000_hourly_urgency_counts\n@cacheReads app_public.p2000_capcodes app_public.p2000_disciplines app_public.p2000_message_capcodes\n@cacheReads app_public.p2000_messages\n@cacheMonitorReads app_hidden.monitor_daily_counts app_hidden.monitor_matches app_public.monitors\n@notNull\nHow many messages p2000Messages would list with this filter.';
comment on function app_public.p2000_messages_dossier(app_public.p2000_messages) is
  E'@cacheReads app_public.p2000_dossiers app_public.p2000_messages\nThe incident this message belongs to (none for tests and exercises).';
comment on function app_public.p2000_messages_is_demo(app_public.p2000_messages) is
  E'@cacheReads\n@notNull\nTrue for the demo\'s synthetic pages (DEMO_DATA), which no pager sent.';
comment on function app_public.p2000_messages_plain_text(app_public.p2000_messages,text) is
  E'@cacheReads app_public.p2000_plain_words\nThe page in words a person understands, in Dutch (nl, the default) or English (en): "Prio 1 woningbrand, Toscalaan, Rotterdam" / "Priority 1 house fire, Toscalaan, Rotterdam". The priority spelled out, the pager\'s abbreviations of incidents, qualifiers, services and units written in full (from a table a DBA can extend: docs/p2000.md#plain-words), then road, street and place. The raw text stays in message.';
comment on function app_public.p2000_qualifications(integer,integer,app_public.p2000_taxonomy_filter) is
  E'@cacheReads app_public.p2000_qualifications\nIncident size qualifications, smallest first; filter.search matches the name.';
comment on function app_public.p2000_region(text) is
  E'@cacheReads app_public.p2000_regions\nOne safety region by slug, name, number or uuid.';
comment on function app_public.p2000_regions(integer,integer,app_public.p2000_taxonomy_filter) is
  E'@cacheReads app_public.p2000_regions\nThe 25 safety regions, by number; filter.search matches name, number, code and other spellings.';
comment on function app_public.p2000_statistics(app_public.p2000_statistics_period) is
  E'@cacheReads app_hidden.p2000_daily_counts app_hidden.p2000_hourly_counts\n@cacheReads app_hidden.p2000_hourly_urgency_counts app_public.p2000_categories\n@cacheReads app_public.p2000_disciplines app_public.p2000_regions app_public.p2000_urgencies\n@notNull\nReal alerts in the period (LAST_7_DAYS by default).';
comment on function app_public.p2000_statistics_by_road_this_year(app_public.p2000_statistics) is
  E'@cacheReads app_hidden.p2000_daily_counts app_public.p2000_categories app_public.p2000_disciplines\n@cacheReads app_public.p2000_regions app_public.p2000_urgencies\n@behavior -queryField +typeField\n@notNull\nReal alerts per road (A2, N59, ...) this calendar year, most first.';
comment on function app_public.p2000_urgencies(integer,integer,app_public.p2000_taxonomy_filter) is
  E'@cacheReads app_public.p2000_urgencies\nUrgency codes, most urgent first; filter.search matches name and code.';
comment on function app_public.parse_hectometer_search(text) is
  E'@cacheReads app_public.hectometer_markers app_public.roads\nUnderstands free text such as "A12 Re 45,6": road, kilometre value, side, and the matching post; null when no road is named.';
comment on function app_public.postcodes(text,integer) is
  E'@cacheReads app_public.postcodes\n@notNull\nPostcodes starting with the search ("3011", "3011 T", "3011TX"; at least 2 characters), 4-digit areas first; first 1-50, default 10.';
comment on function app_public.rail_routes() is
  E'@cacheReads app_public.rail_routes\n@notNull\nRailway routes, for the routes of rail_disruptions monitors.';
comment on function app_public.road(app_public.road_ref) is
  E'@cacheReads app_public.roads\nOne road by uuid or name; null when there is none.';
comment on function app_public.road_prefixes_road_count(app_public.road_prefixes) is
  E'@cacheReads app_public.roads\n@notNull\nHow many roads it has.';
comment on function app_public.road_prefixes_roads(app_public.road_prefixes) is
  E'@cacheReads app_public.roads\nIts roads by number.';
comment on function app_public.roads(integer,integer,app_public.road_filter) is
  E'@cacheReads app_public.roads\nRoads by prefix, then number (A1, A2, ..., N1, ...).';
comment on function app_public.roads_grouped_by_prefix() is
  E'@cacheReads\n@notNull\nEvery road of the prefixes A, N, S and R, grouped by prefix.';
comment on function app_public.roads_grouped_by_prefix_a(app_public.roads_grouped_by_prefix) is
  E'@cacheReads app_public.roads\n@fieldName A\n@behavior -queryField\n@notNull\nMotorways (autosnelwegen), by number.';
comment on function app_public.roads_grouped_by_prefix_n(app_public.roads_grouped_by_prefix) is
  E'@cacheReads app_public.roads\n@fieldName N\n@behavior -queryField\n@notNull\nNational and provincial roads, by number.';
comment on function app_public.roads_grouped_by_prefix_r(app_public.roads_grouped_by_prefix) is
  E'@cacheReads app_public.roads\n@fieldName R\n@behavior -queryField\n@notNull\nRing roads, by number.';
comment on function app_public.roads_grouped_by_prefix_s(app_public.roads_grouped_by_prefix) is
  E'@cacheReads app_public.roads\n@fieldName S\n@behavior -queryField\n@notNull\nCity routes (stadsroutes), by number.';
comment on function app_public.rss_feed_items(integer,integer,app_public.rss_feed_item_filter) is
  E'@cacheReads app_public.monitors app_public.rss_feed_items app_public.rss_feeds\n@cacheEnvironmentBound\n@notNull\nItems of the feeds this environment\'s rss monitors follow, newest first (first: default 20, at most 100).';
comment on function app_public.rss_feed_items_count(app_public.rss_feed_item_filter) is
  E'@cacheReads app_hidden.rss_feed_item_counts app_public.monitors app_public.rss_feed_items\n@cacheReads app_public.rss_feeds\n@cacheEnvironmentBound\n@notNull\nHow many items rssFeedItems selects with this filter.';
comment on function app_public.rss_item_facts(timestamp with time zone,timestamp with time zone) is
  E'@cacheReads app_public.monitors app_public.rss_item_facts\n@cacheEnvironmentBound\n@behavior +connection -list\nRSS items published in [windowStart, windowEnd) (at most 366 days) of the feeds the caller may read.';
comment on function app_public.search_roads(text,integer) is
  E'@cacheReads app_public.roads\n@notNull\nRoads whose name starts with the search ("a1", "12"); first 1-50, default 10.';
comment on function app_public.traffic_incident_facts(timestamp with time zone,timestamp with time zone) is
  E'@cacheReads app_public.traffic_incident_facts\n@behavior +connection -list\nTraffic incidents that started in [windowStart, windowEnd) (at most 366 days).';
comment on function app_public.traffic_incident_types() is
  E'@cacheReads app_public.traffic_incident_types\n@notNull\nThe incident types an accident monitor\'s query.types takes.';
comment on function app_public.traffic_incidents(boolean,integer,integer) is
  E'@cacheReads app_public.traffic_incidents\n@notNull\nTraffic incidents, newest first: active null = all, true = current, false = closed.';
comment on function app_public.traffic_incidents_active(app_public.traffic_incidents) is
  E'@cacheReads\n@notNull\nTrue while the incident is current.';
comment on function app_public.traffic_incidents_for_monitor(app_public.monitor_ref,boolean,integer,integer) is
  E'@cacheReads app_hidden.traffic_monitor_criteria app_public.monitors app_public.named_areas\n@cacheReads app_public.traffic_incidents\n@cacheEnvironmentBound\n@notNull\nThe incidents that pass an accident monitor\'s types, roads, circle and areas (caller\'s environment only), newest first.';
