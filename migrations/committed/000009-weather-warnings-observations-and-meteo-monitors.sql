--! Previous: sha1:ad386b1a0933e8b25f55f6e128aedf146d9c8d09
--! Hash: sha1:76ec92543463c0e1393205c91a8753cd3c7b768a
--! Message: Weather: provinces, warning history and events, observations, meteo_weather monitors and the meteo queries

-- Weather (meteo): the twelve provinces as the national weather institute names them, hourly
-- warning slices as the stored warning history, a log of warning events (a province's level or
-- phenomena changed), a daily roll-up for statistics, 10-minute station observations, the
-- meteo_weather monitors on the shared monitor mechanism, and the spec's eleven queries.
-- Documents are parsed in lib/feeds/meteo/ and stored by app_private.ingest_meteo_* in one
-- transaction each.

drop function if exists app_public.meteo_general();
drop function if exists app_public.meteo_regions();
drop function if exists app_public.meteo_region_detail(text);
drop function if exists app_public.meteo_region_details();
drop function if exists app_public.meteo_snapshot(text);
drop function if exists app_public.meteo_latest_observation(text);
drop function if exists app_public.meteo_observation_history(text, integer, integer, integer);
drop function if exists app_public.meteo_stats_available_years();
drop function if exists app_public.meteo_stats_monthly(integer, text);
drop function if exists app_public.meteo_warning_events_for_monitor(app_public.monitor_ref, integer, integer);
drop function if exists app_public.meteo_color_codes();
drop function if exists app_public.meteo_observations_station_name(app_public.meteo_observations);
drop function if exists app_public.meteo_warning_events_region_code(app_public.meteo_warning_events);
drop function if exists app_public.meteo_warning_events_region_name(app_public.meteo_warning_events);
drop function if exists app_private.ingest_meteo_warnings(jsonb, bytea, text);
drop function if exists app_private.ingest_meteo_observations(jsonb, bytea, text);
drop function if exists app_private.match_meteo_event(uuid);
drop function if exists app_hidden.meteo_notification_subject(app_public.meteo_warning_events);
drop function if exists app_private.notify_feed_event(text, uuid, uuid[], app_hidden.notification_subject);
drop function if exists app_private.queue_deliveries(uuid[]);
drop function if exists app_hidden.meteo_details(timestamptz, timestamptz);
drop function if exists app_hidden.meteo_periods(timestamptz, timestamptz);
drop function if exists app_hidden.meteo_has_data();
drop function if exists app_hidden.meteo_refresh_day_snapshots(date, date);
drop function if exists app_hidden.meteo_day_window(text);
drop function if exists app_private.notification_for_delivery(uuid);
drop function if exists app_hidden.in_quiet_hours(jsonb);
drop function if exists app_hidden.exceeds_max_per_period(jsonb, bigint);
drop trigger if exists _500_meteo_criteria on app_public.monitors;
drop function if exists app_hidden.tg_monitors__meteo_criteria();
drop trigger if exists _600_queue_matching on app_public.meteo_warning_events;
drop function if exists app_hidden.tg_meteo_warning_events__queue_matching();
alter table if exists app_private.notifications drop constraint if exists notifications_one_subject;
drop index if exists app_private.notifications_event_idx;
alter table if exists app_private.notifications drop column if exists event_kind, drop column if exists event_uuid,
  drop column if exists headline, drop column if exists facts, drop column if exists event_type, drop column if exists payload;
drop type if exists app_hidden.notification_subject cascade;
drop table if exists app_hidden.meteo_day_snapshots, app_hidden.feed_monitor_matches, app_hidden.meteo_monitor_criteria, app_hidden.meteo_daily_levels,
  app_hidden.meteo_region_states, app_public.meteo_warning_events, app_public.meteo_warning_slices,
  app_public.meteo_observations, app_public.meteo_stations, app_hidden.meteo_documents, app_public.meteo_phenomena,
  app_public.meteo_levels, app_public.meteo_provinces, app_hidden.feed_status cascade;
drop function if exists app_hidden.meteo_level_value(integer);
drop type if exists app_public.meteo_region_detail, app_public.meteo_region, app_public.meteo_warning,
  app_public.meteo_warning_period, app_public.meteo_status, app_public.meteo_monthly_stats,
  app_public.monitor_reference_item cascade;

--------------------------------------------------------------------------------------------------
-- Reference data

create table app_public.meteo_provinces (
  uuid uuid primary key default gen_random_uuid(),
  code text not null unique check (code ~ '^[a-z]+(-[a-z]+)*$'),
  name text not null,
  knmi_code text not null unique,
  sort_order integer not null
);
comment on table app_public.meteo_provinces is
  E'@behavior -*\nThe twelve provinces of weather warnings: code (a lower-case slug, MeteoRegion.code) and the warnings feed''s location id.';
alter table app_public.meteo_provinces enable row level security;
create policy select_all on app_public.meteo_provinces for select to app_visitor, app_analyst using (true);
grant select on app_public.meteo_provinces to app_visitor, app_analyst;
insert into app_public.meteo_provinces (code, name, knmi_code, sort_order) values
  ('groningen', 'Groningen', 'GR', 1), ('friesland', 'Friesland', 'FR', 2), ('drenthe', 'Drenthe', 'DR', 3),
  ('noord-holland', 'Noord-Holland', 'NH', 4), ('flevoland', 'Flevoland', 'FL', 5), ('overijssel', 'Overijssel', 'OV', 6),
  ('gelderland', 'Gelderland', 'GL', 7), ('utrecht', 'Utrecht', 'UT', 8), ('zuid-holland', 'Zuid-Holland', 'ZH', 9),
  ('zeeland', 'Zeeland', 'ZE', 10), ('noord-brabant', 'Noord-Brabant', 'NB', 11), ('limburg', 'Limburg', 'LB', 12);

create table app_public.meteo_levels (
  status_code integer primary key check (status_code between 0 and 3),
  value text not null unique,
  label text not null,
  description text not null,
  color text not null
);
comment on table app_public.meteo_levels is E'@behavior -*\nWarning levels: 0 none, 1 yellow, 2 orange, 3 red.';
alter table app_public.meteo_levels enable row level security;
create policy select_all on app_public.meteo_levels for select to app_visitor, app_analyst using (true);
grant select on app_public.meteo_levels to app_visitor, app_analyst;
insert into app_public.meteo_levels values
  (0, 'none', 'Geen waarschuwing', 'No warning.', '#7cb342'),
  (1, 'yellow', 'Code geel', 'Weather that may be dangerous: be alert.', '#ffe600'),
  (2, 'orange', 'Code oranje', 'Dangerous weather with a large impact: prepare.', '#ff8c00'),
  (3, 'red', 'Code rood', 'Extreme weather with a very large impact: take action.', '#e3001b');

create table app_public.meteo_phenomena (
  id text primary key check (id ~ '^[a-z][a-z0-9_-]*$' and length(id) <= 40),
  label text not null,
  sort_order integer not null default 100
);
comment on table app_public.meteo_phenomena is
  E'@behavior -*\nWarning phenomena by the feed''s phenomenon_id (the icon key clients map to a symbol) with a Dutch label; unknown ones are added as they come.';
