--! Previous: sha1:20bd33089d1cc0d5c1e16aa7b857aa660e7e6353
--! Hash: sha1:71e43e30fa4df1b2bedf48123b183d19a7783c5f
--! Message: Spec letter: defaults, municipality, day-end meteo, exercises

-- The spec to the letter (issue 25): the AircraftWithStats type name, argument defaults that
-- GraphQL can show, the municipality in City.displayName, meteoSnapshot's end-of-day state, and
-- the spec's urgencies (urgent, less urgent, exercise).

-- AircraftWithStats: the spec's name keeps its plural (the default inflection singularises).
comment on type app_public.aircraft_with_stats is E'@typeName AircraftWithStats\nPer aircraft over the last 365 days: completed flights with a take-off, their minutes in the air, and the latest flight.';

-- Argument defaults in the signatures. plugins/argument-defaults.ts shows every literal SQL default
-- as the GraphQL argument's default value, so the page sizes each function applies when `first`
-- (or aircraftRoutes' `limit`) is omitted are now written where they are shown: 50 for index
-- queries (spec §8), 20 for rssFeedItems and aircraftRoutes, 10 for the type-ahead searches, and
-- page 1. An explicit null still means the same (app_hidden.page_limit and page_offset).

CREATE OR REPLACE FUNCTION app_public.aircraft_events_for_monitor(monitor app_public.monitor_ref, first integer DEFAULT 50, page integer DEFAULT 1)
 RETURNS SETOF app_public.aircraft_events
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  mo app_public.monitors := app_hidden.environment_aircraft_monitor(app_hidden.try_uuid((aircraft_events_for_monitor.monitor).uuid));
begin
  if mo.uuid is null then
    raise exception 'Aircraft monitor not found in this environment.' using errcode = 'XNOTF';
  end if;
  return query select e.* from app_public.aircraft_events e where app_hidden.aircraft_event_passes(mo, e)
    order by e.at desc, e.uuid limit app_hidden.page_limit(first, 200) offset app_hidden.page_offset(first, page, 200);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.aircraft_routes(icao text, status text DEFAULT NULL::text, include_unstarted boolean DEFAULT false, "limit" integer DEFAULT 20)
 RETURNS SETOF app_public.aircraft_routes
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
begin
  if status is not null and status not in ('active', 'completed') then
    raise exception 'Unknown status "%": use active or completed.', left(status, 40) using errcode = 'XINPT';
  end if;
  -- Relevance: started routes (take-off seen) first, then those with places, active first, newest first.
  return query
    select r.* from app_public.aircraft_routes r
      join app_public.aircraft_fleet f on f.icao = r.icao
     where (f.icao = lower(btrim(aircraft_routes.icao)) or f.registration = upper(btrim(aircraft_routes.icao)))
       and (aircraft_routes.status is null or r.status = aircraft_routes.status)
       and (coalesce(include_unstarted, false) or r.took_off_at is not null)
     order by (r.took_off_at is not null) desc, (r.start_place is not null or r.end_place is not null) desc,
              (r.status = 'active') desc, r.first_seen_at desc
     limit app_hidden.page_limit("limit", 100, 20);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.amber_alert_history(first integer DEFAULT 50, page integer DEFAULT 1, since app_public.unix_time DEFAULT NULL::bigint, until app_public.unix_time DEFAULT NULL::bigint, active_only boolean DEFAULT NULL::boolean)
 RETURNS SETOF app_public.amber_alert_history
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select a.uuid, a.alert_id, a.level, l.kind, l.label, a.ended_at is null, app_hidden.to_unix_time(a.started_at),
         app_hidden.to_unix_time(a.ended_at), (extract(epoch from a.ended_at - a.started_at) / 60)::integer
    from app_hidden.time_window(since, until) w, app_public.amber_alerts a, app_hidden.amber_alert_label(a.level) l
   where a.started_at between w.from_at and w.to_at
     and (not coalesce(active_only, false) or a.ended_at is null)
   order by a.started_at desc, a.uuid
   limit app_hidden.page_limit(first, 100) offset app_hidden.page_offset(first, page, 100)
$function$;

CREATE OR REPLACE FUNCTION app_public.amber_alerts(first integer DEFAULT 50, page integer DEFAULT 1, active_only boolean DEFAULT NULL::boolean)
 RETURNS SETOF app_public.amber_alert
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select a.uuid, a.alert_id, a.level, l.kind, l.label, a.ended_at is null, app_hidden.to_unix_time(a.started_at),
         app_hidden.to_unix_time(a.ended_at), a.title, a.description, a.description_ext, a.image_url, a.read_more_url
    from app_public.amber_alerts a, app_hidden.amber_alert_label(a.level) l
   where not coalesce(active_only, false) or a.ended_at is null
   order by a.started_at desc, a.uuid
   limit app_hidden.page_limit(first, 100) offset app_hidden.page_offset(first, page, 100)
$function$;

CREATE OR REPLACE FUNCTION app_public.fire_stations(first integer DEFAULT 50, page integer DEFAULT 1, filter app_public.fire_station_filter DEFAULT NULL::app_public.fire_station_filter)
 RETURNS SETOF app_public.fire_stations
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select s.* from app_hidden.fire_stations_matching(filter) s
   order by s.name, s.uuid
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$function$;

CREATE OR REPLACE FUNCTION app_public.fire_vehicles(first integer DEFAULT 50, page integer DEFAULT 1, filter app_public.fire_vehicle_filter DEFAULT NULL::app_public.fire_vehicle_filter)
 RETURNS SETOF app_public.fire_vehicles
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select v.* from app_hidden.fire_vehicles_matching(filter) v
   order by v.name
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$function$;

CREATE OR REPLACE FUNCTION app_public.hectometer_markers(first integer DEFAULT 50, page integer DEFAULT 1, filter app_public.hectometer_marker_filter DEFAULT NULL::app_public.hectometer_marker_filter)
 RETURNS SETOF app_public.hectometer_markers
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  target_road uuid := app_hidden.find_road((filter).road);
  wanted_side text := case lower(btrim((filter).side)) when 'li' then 'Li' when 'l' then 'Li' when 're' then 'Re' when 'r' then 'Re' end;
begin
  if (filter).side is not null and wanted_side is null then
    raise exception 'side must be Li or Re.' using errcode = 'XINPT';
  end if;
  if (((filter).road).uuid is not null or ((filter).road).name is not null) and target_road is null then
    return;
  end if;
  return query
    select h.* from app_public.hectometer_markers h
     where (target_road is null or h.road_uuid = target_road)
       and ((filter).hectometer is null or h.hectometer between (filter).hectometer - 0.05 and (filter).hectometer + 0.05)
       and (wanted_side is null or h.side = wanted_side)
     order by h.road_uuid, h.hectometer, h.side nulls first, h.letter nulls first, h.uuid
     limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.location_suggestions(search text, first integer DEFAULT 10)
 RETURNS SETOF app_public.location_suggestion
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  with term as (select app_hidden.require_search(search, 2) as t),
  candidates as (
    select 'place' as kind, c.display_name as label, c.province as detail, c.latitude, c.longitude, c.uuid, null::text as postcode,
           case when lower(c.name) like term.t || '%' then 0 else 2 end as rank, coalesce(c.population, 0) as weight
      from term, app_public.cities(search, 20) c
    union all
    select 'postcode', p.postcode, concat_ws(', ', p.city, p.municipality), p.latitude, p.longitude, null, p.postcode, 1, 0
      from term, app_public.postcodes p
     where term.t ~ '^[1-9][0-9]' and p.postcode like upper(replace(term.t, ' ', '')) || '%'
    union all
    select 'address', concat_ws(' ', s.street, s.house_number), concat_ws(', ', s.zip_code, s.city, s.name), s.latitude, s.longitude,
           s.uuid, s.zip_code, case when lower(concat_ws(' ', s.street, s.house_number)) like term.t || '%' then 1 else 3 end, 0
      from term, app_public.fire_stations s
     where s.latitude is not null and s.street is not null
       and (lower(s.street) like term.t || '%' or lower(concat_ws(' ', s.street, s.house_number, s.city)) like '%' || term.t || '%')
  )
  select c.kind, c.label, c.detail, c.latitude, c.longitude, c.uuid, c.postcode
    from candidates c
   order by c.rank, c.weight desc, length(c.label), c.label
   limit app_hidden.page_limit(first, 20, 10)
$function$;

CREATE OR REPLACE FUNCTION app_public.meteo_warning_events_for_monitor(monitor app_public.monitor_ref, first integer DEFAULT 50, page integer DEFAULT 1)
 RETURNS SETOF app_public.meteo_warning_events
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION app_public.nl_alerts(first integer DEFAULT 50, page integer DEFAULT 1, since app_public.unix_time DEFAULT NULL::bigint, until app_public.unix_time DEFAULT NULL::bigint, region_number text DEFAULT NULL::text, active_only boolean DEFAULT NULL::boolean)
 RETURNS SETOF app_public.nl_alert
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  from_at timestamptz;
  to_at timestamptz;
  region text;
  page_size integer := app_hidden.page_limit(first, 100);
  skip integer := app_hidden.page_offset(first, page, 100);
  only_active boolean := coalesce(active_only, false);
begin
  select w.from_at, w.to_at into from_at, to_at from app_hidden.time_window(since, until) w;
  if region_number is not null then
    -- "13", "1" or "VR13"; anything else (such as "123") is no region, not a cut-down one.
    if region_number ~* '^\s*(vr)?[0-9]{1,2}\s*$' then
      select r.number into region from app_public.p2000_regions r
       where r.number = lpad(regexp_replace(region_number, '[^0-9]', '', 'g'), 2, '0');
    end if;
    if region is null then
      raise exception 'Unknown region number "%": give a safety-region number from 01 to 25.', left(region_number, 20)
        using errcode = 'XINPT';
    end if;
  end if;
  return query
    select a.uuid, a.alert_id, a.message,
           -- The source writes the Dutch text, then ***, then the English one (if any).
           btrim(split_part(a.message, '***', 1)),
           case when strpos(a.message, '***') > 0 then nullif(btrim(substr(a.message, strpos(a.message, '***') + 3)), '') end,
           a.stop_at is null or a.stop_at > now(), app_hidden.to_unix_time(a.start_at), app_hidden.to_unix_time(a.stop_at),
           a.area_texts, a.region_numbers, a.resource_uri
      from (
        -- The page is picked by the index that fits; only one branch runs (the others' one-time
        -- filters are false). Running alerts: by their stop time.
        (select x.uuid, x.start_at from app_public.nl_alerts x
          where only_active and (x.stop_at is null or x.stop_at > now()) and (region is null or region = any (x.region_numbers))
            -- Written so that the cached plan cannot take the window for a range of the start
            -- index (which would read every alert when the window is unbounded).
            and (from_at = '-infinity' or x.start_at >= from_at) and (to_at = 'infinity' or x.start_at <= to_at)
          order by x.start_at desc, x.uuid limit page_size offset skip)
        union all
        -- A region's alerts: its index gives them in order.
        (select ar.alert_uuid, ar.start_at from app_public.nl_alert_regions ar
          where not only_active and region is not null and ar.region_number = region and ar.start_at between from_at and to_at
          order by ar.start_at desc, ar.alert_uuid limit page_size offset skip)
        union all
        (select x.uuid, x.start_at from app_public.nl_alerts x
          where not only_active and region is null and x.start_at between from_at and to_at
          order by x.start_at desc, x.uuid limit page_size offset skip)
      ) picked (uuid, start_at)
      join app_public.nl_alerts a on a.uuid = picked.uuid
     order by picked.start_at desc, picked.uuid;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.p2000_capcodes(first integer DEFAULT 50, page integer DEFAULT 1, filter app_public.p2000_capcode_filter DEFAULT NULL::app_public.p2000_capcode_filter)
 RETURNS SETOF app_public.p2000_capcodes
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
begin
  return query execute format('select c.* from app_public.p2000_capcodes c where %s order by c.name limit %s offset %s',
    app_hidden.p2000_capcode_conditions(filter), app_hidden.page_limit(first), app_hidden.page_offset(first, page))
  using filter;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.p2000_disciplines(first integer DEFAULT 50, page integer DEFAULT 1, filter app_public.p2000_discipline_filter DEFAULT NULL::app_public.p2000_discipline_filter)
 RETURNS SETOF app_public.p2000_disciplines
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select d.*
    from app_public.p2000_disciplines d
   where app_hidden.search_pattern(filter.search) is null
      or d.name ilike app_hidden.search_pattern(filter.search)
      or d.abbreviation ilike app_hidden.search_pattern(filter.search)
   order by d.name
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$function$;

CREATE OR REPLACE FUNCTION app_public.p2000_dossier_timeline(filter app_public.p2000_dossier_timeline_filter, first integer DEFAULT 50, page integer DEFAULT 1)
 RETURNS SETOF app_public.p2000_dossier_events
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  d app_public.p2000_dossiers;
begin
  if ((filter).dossier).uuid is not null and ((filter).message).uuid is not null then
    d := app_hidden.p2000_referenced_dossier((filter).dossier, null);
    if d.uuid is distinct from (app_hidden.p2000_referenced_dossier(null, (filter).message)).uuid then
      raise exception 'filter.message is not a message of filter.dossier.' using errcode = 'XINPT';
    end if;
  else
    d := app_hidden.p2000_referenced_dossier((filter).dossier, (filter).message);
  end if;
  if coalesce((filter).order_by, 'newestFirst') not in ('newestFirst', 'oldestFirst') then
    raise exception 'orderBy must be newestFirst or oldestFirst (got "%").', (filter).order_by using errcode = 'XINPT';
  end if;
  return query
    select e.* from app_public.p2000_dossier_events e where e.dossier_uuid = d.uuid
     order by case when (filter).order_by = 'oldestFirst' then e.sended end asc,
              case when (filter).order_by = 'oldestFirst' then e.created end asc,
              case when coalesce((filter).order_by, 'newestFirst') = 'newestFirst' then e.sended end desc,
              case when coalesce((filter).order_by, 'newestFirst') = 'newestFirst' then e.created end desc, e.uuid
     limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.p2000_dossiers(first integer DEFAULT 50, page integer DEFAULT 1, filter app_public.p2000_dossier_filter DEFAULT NULL::app_public.p2000_dossier_filter)
 RETURNS SETOF app_public.p2000_dossier
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  one app_public.p2000_dossiers;
begin
  perform app_hidden.p2000_dossier_view(null, (filter).messages_order_by, (filter).timeline_order_by); -- checks the orders
  if (filter).message is not null or (filter).dossier is not null then
    one := app_hidden.p2000_referenced_dossier((filter).dossier, (filter).message);
    if one.uuid is not null and app_hidden.page_offset(first, page) = 0 then
      return next app_hidden.p2000_dossier_view(one, (filter).messages_order_by, (filter).timeline_order_by);
    end if;
    return;
  end if;
  if coalesce((filter).order_by, 'lastSendedDesc') not in ('lastSendedDesc', 'lastSendedAsc', 'firstSendedDesc', 'messageCountDesc') then
    raise exception 'orderBy must be lastSendedDesc, lastSendedAsc, firstSendedDesc or messageCountDesc (got "%").', (filter).order_by
      using errcode = 'XINPT';
  end if;
  return query
    select (app_hidden.p2000_dossier_view(d, (filter).messages_order_by, (filter).timeline_order_by)).*
      from app_public.p2000_dossiers d
     order by case when coalesce((filter).order_by, 'lastSendedDesc') = 'lastSendedDesc' then d.last_sended end desc,
              case when (filter).order_by = 'lastSendedAsc' then d.last_sended end asc,
              case when (filter).order_by = 'firstSendedDesc' then d.first_sended end desc,
              case when (filter).order_by = 'messageCountDesc' then d.message_count end desc,
              d.last_sended desc, d.uuid
     limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.p2000_grip_levels(first integer DEFAULT 50, page integer DEFAULT 1, filter app_public.p2000_taxonomy_filter DEFAULT NULL::app_public.p2000_taxonomy_filter)
 RETURNS SETOF app_public.p2000_grip_levels
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select g.*
    from app_public.p2000_grip_levels g
   where app_hidden.search_pattern(filter.search) is null
      or g.name ilike app_hidden.search_pattern(filter.search)
   order by g.level
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$function$;

CREATE OR REPLACE FUNCTION app_public.p2000_messages(first integer DEFAULT 50, page integer DEFAULT 1, filter app_public.p2000_message_filter DEFAULT NULL::app_public.p2000_message_filter)
 RETURNS SETOF app_public.p2000_messages
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  single_capcode uuid := app_hidden.p2000_single_capcode(filter);
  conditions text := app_hidden.p2000_message_conditions(filter); -- also validates the filter
  exercise text := coalesce((filter).exercise_type, 'none');
  range_from timestamptz := coalesce(((filter).sended)."from", '-infinity');
  range_to timestamptz := coalesce(((filter).sended)."to", 'infinity');
  page_size integer := app_hidden.page_limit(first);
  skip integer := app_hidden.page_offset(first, page);
  capcode_uuids uuid[];
begin
  -- Disciplines, with a time range or not: each one's newest page + offset by the discipline
  -- index, then the newest of those (a message has one discipline, so none comes twice).
  if (filter).disciplines is not null and (filter).dossier is null and (filter).vehicle is null and (filter).monitor is null
     and (filter).capcodes is null and (filter).capcode is null then
    return query
      select t.* from unnest(app_hidden.p2000_filter_discipline_uuids((filter).disciplines)) u (discipline_uuid),
             lateral (select m.* from app_public.p2000_messages m
                       where m.discipline_uuid = u.discipline_uuid and m.sended between range_from and range_to
                         and (exercise = 'all' or m.exercise_type = exercise)
                       order by m.sended desc, m.uuid
                       limit page_size + skip) t
       order by t.sended desc, t.uuid
       limit page_size offset skip;
    return;
  end if;
  if (filter).dossier is null and (filter).disciplines is null and (filter).vehicle is null then
    -- One capcode and a time range: static SQL, so its plan is prepared once per connection.
    if single_capcode is not null and (filter).monitor is null then
      return query
        select m.* from app_public.p2000_message_capcodes mc join app_public.p2000_messages m on m.uuid = mc.message_uuid
         where mc.capcode_uuid = single_capcode and mc.sended between range_from and range_to
           and (exercise = 'all' or m.exercise_type = exercise)
         order by mc.sended desc, m.uuid
         limit page_size offset skip;
      return;
    end if;
    -- One monitor: its matches newest first (the monitor was checked by p2000_message_conditions).
    if (filter).monitor is not null and (filter).capcodes is null and (filter).capcode is null then
      return query
        select m.* from app_hidden.monitor_matches mm join app_public.p2000_messages m on m.uuid = mm.message_uuid
         where mm.monitor_uuid = app_hidden.try_uuid(((filter).monitor).uuid) and mm.sended between range_from and range_to
           and (exercise = 'all' or m.exercise_type = exercise)
         order by mm.sended desc, m.uuid
         limit page_size offset skip;
      return;
    end if;
    -- A time range alone (the newest messages, a day, a month): static SQL, so its plan is
    -- prepared once per connection instead of planned on every call, by the index of the
    -- exercise type and time.
    if (filter).monitor is null and (filter).capcodes is null and (filter).capcode is null then
      if exercise = 'all' then
        return query
          select m.* from app_public.p2000_messages m
           where m.sended between range_from and range_to
           order by m.sended desc, m.uuid
           limit page_size offset skip;
      else
        return query
          select m.* from app_public.p2000_messages m
           where m.exercise_type = exercise and m.sended between range_from and range_to
           order by m.sended desc, m.uuid
           limit page_size offset skip;
      end if;
      return;
    end if;
    -- Several capcodes, by uuid or by name (not both): each one's newest page + offset, then the
    -- newest of those (a message of the page is within the first page + offset of each of its capcodes).
    if (filter).monitor is null and ((filter).capcodes is null) <> ((filter).capcode is null) then
      capcode_uuids := case when (filter).capcodes is not null
        then array(select distinct app_hidden.try_uuid(c) from unnest((filter).capcodes) c)
        else array(select c.uuid from app_public.p2000_capcodes c
                    where c.name = any (array(select app_hidden.p2000_normalize_capcode(n) from unnest(((filter).capcode).names) n))) end;
      return query
        select distinct on (t.sended, t.uuid) t.* from unnest(capcode_uuids) u (capcode_uuid),
               lateral (select x.* from app_public.p2000_message_capcodes mc
                          join app_public.p2000_messages x on x.uuid = mc.message_uuid
                         where mc.capcode_uuid = u.capcode_uuid and mc.sended between range_from and range_to
                           and (exercise = 'all' or x.exercise_type = exercise)
                         order by mc.sended desc, x.uuid
                         limit page_size + skip) t
         order by t.sended desc, t.uuid
         limit page_size offset skip;
      return;
    end if;
  end if;
  return query execute format(
    'select m.* from app_public.p2000_messages m where %s order by m.sended desc, m.uuid limit %s offset %s',
    conditions, page_size, skip)
  using filter;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.p2000_qualifications(first integer DEFAULT 50, page integer DEFAULT 1, filter app_public.p2000_taxonomy_filter DEFAULT NULL::app_public.p2000_taxonomy_filter)
 RETURNS SETOF app_public.p2000_qualifications
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select q.*
    from app_public.p2000_qualifications q
   where app_hidden.search_pattern(filter.search) is null
      or q.name ilike app_hidden.search_pattern(filter.search)
   order by q.level
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$function$;

CREATE OR REPLACE FUNCTION app_public.p2000_regions(first integer DEFAULT 50, page integer DEFAULT 1, filter app_public.p2000_taxonomy_filter DEFAULT NULL::app_public.p2000_taxonomy_filter)
 RETURNS SETOF app_public.p2000_regions
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select r.*
    from app_public.p2000_regions r
   where app_hidden.search_pattern(filter.search) is null
      or r.name ilike app_hidden.search_pattern(filter.search)
      or r.number ilike app_hidden.search_pattern(filter.search)
      or r.code ilike app_hidden.search_pattern(filter.search)
      or exists (select 1 from unnest(r.aliases) a where a ilike app_hidden.search_pattern(filter.search))
   order by r.number
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$function$;

CREATE OR REPLACE FUNCTION app_public.p2000_urgencies(first integer DEFAULT 50, page integer DEFAULT 1, filter app_public.p2000_taxonomy_filter DEFAULT NULL::app_public.p2000_taxonomy_filter)
 RETURNS SETOF app_public.p2000_urgencies
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select u.*
    from app_public.p2000_urgencies u
   where app_hidden.search_pattern(filter.search) is null
      or u.name ilike app_hidden.search_pattern(filter.search)
      or u.code ilike app_hidden.search_pattern(filter.search)
   order by u.rank, u.code
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$function$;

CREATE OR REPLACE FUNCTION app_public.postcodes(search text, first integer DEFAULT 10)
 RETURNS SETOF app_public.postcodes
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select p.* from app_public.postcodes p
   where p.postcode like upper(replace(app_hidden.require_search(search, 2), ' ', '')) || '%'
   order by length(p.postcode), p.postcode
   limit app_hidden.page_limit(first, 50, 10)
$function$;

CREATE OR REPLACE FUNCTION app_public.roads(first integer DEFAULT 50, page integer DEFAULT 1, filter app_public.road_filter DEFAULT NULL::app_public.road_filter)
 RETURNS SETOF app_public.roads
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select r.* from app_public.roads r
   where ((filter).search is null or r.name like upper(regexp_replace((filter).search, '\s', '', 'g')) || '%')
     and ((filter).prefix is null or r.prefix = upper(btrim((filter).prefix)))
     and ((filter).with_marker_count is null or (r.marker_count > 0) = (filter).with_marker_count)
   order by r.prefix, r.number
   limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page)
