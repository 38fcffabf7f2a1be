--! Previous: sha1:e3547b9133468581e5cedcc847d0d3820350e0d0
--! Hash: sha1:24c713cae55f1542e2e266f3d47966d0bb1338c0
--! Message: Share pages: what an incident, NL-Alert or warning page shows

-- Share pages (issue 50, lib/open-data/share-pages/): what the page of one incident, traffic
-- incident, NL-Alert or weather warning shows, read by the authenticator (which reads no table)
-- through SECURITY DEFINER functions that return public columns only: never a monitor, a
-- responder, a channel, a user or an environment.

drop function if exists app_private.share_p2000_dossier(uuid, text);
drop function if exists app_private.share_traffic_incident(uuid);
drop function if exists app_private.share_nl_alert(uuid);
drop function if exists app_private.share_weather_warning(uuid);

create function app_private.share_p2000_dossier(dossier uuid, language text)
  returns jsonb
  language sql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  select jsonb_build_object(
    'title', d.title,
    'exerciseType', d.exercise_type,
    'firstSent', d.first_sended,
    'lastSent', d.last_sended,
    'messageCount', d.message_count,
    'latitude', d.latitude,
    'longitude', d.longitude,
    'street', d.street,
    'city', d.city,
    'regionNumber', r.number,
    'regionName', r.name,
    'discipline', di.name,
    'urgencyCode', u.code,
    'urgencyName', u.name,
    'urgencyLevel', u.level,
    'category', c.name,
    'gripLevel', d.grip_level,
    'plainText', (select app_hidden.p2000_plain_text(f, share_p2000_dossier.language)
                    from app_public.p2000_messages f where f.dossier_uuid = d.uuid
                   order by f.sended, f.uuid limit 1),
    'units', coalesce((select jsonb_agg(x.description order by x.description) from (
                 select distinct k.description
                   from app_public.p2000_messages m
                   join app_public.p2000_capcodes k on k.name = any (m.capcode_names)
                  where m.dossier_uuid = d.uuid and k.kind in ('unit', 'group_call') and k.description is not null
                  limit 30) x), '[]'),
    'messages', coalesce((select jsonb_agg(x.item order by x.sended desc, x.uuid desc) from (
                 select m.sended, m.uuid,
                        jsonb_build_object('sent', m.sended, 'text', m.message,
                                           'plainText', app_hidden.p2000_plain_text(m, share_p2000_dossier.language)) as item
                   from app_public.p2000_messages m
                  where m.dossier_uuid = d.uuid
                  order by m.sended desc, m.uuid desc
                  limit 50) x), '[]'))
    from app_public.p2000_dossiers d
    left join app_public.p2000_regions r on r.uuid = d.region_uuid
    left join app_public.p2000_disciplines di on di.uuid = d.discipline_uuid
    left join app_public.p2000_urgencies u on u.uuid = d.urgency_uuid
    left join app_public.p2000_categories c on c.uuid = d.category_uuid
   where d.uuid = share_p2000_dossier.dossier
$$;
grant execute on function app_private.share_p2000_dossier(dossier uuid, language text) to app_authenticator;
comment on function app_private.share_p2000_dossier(dossier uuid, language text) is 'What the share page of a P2000 incident (GET /incidents/<id>, lib/open-data/share-pages/) shows: the dossier''s place, times, safety region, discipline, urgency, category and GRIP level, its first page in plain words (app_hidden.p2000_plain_text, language nl or en), the units paged by their public capcode descriptions (units and group calls, not monitor or test codes; 30 at most) and its newest 50 pages with their plain words. Null for an unknown dossier. Called by the authenticator, which reads no table, hence SECURITY DEFINER; public columns only, never who was matched or responded.';

