--! Previous: sha1:40e4d45a17093f5bdeae64db691246b2be76c63d
--! Hash: sha1:5e2864f8e2c7615888dbda777f9669efd781d6c2
--! Message: Escalations: related signals of the kinds a monitor names, and followIncident

-- Issue 45, escalations: a related signal of a kind the monitor names (relatedSignals as a list of
-- kinds), and following one incident without writing a monitor (followIncident): a monitor that
-- hears of nothing but that incident's raises.

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
  if rules ? 'relatedSignals' and jsonb_typeof(rules->'relatedSignals') <> 'boolean'
     and (jsonb_typeof(rules->'relatedSignals') <> 'array' or jsonb_array_length(rules->'relatedSignals') = 0
          or exists (select 1 from jsonb_array_elements(rules->'relatedSignals') k
                      where k not in ('"traffic_incident"', '"aircraft_landing"', '"aircraft_takeoff"', '"nl_alert"'))) then
    raise exception 'notificationRules.relatedSignals must be true, false, or a list of the kinds of signal to tell of (traffic_incident, aircraft_landing, aircraft_takeoff, nl_alert).'
      using errcode = 'XINPT';
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

comment on function app_hidden.validate_notification_rules(rules jsonb) is 'Checks notificationRules: quietHours { from, to } (Dutch time, HH:MM), minUrgency (an urgency code), maxPerDossier (1-9999), maxPerPeriod { count, minutes }, relatedSignals (true, or the kinds of signal: also tell when a signal of another feed joins a dossier already notified), language (nl or en: the language of the plain text its notifications carry), escalations (true: also tell when a dossier already notified is raised, its urgency or GRIP level) and burst { count, minutes, quietMinutes, per } (tell only of bursts of matches, P2000 monitors; not with the rules about single incidents). Anything else is refused, and every error names the rule.';

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
    -- relatedSignals: true tells of every kind, a list of the kinds in it.
    monitor_uuids := array(
      select m.uuid from app_public.monitors m
       where m.active and m.type = 'p2000'
         and (m.notification_rules @> '{"relatedSignals": true}' or m.notification_rules->'relatedSignals' ? related.kind)
         and exists (select 1 from app_hidden.monitor_matches mm
                      where mm.monitor_uuid = m.uuid and mm.dossier_uuid = candidate.uuid and mm.suppressed_reason is null)
       order by m.uuid);
    queued := queued + app_private.notify_feed_event('related_signal', signal, monitor_uuids,
                                                     app_hidden.related_signal_notification_subject(candidate, related));
  end loop;
  return queued;
end;
$$;
comment on function app_private.match_related_signal(signal uuid) is 'Matcher of feed related_signal: a traffic incident, helicopter route or NL-Alert that joins a dossier (p2000_dossier_related_signals) notifies the active P2000 monitors that notified that dossier and whose relatedSignals is true or names the signal''s kind, once per monitor and signal.';

create table if not exists app_hidden.incident_follows (
  monitor_uuid uuid primary key references app_public.monitors (uuid) on delete cascade,
  dossier_uuid uuid not null references app_public.p2000_dossiers (uuid) on delete cascade,
  created timestamptz not null default now()
);
create index if not exists incident_follows_dossier_idx on app_hidden.incident_follows (dossier_uuid);
alter table app_hidden.incident_follows enable row level security;
drop policy if exists select_current_environment on app_hidden.incident_follows;
create policy select_current_environment on app_hidden.incident_follows for select to app_visitor
  using (monitor_uuid in (select app_hidden.current_environment_monitor_uuids()));
grant select on app_hidden.incident_follows to app_visitor;
comment on table app_hidden.incident_follows is 'The monitors made by followIncident: each hears of its one incident''s raises (urgency, GRIP level) and of nothing else, so it has no P2000 criteria row; deleting the monitor (deleteMonitor, or app_private.end_stale_follows a week after the incident''s last page) ends the follow.';

create or replace function app_hidden.store_p2000_criteria(mo app_public.monitors) returns void
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  c app_hidden.p2000_monitor_criteria;
begin
  delete from app_hidden.p2000_monitor_criteria x where x.monitor_uuid = mo.uuid;
  delete from app_hidden.p2000_monitor_area_boxes b where b.monitor_uuid = mo.uuid;
  -- A follow (followIncident) matches no page: it hears of its incident's raises only.
  if mo.type = 'p2000' and mo.active and not exists (select 1 from app_hidden.incident_follows f where f.monitor_uuid = mo.uuid) then
    c := app_hidden.p2000_criteria(mo);
    insert into app_hidden.p2000_monitor_criteria select c.*;
    insert into app_hidden.p2000_monitor_area_boxes (monitor_uuid, area) select mo.uuid, b from unnest(c.area_boxes) b;
  end if;
