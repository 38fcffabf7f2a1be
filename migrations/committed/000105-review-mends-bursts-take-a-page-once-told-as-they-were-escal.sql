--! Previous: sha1:41afea0281be484546a93ec403bd48b334fef9bf
--! Hash: sha1:80149d007963e9b548febc443f1db7c0b51692f8
--! Message: Review mends: bursts take a page once, told as they were; escalations' words once, in the feed's language; one follow at a time

-- Review of issue 45's change (mends, behaviour kept except where said):
-- * A burst took a page in twice when two matchers met the same page (a page's own job and the
--   re-matching of an escalation): only the matches a run inserted go to their burst now, with the
--   key they were recorded with, and a burst never takes a page it holds.
-- * A burst's feed item said it from its whole notification subject (every page in plain words)
--   on every read, counted the pages taken in after it was told, and stood at its latest page: its
--   headline is a function of its own now, of the pages told (told_count), at its first page.
-- * An escalation's subject built both languages' facts as near-copies and wrote the raise's
--   words twice; the matcher rendered both languages even for nobody. What a raise changed is one
--   function, the headline is the feed's, and only the languages of the monitors told are rendered.
-- * The feed per monitor said a raise in English whatever the monitor's language: monitor_items
--   takes the feed's language.
-- * followIncident made two monitors when called twice at once: one call at a time per incident.

alter table app_hidden.monitor_bursts add column if not exists told_count integer;
update app_hidden.monitor_bursts set told_count = cardinality(message_uuids) where told_count is null;
alter table app_hidden.monitor_bursts alter column told_count set not null;
comment on column app_hidden.monitor_bursts.told_count is 'How many pages the burst''s notification told of (the first told_count of message_uuids); its headline says this number however many pages it takes in after.';

create or replace function app_hidden.burst_headline(mo app_public.monitors, b app_hidden.monitor_bursts) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select format(case coalesce(mo.notification_rules->>'language', 'nl')
                  when 'en' then '%s pages within %s minutes%s' else '%s meldingen binnen %s minuten%s' end,
                b.told_count, mo.notification_rules->'burst'->>'minutes', coalesce(' in ' || b.label, ''))
$$;
comment on function app_hidden.burst_headline(mo app_public.monitors, b app_hidden.monitor_bursts) is 'What a burst says first, in the monitor''s language: "3 pages within 30 minutes in Oss" / "3 meldingen binnen 30 minuten in Oss". Its notification''s headline and its item in the monitor''s feed.';

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
    app_hidden.burst_headline(mo, b),
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
comment on function app_hidden.burst_notification_subject(mo app_public.monitors, b app_hidden.monitor_bursts) is 'What a burst notification says, in the monitor''s language: its headline (app_hidden.burst_headline), a line per page (time and plain text, the first 10), and the webhook''s burst object with every page (event p2000.burst). Rendered when the burst starts.';

drop function if exists app_private.advance_burst(app_public.monitors, app_public.p2000_messages);
create or replace function app_private.advance_burst(mo app_public.monitors, m app_public.p2000_messages, key text) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  open_burst app_hidden.monitor_bursts;
  since timestamptz;
  counted uuid[];
  b app_hidden.monitor_bursts;
begin
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
     where x.uuid = open_burst.uuid and m.uuid <> all (x.message_uuids);
    return 0;
  when 'start' then
    insert into app_hidden.monitor_bursts (monitor_uuid, burst_key, label, started_at, last_match_at, message_uuids, told_count)
    values (mo.uuid, key, app_hidden.burst_label(mo, key), m.sended, m.sended, counted, cardinality(counted))
    returning * into b;
    return app_private.notify_feed_event('burst', b.uuid, array[mo.uuid], app_hidden.burst_notification_subject(mo, b));
  else
    return 0;
  end case;
end;
$$;
comment on function app_private.advance_burst(mo app_public.monitors, m app_public.p2000_messages, key text) is 'A burst monitor''s match of a message, just recorded (suppressed_reason burst) in the counter of key: taken into the key''s burst still going (once), or, when it brings the key''s matches within minutes (since its last burst) to count, the start of a burst, told at once through app_private.notify_feed_event (feed burst; quietHours and maxPerPeriod apply to it). The caller holds the monitor''s advisory lock, so two matchers never start one burst twice.';

