--! Previous: sha1:fa2b77aa6e9b651b6ddcde63c54c6642261e6301
--! Hash: sha1:b95ab4b028c2328afca3ac88adf26dde9f4d8b27
--! Message: The first delivery of a burst: a page for more than 1,000 monitors is matched in two runs, the first taking 1,000 in a short transaction of its own and keeping the rest of what it found for the second (app_hidden.p2000_match_rests), which it queues

-- Issue 47, the first delivery of a burst: a page for 20,000 monitors was matched in one
-- transaction (about 2 s on two cores) before any delivery could start. The first run of a page
-- now records and queues its first 1,000 monitors in a short transaction of its own and keeps the
-- rest of what it found for a second run, which it queues, so the monitors are found once.

create table if not exists app_hidden.p2000_match_rests (
  message_uuid uuid primary key references app_public.p2000_messages on delete cascade,
  monitor_uuids uuid[] not null
);
alter table app_hidden.p2000_match_rests enable row level security;
comment on table app_hidden.p2000_match_rests is 'The monitors a page''s first matching run found but left to its second (a page for more than app_hidden.first_match_chunk() monitors): the second run takes them instead of finding them again, and deletes the row. Only the owner reads it (row-level security, no policy).';
comment on column app_hidden.p2000_match_rests.message_uuid is 'The page.';
comment on column app_hidden.p2000_match_rests.monitor_uuids is 'The monitors left to the second run, in uuid order.';

create or replace function app_hidden.first_match_chunk() returns integer
  language sql immutable parallel safe
as $$
  select 1000
$$;
comment on function app_hidden.first_match_chunk() is 'How many of a page''s monitors its first matching run records and queues, when more match: the rest, kept in app_hidden.p2000_match_rests, by a second run (a monitors__match_feed job it queues), so that a burst''s first deliveries start after the first chunk''s short transaction.';

create or replace function app_private.match_p2000_message(message_uuid uuid) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  m app_public.p2000_messages;
  candidates uuid[];
  resumed boolean;
  matched uuid[];
  queued integer;
  burst_monitors uuid[];
  burst_keys text[];
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
  if not resumed and cardinality(matched) = cardinality(candidates) and cardinality(matched) > app_hidden.first_match_chunk() then
    insert into app_hidden.p2000_match_rests (message_uuid, monitor_uuids)
    values (m.uuid, matched[app_hidden.first_match_chunk() + 1:]);
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
  -- The burst monitors' matches this run recorded (not another's that met the same page), each
  -- taken into its burst: a statement of its own, so it sees them.
  select queued + coalesce(sum(app_private.advance_burst(mo, m, b.key)), 0)::integer into queued
    from unnest(burst_monitors, burst_keys) b (monitor_uuid, key) join app_public.monitors mo on mo.uuid = b.monitor_uuid;
  return queued;
end;
$$;

comment on function app_private.match_p2000_message(uuid) is 'The matcher of P2000 monitors (task monitors__match_p2000): candidates by the criteria''s anchor keys, each checked by app_hidden.p2000_criteria_match (which monitorPreview uses too); records the matches and queues a delivery per monitor and channel in one set-based transaction, in batch jobs (app_hidden.queue_notification_deliveries), and takes a burst monitor''s match it recorded into its burst (app_private.advance_burst). A page for more monitors than app_hidden.first_match_chunk() is matched in two runs, the first queuing the second and keeping what it found for it (app_hidden.p2000_match_rests). A repeated run queues nothing; monitors with rules are locked one matcher at a time, so their counts see each other''s matches.';
