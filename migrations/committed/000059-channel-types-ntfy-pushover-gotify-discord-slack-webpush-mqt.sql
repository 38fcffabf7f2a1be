--! Previous: sha1:6e0e10706b2daf0ac9e30f6005c2940021d7d1df
--! Hash: sha1:2a5c82f52908ba048baf9b73c75451ac08a37056
--! Message: Channel types ntfy pushover gotify discord slack webpush mqtt

--------------------------------------------------------------------------------------------------
-- Issue 30: channel types where people live. ntfy, Pushover, Gotify, Discord, Slack, Web Push and
-- MQTT (with Home Assistant discovery) beside e-mail, SMS, webhook and Telegram.
--
-- What a member may read stays on app_public.channels (a server URL, a topic); what lets anyone
-- post or read in the member's name (access and application tokens, a Pushover user key, a
-- Discord or Slack webhook URL, a browser's push subscription, broker credentials) goes to
-- app_private.channel_credentials, which neither the visitor nor the analyst can read and the API
-- never shows again. A Web Push subscription that its push service says is gone (404/410) disables
-- its channel (disabled_at, disabled_reason) instead of being retried.

alter table app_public.channels
  add column if not exists server_url text,
  add column if not exists topic text,
  add column if not exists disabled_at timestamptz,
  add column if not exists disabled_reason text;

alter table app_public.channels drop constraint if exists channels_type_check;
alter table app_public.channels add constraint channels_type_check check (type in
  ('email', 'sms', 'webhook', 'telegram', 'ntfy', 'pushover', 'gotify', 'discord', 'slack', 'webpush', 'mqtt'));
alter table app_public.channels drop constraint if exists channels_check;
alter table app_public.channels add constraint channels_check check (case type
  when 'email' then email_address is not null
  when 'sms' then phone_number is not null
  when 'webhook' then url is not null
  when 'telegram' then chat_id is not null
  when 'ntfy' then server_url is not null and topic is not null
  when 'gotify' then server_url is not null
  when 'mqtt' then server_url is not null and topic is not null
  else true end);
alter table app_public.channels drop constraint if exists channels_server_url_check;
alter table app_public.channels add constraint channels_server_url_check
  check (server_url ~ '^(https?|mqtts?|wss?)://' and length(server_url) <= 2000);
alter table app_public.channels drop constraint if exists channels_topic_check;
alter table app_public.channels add constraint channels_topic_check check (length(topic) between 1 and 200);
alter table app_public.channels drop constraint if exists channels_disabled_reason_check;
alter table app_public.channels add constraint channels_disabled_reason_check check (length(disabled_reason) <= 1000);

comment on table app_public.channels is 'A notification channel of an environment: e-mail, SMS, webhook, Telegram, ntfy, Pushover, Gotify, Discord, Slack, Web Push or MQTT (docs/channels.md). Secrets a channel needs live in app_private.channel_credentials and are never read back.';
comment on column app_public.channels.type is 'email, sms, webhook, telegram, ntfy, pushover, gotify, discord, slack, webpush or mqtt (channelTypes lists them).';
comment on column app_public.channels.server_url is 'ntfy and Gotify: the server (ntfy''s default https://ntfy.sh); mqtt: the broker (mqtt://, mqtts://, ws:// or wss://), without credentials.';
comment on column app_public.channels.topic is 'ntfy: the topic published to; mqtt: the topic prefix under which each monitor''s state and events are published.';
comment on column app_public.channels.disabled_at is 'When the service stopped delivering to this channel because the receiver said it is gone for good (a Web Push subscription answered 404 or 410); null while it delivers. A new channel takes its place.';
comment on column app_public.channels.disabled_reason is 'What the receiver answered when the channel was disabled.';

create table if not exists app_private.channel_credentials (
  channel_uuid uuid primary key references app_public.channels on delete cascade,
  credentials jsonb not null check (jsonb_typeof(credentials) = 'object')
);
alter table app_private.channel_credentials enable row level security;
comment on table app_private.channel_credentials is 'What a channel needs to deliver and nobody may read back: ntfy {accessToken}, Pushover {userKey}, Gotify {appToken}, Discord and Slack {webhookUrl}, Web Push {endpoint, p256dh, auth}, MQTT {username, password}. The server needs them in the clear to send, so they live where neither the visitor nor the analyst can read them, like webhook signing secrets (app_private.channel_secrets).';
comment on column app_private.channel_credentials.credentials is 'A JSON object of the type''s secret fields (see the table''s comment); absent optional fields are left out.';

