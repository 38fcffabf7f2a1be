--! Previous: sha1:7537a0b8f73f318adac4f8a1079f96941b38d0b0
--! Hash: sha1:fa2b77aa6e9b651b6ddcde63c54c6642261e6301
--! Message: A burst's deliveries: a page written out in plain words once per language (app_hidden.p2000_plain_texts), notifications queued in graphile-worker batch jobs (app_hidden.queue_notification_deliveries, nlis.notification_batch_size), read and recorded a batch at a time, the matcher writing a match's exercise type

-- Issue 47, a burst: a page that matches 20,000 monitors was written out in plain words
-- (app_hidden.p2000_plain_text, about 5 ms of PostgreSQL's time) once for every one of its 20,000
-- notifications, the most of what a delivery cost. Now a page is written out once per language and
-- kept; its notifications read the kept text. What the text is made of (the page, its enrichment, the
-- table of plain words) forgets the kept texts it changes, so a notification never says less than
-- plainText would.

create table if not exists app_hidden.p2000_plain_texts (
  message_uuid uuid not null references app_public.p2000_messages on delete cascade,
  language text not null constraint p2000_plain_texts_language_check check (language in ('nl', 'en')),
  plain_text text,
  primary key (message_uuid, language)
);
alter table app_hidden.p2000_plain_texts enable row level security;
comment on table app_hidden.p2000_plain_texts is 'Pages written out in plain words (app_hidden.p2000_plain_text), kept per page and language the first time a notification needs one, so that a page notified to many monitors is written out once. Forgotten when the page''s text or enrichment or the table of plain words changes; gone with the page. Only the owner reads it (row-level security, no policy).';
comment on column app_hidden.p2000_plain_texts.message_uuid is 'The page.';
comment on column app_hidden.p2000_plain_texts.language is 'nl or en, a monitor''s notificationRules.language.';
comment on column app_hidden.p2000_plain_texts.plain_text is 'app_hidden.p2000_plain_text of the page in that language, when it was kept.';

create or replace function app_hidden.p2000_plain_text_kept(m app_public.p2000_messages, language text) returns text
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  said text;
begin
  select k.plain_text into said from app_hidden.p2000_plain_texts k
   where k.message_uuid = m.uuid and k.language = p2000_plain_text_kept.language;
  if found then
    return said;
  end if;
  said := app_hidden.p2000_plain_text(m, language);
  -- Workers that miss at the same moment each write it out once; the first one's is kept.
  insert into app_hidden.p2000_plain_texts (message_uuid, language, plain_text)
  values (m.uuid, language, said) on conflict do nothing;
  return said;
end;
$$;
comment on function app_hidden.p2000_plain_text_kept(m app_public.p2000_messages, language text) is 'app_hidden.p2000_plain_text of a stored page, written out once per language and kept (app_hidden.p2000_plain_texts): what a notification carries.';

create or replace function app_hidden.tg_p2000_plain_texts__forget_message() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.p2000_plain_texts k where k.message_uuid = new.uuid;
  return null;
end;
$$;
comment on function app_hidden.tg_p2000_plain_texts__forget_message() is 'Forgets a page''s kept plain texts when what they are written from (its text, street, place, road) changes.';
drop trigger if exists _510_forget_plain_texts on app_public.p2000_messages;
create trigger _510_forget_plain_texts after update on app_public.p2000_messages
  for each row
  when ((old.message, old.street, old.city, old.road, old.carriageway, old.hectometer)
        is distinct from (new.message, new.street, new.city, new.road, new.carriageway, new.hectometer))
  execute function app_hidden.tg_p2000_plain_texts__forget_message();

create or replace function app_hidden.tg_p2000_plain_texts__forget_all() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.p2000_plain_texts;
  return null;
end;
$$;
comment on function app_hidden.tg_p2000_plain_texts__forget_all() is 'Forgets every kept plain text when the table of plain words changes (a DBA''s edit, a new shipped file).';
drop trigger if exists _510_forget_plain_texts on app_public.p2000_plain_words;
create trigger _510_forget_plain_texts after insert or update or delete or truncate on app_public.p2000_plain_words
  for each statement execute function app_hidden.tg_p2000_plain_texts__forget_all();

-- Deliveries in batches. A burst's notifications are queued as graphile-worker batch jobs (a payload
-- that is a list: what fails goes back to the queue alone, with graphile-worker's back-off), each
-- batch read in one statement and its attempts recorded in one; a lone notification stays a job of
-- its own, keyed notification:<uuid>, as before.

create or replace function app_hidden.notification_batch_size() returns integer
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(nullif(current_setting('nlis.notification_batch_size', true), '')::integer, 25)
$$;
comment on function app_hidden.notification_batch_size() is 'How many notifications one delivery job carries: 25, or the setting nlis.notification_batch_size (ALTER DATABASE … SET nlis.notification_batch_size = 50; docs/operations.md). A job''s notifications are sent at the same time, so WORKER_CONCURRENCY × this is how many deliveries a worker process has in flight.';

create or replace function app_hidden.queue_notification_deliveries(notification_uuids uuid[]) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform 1 from graphile_worker.add_jobs(array(
    select row('notifications__deliver',
               case when cardinality(b.uuids) = 1 then json_build_object('uuid', b.uuids[1])
                    else (select json_agg(json_build_object('uuid', u) order by n) from unnest(b.uuids) with ordinality as x (u, n)) end,
               null, null, 6, case when cardinality(b.uuids) = 1 then 'notification:' || b.uuids[1] end, null, null)::graphile_worker.job_spec
      from (select array_agg(x.u order by x.n) as uuids
              from unnest(notification_uuids) with ordinality as x (u, n)
             group by (x.n - 1) / app_hidden.notification_batch_size()) b));
  return coalesce(cardinality(notification_uuids), 0);
end;
$$;
comment on function app_hidden.queue_notification_deliveries(uuid[]) is 'Queues the delivery of notifications (task notifications__deliver, 6 attempts): in batch jobs of app_hidden.notification_batch_size() notifications (a list payload: graphile-worker retries only the failed ones), a lone one as a job of its own keyed notification:<uuid>. Returns how many notifications.';

create or replace function app_private.notifications_for_delivery(notification_uuids uuid[])
 RETURNS TABLE(notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text, url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text, message_uuid uuid, message text, sended timestamp with time zone, urgency text, discipline text, region text, city text, street text, postcode text, latitude double precision, longitude double precision, dossier_uuid uuid, respond_token text, kind text, headline text, facts text[], event_type text, payload jsonb, channel_uuid uuid, server_url text, topic text, credentials jsonb, channel_disabled_at timestamp with time zone, plain_text text, language text)
 LANGUAGE sql
 VOLATILE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select n.uuid, c.type, c.name, c.email_address, c.phone_number, c.url,
         coalesce((select jsonb_agg(jsonb_build_object('name', h.name, 'value', h.value)) from unnest(c.headers) h), '[]'),
         c.chat_id, s.signing_secret, mo.uuid, mo.name, m.uuid, m.message, m.sended, u.code, d.name, g.name,
         m.city, m.street, m.postcode, m.latitude, m.longitude, m.dossier_uuid,
         case when m.uuid is not null then app_private.responder_token(n.uuid) end,
         coalesce(n.event_kind, 'p2000'), n.headline, n.facts, n.event_type, n.payload,
         c.uuid, c.server_url, c.topic, coalesce(k.credentials, '{}'), c.disabled_at,
         case when m.uuid is not null then app_hidden.p2000_plain_text_kept(m, coalesce(mo.notification_rules->>'language', 'nl')) end,
         coalesce(mo.notification_rules->>'language', 'nl')
    from app_private.notifications n
    join app_public.channels c on c.uuid = n.channel_uuid
    left join app_public.monitors mo on mo.uuid = n.monitor_uuid
    left join app_public.p2000_messages m on m.uuid = n.message_uuid
    left join app_private.channel_secrets s on s.channel_uuid = c.uuid
    left join app_private.channel_credentials k on k.channel_uuid = c.uuid
    left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
    left join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
    left join app_public.p2000_regions g on g.uuid = m.region_uuid
   where n.uuid = any (notifications_for_delivery.notification_uuids) and n.status = 'queued'
$function$;
comment on function app_private.notifications_for_delivery(uuid[]) is 'What the task notifications__deliver needs to send a batch of notifications, one row each: channel (its server, topic, credentials and whether it is disabled) and signing secret, monitor (none for a test send), and subject (a P2000 message''s columns with its respond link and its plain text in the monitor''s language, written out once per page and language, or the headline, facts and payload a feed''s matcher or the test send rendered). No row for one no longer queued, so a repeated job never sends twice.';

create or replace function app_private.notification_for_delivery(notification_uuid uuid)
 RETURNS TABLE(notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text, url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text, message_uuid uuid, message text, sended timestamp with time zone, urgency text, discipline text, region text, city text, street text, postcode text, latitude double precision, longitude double precision, dossier_uuid uuid, respond_token text, kind text, headline text, facts text[], event_type text, payload jsonb, channel_uuid uuid, server_url text, topic text, credentials jsonb, channel_disabled_at timestamp with time zone, plain_text text, language text)
 LANGUAGE sql
 VOLATILE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select * from app_private.notifications_for_delivery(array[notification_for_delivery.notification_uuid])
$function$;
comment on function app_private.notification_for_delivery(notification_uuid uuid) is 'app_private.notifications_for_delivery of one notification (sendTestNotification); no row once it is no longer queued.';

create or replace function app_private.record_notification_attempts(attempts jsonb) returns void
  language sql
  set search_path to pg_catalog, public, pg_temp
as $$
  with attempt as (
    select * from jsonb_to_recordset(attempts) as a (notification_uuid uuid, succeeded boolean, response_code integer,
                                                    reply text, error text, duration_ms integer, final boolean)
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
comment on function app_private.record_notification_attempts(jsonb) is 'Records a batch''s delivery attempts in one statement, a JSON list of { notification_uuid, succeeded, response_code (the HTTP status or SMTP reply code), reply (an SMTP reply), error, duration_ms, final }: each goes into the delivery log and counts on its notification, delivered on success, failed on the final failed attempt (the last retry or a permanent error); in between graphile-worker retries and it stays queued.';

create or replace function app_private.record_notification_attempt(notification_uuid uuid, succeeded boolean, response_code integer,
    reply text, error text, duration_ms integer, final boolean) returns void
  language sql
  set search_path to pg_catalog, public, pg_temp
as $$
  select app_private.record_notification_attempts(jsonb_build_array(jsonb_build_object(
    'notification_uuid', notification_uuid, 'succeeded', succeeded, 'response_code', response_code, 'reply', reply,
    'error', error, 'duration_ms', duration_ms, 'final', final)))
$$;
comment on function app_private.record_notification_attempt(uuid, boolean, integer, text, text, integer, boolean) is 'app_private.record_notification_attempts of one attempt: the delivery log''s row (the HTTP status or SMTP reply code, the SMTP reply, the error and the duration) and its count on the notification.';

-- A match carries its page's exercise type, which a trigger looked up row by row (a tenth of a
-- 20,000-monitor burst's matching): the matcher now writes it, and the trigger fills it in only for
-- an insert that leaves it out.
alter table app_hidden.monitor_matches alter column exercise_type drop default;
drop trigger if exists _100_exercise_type on app_hidden.monitor_matches;
create trigger _100_exercise_type before insert on app_hidden.monitor_matches
  for each row when (new.exercise_type is null) execute function app_hidden.tg_monitor_matches__exercise_type();

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
comment on function app_private.match_p2000_message(uuid) is 'The matcher of P2000 monitors (task monitors__match_p2000): candidates by the criteria''s anchor keys, each checked by app_hidden.p2000_criteria_match (which monitorPreview uses too); records the matches and queues a delivery per monitor and channel in one set-based transaction, in batch jobs (app_hidden.queue_notification_deliveries), and takes a burst monitor''s match it recorded into its burst (app_private.advance_burst). A second run queues nothing; monitors with rules are locked one matcher at a time, so their counts see each other''s matches.';