create function app_private.share_traffic_incident(incident uuid)
  returns jsonb
  language sql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  select jsonb_build_object(
    'type', t.type,
    'typeLabel', ty.label,
    'severity', t.severity,
    'severityLabel', s.label,
    'road', t.road_number,
    'startAt', t.start_at,
    'endAt', t.end_at,
    'firstSeenAt', t.first_seen_at,
    'closedAt', t.closed_at,
    'latitude', t.latitude,
    'longitude', t.longitude,
    'lanesRestricted', t.lanes_restricted,
    'comment', t.comment,
    'regionNumber', r.number,
    'regionName', r.name)
    from app_public.traffic_incidents t
    join app_public.traffic_incident_types ty on ty.value = t.type
    left join app_public.accident_severity_levels s on s.value = t.severity
    left join lateral (
      select g.number, g.name
        from app_public.safety_region_areas a join app_public.p2000_regions g on g.uuid = a.region_uuid
       where a.area @> point(t.longitude, t.latitude)
       order by g.number limit 1) r on true
   where t.uuid = share_traffic_incident.incident
$$;
grant execute on function app_private.share_traffic_incident(incident uuid) to app_authenticator;
comment on function app_private.share_traffic_incident(incident uuid) is 'What the share page of a traffic incident (GET /traffic/<id>, lib/open-data/share-pages/) shows: its kind and severity (value and Dutch label), road, times, point, lanes restricted, the feed''s comment and the safety region its point lies in (app_public.safety_region_areas). Null for an unknown incident. Called by the authenticator, which reads no table, hence SECURITY DEFINER; public data only.';

create function app_private.share_nl_alert(alert uuid)
  returns jsonb
  language sql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  select jsonb_build_object(
    'message', a.message,
    'startAt', a.start_at,
    'stopAt', a.stop_at,
    'firstSeenAt', a.first_seen_at,
    'areaTexts', to_jsonb(a.area_texts[1:20]),
    'areas', coalesce((select jsonb_agg(p::text order by n) from unnest(a.areas[1:20]) with ordinality x (p, n)), '[]'),
    'regions', coalesce((select jsonb_agg(g.name order by g.number) from app_public.p2000_regions g
                          where g.number = any (a.region_numbers)), '[]'))
    from app_public.nl_alerts a
   where a.uuid = share_nl_alert.alert
$$;
grant execute on function app_private.share_nl_alert(alert uuid) to app_authenticator;
comment on function app_private.share_nl_alert(alert uuid) is 'What the share page of an NL-Alert (GET /nl-alerts/<id>, lib/open-data/share-pages/) shows: its message, start and stop, area texts, its first 20 area polygons (as PostgreSQL polygon text, longitude/latitude points) and the safety regions they cover. Null for an unknown alert. Called by the authenticator, which reads no table, hence SECURITY DEFINER; public data only.';

create function app_private.share_weather_warning(warning uuid)
  returns jsonb
  language sql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  select jsonb_build_object(
    'provinceCode', p.code,
    'provinceName', p.name,
    'level', e.level,
    'previousLevel', e.previous_level,
    'phenomena', coalesce((select jsonb_agg(coalesce(ph.label, x.id) order by x.n)
                             from unnest(e.phenomena) with ordinality x (id, n)
                             left join app_public.meteo_phenomena ph on ph.id = x.id), '[]'),
    'periodFrom', e.period_from,
    'periodTo', e.period_to,
    'issuedAt', e.issued_at,
    'advice', coalesce((select jsonb_agg(y.description) from (
                 select s.description from app_public.meteo_warning_slices s
                  where s.province_uuid = e.province_uuid and s.hour >= e.period_from and s.hour < e.period_to
                    and s.phenomenon = any (e.phenomena) and s.description is not null
                  group by s.description order by min(s.hour) limit 3) y), '[]'))
    from app_public.meteo_warning_events e
    join app_public.meteo_provinces p on p.uuid = e.province_uuid
   where e.uuid = share_weather_warning.warning
$$;
grant execute on function app_private.share_weather_warning(warning uuid) to app_authenticator;
comment on function app_private.share_weather_warning(warning uuid) is 'What the share page of a weather warning (GET /warnings/<id>, lib/open-data/share-pages/) shows: one change of a province''s KNMI warning (app_public.meteo_warning_events): the province, the level before and after, the phenomena by their Dutch labels, the warned period and the KNMI''s advice for those hours as the slices hold it now (3 texts at most). Null for an unknown event. Called by the authenticator, which reads no table, hence SECURITY DEFINER; public data only.';