end;
$$;
comment on function app_hidden.store_p2000_criteria(mo app_public.monitors) is 'Stores a P2000 monitor''s criteria row and the boxes of its areas while it is active (removes them otherwise, and for a follow of one incident, which matches no page): the one writer of p2000_monitor_criteria and p2000_monitor_area_boxes.';

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
  -- The incident's earlier live pages matched first (a second matching of a page records and
  -- queues nothing): their matching jobs may not have run yet when the raise's job does, and a
  -- monitor that told of them would then not be told of the raise.
  perform app_private.match_p2000_message(x.uuid)
     from app_public.p2000_messages x
    where x.dossier_uuid = e.dossier_uuid and x.uuid is distinct from e.message_uuid
      and x.sended <= e.sended and x.sended > now() - interval '1 hour'
    order by x.sended, x.uuid;
  -- The monitors that told of this incident before the message that raised it, and those that
  -- follow it (followIncident).
  return app_private.notify_feed_event('escalation', e.uuid, array(
    select x.monitor_uuid from (
      select mm.monitor_uuid
        from app_hidden.monitor_matches mm join app_public.monitors mo on mo.uuid = mm.monitor_uuid
       where mm.dossier_uuid = e.dossier_uuid and mm.suppressed_reason is null
         and mm.message_uuid is distinct from e.message_uuid
         and mo.active and mo.type = 'p2000' and mo.notification_rules @> '{"escalations": true}'
      union
      select f.monitor_uuid
        from app_hidden.incident_follows f join app_public.monitors mo on mo.uuid = f.monitor_uuid
       where f.dossier_uuid = e.dossier_uuid and mo.active) x
     order by x.monitor_uuid), app_hidden.escalation_notification_subject(d, e));
end;
$$;
comment on function app_private.match_escalation(event_uuid uuid) is 'Matcher of feed escalation (lib/monitors/matchers.ts): a raise of urgency or GRIP level on a dossier''s timeline notifies the active P2000 monitors with notificationRules.escalations that notified that dossier (an unsuppressed match of another of its messages), and the active follows of that dossier (followIncident), once per monitor and raise; quiet hours and maxPerPeriod apply as to every feed event.';

create or replace function app_accounts.follow_incident(incident text, channels text) returns uuid
  language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  d app_public.p2000_dossiers;
  existing uuid;
  monitor uuid;
begin
  select * into d from app_public.p2000_dossiers x where x.uuid = app_hidden.try_uuid(incident);
  if d.uuid is null then
    raise exception 'Incident not found.' using errcode = 'XNOTF';
  end if;
  -- Following an incident twice is following it once.
  select f.monitor_uuid into existing from app_hidden.incident_follows f join app_public.monitors mo on mo.uuid = f.monitor_uuid
   where f.dossier_uuid = d.uuid and mo.environment_uuid = environment;
  if existing is not null then
    return existing;
  end if;
  if channels is null and not exists (select 1 from app_public.channels c where c.environment_uuid = environment) then
    raise exception 'followIncident tells you on a channel: make one first (createChannel).' using errcode = 'XINPT';
  end if;
  monitor := app_accounts.save_monitor(monitor_uuid => null, location_given => false,
    name => left('Following: ' || coalesce(d.title, 'incident'), 200), description => null, active => true, type => 'p2000',
    query => '{}', latitude => null, longitude => null, location_mode => null, location_live_source_id => null, radius => null,
    -- Every channel of the environment unless the caller names some.
    channels => coalesce(channels, (select jsonb_agg(c.uuid order by c.created)::text from app_public.channels c
                                      where c.environment_uuid = environment)),
    notification_rules => '{"escalations": true}');
  insert into app_hidden.incident_follows (monitor_uuid, dossier_uuid) values (monitor, d.uuid);
  -- The monitor was stored as any P2000 monitor; as a follow it matches no page.
  perform app_hidden.store_p2000_criteria(mo) from app_public.monitors mo where mo.uuid = monitor;
  return monitor;
end;
$$;
grant execute on function app_accounts.follow_incident(text, text) to app_visitor;
comment on function app_accounts.follow_incident(incident text, channels text) is 'followIncident: "tell me when this gets worse" without writing a monitor. Makes, in the current environment, a P2000 monitor named after the incident that hears of nothing but its raises (urgency, GRIP level; app_hidden.incident_follows), on the channels given (a JSON list, as createMonitor takes) or else every channel of the environment; following it again answers the same monitor. An unknown incident is NOT_FOUND; an environment without channels is told to make one.';

create or replace function app_public.monitors_follows_incident(m app_public.monitors) returns uuid
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select f.dossier_uuid from app_hidden.incident_follows f where f.monitor_uuid = m.uuid
$$;
comment on function app_public.monitors_follows_incident(m app_public.monitors) is 'The incident (dossier uuid) a monitor made by followIncident follows; null for every other monitor.';

create or replace function app_private.end_stale_follows() returns integer
  language sql
  set search_path to pg_catalog, public, pg_temp
as $$
  with ended as (
    delete from app_public.monitors mo using app_hidden.incident_follows f join app_public.p2000_dossiers d on d.uuid = f.dossier_uuid
     where f.monitor_uuid = mo.uuid and d.last_sended < now() - interval '7 days'
    returning mo.uuid)
  select count(*)::integer from ended
$$;
comment on function app_private.end_stale_follows() is 'Task monitors__end_follows (nightly): deletes the follows (followIncident) of incidents without a page for 7 days; an incident is rarely raised after a day, and a follow left behind would only fill the monitor list.';
