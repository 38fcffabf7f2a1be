--! Previous: sha1:5dd800d2e5d8cf295aec1b0361475134fcd1943b
--! Hash: sha1:924179748f66f2922571005ff6cea648ed94cdb3
--! Message: respondLink: a respond link checked without answering it, by the one verification respondOnTheWay uses

-- Issue 44, point 12: the respond page checks its link as it opens. The check respond_on_the_way
-- made (form, HMAC with the responder key, expiry, the notification still there) is now one helper,
-- app_private.respond_token_notification, which respond_on_the_way and the new read-only
-- app_accounts.respond_link (GraphQL respondLink) both call: one verification, the same errors.
create or replace function app_private.respond_token_notification(token text,
    out notification_uuid uuid, out monitor_uuid uuid, out channel_uuid uuid, out dossier_uuid uuid,
    out message_uuid uuid, out incident_uuid uuid, out environment_uuid uuid, out recipient text,
    out expires_at timestamptz)
  returns record
  language plpgsql stable
  security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  parts text[] := string_to_array(coalesce(token, ''), '.');
  payload bytea;
  claims text[];
  n app_private.notifications;
  c app_public.channels;
begin
  if cardinality(parts) <> 2 or parts[1] !~ '^[A-Za-z0-9_-]+$' or parts[2] !~ '^[A-Za-z0-9_-]{43}$' then
    raise exception 'This respond link is not valid.' using errcode = 'XAUTH';
  end if;
  payload := decode(rpad(translate(parts[1], '-_', '+/'), (length(parts[1]) + 3) / 4 * 4, '='), 'base64');
  -- "is distinct from": no responder key (a null HMAC) refuses every link rather than none.
  if decode(rpad(translate(parts[2], '-_', '+/'), 44, '='), 'base64')
       is distinct from hmac(payload, (select k.key from app_private.signing_keys k where k.purpose = 'responder'), 'sha256') then
    raise exception 'This respond link is not valid.' using errcode = 'XAUTH';
  end if;
  claims := string_to_array(convert_from(payload, 'UTF8'), '.');
  if claims[5]::bigint < extract(epoch from now()) then
    raise exception 'This respond link has expired.' using errcode = 'XAUTH';
  end if;
  select * into n from app_private.notifications x
   where x.uuid = claims[1]::uuid and x.monitor_uuid = claims[2]::uuid
     and coalesce(x.dossier_uuid, x.message_uuid) = claims[3]::uuid and x.channel_uuid = claims[4]::uuid;
  select * into c from app_public.channels x where x.uuid = n.channel_uuid;
  if n.uuid is null or c.uuid is null then
    raise exception 'This respond link belongs to a notification that no longer exists.' using errcode = 'XNOTF';
  end if;
  notification_uuid := n.uuid;
  monitor_uuid := n.monitor_uuid;
  channel_uuid := n.channel_uuid;
  dossier_uuid := n.dossier_uuid;
  message_uuid := n.message_uuid;
  incident_uuid := coalesce(n.dossier_uuid, n.message_uuid);
  environment_uuid := c.environment_uuid;
  recipient := coalesce(c.email_address, c.phone_number, c.chat_id, c.url, c.name);
  expires_at := to_timestamp(claims[5]::bigint);
end;
$$;
comment on function app_private.respond_token_notification(text) is 'The one check of a respond link token (app_private.responder_token), for respond_on_the_way and respond_link: its form and HMAC with the responder key (XAUTH "This respond link is not valid."), its expiry (XAUTH "This respond link has expired.") and its notification and channel still being there (XNOTF); returns that notification''s facts, its recipient (as alert_responders records it) and the link''s expiry. Writes nothing.';

create or replace function app_accounts.respond_on_the_way(token text, status text)
  returns uuid
  language plpgsql
  security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  n record;
  result uuid;
begin
  if status is null or status not in ('going', 'cancelled') then
    raise exception 'status must be going or cancelled.' using errcode = 'XINPT';
  end if;
  select * into n from app_private.respond_token_notification(token);
  insert into app_public.alert_responders as r (environment_uuid, monitor_uuid, channel_uuid, dossier_uuid, message_uuid,
      incident_uuid, recipient, status, last_request_uuid)
  values (n.environment_uuid, n.monitor_uuid, n.channel_uuid, n.dossier_uuid, n.message_uuid, n.incident_uuid,
      n.recipient, respond_on_the_way.status, nullif(current_setting('app.request_uuid', true), '')::uuid)
  on conflict (monitor_uuid, incident_uuid, channel_uuid) do update
    set status = excluded.status, last_request_uuid = excluded.last_request_uuid
  returning r.uuid into result;
  return result;
end;
$$;
grant execute on function app_accounts.respond_on_the_way(token text, status text) to app_visitor;
comment on function app_accounts.respond_on_the_way(token text, status text) is 'respondOnTheWay: the signed respond link of a P2000 notification (app_private.responder_token) is the credential, so no login is needed; records or changes that recipient''s status (going or cancelled) for the incident. A malformed, tampered or expired link answers UNAUTHENTICATED, as every invalid credential token does (migration 000029); the link is checked by app_private.respond_token_notification, as respond_link checks it.';

create or replace function app_accounts.respond_link(token text,
    out dossier_uuid uuid, out message_uuid uuid, out expires_at timestamptz, out status text)
  returns record
  language plpgsql stable
  security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  n record;
begin
  select * into n from app_private.respond_token_notification(token);
  dossier_uuid := n.dossier_uuid;
  message_uuid := n.message_uuid;
  expires_at := n.expires_at;
  select r.status into status from app_public.alert_responders r
   where r.monitor_uuid = n.monitor_uuid and r.incident_uuid = n.incident_uuid and r.channel_uuid = n.channel_uuid;
end;
$$;
grant execute on function app_accounts.respond_link(token text) to app_visitor;
comment on function app_accounts.respond_link(token text) is 'respondLink: what the respond page shows as it opens, read with the link''s signed token as the credential (no login) and writing nothing: the incident (the notification''s dossier, else its message), when the link expires, and the recipient''s current answer for that incident (going or cancelled; null before any). The token is checked exactly as respond_on_the_way checks it (app_private.respond_token_notification), with the same UNAUTHENTICATED and NOT_FOUND errors.';