--------------------------------------------------------------------------------------------------
-- The reference list clients read to offer the types (a console's form, a client's docs).

create table if not exists app_public.channel_types (
  name text primary key,
  label text not null,
  fields text not null,
  docs_url text not null
);
alter table app_public.channel_types enable row level security;
drop policy if exists select_all on app_public.channel_types;
create policy select_all on app_public.channel_types for select to app_visitor, app_analyst using (true);
grant select on app_public.channel_types to app_visitor, app_analyst;
comment on table app_public.channel_types is '@behavior -*
The channel types createChannel takes: the name, what it delivers to, the input fields it needs, and the receiver''s documentation. channelTypes lists them.';

insert into app_public.channel_types (name, label, fields, docs_url) values
  ('email', 'E-mail', 'emailAddress', 'https://www.rfc-editor.org/rfc/rfc5321'),
  ('sms', 'SMS through the configured provider', 'phoneNumber (E.164)', 'docs/monitors.md'),
  ('webhook', 'Signed HTTP POST (Standard Webhooks)', 'url; headers (optional); the signing secret is shown once', 'https://www.standardwebhooks.com/'),
  ('telegram', 'Telegram chat through the service''s bot', 'chatId', 'https://core.telegram.org/bots/api#sendmessage'),
  ('ntfy', 'ntfy push (public or self-hosted server)', 'topic; serverUrl (optional, default https://ntfy.sh); token (optional access token)', 'https://docs.ntfy.sh/publish/'),
  ('pushover', 'Pushover push', 'userKey (a user or group key)', 'https://pushover.net/api'),
  ('gotify', 'Gotify push (self-hosted)', 'serverUrl; token (an application token)', 'https://gotify.net/docs/pushmsg'),
  ('discord', 'Discord channel (incoming webhook)', 'url (the webhook URL)', 'https://discord.com/developers/docs/resources/webhook#execute-webhook'),
  ('slack', 'Slack channel (incoming webhook)', 'url (the webhook URL)', 'https://api.slack.com/messaging/webhooks'),
  ('webpush', 'Browser push (Web Push)', 'subscription (the browser''s PushSubscription: endpoint, keys.p256dh, keys.auth)', 'https://www.rfc-editor.org/rfc/rfc8030'),
  ('mqtt', 'MQTT broker, with Home Assistant discovery', 'serverUrl (mqtt://, mqtts://, ws://, wss://); topic (prefix, optional, default nl-incidents); username and password (optional)', 'https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery')
on conflict (name) do update set label = excluded.label, fields = excluded.fields, docs_url = excluded.docs_url;

create or replace function app_public.channel_types() returns setof app_public.monitor_reference_item
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row(t.name, t.label, 'Input fields: ' || t.fields || '. Receiver: ' || t.docs_url, null)::app_public.monitor_reference_item
    from app_public.channel_types t
   order by array_position(array['email', 'sms', 'webhook', 'telegram', 'ntfy', 'pushover', 'gotify', 'discord', 'slack', 'webpush', 'mqtt'], t.name)
$$;
comment on function app_public.channel_types() is E'@notNull\nThe channel types createChannel takes (value), each with what it delivers to (label), and its input fields and the receiver''s documentation (description).';

--------------------------------------------------------------------------------------------------
-- createChannel: every type's fields checked here (Node first checks that URLs name public hosts
-- and makes a webhook's signing secret).

drop function if exists app_accounts.create_channel(text, text, text, text, text, jsonb, text, text);
create or replace function app_accounts.create_channel(
  type text, name text, email_address text, phone_number text, url text, headers jsonb, chat_id text,
  signing_secret text, server_url text, topic text, token text, user_key text, username text, password text,
  subscription jsonb)
  returns uuid
  language plpgsql
  security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  channel_type text := lower(btrim(create_channel.type));
  result uuid;
  header_list app_public.channel_header[];
  credentials jsonb;
  -- An http(s) URL without credentials, spaces or fragments' tricks; the host is checked in Node.
  http_url constant text := '^https?://[^\s/?#@]+([/?][^\s#]*)?$';
  -- A secret token as services issue them: printable, no spaces.
  token_shape constant text := '^[!-~]{1,200}$';
  the_server_url text := nullif(btrim(create_channel.server_url), '');
  the_topic text := nullif(btrim(create_channel.topic), '');
  the_token text := nullif(btrim(create_channel.token), '');