alter table app_public.meteo_phenomena enable row level security;
create policy select_all on app_public.meteo_phenomena for select to app_visitor, app_analyst using (true);
grant select on app_public.meteo_phenomena to app_visitor, app_analyst;
insert into app_public.meteo_phenomena (id, label, sort_order) values
  ('thunderstorm', 'Onweer', 1), ('rain', 'Regen', 2), ('wind', 'Wind', 3), ('windgusts', 'Windstoten', 4),
  ('visibility', 'Zicht', 5), ('fog', 'Mist', 6), ('snow', 'Sneeuw', 7), ('iciness', 'Gladheid', 8),
  ('freezing-rain', 'IJzel', 9), ('heat', 'Hitte', 10), ('low-temperature', 'Kou', 11), ('tornado', 'Windhozen', 12),
  ('waterspout', 'Waterhozen', 13), ('coastal', 'Kust', 14);

--------------------------------------------------------------------------------------------------
-- Documents, feed status, warning history and events

-- Every document stored, by content hash: the same file twice is recognised and changes nothing.
create table app_hidden.meteo_documents (
  uuid uuid primary key default uuidv7(),
  kind text not null check (kind in ('warnings', 'observations')),
  sha256 bytea not null,
  source text not null,
  received_at timestamptz not null default now(),
  first_hour timestamptz,
  last_hour timestamptz,
  records integer not null,
  skipped integer not null,
  unique (kind, sha256)
);
create index meteo_documents_warnings_first_hour_idx on app_hidden.meteo_documents (first_hour) where kind = 'warnings';
alter table app_hidden.meteo_documents enable row level security;
create policy select_all on app_hidden.meteo_documents for select to app_analyst using (true);
grant select on app_hidden.meteo_documents to app_analyst;

-- The state of every polled feed, so that failures are logged once per change of state (by any
-- worker), and for operators: when did it last get a good document.
create table app_hidden.feed_status (
  feed text primary key,
  ok boolean not null,
  message text,
  etag text,
  last_modified text,
  last_success_at timestamptz,
  last_failure_at timestamptz,
  changed_at timestamptz not null default now()
);
alter table app_hidden.feed_status enable row level security;
create policy select_all on app_hidden.feed_status for select to app_analyst using (true);
grant select on app_hidden.feed_status to app_analyst;

-- The stored warning history: per province, phenomenon and hour the status (1-3) and advice of
-- the latest document that covered that hour. Hours without a warning have no row.
create table app_public.meteo_warning_slices (
  province_uuid uuid not null references app_public.meteo_provinces,
  hour timestamptz not null check (date_trunc('hour', hour) = hour),
  phenomenon text not null references app_public.meteo_phenomena,
  status smallint not null check (status between 1 and 3),
  description text check (length(description) <= 4000),
  document_uuid uuid not null references app_hidden.meteo_documents,
  primary key (province_uuid, hour, phenomenon)
);
create index meteo_warning_slices_hour_idx on app_public.meteo_warning_slices (hour);
comment on table app_public.meteo_warning_slices is
  E'@behavior -*\nThe warning history: one row per province, hour and phenomenon with a warning (status 1 yellow, 2 orange, 3 red).';
alter table app_public.meteo_warning_slices enable row level security;
create policy select_all on app_public.meteo_warning_slices for select to app_visitor, app_analyst using (true);
grant select on app_public.meteo_warning_slices to app_visitor, app_analyst;

-- What each province's warnings were after the latest document: compared with the next one to
-- tell whether its level or phenomena changed.
create table app_hidden.meteo_region_states (
  province_uuid uuid primary key references app_public.meteo_provinces,
  status_code integer not null,
  phenomena text[] not null,
  period_from timestamptz,
  period_to timestamptz,
  document_uuid uuid not null references app_hidden.meteo_documents
);
alter table app_hidden.meteo_region_states enable row level security;

-- A level's name (meteo_levels.value) as an immutable function, for the events' generated columns.
create function app_hidden.meteo_level_value(status_code integer) returns text
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select (array['none', 'yellow', 'orange', 'red'])[status_code + 1]
$$;

create table app_public.meteo_warning_events (
  uuid uuid primary key default uuidv7(),
  province_uuid uuid not null references app_public.meteo_provinces,
  status_code integer not null check (status_code between 0 and 3),
  level text not null generated always as (app_hidden.meteo_level_value(status_code)) stored,
  previous_status_code integer not null check (previous_status_code between 0 and 3),
  previous_level text not null generated always as (app_hidden.meteo_level_value(previous_status_code)) stored,
  phenomena text[] not null,
  previous_phenomena text[] not null,
  period_from timestamptz,
  period_to timestamptz,
  issued_at timestamptz not null,
  document_uuid uuid not null references app_hidden.meteo_documents,
  created timestamptz not null default now()
);
create index meteo_warning_events_issued_at_idx on app_public.meteo_warning_events (issued_at);
create index meteo_warning_events_province_idx on app_public.meteo_warning_events (province_uuid, issued_at);
comment on table app_public.meteo_warning_events is
  E'@name meteo_warning_event\nA province''s warnings changed: its level or its phenomena, as announced by a warnings document. A warning that only lasts longer is no event.';
comment on column app_public.meteo_warning_events.province_uuid is E'@behavior -*';
comment on column app_public.meteo_warning_events.document_uuid is E'@behavior -*';
comment on column app_public.meteo_warning_events.status_code is 'The level as a number: 0 none (the warnings ended), 1 yellow, 2 orange, 3 red.';
comment on column app_public.meteo_warning_events.level is 'none, yellow, orange or red (meteoColorCodes values).';
comment on column app_public.meteo_warning_events.phenomena is 'Phenomena with a warning (e.g. wind, iciness), sorted.';
comment on column app_public.meteo_warning_events.previous_phenomena is 'The phenomena warned for before this event.';
comment on column app_public.meteo_warning_events.period_from is 'Start of the first warned hour of the province in the announcing document.';
comment on column app_public.meteo_warning_events.period_to is 'End of the last warned hour.';
comment on column app_public.meteo_warning_events.issued_at is 'The first hour the announcing document covers (its issue hour).';
alter table app_public.meteo_warning_events enable row level security;
create policy select_all on app_public.meteo_warning_events for select to app_visitor, app_analyst using (true);
grant select on app_public.meteo_warning_events to app_visitor, app_analyst;

-- The highest level per province and Europe/Amsterdam day (days with a warning only): statistics
-- read a year of it instead of the hourly history.
create table app_hidden.meteo_daily_levels (
  province_uuid uuid not null references app_public.meteo_provinces,
  day date not null,
  status_code integer not null check (status_code between 1 and 3),
  primary key (province_uuid, day)
);
create index meteo_daily_levels_day_idx on app_hidden.meteo_daily_levels (day);
alter table app_hidden.meteo_daily_levels enable row level security;
create policy select_all on app_hidden.meteo_daily_levels for select to app_visitor, app_analyst using (true);
grant select on app_hidden.meteo_daily_levels to app_visitor, app_analyst;

--------------------------------------------------------------------------------------------------
-- Observations

create table app_public.meteo_stations (
  station_id text primary key check (station_id ~ '^[0-9]{5}$'),
  name text,
  latitude double precision check (latitude between -90 and 90),
  longitude double precision check (longitude between -180 and 180)
);
comment on table app_public.meteo_stations is E'@behavior -*\nWeather stations by WMO id (06260 De Bilt).';
alter table app_public.meteo_stations enable row level security;
create policy select_all on app_public.meteo_stations for select to app_visitor, app_analyst using (true);
grant select on app_public.meteo_stations to app_visitor, app_analyst;

