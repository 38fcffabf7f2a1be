--! Previous: sha1:b95ab4b028c2328afca3ac88adf26dde9f4d8b27
--! Hash: sha1:3fec09146e07ab3c05d22c4e9996c707cbdd9f56
--! Message: Review mends of the burst: a kept plain text read only while the page says what it was written from, a nonsense batch size falls back, a batch's record leaves out deleted notifications, and only the task's matcher splits a big page (match_p2000_message_in_runs), so escalations reach every monitor

-- Review mends of the burst (issue 47).
--
-- 1. A kept plain text is kept with what it was written from (the page's text, street, place and
--    road), and read only when that is still what the page says: a notification read from a
--    snapshot taken before a re-enrichment committed could otherwise keep the old text for good.
--    This replaces the trigger that forgot a page's texts when it changed.
alter table app_hidden.p2000_plain_texts add column if not exists written_from text;
comment on column app_hidden.p2000_plain_texts.written_from is 'What the text was written from (app_hidden.p2000_plain_text_source of the page then): a kept text is read only while the page still says the same.';
drop trigger if exists _510_forget_plain_texts on app_public.p2000_messages;
drop function if exists app_hidden.tg_p2000_plain_texts__forget_message();

create or replace function app_hidden.p2000_plain_text_source(m app_public.p2000_messages) returns text
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select md5(concat_ws(chr(31), m.message, m.street, m.city, m.road, m.carriageway, m.hectometer::text))
$$;
comment on function app_hidden.p2000_plain_text_source(m app_public.p2000_messages) is 'A fingerprint of what a page''s plain text is written from (its text, street, place, road, carriageway and hectometre): a kept text (app_hidden.p2000_plain_texts) is read only while it matches.';

create or replace function app_hidden.p2000_plain_text_kept(m app_public.p2000_messages, language text) returns text
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  source text := app_hidden.p2000_plain_text_source(m);
  said text;
begin
  select k.plain_text into said from app_hidden.p2000_plain_texts k
   where k.message_uuid = m.uuid and k.language = p2000_plain_text_kept.language and k.written_from = source;
  if found then
    return said;
  end if;
  said := app_hidden.p2000_plain_text(m, language);
  -- Workers that miss at the same moment each write it out once; the last one's is kept.
  insert into app_hidden.p2000_plain_texts as k (message_uuid, language, plain_text, written_from)
  values (m.uuid, p2000_plain_text_kept.language, said, source)
  on conflict on constraint p2000_plain_texts_pkey
  do update set plain_text = excluded.plain_text, written_from = excluded.written_from;
  return said;
end;
$$;
comment on function app_hidden.p2000_plain_text_kept(m app_public.p2000_messages, language text) is 'app_hidden.p2000_plain_text of a stored page, written out once per language and kept (app_hidden.p2000_plain_texts) while the page says the same: what a notification carries.';
comment on table app_hidden.p2000_plain_texts is 'Pages written out in plain words (app_hidden.p2000_plain_text), kept per page and language the first time a notification needs one, so that a page notified to many monitors is written out once. Read only while the page says what the text was written from (written_from); forgotten when the table of plain words changes; gone with the page. Only the owner reads it (row-level security, no policy).';

-- 2. A batch size set to nonsense (0, a word) falls back to 25 rather than stopping all matching.
create or replace function app_hidden.notification_batch_size() returns integer
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select case when coalesce(current_setting('nlis.notification_batch_size', true), '') ~ '^[0-9]{1,4}$'
              then greatest(1, current_setting('nlis.notification_batch_size', true)::integer) else 25 end
$$;

-- 3. A batch's attempts are recorded for the notifications that are still there: one deleted
--    meanwhile (its monitor or channel deleted during a burst) no longer fails the batch's record,
--    which made graphile-worker send the whole batch again.
create or replace function app_private.record_notification_attempts(attempts jsonb) returns void
  language sql
  set search_path to pg_catalog, public, pg_temp
as $$
  with attempt as (
    select a.* from jsonb_to_recordset(attempts) as a (notification_uuid uuid, succeeded boolean, response_code integer,
                                                      reply text, error text, duration_ms integer, final boolean)
     where exists (select 1 from app_private.notifications n where n.uuid = a.notification_uuid)
  ), logged as (
    insert into app_private.notification_attempts (notification_uuid, succeeded, response_code, reply, error, duration_ms)
    select a.notification_uuid, a.succeeded, a.response_code, left(a.reply, 1000), left(a.error, 1000), a.duration_ms from attempt a
  )
  update app_private.notifications n
     set attempts = n.attempts + 1,
         status = case when a.succeeded then 'delivered' when a.final then 'failed' else n.status end,
         delivered_at = case when a.succeeded then now() end
    from attempt a
   where n.uuid = a.notification_uuid;
$$;
comment on function app_private.record_notification_attempts(jsonb) is 'Records a batch''s delivery attempts in one statement, a JSON list of { notification_uuid, succeeded, response_code (the HTTP status or SMTP reply code), reply (an SMTP reply), error, duration_ms, final }: each goes into the delivery log and counts on its notification, delivered on success, failed on the final failed attempt (the last retry or a permanent error); in between graphile-worker retries and it stays queued. A notification deleted meanwhile is left out.';

-- 4. Only the task splits a big page's matching: the escalation matcher (and any other caller)
--    matches a page whole, as it expects, so a raise is told to every monitor the page reached.
drop function if exists app_private.match_p2000_message(uuid);
create or replace function app_private.match_p2000_message(message_uuid uuid, whole boolean default true) returns integer
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
  -- The burst monitors' matches this run recorded (not another's that met the same page), each
  -- taken into its burst: a statement of its own, so it sees them.
  select queued + coalesce(sum(app_private.advance_burst(mo, m, b.key)), 0)::integer into queued
    from unnest(burst_monitors, burst_keys) b (monitor_uuid, key) join app_public.monitors mo on mo.uuid = b.monitor_uuid;
  return queued;
end;
$$;

comment on function app_private.match_p2000_message(uuid, boolean) is 'The matcher of P2000 monitors (task monitors__match_p2000): candidates by the criteria''s anchor keys, each checked by app_hidden.p2000_criteria_match (which monitorPreview uses too); records the matches and queues a delivery per monitor and channel in one set-based transaction, in batch jobs (app_hidden.queue_notification_deliveries), and takes a burst monitor''s match it recorded into its burst (app_private.advance_burst). With whole false (the task monitors__match_feed, through app_private.match_p2000_message_in_runs), a page for more monitors than app_hidden.first_match_chunk() is matched in two runs, the first queuing the second and keeping what it found for it (app_hidden.p2000_match_rests). A repeated run queues nothing; monitors with rules are locked one matcher at a time, so their counts see each other''s matches.';

create or replace function app_private.match_p2000_message_in_runs(message_uuid uuid) returns integer
  language sql
  set search_path to pg_catalog, public, pg_temp
as $$
  select app_private.match_p2000_message(message_uuid, whole => false)
$$;
comment on function app_private.match_p2000_message_in_runs(uuid) is 'The matcher of P2000 monitors as the task monitors__match_feed runs it: app_private.match_p2000_message, a page for more than app_hidden.first_match_chunk() monitors in two runs (the first 1,000 in a short transaction of their own).';