begin
  if channel_type is null or not exists (select 1 from app_public.channel_types t where t.name = channel_type) then
    raise exception 'type must be one of %.', (select string_agg(t.name, ', ' order by t.name) from app_public.channel_types t)
      using errcode = 'XINPT';
  end if;
  if name is null or length(btrim(name)) not between 1 and 200 then
    raise exception 'name must have 1 to 200 characters.' using errcode = 'XINPT';
  end if;
  if (select count(*) from app_public.channels c where c.environment_uuid = environment) >= 100 then
    raise exception 'An environment has at most 100 channels.' using errcode = 'XINPT';
  end if;
  case channel_type
  when 'email' then
    if email_address is null or btrim(email_address) !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or length(email_address) > 254 then
      raise exception 'emailAddress must be an e-mail address for an email channel.' using errcode = 'XINPT';
    end if;
  when 'sms' then
    if phone_number is null or regexp_replace(phone_number, '[\s-]', '', 'g') !~ '^\+[1-9][0-9]{7,14}$' then
      raise exception 'phoneNumber must be an E.164 number such as +31612345678 for an sms channel.' using errcode = 'XINPT';
    end if;
  when 'webhook' then
    if url is null or url !~ '^https?://[^\s/?#]+([/?#]\S*)?$' or length(url) > 2000 then
      raise exception 'url must be an http(s) URL for a webhook channel.' using errcode = 'XINPT';
    end if;
    if signing_secret is null then
      raise exception 'A webhook channel needs a signing secret.' using errcode = 'XINPT';
    end if;
  when 'telegram' then
    if chat_id is null or btrim(chat_id) !~ '^(-?[0-9]{1,20}|@[A-Za-z0-9_]{5,32})$' then
      raise exception 'chatId must be a Telegram chat id (digits) or @channelname for a telegram channel.' using errcode = 'XINPT';
    end if;
  when 'ntfy' then
    the_server_url := coalesce(the_server_url, 'https://ntfy.sh');
    if the_server_url !~ http_url or length(the_server_url) > 2000 then
      raise exception 'serverUrl must be an http(s) URL without credentials for an ntfy channel.' using errcode = 'XINPT';
    end if;
    -- ntfy's topic rule: letters, digits, _ and -, at most 64.
    if the_topic is null or the_topic !~ '^[-_A-Za-z0-9]{1,64}$' then
      raise exception 'topic must be 1 to 64 letters, digits, _ or - for an ntfy channel.' using errcode = 'XINPT';
    end if;
    if the_token is not null and the_token !~ token_shape then
      raise exception 'token must be an ntfy access token (printable, no spaces, at most 200 characters).' using errcode = 'XINPT';
    end if;
    credentials := jsonb_strip_nulls(jsonb_build_object('accessToken', the_token));
  when 'pushover' then
    -- Pushover's user and group keys: 30 letters and digits.
    if user_key is null or btrim(user_key) !~ '^[A-Za-z0-9]{30}$' then
      raise exception 'userKey must be a Pushover user or group key (30 letters and digits) for a pushover channel.' using errcode = 'XINPT';
    end if;
    credentials := jsonb_build_object('userKey', btrim(user_key));
  when 'gotify' then
    if the_server_url is null or the_server_url !~ http_url or length(the_server_url) > 2000 then
      raise exception 'serverUrl must be the http(s) URL of the Gotify server for a gotify channel.' using errcode = 'XINPT';
    end if;
    if the_token is null or the_token !~ token_shape then
      raise exception 'token must be a Gotify application token for a gotify channel.' using errcode = 'XINPT';
    end if;
    credentials := jsonb_build_object('appToken', the_token);
  when 'discord', 'slack' then
    if url is null or btrim(url) !~ http_url or length(url) > 2000 then
      raise exception 'url must be the http(s) incoming-webhook URL for a % channel.', channel_type using errcode = 'XINPT';
    end if;
    credentials := jsonb_build_object('webhookUrl', btrim(url));
  when 'webpush' then
    -- A browser's PushSubscription.toJSON(): an https endpoint, the P-256 public key (65 bytes)
    -- and the 16-byte auth secret, both base64url (RFC 8291).
    if jsonb_typeof(subscription) is distinct from 'object'
       or coalesce(subscription->>'endpoint', '') !~ '^https://[^\s/?#@]+([/?][^\s#]*)?$' or length(subscription->>'endpoint') > 2000
       or coalesce(subscription->'keys'->>'p256dh', '') !~ '^[A-Za-z0-9_-]{86,88}=*$'
       or coalesce(subscription->'keys'->>'auth', '') !~ '^[A-Za-z0-9_-]{22,24}=*$' then
      raise exception 'subscription must be a browser push subscription: an https endpoint and keys.p256dh and keys.auth (base64url) for a webpush channel.'
        using errcode = 'XINPT';
    end if;
    credentials := jsonb_build_object('endpoint', subscription->>'endpoint',
                                      'p256dh', rtrim(subscription->'keys'->>'p256dh', '='),
                                      'auth', rtrim(subscription->'keys'->>'auth', '='));
  when 'mqtt' then
    if the_server_url is null or the_server_url !~ '^(mqtts?|wss?)://[^\s/?#@]+(/[^\s#?]*)?$' or length(the_server_url) > 2000 then
      raise exception 'serverUrl must be an mqtt://, mqtts://, ws:// or wss:// broker URL without credentials for an mqtt channel.'
        using errcode = 'XINPT';
    end if;
    the_topic := coalesce(the_topic, 'nl-incidents');
    -- A topic prefix: no wildcards, no empty levels at its ends, no $ system topics.
    if the_topic !~ '^[^#+\s/$][^#+\s]{0,99}$' or the_topic ~ '/$' then
      raise exception 'topic must be an MQTT topic prefix without wildcards (+, #), spaces or a leading / or $ for an mqtt channel.'
        using errcode = 'XINPT';
    end if;
    if length(username) > 200 or length(password) > 200 or (password is not null and username is null) then
      raise exception 'username and password must have at most 200 characters, and a password needs a username.' using errcode = 'XINPT';
    end if;
    credentials := jsonb_strip_nulls(jsonb_build_object('username', username, 'password', password));
  end case;
  if headers is not null and jsonb_array_length(headers) > 0 then
    if channel_type <> 'webhook' then
      raise exception 'headers apply to webhook channels only.' using errcode = 'XINPT';
    end if;
    if jsonb_array_length(headers) > 20 then
      raise exception 'A webhook has at most 20 headers.' using errcode = 'XINPT';
    end if;
    if exists (select 1 from jsonb_array_elements(headers) h
                where coalesce(h->>'name', '') !~ '^[A-Za-z0-9!#$%&''*+.^_`|~-]{1,100}$'
                   or coalesce(h->>'value', '') ~ '[\r\n]' or length(h->>'value') > 2000
                   or lower(h->>'name') in ('host', 'content-length', 'content-type', 'webhook-id', 'webhook-timestamp',
                                            'webhook-signature', 'transfer-encoding', 'connection')) then
      raise exception 'headers: each needs a valid name (not Host, Content-*, Webhook-* or hop-by-hop) and a value of one line.'
        using errcode = 'XINPT';
    end if;
    header_list := array(select row(h->>'name', coalesce(h->>'value', ''))::app_public.channel_header
                           from jsonb_array_elements(headers) with ordinality as x (h, i) order by i);
  end if;
  insert into app_public.channels (environment_uuid, type, name, email_address, phone_number, url, headers, chat_id, server_url, topic)
  values (environment, channel_type, btrim(name),
          case when channel_type = 'email' then lower(btrim(email_address)) end,
          case when channel_type = 'sms' then regexp_replace(phone_number, '[\s-]', '', 'g') end,
          case when channel_type = 'webhook' then btrim(url) end,
          coalesce(header_list, '{}'),
          case when channel_type = 'telegram' then btrim(chat_id) end,
          case when channel_type in ('ntfy', 'gotify', 'mqtt') then the_server_url end,
          case when channel_type in ('ntfy', 'mqtt') then the_topic end)
  returning uuid into result;
  if channel_type = 'webhook' then
    insert into app_private.channel_secrets (channel_uuid, signing_secret) values (result, signing_secret);
  end if;
  if credentials is not null then
    insert into app_private.channel_credentials (channel_uuid, credentials) values (result, credentials);
  end if;
  return result;