create table app_public.meteo_observations (
  station_id text not null references app_public.meteo_stations,
  observed_at timestamptz not null,
  temperature double precision,
  dew_point double precision,
  humidity double precision,
  pressure double precision,
  wind_direction double precision,
  wind_speed double precision,
  wind_gust double precision,
  visibility double precision,
  precipitation double precision,
  radiation double precision,
  cloud_cover double precision,
  sunshine double precision,
  weather_code integer,
  primary key (station_id, observed_at)
);
comment on table app_public.meteo_observations is
  E'@name meteo_observation\nA 10-minute station observation (time = end of the interval, UTC).';
comment on column app_public.meteo_observations.temperature is 'Air temperature, °C.';
comment on column app_public.meteo_observations.dew_point is 'Dew point, °C.';
comment on column app_public.meteo_observations.humidity is 'Relative humidity, %.';
comment on column app_public.meteo_observations.pressure is 'Air pressure at sea level, hPa.';
comment on column app_public.meteo_observations.wind_direction is 'Wind direction (10-minute mean), degrees.';
comment on column app_public.meteo_observations.wind_speed is 'Wind speed at 10 m (10-minute mean), m/s.';
comment on column app_public.meteo_observations.wind_gust is 'Highest gust, m/s.';
comment on column app_public.meteo_observations.visibility is 'Visibility, m.';
comment on column app_public.meteo_observations.precipitation is 'Precipitation in the last hour, mm.';
comment on column app_public.meteo_observations.radiation is 'Global radiation, W/m².';
comment on column app_public.meteo_observations.cloud_cover is 'Cloud cover, okta.';
comment on column app_public.meteo_observations.sunshine is 'Sunshine, minutes.';
comment on column app_public.meteo_observations.weather_code is 'Present weather code (WMO table 4680).';
alter table app_public.meteo_observations enable row level security;
create policy select_all on app_public.meteo_observations for select to app_visitor, app_analyst using (true);
grant select on app_public.meteo_observations to app_visitor, app_analyst;

create function app_public.meteo_observations_station_name(o app_public.meteo_observations) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select s.name from app_public.meteo_stations s where s.station_id = o.station_id
$$;
comment on function app_public.meteo_observations_station_name(app_public.meteo_observations) is 'The station''s name.';

--------------------------------------------------------------------------------------------------
-- GraphQL shapes

create type app_public.meteo_status as (description text);
comment on type app_public.meteo_status is 'A warning level in words.';
create type app_public.meteo_region as (uuid uuid, code text, name text, status_code integer, status app_public.meteo_status);
comment on type app_public.meteo_region is 'A province and its current warning level (null when no warnings were received yet).';
create type app_public.meteo_warning_period as (description text, status_code integer, "from" timestamptz, "to" timestamptz);
comment on type app_public.meteo_warning_period is 'Consecutive hours of one level of one phenomenon, with the advice.';
comment on column app_public.meteo_warning_period.status_code is E'@exactName status_code\n1 yellow, 2 orange, 3 red.';
create type app_public.meteo_warning as (icon text, label text, periods app_public.meteo_warning_period[]);
comment on type app_public.meteo_warning is 'The warnings of one phenomenon: icon is its key (wind, rain, iciness ...), label its Dutch name.';
create type app_public.meteo_region_detail as (region_code text, name text, status_code integer,
  status app_public.meteo_status, warnings app_public.meteo_warning[]);
comment on type app_public.meteo_region_detail is 'A province (or the whole country) with its warnings per phenomenon.';
create type app_public.meteo_monthly_stats as (year integer, month integer, yellow_days integer, orange_days integer,
  red_days integer, warning_days integer);
comment on type app_public.meteo_monthly_stats is
  E'@typeName MeteoMonthlyStats\nWhole days of a month per warning level, a day counting as the highest level active that day (Europe/Amsterdam).';
create type app_public.monitor_reference_item as (value text, label text, description text, color text);
comment on type app_public.monitor_reference_item is
  'An item of a reference list for monitor forms: value is what a monitor''s query takes, label what a person reads, description a line of help, color a display colour where the item has one.';

--------------------------------------------------------------------------------------------------
-- Reading the history

-- Whether any warnings document was stored: before that, warning reads answer "no data".
-- (Security definer: the documents themselves are no business of API clients.)
create function app_hidden.meteo_has_data() returns boolean
  language sql stable parallel safe security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  select exists (select 1 from app_hidden.meteo_documents d where d.kind = 'warnings')
$$;

-- Warning periods overlapping [range_from, range_to): runs of consecutive hours with the same
-- status per province and phenomenon. Runs are found in a margin of three days around the range,
-- so a period that began earlier keeps its real start.
create function app_hidden.meteo_periods(range_from timestamptz, range_to timestamptz)
  returns table (province_uuid uuid, phenomenon text, status integer, description text, period_from timestamptz, period_to timestamptz)
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  with slices as (
    select s.province_uuid, s.phenomenon, s.status::integer as status, s.description, s.hour,
           s.hour - make_interval(hours => (row_number() over (partition by s.province_uuid, s.phenomenon, s.status order by s.hour))::integer) as run
      from app_public.meteo_warning_slices s
     where s.hour >= range_from - interval '3 days'
       and s.hour < case when range_to = 'infinity' then range_to else range_to + interval '3 days' end
  ), runs as (
    select sl.province_uuid, sl.phenomenon, sl.status, (array_agg(sl.description order by sl.hour))[1] as description,
           min(sl.hour) as period_from, max(sl.hour) + interval '1 hour' as period_to
      from slices sl group by sl.province_uuid, sl.phenomenon, sl.status, sl.run
  )
  select * from runs r where r.period_to > range_from and r.period_from < range_to
$$;

-- The twelve provinces with their warnings overlapping [range_from, range_to), in map order.
create function app_hidden.meteo_details(range_from timestamptz, range_to timestamptz)
  returns setof app_public.meteo_region_detail
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  with periods as (select * from app_hidden.meteo_periods(range_from, range_to)),
  warnings as (
    select p.province_uuid, max(p.status) as status, min(ph.sort_order) as sort_order, ph.id,
           row(ph.id, ph.label, array_agg(row(p.description, p.status, p.period_from, p.period_to)::app_public.meteo_warning_period
                                         order by p.period_from))::app_public.meteo_warning as warning
      from periods p join app_public.meteo_phenomena ph on ph.id = p.phenomenon
     group by p.province_uuid, ph.id, ph.label
  )
  select pr.code, pr.name, coalesce(w.status, 0), row(l.label)::app_public.meteo_status,
         coalesce(w.warnings, '{}')
    from app_public.meteo_provinces pr
    left join lateral (
      select max(x.status) as status, array_agg(x.warning order by x.sort_order, x.id) as warnings
        from warnings x where x.province_uuid = pr.uuid
    ) w on true
    join app_public.meteo_levels l on l.status_code = coalesce(w.status, 0)
   order by pr.sort_order
$$;

-- A YYYY-MM-DD date as its Europe/Amsterdam day [start, end).
create function app_hidden.meteo_day_window(day text, out day_start timestamptz, out day_end timestamptz)
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  parsed date;
begin
  if day is null or day !~ '^\d{4}-\d{2}-\d{2}$' then
    raise exception 'date must be a day as YYYY-MM-DD (got "%").', left(day, 40) using errcode = 'XINPT';
  end if;
  begin
    parsed := day::date;
  exception when others then
    raise exception 'date must be a day as YYYY-MM-DD (got "%").', day using errcode = 'XINPT';
  end;
  if parsed < date '1990-01-01' or parsed > date '2999-12-31' then
    raise exception 'date must be between 1990-01-01 and 2999-12-31 (got "%").', day using errcode = 'XINPT';
  end if;
  day_start := parsed::timestamp at time zone 'Europe/Amsterdam';
  day_end := (parsed + 1)::timestamp at time zone 'Europe/Amsterdam';
