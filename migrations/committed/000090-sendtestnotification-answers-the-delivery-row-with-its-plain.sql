--! Previous: sha1:77a7c51feea4726f386ece71b0b3ef151b239335
--! Hash: sha1:e1c4a226a5802485c2ada9694a3c86d8e076de62
--! Message: sendTestNotification answers the delivery row with its plain text and language

-- sendTestNotification answers a row as app_private.notification_for_delivery does, which (migration
-- 000089) now carries a P2000 message's plain text and the monitor's language.
drop function if exists app_accounts.start_test_notification(text);
create function app_accounts.start_test_notification(channel text)
 RETURNS TABLE(notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text, url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text, message_uuid uuid, message text, sended timestamp with time zone, urgency text, discipline text, region text, city text, street text, postcode text, latitude double precision, longitude double precision, dossier_uuid uuid, respond_token text, kind text, headline text, facts text[], event_type text, payload jsonb, channel_uuid uuid, server_url text, topic text, credentials jsonb, channel_disabled_at timestamp with time zone, plain_text text, language text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
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
$function$;
grant execute on function app_accounts.start_test_notification(channel text) to app_visitor;
comment on function app_accounts.start_test_notification(channel text) is 'sendTestNotification (plugins/monitor-mutations.ts), first step: a channel of the current environment (NOT_FOUND for any other), at most 5 test sends per channel and minute (RATE_LIMITED), stored as a notification of kind test without monitor, and returned as app_private.notification_for_delivery returns it, so Node sends it through the real delivery code. The secrets go to Node only; app_accounts is not part of the GraphQL schema.';