end;
$$;
grant execute on function app_accounts.create_channel(text, text, text, text, text, jsonb, text, text, text, text, text, text, text, text, jsonb) to app_visitor;
comment on function app_accounts.create_channel(text, text, text, text, text, jsonb, text, text, text, text, text, text, text, text, jsonb) is 'createChannel (plugins/monitor-mutations.ts): checks and stores a notification channel of the current environment (any type of app_public.channel_types), at most 100 per environment; webhook headers may not override Host, Content-*, the Webhook-* signature headers or hop-by-hop ones. What lets anyone post or read in the member''s name (tokens, user keys, Discord and Slack webhook URLs, push subscriptions, broker credentials) goes to app_private.channel_credentials, the webhook signing secret to app_private.channel_secrets; both out of reach of the visitor and the analyst. Node first checks that every URL names a public host (DNS) and makes the signing secret.';

--------------------------------------------------------------------------------------------------
-- What the deliverer reads: the channel's uuid, server, topic, credentials and whether it is
-- disabled, beside what it read before.

drop function if exists app_accounts.start_test_notification(text);
drop function if exists app_private.notification_for_delivery(uuid);
create function app_private.notification_for_delivery(notification_uuid uuid)
  returns table (notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text,
                 url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text,
                 message_uuid uuid, message text, sended timestamptz, urgency text, discipline text, region text,
                 city text, street text, postcode text, latitude double precision, longitude double precision,
                 dossier_uuid uuid, respond_token text, kind text, headline text, facts text[], event_type text,
                 payload jsonb, channel_uuid uuid, server_url text, topic text, credentials jsonb,
                 channel_disabled_at timestamptz)
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select n.uuid, c.type, c.name, c.email_address, c.phone_number, c.url,
         coalesce((select jsonb_agg(jsonb_build_object('name', h.name, 'value', h.value)) from unnest(c.headers) h), '[]'),
         c.chat_id, s.signing_secret, mo.uuid, mo.name, m.uuid, m.message, m.sended, u.code, d.name, g.name,
         m.city, m.street, m.postcode, m.latitude, m.longitude, m.dossier_uuid,
         case when m.uuid is not null then app_private.responder_token(n.uuid) end,
         coalesce(n.event_kind, 'p2000'), n.headline, n.facts, n.event_type, n.payload,
         c.uuid, c.server_url, c.topic, coalesce(k.credentials, '{}'), c.disabled_at
    from app_private.notifications n
    join app_public.channels c on c.uuid = n.channel_uuid
    left join app_public.monitors mo on mo.uuid = n.monitor_uuid
    left join app_public.p2000_messages m on m.uuid = n.message_uuid
    left join app_private.channel_secrets s on s.channel_uuid = c.uuid
    left join app_private.channel_credentials k on k.channel_uuid = c.uuid
    left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
    left join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
    left join app_public.p2000_regions g on g.uuid = m.region_uuid
   where n.uuid = notification_for_delivery.notification_uuid and n.status = 'queued'
