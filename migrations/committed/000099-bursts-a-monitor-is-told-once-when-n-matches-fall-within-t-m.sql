--! Previous: sha1:60268c4b211f69f0d5e681d9950503076870a97f
--! Hash: sha1:40e4d45a17093f5bdeae64db691246b2be76c63d
--! Message: Bursts: a monitor is told once when N matches fall within T minutes

-- Issue 45, bursts: a P2000 monitor with notificationRules.burst { count, minutes, quietMinutes, per }
-- is told once when at least count of its matches fall within minutes ("three fire calls in my town
-- within 30 minutes"), with the matches in it, and again only after quietMinutes without a match.
-- Each match of such a monitor is recorded with suppressed_reason 'burst' and its burst key (per
-- monitor, per area of the monitor, or per place of the page); a burst is a row of
-- app_hidden.monitor_bursts and is told through the feeds' delivery path (feed burst). One
-- decision (app_hidden.burst_decision) serves live matching and monitorPreview's replay.

alter table app_hidden.monitor_matches add column if not exists burst_key text;
comment on column app_hidden.monitor_matches.burst_key is 'For a monitor with notificationRules.burst: which counter the match counts in (app_hidden.burst_key: empty per monitor, area:<n> or region:<uuid> per area, place:<name> per place). Null for other monitors.';

create table if not exists app_hidden.monitor_bursts (
  uuid uuid primary key default gen_random_uuid(),
  monitor_uuid uuid not null references app_public.monitors (uuid) on delete cascade,
  burst_key text not null,
  label text,
  started_at timestamptz not null,
  last_match_at timestamptz not null,
  message_uuids uuid[] not null,
  created timestamptz not null default now()
);
create index if not exists monitor_bursts_monitor_key_idx on app_hidden.monitor_bursts (monitor_uuid, burst_key, last_match_at desc);
alter table app_hidden.monitor_bursts enable row level security;
comment on table app_hidden.monitor_bursts is 'The bursts of monitors with notificationRules.burst: the messages that made the burst reach its count (the first message_uuids) and those it took in after (until quietMinutes passed without a match), per monitor and burst key. A burst is told once, when it starts (feed burst, event p2000.burst); its uuid is the notification''s event.';

create or replace function app_hidden.validate_notification_rules(rules jsonb) returns jsonb
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  unknown text;
begin
  if jsonb_typeof(rules) is distinct from 'object' then
    raise exception 'notificationRules must be a JSON object.' using errcode = 'XINPT';
  end if;
  select string_agg(k, ', ' order by k) into unknown from jsonb_object_keys(rules) k
   where k not in ('quietHours', 'minUrgency', 'maxPerDossier', 'maxPerPeriod', 'relatedSignals', 'language', 'escalations', 'burst');
  if unknown is not null then
    raise exception 'notificationRules.%: unknown rule (rules: quietHours, minUrgency, maxPerDossier, maxPerPeriod, relatedSignals, language, escalations, burst).', unknown
      using errcode = 'XINPT';
  end if;
  if rules ? 'quietHours' and (jsonb_typeof(rules->'quietHours') <> 'object'
      or coalesce(rules->'quietHours'->>'from', '') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
      or coalesce(rules->'quietHours'->>'to', '') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
      or exists (select 1 from jsonb_object_keys(rules->'quietHours') k where k not in ('from', 'to'))) then
    raise exception 'notificationRules.quietHours must be { "from": "HH:MM", "to": "HH:MM" } (Dutch time).' using errcode = 'XINPT';
  end if;
  if rules ? 'minUrgency' and not exists (select 1 from app_public.p2000_urgencies u where u.code = rules->>'minUrgency') then
    raise exception 'notificationRules.minUrgency must be an urgency code (A0, A1, A2, B1, B2, P1, P2, P3).' using errcode = 'XINPT';
  end if;
  if rules ? 'maxPerDossier' and coalesce(rules->>'maxPerDossier', '') !~ '^[1-9][0-9]{0,3}$' then
    raise exception 'notificationRules.maxPerDossier must be a whole number from 1 to 9999.' using errcode = 'XINPT';
  end if;
  if rules ? 'maxPerPeriod' and (jsonb_typeof(rules->'maxPerPeriod') <> 'object'
      or coalesce(rules->'maxPerPeriod'->>'count', '') !~ '^[1-9][0-9]{0,3}$'
      or coalesce(rules->'maxPerPeriod'->>'minutes', '') !~ '^[1-9][0-9]{0,4}$'
      or (rules->'maxPerPeriod'->>'minutes')::integer > 10080
      or exists (select 1 from jsonb_object_keys(rules->'maxPerPeriod') k where k not in ('count', 'minutes'))) then
    raise exception 'notificationRules.maxPerPeriod must be { "count": 1-9999, "minutes": 1-10080 }.' using errcode = 'XINPT';
  end if;
  if rules ? 'relatedSignals' and jsonb_typeof(rules->'relatedSignals') <> 'boolean' then
    raise exception 'notificationRules.relatedSignals must be true or false.' using errcode = 'XINPT';
  end if;
  if rules ? 'escalations' and jsonb_typeof(rules->'escalations') <> 'boolean' then
    raise exception 'notificationRules.escalations must be true or false.' using errcode = 'XINPT';
  end if;
  if rules ? 'language' and coalesce(rules->>'language', '') not in ('nl', 'en') then
    raise exception 'notificationRules.language must be nl or en.' using errcode = 'XINPT';
  end if;
  if rules ? 'burst' and (jsonb_typeof(rules->'burst') <> 'object'
      or coalesce(rules->'burst'->>'count', '') !~ '^[1-9][0-9]{0,3}$'
      or (rules->'burst'->>'count')::integer not between 2 and 1000
      or coalesce(rules->'burst'->>'minutes', '') !~ '^[1-9][0-9]{0,3}$'
      or (rules->'burst'->>'minutes')::integer > 1440
      or (rules->'burst' ? 'quietMinutes' and (coalesce(rules->'burst'->>'quietMinutes', '') !~ '^[1-9][0-9]{0,3}$'
          or (rules->'burst'->>'quietMinutes')::integer > 1440))
      or (rules->'burst' ? 'per' and coalesce(rules->'burst'->>'per', '') not in ('monitor', 'area', 'place'))
      or exists (select 1 from jsonb_object_keys(rules->'burst') k where k not in ('count', 'minutes', 'quietMinutes', 'per'))) then
    raise exception 'notificationRules.burst must be { "count": 2-1000, "minutes": 1-1440, "quietMinutes": 1-1440 (optional), "per": "monitor", "area" or "place" (optional) }.'
      using errcode = 'XINPT';
  end if;
  if rules ? 'burst' and rules ?| array['maxPerDossier', 'escalations', 'relatedSignals'] then
    raise exception 'notificationRules.burst tells of bursts, not of single incidents: it goes without maxPerDossier, escalations and relatedSignals.'
      using errcode = 'XINPT';
  end if;
  return rules;
end;
$$;
comment on function app_hidden.validate_notification_rules(rules jsonb) is 'Checks notificationRules: quietHours { from, to } (Dutch time, HH:MM), minUrgency (an urgency code), maxPerDossier (1-9999), maxPerPeriod { count, minutes }, relatedSignals (true: also tell when a signal of another feed joins a dossier already notified), language (nl or en: the language of the plain text its notifications carry), escalations (true: also tell when a dossier already notified is raised, its urgency or GRIP level) and burst { count, minutes, quietMinutes, per } (tell only of bursts of matches, P2000 monitors; not with the rules about single incidents). Anything else is refused, and every error names the rule.';

create or replace function app_hidden.area_index(areas jsonb, latitude double precision, longitude double precision) returns integer
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  area jsonb;
  i bigint;
  keys text[];
begin
  for area, i in select a, n from jsonb_array_elements(coalesce(areas, '[]')) with ordinality x (a, n) loop
    if area->>'type' = 'circle' then
      if app_hidden.distance_km((area->>'latitude')::double precision, (area->>'longitude')::double precision, latitude, longitude)
           <= (area->>'radius')::double precision then
        return i;
      end if;
    elsif area->>'type' = 'polygon' then
      if point(longitude, latitude) <@ app_hidden.geojson_ring(area->'coordinates'->0) then
        return i;
      end if;
    else
      keys := coalesce(keys, app_hidden.point_area_keys(latitude, longitude));
      if (area->>'type') || ':' || (area->>'code') = any (keys) then
        return i;
      end if;
    end if;
  end loop;
  return null;
end;
$$;
comment on function app_hidden.area_index(areas jsonb, latitude double precision, longitude double precision) is 'The position (1-based) of the first of a monitor''s checked query.areas that holds a point, or null: the area a burst per area counts a match in.';

create or replace function app_hidden.burst_key(mo app_public.monitors, m app_public.p2000_messages) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case coalesce(mo.notification_rules->'burst'->>'per', 'monitor')
           when 'place' then 'place:' || coalesce(lower(m.city), '')
           when 'area' then
             case when jsonb_array_length(coalesce(mo.query->'areas', '[]')) > 0
                    then 'area:' || coalesce(app_hidden.area_index(mo.query->'areas', m.latitude, m.longitude)::text, '')
                  when jsonb_array_length(coalesce(mo.query->'regions', '[]')) > 0
                    then 'region:' || coalesce(m.region_uuid::text, '')
                  else '' end
           else '' end
$$;
comment on function app_hidden.burst_key(mo app_public.monitors, m app_public.p2000_messages) is 'Which counter of a burst monitor a match counts in: one per monitor (per "monitor", the default, the empty key), one per area of query.areas (or safety region of query.regions) holding the page (per "area"), or one per woonplaats of the page (per "place"). A page of no known area or place counts in the key of none.';

create or replace function app_hidden.burst_label(mo app_public.monitors, burst_key text) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case
           when burst_key like 'place:%' then nullif(initcap(substr(burst_key, 7)), '')
           when burst_key like 'region:_%' then (select r.name from app_public.p2000_regions r where r.uuid::text = substr(burst_key, 8))
           when burst_key like 'area:_%' then
             (select case a->>'type'
                       when 'circle' then format('%s km around %s, %s', a->>'radius', a->>'latitude', a->>'longitude')
                       when 'polygon' then format('drawn area %s', substr(burst_key, 6))
                       else a->>'name' end
                from jsonb_array_elements(mo.query->'areas') with ordinality x (a, n) where n::text = substr(burst_key, 6))
         end
$$;
comment on function app_hidden.burst_label(mo app_public.monitors, burst_key text) is 'A burst key in words for its notification: the place, the safety region, or the monitor''s area (its name, or a circle''s radius and centre); null for a burst of the whole monitor.';

create or replace function app_hidden.burst_decision(rules jsonb, last_burst_match timestamptz, counted bigint, sended timestamptz) returns text
  language sql immutable parallel safe
as $$
  select case
           when last_burst_match is not null
                and sended - last_burst_match < pg_catalog.make_interval(mins => coalesce(rules->'burst'->>'quietMinutes', rules->'burst'->>'minutes')::integer)
             then 'absorb'
           when counted >= (rules->'burst'->>'count')::integer then 'start'
           else 'count' end
$$;
comment on function app_hidden.burst_decision(rules jsonb, last_burst_match timestamptz, counted bigint, sended timestamptz) is 'What a match does to its burst counter: absorb (a burst of the key is still going: its last match is less than quietMinutes before, default minutes), start (counted, the matches of the key within minutes up to this one since the last burst, reaches count: tell now), or count (wait). The one decision of live matching (app_private.advance_burst) and monitorPreview''s replay.';

create or replace function app_hidden.burst_notification_subject(mo app_public.monitors, b app_hidden.monitor_bursts) returns app_hidden.notification_subject
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  with pages as (
    select m.uuid, m.sended, m.message, m.latitude, m.longitude, m.city,
           app_hidden.p2000_plain_text(m, coalesce(mo.notification_rules->>'language', 'nl')) as plain_text
      from app_public.p2000_messages m where m.uuid = any (b.message_uuids)
  )
  select row(
    case coalesce(mo.notification_rules->>'language', 'nl')
      when 'en' then format('%s pages within %s minutes%s', cardinality(b.message_uuids), mo.notification_rules->'burst'->>'minutes',
                            coalesce(' in ' || b.label, ''))
      else format('%s meldingen binnen %s minuten%s', cardinality(b.message_uuids), mo.notification_rules->'burst'->>'minutes',
                  coalesce(' in ' || b.label, '')) end,
    array(select format('%s %s', to_char(p.sended at time zone 'Europe/Amsterdam', 'HH24:MI'), p.plain_text)
            from pages p order by p.sended, p.uuid limit 10),
    'p2000.burst',
    jsonb_build_object('burst', jsonb_build_object(
      'uuid', b.uuid, 'monitorUuid', mo.uuid, 'count', cardinality(b.message_uuids),
      'minutes', (mo.notification_rules->'burst'->>'minutes')::integer,
      'per', coalesce(mo.notification_rules->'burst'->>'per', 'monitor'), 'label', b.label,
      'startedAt', b.started_at, 'lastMatchAt', b.last_match_at,
      'messages', (select jsonb_agg(jsonb_build_object('uuid', p.uuid, 'sended', p.sended, 'message', p.message,
                                                       'plainText', p.plain_text, 'city', p.city,
                                                       'latitude', p.latitude, 'longitude', p.longitude) order by p.sended, p.uuid)
                     from pages p))))::app_hidden.notification_subject
$$;
comment on function app_hidden.burst_notification_subject(mo app_public.monitors, b app_hidden.monitor_bursts) is 'What a burst notification says, in the monitor''s language: "3 pages within 30 minutes in Oss" as headline, a line per page (time and plain text, the first 10), and the webhook''s burst object with every page (event p2000.burst).';

create or replace function app_private.advance_burst(mo app_public.monitors, m app_public.p2000_messages) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  key text;
  open_burst app_hidden.monitor_bursts;
  since timestamptz;
  counted uuid[];
  b app_hidden.monitor_bursts;
begin
  select x.burst_key into key from app_hidden.monitor_matches x
   where x.monitor_uuid = mo.uuid and x.message_uuid = m.uuid and x.suppressed_reason = 'burst';
  if not found then
    return 0;
  end if;
  select * into open_burst from app_hidden.monitor_bursts x
   where x.monitor_uuid = mo.uuid and x.burst_key = key order by x.last_match_at desc limit 1;
  since := greatest(m.sended - make_interval(mins => (mo.notification_rules->'burst'->>'minutes')::integer), open_burst.last_match_at);
  counted := array(select x.message_uuid from app_hidden.monitor_matches x
                    where x.monitor_uuid = mo.uuid and x.suppressed_reason = 'burst' and x.burst_key = key
                      and x.sended > since and x.sended <= m.sended
                    order by x.sended, x.message_uuid);
  case app_hidden.burst_decision(mo.notification_rules, open_burst.last_match_at, cardinality(counted), m.sended)
  when 'absorb' then
    update app_hidden.monitor_bursts x set last_match_at = greatest(x.last_match_at, m.sended), message_uuids = x.message_uuids || m.uuid
     where x.uuid = open_burst.uuid;
    return 0;
  when 'start' then
    insert into app_hidden.monitor_bursts (monitor_uuid, burst_key, label, started_at, last_match_at, message_uuids)
    values (mo.uuid, key, app_hidden.burst_label(mo, key), m.sended, m.sended, counted)
    returning * into b;
    return app_private.notify_feed_event('burst', b.uuid, array[mo.uuid], app_hidden.burst_notification_subject(mo, b));
  else
    return 0;
  end case;
end;
$$;
comment on function app_private.advance_burst(mo app_public.monitors, m app_public.p2000_messages) is 'A burst monitor''s new match of a message (recorded as suppressed_reason burst with its key): taken into the key''s burst still going, or, when it brings the key''s matches within minutes (since its last burst) to count, the start of a burst, told at once through app_private.notify_feed_event (feed burst; quietHours and maxPerPeriod apply to it). The caller holds the monitor''s advisory lock, so two matchers never start one burst twice.';

create or replace function app_hidden.monitor_suppression(mo app_public.monitors, m app_public.p2000_messages) returns text
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce((select s from app_hidden.p2000_message_suppression(mo.notification_rules, m, now()) s),
    case when mo.notification_rules ? 'burst' then 'burst' end,
    app_hidden.p2000_throttle_suppression(mo.notification_rules, m.dossier_uuid is not null,
      (select count(*) from app_hidden.monitor_matches x
        where x.monitor_uuid = mo.uuid and x.dossier_uuid = m.dossier_uuid and x.suppressed_reason is null),
      (select count(*) from app_hidden.monitor_matches x
        where x.monitor_uuid = mo.uuid and x.suppressed_reason is null
          and x.matched_at > now() - make_interval(mins => (mo.notification_rules->'maxPerPeriod'->>'minutes')::integer))))
$$;
comment on function app_hidden.monitor_suppression(mo app_public.monitors, m app_public.p2000_messages) is 'Why a live P2000 match notifies nobody by itself, or null. The message''s own rules are checked now; a burst monitor''s match that passes them is burst (it counts towards a burst, app_private.advance_burst); else the throttles over the monitor''s recorded matches, counted only when the rule is reached.';

create or replace function app_private.match_p2000_message(message_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  m app_public.p2000_messages;
  matched uuid[];
  queued integer;
begin
  select * into m from app_public.p2000_messages x where x.uuid = match_p2000_message.message_uuid;
  if m.uuid is null then
    return 0;
  end if;
  matched := array(select u from unnest(app_hidden.p2000_matching_monitors(m)) u
                    where not exists (select 1 from app_hidden.monitor_matches mm where mm.monitor_uuid = u and mm.message_uuid = m.uuid)
                    order by u);
  if cardinality(matched) = 0 then
    return 0;
  end if;
  -- Throttles and bursts count earlier matches of the same monitor: one matcher per such monitor
  -- at a time, locked in a statement of its own so the next statement's snapshot sees what the
  -- last holder committed.
  perform pg_advisory_xact_lock(hashtext('monitor:' || mo.uuid))
     from app_public.monitors mo where mo.uuid = any (matched) and mo.notification_rules <> '{}' order by mo.uuid;
  with new_matches as (
    insert into app_hidden.monitor_matches (monitor_uuid, message_uuid, dossier_uuid, sended, suppressed_reason, burst_key)
    select mo.uuid, m.uuid, m.dossier_uuid, m.sended,
           case when mo.notification_rules <> '{}' then app_hidden.monitor_suppression(mo, m) end,
           case when mo.notification_rules ? 'burst' then app_hidden.burst_key(mo, m) end
      from app_public.monitors mo where mo.uuid = any (matched)
    on conflict do nothing
    returning monitor_uuid, suppressed_reason
  ), new_notifications as (
    insert into app_private.notifications (monitor_uuid, channel_uuid, message_uuid, dossier_uuid)
    select nm.monitor_uuid, mc.channel_uuid, m.uuid, m.dossier_uuid
      from new_matches nm join app_hidden.monitor_channels mc on mc.monitor_uuid = nm.monitor_uuid
     where nm.suppressed_reason is null
    on conflict do nothing
    returning uuid
  )
  select count(*)::integer into queued from graphile_worker.add_jobs(array(
    select row('notifications__deliver', json_build_object('uuid', n.uuid), null, null, 6, 'notification:' || n.uuid, null, null)::graphile_worker.job_spec
      from new_notifications n));
  -- The burst monitors' matches just recorded, each taken into its burst (a statement of its own,
  -- so it sees them).
  select queued + coalesce(sum(app_private.advance_burst(mo, m)), 0)::integer into queued
    from app_public.monitors mo where mo.uuid = any (matched) and mo.notification_rules ? 'burst';
  return queued;
end;
$$;
comment on function app_private.match_p2000_message(uuid) is 'The matcher of P2000 monitors (task monitors__match_p2000): candidates by the criteria''s anchor keys, each checked by app_hidden.p2000_criteria_match (which monitorPreview uses too); records the matches and queues one delivery per monitor and channel in one set-based transaction, and takes a burst monitor''s match into its burst (app_private.advance_burst). A second run queues nothing; monitors with rules are locked one matcher at a time, so their counts see each other''s matches.';

create or replace function app_hidden.monitor_items(item_kind text, uuids uuid[])
  returns table(kind text, uuid uuid, at timestamp with time zone, title text, latitude double precision, longitude double precision, link text)
  language plpgsql stable
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  case item_kind
  when 'p2000' then
    return query
      select 'p2000', m.uuid, m.sended, m.message, m.latitude, m.longitude, null::text
        from app_public.p2000_messages m where m.uuid = any (uuids);
  when 'traffic' then
    -- An incident event, of the type the event was about.
    return query
      select 'traffic', e.uuid, e.created, concat_ws(' ', e.kind, e.type, i.road_number), i.latitude, i.longitude, null::text
        from app_public.traffic_incident_events e join app_public.traffic_incidents i on i.uuid = e.incident_uuid
       where e.uuid = any (uuids);
  when 'meteo' then
    return query
      select 'meteo', e.uuid, e.created, concat_ws(' ', p.name, e.level, array_to_string(e.phenomena, ', ')),
             null::double precision, null::double precision, null::text
        from app_public.meteo_warning_events e join app_public.meteo_provinces p on p.uuid = e.province_uuid
       where e.uuid = any (uuids);
  when 'nl_alert' then
    -- The message's first part (the Dutch text), placed at the centre of its first area.
    return query
      select 'nl_alert', a.uuid, a.start_at, left(btrim(split_part(a.message, '***', 1)), 140),
             (@@ a.areas[1])[1], (@@ a.areas[1])[0], null::text
        from app_public.nl_alerts a where a.uuid = any (uuids);
  when 'amber_alert', 'amber_alert_end' then
    -- The issue at its start, the end at its end.
    return query
      select item_kind, a.uuid,
             case item_kind when 'amber_alert' then a.started_at else coalesce(a.ended_at, a.changed) end,
             concat_ws(' ', coalesce(a.title, (app_hidden.amber_alert_label(a.level)).label),
                       case item_kind when 'amber_alert_end' then '(ended)' end),
             null::double precision, null::double precision, a.read_more_url
        from app_public.amber_alerts a where a.uuid = any (uuids);
  when 'aircraft' then
    return query
      select 'aircraft', e.uuid, e.at, concat_ws(' ', f.registration, e.kind, e.place), e.latitude, e.longitude, null::text
        from app_public.aircraft_events e join app_public.aircraft_fleet f on f.icao = e.icao
       where e.uuid = any (uuids);
  when 'traffic_jam' then
    -- As the jam is now: no history of its delay is kept.
    return query
      select 'traffic_jam', j.uuid, j.first_seen_at,
             concat_ws(' ', j.road_number, j.jam_type, j.delay_minutes || ' min', j.queue_length_m || ' m'), j.latitude,
             j.longitude, null::text
        from app_public.traffic_jams j where j.uuid = any (uuids);
  when 'rail' then
    -- When it became news: first seen, or its start if later.
    return query
      select 'rail', d.uuid, greatest(d.first_seen_at, d.start_at), d.title, null::double precision, null::double precision,
             null::text
        from app_public.rail_disruptions d where d.uuid = any (uuids);
  when 'rss' then
    return query
      select 'rss', i.uuid, i.first_seen_at, coalesce(i.title, i.link), i.latitude, i.longitude, i.link
        from app_public.rss_feed_items i where i.uuid = any (uuids);
  when 'related_signal' then
    -- A traffic incident, a flight or an NL-Alert that joined a dossier the monitor notified.
    return query
      select 'related_signal', t.uuid, t.sort_at, concat_ws(' ', t.type, t.road_number), t.latitude, t.longitude, null::text
        from app_public.traffic_incidents t where t.uuid = any (uuids)
      union all
      select 'related_signal', r.uuid, coalesce(r.landed_at, r.took_off_at, r.first_seen_at),
             concat_ws(' ', f.registration, case when r.landed_at is not null then 'landing' else 'take-off' end,
                       case when r.landed_at is not null then r.end_place else r.start_place end),
             case when r.landed_at is not null then r.end_latitude else r.start_latitude end,
             case when r.landed_at is not null then r.end_longitude else r.start_longitude end, null::text
        from app_public.aircraft_routes r left join app_public.aircraft_fleet f on f.icao = r.icao
       where r.uuid = any (uuids)
      union all
      select 'related_signal', x.uuid, x.at, x.title, x.latitude, x.longitude, x.link
        from app_hidden.monitor_items('nl_alert', uuids) x;
  when 'escalation' then
    -- A raise of urgency or GRIP level of an incident the monitor notified (its timeline entry).
    return query
      select 'escalation', e.uuid, e.sended, app_hidden.escalation_headline(d, e), d.latitude, d.longitude, null::text
        from app_public.p2000_dossier_events e join app_public.p2000_dossiers d on d.uuid = e.dossier_uuid
       where e.uuid = any (uuids);
  when 'burst' then
    -- A burst, at its start and at the place of the page that started it.
    return query
      select 'burst', b.uuid, b.started_at, (app_hidden.burst_notification_subject(mo, b)).headline, m.latitude, m.longitude, null::text
        from app_hidden.monitor_bursts b join app_public.monitors mo on mo.uuid = b.monitor_uuid
             left join app_public.p2000_messages m on m.uuid = b.message_uuids[cardinality(b.message_uuids)]
       where b.uuid = any (uuids);
  else
    return;
  end case;
end;
$$;
comment on function app_hidden.monitor_items(item_kind text, uuids uuid[]) is 'The items of one kind (p2000, traffic, meteo, nl_alert, amber_alert, amber_alert_end, aircraft, traffic_jam, rail, rss, related_signal, escalation, burst) by uuid, with time, title and place: the one definition of what a monitor''s feed and monitorPreview show of an item.';

-- monitorPreview shows the bursts a burst monitor would have sent (its new output bursts), replayed
-- through live matching's decision; an output column is added, so the function is made again.
drop function if exists app_hidden.monitor_preview(integer, boolean, text, text, boolean, text, text, double precision, double precision, text, text, double precision, text, text);
create function app_hidden.monitor_preview(days integer, location_given boolean, name text, description text, active boolean, type text, query text, latitude double precision, longitude double precision, location_mode text, location_live_source_id text, radius double precision, channels text, notification_rules text, OUT matches integer, OUT notifications integer, OUT by_day jsonb, OUT message_uuids uuid[], OUT items jsonb, OUT bursts jsonb)
 RETURNS record
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
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
  feed_uuids uuid[];
  feed_ats timestamptz[];
  newest uuid[];
  -- The burst replay: per burst key, the uncounted matches within minutes ([time, uuid] pairs) and
  -- the index of its last burst; the bursts as parallel arrays.
  pending jsonb := '{}';
  last_burst jsonb := '{}';
  key text;
  b integer;
  burst_keys text[] := '{}';
  burst_starts timestamptz[] := '{}';
  burst_lasts timestamptz[] := '{}';
  burst_sizes integer[] := '{}';
  burst_messages jsonb[] := '{}';
  burst_reasons text[] := '{}';
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
    -- A feed monitor: its items in time order, kept as two arrays (a busy RSS monitor matches
    -- tens of thousands of items in 30 days: no object per item), and the newest 500 as the
    -- answer's items, in one pass; quiet hours at each item's time (minUrgency and maxPerDossier
    -- are P2000's); no dossiers.
    select coalesce(array_agg(f.uuid order by f.at, f.uuid), '{}'), coalesce(array_agg(f.at order by f.at, f.uuid), '{}'),
           coalesce(jsonb_agg(jsonb_build_object('kind', f.kind, 'uuid', f.uuid, 'at', f.at, 'title', f.title,
                                'latitude', f.latitude, 'longitude', f.longitude) order by f.at desc, f.uuid desc)
                      filter (where f.newest <= 500), '[]')
      into feed_uuids, feed_ats, items
      from (select f.*, row_number() over (order by f.at desc, f.uuid desc) as newest
              from app_hidden.monitor_preview_feed_items(mo, since) f) f;
    matched := $query$
      select m.uuid, m.sended, null::uuid as dossier_uuid,
             case when app_hidden.in_quiet_hours($3, m.sended) then 'quiet_hours' end as reason
        from unnest($10::uuid[], $11::timestamptz[]) m (uuid, sended)
      $query$;
  end if;

  -- Bursts (P2000 monitors with notificationRules.burst) are replayed as live matching meets the
  -- matches, in time order, through the same decision (app_hidden.burst_decision): each match that
  -- the message's own rules let through counts in its key; the match that starts a burst is the
  -- burst's notification, unless maxPerPeriod holds it back.
  if mo.type = 'p2000' and rules ? 'burst' then
    period := make_interval(mins => coalesce((rules->'maxPerPeriod'->>'minutes')::integer, 1));
    for r in execute format('select x.uuid, x.sended, x.reason, app_hidden.burst_key($12, m) as key from (%s) x join app_public.p2000_messages m on m.uuid = x.uuid order by x.sended, x.uuid', matched)
      using c, since, rules, capcode_uuids, null::uuid[], null::timestamptz[], null::text[], first_day, monitor_preview.days, feed_uuids, feed_ats, mo
    loop
      reason := r.reason;
      if reason is null then
        reason := 'burst';
        key := r.key;
        b := (last_burst->>key)::integer;
        pending := jsonb_set(pending, array[key], coalesce((
          select jsonb_agg(p order by n) from jsonb_array_elements(pending->key) with ordinality x (p, n)
           where (p->>0)::timestamptz > greatest(r.sended - make_interval(mins => (rules->'burst'->>'minutes')::integer), burst_lasts[b])), '[]')
          || jsonb_build_array(jsonb_build_array(r.sended, r.uuid)));
        case app_hidden.burst_decision(rules, burst_lasts[b], jsonb_array_length(pending->key), r.sended)
        when 'absorb' then
          burst_lasts[b] := r.sended;
          burst_sizes[b] := burst_sizes[b] + 1;
          pending := jsonb_set(pending, array[key], '[]');
        when 'start' then
          b := cardinality(burst_keys) + 1;
          burst_keys[b] := key;
          burst_starts[b] := r.sended;
          burst_lasts[b] := r.sended;
          burst_sizes[b] := jsonb_array_length(pending->key);
          burst_messages[b] := (select jsonb_agg(p->1) from jsonb_array_elements(pending->key) p);
          last_burst := jsonb_set(last_burst, array[key], to_jsonb(b));
          pending := jsonb_set(pending, array[key], '[]');
          while window_start <= cardinality(notified_at) and notified_at[window_start] <= r.sended - period loop
            window_start := window_start + 1;
          end loop;
          reason := app_hidden.p2000_throttle_suppression(rules, false, 0, cardinality(notified_at) - window_start + 1);
          if reason is null then
            notified_at[cardinality(notified_at) + 1] := r.sended;
          end if;
          burst_reasons[b] := reason;
        else
        end case;
      end if;
      uuids[cardinality(uuids) + 1] := r.uuid;
      sendeds[cardinality(sendeds) + 1] := r.sended;
      reasons[cardinality(reasons) + 1] := reason;
    end loop;
    matched := 'select * from unnest($5::uuid[], $6::timestamptz[], $7::text[]) m (uuid, sended, reason)';
    -- The newest 200 bursts, newest first.
    bursts := coalesce((select jsonb_agg(jsonb_build_object('startedAt', burst_starts[i], 'lastMatchAt', burst_lasts[i],
                                                            'matches', burst_sizes[i], 'label', app_hidden.burst_label(mo, burst_keys[i]),
                                                            'notified', burst_reasons[i] is null, 'suppressedReason', burst_reasons[i],
                                                            'messageUuids', burst_messages[i]) order by i desc)
                          from generate_series(greatest(cardinality(burst_keys) - 199, 1), cardinality(burst_keys)) i), '[]');
  elsif rules ?| array['maxPerDossier', 'maxPerPeriod'] then
    period := make_interval(mins => (rules->'maxPerPeriod'->>'minutes')::integer);
    for r in execute format('select x.uuid, x.sended, x.dossier_uuid, x.reason, dense_rank() over (order by x.dossier_uuid)::integer as dossier from (%s) x order by x.sended, x.uuid', matched)
      using c, since, rules, capcode_uuids, null::uuid[], null::timestamptz[], null::text[], first_day, monitor_preview.days, feed_uuids, feed_ats
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
    using c, since, rules, capcode_uuids, uuids, sendeds, reasons, first_day, monitor_preview.days, feed_uuids, feed_ats;

  bursts := coalesce(bursts, '[]');
  -- The newest 500 matches with time and place, newest first.
  if mo.type = 'p2000' then
    message_uuids := newest[1:20];
    items := coalesce((select jsonb_agg(jsonb_build_object('kind', 'p2000', 'uuid', m.uuid, 'at', m.sended,
                         'title', m.message, 'latitude', m.latitude, 'longitude', m.longitude) order by m.sended desc, m.uuid desc)
                         from app_public.p2000_messages m where m.uuid = any (newest)), '[]');
  else
    -- The items were made with the matches.
    message_uuids := '{}';
  end if;
end;
$function$;

comment on function app_hidden.monitor_preview(integer, boolean, text, text, boolean, text, text, double precision,
  double precision, text, text, double precision, text, text) is
  'monitorPreview (plugins/monitor-preview.ts). It checks the arguments of createMonitor (app_hidden.checked_monitor) and replays the last days (1-90) of stored history: the matches and the notifications its rules let through, in total and per day, the newest 20 matched messages, and for a burst monitor the bursts (each told once, when it starts). It uses the same criteria and rules as live matching (bursts through app_hidden.burst_decision), and its throttles count the preview''s own earlier notifications. The match query is built with the criteria as constants, so the planner chooses by statistics between the window''s index and a criterion''s own. It writes nothing.';
