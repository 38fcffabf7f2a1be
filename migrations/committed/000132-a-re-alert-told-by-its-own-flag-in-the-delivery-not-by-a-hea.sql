--! Previous: sha1:1657b0ec96a05d8cf43d4ecf393247863016f333
--! Hash: sha1:147df1283c2428da89755c7688595cccc1794dc7
--! Message: A re-alert told by its own flag in the delivery, not by a headline; the crew availability flushes no cache

-- A re-alert is told by its own flag (notifications.re_alert), not by the presence of a headline:
-- the delivery reads it (lib/monitors/notification-text.ts, the webhook's event type).
drop function app_private.notification_for_delivery(uuid);
drop function app_private.notifications_for_delivery(uuid[]);

CREATE OR REPLACE FUNCTION app_private.notifications_for_delivery(notification_uuids uuid[])
 RETURNS TABLE(notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text, url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text, message_uuid uuid, message text, sended timestamp with time zone, urgency text, discipline text, region text, city text, street text, postcode text, latitude double precision, longitude double precision, dossier_uuid uuid, respond_token text, kind text, headline text, facts text[], event_type text, payload jsonb, channel_uuid uuid, server_url text, topic text, credentials jsonb, channel_disabled_at timestamp with time zone, plain_text text, language text, re_alert boolean)
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
begin
  return query
  with queued as materialized (
    select n.uuid, n.monitor_uuid, n.channel_uuid, n.message_uuid, n.dossier_uuid, n.created, n.event_kind, n.headline,
           n.facts, n.event_type, n.payload, n.re_alert, mo.name as monitor_name,
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
         p.plain_text, n.language, n.re_alert
    from queued n
    join app_public.channels c on c.uuid = n.channel_uuid
    left join pages p on p.uuid = n.message_uuid and p.language = n.language
    left join app_private.channel_secrets s on s.channel_uuid = c.uuid
    left join app_private.channel_credentials k on k.channel_uuid = c.uuid;
end;
$function$;
comment on function app_private.notifications_for_delivery(notification_uuids uuid[]) is 'What the task notifications__deliver needs to send a batch of notifications, one row each: channel (its server, topic, credentials and whether it is disabled) and signing secret, monitor (none for a test send), and subject (a P2000 message''s columns with its respond link and its plain text in the monitor''s language, written out once per page and language, or the headline, facts and payload a feed''s matcher or the test send rendered), and whether it is a reAlert rule''s second page (re_alert: its headline says how many are coming). No row for one no longer queued, so a repeated job never sends twice.';

CREATE OR REPLACE FUNCTION app_private.notification_for_delivery(notification_uuid uuid)
 RETURNS TABLE(notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text, url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text, message_uuid uuid, message text, sended timestamp with time zone, urgency text, discipline text, region text, city text, street text, postcode text, latitude double precision, longitude double precision, dossier_uuid uuid, respond_token text, kind text, headline text, facts text[], event_type text, payload jsonb, channel_uuid uuid, server_url text, topic text, credentials jsonb, channel_disabled_at timestamp with time zone, plain_text text, language text, re_alert boolean)
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  select * from app_private.notifications_for_delivery(array[notification_for_delivery.notification_uuid])
$function$;
comment on function app_private.notification_for_delivery(notification_uuid uuid) is 'app_private.notifications_for_delivery of one notification (sendTestNotification); no row once it is no longer queued.';

-- The crew's availability is read by no cached answer (crew, stationScreen and respondLink are
-- never cached), so its changes need not flush the response cache's monitors domain; the screens
-- hear them through their own trigger.
drop trigger _900_notify_data_changed on app_public.crew_availability;
