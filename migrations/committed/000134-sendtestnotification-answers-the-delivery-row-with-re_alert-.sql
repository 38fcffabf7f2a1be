--! Previous: sha1:68fcd5b76d7ed2a06978f1169ccd98a77ecf2988
--! Hash: sha1:64b68381012a9af42b9ab9e126dcda60e95621ba
--! Message: sendTestNotification answers the delivery row with re_alert as the batch read does

-- sendTestNotification's first step answers the delivery row, whose shape gained re_alert (000132).
drop function app_accounts.start_test_notification(text);

CREATE OR REPLACE FUNCTION app_accounts.start_test_notification(channel text)
 RETURNS TABLE(notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text, url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text, message_uuid uuid, message text, sended timestamp with time zone, urgency text, discipline text, region text, city text, street text, postcode text, latitude double precision, longitude double precision, dossier_uuid uuid, respond_token text, kind text, headline text, facts text[], event_type text, payload jsonb, channel_uuid uuid, server_url text, topic text, credentials jsonb, channel_disabled_at timestamp with time zone, plain_text text, language text, re_alert boolean)
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
comment on function app_accounts.start_test_notification(channel text) is 'sendTestNotification (plugins/monitor-mutations.ts), first step: a channel of the current environment (NOT_FOUND for any other), at most 5 test sends per channel and minute (RATE_LIMITED), stored as a notification of kind test without monitor, and returned as app_private.notification_for_delivery returns it, so Node sends it through the real delivery code. The secrets go to Node only; app_accounts is not part of the GraphQL schema.';
grant execute on function app_accounts.start_test_notification(channel text) to app_visitor;