end;
$$;

-- Past days do not change until a document covers hours near them, so each day's answer of
-- meteoSnapshot is kept, computed by the ingestion that changed it (a read computes only days
-- that no document came near).
create table app_hidden.meteo_day_snapshots (
  day date primary key,
  details app_public.meteo_region_detail[] not null,
  computed_at timestamptz not null default now()
);
alter table app_hidden.meteo_day_snapshots enable row level security;
create policy select_all on app_hidden.meteo_day_snapshots for select to app_visitor, app_analyst using (true);
grant select on app_hidden.meteo_day_snapshots to app_visitor, app_analyst;

create function app_hidden.meteo_refresh_day_snapshots(from_day date, to_day date) returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  insert into app_hidden.meteo_day_snapshots (day, details)
  select d.day, array(select x from app_hidden.meteo_details(d.day::timestamp at time zone 'Europe/Amsterdam',
                                                            (d.day + 1)::timestamp at time zone 'Europe/Amsterdam') x)
    from (select g::date as day from generate_series(from_day, to_day, interval '1 day') g) d
  on conflict (day) do update set details = excluded.details, computed_at = now()
$$;

--------------------------------------------------------------------------------------------------
-- The spec's queries

create function app_public.meteo_regions() returns setof app_public.meteo_region
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select pr.uuid, pr.code, pr.name, d.status_code, case when d.status_code is not null then d.status end
    from app_public.meteo_provinces pr
    left join app_hidden.meteo_details(now(), 'infinity') d on d.region_code = pr.code and app_hidden.meteo_has_data()
   order by pr.sort_order
$$;
comment on function app_public.meteo_regions() is
  E'@notNull\nThe 12 provinces with their current level: the highest of the warnings on now or announced (null before the first warnings document).';

create function app_public.meteo_region_details() returns setof app_public.meteo_region_detail
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select d.* from app_hidden.meteo_details(now(), 'infinity') d where app_hidden.meteo_has_data()
$$;
comment on function app_public.meteo_region_details() is
  E'@notNull\nThe 12 provinces with the warnings that are on now or announced (empty before the first warnings document).';

create function app_public.meteo_region_detail(code text) returns app_public.meteo_region_detail
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select d.* from app_hidden.meteo_details(now(), 'infinity') d
   where d.region_code = lower(btrim(meteo_region_detail.code)) and app_hidden.meteo_has_data()
$$;
comment on function app_public.meteo_region_detail(text) is
  'One province by code (lower-case slug such as noord-holland); null when unknown or before the first warnings document.';

-- The whole country: per phenomenon and hour the highest level of any province; a period's
-- description names the provinces it covers.
create function app_public.meteo_general() returns app_public.meteo_region_detail
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  with periods as (
    select p.phenomenon, p.status, p.period_from, p.period_to, pr.name, pr.sort_order
      from app_hidden.meteo_periods(now(), 'infinity') p join app_public.meteo_provinces pr on pr.uuid = p.province_uuid
  ), national_hours as (
    select p.phenomenon, h.hour, max(p.status) as status
      from periods p, generate_series(p.period_from, p.period_to - interval '1 hour', interval '1 hour') h(hour)
     group by p.phenomenon, h.hour
  ), runs as (
    select n.phenomenon, n.status, min(n.hour) as period_from, max(n.hour) + interval '1 hour' as period_to
      from (select n.*, n.hour - make_interval(hours => (row_number() over (partition by n.phenomenon, n.status order by n.hour))::integer) as run
              from national_hours n) n
     group by n.phenomenon, n.status, n.run
  ), warnings as (
    select ph.sort_order, ph.id, max(r.status) as status,
           row(ph.id, ph.label, array_agg(row(
             (select string_agg(x.name, ', ' order by x.sort_order) from (select distinct p.name, p.sort_order from periods p
               where p.phenomenon = r.phenomenon and p.status = r.status
                 and p.period_from < r.period_to and p.period_to > r.period_from) x),
             r.status, r.period_from, r.period_to)::app_public.meteo_warning_period order by r.period_from))::app_public.meteo_warning as warning
      from runs r join app_public.meteo_phenomena ph on ph.id = r.phenomenon
     group by ph.sort_order, ph.id, ph.label
  )
  select 'nl', 'Nederland', coalesce(max(w.status), 0)::integer,
         row((select l.label from app_public.meteo_levels l where l.status_code = coalesce(max(w.status), 0)))::app_public.meteo_status,
         coalesce(array_agg(w.warning order by w.sort_order, w.id) filter (where w.id is not null), '{}')
    from warnings w right join (select 1) one on true
  having app_hidden.meteo_has_data()
$$;
comment on function app_public.meteo_general() is
  'The national picture: per phenomenon the highest level of any province, each period naming its provinces; null before the first warnings document.';

create function app_public.meteo_snapshot(date text) returns setof app_public.meteo_region_detail
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  w record;
begin
  select * into w from app_hidden.meteo_day_window(meteo_snapshot.date);
  if not app_hidden.meteo_has_data() then
    return;
  end if;
  if now() >= w.day_start and now() < w.day_end then
    return query select * from app_hidden.meteo_details(now(), 'infinity');
  else
    return query select (unnest(c.details)).* from app_hidden.meteo_day_snapshots c where c.day = meteo_snapshot.date::date;
    if not found then
      return query select * from app_hidden.meteo_details(w.day_start, w.day_end);
    end if;
  end if;
end;
$$;
comment on function app_public.meteo_snapshot(text) is
  E'@notNull\nThe 12 provinces on a day (YYYY-MM-DD, Europe/Amsterdam): today live; another day as the history holds it, every warning period that overlapped the day, statusCode the highest level of the day.';

create function app_public.meteo_latest_observation(station_id text default null) returns app_public.meteo_observations
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select o.* from app_public.meteo_observations o
   where o.station_id = coalesce(btrim(meteo_latest_observation.station_id), '06260')
   order by o.observed_at desc limit 1
$$;
comment on function app_public.meteo_latest_observation(text) is
  'The latest observation of a station (WMO id; null = 06260 De Bilt); null when it has none.';

create function app_public.meteo_observation_history(station_id text, from_ts integer, to_ts integer, "limit" integer default 1000)
  returns setof app_public.meteo_observations
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if meteo_observation_history."limit" is not null and meteo_observation_history."limit" < 1 then
    raise exception 'Argument "limit" must be at least 1 (got %).', meteo_observation_history."limit" using errcode = 'XINPT';
  end if;
  if from_ts > to_ts then
    raise exception 'fromTs must not be after toTs.' using errcode = 'XINPT';
  end if;
  return query
    select o.* from app_public.meteo_observations o
     where o.station_id = btrim(meteo_observation_history.station_id)
       and o.observed_at between to_timestamp(from_ts) and to_timestamp(to_ts)
     order by o.observed_at
     limit least(coalesce(meteo_observation_history."limit", 1000), 10000);
end;
$$;
comment on function app_public.meteo_observation_history(text, integer, integer, integer) is
  E'@notNull\nObservations of a station from fromTs to toTs (Unix seconds, both included), oldest first; limit defaults to 1000 and is capped at 10000.';

