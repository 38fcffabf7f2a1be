--! Previous: sha1:b2f70325fb357b7fd102ef4c81a86cecfb9863c8
--! Hash: sha1:eb90222b5761633851dfeed26a3c54ccb7978535
--! Message: A feed's event for many monitors delivered in batch jobs as a P2000 page is

-- A feed's event for many monitors (an NL-Alert for a province, a weather warning for a region:
-- issue 47's city-wide burst beyond P2000) is delivered in batch jobs as a P2000 page is
-- (app_hidden.queue_notification_deliveries), not one job per notification. A repeated matcher
-- run queues nothing, as before: only the notifications its own insert made are queued.
create or replace function app_private.notify_feed_event(kind text, event_uuid uuid, monitor_uuids uuid[], subject app_hidden.notification_subject)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
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
  select app_hidden.queue_notification_deliveries(array(select n.uuid from new_notifications n order by n.uuid)) into queued;
  return queued;
end;
$function$;
comment on function app_private.notify_feed_event(kind text, event_uuid uuid, monitor_uuids uuid[], subject app_hidden.notification_subject) is 'What every other feed''s matcher does once it knows which monitors an event matches: records the matches, applies quietHours and maxPerPeriod (minUrgency and maxPerDossier are P2000''s), and queues a delivery per monitor and channel with the rendered subject, in batch jobs (app_hidden.queue_notification_deliveries), in the caller''s transaction. An event matched before adds nothing, so a retried job is harmless; returns how many deliveries it queued.';

drop function if exists app_private.queue_deliveries(uuid[]);