$function$;

CREATE OR REPLACE FUNCTION app_public.rss_feed_items(first integer DEFAULT 20, page integer DEFAULT 1, filter app_public.rss_feed_item_filter DEFAULT NULL::app_public.rss_feed_item_filter)
 RETURNS SETOF app_public.rss_feed_item
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  w record;
begin
  select * into w from app_hidden.rss_filter_resolved(filter);
  return query execute format($q$
    select i.uuid, f.url, f.title, i.guid, i.title, i.link, i.summary, i.published_at, i.latitude, i.longitude, i.first_seen_at
      from (select x.* from app_public.rss_feed_items x
             where x.feed_uuid = any ($1) %s %s
             order by x.sort_at desc, x.uuid limit $4 offset $5) i
      join app_public.rss_feeds f on f.uuid = i.feed_uuid
     order by i.sort_at desc, i.uuid$q$,
    case when w.query is not null then 'and x.search @@ $2' else '' end,
    case when w.since is not null then 'and x.sort_at >= $3' else '' end)
  using w.feed_uuids, w.query, w.since, app_hidden.page_limit(first, 100, 20), app_hidden.page_offset(first, page, 100, 20);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.search_roads(search text, first integer DEFAULT 10)
 RETURNS SETOF app_public.roads
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  term text := upper(regexp_replace(coalesce(search, ''), '\s', '', 'g'));
begin
  if length(term) < 1 then
    raise exception 'search needs at least 1 character.' using errcode = 'XINPT';
  end if;
  -- "12" finds A12, N12 ...; "A1" finds A1, A10-A19, A100 ...: exact first, then by number.
  return query
    select r.* from app_public.roads r
     where r.name like term || '%' or (term ~ '^[0-9]+$' and r.number::text like term || '%')
     order by r.name = term desc, r.number::text = ltrim(term, 'ANSRE') desc, r.prefix, r.number
     limit app_hidden.page_limit(first, 50, 10);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.traffic_incidents(active boolean DEFAULT NULL::boolean, first integer DEFAULT 50, page integer DEFAULT 1)
 RETURNS SETOF app_public.traffic_incidents
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
begin
  -- Three statements, one per index, so each plans to its own partial index.
  if active then
    return query select t.* from app_public.traffic_incidents t where t.closed_at is null
      order by t.sort_at desc, t.uuid limit app_hidden.page_limit(first, 200) offset app_hidden.page_offset(first, page, 200);
  elsif not active then
    return query select t.* from app_public.traffic_incidents t where t.closed_at is not null
      order by t.sort_at desc, t.uuid limit app_hidden.page_limit(first, 200) offset app_hidden.page_offset(first, page, 200);
  else
    return query select t.* from app_public.traffic_incidents t
      order by t.sort_at desc, t.uuid limit app_hidden.page_limit(first, 200) offset app_hidden.page_offset(first, page, 200);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.traffic_incidents_for_monitor(monitor app_public.monitor_ref, active boolean DEFAULT NULL::boolean, first integer DEFAULT 50, page integer DEFAULT 1)
 RETURNS SETOF app_public.traffic_incidents
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  c app_hidden.traffic_monitor_criteria := app_hidden.accident_monitor_criteria(app_hidden.try_uuid((traffic_incidents_for_monitor.monitor).uuid));
begin
  if c.monitor_uuid is null then
    raise exception 'Accident monitor not found in this environment.' using errcode = 'XNOTF';
  end if;
  return query
    select t.* from app_public.traffic_incidents t
     where (traffic_incidents_for_monitor.active is null or (t.closed_at is null) = traffic_incidents_for_monitor.active)
       and app_hidden.traffic_incident_passes(c, t)
     order by t.sort_at desc, t.uuid
     limit app_hidden.page_limit(first, 200) offset app_hidden.page_offset(first, page, 200);