create or replace function app_private.match_p2000_message(message_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  m app_public.p2000_messages;
  matched uuid[];
  queued integer;
  burst_monitors uuid[];
  burst_keys text[];
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
    returning monitor_uuid, suppressed_reason, burst_key
  ), new_notifications as (
    insert into app_private.notifications (monitor_uuid, channel_uuid, message_uuid, dossier_uuid)
    select nm.monitor_uuid, mc.channel_uuid, m.uuid, m.dossier_uuid
      from new_matches nm join app_hidden.monitor_channels mc on mc.monitor_uuid = nm.monitor_uuid
     where nm.suppressed_reason is null
    on conflict do nothing
    returning uuid
  )
  select (select count(*)::integer from graphile_worker.add_jobs(array(
            select row('notifications__deliver', json_build_object('uuid', n.uuid), null, null, 6, 'notification:' || n.uuid, null, null)::graphile_worker.job_spec
              from new_notifications n))),
         array(select nm.monitor_uuid from new_matches nm where nm.suppressed_reason = 'burst' order by nm.monitor_uuid),
         array(select nm.burst_key from new_matches nm where nm.suppressed_reason = 'burst' order by nm.monitor_uuid)
    into queued, burst_monitors, burst_keys;
  -- The burst monitors' matches this run recorded (not another's that met the same page), each
  -- taken into its burst: a statement of its own, so it sees them.
  select queued + coalesce(sum(app_private.advance_burst(mo, m, b.key)), 0)::integer into queued
    from unnest(burst_monitors, burst_keys) b (monitor_uuid, key) join app_public.monitors mo on mo.uuid = b.monitor_uuid;
  return queued;
end;
$$;
comment on function app_private.match_p2000_message(uuid) is 'The matcher of P2000 monitors (task monitors__match_p2000): candidates by the criteria''s anchor keys, each checked by app_hidden.p2000_criteria_match (which monitorPreview uses too); records the matches and queues one delivery per monitor and channel in one set-based transaction, and takes a burst monitor''s match it recorded into its burst (app_private.advance_burst). A second run queues nothing; monitors with rules are locked one matcher at a time, so their counts see each other''s matches.';

drop function if exists app_hidden.escalation_headline(app_public.p2000_dossiers, app_public.p2000_dossier_events, text);

create or replace function app_hidden.escalation_change(e app_public.p2000_dossier_events, language text) returns text
  language sql immutable parallel safe
as $$
  select pg_catalog.format('%s (was %s)', e.new_value,
           coalesce(e.previous_value, case when e.kind = 'grip_raised' then '0' when language = 'nl' then 'geen' else 'none' end))
$$;
comment on function app_hidden.escalation_change(e app_public.p2000_dossier_events, language text) is 'What a raise changed, in a language (nl or en): "2 (was 1)", "A1 (was A2)", "A1 (was none)" / "A1 (was geen)". An escalation''s headline and its fact line say it after their own word for what was raised.';

create or replace function app_hidden.escalation_headline(d app_public.p2000_dossiers, e app_public.p2000_dossier_events, language text)
returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case when e.kind = 'grip_raised' then 'GRIP' when language = 'nl' then 'Urgentie' else 'Urgency' end
         || ' ' || app_hidden.escalation_change(e, language) || ': '
         || left(coalesce(app_hidden.escalation_plain_text(e, language), d.title), 200)
$$;
comment on function app_hidden.escalation_headline(d app_public.p2000_dossiers, e app_public.p2000_dossier_events, language text) is 'What a raise says first, in a language (nl or en): "GRIP 2 (was 1): <the raising page in plain words>", "Urgency A1 (was A2): …" / "Urgentie A1 (was A2): …". An escalation''s notification headline and its item in a monitor''s feed (in the monitor''s language).';

