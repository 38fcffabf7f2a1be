--! Previous: sha1:136f5859fd5cfebf14be0cf4c1f0ba8f24a3f71a
--! Hash: sha1:613cb744f20c4dd5d2f33d6632ba04c673e7c9c0
--! Message: Delivery log and test notifications

-- Issue 29, part 4: a delivery log and a test send. Every notification (one message or event to
-- one channel of a monitor) already records its attempts; the log lists them for the members of
-- the environment, with the SMTP server's answer now recorded as well. A test send is a
-- notification of its own kind (event_kind 'test', no monitor), sent at once by the mutation
-- through the same delivery code and recorded in the same tables, so it shows in the log too.

drop function if exists app_public.deliveries(app_public.delivery_filter, integer, integer);
drop type if exists app_public.delivery;
drop type if exists app_public.delivery_filter;
drop function if exists app_accounts.start_test_notification(text);
drop function if exists app_accounts.record_test_notification_attempt(uuid, boolean, integer, text, text, integer);
drop function if exists app_private.record_notification_attempt(uuid, boolean, integer, text, text, integer, boolean);
drop function if exists app_hidden.delivery_outcome(text, integer);

-- The SMTP server's reply ("250 2.0.0 Ok: queued as …", or the refusal) of an e-mail attempt.
alter table app_private.notification_attempts add column if not exists reply text;
comment on column app_private.notification_attempts.reply is 'The SMTP server''s answer to an e-mail attempt (its last reply line, at most 1,000 characters); null for HTTP channels, whose status is response_code.';

-- A test send has no monitor; everything else keeps one.
alter table app_private.notifications alter column monitor_uuid drop not null;
alter table app_private.notifications drop constraint if exists notifications_test_without_monitor;
alter table app_private.notifications add constraint notifications_test_without_monitor
  check ((monitor_uuid is null) = (event_kind is not distinct from 'test'));
create index if not exists notifications_channel_uuid_created_idx on app_private.notifications (channel_uuid, created desc);
comment on index app_private.notifications_channel_uuid_created_idx is 'The delivery log newest first per channel, and the rate limit of test sends (the test sends of a channel in the last minute).';
comment on constraint notifications_test_without_monitor on app_private.notifications is 'A test send (event_kind test, sendTestNotification) has no monitor; every other notification has one.';

-- The outcome people read in the log: delivered, failed, or pending (queued, perhaps retrying).
create function app_hidden.delivery_outcome(status text, attempts integer) returns text
language sql immutable parallel safe as $$
  select case status when 'queued' then case when attempts > 0 then 'retrying' else 'pending' end else status end
$$;
comment on function app_hidden.delivery_outcome(text, integer) is 'The outcome of a notification as the delivery log shows it: delivered, failed, pending (queued, not tried yet) or retrying (queued after a failed attempt).';

create function app_private.record_notification_attempt(notification_uuid uuid, succeeded boolean, response_code integer,
    reply text, error text, duration_ms integer, final boolean) returns void
language sql
  set search_path to pg_catalog, public, pg_temp
as $$
  insert into app_private.notification_attempts (notification_uuid, succeeded, response_code, reply, error, duration_ms)
  values (notification_uuid, succeeded, response_code, left(reply, 1000), left(error, 1000), duration_ms);
  update app_private.notifications n
     set attempts = n.attempts + 1,
         status = case when succeeded then 'delivered' when final then 'failed' else n.status end,
         delivered_at = case when succeeded then now() end
   where n.uuid = record_notification_attempt.notification_uuid;
$$;
comment on function app_private.record_notification_attempt(uuid, boolean, integer, text, text, integer, boolean) is 'Records one delivery attempt (the HTTP status or SMTP reply code, the SMTP reply, the error and the duration) and counts it on the notification: delivered on success, failed on the final failed attempt (the last retry or a permanent error); in between graphile-worker retries and it stays queued. It takes the SMTP reply since the delivery log (issue 29, part 4).';
drop function if exists app_private.record_notification_attempt(uuid, boolean, integer, text, integer, boolean);