end;
$function$;

-- Places know their municipality (CBS "Woonplaatsen in Nederland", data/woonplaatsen.csv), so a
-- name several places share is told apart as the spec says: "Hengelo (Bronckhorst)", "Hengelo
-- (Hengelo)". lib/places/reference-data.ts fills it on the next start.
alter table app_public.places add column if not exists municipality text;
comment on column app_public.places.municipality is 'The municipality (gemeente) of a woonplaats; null for a GeoNames place that is no woonplaats (a district such as Scheveningen).';

drop function if exists app_private.upsert_place(integer, text, text, text, double precision, double precision, integer, text[]);
create or replace function app_private.upsert_place(geonames_id integer, name text, province text, province_code text,
    latitude double precision, longitude double precision, population integer, aliases text[], municipality text)
  returns void language sql
  set search_path to pg_catalog, public, pg_temp
as $$
  insert into app_public.places (uuid, name, province, province_code, latitude, longitude, population, aliases, municipality)
  values (app_hidden.reference_uuid('place', geonames_id::text), name, province, province_code, latitude, longitude, population,
          coalesce(aliases, '{}'), municipality)
  on conflict (uuid) do update set name = excluded.name, province = excluded.province, province_code = excluded.province_code,
    latitude = excluded.latitude, longitude = excluded.longitude, population = excluded.population, aliases = excluded.aliases,
    municipality = excluded.municipality
