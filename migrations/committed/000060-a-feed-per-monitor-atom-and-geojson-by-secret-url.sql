--! Previous: sha1:2a5c82f52908ba048baf9b73c75451ac08a37056
--! Hash: sha1:371c25da5cb8c8cf334cd1a7e372ed14514722a9
--! Message: A feed per monitor: Atom and GeoJSON by secret URL

-- A feed per monitor (issue #30, part 2): a secret, revocable URL per monitor that serves its
-- recent matches as Atom and GeoJSON (lib/monitors/feed-route.ts). Feed readers and Home
-- Assistant cannot send an Authorization header, so the URL itself is the credential (a
-- capability URL); only its SHA-256 is stored, as for API tokens, and rotating it replaces the
-- hash, so the old URL stops working at once.
--
-- Every matched item is rendered (time, title, place, link) by one definition,
-- app_hidden.monitor_items, which monitorPreview's feed items now read too.
-- Re-runnable while it is current.sql.
drop function if exists app_private.monitor_feed(bytea);
drop function if exists app_accounts.rotate_monitor_feed(text, bytea);
drop function if exists app_accounts.revoke_monitor_feed(text);
drop function if exists app_public.monitors_feed_created_at(app_public.monitors);

--------------------------------------------------------------------------------------------------
-- One rendering of a matched item of any kind.

drop function if exists app_hidden.monitor_items(text, uuid[]);
create function app_hidden.monitor_items(item_kind text, uuids uuid[])
  returns table (kind text, uuid uuid, at timestamptz, title text, latitude double precision, longitude double precision,
                 link text)
  language plpgsql stable
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  case item_kind
  when 'p2000' then
    return query
      select 'p2000', m.uuid, m.sended, m.message, m.latitude, m.longitude, null::text
        from app_public.p2000_messages m where m.uuid = any (uuids);
  when 'traffic' then
    -- An incident event, of the type the event was about.
    return query
      select 'traffic', e.uuid, e.created, concat_ws(' ', e.kind, e.type, i.road_number), i.latitude, i.longitude, null::text
        from app_public.traffic_incident_events e join app_public.traffic_incidents i on i.uuid = e.incident_uuid
       where e.uuid = any (uuids);
  when 'meteo' then
    return query
      select 'meteo', e.uuid, e.created, concat_ws(' ', p.name, e.level, array_to_string(e.phenomena, ', ')),
             null::double precision, null::double precision, null::text
        from app_public.meteo_warning_events e join app_public.meteo_provinces p on p.uuid = e.province_uuid
       where e.uuid = any (uuids);
  when 'nl_alert' then
    -- The message's first part (the Dutch text), placed at the centre of its first area.
    return query
      select 'nl_alert', a.uuid, a.start_at, left(btrim(split_part(a.message, '***', 1)), 140),
             (@@ a.areas[1])[1], (@@ a.areas[1])[0], null::text
        from app_public.nl_alerts a where a.uuid = any (uuids);
  when 'amber_alert', 'amber_alert_end' then
    -- The issue at its start, the end at its end.
    return query
      select item_kind, a.uuid,
             case item_kind when 'amber_alert' then a.started_at else coalesce(a.ended_at, a.changed) end,
             concat_ws(' ', coalesce(a.title, (app_hidden.amber_alert_label(a.level)).label),
                       case item_kind when 'amber_alert_end' then '(ended)' end),
             null::double precision, null::double precision, a.read_more_url
        from app_public.amber_alerts a where a.uuid = any (uuids);
  when 'aircraft' then
    return query
      select 'aircraft', e.uuid, e.at, concat_ws(' ', f.registration, e.kind, e.place), e.latitude, e.longitude, null::text
        from app_public.aircraft_events e join app_public.aircraft_fleet f on f.icao = e.icao
       where e.uuid = any (uuids);
  when 'traffic_jam' then
    -- As the jam is now: no history of its delay is kept.
    return query
      select 'traffic_jam', j.uuid, j.first_seen_at,
             concat_ws(' ', j.road_number, j.jam_type, j.delay_minutes || ' min', j.queue_length_m || ' m'), j.latitude,
             j.longitude, null::text
        from app_public.traffic_jams j where j.uuid = any (uuids);
  when 'rail' then
    -- When it became news: first seen, or its start if later.
    return query
      select 'rail', d.uuid, greatest(d.first_seen_at, d.start_at), d.title, null::double precision, null::double precision,
             null::text
        from app_public.rail_disruptions d where d.uuid = any (uuids);
  when 'rss' then
    return query
      select 'rss', i.uuid, i.first_seen_at, coalesce(i.title, i.link), i.latitude, i.longitude, i.link
        from app_public.rss_feed_items i where i.uuid = any (uuids);
  when 'related_signal' then
    -- A traffic incident, a flight or an NL-Alert that joined a dossier the monitor notified.
    return query
      select 'related_signal', t.uuid, t.sort_at, concat_ws(' ', t.type, t.road_number), t.latitude, t.longitude, null::text
        from app_public.traffic_incidents t where t.uuid = any (uuids)
      union all
      select 'related_signal', r.uuid, coalesce(r.landed_at, r.took_off_at, r.first_seen_at),
             concat_ws(' ', f.registration, case when r.landed_at is not null then 'landing' else 'take-off' end,
                       case when r.landed_at is not null then r.end_place else r.start_place end),
             case when r.landed_at is not null then r.end_latitude else r.start_latitude end,
             case when r.landed_at is not null then r.end_longitude else r.start_longitude end, null::text
        from app_public.aircraft_routes r left join app_public.aircraft_fleet f on f.icao = r.icao
       where r.uuid = any (uuids)
      union all
      select 'related_signal', x.uuid, x.at, x.title, x.latitude, x.longitude, x.link
        from app_hidden.monitor_items('nl_alert', uuids) x;
  else
    return;
  end case;
end;
$$;
revoke execute on function app_hidden.monitor_items(text, uuid[]) from app_visitor;
comment on function app_hidden.monitor_items(item_kind text, uuids uuid[]) is 'The matched items of one kind (p2000, or an event_kind of feed_monitor_matches) with these uuids, rendered once for every reader: their time, a title, their place for a map (null where the feed has none) and a link where the source gives one. monitorPreview (through app_hidden.monitor_preview_feed_items) and the feed per monitor (app_private.monitor_feed) both show items through it. Not for visitors: it reads tables of app_analyst; the SECURITY DEFINER functions that call it decide which items.';

-- The preview's feed items, now rendered by app_hidden.monitor_items; which items match is unchanged.
create or replace function app_hidden.monitor_preview_feed_items(mo app_public.monitors, since timestamptz)
  returns table (kind text, uuid uuid, at timestamptz, title text, latitude double precision, longitude double precision)
  language plpgsql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  traffic app_hidden.traffic_monitor_criteria;
  meteo app_hidden.meteo_monitor_criteria;
  nl app_hidden.nl_alert_monitor_criteria;
  amber app_hidden.amber_alert_monitor_criteria;
  item_kind text;
  uuids uuid[];
begin
  case mo.type
  when 'accident' then
    traffic := app_hidden.accident_criteria_of(mo);
    item_kind := 'traffic';
    uuids := array(
      select e.uuid
        from app_public.traffic_incident_events e join app_public.traffic_incidents i on i.uuid = e.incident_uuid
       where e.created >= since and e.created <= now()
         and app_hidden.traffic_incident_passes(traffic, app_hidden.traffic_event_incident(e, i)));
  when 'meteo_weather' then
    meteo := app_hidden.meteo_criteria_of(mo);
    item_kind := 'meteo';
    uuids := array(
      select e.uuid from app_public.meteo_warning_events e
       where e.created >= since and e.created <= now() and e.period_to > e.created
         and app_hidden.meteo_event_passes(meteo, e));
  when 'nl_alert' then
    nl := app_hidden.nl_alert_criteria_of(mo);
    item_kind := 'nl_alert';
    uuids := array(
      select a.uuid from app_public.nl_alerts a
       where a.start_at >= since and a.start_at <= now()
         and (a.stop_at is null or a.stop_at > a.first_seen_at) and a.start_at > a.first_seen_at - interval '24 hours'
         and app_hidden.nl_alert_passes(nl, a));
  when 'amber_alert' then
    amber := app_hidden.amber_alert_criteria_of(mo);
    item_kind := 'amber_alert';
    uuids := array(
      select a.uuid from app_public.amber_alerts a
       where a.started_at >= since and a.started_at <= now() and a.started_at > a.first_seen_at - interval '24 hours'
         and app_hidden.amber_alert_passes(amber, a));
  when 'aircraft' then
    -- Take-offs and landings; overhead events are made for one saved monitor (aircraft_event_passes
    -- lets an unsaved one see none).
    item_kind := 'aircraft';
    uuids := array(
      select e.uuid from app_public.aircraft_events e
       where e.at >= since and e.at <= now() and app_hidden.aircraft_event_passes(mo, e));
  when 'matrix' then
    -- Jams as they are now (no history of a jam's delay is kept), by when they were first seen.
    item_kind := 'traffic_jam';
    uuids := array(
      select j.uuid from app_public.traffic_jams j
       where j.first_seen_at >= since and j.first_seen_at <= now()
         and app_hidden.traffic_jam_passes(app_hidden.matrix_criteria_of(mo), j));
  when 'rail_disruptions' then
    -- Disruptions by when they became news: first seen, or their start if later (live matching
    -- waits for a planned one to become active); not those still to start. Ended ones count.
    item_kind := 'rail';
    uuids := array(
      select d.uuid from app_public.rail_disruptions d
       where greatest(d.first_seen_at, d.start_at) >= since and greatest(d.first_seen_at, d.start_at) <= now()
         and app_hidden.rail_disruption_passes(app_hidden.rail_criteria_of(mo), d));
  when 'rss' then
    -- Items by first sight, of the feeds already followed (a preview follows no new feed).
    item_kind := 'rss';
    uuids := array(
      select i.uuid from app_public.rss_feed_items i
       where i.first_seen_at >= since and i.first_seen_at <= now()
         and app_hidden.rss_item_passes(app_hidden.rss_criteria_of(mo), i));
  end case;
  return query
    select x.kind, x.uuid, x.at, x.title, x.latitude, x.longitude from app_hidden.monitor_items(item_kind, uuids) x;
end;
$$;

--------------------------------------------------------------------------------------------------
-- The feed's secret.

create table if not exists app_private.monitor_feed_tokens (
  monitor_uuid uuid primary key references app_public.monitors (uuid) on delete cascade,
  -- A new id per secret: a rotated feed is another feed to a reader (Atom's feed id).
  feed_uuid uuid not null default gen_random_uuid(),
  secret_hash bytea not null unique check (length(secret_hash) = 32),
  created_at timestamptz not null default now()
);
alter table app_private.monitor_feed_tokens enable row level security;
comment on table app_private.monitor_feed_tokens is 'The feed URL of a monitor (one at most): the SHA-256 of the secret in its path, never the secret; rotateMonitorFeed replaces the row and revokeMonitorFeed deletes it, so an old URL answers 404 at once. feed_uuid is the Atom feed''s id, new with every secret. Read only through app_private.monitor_feed (the HTTP route) and app_public.monitors_feed_created_at.';
comment on column app_private.monitor_feed_tokens.feed_uuid is 'The feed''s id in Atom (urn:uuid:…), new with each secret: a rotated URL is a new feed to a reader, and the id says nothing about the monitor.';
comment on column app_private.monitor_feed_tokens.secret_hash is 'SHA-256 of the secret in the feed URL (lib/monitors/feed-secrets.ts).';
comment on column app_private.monitor_feed_tokens.created_at is 'When this secret was made (Monitor.feedCreatedAt).';

-- SECURITY DEFINER to read app_private.monitor_feed_tokens; for monitors of the caller's
-- environment only, so that a row made up with another monitor's uuid learns nothing.
create function app_public.monitors_feed_created_at(m app_public.monitors) returns timestamptz
  language sql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  select t.created_at from app_private.monitor_feed_tokens t
   where t.monitor_uuid = m.uuid
     and exists (select 1 from app_public.monitors x
                  where x.uuid = m.uuid and x.environment_uuid = app_hidden.current_member_environment_uuid())
$$;
comment on function app_public.monitors_feed_created_at(m app_public.monitors) is 'When the monitor''s current feed URL was made (rotateMonitorFeed); null without one. The URL itself is shown only by rotateMonitorFeed.';

--------------------------------------------------------------------------------------------------
-- rotateMonitorFeed and revokeMonitorFeed (plugins/monitor-feeds.ts).

create function app_accounts.rotate_monitor_feed(monitor_uuid text, secret_hash bytea) returns timestamptz
  language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  monitor uuid;
  made timestamptz;
begin
  select m.uuid into monitor from app_public.monitors m
   where m.uuid = app_hidden.try_uuid(rotate_monitor_feed.monitor_uuid) and m.environment_uuid = environment;
  if monitor is null then
    raise exception 'Monitor not found.' using errcode = 'XNOTF';
  end if;
  if length(rotate_monitor_feed.secret_hash) is distinct from 32 then
    raise exception 'A feed secret hash has 32 bytes.' using errcode = 'XINPT';
  end if;
  insert into app_private.monitor_feed_tokens as t (monitor_uuid, secret_hash)
  values (monitor, rotate_monitor_feed.secret_hash)
  on conflict on constraint monitor_feed_tokens_pkey
    do update set secret_hash = excluded.secret_hash, feed_uuid = gen_random_uuid(), created_at = now()
  returning t.created_at into made;
  return made;
end;
$$;
grant execute on function app_accounts.rotate_monitor_feed(text, bytea) to app_visitor;
comment on function app_accounts.rotate_monitor_feed(monitor_uuid text, secret_hash bytea) is 'rotateMonitorFeed: gives a monitor of the current environment a feed URL, or a new one that replaces the old, by the SHA-256 of its secret (made in Node, shown once); returns when it was made. A monitor of any other environment answers NOT_FOUND.';

create function app_accounts.revoke_monitor_feed(monitor_uuid text) returns boolean
  language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  monitor uuid;
begin
  select m.uuid into monitor from app_public.monitors m
   where m.uuid = app_hidden.try_uuid(revoke_monitor_feed.monitor_uuid) and m.environment_uuid = environment;
  if monitor is null then
    raise exception 'Monitor not found.' using errcode = 'XNOTF';
  end if;
  delete from app_private.monitor_feed_tokens t where t.monitor_uuid = monitor;
  return found;
end;
$$;
grant execute on function app_accounts.revoke_monitor_feed(text) to app_visitor;
comment on function app_accounts.revoke_monitor_feed(monitor_uuid text) is 'revokeMonitorFeed: deletes the feed URL of a monitor of the current environment, which answers 404 from then on; true when there was one, false when the monitor had none. A monitor of any other environment answers NOT_FOUND.';

--------------------------------------------------------------------------------------------------
-- What the feed route serves.

-- The newest 50 matches of the last 30 days that went out (suppressed ones, held back by quiet
-- hours or a throttle, are left out: the feed is what the monitor notified), P2000 messages and
-- feed events alike, newest first. Each part reads its own index for its newest 50.
create function app_private.monitor_feed(secret_hash bytea)
  returns table (feed_uuid uuid, name text, created_at timestamptz, items jsonb)
  language sql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  with feed as (
    select t.monitor_uuid, t.feed_uuid, t.created_at, m.name
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
                                                       'latitude', i.latitude, 'longitude', i.longitude, 'link', i.link)
                                    order by r.matched_at desc, r.uuid desc)
                     from (select r.kind, array_agg(r.uuid) as uuids from recent r group by r.kind) k
                          cross join lateral app_hidden.monitor_items(k.kind, k.uuids) i
                          join recent r on r.kind = i.kind and r.uuid = i.uuid), '[]')
    from feed
$$;
grant execute on function app_private.monitor_feed(bytea) to app_authenticator;
comment on function app_private.monitor_feed(secret_hash bytea) is 'The feed of the monitor whose feed secret has this SHA-256, for GET /feeds/monitors/<secret>.atom|.geojson (lib/monitors/feed-route.ts): its feed id, name and creation time, and its newest 50 matches of the last 30 days that notified (not those held back by quiet hours or a throttle), P2000 messages and feed events alike, newest first, rendered by app_hidden.monitor_items. No row for an unknown or revoked secret. Called by the authenticator, which reads no table, hence SECURITY DEFINER; nothing else of the monitor or its environment leaves it.';
