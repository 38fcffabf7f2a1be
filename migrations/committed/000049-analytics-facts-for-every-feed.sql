--! Previous: sha1:4da670ed716438db96f2aee0372a7b9d6d34cd05
--! Hash: sha1:f9965867d9987c5c20ac3e35767ddace8c501429
--! Message: Analytics facts for every feed

-- Issue 28: analytics facts. One view per kind of fact (one row per fact) in app_public, readable
-- by app_visitor and app_analyst, so psql and GraphQL count the same rows. Each view is
-- security_invoker: the caller's row-level security on the underlying tables applies (RSS items
-- stay per environment for the visitor). GraphQL reads them only through one SQL function per view
-- that takes a required window (at most 366 days), exposed as a connection with
-- @graphile/pg-aggregates (plugins/analytics.ts, docs/analytics.md). Times are grouped by the
-- Europe/Amsterdam columns the views compute (…_hour, …_day, …_week, …_month, …_year): the
-- plugin's own truncation of a timestamptz follows the session time zone, so raw timestamps are not
-- offered for grouping.

drop function if exists app_public.p2000_message_facts(timestamptz, timestamptz, boolean);
drop function if exists app_public.p2000_dossier_facts(timestamptz, timestamptz, boolean);
drop function if exists app_public.traffic_incident_facts(timestamptz, timestamptz);
drop function if exists app_public.meteo_warning_event_facts(timestamptz, timestamptz);
drop function if exists app_public.alert_facts(timestamptz, timestamptz);
drop function if exists app_public.aircraft_flight_facts(timestamptz, timestamptz);
drop function if exists app_public.rss_item_facts(timestamptz, timestamptz);
drop view if exists app_public.p2000_message_facts;
drop view if exists app_public.p2000_dossier_facts;
drop view if exists app_public.traffic_incident_facts;
drop view if exists app_public.meteo_warning_event_facts;
drop view if exists app_public.alert_facts;
drop view if exists app_public.aircraft_flight_facts;
drop view if exists app_public.rss_item_facts;
drop function if exists app_hidden.analytics_window(timestamptz, timestamptz);

create function app_hidden.analytics_window(window_start timestamptz, window_end timestamptz)
returns boolean language plpgsql immutable parallel safe as $$
begin
  if window_start is null or window_end is null then
    raise exception 'windowStart and windowEnd are required.' using errcode = 'XINPT';
  end if;
  if window_start >= window_end then
    raise exception 'windowStart must be before windowEnd (got % and %).', window_start, window_end
      using errcode = 'XINPT';
  end if;
  if window_end - window_start > interval '366 days' then
    raise exception 'The window must be at most 366 days (windowStart to windowEnd).' using errcode = 'XINPT';
  end if;
  return true;
end;
$$;
comment on function app_hidden.analytics_window(timestamptz, timestamptz) is
  'True for a window the analytics fact functions accept (start before end, at most 366 days); raises BAD_USER_INPUT (XINPT) otherwise. Called with the arguments only, so the planner evaluates it once (a one-time filter) in the inlined fact functions.';

-- P2000 messages ---------------------------------------------------------------------------------

create view app_public.p2000_message_facts with (security_invoker = true, security_barrier = true) as
select m.uuid,
       m.sended as sent_at,
       date_trunc('hour', m.sended, 'Europe/Amsterdam') as sent_hour,
       (m.sended at time zone 'Europe/Amsterdam')::date as sent_day,
       date_trunc('week', m.sended at time zone 'Europe/Amsterdam')::date as sent_week,
       date_trunc('month', m.sended at time zone 'Europe/Amsterdam')::date as sent_month,
       extract(year from m.sended at time zone 'Europe/Amsterdam')::int as sent_year,
       extract(hour from m.sended at time zone 'Europe/Amsterdam')::int as sent_hour_of_day,
       r.name as region,
       r.number as region_number,
       d.name as discipline,
       u.code as urgency,
       c.name as category,
       m.grip_level,
       m.exercise_type,
       m.city,
       m.road,
       m.dossier_uuid
  from app_public.p2000_messages m
  left join app_public.p2000_regions r on r.uuid = m.region_uuid
  left join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
  left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
  left join app_public.p2000_categories c on c.uuid = m.category_uuid;
