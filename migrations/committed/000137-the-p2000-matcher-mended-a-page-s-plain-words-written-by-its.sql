--! Previous: sha1:d2a49b03f6a80cb425c999771bef34e225f1aa94
--! Hash: sha1:329754c2b9f857b48484d74a1422e7ae1ed67ecf
--! Message: The P2000 matcher mended: a page's plain words written by its first run only when its deliveries fill more than one batch, and a later run takes at least the first chunk

-- The P2000 matcher, as 000136 left it, mended:
-- - a page's plain words are written by its first matching run only when its deliveries fill more
--   than one batch (000136 wrote them for every matched page, adding a few milliseconds to the
--   matcher of a page for a few monitors, where only its one batch would need them);
-- - a later run takes at least app_hidden.first_match_chunk() monitors: with the page's matches
--   gone meanwhile (their monitors deleted), three times none would have left the whole rest to a
--   run of its own again and again.

CREATE OR REPLACE FUNCTION app_private.match_p2000_message(message_uuid uuid, whole boolean DEFAULT true)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  m app_public.p2000_messages;
  candidates uuid[];
  resumed boolean;
  matched uuid[];
  queued integer;
  burst_monitors uuid[];
  burst_keys text[];
  take integer;
begin
  select * into m from app_public.p2000_messages x where x.uuid = match_p2000_message.message_uuid;
  if m.uuid is null then
    return 0;
  end if;
  -- A second run of a page too big for one takes the rest of what its first run found.
  delete from app_hidden.p2000_match_rests r where r.message_uuid = m.uuid returning r.monitor_uuids into candidates;
  resumed := candidates is not null;
  if not resumed then
    candidates := app_hidden.p2000_matching_monitors(m);
  elsif not whole then
    -- A later run takes up to three times what the runs before it recorded (1,000, then 3,000,
    -- 12,000, ...) and leaves the rest to a run of its own: one run's deliveries go out while the
    -- next run records, so the workers are not idle while a city's matches are written.
    take := greatest(app_hidden.first_match_chunk(),
                     3 * (select count(*) from app_hidden.monitor_matches mm where mm.message_uuid = m.uuid));
    if cardinality(candidates) > take then
      insert into app_hidden.p2000_match_rests (message_uuid, monitor_uuids)
      values (m.uuid, candidates[take + 1:])
      on conflict on constraint p2000_match_rests_pkey do nothing;
      candidates := candidates[1:take];
      perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'p2000', 'uuids', json_build_array(m.uuid)),
                                      max_attempts := 10);
    end if;
  end if;
  matched := array(select u from unnest(candidates) u
                    where not exists (select 1 from app_hidden.monitor_matches mm where mm.monitor_uuid = u and mm.message_uuid = m.uuid)
                    order by u);
  if cardinality(matched) = 0 then
    return 0;
  end if;
  -- A page for very many monitors (a city's GRIP incident): the first run records and queues the
  -- first of them in its own short transaction, so that their deliveries start at once, and
  -- leaves the rest to a run of its own (queued here, after this one commits).
  if not whole and not resumed and cardinality(matched) = cardinality(candidates)
     and cardinality(matched) > app_hidden.first_match_chunk() then
    insert into app_hidden.p2000_match_rests (message_uuid, monitor_uuids)
    values (m.uuid, matched[app_hidden.first_match_chunk() + 1:])
    -- A first run of the same page at the same moment kept its rest already: this one is then a
    -- repeated run of the first 1,000 (it records nothing twice), and its second run finds anew.
    on conflict on constraint p2000_match_rests_pkey do nothing;
    matched := matched[1:app_hidden.first_match_chunk()];
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'p2000', 'uuids', json_build_array(m.uuid)),
                                    max_attempts := 10);
  end if;
  -- Throttles and bursts count earlier matches of the same monitor: one matcher per such monitor
  -- at a time, locked in a statement of its own so the next statement's snapshot sees what the
  -- last holder committed.
  perform pg_advisory_xact_lock(hashtext('monitor:' || mo.uuid))
     from app_public.monitors mo where mo.uuid = any (matched) and mo.notification_rules <> '{}' order by mo.uuid;
  with new_matches as (
    insert into app_hidden.monitor_matches (monitor_uuid, message_uuid, dossier_uuid, sended, exercise_type, suppressed_reason, burst_key)
    select mo.uuid, m.uuid, m.dossier_uuid, m.sended, m.exercise_type,
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
  select app_hidden.queue_notification_deliveries(array(select n.uuid from new_notifications n order by n.uuid)),
         array(select nm.monitor_uuid from new_matches nm where nm.suppressed_reason = 'burst' order by nm.monitor_uuid),
         array(select nm.burst_key from new_matches nm where nm.suppressed_reason = 'burst' order by nm.monitor_uuid)
    into queued, burst_monitors, burst_keys;
  -- The page written out in plain words once per language its deliveries need, before they are
  -- queued, when they fill more than one batch: the batches, running at once, would each write it
  -- out (a page for a few monitors leaves it to its one batch, which would write it as soon).
  if not resumed and queued > app_hidden.notification_batch_size() then
    perform app_hidden.p2000_plain_text_kept(m, l.language)
       from (select distinct coalesce(mo.notification_rules->>'language', 'nl') as language
               from app_public.monitors mo where mo.uuid = any (matched)) l;
  end if;
  -- The burst monitors' matches this run recorded (not another's that met the same page), each
  -- taken into its burst: a statement of its own, so it sees them.
  select queued + coalesce(sum(app_private.advance_burst(mo, m, b.key)), 0)::integer into queued
    from unnest(burst_monitors, burst_keys) b (monitor_uuid, key) join app_public.monitors mo on mo.uuid = b.monitor_uuid;
  return queued;
end;
$function$;