$$;
comment on function app_private.upsert_place(integer, text, text, text, double precision, double precision, integer, text[], text) is
  'One place of the reference data, keyed by its GeoNames id: inserted, or brought up to date (the loader runs on every start).';

do $$
begin
  if not exists (select 1 from pg_attribute where attrelid = 'app_public.city'::regclass and attname = 'municipality' and not attisdropped) then
    alter type app_public.city add attribute municipality text;
  end if;
end
$$;
comment on type app_public.city is 'A place as a search answer; displayName adds the municipality when places share a name.';
CREATE OR REPLACE FUNCTION app_public.cities(search text, first integer DEFAULT 10)
 RETURNS SETOF app_public.city
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  with term as (select app_hidden.require_search(search, 2) as t),
  found as (
    select n.place_uuid, min(case when n.name = term.t then 0 else 1 end) as rank
      from app_hidden.place_names n, term where n.name like replace(replace(term.t, '%', ''), '_', '\_') || '%'
     group by n.place_uuid
    union all
    select p.uuid, 1 from app_hidden.p2000_place_abbreviations a, term
      join app_public.places p on true
     where lower(a.abbreviation) = term.t and lower(p.name) = lower(a.place_name)
    union all
    select p.uuid, 2 from app_public.places p, term where lower(p.name) % term.t
  ),
  best as (select f.place_uuid, min(f.rank) as rank from found f group by f.place_uuid)
  select p.uuid, p.name,
         case when not exists (select 1 from app_public.places q where lower(q.name) = lower(p.name) and q.uuid <> p.uuid)
                then p.name
              -- two municipalities of one name (Bergen in Noord-Holland and in Limburg): the province too
              when p.municipality is not null and exists (
                     select 1 from app_public.places q
                      where lower(q.name) = lower(p.name) and q.uuid <> p.uuid and q.municipality = p.municipality)
                then p.name || ' (' || p.municipality || ', ' || coalesce(p.province, '?') || ')'
              else p.name || ' (' || coalesce(p.municipality, p.province, '?') || ')' end,
         p.province, p.latitude, p.longitude, p.population, p.municipality
    from best b join app_public.places p on p.uuid = b.place_uuid, term
   order by b.rank, similarity(lower(p.name), term.t) desc, p.population desc nulls last, p.name
   limit app_hidden.page_limit(first, 50, 10)