comment on view app_public.p2000_message_facts is E'@name p2000_message_fact\n@behavior +connection -query:resource:connection +resource:aggregates +resource:groupedAggregates +resource:groupedAggregates:having\nOne row per P2000 message, for counting and grouping (analytics; read it through p2000MessageFacts). Days, weeks, months and years are Europe/Amsterdam.';
comment on column app_public.p2000_message_facts.uuid is 'The message.';
comment on column app_public.p2000_message_facts.sent_at is E'@behavior -attribute:groupBy\nWhen the message was sent (group by sentHour, sentDay, … instead).';
comment on column app_public.p2000_message_facts.sent_hour is 'The hour it was sent in (a whole hour; the two 02:00 hours of the October DST change are apart).';
comment on column app_public.p2000_message_facts.sent_day is 'The day it was sent (Europe/Amsterdam).';
comment on column app_public.p2000_message_facts.sent_week is 'The Monday of the ISO week it was sent in (Europe/Amsterdam).';
comment on column app_public.p2000_message_facts.sent_month is 'The first day of the month it was sent in (Europe/Amsterdam).';
comment on column app_public.p2000_message_facts.sent_year is 'The year it was sent in (Europe/Amsterdam).';
comment on column app_public.p2000_message_facts.sent_hour_of_day is 'The hour of the day it was sent, 0-23 (Europe/Amsterdam).';
comment on column app_public.p2000_message_facts.region is 'Safety region name; null when unknown.';
comment on column app_public.p2000_message_facts.region_number is 'Safety region number (01-25); null when unknown.';
comment on column app_public.p2000_message_facts.discipline is 'Discipline name (Brandweer, Ambulance, Politie, …).';
comment on column app_public.p2000_message_facts.urgency is 'Urgency code (P 1, A1, …).';
comment on column app_public.p2000_message_facts.category is 'Category name.';
comment on column app_public.p2000_message_facts.grip_level is 'GRIP level named in the text (1-5).';
comment on column app_public.p2000_message_facts.exercise_type is 'none for real alerts; test, proefalarm or oefening.';
comment on column app_public.p2000_message_facts.city is 'The place the message names.';
comment on column app_public.p2000_message_facts.road is 'The road the message names (A2, N201, …).';
comment on column app_public.p2000_message_facts.dossier_uuid is 'The dossier (incident) the message belongs to.';

create function app_public.p2000_message_facts(window_start timestamptz, window_end timestamptz,
                                               include_exercises boolean default false)
returns setof app_public.p2000_message_facts language sql stable parallel safe as $$
  select f.* from app_public.p2000_message_facts f
   where app_hidden.analytics_window(window_start, window_end)
     and f.sent_at >= window_start and f.sent_at < window_end
     and (include_exercises or f.exercise_type = 'none')
$$;
comment on function app_public.p2000_message_facts(timestamptz, timestamptz, boolean) is E'@behavior +connection -list\nP2000 messages sent in [windowStart, windowEnd) (at most 366 days), real alerts only unless includeExercises: count, group (sentDay, region, …) and aggregate them.';

-- P2000 dossiers ---------------------------------------------------------------------------------

create view app_public.p2000_dossier_facts with (security_invoker = true, security_barrier = true) as
select x.uuid,
       x.first_sended as first_sent_at,
       x.last_sended as last_sent_at,
       (x.first_sended at time zone 'Europe/Amsterdam')::date as first_day,
       date_trunc('month', x.first_sended at time zone 'Europe/Amsterdam')::date as first_month,
       x.message_count,
       (extract(epoch from x.last_sended - x.first_sended) / 60)::float8 as duration_minutes,
       u.code as highest_urgency,
       x.grip_level as highest_grip_level,
       r.name as region,
       d.name as discipline,
       c.name as category,
       x.exercise_type,
       x.city
  from app_public.p2000_dossiers x
  left join app_public.p2000_regions r on r.uuid = x.region_uuid
  left join app_public.p2000_disciplines d on d.uuid = x.discipline_uuid
  left join app_public.p2000_urgencies u on u.uuid = x.urgency_uuid
  left join app_public.p2000_categories c on c.uuid = x.category_uuid;
