--! Previous: sha1:0ba2a348e7877aeb6eedf9a3c30eaeb6bb7fc854
--! Hash: sha1:655ece75832ed76350dcdb7538b730bf5d494ae5
--! Message: The finding of a message's P2000 monitors as a function of its own

-- The finding of a message's P2000 monitors as a function of its own (app_hidden.p2000_matching_monitors),
-- which the matcher calls and bench:monitors times apart from recording and queueing.
create or replace function app_hidden.p2000_matching_monitors(m app_public.p2000_messages) returns uuid[]
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  probe text[];
begin
  probe := array['*'] || array(select 'c:' || n from unnest(m.capcode_names) n)
    || case when m.latitude is not null then array[app_hidden.geo_cell(m.latitude, m.longitude)] else '{}' end
    || case when m.region_uuid is not null then array['r:' || m.region_uuid] else '{}' end
    || case when m.category_uuid is not null then array['k:' || m.category_uuid] else '{}' end
    || case when m.discipline_uuid is not null then array['d:' || m.discipline_uuid] else '{}' end
    || case when m.latitude is not null then array(select 'a:' || k from unnest(app_hidden.point_area_keys(m.latitude, m.longitude)) k) else '{}' end;
  -- Candidates by index (anchor keys, and the boxes of monitors' areas), then every criterion in full.
  return array(
    select c.monitor_uuid from app_hidden.p2000_monitor_criteria c
     where c.monitor_uuid in (
             select x.monitor_uuid from app_hidden.p2000_monitor_criteria x where x.anchor_keys && probe
             union
             select b.monitor_uuid from app_hidden.p2000_monitor_area_boxes b
              where m.latitude is not null
                and b.area @> box(point(m.longitude, m.latitude), point(m.longitude, m.latitude)))
       and app_hidden.p2000_criteria_match(c, m)
     order by c.monitor_uuid);
end;
$$;
comment on function app_hidden.p2000_matching_monitors(m app_public.p2000_messages) is 'The active P2000 monitors a message matches, in uuid order: candidates by the criteria''s anchor keys (capcodes, grid cells, regions, kinds, disciplines, the message''s named areas, *) and the boxes of monitors'' circles and polygons, each checked in full by app_hidden.p2000_criteria_match. The finding part of app_private.match_p2000_message, on its own for bench:monitors.';

CREATE OR REPLACE FUNCTION app_private.match_p2000_message(message_uuid uuid)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
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
  -- Throttles count earlier matches of the same monitor: one matcher per such monitor at a time,
  -- locked in a statement of its own so the next statement's snapshot sees what the last holder
  -- committed.
  perform pg_advisory_xact_lock(hashtext('monitor:' || mo.uuid))
     from app_public.monitors mo where mo.uuid = any (matched) and mo.notification_rules <> '{}' order by mo.uuid;
  with new_matches as (
    insert into app_hidden.monitor_matches (monitor_uuid, message_uuid, dossier_uuid, sended, suppressed_reason)
    select mo.uuid, m.uuid, m.dossier_uuid, m.sended,
           case when mo.notification_rules <> '{}' then app_hidden.monitor_suppression(mo, m) end
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
  return queued;
end;
$function$;