$function$;

-- meteoSnapshot of a past day: the state at the end of that day (spec §4.3), no longer every
-- period that touched the day. That is what was in force at the day's last moment (Europe/
-- Amsterdam) plus what the documents issued before midnight announced for later; a warning that
-- ended at 14:00 is not in it. Each hour of the history keeps the newest document's word on it, so
-- an announcement a later document replaced is not kept: the later hours show what is known of
-- them from documents of that day only. meteo_periods reads each slice's document (its issue
-- hour), which visitors cannot read, hence SECURITY DEFINER (it returns only warning periods).
drop function if exists app_hidden.meteo_details(timestamp with time zone, timestamp with time zone);
drop function if exists app_hidden.meteo_periods(timestamp with time zone, timestamp with time zone);
CREATE OR REPLACE FUNCTION app_hidden.meteo_periods(range_from timestamp with time zone, range_to timestamp with time zone, announced_by timestamp with time zone DEFAULT 'infinity'::timestamp with time zone)
 RETURNS TABLE(province_uuid uuid, phenomenon text, status integer, description text, period_from timestamp with time zone, period_to timestamp with time zone)
 LANGUAGE sql
 STABLE PARALLEL SAFE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  with slices as (
    select s.province_uuid, s.phenomenon, s.status::integer as status, s.description, s.hour,
           s.hour - make_interval(hours => (row_number() over (partition by s.province_uuid, s.phenomenon, s.status order by s.hour))::integer) as run
      from app_public.meteo_warning_slices s
     where s.hour >= range_from - interval '3 days'
       and s.hour < case when range_to = 'infinity' then range_to else range_to + interval '3 days' end
       -- only what documents issued before announced_by said (a document begins at its issue hour)
       and (announced_by = 'infinity' or (select d.first_hour from app_hidden.meteo_documents d where d.uuid = s.document_uuid) < announced_by)
  ), runs as (
    select sl.province_uuid, sl.phenomenon, sl.status, (array_agg(sl.description order by sl.hour))[1] as description,
           min(sl.hour) as period_from, max(sl.hour) + interval '1 hour' as period_to
      from slices sl group by sl.province_uuid, sl.phenomenon, sl.status, sl.run
  )
  select * from runs r where r.period_to > range_from and r.period_from < range_to