-- A test send has no monitor: the monitor is a left join now.
create or replace function app_private.notification_for_delivery(notification_uuid uuid)
returns table (notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text,
  url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text, message_uuid uuid,
  message text, sended timestamptz, urgency text, discipline text, region text, city text, street text, postcode text,
  latitude double precision, longitude double precision, dossier_uuid uuid, respond_token text, kind text,
  headline text, facts text[], event_type text, payload jsonb)
language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select n.uuid, c.type, c.name, c.email_address, c.phone_number, c.url,
         coalesce((select jsonb_agg(jsonb_build_object('name', h.name, 'value', h.value)) from unnest(c.headers) h), '[]'),
         c.chat_id, s.signing_secret, mo.uuid, mo.name, m.uuid, m.message, m.sended, u.code, d.name, g.name,
         m.city, m.street, m.postcode, m.latitude, m.longitude, m.dossier_uuid,
         case when m.uuid is not null then app_private.responder_token(n.uuid) end,
         coalesce(n.event_kind, 'p2000'), n.headline, n.facts, n.event_type, n.payload
    from app_private.notifications n
    join app_public.channels c on c.uuid = n.channel_uuid
    left join app_public.monitors mo on mo.uuid = n.monitor_uuid
    left join app_public.p2000_messages m on m.uuid = n.message_uuid
    left join app_private.channel_secrets s on s.channel_uuid = c.uuid
    left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
    left join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
    left join app_public.p2000_regions g on g.uuid = m.region_uuid
   where n.uuid = notification_for_delivery.notification_uuid and n.status = 'queued'
$$;
comment on function app_private.notification_for_delivery(uuid) is 'What the task notifications__deliver (and sendTestNotification) needs to send one notification: channel and signing secret, monitor (none for a test send), and subject (a P2000 message''s columns with its respond link, or the headline, facts and payload a feed''s matcher or the test send rendered). No row once it is no longer queued, so a repeated job never sends twice.';

-- The log.
create type app_public.delivery_filter as (
  monitor text,
  channel text,
  outcome text
);
comment on type app_public.delivery_filter is 'The delivery log of one monitor (uuid), of one channel (uuid), and/or with one outcome (delivered, failed, pending or retrying).';

create type app_public.delivery as (
  uuid uuid,
  test boolean,
  monitor_uuid uuid,
  monitor_name text,
  channel_uuid uuid,
  channel_name text,
  channel_type text,
  item_kind text,
  item_uuid uuid,
  item_title text,
  created timestamptz,
  last_attempt_at timestamptz,
  delivered_at timestamptz,
  outcome text,
  attempts integer,
  response_code integer,
  reply text,
  latency_ms integer,
  error text
);
comment on type app_public.delivery is 'One notification to one channel in the delivery log, with its outcome and its last attempt. Channel secrets, tokens and the bodies sent are never part of it.';
comment on column app_public.delivery.uuid is E'@notNull\nThe notification''s uuid: the Webhook-Id of a webhook delivery, the reference of an SMS.';
comment on column app_public.delivery.test is E'@notNull\nTrue for a test send (sendTestNotification).';
comment on column app_public.delivery.monitor_uuid is 'The monitor that matched; null for a test send.';
comment on column app_public.delivery.monitor_name is 'The monitor''s name; null for a test send.';
comment on column app_public.delivery.channel_uuid is E'@notNull\nThe channel it went to.';
comment on column app_public.delivery.channel_name is E'@notNull\nThe channel''s name.';
comment on column app_public.delivery.channel_type is E'@notNull\nemail, sms, webhook or telegram.';
comment on column app_public.delivery.item_kind is E'@notNull\nWhat was delivered: p2000 (a P2000 message), a feed''s event kind (meteo, traffic, rail, aircraft, rss, …) or test.';
comment on column app_public.delivery.item_uuid is 'The P2000 message or the feed event; null for a test send.';
comment on column app_public.delivery.item_title is 'What it said first: the P2000 message as sent, else the headline.';
comment on column app_public.delivery.created is E'@notNull\nWhen it was queued.';
comment on column app_public.delivery.last_attempt_at is 'When it was last tried; null before the first attempt.';
comment on column app_public.delivery.delivered_at is 'When it was delivered; null unless delivered.';
comment on column app_public.delivery.outcome is E'@notNull\ndelivered, failed (for good), pending (not tried yet) or retrying (a failed attempt, another to come).';
comment on column app_public.delivery.attempts is E'@notNull\nAttempts so far (the first and the retries).';
comment on column app_public.delivery.response_code is 'The last attempt''s HTTP status (webhook, SMS, Telegram) or SMTP reply code (e-mail), when there was an answer.';
comment on column app_public.delivery.reply is 'The last attempt''s SMTP reply (e-mail channels).';
comment on column app_public.delivery.latency_ms is 'How long the last attempt took, in milliseconds.';
comment on column app_public.delivery.error is 'Why the last attempt failed; null when it succeeded.';

