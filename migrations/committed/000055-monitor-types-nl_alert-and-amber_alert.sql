--! Previous: sha1:6d8a65dcedad837281dcd7a167ed7ba2d8b61a40
--! Hash: sha1:136f5859fd5cfebf14be0cf4c1f0ba8f24a3f71a
--! Message: Monitor types nl_alert and amber_alert

-- Monitor types nl_alert and amber_alert (issue 29): an NL-Alert whose areas meet a monitor's
-- circle (or cover its point) or cover one of its safety regions; an AMBER or missing-child alert
-- nationwide or in chosen provinces, and its end. Both on the shared mechanism: a criteria table
-- kept by trigger, triggers on the alert tables that queue monitors__match_feed for live alerts
-- only, and matchers that hand their monitors to app_private.notify_feed_event.

insert into app_public.monitor_types (name, description) values
  ('nl_alert', 'NL-Alerts whose area meets a circle or covers a point, or covers chosen safety regions.'),
  ('amber_alert', 'AMBER Alerts and missing-child alerts, nationwide or in chosen provinces, and their end.')
on conflict (name) do update set description = excluded.description;

insert into app_hidden.monitor_query_fields (monitor_type, field, kind, required, choices, description) values
  ('nl_alert', 'regions', 'regions', false, null,
   'Safety regions by number (13) or slug (p2000Regions): the alerts whose areas cover part of one. With a location, the alerts that meet the circle (or cover the point) too; neither = every NL-Alert.'),
  ('amber_alert', 'provinces', 'choices', false, array['groningen', 'friesland', 'drenthe', 'noord-holland', 'flevoland',
     'overijssel', 'gelderland', 'utrecht', 'zuid-holland', 'zeeland', 'noord-brabant', 'limburg'],
   'Province codes (nlProvinces code, e.g. overijssel): missing-child alerts that name a place of one; an AMBER Alert (national) reaches every province; none = nationwide.'),
  ('amber_alert', 'kinds', 'choices', false, array['amber', 'missing_child'],
   'amber (AMBER Alert, level 10) and/or missing_child (Vermist Kind Alert, level 5); none = both.')
on conflict (monitor_type, field) do update set kind = excluded.kind, required = excluded.required, choices = excluded.choices,
  description = excluded.description;

--------------------------------------------------------------------------------------------------
-- Geometry: a monitor's circle as a polygon in longitude/latitude, as NL-Alert areas are stored.

create or replace function app_hidden.circle_polygon(latitude double precision, longitude double precision, radius_km double precision)
  returns polygon language sql immutable parallel safe strict
  set search_path to pg_catalog, public, pg_temp