create function app_public.meteo_stats_available_years() returns setof integer
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select distinct extract(year from d.day)::integer as year from app_hidden.meteo_daily_levels d order by year
$$;
comment on function app_public.meteo_stats_available_years() is E'@notNull\nYears (Europe/Amsterdam) with at least one day with a warning: the years meteoStatsMonthly has something for.';

create function app_public.meteo_stats_monthly(year integer, region_code text default null) returns setof app_public.meteo_monthly_stats
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  province uuid;
  today date := (now() at time zone 'Europe/Amsterdam')::date;
begin
  if year is null or year < 1990 or year > 2999 then
    raise exception 'year must be from 1990 to 2999 (got %).', year using errcode = 'XINPT';
  end if;
  if region_code is not null then
    select p.uuid into province from app_public.meteo_provinces p where p.code = lower(btrim(region_code));
    if province is null then
      raise exception 'regionCode must be a province code such as noord-holland (got "%").', left(region_code, 40) using errcode = 'XINPT';
    end if;
  end if;
  return query
    with days as (
      select d.day, max(d.status_code) as status_code
        from app_hidden.meteo_daily_levels d
       where d.day >= make_date(meteo_stats_monthly.year, 1, 1) and d.day < make_date(meteo_stats_monthly.year + 1, 1, 1)
         and d.day <= today and (province is null or d.province_uuid = province)
       group by d.day
    )
    select meteo_stats_monthly.year, m.month,
           count(*) filter (where d.status_code = 1)::integer, count(*) filter (where d.status_code = 2)::integer,
           count(*) filter (where d.status_code = 3)::integer, count(d.day)::integer
      from generate_series(1, 12) m(month)
      left join days d on extract(month from d.day) = m.month
     group by m.month order by m.month;
end;
$$;
comment on function app_public.meteo_stats_monthly(integer, text) is
  E'@notNull\nPer month of the year the whole days per warning level up to today (a day counts as its highest level, Europe/Amsterdam); regionCode null = all provinces combined.';

create function app_public.meteo_color_codes() returns setof app_public.monitor_reference_item
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(l.value, l.label, l.description, l.color)::app_public.monitor_reference_item
    from app_public.meteo_levels l where l.status_code > 0 order by l.status_code
$$;
comment on function app_public.meteo_color_codes() is E'@notNull\nThe warning levels a meteo_weather monitor''s query.levels takes.';

create function app_public.meteo_warning_events_region_code(e app_public.meteo_warning_events) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select p.code from app_public.meteo_provinces p where p.uuid = e.province_uuid
$$;
comment on function app_public.meteo_warning_events_region_code(app_public.meteo_warning_events) is 'The province''s code (MeteoRegion.code).';
create function app_public.meteo_warning_events_region_name(e app_public.meteo_warning_events) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select p.name from app_public.meteo_provinces p where p.uuid = e.province_uuid
$$;
comment on function app_public.meteo_warning_events_region_name(app_public.meteo_warning_events) is 'The province''s name.';

--------------------------------------------------------------------------------------------------
-- Ingestion

-- One warnings document (its parsed slices as JSON: [{location, phenomenon, start, status, text}])
-- in one transaction. The newest document replaces the history for the hours it covers and
-- records an event for each province whose level or phenomena changed; an older one (a backfill)
-- only fills the hours before the newest document. Returns what it did as JSON.
create function app_private.ingest_meteo_warnings(slices jsonb, sha256 bytea, source text) returns jsonb
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  doc uuid;
  first_hour timestamptz;
  last_hour timestamptz;
  newest_before timestamptz;
  next_newer timestamptz;
  issue_hour timestamptz; -- first_hour, under a name no column has
  is_newest boolean;
  write_until timestamptz;
  stored integer;
  ignored integer;
  events integer := 0;
begin
  -- One warnings document at a time (the poller, the CLI and the demo load may meet): each is
  -- compared with the ones stored before it.
  perform pg_advisory_xact_lock(hashtext('meteo_warnings'));
  if exists (select 1 from app_hidden.meteo_documents d where d.kind = 'warnings' and d.sha256 = ingest_meteo_warnings.sha256) then
    return jsonb_build_object('duplicate', true);
  end if;
  select min((s->>'start')::timestamptz), max((s->>'start')::timestamptz) into first_hour, last_hour
    from jsonb_array_elements(slices) s;
  if first_hour is null then
    raise exception 'The warnings document has no time slices.' using errcode = 'XINPT';
  end if;
  first_hour := date_trunc('hour', first_hour);
  last_hour := date_trunc('hour', last_hour);
  select max(d.first_hour) into newest_before from app_hidden.meteo_documents d where d.kind = 'warnings';
  is_newest := newest_before is null or first_hour >= newest_before;
  -- Each hour holds the latest document that covers it: an older document (a backfill) writes
  -- only the hours before the next newer document begins.
  issue_hour := first_hour;
  select min(d.first_hour) into next_newer from app_hidden.meteo_documents d
   where d.kind = 'warnings' and d.first_hour > issue_hour;
  write_until := case when next_newer is null then last_hour else least(last_hour, next_newer - interval '1 hour') end;

  insert into app_hidden.meteo_documents (kind, sha256, source, first_hour, last_hour, records, skipped)
  values ('warnings', ingest_meteo_warnings.sha256, left(ingest_meteo_warnings.source, 500), first_hour, last_hour,
          jsonb_array_length(slices), 0)
  returning uuid into doc;

  insert into app_public.meteo_phenomena (id, label)
  select distinct s->>'phenomenon', s->>'phenomenon' from jsonb_array_elements(slices) s
   where (s->>'phenomenon') ~ '^[a-z][a-z0-9_-]*$' and length(s->>'phenomenon') <= 40
  on conflict do nothing;

  drop table if exists pg_temp.incoming;
  create temporary table pg_temp.incoming on commit drop as
    select p.uuid as province_uuid, date_trunc('hour', (s->>'start')::timestamptz) as hour, s->>'phenomenon' as phenomenon,
           (s->>'status')::smallint as status, left(nullif(btrim(s->>'text'), ''), 4000) as description
      from jsonb_array_elements(slices) s
      join app_public.meteo_provinces p on p.knmi_code = upper(btrim(s->>'location'))
     where (s->>'phenomenon') ~ '^[a-z][a-z0-9_-]*$' and length(s->>'phenomenon') <= 40
       and date_trunc('hour', (s->>'start')::timestamptz) <= write_until;
  select jsonb_array_length(slices) - count(*) into ignored from pg_temp.incoming;

  delete from app_public.meteo_warning_slices s
   where s.hour between first_hour and write_until
     and s.province_uuid in (select distinct i.province_uuid from pg_temp.incoming i);
  insert into app_public.meteo_warning_slices (province_uuid, hour, phenomenon, status, description, document_uuid)
  select i.province_uuid, i.hour, i.phenomenon, max(i.status), (array_agg(i.description order by i.status desc))[1], doc
    from pg_temp.incoming i where i.status between 1 and 3
   group by i.province_uuid, i.hour, i.phenomenon;
  get diagnostics stored = row_count;

  -- The daily roll-up of every Europe/Amsterdam day the written hours touch.
  delete from app_hidden.meteo_daily_levels d
   where d.day between (first_hour at time zone 'Europe/Amsterdam')::date and (write_until at time zone 'Europe/Amsterdam')::date
     and d.province_uuid in (select distinct i.province_uuid from pg_temp.incoming i);
  insert into app_hidden.meteo_daily_levels (province_uuid, day, status_code)
  select s.province_uuid, (s.hour at time zone 'Europe/Amsterdam')::date, max(s.status)
    from app_public.meteo_warning_slices s
   where s.hour >= ((first_hour at time zone 'Europe/Amsterdam')::date)::timestamp at time zone 'Europe/Amsterdam'
     and s.hour < (((write_until at time zone 'Europe/Amsterdam')::date + 1)::timestamp at time zone 'Europe/Amsterdam')
     and s.province_uuid in (select distinct i.province_uuid from pg_temp.incoming i)
   group by 1, 2
  on conflict (province_uuid, day) do update set status_code = excluded.status_code;
  -- A day's periods are found in its hours and three days around them (app_hidden.meteo_periods).
  perform app_hidden.meteo_refresh_day_snapshots((first_hour at time zone 'Europe/Amsterdam')::date - 4,
                                                 (write_until at time zone 'Europe/Amsterdam')::date + 4);

  if is_newest then
    -- The newest document: each province's warnings as it announces them, against the last state.
    with announced as (
      select p.uuid as province_uuid,
             coalesce(max(i.status) filter (where i.status > 0), 0)::integer as status_code,
             coalesce(array_agg(distinct i.phenomenon order by i.phenomenon) filter (where i.status > 0), '{}') as phenomena,
             min(i.hour) filter (where i.status > 0) as period_from,
             max(i.hour) filter (where i.status > 0) + interval '1 hour' as period_to
        from app_public.meteo_provinces p join pg_temp.incoming i on i.province_uuid = p.uuid
       group by p.uuid
    ), changed as (
      insert into app_public.meteo_warning_events (province_uuid, status_code, previous_status_code,
                                                   phenomena, previous_phenomena, period_from, period_to, issued_at, document_uuid)
      select a.province_uuid, a.status_code, coalesce(st.status_code, 0), a.phenomena, coalesce(st.phenomena, '{}'),
             a.period_from, a.period_to, first_hour, doc
        from announced a left join app_hidden.meteo_region_states st on st.province_uuid = a.province_uuid
       where a.status_code <> coalesce(st.status_code, 0) or a.phenomena <> coalesce(st.phenomena, '{}')
      returning 1
    ), saved as (
      insert into app_hidden.meteo_region_states (province_uuid, status_code, phenomena, period_from, period_to, document_uuid)
      select a.province_uuid, a.status_code, a.phenomena, a.period_from, a.period_to, doc from announced a
      on conflict (province_uuid) do update set status_code = excluded.status_code, phenomena = excluded.phenomena,
        period_from = excluded.period_from, period_to = excluded.period_to, document_uuid = excluded.document_uuid
      returning 1
    )
    select (select count(*) from changed) into events;
  end if;

  return jsonb_build_object('duplicate', false, 'document', doc, 'slices', jsonb_array_length(slices), 'warnings', stored,
    'ignoredLocations', ignored, 'events', events, 'backfill', not is_newest);
