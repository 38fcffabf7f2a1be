--! Previous: sha1:afc9cb1c50819f1b0d715a72c901a567006bdb08
--! Hash: sha1:af5a3c2a05ed62330b8d20a9edd5fc91857a71d7
--! Message: Escalations: a monitor is told when an incident it notified is raised

-- Issue 45, escalations: a P2000 monitor with notificationRules.escalations is told when an
-- incident it notified is raised, its urgency or its GRIP level, once per raise (the dossier's
-- timeline entry), through the same delivery path as every feed's event (feed escalation).

create or replace function app_hidden.escalation_headline(d app_public.p2000_dossiers, e app_public.p2000_dossier_events) returns text
  language sql stable parallel safe
as $$
  select case e.kind
           when 'grip_raised' then format('GRIP %s (was %s): ', e.new_value, coalesce(e.previous_value, '0'))
           else format('Urgency %s (was %s): ', e.new_value, coalesce(e.previous_value, 'none')) end
         || left(d.title, 200)
$$;
comment on function app_hidden.escalation_headline(d app_public.p2000_dossiers, e app_public.p2000_dossier_events) is 'What a raise says first: "GRIP 2 (was 1): <the incident''s title>", "Urgency A1 (was A2): …".';

create or replace function app_hidden.escalation_notification_subject(d app_public.p2000_dossiers, e app_public.p2000_dossier_events)
returns app_hidden.notification_subject
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(
    app_hidden.escalation_headline(d, e),
    array[
      format('Incident: %s', d.title),
      case e.kind when 'grip_raised' then format('GRIP level: %s (was %s)', e.new_value, coalesce(e.previous_value, '0'))
                  else format('Urgency: %s (was %s)', e.new_value, coalesce(e.previous_value, 'none')) end,
      format('When: %s (Europe/Amsterdam)', to_char(e.sended at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI')),
      format('Messages: %s', d.message_count)],
    'p2000.incident.raised',
    jsonb_build_object(
      'dossier', jsonb_build_object('uuid', d.uuid, 'title', d.title, 'latitude', d.latitude, 'longitude', d.longitude,
                                    'firstSended', d.first_sended, 'lastSended', d.last_sended, 'messageCount', d.message_count,
                                    'gripLevel', d.grip_level,
                                    'urgency', (select u.code from app_public.p2000_urgencies u where u.uuid = d.urgency_uuid)),
      'timelineEntry', jsonb_build_object('uuid', e.uuid, 'kind', e.kind, 'previousValue', e.previous_value,
                                          'newValue', e.new_value, 'sended', e.sended, 'messageUuid', e.message_uuid)))::app_hidden.notification_subject
$$;
comment on function app_hidden.escalation_notification_subject(d app_public.p2000_dossiers, e app_public.p2000_dossier_events) is 'What an escalation notification says: the raise and the incident as headline, fact lines (incident, the raise, when, messages so far), and the webhook''s dossier and timelineEntry objects (event p2000.incident.raised).';

create or replace function app_private.match_escalation(event_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  e app_public.p2000_dossier_events;
  d app_public.p2000_dossiers;
begin
  select * into e from app_public.p2000_dossier_events x where x.uuid = match_escalation.event_uuid;
  if e.uuid is null or e.kind not in ('urgency_raised', 'grip_raised') then
    return 0;
  end if;
  select * into d from app_public.p2000_dossiers x where x.uuid = e.dossier_uuid;
  -- The monitors that told of this incident before the message that raised it.
  return app_private.notify_feed_event('escalation', e.uuid, array(
    select distinct mm.monitor_uuid
      from app_hidden.monitor_matches mm join app_public.monitors mo on mo.uuid = mm.monitor_uuid
     where mm.dossier_uuid = e.dossier_uuid and mm.suppressed_reason is null
       and mm.message_uuid is distinct from e.message_uuid
       and mo.active and mo.type = 'p2000' and mo.notification_rules @> '{"escalations": true}'
     order by mm.monitor_uuid), app_hidden.escalation_notification_subject(d, e));
end;
$$;
comment on function app_private.match_escalation(event_uuid uuid) is 'Matcher of feed escalation (lib/monitors/matchers.ts): a raise of urgency or GRIP level on a dossier''s timeline notifies the active P2000 monitors with notificationRules.escalations that notified that dossier (an unsuppressed match of another of its messages), once per monitor and raise; quiet hours and maxPerPeriod apply as to every feed event.';

create or replace function app_hidden.tg_p2000_dossier_events__queue_escalations() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  live uuid[];
begin
  live := array(select n.uuid from new_events n
                 where n.kind in ('urgency_raised', 'grip_raised') and n.sended > now() - interval '1 hour' order by n.uuid);
  if cardinality(live) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'escalation', 'uuids', live), max_attempts := 10);
  end if;
  return null;
end;
$$;
comment on function app_hidden.tg_p2000_dossier_events__queue_escalations() is 'Trigger: queues the escalation matching (feed escalation) of raises of urgency or GRIP level less than an hour old; an import of old pages notifies nobody.';
drop trigger if exists _600_queue_escalations on app_public.p2000_dossier_events;
create trigger _600_queue_escalations after insert on app_public.p2000_dossier_events referencing new table as new_events
  for each statement execute function app_hidden.tg_p2000_dossier_events__queue_escalations();

CREATE OR REPLACE FUNCTION app_hidden.validate_notification_rules(rules jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  unknown text;
begin
  if jsonb_typeof(rules) is distinct from 'object' then
    raise exception 'notificationRules must be a JSON object.' using errcode = 'XINPT';
  end if;
  select string_agg(k, ', ' order by k) into unknown from jsonb_object_keys(rules) k
   where k not in ('quietHours', 'minUrgency', 'maxPerDossier', 'maxPerPeriod', 'relatedSignals', 'language', 'escalations');
  if unknown is not null then
    raise exception 'notificationRules.%: unknown rule (rules: quietHours, minUrgency, maxPerDossier, maxPerPeriod, relatedSignals, language, escalations).', unknown
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
  return rules;
end;
$function$;
comment on function app_hidden.validate_notification_rules(rules jsonb) is 'Checks notificationRules: quietHours { from, to } (Dutch time, HH:MM), minUrgency (an urgency code), maxPerDossier (1-9999), maxPerPeriod { count, minutes }, relatedSignals (true: also tell when a signal of another feed joins a dossier already notified), language (nl or en: the language of the plain text its notifications carry) and escalations (true: also tell when a dossier already notified is raised, its urgency or GRIP level). Anything else is refused, and every error names the rule.';

CREATE OR REPLACE FUNCTION app_hidden.monitor_items(item_kind text, uuids uuid[])
 RETURNS TABLE(kind text, uuid uuid, at timestamp with time zone, title text, latitude double precision, longitude double precision, link text)
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
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
  else
    return;
  end case;
end;
$function$;