$function$;
comment on function app_hidden.meteo_periods(timestamp with time zone, timestamp with time zone, timestamp with time zone) is
  'Warning periods (runs of equal hours per province, phenomenon and level) overlapping a range, built from three days around it; announced_by keeps only what documents issued before it said.';
grant execute on function app_hidden.meteo_periods(timestamp with time zone, timestamp with time zone, timestamp with time zone) to app_visitor, app_analyst;
CREATE OR REPLACE FUNCTION app_hidden.meteo_details(range_from timestamp with time zone, range_to timestamp with time zone, announced_by timestamp with time zone DEFAULT 'infinity'::timestamp with time zone)
 RETURNS SETOF app_public.meteo_region_detail
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  with periods as (select * from app_hidden.meteo_periods(range_from, range_to, announced_by)),
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
$function$;
comment on function app_hidden.meteo_details(timestamp with time zone, timestamp with time zone, timestamp with time zone) is
  'The 12 provinces with their warnings (periods grouped by phenomenon) over a range, as meteoRegionDetails and meteoSnapshot answer.';
grant execute on function app_hidden.meteo_details(timestamp with time zone, timestamp with time zone, timestamp with time zone) to app_visitor, app_analyst;

create or replace function app_hidden.meteo_end_of_day(day date)
  returns setof app_public.meteo_region_detail
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select * from app_hidden.meteo_details(
    (day + 1)::timestamp at time zone 'Europe/Amsterdam' - interval '1 microsecond',
    (day + 1)::timestamp at time zone 'Europe/Amsterdam' + interval '3 days',
    (day + 1)::timestamp at time zone 'Europe/Amsterdam')
$$;
comment on function app_hidden.meteo_end_of_day(date) is
  'The state at the end of a day (Europe/Amsterdam): warnings in force at its last moment and those announced by then for later (a 48-hour document looks at most three days ahead).';
grant execute on function app_hidden.meteo_end_of_day(date) to app_visitor, app_analyst;
CREATE OR REPLACE FUNCTION app_hidden.meteo_refresh_day_snapshots(from_day date, to_day date)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  insert into app_hidden.meteo_day_snapshots (day, details)
  select d.day, array(select x from app_hidden.meteo_end_of_day(d.day) x)
    from (select g::date as day from generate_series(from_day, to_day, interval '1 day') g) d
  on conflict (day) do update set details = excluded.details, computed_at = now()
$function$;
CREATE OR REPLACE FUNCTION app_public.meteo_snapshot(date text)
 RETURNS SETOF app_public.meteo_region_detail
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
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
      return query select * from app_hidden.meteo_end_of_day(meteo_snapshot.date::date);
    end if;
  end if;
end;
$function$;
comment on function app_public.meteo_snapshot(date text) is E'@notNull\nThe 12 provinces on a day (YYYY-MM-DD, Europe/Amsterdam): today live; another day the state at its end, what was in force at 23:59:59 and what had been announced by then for later.';

-- The cached days as the new rule computes them.
select app_hidden.meteo_refresh_day_snapshots(min(day), max(day)) from app_hidden.meteo_day_snapshots having count(*) > 0;

-- The spec's urgencies are urgent, less urgent and exercise: exercises, test pages and test alarms
-- get an urgency of their own (code OEF, level exercise), beside the priority codes. It belongs to
-- no discipline (every discipline exercises) and ranks last.
alter table app_public.p2000_urgencies alter column discipline_uuid drop not null;
alter table app_public.p2000_urgencies drop constraint if exists p2000_urgencies_code_check;
alter table app_public.p2000_urgencies add constraint p2000_urgencies_code_check check (code ~ '^[ABP][0-9]$' or code = 'OEF');
alter table app_public.p2000_urgencies drop constraint if exists p2000_urgencies_level_check;
alter table app_public.p2000_urgencies add constraint p2000_urgencies_level_check check (level in ('urgent', 'less_urgent', 'not_urgent', 'exercise'));
alter table app_public.p2000_urgencies drop constraint if exists p2000_urgencies_rank_check;
alter table app_public.p2000_urgencies add constraint p2000_urgencies_rank_check check (rank between 0 and 4);
comment on column app_public.p2000_urgencies.level is 'urgent (lights and siren), less_urgent (no signals, within about 30 minutes), not_urgent (planned) or exercise (exercises, test pages and test alarms).';
comment on column app_public.p2000_urgencies.discipline_uuid is 'The discipline whose code this is; null for the exercise urgency, which every discipline has.';
comment on table app_public.p2000_urgencies is 'Urgency codes of P2000 texts: A0-A2 and B1-B2 (ambulance), P1-P3 (fire brigade), and OEF for exercises and tests.';
insert into app_public.p2000_urgencies (uuid, code, name, description, discipline_uuid, level, rank)
values (app_hidden.reference_uuid('p2000_urgency', 'OEF'), 'OEF', 'Oefening',
        'Exercises, test pages and test alarms: nobody is sent out (exerciseType says which).', null, 'exercise', 4)
on conflict (code) do nothing;
CREATE OR REPLACE FUNCTION app_hidden.p2000_enrich(message text, capcode_names text[])
 RETURNS app_hidden.p2000_enrichment
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
declare
  r app_hidden.p2000_enrichment;
  t text := btrim(regexp_replace(message, '\s+', ' ', 'g'));
  m text[];
  urgency_code text;
  discipline_name text;
  region_number text;
  all_test_codes boolean;
  place app_public.places;
  words text[];
  candidates text[];
  -- Woonplaatsen that are words of P2000 texts ("een persoon", "Kerkstraat hoek Markt", "BR winkel",
  -- "natuurbrand heide"): never a place in lower case, and in capitals only when no other is named.
  common_words constant text[] := array['een', 'hoek', 'heide', 'winkel', 'veen', 'sluis', 'zeeland', 'nederland'];
  body text;
  category_code text;
  padded text;
  spaced text;
  explicit_priority boolean := false;