create or replace function app_hidden.escalation_notification_subject(d app_public.p2000_dossiers, e app_public.p2000_dossier_events, language text)
returns app_hidden.notification_subject
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(
    app_hidden.escalation_headline(d, e, language),
    array[
      format('Incident: %s', coalesce(x.plain_text, d.title)),
      case when e.kind = 'grip_raised' and language = 'nl' then 'GRIP-niveau: ' when e.kind = 'grip_raised' then 'GRIP level: '
           when language = 'nl' then 'Urgentie: ' else 'Urgency: ' end || app_hidden.escalation_change(e, language),
      format(case language when 'nl' then 'Wanneer: %s' else 'When: %s (Europe/Amsterdam)' end,
             to_char(e.sended at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI')),
      format(case language when 'nl' then 'Berichten: %s' else 'Messages: %s' end, d.message_count)],
    'p2000.incident.raised',
    jsonb_build_object(
      'dossier', jsonb_build_object('uuid', d.uuid, 'title', d.title, 'latitude', d.latitude, 'longitude', d.longitude,
                                    'firstSended', d.first_sended, 'lastSended', d.last_sended, 'messageCount', d.message_count,
                                    'gripLevel', d.grip_level,
                                    'urgency', (select u.code from app_public.p2000_urgencies u where u.uuid = d.urgency_uuid),
                                    'plainText', x.plain_text, 'language', language),
      'timelineEntry', jsonb_build_object('uuid', e.uuid, 'kind', e.kind, 'previousValue', e.previous_value,
                                          'newValue', e.new_value, 'sended', e.sended, 'messageUuid', e.message_uuid)))::app_hidden.notification_subject
    from (select app_hidden.escalation_plain_text(e, language) as plain_text) x
$$;
comment on function app_hidden.escalation_notification_subject(d app_public.p2000_dossiers, e app_public.p2000_dossier_events, language text) is 'What an escalation notification says, in the monitor''s language: its headline (app_hidden.escalation_headline), fact lines (incident in plain words, the raise, when, messages so far), and the webhook''s dossier (with plainText and language) and timelineEntry objects (event p2000.incident.raised).';

create or replace function app_private.match_escalation(event_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  e app_public.p2000_dossier_events;
  d app_public.p2000_dossiers;
  told uuid[];
  language text;
  queued integer := 0;
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
  told := array(
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
     order by x.monitor_uuid);
  -- Said once per language of the monitors told, to the monitors of that language.
  for language in
    select distinct coalesce(mo.notification_rules->>'language', 'nl') from app_public.monitors mo where mo.uuid = any (told)
  loop
    queued := queued + app_private.notify_feed_event('escalation', e.uuid, array(
      select mo.uuid from app_public.monitors mo
       where mo.uuid = any (told) and coalesce(mo.notification_rules->>'language', 'nl') = language order by mo.uuid),
      app_hidden.escalation_notification_subject(d, e, language));
  end loop;
  return queued;
end;
$$;
comment on function app_private.match_escalation(event_uuid uuid) is 'Matcher of feed escalation (lib/monitors/matchers.ts): a raise of urgency or GRIP level on a dossier''s timeline notifies the active P2000 monitors with notificationRules.escalations that notified that dossier (an unsuppressed match of another of its messages), and the active follows of that dossier (followIncident), once per monitor and raise, in each monitor''s language (rendered only for the languages of the monitors told); quiet hours and maxPerPeriod apply as to every feed event.';

drop function if exists app_hidden.monitor_items(text, uuid[]);
create or replace function app_hidden.monitor_items(item_kind text, uuids uuid[], language text default 'nl')
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
      select 'escalation', e.uuid, e.sended, app_hidden.escalation_headline(d, e, language), d.latitude, d.longitude, null::text
        from app_public.p2000_dossier_events e join app_public.p2000_dossiers d on d.uuid = e.dossier_uuid
       where e.uuid = any (uuids);
  when 'burst' then
    -- A burst as it was told (its headline in the monitor's own language), at its start and at
    -- the place of its first page.
    return query
      select 'burst', b.uuid, b.started_at, app_hidden.burst_headline(mo, b), m.latitude, m.longitude, null::text
        from app_hidden.monitor_bursts b join app_public.monitors mo on mo.uuid = b.monitor_uuid
             left join app_public.p2000_messages m on m.uuid = b.message_uuids[1]
       where b.uuid = any (uuids);
  else
    return;
  end case;
end;
$$;

comment on function app_hidden.monitor_items(item_kind text, uuids uuid[], language text) is 'The items of one kind (p2000, traffic, meteo, nl_alert, amber_alert, amber_alert_end, aircraft, traffic_jam, rail, rss, related_signal, escalation, burst) by uuid, with time, title and place: the one definition of what a monitor''s feed and monitorPreview show of an item. language (nl or en; a monitor''s notificationRules.language) is the language of an escalation''s title; a burst says itself in its own monitor''s.';

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
  -- Two calls at once (a double tap) would each find no follow and make one: one at a time per
  -- environment and incident.
  perform pg_advisory_xact_lock(hashtext('follow:' || environment || ':' || d.uuid));
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

comment on function app_accounts.follow_incident(incident text, channels text) is 'followIncident: "tell me when this gets worse" without writing a monitor. Makes, in the current environment, a P2000 monitor named after the incident that hears of nothing but its raises (urgency, GRIP level; app_hidden.incident_follows), on the channels given (a JSON list, as createMonitor takes) or else every channel of the environment; following it again answers the same monitor, also when two calls meet (one at a time per environment and incident). An unknown incident is NOT_FOUND; an environment without channels is told to make one.';

-- The feed says an escalation in the monitor's language too.
CREATE OR REPLACE FUNCTION app_private.monitor_feed(secret_hash bytea)
 RETURNS TABLE(feed_uuid uuid, name text, created_at timestamp with time zone, items jsonb)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  with feed as (
    select t.monitor_uuid, t.feed_uuid, t.created_at, m.name, coalesce(m.notification_rules->>'language', 'nl') as language
      from app_private.monitor_feed_tokens t join app_public.monitors m on m.uuid = t.monitor_uuid
     where t.secret_hash = monitor_feed.secret_hash
  ), recent as (
    select r.* from (
      (select 'p2000'::text as kind, mm.message_uuid as uuid, mm.sended as matched_at
         from feed, app_hidden.monitor_matches mm
        where mm.monitor_uuid = feed.monitor_uuid and mm.suppressed_reason is null
          and mm.sended >= now() - interval '30 days'
        order by mm.sended desc limit 50)
      union all
      (select fm.event_kind, fm.event_uuid, fm.matched_at
         from feed, app_hidden.feed_monitor_matches fm
        where fm.monitor_uuid = feed.monitor_uuid and fm.suppressed_reason is null
          and fm.matched_at >= now() - interval '30 days'
        order by fm.matched_at desc limit 50)) r
     order by r.matched_at desc, r.uuid desc
     limit 50
  )
  select feed.feed_uuid, feed.name, feed.created_at,
         coalesce((select jsonb_agg(jsonb_build_object('kind', i.kind, 'uuid', i.uuid, 'at', i.at, 'title', i.title,
                                                       'latitude', i.latitude, 'longitude', i.longitude, 'link', i.link,
                                                       'plainText', app_hidden.p2000_plain_text(m, feed.language))
                                    order by r.matched_at desc, r.uuid desc)
                     from (select r.kind, array_agg(r.uuid) as uuids from recent r group by r.kind) k
                          cross join lateral app_hidden.monitor_items(k.kind, k.uuids, feed.language) i
                          join recent r on r.kind = i.kind and r.uuid = i.uuid
                          left join app_public.p2000_messages m on i.kind = 'p2000' and m.uuid = i.uuid), '[]')
    from feed
$function$;
comment on function app_private.monitor_feed(secret_hash bytea) is 'The feed of the monitor whose feed secret has this SHA-256, for GET /feeds/monitors/<secret>.atom|.geojson (lib/monitors/feed-route.ts): its feed id, name and creation time, and its newest 50 matches of the last 30 days that notified (not those held back by quiet hours or a throttle), P2000 messages and feed events alike, newest first, rendered by app_hidden.monitor_items, a P2000 message with its plain text (plainText) and an escalation''s title in the monitor''s notificationRules.language. No row for an unknown or revoked secret. Called by the authenticator, which reads no table, hence SECURITY DEFINER; nothing else of the monitor or its environment leaves it.';