end;
$$;

-- One observations document (parsed rows as JSON, keys as the table's columns) in one
-- transaction: stations upserted, observations inserted or, when a value changed, updated.
create function app_private.ingest_meteo_observations(rows jsonb, sha256 bytea, source text) returns jsonb
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  doc uuid;
  changed integer;
begin
  perform pg_advisory_xact_lock(hashtext('meteo_observations'));
  if exists (select 1 from app_hidden.meteo_documents d where d.kind = 'observations' and d.sha256 = ingest_meteo_observations.sha256) then
    return jsonb_build_object('duplicate', true);
  end if;
  insert into app_hidden.meteo_documents (kind, sha256, source, first_hour, last_hour, records, skipped)
  select 'observations', ingest_meteo_observations.sha256, left(ingest_meteo_observations.source, 500),
         min((r->>'observed_at')::timestamptz), max((r->>'observed_at')::timestamptz), count(*), 0
    from jsonb_array_elements(rows) r
  returning uuid into doc;

  insert into app_public.meteo_stations (station_id, name, latitude, longitude)
  select distinct on (r->>'station_id') r->>'station_id', r->>'name', (r->>'latitude')::float8, (r->>'longitude')::float8
    from jsonb_array_elements(rows) r order by r->>'station_id', (r->>'observed_at')::timestamptz desc
  on conflict (station_id) do update set
    name = coalesce(excluded.name, meteo_stations.name),
    latitude = coalesce(excluded.latitude, meteo_stations.latitude),
    longitude = coalesce(excluded.longitude, meteo_stations.longitude)
  where (excluded.name, excluded.latitude, excluded.longitude) is distinct from (meteo_stations.name, meteo_stations.latitude, meteo_stations.longitude)
    and excluded.name is not null;

  insert into app_public.meteo_observations
  select distinct on (o.station_id, o.observed_at) o.*
    from jsonb_populate_recordset(null::app_public.meteo_observations, rows) o
   order by o.station_id, o.observed_at
  on conflict (station_id, observed_at) do update set
    temperature = excluded.temperature, dew_point = excluded.dew_point, humidity = excluded.humidity,
    pressure = excluded.pressure, wind_direction = excluded.wind_direction, wind_speed = excluded.wind_speed,
    wind_gust = excluded.wind_gust, visibility = excluded.visibility, precipitation = excluded.precipitation,
    radiation = excluded.radiation, cloud_cover = excluded.cloud_cover, sunshine = excluded.sunshine,
    weather_code = excluded.weather_code
  where (excluded.*) is distinct from (meteo_observations.*);
  get diagnostics changed = row_count;
  return jsonb_build_object('duplicate', false, 'document', doc, 'observations', jsonb_array_length(rows), 'stored', changed);
end;
$$;

--------------------------------------------------------------------------------------------------
-- meteo_weather monitors on the shared mechanism

-- query.regions takes MeteoRegion.code values, query.levels meteoColorCodes values.
update app_hidden.monitor_query_fields
   set kind = 'choices', choices = array['groningen', 'friesland', 'drenthe', 'noord-holland', 'flevoland', 'overijssel',
     'gelderland', 'utrecht', 'zuid-holland', 'zeeland', 'noord-brabant', 'limburg'],
       description = 'Province codes (MeteoRegion.code, e.g. noord-holland); none = every province.'
 where monitor_type = 'meteo_weather' and field = 'regions';
update app_hidden.monitor_query_fields set description = 'Warning levels to notify of (meteoColorCodes values); none = every level.'
 where monitor_type = 'meteo_weather' and field = 'levels';

-- Monitors saved before this migration may name provinces by the feed's location ids (NH); one
-- naming something else is switched off rather than left to match every province.
update app_public.monitors m
   set query = jsonb_set(m.query, '{regions}', (
     select coalesce(jsonb_agg(coalesce(p.code, lower(r.value)) order by r.ordinality), '[]')
       from jsonb_array_elements_text(m.query->'regions') with ordinality r(value, ordinality)
       left join app_public.meteo_provinces p on p.knmi_code = upper(r.value)))
 where m.type = 'meteo_weather' and jsonb_typeof(m.query->'regions') = 'array';

update app_public.monitors m set active = false
 where m.type = 'meteo_weather' and jsonb_typeof(m.query->'regions') = 'array'
   and exists (select 1 from jsonb_array_elements_text(m.query->'regions') r(value)
                where r.value not in (select p.code from app_public.meteo_provinces p));

create table app_hidden.meteo_monitor_criteria (
  monitor_uuid uuid primary key references app_public.monitors on delete cascade,
  province_uuids uuid[] not null,
  status_codes integer[] not null
);
alter table app_hidden.meteo_monitor_criteria enable row level security;

create function app_hidden.tg_monitors__meteo_criteria() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.meteo_monitor_criteria c where c.monitor_uuid = new.uuid;
  if new.type = 'meteo_weather' and new.active then
    insert into app_hidden.meteo_monitor_criteria (monitor_uuid, province_uuids, status_codes)
    values (new.uuid,
            array(select p.uuid from app_public.meteo_provinces p
                   where p.code = any (array(select lower(x) from jsonb_array_elements_text(coalesce(new.query->'regions', '[]')) x))),
            array(select l.status_code from app_public.meteo_levels l
                   where l.value = any (array(select lower(x) from jsonb_array_elements_text(coalesce(new.query->'levels', '[]')) x))));
  end if;
  return null;
end;
$$;
create trigger _500_meteo_criteria after insert or update on app_public.monitors
  for each row execute function app_hidden.tg_monitors__meteo_criteria();
insert into app_hidden.meteo_monitor_criteria (monitor_uuid, province_uuids, status_codes)
select m.uuid,
       array(select p.uuid from app_public.meteo_provinces p
              where p.code = any (array(select lower(x) from jsonb_array_elements_text(coalesce(m.query->'regions', '[]')) x))),
       array(select l.status_code from app_public.meteo_levels l
              where l.value = any (array(select lower(x) from jsonb_array_elements_text(coalesce(m.query->'levels', '[]')) x)))
  from app_public.monitors m where m.type = 'meteo_weather' and m.active;

-- The matches of every feed's monitors (weather, traffic, …), one table whatever the feed: a
-- monitor matched an event of that kind (with the reason when a rule held it back). Events are
-- never deleted, so there is no foreign key per feed.
create table app_hidden.feed_monitor_matches (
  monitor_uuid uuid not null references app_public.monitors on delete cascade,
  event_kind text not null,
  event_uuid uuid not null,
  matched_at timestamptz not null default now(),
  suppressed_reason text,
  primary key (monitor_uuid, event_kind, event_uuid)
);
create index feed_monitor_matches_monitor_idx on app_hidden.feed_monitor_matches (monitor_uuid, matched_at desc);
alter table app_hidden.feed_monitor_matches enable row level security;
create policy select_current_environment on app_hidden.feed_monitor_matches for select to app_visitor
  using (monitor_uuid in (select app_hidden.current_environment_monitor_uuids()));
grant select on app_hidden.feed_monitor_matches to app_visitor;

-- A notification tells of a P2000 message, or of a feed's event with the subject its matcher
-- rendered (headline, fact lines, webhook event and payload): delivery needs no code per feed.
alter table app_private.notifications alter column message_uuid drop not null;
alter table app_private.notifications add column event_kind text, add column event_uuid uuid, add column headline text,
  add column facts text[], add column event_type text, add column payload jsonb;
alter table app_private.notifications add constraint notifications_one_subject
  check ((message_uuid is null) <> (event_uuid is null) and (event_uuid is null) = (event_kind is null));
create unique index notifications_event_idx on app_private.notifications (event_kind, event_uuid, monitor_uuid, channel_uuid)
  where event_uuid is not null;
create type app_hidden.notification_subject as (headline text, facts text[], event_type text, payload jsonb);

-- The notification rules every kind of monitor shares (quiet hours, maxPerPeriod), as helpers.
create function app_hidden.in_quiet_hours(rules jsonb) returns boolean
  language plpgsql stable
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  local_time time := (now() at time zone 'Europe/Amsterdam')::time;
  quiet_from time := (rules->'quietHours'->>'from')::time;
  quiet_to time := (rules->'quietHours'->>'to')::time;
begin
  return rules ? 'quietHours' and (
    (quiet_from <= quiet_to and local_time >= quiet_from and local_time < quiet_to)
    or (quiet_from > quiet_to and (local_time >= quiet_from or local_time < quiet_to)));
end;
$$;
create function app_hidden.exceeds_max_per_period(rules jsonb, recent_notified bigint) returns boolean
  language sql immutable
  set search_path to pg_catalog, public, pg_temp
as $$
  select rules ? 'maxPerPeriod' and recent_notified >= (rules->'maxPerPeriod'->>'count')::integer
$$;

-- One notifications__deliver job per new notification, keyed by it, so a notification is queued
-- once whatever retries the matcher. The P2000 matcher of migration 000005 predates it and queues
-- the same jobs itself. PL/pgSQL, because graphile-worker's schema is installed after the
-- migrations on a new database, and a SQL function's body would be checked against it at once.
create function app_private.queue_deliveries(notification_uuids uuid[]) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  return (select count(*)::integer from graphile_worker.add_jobs(array(
    select row('notifications__deliver', json_build_object('uuid', u), null, null, 6, 'notification:' || u, null, null)::graphile_worker.job_spec
      from unnest(notification_uuids) u)));
end;
$$;

-- What every feed's matcher does once it knows which monitors an event matches: record the
-- matches, apply quietHours and maxPerPeriod (minUrgency and maxPerDossier are P2000's), and
-- queue one delivery per monitor and channel with the rendered subject, in the caller's
-- transaction; an event matched before adds nothing. Returns how many deliveries it queued.
create function app_private.notify_feed_event(kind text, event_uuid uuid, monitor_uuids uuid[], subject app_hidden.notification_subject)
  returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  queued integer;
begin
  if cardinality(monitor_uuids) = 0 then
    return 0;
  end if;
  -- maxPerPeriod counts earlier matches: one matcher per such monitor at a time.
  perform pg_advisory_xact_lock(hashtext('monitor:' || mo.uuid))
     from app_public.monitors mo where mo.uuid = any (monitor_uuids) and mo.notification_rules <> '{}' order by mo.uuid;
  with new_matches as (
    insert into app_hidden.feed_monitor_matches (monitor_uuid, event_kind, event_uuid, suppressed_reason)
    select mo.uuid, kind, notify_feed_event.event_uuid,
           case when app_hidden.in_quiet_hours(mo.notification_rules) then 'quiet_hours'
                when app_hidden.exceeds_max_per_period(mo.notification_rules, (select count(*) from app_hidden.feed_monitor_matches x
                       where x.monitor_uuid = mo.uuid and x.suppressed_reason is null
                         and x.matched_at > now() - make_interval(mins => (mo.notification_rules->'maxPerPeriod'->>'minutes')::integer)))
                  then 'max_per_period' end
      from app_public.monitors mo where mo.uuid = any (monitor_uuids)
    on conflict do nothing
    returning monitor_uuid, suppressed_reason
  ), new_notifications as (
    insert into app_private.notifications (monitor_uuid, channel_uuid, event_kind, event_uuid, headline, facts, event_type, payload)
    select nm.monitor_uuid, mc.channel_uuid, kind, notify_feed_event.event_uuid,
           subject.headline, subject.facts, subject.event_type, subject.payload
      from new_matches nm join app_hidden.monitor_channels mc on mc.monitor_uuid = nm.monitor_uuid
     where nm.suppressed_reason is null
    on conflict do nothing
    returning uuid
  )
  select app_private.queue_deliveries(array(select n.uuid from new_notifications n)) into queued;
  return queued;
end;
$$;

-- P2000's rules through the same helpers, so quiet hours and maxPerPeriod have one definition.
create or replace function app_hidden.monitor_suppression(mo app_public.monitors, m app_public.p2000_messages) returns text
  language plpgsql stable
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  rules jsonb := mo.notification_rules;
begin
  if app_hidden.in_quiet_hours(rules) then
    return 'quiet_hours';
  end if;
  if rules ? 'minUrgency' and coalesce((select u.rank from app_public.p2000_urgencies u where u.uuid = m.urgency_uuid), 999)
       > (select u.rank from app_public.p2000_urgencies u where u.code = rules->>'minUrgency') then
    return 'min_urgency';
  end if;
  if rules ? 'maxPerDossier' and m.dossier_uuid is not null and (select count(*) from app_hidden.monitor_matches x
       where x.monitor_uuid = mo.uuid and x.dossier_uuid = m.dossier_uuid and x.suppressed_reason is null)
       >= (rules->>'maxPerDossier')::integer then
    return 'max_per_dossier';
  end if;
  if app_hidden.exceeds_max_per_period(rules, (select count(*) from app_hidden.monitor_matches x
       where x.monitor_uuid = mo.uuid and x.suppressed_reason is null
         and x.matched_at > now() - make_interval(mins => (rules->'maxPerPeriod'->>'minutes')::integer))) then
    return 'max_per_period';
  end if;
  return null;
end;
$$;

-- What a weather notification says: headline, facts, and the webhook's warning object.
create function app_hidden.meteo_notification_subject(e app_public.meteo_warning_events) returns app_hidden.notification_subject
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(
    format('%s: %s voor %s (%s)', l.label, p.name, coalesce(ph.labels, 'weer'), ph.ids),
    array[
      format('Level: %s (was %s)', e.level, e.previous_level),
      format('Phenomena: %s', coalesce(ph.labels, '-')),
      format('Period: %s to %s (Europe/Amsterdam)',
             to_char(e.period_from at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI'),
             to_char(e.period_to at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI'))],
    'meteo.warning.changed',
    jsonb_build_object('warning', jsonb_build_object(
      'uuid', e.uuid, 'regionCode', p.code, 'regionName', p.name, 'level', e.level, 'statusCode', e.status_code,
      'previousLevel', e.previous_level, 'phenomena', to_jsonb(e.phenomena), 'periodFrom', e.period_from,
      'periodTo', e.period_to, 'issuedAt', e.issued_at)))::app_hidden.notification_subject
    from app_public.meteo_provinces p
    join app_public.meteo_levels l on l.status_code = e.status_code
    left join lateral (
      select string_agg(x.label, ', ' order by x.sort_order) as labels, string_agg(x.id, ', ' order by x.sort_order) as ids
        from app_public.meteo_phenomena x where x.id = any (e.phenomena)
    ) ph on true
   where p.uuid = e.province_uuid
$$;

-- The matcher of meteo_weather monitors (task monitors__match_meteo): a warning event matches a
-- monitor of its province (or of every province) whose levels include the new level; the rest
-- is app_private.notify_feed_event. A second run queues nothing.
create function app_private.match_meteo_event(event_uuid uuid) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  e app_public.meteo_warning_events;
begin
  select * into e from app_public.meteo_warning_events x where x.uuid = match_meteo_event.event_uuid;
  -- News is a level that changed or a phenomenon added; warnings that end, or a phenomenon that
  -- ends while the level stays, notify nobody.
  if e.uuid is null or e.status_code = 0 or (e.status_code = e.previous_status_code and e.phenomena <@ e.previous_phenomena) then
    return 0;
  end if;
  return app_private.notify_feed_event('meteo', e.uuid, array(
    select c.monitor_uuid from app_hidden.meteo_monitor_criteria c
     where (cardinality(c.province_uuids) = 0 or e.province_uuid = any (c.province_uuids))
       and (cardinality(c.status_codes) = 0 or e.status_code = any (c.status_codes))
     order by c.monitor_uuid), app_hidden.meteo_notification_subject(e));
end;
$$;

-- New events queue one matching job per statement. Only warnings still running or ahead notify:
-- a backfill of history announces nothing.
create function app_hidden.tg_meteo_warning_events__queue_matching() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  live uuid[];
begin
  live := array(select n.uuid from new_events n where n.status_code > 0 and n.period_to > now() order by n.uuid);
  if cardinality(live) > 0 then
    perform graphile_worker.add_job('monitors__match_meteo', json_build_object('eventUuids', live), max_attempts := 10);
  end if;
  return null;
end;
$$;
create trigger _600_queue_matching after insert on app_public.meteo_warning_events
  referencing new table as new_events
  for each statement execute function app_hidden.tg_meteo_warning_events__queue_matching();

create function app_public.meteo_warning_events_for_monitor(monitor app_public.monitor_ref, first integer default null, page integer default null)
  returns setof app_public.meteo_warning_events
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  wanted uuid := app_hidden.try_uuid((meteo_warning_events_for_monitor.monitor).uuid);
begin
  if wanted is null or wanted not in (select app_hidden.current_environment_monitor_uuids()) then
    raise exception 'Monitor not found in this environment.' using errcode = 'XNOTF';
  end if;
  return query
    select e.* from app_hidden.feed_monitor_matches mm join app_public.meteo_warning_events e on e.uuid = mm.event_uuid
     where mm.monitor_uuid = wanted and mm.event_kind = 'meteo'
     order by mm.matched_at desc, e.uuid
     limit app_hidden.page_limit(first, 200) offset app_hidden.page_offset(first, page, 200);
end;
$$;
comment on function app_public.meteo_warning_events_for_monitor(app_public.monitor_ref, integer, integer) is
  E'@notNull\nThe warning events that matched a meteo_weather monitor of the caller''s environment, newest first.';

-- What a delivery needs of its notification: the channel, the monitor, and the subject. P2000
-- messages keep their columns; every feed's event comes as the headline, fact lines and webhook
-- payload its matcher rendered, so the sender needs no code per kind.
create function app_private.notification_for_delivery(notification_uuid uuid)
  returns table (notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text,
    url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text, message_uuid uuid,
    message text, sended timestamptz, urgency text, discipline text, region text, city text, street text, postcode text,
    latitude double precision, longitude double precision, dossier_uuid uuid, respond_token text,
    kind text, headline text, facts text[], event_type text, payload jsonb)
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select n.uuid, c.type, c.name, c.email_address, c.phone_number, c.url,
         coalesce((select jsonb_agg(jsonb_build_object('name', h.name, 'value', h.value)) from unnest(c.headers) h), '[]'),
         c.chat_id, s.signing_secret, mo.uuid, mo.name, m.uuid, m.message, m.sended, u.code, d.name, g.name,
         m.city, m.street, m.postcode, m.latitude, m.longitude, m.dossier_uuid,
         case when m.uuid is not null then app_private.responder_token(n.uuid) end,
         coalesce(n.event_kind, 'p2000'), n.headline, n.facts, n.event_type, n.payload
    from app_private.notifications n
    join app_public.channels c on c.uuid = n.channel_uuid
    join app_public.monitors mo on mo.uuid = n.monitor_uuid
    left join app_public.p2000_messages m on m.uuid = n.message_uuid
    left join app_private.channel_secrets s on s.channel_uuid = c.uuid
    left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
    left join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
    left join app_public.p2000_regions g on g.uuid = m.region_uuid
   where n.uuid = notification_for_delivery.notification_uuid and n.status = 'queued'
$$;