begin
  -- Urgency: "P 1", "PRIO 1", "Prio 1" and a bare leading digit are P1..P3; A0..A2, B1, B2 as written.
  -- Lower-case words of the text, and the text as " word word ": keyword rules test these
  -- instead of running a regex each (PostgreSQL caches only 32 compiled regexes per session).
  words := regexp_split_to_array(btrim(regexp_replace(lower(t), '[^[:alnum:]''’ -]+', ' ', 'g')), '\s+');
  padded := ' ' || array_to_string(words, ' ') || ' ';

  m := regexp_match(t, '^(?:PRIO|P)\s*:?\s*([123])\M', 'i');
  if m is not null then
    explicit_priority := true;
    urgency_code := 'P' || m[1];
  else
    m := regexp_match(t, '^([AB])\s?([0-2])\M', 'i');
    if m is not null and upper(m[1]) || m[2] in ('A0', 'A1', 'A2', 'B1', 'B2') then
      urgency_code := upper(m[1]) || m[2];
    else
      m := regexp_match(t, '^([123])\s');
      if m is not null then urgency_code := 'P' || m[1]; end if;
    end if;
  end if;
  select u.uuid into r.urgency_uuid from app_public.p2000_urgencies u where u.code = urgency_code;

  -- Discipline and region: from the capcodes that address units (not group calls, not monitor
  -- codes), by majority; their own data first, their 4-digit block second.
  select mode() within group (order by coalesce(c.discipline_uuid, b.discipline_uuid)),
         mode() within group (order by coalesce(c.region_uuid, b.region_uuid)),
         bool_and(c.kind = 'test')
    into r.discipline_uuid, r.region_uuid, all_test_codes
    from (select distinct app_hidden.p2000_normalize_capcode(x) as name from unnest(capcode_names) x) as n
    left join app_public.p2000_capcodes c on c.name = n.name
    -- lateral: one index probe per capcode, not a hash of the whole block table per message
    left join lateral (select b.discipline_uuid, b.region_uuid from app_hidden.p2000_capcode_blocks b
                        where b.block = left(n.name, 4)) as b on true
   where n.name is not null and n.name not between '2029568' and '2029583'
     and coalesce(c.kind, app_hidden.p2000_capcode_kind(n.name, null)) in ('unit', 'test');

  if r.discipline_uuid is null then
    discipline_name := case
      when left(urgency_code, 1) in ('A', 'B') or words && array['ambu', 'lifeliner', 'traumaheli', 'mmt']
        or strpos(padded, ' dia ja ') > 0 or strpos(padded, ' directe inzet ') > 0 then 'Ambulance'
      when explicit_priority then 'Brandweer'
      when t ~ '\mB[A-Z]{2}-[0-9]{2}\M' or words && array['br', 'brandweer', 'brand'] then 'Brandweer'
      when words && array['knrm'] then 'KNRM'
      when words && array['politie'] then 'Politie'
    end;
    select d.uuid into r.discipline_uuid from app_public.p2000_disciplines d where d.name = discipline_name;
  else
    select d.name into discipline_name from app_public.p2000_disciplines d where d.uuid = r.discipline_uuid;
  end if;

  -- Fire call numbers (RRPPTV, the region first) and ambulance unit numbers (RRNNN).
  r.call_numbers := coalesce(array(
    select distinct x[1] from regexp_matches(t, '\m((?:0[1-9]|1[0-9]|2[0-5])[0-9]{4})\M', 'g') as x
     where discipline_name = 'Brandweer'), '{}');
  if r.region_uuid is null then
    -- "AMBU 17106", or the unit number right after the urgency ("A1 13108 ...").
    m := regexp_match(t, '(?:\mambu\s+|^(?:a[0-2]|b[12])\s+)((?:0[1-9]|1[0-9]|2[0-5]))[0-9]{3}\M', 'i');
    region_number := coalesce(m[1], left(r.call_numbers[1], 2));
    select g.uuid into r.region_uuid from app_public.p2000_regions g where g.number = region_number;
  end if;

  -- Tests and exercises.
  r.exercise_type := case
    when words && array['testoproep', 'testbericht', 'testpage'] or t ~* '^((p|prio)\s*[123]\s+)?test\M' then 'test'
    when strpos(lower(t), 'proefalarm') > 0 then 'proefalarm'
    when words && array['oefening', 'oefenalarm'] then 'oefening'
    when all_test_codes then 'test'
    else 'none'
  end;
  -- Exercises and tests have the exercise urgency, whatever priority their text gives (the spec's
  -- urgencies: urgent, less urgent, exercise); exercise_type keeps which kind they are.
  if r.exercise_type <> 'none' then
    select u.uuid into r.urgency_uuid from app_public.p2000_urgencies u where u.code = 'OEF';
  end if;

  m := regexp_match(t, '\mGRIP\s*([1-5])\M', 'i');
  r.grip_level := m[1]::smallint;

  m := regexp_match(t, '\m([1-9][0-9]{3}) ?([A-Z]{2})\M');
  if m is not null and m[2] not in ('SA', 'SD', 'SS') then r.postcode := m[1] || m[2]; end if;

  -- Roads: "A12 Re 45,6", "a2 li 223.5", "N59 42,3" (not the urgency code at the start: "A1 ...").
  body := regexp_replace(t, '^(?:[AB]\s?[0-2]|(?:PRIO|P)\s*:?\s*[123]|[123])\M', '', 'i');
  m := regexp_match(body, '\m([ANS])\s?([0-9]{1,3})\M', 'i');
  if m is not null then
    r.road := upper(m[1]) || m[2];
    m := regexp_match(body, '\m[ANS]\s?[0-9]{1,3}\M(?:\s+(Li|Re|HRL|HRR)\M)?[^0-9]{0,40}?\m([0-9]{1,3})[,.]([0-9])\M', 'i');
    if m is not null then
      r.hectometer := (m[2] || '.' || m[3])::double precision;
    end if;
    m := regexp_match(body, '\m(Li|Re|HRL|HRR)\M', 'i');
    r.carriageway := case upper(m[1]) when 'LI' then 'Li' when 'HRL' then 'Li' when 'RE' then 'Re' when 'HRR' then 'Re' end;
  end if;

  -- Street: a word with a Dutch street suffix, with a title word before it ("Burgemeester ...").
  -- Matched in the lower-case text (a case-insensitive match of this pattern costs twice as much),
  -- then taken from the text as written.
  m := regexp_match(lower(t),
    '((?:\m(?:burgemeester|dokter|dr\.|sint|st\.|prins|prinses|koning|koningin|graaf|professor|prof\.|van|de|den)\s+)?'
    '\m[a-zà-ÿ''’-]*(?:straat|weg|laan|plein|kade|singel|dijk|gracht|pad|dreef|hof|baan|boulevard|steeg|wal|markt|ring|allee|plantsoen|erf|haven|brug|park|oord))\M');
  if m is not null and m[1] !~ '^(auto)?snelweg$|^rijksweg$' then
    r.street := app_hidden.proper_case(substr(t, strpos(lower(t), m[1]), length(m[1])));
  end if;

  -- Place: a P2000 abbreviation (VLAARD), else the place name that ends last in the text (the
  -- longest there: the town ends the text, after its street: "Hoofdweg 12 Nieuw-Vennep"); where
  -- names repeat, the one in the message's region's province, then the biggest. A place name that
  -- may be a word of the message counts only when no other place is named: one written in lower
  -- case ("Amstelveen hoofdweg"), and the common words above in capitals ("BR WINKEL ... HOORN").
  -- The few abbreviations are tested as whole words of the text (as written: they are capitals);
  -- each found one is an index probe.
  spaced := ' ' || regexp_replace(t, '[^[:alnum:]]+', ' ', 'g') || ' ';
  select p.* into place
    from app_hidden.p2000_place_abbreviations a
    join app_hidden.place_names n on n.name = lower(a.place_name)
    join app_public.places p on p.uuid = n.place_uuid
   where strpos(spaced, ' ' || a.abbreviation || ' ') > 0
   order by p.population desc nulls last limit 1;
  if place.uuid is null then
    -- Word n-grams of the text, preferred first: the one ending last, then the longest; each is
    -- one index probe into the place names.
    candidates := array(
      select array_to_string(words[i:i + n - 1], ' ')
        from generate_subscripts(words, 1) as i, generate_series(1, 4) as n
       -- not only digits, spaces and hyphens (translate: a regex per n-gram costs more)
       where i + n - 1 <= array_length(words, 1) and translate(array_to_string(words[i:i + n - 1], ' '), '0123456789 -', '') <> ''
       order by i + n desc, n desc);
    select p.* into place
      from unnest(candidates) with ordinality as c (name, position)
      join app_hidden.place_names n on n.name = c.name
      join app_public.places p on p.uuid = n.place_uuid
      left join app_public.p2000_regions g on g.uuid = r.region_uuid
     -- (lower case as written: the name is a whole word or words of the text as it stands)
     where not (c.name = any (common_words) and strpos(spaced, ' ' || c.name || ' ') > 0)
     order by strpos(spaced, ' ' || c.name || ' ') > 0 or c.name = any (common_words),
              c.position, (p.province = g.province) desc nulls last, p.population desc nulls last
     limit 1;
  end if;
  if place.uuid is not null then
    -- A province with one safety region names the region (Zeeland, Utrecht, Flevoland, ...).
    if r.region_uuid is null then
      select min(g.uuid::text)::uuid into r.region_uuid from app_public.p2000_regions g
       where g.province = place.province having count(*) = 1;
    end if;
    r.place_uuid := place.uuid;
    r.city := place.name;
    r.latitude := place.latitude;
    r.longitude := place.longitude;
  end if;

  -- Decided once, then looked up (inside the lookup the regexes would run for every category row).
  category_code := case
    when r.exercise_type <> 'none' then 'test'
    when words && array['vws', 'dienstverlening', 'postbezetting'] or strpos(padded, ' post bezetting ') > 0 then 'dienstverlening'
    when urgency_code in ('B1', 'B2') then 'besteld_vervoer'
    when words && array['oms', 'brandmeldinstallatie', 'am'] or strpos(padded, ' automatische melding ') > 0
      or strpos(padded, ' automatische brandmelding ') > 0 or strpos(padded, ' automatisch brandalarm ') > 0 then 'automatisch_alarm'
    when words && array['gaslek', 'gaslekkage', 'gaslucht', 'ogs'] or strpos(padded, ' gevaarlijke stof') > 0 then 'gevaarlijke_stoffen'
    when words && array['waterongeval', 'ijs'] or strpos(padded, ' te water ') > 0 then 'waterongeval'
    when words && array['ongeval', 'aanrijding', 'ovw', 'wegvervoer'] then 'ongeval'
    when words && array['br', 'rookmelder'] or exists (select 1 from unnest(words) w where w like '%brand') then 'brand'
    when words && array['hv', 'hulpverlening', 'liftopsluiting', 'dier', 'stormschade', 'wateroverlast', 'nacontrole', 'assistentie'] then 'hulpverlening'
    when left(urgency_code, 1) = 'A' or discipline_name = 'Ambulance' then 'medisch'
    when words && array['klaarliggen', 'info', 'informatie'] or strpos(padded, ' contact meldkamer ') > 0 then 'informatie'
  end;
  select c.uuid into r.category_uuid from app_public.p2000_categories c where c.code = category_code;

  -- Incident number: after bon/rit/icnum, or a trailing 5-8 digit number (not for the fire
  -- brigade, whose texts end in call numbers).
  m := regexp_match(t, '\m(?:bon|rit|icnum|incident|incidentnummer)\s*:?\s*([0-9]{4,8})\M', 'i');
  r.incident_number := coalesce(m[1],
    case when discipline_name is distinct from 'Brandweer' then (regexp_match(t, '\m([0-9]{5,8})$'))[1] end);

  -- Text without what differs between retransmissions of one incident, for grouping.
  r.normalized_text := btrim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(lower(t),
    '^(prio|p)\s*:?\s*[123]\M|^[ab]\s?[0-2]\M|^[123]\s', ''),
    '\mb[a-z]{2}-[0-9]{2}\M', ' ', 'g'),
    '\m[0-9]{4,}\M|\m(bon|rit|icnum)\M|[[:punct:]]', ' ', 'g'),
    '\s+', ' ', 'g'));
  return r;
end;
$function$;

-- Stored exercises and tests take the exercise urgency too (about one message in fifty; the
-- update trigger moves their roll-up counts).
update app_public.p2000_messages m
   set urgency_uuid = app_hidden.reference_uuid('p2000_urgency', 'OEF')
 where m.exercise_type <> 'none' and m.urgency_uuid is distinct from app_hidden.reference_uuid('p2000_urgency', 'OEF');
