--! Previous: sha1:d7fd323473aacacc4b6601610b32aa7a6e111e2a
--! Hash: sha1:d2a49b03f6a80cb425c999771bef34e225f1aa94
--! Message: A city's page drains faster: matching runs that grow, its plain words written once, a burst in batches four times as large, batch read and record by primary key only

-- Issue 47: a city-wide page's deliveries drain faster.
--
-- 1. A page for more than 1,000 monitors was matched in two runs: the first 1,000, then the whole
--    rest in one transaction, during which the workers, done with the first 1,000, waited. Each
--    later run now takes up to three times what the runs before it recorded.
-- 2. The page's plain words are written out once by its first run, rather than by each of the
--    first batches that found none kept yet (about 25 ms of PostgreSQL's time each).
-- 3. A burst's deliveries go in batches four times as large (100 by default):
--    app_hidden.delivery_batch_size.
-- 4. The batch read and record touch their notifications by primary key only: their plans, kept
--    per connection, no longer depend on what the statistics said when they were first made (a
--    plan made while the table looked empty scanned every notification, 13-35 ms a batch).

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
    take := 3 * (select count(*) from app_hidden.monitor_matches mm where mm.message_uuid = m.uuid);
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
  -- queued: a page's first batches, running at once, would each write it out.
  if not resumed and queued > 0 then
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

CREATE OR REPLACE FUNCTION app_hidden.delivery_batch_size(queued integer)
 RETURNS integer
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  -- A burst (a city's page for thousands of monitors) in batches four times as large: a job, a
  -- read and a record per batch cost less per delivery when thousands wait to go out.
  select app_hidden.notification_batch_size() * case when queued > app_hidden.first_match_chunk() then 4 else 1 end
$function$;
comment on function app_hidden.delivery_batch_size(queued integer) is 'How many notifications one delivery job carries when this many are queued at once: app_hidden.notification_batch_size(), four times that for a burst of more than app_hidden.first_match_chunk() (the runs after a city''s page''s first).';

CREATE OR REPLACE FUNCTION app_hidden.queue_notification_deliveries(notification_uuids uuid[])
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  batch integer := app_hidden.delivery_batch_size(cardinality(notification_uuids));
begin
  perform 1 from graphile_worker.add_jobs(array(
    select row('notifications__deliver',
               case when cardinality(b.uuids) = 1 then json_build_object('uuid', b.uuids[1])
                    else (select json_agg(json_build_object('uuid', u) order by n) from unnest(b.uuids) with ordinality as x (u, n)) end,
               null, null, 6, case when cardinality(b.uuids) = 1 then 'notification:' || b.uuids[1] end, null, null)::graphile_worker.job_spec
      from (select array_agg(x.u order by x.n) as uuids
              from unnest(notification_uuids) with ordinality as x (u, n)
             group by (x.n - 1) / batch) b));
  return coalesce(cardinality(notification_uuids), 0);
end;
$function$;

alter function app_private.notifications_for_delivery(uuid[]) set enable_seqscan = off;
alter function app_private.record_notification_attempts(jsonb) set enable_seqscan = off;

comment on function app_private.match_p2000_message(message_uuid uuid, whole boolean) is 'The matcher of P2000 monitors (task monitors__match_p2000): candidates by the criteria''s anchor keys, each checked by app_hidden.p2000_criteria_match (which monitorPreview uses too); records the matches and queues a delivery per monitor and channel in one set-based transaction, in batch jobs (app_hidden.queue_notification_deliveries), writes the page out in plain words once per language its deliveries need (app_hidden.p2000_plain_text_kept), and takes a burst monitor''s match it recorded into its burst (app_private.advance_burst). With whole false (the task monitors__match_feed, through app_private.match_p2000_message_in_runs), a page for more monitors than app_hidden.first_match_chunk() is matched in runs: the first records that many and keeps the rest of what it found (app_hidden.p2000_match_rests), each later run takes up to three times what the runs before it recorded, and each run that leaves a rest queues the next. A repeated run queues nothing; monitors with rules are locked one matcher at a time, so their counts see each other''s matches.';
comment on function app_private.match_p2000_message_in_runs(message_uuid uuid) is 'The matcher of P2000 monitors as the task monitors__match_feed runs it: app_private.match_p2000_message, a page for more than app_hidden.first_match_chunk() monitors in runs (the first 1,000 in a short transaction of their own, then up to three times what was recorded before, each run queuing the next), so that deliveries go out while the rest is recorded.';
comment on table app_hidden.p2000_match_rests is 'The monitors a page''s matching runs found but left to a later run (a page for more than app_hidden.first_match_chunk() monitors): a later run takes them instead of finding them again, deletes the row and keeps what it leaves in turn. Only the owner reads it (row-level security, no policy).';
comment on function app_hidden.queue_notification_deliveries(notification_uuids uuid[]) is 'Queues the delivery of notifications (task notifications__deliver, 6 attempts): in batch jobs of app_hidden.delivery_batch_size() notifications, larger for a burst (a list payload: graphile-worker retries only the failed ones), a lone one as a job of its own keyed notification:<uuid>. Returns how many notifications.';