comment on view app_public.p2000_dossier_facts is E'@name p2000_dossier_fact\n@behavior +connection -query:resource:connection +resource:aggregates +resource:groupedAggregates +resource:groupedAggregates:having\nOne row per P2000 dossier (incident), for counting and grouping (read it through p2000DossierFacts).';
comment on column app_public.p2000_dossier_facts.uuid is 'The dossier.';
comment on column app_public.p2000_dossier_facts.first_sent_at is E'@behavior -attribute:groupBy\nIts first message.';
comment on column app_public.p2000_dossier_facts.last_sent_at is E'@behavior -attribute:groupBy\nIts last message.';
comment on column app_public.p2000_dossier_facts.first_day is 'The day of its first message (Europe/Amsterdam).';
comment on column app_public.p2000_dossier_facts.first_month is 'The first day of the month of its first message (Europe/Amsterdam).';
comment on column app_public.p2000_dossier_facts.message_count is 'How many messages it has.';
comment on column app_public.p2000_dossier_facts.duration_minutes is 'Minutes from its first to its last message.';
comment on column app_public.p2000_dossier_facts.highest_urgency is 'Its highest urgency code.';
comment on column app_public.p2000_dossier_facts.highest_grip_level is 'Its highest GRIP level.';
comment on column app_public.p2000_dossier_facts.region is 'Safety region name.';
comment on column app_public.p2000_dossier_facts.discipline is 'Discipline name.';
comment on column app_public.p2000_dossier_facts.category is 'Category name.';
comment on column app_public.p2000_dossier_facts.exercise_type is 'none for real incidents; test, proefalarm or oefening.';
comment on column app_public.p2000_dossier_facts.city is 'The place it is in.';

create function app_public.p2000_dossier_facts(window_start timestamptz, window_end timestamptz,
                                               include_exercises boolean default false)
returns setof app_public.p2000_dossier_facts language sql stable parallel safe as $$
  select f.* from app_public.p2000_dossier_facts f
   where app_hidden.analytics_window(window_start, window_end)
     and f.first_sent_at >= window_start and f.first_sent_at < window_end
     and (include_exercises or f.exercise_type = 'none')
$$;
comment on function app_public.p2000_dossier_facts(timestamptz, timestamptz, boolean) is E'@behavior +connection -list\nP2000 dossiers whose first message is in [windowStart, windowEnd) (at most 366 days), real incidents only unless includeExercises.';

-- Traffic incidents ------------------------------------------------------------------------------

create view app_public.traffic_incident_facts with (security_invoker = true, security_barrier = true) as
select t.uuid,
       t.type,
       t.severity,
       t.road_number as road,
       t.sort_at as started_at,
       t.closed_at as ended_at,
       (t.sort_at at time zone 'Europe/Amsterdam')::date as started_day,
       date_trunc('month', t.sort_at at time zone 'Europe/Amsterdam')::date as started_month,
       (extract(epoch from t.closed_at - t.sort_at) / 60)::float8 as duration_minutes
  from app_public.traffic_incidents t;
comment on view app_public.traffic_incident_facts is E'@name traffic_incident_fact\n@behavior +connection -query:resource:connection +resource:aggregates +resource:groupedAggregates +resource:groupedAggregates:having\nOne row per traffic incident (read it through trafficIncidentFacts).';
comment on column app_public.traffic_incident_facts.uuid is 'The incident.';
comment on column app_public.traffic_incident_facts.type is 'Incident type (trafficIncidentTypes values).';
comment on column app_public.traffic_incident_facts.severity is 'Severity, when the feed gives one.';
comment on column app_public.traffic_incident_facts.road is 'Road number (A2, N201, …).';
comment on column app_public.traffic_incident_facts.started_at is E'@behavior -attribute:groupBy\nIts start (when first seen, without one).';
comment on column app_public.traffic_incident_facts.ended_at is E'@behavior -attribute:groupBy\nWhen it left the feed; null while it lasts.';
comment on column app_public.traffic_incident_facts.started_day is 'The day it started (Europe/Amsterdam).';
comment on column app_public.traffic_incident_facts.started_month is 'The first day of the month it started in (Europe/Amsterdam).';
comment on column app_public.traffic_incident_facts.duration_minutes is 'Minutes from start to end; null while it lasts.';