create function app_public.deliveries(filter app_public.delivery_filter default null, first integer default 50,
    page integer default 1) returns setof app_public.delivery
language plpgsql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid;
  want_monitor uuid := app_hidden.try_uuid(filter.monitor);
  want_channel uuid := app_hidden.try_uuid(filter.channel);
  want_outcome text := nullif(lower(btrim(filter.outcome)), '');
begin
  perform app_hidden.require_user_uuid();
  environment := app_hidden.current_member_environment_uuid();
  if nullif(btrim(filter.monitor), '') is not null and want_monitor is null then
    raise exception 'filter.monitor must be a monitor uuid.' using errcode = 'XINPT';
  end if;
  if nullif(btrim(filter.channel), '') is not null and want_channel is null then
    raise exception 'filter.channel must be a channel uuid.' using errcode = 'XINPT';
  end if;
  if want_outcome not in ('delivered', 'failed', 'pending', 'retrying') then
    raise exception 'filter.outcome must be delivered, failed, pending or retrying.' using errcode = 'XINPT';
  end if;
  return query
  select n.uuid, n.event_kind is not distinct from 'test', n.monitor_uuid, mo.name, c.uuid, c.name, c.type,
         coalesce(n.event_kind, 'p2000'), coalesce(n.message_uuid, nullif(n.event_uuid, n.uuid)),
         coalesce(m.message, n.headline), n.created, a.attempted_at, n.delivered_at,
         app_hidden.delivery_outcome(n.status, n.attempts), n.attempts, a.response_code, a.reply, a.duration_ms, a.error
    from app_private.notifications n
    join app_public.channels c on c.uuid = n.channel_uuid
    left join app_public.monitors mo on mo.uuid = n.monitor_uuid
    left join app_public.p2000_messages m on m.uuid = n.message_uuid
    left join lateral (
      select x.attempted_at, x.response_code, x.reply, x.duration_ms, x.error from app_private.notification_attempts x
       where x.notification_uuid = n.uuid order by x.attempted_at desc, x.uuid limit 1
    ) a on true
   where c.environment_uuid = environment
     and (want_monitor is null or n.monitor_uuid = want_monitor)
     and (want_channel is null or n.channel_uuid = want_channel)
     and (want_outcome is null or app_hidden.delivery_outcome(n.status, n.attempts) = want_outcome)
   order by n.created desc, n.uuid
   limit app_hidden.page_limit(first, 100) offset app_hidden.page_offset(first, page, 100);