$$;
comment on function app_private.notification_for_delivery(uuid) is 'What the task notifications__deliver (and sendTestNotification) needs to send one notification: channel (its server, topic, credentials and whether it is disabled) and signing secret, monitor (none for a test send), and subject (a P2000 message''s columns with its respond link, or the headline, facts and payload a feed''s matcher or the test send rendered). No row once it is no longer queued, so a repeated job never sends twice.';

create function app_accounts.start_test_notification(channel text)
  returns table (notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text,
                 url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text,
                 message_uuid uuid, message text, sended timestamptz, urgency text, discipline text, region text,
                 city text, street text, postcode text, latitude double precision, longitude double precision,
                 dossier_uuid uuid, respond_token text, kind text, headline text, facts text[], event_type text,
                 payload jsonb, channel_uuid uuid, server_url text, topic text, credentials jsonb,
                 channel_disabled_at timestamptz)
  language plpgsql
  security definer
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
comment on function app_accounts.start_test_notification(text) is 'sendTestNotification (plugins/monitor-mutations.ts), first step: a channel of the current environment (NOT_FOUND for any other), at most 5 test sends per channel and minute (RATE_LIMITED), stored as a notification of kind test without monitor, and returned as app_private.notification_for_delivery returns it, so Node sends it through the real delivery code. The secrets go to Node only; app_accounts is not part of the GraphQL schema.';

--------------------------------------------------------------------------------------------------
-- A receiver that says a channel is gone for good (a Web Push subscription answering 404 or 410,
-- RFC 8030 section 7.3) disables it: later notifications to it fail at once, without retries.

create or replace function app_private.disable_channel(channel_uuid uuid, reason text) returns void
  language sql
  set search_path to pg_catalog, public, pg_temp
as $$
  update app_public.channels c set disabled_at = coalesce(c.disabled_at, now()), disabled_reason = left(reason, 1000)
   where c.uuid = disable_channel.channel_uuid;
$$;
comment on function app_private.disable_channel(uuid, text) is 'Marks a channel disabled with what its receiver answered (the deliverer calls it when a Web Push subscription is gone: 404 or 410). The first time is kept.';
