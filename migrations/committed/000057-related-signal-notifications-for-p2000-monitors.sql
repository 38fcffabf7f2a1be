--! Previous: sha1:613cb744f20c4dd5d2f33d6632ba04c673e7c9c0
--! Hash: sha1:47347a18e8f7119f9373357ebecc83ea38ca0b10
--! Message: Related-signal notifications for P2000 monitors

-- Issue 29, part 3: a monitor's rules can ask to be told when a signal of another feed joins a
-- P2000 dossier it already notified ("PH-ULP (trauma) landed near: A1 … Utrecht"), once per signal.
-- notificationRules.relatedSignals: true. A new live signal (a traffic incident of a live
-- publication, a helicopter's take-off or landing of the last hour, a new NL-Alert) queues a
-- matching job (feed related_signal); its matcher finds the dossiers of the hours before it whose
-- related signals (app_public.p2000_dossier_related_signals: the one definition) include it, and the
-- monitors with the rule that notified a message of such a dossier, and notifies them through the
-- shared path (app_private.notify_feed_event: exactly once per monitor and signal, quiet hours and
-- maxPerPeriod as for every feed).

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
   where k not in ('quietHours', 'minUrgency', 'maxPerDossier', 'maxPerPeriod', 'relatedSignals');
  if unknown is not null then
    raise exception 'notificationRules.%: unknown rule (rules: quietHours, minUrgency, maxPerDossier, maxPerPeriod, relatedSignals).', unknown
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
  return rules;
end;
$function$;
comment on function app_hidden.validate_notification_rules(rules jsonb) is 'Checks notificationRules: quietHours { from, to } (Dutch time, HH:MM), minUrgency (an urgency code), maxPerDossier (1-9999), maxPerPeriod { count, minutes } and relatedSignals (true: also tell when a signal of another feed joins a dossier already notified). Anything else is refused, and every error names the rule.';

create or replace function app_hidden.related_signal_notification_subject(d app_public.p2000_dossiers, s app_public.p2000_related_signal)
returns app_hidden.notification_subject language sql stable
set search_path to pg_catalog, public, pg_temp as $$
  select row(
    left(s.title, 120) || ' near: ' || left(d.title, 120),
    array[
      format('Incident: %s', d.title),
      format('Signal: %s', s.title),
      format('When: %s (Europe/Amsterdam)', to_char(s.at at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI')),
      format('Distance: %s', coalesce(s.distance_metres || ' m', '-'))],
    'p2000.related_signal',
    jsonb_build_object(
      'dossier', jsonb_build_object('uuid', d.uuid, 'title', d.title, 'latitude', d.latitude, 'longitude', d.longitude,
                                    'firstSended', d.first_sended),
      'signal', jsonb_build_object('kind', s.kind, 'uuid', s.uuid, 'at', s.at, 'title', s.title, 'latitude', s.latitude,
                                   'longitude', s.longitude, 'distanceMetres', s.distance_metres, 'road', s.road)))::app_hidden.notification_subject
$$;
comment on function app_hidden.related_signal_notification_subject(app_public.p2000_dossiers, app_public.p2000_related_signal) is 'What a related-signal notification says: the signal near the incident as headline, fact lines (incident, signal, time, distance), and the webhook''s dossier and signal objects.';

create or replace function app_private.match_related_signal(signal uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  signal_at timestamptz;
  longest interval;
  candidate app_public.p2000_dossiers;
  related app_public.p2000_related_signal;
  monitor_uuids uuid[];
  queued integer := 0;
begin
  select x.at into signal_at from (
    select t.sort_at as at from app_public.traffic_incidents t where t.uuid = signal
    union all
    select coalesce(r.landed_at, r.took_off_at) from app_public.aircraft_routes r where r.uuid = signal
    union all
    select n.start_at from app_public.nl_alerts n where n.uuid = signal) x
   limit 1;
  if signal_at is null then
    return 0;
  end if;
  -- A signal joins dossiers that ended at most the longest "after" window before it.
  select greatest(w.traffic_after, w.aircraft_after, w.nl_alert_after) into longest from app_hidden.related_signal_windows w;
  for candidate in
    select x.* from app_public.p2000_dossiers x
     where x.last_sended >= signal_at - longest and x.latitude is not null and x.longitude is not null
     order by x.last_sended
  loop
    select r.* into related from app_public.p2000_dossier_related_signals(app_hidden.p2000_dossier_view(candidate, null, null)) r
     where r.uuid = signal limit 1;
    continue when related.uuid is null;
    monitor_uuids := array(
      select m.uuid from app_public.monitors m
       where m.active and m.type = 'p2000' and m.notification_rules @> '{"relatedSignals": true}'
         and exists (select 1 from app_hidden.monitor_matches mm
                      where mm.monitor_uuid = m.uuid and mm.dossier_uuid = candidate.uuid and mm.suppressed_reason is null)
       order by m.uuid);
    queued := queued + app_private.notify_feed_event('related_signal', signal, monitor_uuids,
                                                     app_hidden.related_signal_notification_subject(candidate, related));
  end loop;
  return queued;
end;
$$;
comment on function app_private.match_related_signal(uuid) is 'Matcher of feed related_signal (lib/monitors/matchers.ts): notifies the P2000 monitors with notificationRules.relatedSignals that notified a dossier whose related signals (app_public.p2000_dossier_related_signals) include this new traffic incident, flight or NL-Alert, once per monitor and signal. Candidates are the dossiers with a position whose last message is within the longest related-signal window before it (p2000_dossiers_last_sended_idx).';

-- Live signals queue the matching, as each feed's own monitors do.
create or replace function app_hidden.tg_traffic_incidents__queue_related_signals() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  live uuid[];
begin
  if coalesce(current_setting('app.traffic_notify', true), '') <> 'true' then
    return null;
  end if;
  live := array(select n.uuid from new_incidents n where n.latitude is not null and n.longitude is not null order by n.uuid);
  if cardinality(live) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'related_signal', 'uuids', live),
                                    max_attempts := 10);
  end if;
  return null;
end;
$$;
comment on function app_hidden.tg_traffic_incidents__queue_related_signals() is 'Trigger: queues the related-signal matching (feed related_signal) of the new incidents of a live publication (app.traffic_notify). Old files notify nobody.';
drop trigger if exists _610_queue_related_signals on app_public.traffic_incidents;
create trigger _610_queue_related_signals after insert on app_public.traffic_incidents
  referencing new table as new_incidents for each statement execute function app_hidden.tg_traffic_incidents__queue_related_signals();

create or replace function app_hidden.tg_aircraft_events__queue_related_signals() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  live uuid[];
begin
  live := array(select distinct n.route_uuid from new_events n
                 where n.kind in ('take_off', 'landing') and n.at > now() - interval '1 hour' order by n.route_uuid);
  if cardinality(live) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'related_signal', 'uuids', live),
                                    max_attempts := 10);
  end if;
  return null;