end;
$$;
comment on function app_public.deliveries(app_public.delivery_filter, integer, integer) is E'@userToken\n@notNull\nThe delivery log of the current environment, newest first: each notification to a channel (test sends included) with its outcome and last attempt, filtered by monitor, channel and outcome. Only members of the environment see it; a monitor or channel of another environment matches nothing. No secret, token or body sent is among its columns.';
-- Security definer because the log lives in app_private, out of the visitor's reach: the function
-- applies the check that the channels' row-level security applies (app_hidden.current_member_environment_uuid).

-- The test send: stored as a notification (event_kind test) and returned for Node to send at once.
create function app_accounts.start_test_notification(channel text)
returns table (notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text,
  url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text, message_uuid uuid,
  message text, sended timestamptz, urgency text, discipline text, region text, city text, street text, postcode text,
  latitude double precision, longitude double precision, dossier_uuid uuid, respond_token text, kind text,
  headline text, facts text[], event_type text, payload jsonb)
language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
#variable_conflict use_column
declare
  environment uuid := app_accounts.require_current_environment();
  c app_public.channels;
  test_uuid uuid := gen_random_uuid();
  sent integer;
begin
  select * into c from app_public.channels x
   where x.uuid = app_hidden.try_uuid(start_test_notification.channel) and x.environment_uuid = environment;
  if c.uuid is null then
    raise exception 'Channel not found.' using errcode = 'XNOTF';
  end if;
  -- Five test sends per channel and minute, counted exactly under a lock per channel.
  perform pg_advisory_xact_lock(hashtext('test-notification:' || c.uuid));
  select count(*) into sent from app_private.notifications n
   where n.channel_uuid = c.uuid and n.event_kind = 'test' and n.created > clock_timestamp() - interval '1 minute';
  if sent >= 5 then
    raise exception 'At most 5 test notifications per channel and minute; try again in a minute.' using errcode = 'XRATE';
  end if;
  insert into app_private.notifications (uuid, monitor_uuid, channel_uuid, event_kind, event_uuid, headline, facts, event_type, payload, created)
  values (test_uuid, null, c.uuid, 'test', test_uuid, 'Test notification from the NL incident service',
          array['This is a test of the channel "' || c.name || '". No incident happened; nothing needs doing.'],
          'notification.test',
          jsonb_build_object('test', true, 'channel', jsonb_build_object('uuid', c.uuid, 'name', c.name),
            'text', 'Test notification from the NL incident service. No incident happened; nothing needs doing.'),
          clock_timestamp());
  return query select * from app_private.notification_for_delivery(test_uuid);
end;
$$;
grant execute on function app_accounts.start_test_notification(text) to app_visitor;
comment on function app_accounts.start_test_notification(text) is 'sendTestNotification (plugins/monitor-mutations.ts), first step: a channel of the current environment (NOT_FOUND for any other), at most 5 test sends per channel and minute (RATE_LIMITED), stored as a notification of kind test without monitor, and returned as app_private.notification_for_delivery returns it, so Node sends it through the real delivery code. The signing secret goes to Node only; app_accounts is not part of the GraphQL schema.';

create function app_accounts.record_test_notification_attempt(notification_uuid uuid, succeeded boolean,
    response_code integer, reply text, error text, duration_ms integer) returns void
language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
begin
  if not exists (select from app_private.notifications n join app_public.channels c on c.uuid = n.channel_uuid
                  where n.uuid = record_test_notification_attempt.notification_uuid and n.event_kind = 'test'
                    and n.status = 'queued' and c.environment_uuid = environment) then
    raise exception 'Test notification not found.' using errcode = 'XNOTF';
  end if;
  perform app_private.record_notification_attempt(notification_uuid, succeeded, response_code, reply, error, duration_ms, true);
end;
$$;
grant execute on function app_accounts.record_test_notification_attempt(uuid, boolean, integer, text, text, integer) to app_visitor;
comment on function app_accounts.record_test_notification_attempt(uuid, boolean, integer, text, text, integer) is 'sendTestNotification, second step: records the one attempt of a queued test send of the current environment (a test send is not retried: it ends delivered or failed).';