create function app_public.traffic_incident_facts(window_start timestamptz, window_end timestamptz)
returns setof app_public.traffic_incident_facts language sql stable parallel safe as $$
  select f.* from app_public.traffic_incident_facts f
   where app_hidden.analytics_window(window_start, window_end)
     and f.started_at >= window_start and f.started_at < window_end
$$;
comment on function app_public.traffic_incident_facts(timestamptz, timestamptz) is E'@behavior +connection -list\nTraffic incidents that started in [windowStart, windowEnd) (at most 366 days).';

-- Weather warning events -------------------------------------------------------------------------

create view app_public.meteo_warning_event_facts with (security_invoker = true, security_barrier = true) as
select e.uuid,
       p.name as province,
       p.code as province_code,
       e.level,
       e.status_code,
       e.phenomena,
       cardinality(e.phenomena) as phenomenon_count,
       e.period_from,
       e.period_to,
       e.issued_at,
       (e.issued_at at time zone 'Europe/Amsterdam')::date as issued_day,
       date_trunc('month', e.issued_at at time zone 'Europe/Amsterdam')::date as issued_month,
       extract(year from e.issued_at at time zone 'Europe/Amsterdam')::int as issued_year
  from app_public.meteo_warning_events e
  join app_public.meteo_provinces p on p.uuid = e.province_uuid;
comment on view app_public.meteo_warning_event_facts is E'@name meteo_warning_event_fact\n@behavior +connection -query:resource:connection +resource:aggregates +resource:groupedAggregates +resource:groupedAggregates:having\nOne row per weather warning event (a province''s level or phenomena changed; read it through meteoWarningEventFacts).';
comment on column app_public.meteo_warning_event_facts.uuid is 'The event.';
comment on column app_public.meteo_warning_event_facts.province is 'Province name.';
comment on column app_public.meteo_warning_event_facts.province_code is 'Province code.';
comment on column app_public.meteo_warning_event_facts.level is 'none, yellow, orange or red.';
comment on column app_public.meteo_warning_event_facts.status_code is '0 none, 1 yellow, 2 orange, 3 red (max gives the highest).';
comment on column app_public.meteo_warning_event_facts.phenomena is E'@behavior -attribute:groupBy\nPhenomena warned for, sorted.';
comment on column app_public.meteo_warning_event_facts.phenomenon_count is 'How many phenomena.';
comment on column app_public.meteo_warning_event_facts.period_from is E'@behavior -attribute:groupBy\nStart of the first warned hour.';
comment on column app_public.meteo_warning_event_facts.period_to is E'@behavior -attribute:groupBy\nEnd of the last warned hour.';
comment on column app_public.meteo_warning_event_facts.issued_at is E'@behavior -attribute:groupBy\nThe issue hour of the announcing document.';
comment on column app_public.meteo_warning_event_facts.issued_day is 'The day it was issued (Europe/Amsterdam).';
comment on column app_public.meteo_warning_event_facts.issued_month is 'The first day of the month it was issued in (Europe/Amsterdam).';
comment on column app_public.meteo_warning_event_facts.issued_year is 'The year it was issued in (Europe/Amsterdam).';

create function app_public.meteo_warning_event_facts(window_start timestamptz, window_end timestamptz)
returns setof app_public.meteo_warning_event_facts language sql stable parallel safe as $$
  select f.* from app_public.meteo_warning_event_facts f
   where app_hidden.analytics_window(window_start, window_end)
     and f.issued_at >= window_start and f.issued_at < window_end
$$;
comment on function app_public.meteo_warning_event_facts(timestamptz, timestamptz) is E'@behavior +connection -list\nWeather warning events issued in [windowStart, windowEnd) (at most 366 days).';

-- NL-Alerts and AMBER alerts ---------------------------------------------------------------------