end;
$$;
comment on function app_hidden.tg_aircraft_events__queue_related_signals() is 'Trigger: queues the related-signal matching (feed related_signal) of the flights with a take-off or landing less than an hour old; a replay of old recordings notifies nobody.';
drop trigger if exists _610_queue_related_signals on app_public.aircraft_events;
create trigger _610_queue_related_signals after insert on app_public.aircraft_events
  referencing new table as new_events for each statement execute function app_hidden.tg_aircraft_events__queue_related_signals();

create or replace function app_hidden.tg_nl_alerts__queue_related_signals() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  live uuid[];
begin
  live := array(select n.uuid from new_alerts n
                 where n.start_at > now() - interval '1 day' and coalesce(n.stop_at, 'infinity') > now() order by n.uuid);
  if cardinality(live) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'related_signal', 'uuids', live),
                                    max_attempts := 10);
  end if;
  return null;
end;
$$;
comment on function app_hidden.tg_nl_alerts__queue_related_signals() is 'Trigger: queues the related-signal matching (feed related_signal) of new NL-Alerts that started less than a day ago and still run.';
drop trigger if exists _610_queue_related_signals on app_public.nl_alerts;
create trigger _610_queue_related_signals after insert on app_public.nl_alerts
  referencing new table as new_alerts for each statement execute function app_hidden.tg_nl_alerts__queue_related_signals();
