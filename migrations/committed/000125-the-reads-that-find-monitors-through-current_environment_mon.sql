--! Previous: sha1:b480894a98a74187e3c2e4bfa401d071e5316eb8
--! Hash: sha1:cdf5ac4b0748f5f537c95833ea0f7b294715e376
--! Message: The reads that find monitors through current_environment_monitor_uuids declare station_screen_monitors

-- What the reads through app_hidden.current_environment_monitor_uuids read since a screen's
-- credential finds its monitors through its screen (migration 000124): station_screen_monitors
-- too (test/db/cache-reads.test.ts).

comment on function app_public.meteo_warning_events_for_monitor(monitor app_public.monitor_ref, first integer, page integer) is E'@cacheReads app_hidden.feed_monitor_matches app_public.meteo_warning_events app_public.monitors\n@cacheReads app_hidden.station_screen_monitors\n@cacheEnvironmentBound\n@notNull\nThe warning events that matched a meteo_weather monitor of the caller''s environment, newest first.';

comment on function app_public.p2000_message_statistics(filter app_public.p2000_message_filter, chart_days integer) is E'@cacheReads app_hidden.p2000_daily_capcode_counts app_hidden.p2000_daily_counts\n@cacheReads app_hidden.p2000_hourly_counts app_hidden.p2000_hourly_urgency_counts\n@cacheReads app_public.p2000_capcodes app_public.p2000_disciplines app_public.p2000_message_capcodes\n@cacheReads app_public.p2000_messages app_public.p2000_regions app_public.p2000_urgencies\n@cacheMonitorReads app_hidden.monitor_daily_counts app_hidden.monitor_matches app_public.monitors\n@cacheMonitorReads app_hidden.station_screen_monitors\n@notNull\nCounts for a message filter (real alerts only by default); chartDays 1-90, default 30.';

comment on function app_public.p2000_messages(first integer, page integer, filter app_public.p2000_message_filter) is E'@cacheReads app_public.p2000_capcodes app_public.p2000_disciplines app_public.p2000_message_capcodes\n@cacheReads app_public.p2000_messages\n@cacheMonitorReads app_hidden.monitor_matches app_public.monitors\n@cacheMonitorReads app_hidden.station_screen_monitors\nP2000 messages, newest first; real alerts only unless filter.exerciseType says otherwise.';

comment on function app_public.p2000_messages_count(filter app_public.p2000_message_filter) is E'@cacheReads app_hidden.p2000_daily_capcode_counts app_hidden.p2000_daily_counts\n@cacheReads app_hidden.p2000_hourly_counts app_hidden.p2000_hourly_urgency_counts\n@cacheReads app_public.p2000_capcodes app_public.p2000_disciplines app_public.p2000_message_capcodes\n@cacheReads app_public.p2000_messages\n@cacheMonitorReads app_hidden.monitor_daily_counts app_hidden.monitor_matches app_public.monitors\n@cacheMonitorReads app_hidden.station_screen_monitors\n@notNull\nHow many messages p2000Messages would list with this filter.';
