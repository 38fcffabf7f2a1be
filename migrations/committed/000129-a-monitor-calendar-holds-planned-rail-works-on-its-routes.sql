--! Previous: sha1:24c713cae55f1542e2e266f3d47966d0bb1338c0
--! Hash: sha1:a8f6d2eff59a29d3507c1559e443236720926a02
--! Message: A monitor calendar holds planned rail works on its routes

-- A monitor's calendar holds the planned railway works on its routes before they begin. The
-- matcher notifies a rail_disruptions monitor of works only once they are under way (the source
-- lists planned works inactive), so a calendar of matches alone showed works as they started; it
-- now also holds every planned work that would reach the monitor (app_hidden.rail_disruption_passes,
-- the matcher's own rule), cancelled ones included, so they show as cancelled.

create or replace function app_private.monitor_calendar(secret_hash bytea, window_from timestamptz, window_to timestamptz)
  returns table (feed_uuid uuid, name text, language text, events jsonb)
  language sql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  with feed as (
    select t.monitor_uuid, t.feed_uuid, m.name, coalesce(m.notification_rules->>'language', 'nl') as language
      from app_private.monitor_feed_tokens t join app_public.monitors m on m.uuid = t.monitor_uuid
     where t.secret_hash = monitor_calendar.secret_hash
  ), matched as (
    -- Whatever matched, told or held back by quiet hours: the calendar shows what is planned, not
    -- what notified. Planned works match when they begin, hence the look back over their length.
    select fm.event_kind as kind, fm.event_uuid as uuid
      from feed, app_hidden.feed_monitor_matches fm
     where fm.monitor_uuid = feed.monitor_uuid and fm.event_kind in ('rail', 'meteo', 'nl_alert')
       and fm.matched_at >= window_from - interval '180 days'
    union
    -- Planned works on the monitor's routes, before they begin (and after: they matched by then).
    select 'rail', d.uuid
      from feed join app_hidden.rail_monitor_criteria c on c.monitor_uuid = feed.monitor_uuid
      join app_public.rail_disruptions d
        on d.kind = 'maintenance' and d.start_at < window_to and coalesce(d.end_at, d.start_at) >= window_from
     where app_hidden.rail_disruption_passes(c, d)
  ), items as (
    select app_private.calendar_rail_item(d) as item
      from matched x join app_public.rail_disruptions d on x.kind = 'rail' and d.uuid = x.uuid
     where d.start_at < window_to and coalesce(d.end_at, d.start_at) >= window_from
    union all
    select jsonb_build_object(
             'kind', 'meteo_event', 'id', e.uuid, 'provinceCode', p.code, 'province', p.name, 'level', e.level,
             'levelLabel', l.label, 'phenomena', e.phenomena,
             'phenomenonLabels', array(select coalesce(ph.label, u.x) from unnest(e.phenomena) with ordinality u (x, n)
                                         left join app_public.meteo_phenomena ph on ph.id = u.x order by u.n),
             'startsAt', e.period_from, 'endsAt', e.period_to, 'lastModified', e.created, 'sequence', 0)
      from matched x join app_public.meteo_warning_events e on x.kind = 'meteo' and e.uuid = x.uuid
      join app_public.meteo_provinces p on p.uuid = e.province_uuid
      join app_public.meteo_levels l on l.status_code = e.status_code
     where e.period_from < window_to and e.period_to >= window_from
    union all
    select jsonb_build_object(
             'kind', 'nl_alert', 'id', a.alert_id, 'title', btrim(split_part(a.message, '***', 1)),
             'description', a.message, 'areas', a.area_texts,
             'startsAt', a.start_at, 'endsAt', a.stop_at, 'lastModified', a.changed,
             'sequence', floor(extract(epoch from a.changed - a.first_seen_at))::integer)
      from matched x join app_public.nl_alerts a on x.kind = 'nl_alert' and a.uuid = x.uuid
     where a.start_at < window_to and coalesce(a.stop_at, 'infinity') >= window_from
  )
  select feed.feed_uuid, feed.name, feed.language,
         coalesce((select jsonb_agg(i.item order by i.item->>'startsAt', i.item->>'id')
                     from (select i.item from items i order by i.item->>'startsAt' desc limit 500) i), '[]')
    from feed
$$;
comment on function app_private.monitor_calendar(secret_hash bytea, window_from timestamptz, window_to timestamptz) is 'The calendar of the monitor whose feed secret has this SHA-256, for GET /feeds/monitors/<secret>.ics (lib/monitors/feed-route.ts): its feed id, name and language, and what has a period overlapping the window among what it matched (told or held back) and, for a rail_disruptions monitor, the planned works that would reach it (app_hidden.rail_disruption_passes) before they begin: railway disruptions and works (app_private.calendar_rail_item), weather warning events with their warned period, NL-Alerts from start to stop; at most the 500 latest to start. No row for an unknown or revoked secret. Called by the authenticator, which reads no table, hence SECURITY DEFINER; nothing else of the monitor or its environment leaves it.';