create view app_public.alert_facts with (security_invoker = true, security_barrier = true) as
select 'nl_alert'::text as kind,
       a.uuid as alert_uuid,
       a.start_at as started_at,
       a.stop_at as stopped_at,
       (a.start_at at time zone 'Europe/Amsterdam')::date as started_day,
       date_trunc('month', a.start_at at time zone 'Europe/Amsterdam')::date as started_month,
       r.name as region,
       r.number as region_number,
       null::int as level
  from app_public.nl_alerts a
  left join app_public.nl_alert_regions ar on ar.alert_uuid = a.uuid
  left join app_public.p2000_regions r on r.number = ar.region_number
union all
select 'amber_alert', b.uuid, b.started_at, b.ended_at,
       (b.started_at at time zone 'Europe/Amsterdam')::date,
       date_trunc('month', b.started_at at time zone 'Europe/Amsterdam')::date,
       null, null, b.level
  from app_public.amber_alerts b;
comment on view app_public.alert_facts is E'@name alert_fact\n@behavior +connection -query:resource:connection +resource:aggregates +resource:groupedAggregates +resource:groupedAggregates:having\nOne row per NL-Alert and safety region it covers (one with region null when it covers none) and one per AMBER alert (read it through alertFacts); count alerts with distinctCount of alertUuid.';
comment on column app_public.alert_facts.kind is 'nl_alert or amber_alert.';
comment on column app_public.alert_facts.alert_uuid is 'The alert (an NL-Alert appears once per region).';
comment on column app_public.alert_facts.started_at is E'@behavior -attribute:groupBy\nWhen it started.';
comment on column app_public.alert_facts.stopped_at is E'@behavior -attribute:groupBy\nWhen it stopped; null while it runs.';
comment on column app_public.alert_facts.started_day is 'The day it started (Europe/Amsterdam).';
comment on column app_public.alert_facts.started_month is 'The first day of the month it started in (Europe/Amsterdam).';
comment on column app_public.alert_facts.region is 'Safety region name (NL-Alerts).';
comment on column app_public.alert_facts.region_number is 'Safety region number (NL-Alerts).';
comment on column app_public.alert_facts.level is 'AMBER level: 10 AMBER Alert, 5 missing child (null for NL-Alerts).';

create function app_public.alert_facts(window_start timestamptz, window_end timestamptz)
returns setof app_public.alert_facts language sql stable parallel safe as $$
  select f.* from app_public.alert_facts f
   where app_hidden.analytics_window(window_start, window_end)
     and f.started_at >= window_start and f.started_at < window_end
$$;
comment on function app_public.alert_facts(timestamptz, timestamptz) is E'@behavior +connection -list\nNL-Alerts (per region) and AMBER alerts that started in [windowStart, windowEnd) (at most 366 days).';

-- Aircraft flights -------------------------------------------------------------------------------

create view app_public.aircraft_flight_facts with (security_invoker = true, security_barrier = true) as
select x.uuid,
       x.icao,
       a.registration,
       a.kind,
       x.status,
       coalesce(x.took_off_at, x.first_seen_at) as started_at,
       case when x.status = 'completed' then coalesce(x.landed_at, x.last_seen_at) end as ended_at,
       (coalesce(x.took_off_at, x.first_seen_at) at time zone 'Europe/Amsterdam')::date as started_day,
       date_trunc('month', coalesce(x.took_off_at, x.first_seen_at) at time zone 'Europe/Amsterdam')::date
         as started_month,
       (extract(epoch from case when x.status = 'completed' then coalesce(x.landed_at, x.last_seen_at) end
                             - coalesce(x.took_off_at, x.first_seen_at)) / 60)::float8 as minutes,
       x.start_place as from_place,
       x.end_place as to_place
  from app_public.aircraft_routes x
  join app_public.aircraft_fleet a on a.icao = x.icao;
