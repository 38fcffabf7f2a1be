--! Previous: sha1:3fec09146e07ab3c05d22c4e9996c707cbdd9f56
--! Hash: sha1:b2f70325fb357b7fd102ef4c81a86cecfb9863c8
--! Message: A burst's batch read and recorded in one statement each without a statement per notification: the respond link's HMAC inlined with the responder key read once, a page's columns and plain text once per page and language in the batch, the read's plan kept between calls, the record through the primary key also on a fresh database; one index fewer per notification

-- The burst's PostgreSQL time per delivery (issue 47; measured with pg_stat_statements and
-- track_functions in bench:fan-out): reading a batch for delivery called two functions per
-- notification, each a statement of its own (the respond link's HMAC, 0.05 ms; the kept plain
-- text, 0.03 ms), for a batch whose notifications are mostly of one page.

-- 1. The respond link token as expressions of the notification's columns and the key: inlined into
--    the statement that reads a batch (single expressions: no FROM, no SET clause, qualified names,
--    and stable as their bodies are: timestamptz + interval is, and PostgreSQL does not inline an
--    immutable function whose body is not), and the one definition app_private.responder_token
--    signs with.
create or replace function app_hidden.responder_token_payload(notification_uuid uuid, monitor_uuid uuid, incident_uuid uuid,
                                                              channel_uuid uuid, created timestamptz) returns bytea
  language sql stable parallel safe
as $$
  select pg_catalog.convert_to(pg_catalog.concat_ws('.', notification_uuid, monitor_uuid, incident_uuid, channel_uuid,
                                                    pg_catalog.extract('epoch', created + interval '24 hours')::bigint), 'UTF8')
$$;
comment on function app_hidden.responder_token_payload(uuid, uuid, uuid, uuid, timestamptz) is 'What a respond link token signs: the notification, its monitor, its incident (dossier, else message), its channel and the link''s expiry (24 hours after the notification was created, in epoch seconds), joined by dots.';

create or replace function app_hidden.responder_token_of(notification_uuid uuid, monitor_uuid uuid, incident_uuid uuid,
                                                         channel_uuid uuid, created timestamptz, key bytea) returns text
  language sql stable parallel safe
as $$
  select pg_catalog.translate(pg_catalog.encode(
           app_hidden.responder_token_payload(notification_uuid, monitor_uuid, incident_uuid, channel_uuid, created), 'base64'),
           E'+/=\n', '-_')
      || '.'
      || pg_catalog.translate(pg_catalog.encode(public.hmac(
           app_hidden.responder_token_payload(notification_uuid, monitor_uuid, incident_uuid, channel_uuid, created), key, 'sha256'),
           'base64'), E'+/=\n', '-_')
$$;
comment on function app_hidden.responder_token_of(uuid, uuid, uuid, uuid, timestamptz, bytea) is 'The respond link token of a notification from its columns and the responder key: base64url(app_hidden.responder_token_payload).base64url(HMAC-SHA256 of it). app_private.responder_token signs with it; app_private.notifications_for_delivery inlines it for a whole batch.';

create or replace function app_private.responder_token(notification_uuid uuid) returns text
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select app_hidden.responder_token_of(n.uuid, n.monitor_uuid, coalesce(n.dossier_uuid, n.message_uuid), n.channel_uuid, n.created, k.key)
    from app_private.notifications n, app_private.signing_keys k
   where n.uuid = responder_token.notification_uuid and k.purpose = 'responder'
$$;

