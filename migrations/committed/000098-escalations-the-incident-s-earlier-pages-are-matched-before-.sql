--! Previous: sha1:655ece75832ed76350dcdb7538b730bf5d494ae5
--! Hash: sha1:60268c4b211f69f0d5e681d9950503076870a97f
--! Message: Escalations: the incident's earlier pages are matched before its raise

-- Escalations: a raise matched before the incident's earlier page had been matched told nobody of it
-- (the two jobs race); the escalation matcher now matches those pages first.
CREATE OR REPLACE FUNCTION app_private.match_escalation(event_uuid uuid)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
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
  -- The monitors that told of this incident before the message that raised it.
  return app_private.notify_feed_event('escalation', e.uuid, array(
    select distinct mm.monitor_uuid
      from app_hidden.monitor_matches mm join app_public.monitors mo on mo.uuid = mm.monitor_uuid
     where mm.dossier_uuid = e.dossier_uuid and mm.suppressed_reason is null
       and mm.message_uuid is distinct from e.message_uuid
       and mo.active and mo.type = 'p2000' and mo.notification_rules @> '{"escalations": true}'
     order by mm.monitor_uuid), app_hidden.escalation_notification_subject(d, e));
end;
$function$;
comment on function app_private.match_escalation(event_uuid uuid) is 'Matcher of feed escalation (lib/monitors/matchers.ts): a raise of urgency or GRIP level on a dossier''s timeline notifies the active P2000 monitors with notificationRules.escalations that notified that dossier (an unsuppressed match of another of its messages), once per monitor and raise. The dossier''s earlier live pages are matched first, so a page whose matching job has not run yet still counts; quiet hours and maxPerPeriod apply as to every feed event.';