comment on view app_public.aircraft_flight_facts is E'@name aircraft_flight_fact\n@behavior +connection -query:resource:connection +resource:aggregates +resource:groupedAggregates +resource:groupedAggregates:having\nOne row per flight of a tracked aircraft (read it through aircraftFlightFacts).';
comment on column app_public.aircraft_flight_facts.uuid is 'The flight (route).';
comment on column app_public.aircraft_flight_facts.icao is 'The aircraft''s ICAO address.';
comment on column app_public.aircraft_flight_facts.registration is 'The aircraft''s registration.';
comment on column app_public.aircraft_flight_facts.kind is 'The aircraft''s kind (trauma or police helicopter, …).';
comment on column app_public.aircraft_flight_facts.status is 'active (airborne) or completed.';
comment on column app_public.aircraft_flight_facts.started_at is E'@behavior -attribute:groupBy\nTake-off (or first sighting in the air).';
comment on column app_public.aircraft_flight_facts.ended_at is E'@behavior -attribute:groupBy\nLanding (or the signal lost); null while airborne.';
comment on column app_public.aircraft_flight_facts.started_day is 'The day it started (Europe/Amsterdam).';
comment on column app_public.aircraft_flight_facts.started_month is 'The first day of the month it started in (Europe/Amsterdam).';
comment on column app_public.aircraft_flight_facts.minutes is 'Flight minutes; null while airborne.';
comment on column app_public.aircraft_flight_facts.from_place is 'Where it started.';
comment on column app_public.aircraft_flight_facts.to_place is 'Where it ended.';

create function app_public.aircraft_flight_facts(window_start timestamptz, window_end timestamptz)
returns setof app_public.aircraft_flight_facts language sql stable parallel safe as $$
  select f.* from app_public.aircraft_flight_facts f
   where app_hidden.analytics_window(window_start, window_end)
     and f.started_at >= window_start and f.started_at < window_end
$$;
comment on function app_public.aircraft_flight_facts(timestamptz, timestamptz) is E'@behavior +connection -list\nFlights that started in [windowStart, windowEnd) (at most 366 days).';

-- RSS items --------------------------------------------------------------------------------------

create view app_public.rss_item_facts with (security_invoker = true, security_barrier = true) as
select i.uuid,
       i.feed_uuid,
       f.title as feed_title,
       i.sort_at as published_at,
       (i.sort_at at time zone 'Europe/Amsterdam')::date as published_day,
       date_trunc('month', i.sort_at at time zone 'Europe/Amsterdam')::date as published_month
  from app_public.rss_feed_items i
  join app_public.rss_feeds f on f.uuid = i.feed_uuid;
comment on view app_public.rss_item_facts is E'@name rss_item_fact\n@behavior +connection -query:resource:connection +resource:aggregates +resource:groupedAggregates +resource:groupedAggregates:having\nOne row per RSS item of a feed the caller may read (an API token: the feeds its environment follows; the analyst: all), read through rssItemFacts.';
comment on column app_public.rss_item_facts.uuid is 'The item.';
comment on column app_public.rss_item_facts.feed_uuid is 'The feed.';
comment on column app_public.rss_item_facts.feed_title is 'The feed''s title.';
comment on column app_public.rss_item_facts.published_at is E'@behavior -attribute:groupBy\nWhen it was published (first seen, without a date).';
comment on column app_public.rss_item_facts.published_day is 'The day it was published (Europe/Amsterdam).';
comment on column app_public.rss_item_facts.published_month is 'The first day of the month it was published in (Europe/Amsterdam).';

create function app_public.rss_item_facts(window_start timestamptz, window_end timestamptz)
returns setof app_public.rss_item_facts language sql stable parallel safe as $$
  select f.* from app_public.rss_item_facts f
   where app_hidden.analytics_window(window_start, window_end)
     and f.published_at >= window_start and f.published_at < window_end
$$;
comment on function app_public.rss_item_facts(timestamptz, timestamptz) is E'@behavior +connection -list\nRSS items published in [windowStart, windowEnd) (at most 366 days) of the feeds the caller may read.';

grant select on app_public.p2000_message_facts, app_public.p2000_dossier_facts, app_public.traffic_incident_facts,
  app_public.meteo_warning_event_facts, app_public.alert_facts, app_public.aircraft_flight_facts,
  app_public.rss_item_facts to app_visitor, app_analyst;
