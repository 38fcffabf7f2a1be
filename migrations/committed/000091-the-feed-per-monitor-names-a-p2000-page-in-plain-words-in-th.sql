--! Previous: sha1:e1c4a226a5802485c2ada9694a3c86d8e076de62
--! Hash: sha1:5d4d7be93187046b2952d8f902320685bae47d4e
--! Message: The feed per monitor names a P2000 page in plain words in the monitor's language

-- The feed per monitor says a P2000 page in plain words too, in the monitor's language (issue 45).
CREATE OR REPLACE FUNCTION app_private.monitor_feed(secret_hash bytea)
 RETURNS TABLE(feed_uuid uuid, name text, created_at timestamp with time zone, items jsonb)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  with feed as (
    select t.monitor_uuid, t.feed_uuid, t.created_at, m.name, coalesce(m.notification_rules->>'language', 'nl') as language
      from app_private.monitor_feed_tokens t join app_public.monitors m on m.uuid = t.monitor_uuid
     where t.secret_hash = monitor_feed.secret_hash
  ), recent as (
    select r.* from (
      (select 'p2000'::text as kind, mm.message_uuid as uuid, mm.sended as matched_at
         from feed, app_hidden.monitor_matches mm
        where mm.monitor_uuid = feed.monitor_uuid and mm.suppressed_reason is null
          and mm.sended >= now() - interval '30 days'
        order by mm.sended desc limit 50)
      union all
      (select fm.event_kind, fm.event_uuid, fm.matched_at
         from feed, app_hidden.feed_monitor_matches fm
        where fm.monitor_uuid = feed.monitor_uuid and fm.suppressed_reason is null
          and fm.matched_at >= now() - interval '30 days'
        order by fm.matched_at desc limit 50)) r
     order by r.matched_at desc, r.uuid desc
     limit 50
  )
  select feed.feed_uuid, feed.name, feed.created_at,
         coalesce((select jsonb_agg(jsonb_build_object('kind', i.kind, 'uuid', i.uuid, 'at', i.at, 'title', i.title,
                                                       'latitude', i.latitude, 'longitude', i.longitude, 'link', i.link,
                                                       'plainText', app_hidden.p2000_plain_text(m, feed.language))
                                    order by r.matched_at desc, r.uuid desc)
                     from (select r.kind, array_agg(r.uuid) as uuids from recent r group by r.kind) k
                          cross join lateral app_hidden.monitor_items(k.kind, k.uuids) i
                          join recent r on r.kind = i.kind and r.uuid = i.uuid
                          left join app_public.p2000_messages m on i.kind = 'p2000' and m.uuid = i.uuid), '[]')
    from feed
$function$;
grant execute on function app_private.monitor_feed(secret_hash bytea) to app_authenticator;
comment on function app_private.monitor_feed(secret_hash bytea) is 'The feed of the monitor whose feed secret has this SHA-256, for GET /feeds/monitors/<secret>.atom|.geojson (lib/monitors/feed-route.ts): its feed id, name and creation time, and its newest 50 matches of the last 30 days that notified (not those held back by quiet hours or a throttle), P2000 messages and feed events alike, newest first, rendered by app_hidden.monitor_items, a P2000 message with its plain text (plainText) in the monitor''s notificationRules.language. No row for an unknown or revoked secret. Called by the authenticator, which reads no table, hence SECURITY DEFINER; nothing else of the monitor or its environment leaves it.';