-- 2. A batch read in one statement: the responder key read once; a page's columns, names and
--    plain text (written out or read) once per page and language in the batch rather than once per
--    notification. PL/pgSQL, so that the statement's plan is kept between calls: planning its joins
--    took as long as running it for 25 notifications (1.7 ms), which a SQL function does anew on
--    every call.
create or replace function app_private.notifications_for_delivery(notification_uuids uuid[])
 returns table(notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text, url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text, message_uuid uuid, message text, sended timestamp with time zone, urgency text, discipline text, region text, city text, street text, postcode text, latitude double precision, longitude double precision, dossier_uuid uuid, respond_token text, kind text, headline text, facts text[], event_type text, payload jsonb, channel_uuid uuid, server_url text, topic text, credentials jsonb, channel_disabled_at timestamp with time zone, plain_text text, language text)
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  return query
  with queued as materialized (
    select n.uuid, n.monitor_uuid, n.channel_uuid, n.message_uuid, n.dossier_uuid, n.created, n.event_kind, n.headline,
           n.facts, n.event_type, n.payload, mo.name as monitor_name,
           coalesce(mo.notification_rules->>'language', 'nl') as language
      from app_private.notifications n
      left join app_public.monitors mo on mo.uuid = n.monitor_uuid
     where n.uuid = any (notifications_for_delivery.notification_uuids) and n.status = 'queued'
  ), pages as materialized (
    select m.uuid, m.message, m.sended, u.code as urgency, d.name as discipline, g.name as region, m.city, m.street,
           m.postcode, m.latitude, m.longitude, m.dossier_uuid, s.language, app_hidden.p2000_plain_text_kept(m, s.language) as plain_text
      from (select distinct q.message_uuid, q.language from queued q where q.message_uuid is not null) s
      join app_public.p2000_messages m on m.uuid = s.message_uuid
      left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
      left join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
      left join app_public.p2000_regions g on g.uuid = m.region_uuid
  ), responder as materialized (
    select k.key from app_private.signing_keys k where k.purpose = 'responder'
  )
  select n.uuid, c.type, c.name, c.email_address, c.phone_number, c.url,
         coalesce((select jsonb_agg(jsonb_build_object('name', h.name, 'value', h.value)) from unnest(c.headers) h), '[]'),
         c.chat_id, s.signing_secret, n.monitor_uuid, n.monitor_name, p.uuid, p.message, p.sended, p.urgency, p.discipline,
         p.region, p.city, p.street, p.postcode, p.latitude, p.longitude, p.dossier_uuid,
         case when p.uuid is not null
              then app_hidden.responder_token_of(n.uuid, n.monitor_uuid, coalesce(n.dossier_uuid, n.message_uuid), n.channel_uuid,
                                                 n.created, (select r.key from responder r)) end,
         coalesce(n.event_kind, 'p2000'), n.headline, n.facts, n.event_type, n.payload,
         c.uuid, c.server_url, c.topic, coalesce(k.credentials, '{}'), c.disabled_at,
         p.plain_text, n.language
    from queued n
    join app_public.channels c on c.uuid = n.channel_uuid
    left join pages p on p.uuid = n.message_uuid and p.language = n.language
    left join app_private.channel_secrets s on s.channel_uuid = c.uuid
    left join app_private.channel_credentials k on k.channel_uuid = c.uuid;
end;
$$;

-- 3. The batch size read once per call, not once per notification.
create or replace function app_hidden.queue_notification_deliveries(notification_uuids uuid[]) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  batch integer := app_hidden.notification_batch_size();
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
$$;

-- 4. A batch's attempts recorded through the notifications' primary key whatever the planner knows
--    of the table: on a fresh database (notifications never analysed) it joined the batch's 25
--    attempts, estimated at 100, to a sequential scan of every notification, 10 ms a batch. The
--    batch's uuids as an array, which a plan sees (custom plan per call), keep it to index lookups.
create or replace function app_private.record_notification_attempts(attempts jsonb) returns void
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  batch uuid[] := array(select (e->>'notification_uuid')::uuid from jsonb_array_elements(attempts) e);
begin
  with attempt as (
    select a.* from jsonb_to_recordset(attempts) as a (notification_uuid uuid, succeeded boolean, response_code integer,
                                                      reply text, error text, duration_ms integer, final boolean)
      join app_private.notifications n on n.uuid = a.notification_uuid and n.uuid = any (batch)
  ), logged as (
    insert into app_private.notification_attempts (notification_uuid, succeeded, response_code, reply, error, duration_ms)
    select a.notification_uuid, a.succeeded, a.response_code, left(a.reply, 1000), left(a.error, 1000), a.duration_ms from attempt a
  )
  update app_private.notifications n
     set attempts = n.attempts + 1,
         status = case when a.succeeded then 'delivered' when a.final then 'failed' else n.status end,
         delivered_at = case when a.succeeded then now() end
    from attempt a
   where n.uuid = a.notification_uuid and n.uuid = any (batch);
end;
$$;

-- 5. One index fewer to write per notification: notifications_channel_uuid_created_idx (channel,
--    newest first) serves every lookup by channel that this one served (a channel's delete cascading
--    to its notifications among them).
drop index if exists app_private.notifications_channel_uuid_idx;
