--! Previous: sha1:c6558bd05712457d57c8b8d6d3a509cdff87c776
--! Hash: sha1:070cf1003bb0032df1e39e592e2b3344c5fe6b56
--! Message: Escalations in plain words, in the monitor's language

-- Issue 45, words a person understands in every notification: an escalation (a raise of urgency or
-- GRIP level) says the incident in plain words, in the monitor's language (notificationRules.language),
-- as the page's own notification does: "GRIP 1 (was 0): Priority 1 house fire, Oude Haven, Zierikzee".
-- A raise is rendered once per language and told to the monitors of that language.

drop function if exists app_hidden.escalation_notification_subject(app_public.p2000_dossiers, app_public.p2000_dossier_events);
drop function if exists app_hidden.escalation_headline(app_public.p2000_dossiers, app_public.p2000_dossier_events);

create or replace function app_hidden.escalation_plain_text(e app_public.p2000_dossier_events, language text) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select app_hidden.p2000_plain_text(m, language) from app_public.p2000_messages m where m.uuid = e.message_uuid
$$;
comment on function app_hidden.escalation_plain_text(e app_public.p2000_dossier_events, language text) is 'The page that raised an incident in plain words, in a language (nl or en): what its escalation says of the incident.';

create or replace function app_hidden.escalation_headline(d app_public.p2000_dossiers, e app_public.p2000_dossier_events, language text default 'en')
returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case e.kind
           when 'grip_raised' then format('GRIP %s (was %s): ', e.new_value, coalesce(e.previous_value, '0'))
           else format(case language when 'nl' then 'Urgentie %s (was %s): ' else 'Urgency %s (was %s): ' end,
                       e.new_value, coalesce(e.previous_value, case language when 'nl' then 'geen' else 'none' end)) end
         || left(coalesce(app_hidden.escalation_plain_text(e, language), d.title), 200)
$$;
comment on function app_hidden.escalation_headline(d app_public.p2000_dossiers, e app_public.p2000_dossier_events, language text) is 'What a raise says first, in a language (nl or en; the feed''s items in English): "GRIP 2 (was 1): <the raising page in plain words>", "Urgency A1 (was A2): …" / "Urgentie A1 (was A2): …".';

create or replace function app_hidden.escalation_notification_subject(d app_public.p2000_dossiers, e app_public.p2000_dossier_events, language text)
returns app_hidden.notification_subject
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(
    app_hidden.escalation_headline(d, e, language),
    case language
      when 'nl' then array[
        format('Incident: %s', coalesce(app_hidden.escalation_plain_text(e, language), d.title)),
        case e.kind when 'grip_raised' then format('GRIP-niveau: %s (was %s)', e.new_value, coalesce(e.previous_value, '0'))
                    else format('Urgentie: %s (was %s)', e.new_value, coalesce(e.previous_value, 'geen')) end,
        format('Wanneer: %s', to_char(e.sended at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI')),
        format('Berichten: %s', d.message_count)]
      else array[
        format('Incident: %s', coalesce(app_hidden.escalation_plain_text(e, language), d.title)),
        case e.kind when 'grip_raised' then format('GRIP level: %s (was %s)', e.new_value, coalesce(e.previous_value, '0'))
                    else format('Urgency: %s (was %s)', e.new_value, coalesce(e.previous_value, 'none')) end,
        format('When: %s (Europe/Amsterdam)', to_char(e.sended at time zone 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI')),
        format('Messages: %s', d.message_count)] end,
    'p2000.incident.raised',
    jsonb_build_object(
      'dossier', jsonb_build_object('uuid', d.uuid, 'title', d.title, 'latitude', d.latitude, 'longitude', d.longitude,
                                    'firstSended', d.first_sended, 'lastSended', d.last_sended, 'messageCount', d.message_count,
                                    'gripLevel', d.grip_level,
                                    'urgency', (select u.code from app_public.p2000_urgencies u where u.uuid = d.urgency_uuid),
                                    'plainText', app_hidden.escalation_plain_text(e, language), 'language', language),
      'timelineEntry', jsonb_build_object('uuid', e.uuid, 'kind', e.kind, 'previousValue', e.previous_value,
                                          'newValue', e.new_value, 'sended', e.sended, 'messageUuid', e.message_uuid)))::app_hidden.notification_subject
$$;
comment on function app_hidden.escalation_notification_subject(d app_public.p2000_dossiers, e app_public.p2000_dossier_events, language text) is 'What an escalation notification says, in the monitor''s language: the raise and the incident in plain words as headline, fact lines (incident, the raise, when, messages so far), and the webhook''s dossier (with plainText and language) and timelineEntry objects (event p2000.incident.raised).';

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
  -- Said once per language, to the monitors of that language.
  foreach language in array array['nl', 'en'] loop
    queued := queued + app_private.notify_feed_event('escalation', e.uuid, array(
      select mo.uuid from app_public.monitors mo
       where mo.uuid = any (told) and coalesce(mo.notification_rules->>'language', 'nl') = language order by mo.uuid),
      app_hidden.escalation_notification_subject(d, e, language));
  end loop;
  return queued;
end;
$$;
comment on function app_private.match_escalation(event_uuid uuid) is 'Matcher of feed escalation (lib/monitors/matchers.ts): a raise of urgency or GRIP level on a dossier''s timeline notifies the active P2000 monitors with notificationRules.escalations that notified that dossier (an unsuppressed match of another of its messages), and the active follows of that dossier (followIncident), once per monitor and raise, in each monitor''s language; quiet hours and maxPerPeriod apply as to every feed event.';