as $$
  -- 32 corners on a circle 1/cos(pi/32) wider, so the polygon holds the whole circle (it reaches
  -- at most 0.5 % beyond it); a degree of latitude is 111.195 km (app_hidden.distance_km's earth),
  -- a degree of longitude that times the cosine of the latitude.
  select ('(' || string_agg(format('(%s,%s)',
             longitude + radius_km / cos(pi() / 32) / (111.19508 * cos(radians(latitude))) * cos(2 * pi() * i / 32),
             latitude + radius_km / cos(pi() / 32) / 111.19508 * sin(2 * pi() * i / 32)), ',' order by i) || ')')::polygon
    from generate_series(0, 31) i
$$;
comment on function app_hidden.circle_polygon(latitude double precision, longitude double precision, radius_km double precision) is
  'A circle of radius_km around a WGS84 point as a polygon in longitude/latitude (as nl_alerts.areas and safety_region_areas are stored): 32 corners, holding the whole circle and reaching at most 0.5 % beyond it, so && against an NL-Alert''s area tells whether they meet.';

--------------------------------------------------------------------------------------------------
-- nl_alert monitors

create table if not exists app_hidden.nl_alert_monitor_criteria (
  monitor_uuid uuid primary key references app_public.monitors on delete cascade,
  region_numbers text[] not null,
  area polygon,
  point point,
  everywhere boolean not null
);
alter table app_hidden.nl_alert_monitor_criteria enable row level security;
create index if not exists nl_alert_monitor_criteria_regions_idx on app_hidden.nl_alert_monitor_criteria using gin (region_numbers);
create index if not exists nl_alert_monitor_criteria_area_idx on app_hidden.nl_alert_monitor_criteria using gist (area);
create index if not exists nl_alert_monitor_criteria_point_idx on app_hidden.nl_alert_monitor_criteria using gist (point);
create index if not exists nl_alert_monitor_criteria_everywhere_idx on app_hidden.nl_alert_monitor_criteria (monitor_uuid) where everywhere;
comment on table app_hidden.nl_alert_monitor_criteria is
  'Active nl_alert monitors in matchable form: their safety region numbers, their circle as a polygon (area, with a radius) or their point (a location without one), and everywhere when they have neither. A trigger on monitors keeps it (app_hidden.nl_alert_criteria_of); app_private.match_nl_alert finds an alert''s monitors through its indexes.';

create or replace function app_hidden.nl_alert_criteria_of(mo app_public.monitors)
  returns app_hidden.nl_alert_monitor_criteria language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(mo.uuid,
             array(select distinct x from jsonb_array_elements_text(coalesce(mo.query->'regions', '[]')) x order by 1),
             case when mo.radius is not null then app_hidden.circle_polygon(mo.latitude, mo.longitude, mo.radius) end,
             case when mo.radius is null and mo.latitude is not null then point(mo.longitude, mo.latitude) end,
             mo.latitude is null and jsonb_array_length(coalesce(mo.query->'regions', '[]')) = 0)::app_hidden.nl_alert_monitor_criteria
$$;
comment on function app_hidden.nl_alert_criteria_of(mo app_public.monitors) is
  'An nl_alert monitor''s criteria as its query and location state them (regions are already region numbers, validate_monitor_query normalises them). It is one definition for the trigger and the backfill.';

--------------------------------------------------------------------------------------------------
-- amber_alert monitors, and the provinces of an alert

create table if not exists app_hidden.amber_alert_monitor_criteria (
  monitor_uuid uuid primary key references app_public.monitors on delete cascade,
  province_codes text[] not null,
  kinds text[] not null
);
alter table app_hidden.amber_alert_monitor_criteria enable row level security;
comment on table app_hidden.amber_alert_monitor_criteria is
  'Active amber_alert monitors in matchable form: their province codes and alert kinds, where an empty list means every one. A trigger on monitors keeps it; AMBER alerts are a few a year, so the matchers read it whole.';

create or replace function app_hidden.amber_alert_criteria_of(mo app_public.monitors)
  returns app_hidden.amber_alert_monitor_criteria language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(mo.uuid,
             array(select distinct lower(x) from jsonb_array_elements_text(coalesce(mo.query->'provinces', '[]')) x order by 1),
             array(select distinct lower(x) from jsonb_array_elements_text(coalesce(mo.query->'kinds', '[]')) x order by 1)
            )::app_hidden.amber_alert_monitor_criteria
$$;
comment on function app_hidden.amber_alert_criteria_of(mo app_public.monitors) is
  'An amber_alert monitor''s criteria as its query states them (province codes and kinds, lower case). It is one definition for the trigger and the backfill.';

create or replace function app_hidden.tg_monitors__alert_criteria() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.nl_alert_monitor_criteria c where c.monitor_uuid = new.uuid;
  delete from app_hidden.amber_alert_monitor_criteria c where c.monitor_uuid = new.uuid;
  if new.active and new.type = 'nl_alert' then
    insert into app_hidden.nl_alert_monitor_criteria select (app_hidden.nl_alert_criteria_of(new)).*;
  elsif new.active and new.type = 'amber_alert' then
    insert into app_hidden.amber_alert_monitor_criteria select (app_hidden.amber_alert_criteria_of(new)).*;
  end if;
  return null;
end;
$$;
comment on function app_hidden.tg_monitors__alert_criteria() is
  'Trigger: keeps the monitor''s row in nl_alert_monitor_criteria or amber_alert_monitor_criteria while it is an active nl_alert or amber_alert monitor (a new location included), and removes it otherwise.';
drop trigger if exists _500_alert_criteria on app_public.monitors;
create trigger _500_alert_criteria after insert or update on app_public.monitors
  for each row execute function app_hidden.tg_monitors__alert_criteria();
insert into app_hidden.nl_alert_monitor_criteria
select (app_hidden.nl_alert_criteria_of(m)).* from app_public.monitors m where m.type = 'nl_alert' and m.active
on conflict do nothing;
insert into app_hidden.amber_alert_monitor_criteria
select (app_hidden.amber_alert_criteria_of(m)).* from app_public.monitors m where m.type = 'amber_alert' and m.active
on conflict do nothing;

-- The feed names no place but in its texts: a missing-child alert is in the provinces whose name,
-- or the name of one of whose municipalities, its title or description holds as whole words.
alter table app_public.amber_alerts add column if not exists province_codes text[] not null default '{}';
comment on column app_public.amber_alerts.province_codes is
  'The provinces (nl_provinces.code) whose name, or one of whose municipalities'' name, the alert''s title or description holds (app_hidden.amber_alert_province_codes), found while the alert runs and kept after it ends: amber_alert monitors with provinces match by them.';

create or replace function app_hidden.amber_alert_province_codes(title text, description text)
  returns text[] language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  with words as (
    select ' ' || regexp_replace(coalesce(title, '') || ' ' || coalesce(description, ''), '[^[:alnum:]''-]+', ' ', 'g') || ' ' as text
  )
  select coalesce(array_agg(distinct p.code order by p.code), '{}')
    from words w, app_public.nl_provinces p
   where exists (select 1 from unnest(array[p.name] || case p.code when 'friesland' then array['Fryslân'] else '{}' end) n
                  where strpos(lower(w.text), ' ' || lower(n) || ' ') > 0)
      or exists (select 1 from app_public.places pl
                  where pl.province_code = substr(p.iso_code, 4) and pl.municipality is not null
                    and strpos(w.text, ' ' || pl.municipality || ' ') > 0)
$$;
comment on function app_hidden.amber_alert_province_codes(title text, description text) is
  'The provinces an AMBER alert''s texts name: a province''s name (any case; Friesland also as Fryslân) or one of its municipalities'' (as written, capitalised, so a common word is no place; places.province_code is the ISO code''s tail) as whole words. The feed carries no area, so this is all there is to go by; a national AMBER Alert reaches every province whatever its texts say.';

create or replace function app_hidden.tg_amber_alerts__province_codes() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if new.title is not null or new.description is not null then
    new.province_codes := app_hidden.amber_alert_province_codes(new.title, new.description);
  end if;
  return new;
end;
$$;
comment on function app_hidden.tg_amber_alerts__province_codes() is
  'Trigger: finds the provinces of an AMBER alert from its texts while it has them; when the texts are erased (the alert ended) the provinces stay.';
drop trigger if exists _200_province_codes on app_public.amber_alerts;
create trigger _200_province_codes before insert or update of title, description on app_public.amber_alerts
  for each row execute function app_hidden.tg_amber_alerts__province_codes();
update app_public.amber_alerts a set province_codes = app_hidden.amber_alert_province_codes(a.title, a.description)
 where a.title is not null or a.description is not null;

--------------------------------------------------------------------------------------------------
-- Notification subjects

create or replace function app_hidden.nl_alert_notification_subject(a app_public.nl_alerts)
  returns app_hidden.notification_subject language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(
    'NL-Alert: ' || left(btrim(split_part(a.message, '***', 1)), 140),
    array[
      format('Message: %s', btrim(split_part(a.message, '***', 1))),
      format('Start: %s (Europe/Amsterdam)', to_char(a.start_at at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI')),
      format('Stop: %s', coalesce(to_char(a.stop_at at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI') || ' (Europe/Amsterdam)', '-')),
      format('Safety regions: %s', coalesce((select string_agg(r.number || ' ' || r.name, ', ' order by r.number)
                                               from app_public.p2000_regions r where r.number = any (a.region_numbers)), '-'))],
    'nl_alert.issued',
    jsonb_build_object('nlAlert', jsonb_build_object('uuid', a.uuid, 'alertId', a.alert_id, 'message', a.message,
      'messageNl', nullif(btrim(split_part(a.message, '***', 1)), ''),
      'messageEn', case when strpos(a.message, '***') > 0 then nullif(btrim(substr(a.message, strpos(a.message, '***') + 3)), '') end,
      'startAt', a.start_at, 'stopAt', a.stop_at, 'regionNumbers', to_jsonb(a.region_numbers), 'areas', to_jsonb(a.area_texts),
      'resourceUri', a.resource_uri)))::app_hidden.notification_subject
$$;
comment on function app_hidden.nl_alert_notification_subject(a app_public.nl_alerts) is
  'What an NL-Alert notification says: the Dutch text as headline, fact lines (text, start, stop, safety regions), and the webhook''s nlAlert object.';

create or replace function app_hidden.amber_alert_notification_subject(a app_public.amber_alerts, ended boolean)
  returns app_hidden.notification_subject language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(
    case when ended then l.label || ' beëindigd' || coalesce(': ' || a.title, '')
         else l.label || coalesce(': ' || a.title, '') end,
    array[
      format('Alert: %s (%s)', l.label, a.alert_id),
      format('Started: %s (Europe/Amsterdam)', to_char(a.started_at at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI'))]
    || case when ended then array[format('Ended: %s (Europe/Amsterdam)', to_char(a.ended_at at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI'))]
            else array[format('Provinces: %s', case when a.level = 10 then 'nationwide'
                                                     else coalesce((select string_agg(p.name, ', ' order by p.sort_order) from app_public.nl_provinces p
                                                                     where p.code = any (a.province_codes)), '-') end)]
                 || case when a.description is not null then array[a.description] else '{}' end
                 || case when a.read_more_url is not null then array['More: ' || a.read_more_url] else '{}' end end,
    case when ended then 'amber_alert.ended' else 'amber_alert.issued' end,
    jsonb_build_object('amberAlert', jsonb_strip_nulls(jsonb_build_object('uuid', a.uuid, 'alertId', a.alert_id, 'level', a.level,
      'kind', l.kind, 'label', l.label, 'startedAt', a.started_at, 'endedAt', a.ended_at, 'provinces', to_jsonb(a.province_codes),
      'title', a.title, 'description', a.description, 'imageUrl', a.image_url, 'readMoreUrl', a.read_more_url))))::app_hidden.notification_subject
    from app_hidden.amber_alert_label(a.level) l
$$;
comment on function app_hidden.amber_alert_notification_subject(a app_public.amber_alerts, ended boolean) is
  'What an AMBER alert notification says, when it is issued or when it ended: a Dutch headline by kind, fact lines, and the webhook''s amberAlert object. An ended alert has no personal details left, so its notification carries none.';

--------------------------------------------------------------------------------------------------
-- Matchers (lib/monitors/matchers.ts)

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
  return app_private.notify_feed_event('nl_alert', a.uuid, array(
    select distinct m.monitor_uuid from (
      select c.monitor_uuid from app_hidden.nl_alert_monitor_criteria c where c.everywhere
      union all
      select c.monitor_uuid from app_hidden.nl_alert_monitor_criteria c where c.region_numbers && a.region_numbers
      union all
      select c.monitor_uuid from unnest(a.areas) x (area) join app_hidden.nl_alert_monitor_criteria c on c.area && x.area
      union all
      select c.monitor_uuid from unnest(a.areas) x (area) join app_hidden.nl_alert_monitor_criteria c on c.point <@ x.area
    ) m order by m.monitor_uuid), app_hidden.nl_alert_notification_subject(a));
end;
$$;
comment on function app_private.match_nl_alert(alert_uuid uuid) is
  'The matcher of nl_alert monitors (task monitors__match_feed): an NL-Alert still running matches the monitors whose circle one of its areas meets, whose point one covers, one of whose safety regions it covers, or that have neither location nor regions, each found through an index of nl_alert_monitor_criteria. notify_feed_event records the match by the alert, so a monitor hears of an alert once, when it first reaches it (an alert widened later reaches the monitors it newly meets).';

create or replace function app_private.match_amber_alert(alert_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  a app_public.amber_alerts;
  kind text;
begin
  -- The issue and the end of one alert are matched one at a time, each reading the alert after
  -- the lock: an end matched first finds no issue's matches, and an issue matched after the end
  -- finds the alert ended, so nobody hears of the one without the other.
  perform pg_advisory_xact_lock(hashtext('amber_alert:' || match_amber_alert.alert_uuid));
  select * into a from app_public.amber_alerts x where x.uuid = match_amber_alert.alert_uuid;
  if a.uuid is null or a.ended_at is not null then
    return 0;
  end if;
  kind := (app_hidden.amber_alert_label(a.level)).kind;
  return app_private.notify_feed_event('amber_alert', a.uuid, array(
    select c.monitor_uuid from app_hidden.amber_alert_monitor_criteria c
     where (cardinality(c.kinds) = 0 or kind = any (c.kinds))
       and (a.level = 10 or cardinality(c.province_codes) = 0 or c.province_codes && a.province_codes)
     order by c.monitor_uuid), app_hidden.amber_alert_notification_subject(a, false));
end;
$$;
comment on function app_private.match_amber_alert(alert_uuid uuid) is
  'The matcher of amber_alert monitors for an alert issued (task monitors__match_feed, feed amber_alert): a running alert matches the monitors of its kind that are nationwide, or whose provinces it names; an AMBER Alert (level 10) is national and reaches every province. An alert that ended before it was matched notifies nobody. A lock per alert orders it with app_private.match_amber_alert_end. The rest is app_private.notify_feed_event, so a monitor hears of an alert''s issue once.';

create or replace function app_private.match_amber_alert_end(alert_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  a app_public.amber_alerts;
begin
  perform pg_advisory_xact_lock(hashtext('amber_alert:' || match_amber_alert_end.alert_uuid));
  select * into a from app_public.amber_alerts x where x.uuid = match_amber_alert_end.alert_uuid;
  if a.uuid is null or a.ended_at is null then
    return 0;
  end if;
  return app_private.notify_feed_event('amber_alert_end', a.uuid, array(
    select c.monitor_uuid from app_hidden.amber_alert_monitor_criteria c
     where exists (select 1 from app_hidden.feed_monitor_matches fm
                    where fm.monitor_uuid = c.monitor_uuid and fm.event_kind = 'amber_alert' and fm.event_uuid = a.uuid)
     order by c.monitor_uuid), app_hidden.amber_alert_notification_subject(a, true));
end;
$$;
comment on function app_private.match_amber_alert_end(alert_uuid uuid) is
  'The matcher of an AMBER alert''s end (task monitors__match_feed, feed amber_alert_end): the active amber_alert monitors that matched its issue hear that it ended, once (event kind amber_alert_end). An alert nobody heard of running (a backfill, the demo data) ends without a word.';

--------------------------------------------------------------------------------------------------
-- Triggers that queue matching: live alerts only.

create or replace function app_hidden.tg_nl_alerts__queue_matching() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  live uuid[];
begin
  if tg_op = 'INSERT' then
    live := array(select n.uuid from new_alerts n
                   where (n.stop_at is null or n.stop_at > now()) and n.start_at > now() - interval '24 hours' order by n.uuid);
  else
    live := array(select n.uuid from new_alerts n join old_alerts o on o.uuid = n.uuid
                   where (n.stop_at is null or n.stop_at > now()) and n.start_at > now() - interval '24 hours'
                     and n.area_texts is distinct from o.area_texts order by n.uuid);
  end if;
  if cardinality(live) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'nl_alert', 'uuids', live), max_attempts := 10);
  end if;
  return null;
end;
$$;
comment on function app_hidden.tg_nl_alerts__queue_matching() is
  'Trigger: queues one monitors__match_feed job (feed nl_alert) per statement for NL-Alerts that are new, or whose areas changed, while they run and started less than 24 hours ago. A backfill of old alerts notifies nobody.';
drop trigger if exists _600_queue_matching_on_insert on app_public.nl_alerts;
create trigger _600_queue_matching_on_insert after insert on app_public.nl_alerts
  referencing new table as new_alerts for each statement execute function app_hidden.tg_nl_alerts__queue_matching();
drop trigger if exists _600_queue_matching_on_update on app_public.nl_alerts;
create trigger _600_queue_matching_on_update after update on app_public.nl_alerts
  referencing old table as old_alerts new table as new_alerts for each statement execute function app_hidden.tg_nl_alerts__queue_matching();

create or replace function app_hidden.tg_amber_alerts__queue_matching() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  issued uuid[];
  ended uuid[];
begin
  if tg_op = 'INSERT' then
    issued := array(select n.uuid from new_alerts n
                     where n.ended_at is null and n.started_at > now() - interval '24 hours' order by n.uuid);
  else
    issued := array(select n.uuid from new_alerts n join old_alerts o on o.uuid = n.uuid
                     where n.ended_at is null and o.ended_at is not null and n.started_at > now() - interval '24 hours' order by n.uuid);
    ended := array(select n.uuid from new_alerts n join old_alerts o on o.uuid = n.uuid
                    where n.ended_at is not null and o.ended_at is null order by n.uuid);
  end if;
  if cardinality(issued) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'amber_alert', 'uuids', issued), max_attempts := 10);
  end if;
  if cardinality(ended) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'amber_alert_end', 'uuids', ended), max_attempts := 10);
  end if;
  return null;
end;
$$;
comment on function app_hidden.tg_amber_alerts__queue_matching() is
  'Trigger: queues monitors__match_feed jobs per statement: feed amber_alert for alerts that start running (stored running, or running again) and started less than 24 hours ago, feed amber_alert_end for alerts that end. A backfill of old or ended alerts announces no issue, and an end reaches only the monitors that heard of the issue.';
drop trigger if exists _600_queue_matching_on_insert on app_public.amber_alerts;
create trigger _600_queue_matching_on_insert after insert on app_public.amber_alerts
  referencing new table as new_alerts for each statement execute function app_hidden.tg_amber_alerts__queue_matching();
drop trigger if exists _600_queue_matching_on_update on app_public.amber_alerts;
create trigger _600_queue_matching_on_update after update on app_public.amber_alerts
  referencing old table as old_alerts new table as new_alerts for each statement execute function app_hidden.tg_amber_alerts__queue_matching();

--------------------------------------------------------------------------------------------------
-- The reference list of monitor types, with the fields of their queries.

create or replace function app_public.monitor_types() returns setof app_public.monitor_reference_item
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(t.name, t.description,
             coalesce('Query fields: ' || (select string_agg(q.field || case when q.required then ' (required)' else '' end
                                                               || coalesce(' [' || array_to_string(q.choices, ', ') || ']', '')
                                                               || ': ' || q.description, '; ' order by q.field)
                                             from app_hidden.monitor_query_fields q where q.monitor_type = t.name), 'No query fields.'),
             null)::app_public.monitor_reference_item
    from app_public.monitor_types t
   order by case t.name when 'p2000' then 0 else 1 end, t.name
$$;
comment on function app_public.monitor_types() is E'@notNull\nThe monitor types createMonitor takes (value), each with what it notifies of (label) and the fields of its query (description).';

comment on table app_hidden.feed_monitor_matches is 'The events that matched a monitor, for every feed except P2000 (weather, traffic incidents, jams, rail, RSS, aircraft, NL-Alerts, AMBER alerts issued and ended) in one table, with the reason when a rule held the notification back (null when it went out). A monitor hears of an event once (the primary key), and maxPerPeriod counts these rows. Events are never deleted, so there is no foreign key per feed.';
