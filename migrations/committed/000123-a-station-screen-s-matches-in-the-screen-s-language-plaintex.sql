--! Previous: sha1:d708f78b21be18d23a3e407cbfd215bab9b861e9
--! Hash: sha1:bdfd1dab3253e12aed3808799d49a515c163e77d
--! Message: A station screen's matches in the screen's language: plainText in English for an English screen

-- A station screen in English reads its pages in English plain words: matches take the language.
drop function app_public.station_screens_matches(app_public.station_screens, integer);
create function app_public.station_screens_matches(screen app_public.station_screens, first integer default 20, language text default 'nl')
  returns setof app_public.station_screen_match
  language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
  with screen_monitors as (
    select mo.uuid, mo.name, mo.notification_rules from app_hidden.station_screen_monitors x
      join app_public.monitors mo on mo.uuid = x.monitor_uuid
     where x.screen_uuid = screen.uuid and app_hidden.may_read_station_screen(screen)
  ), incidents as (
    -- The newest match of each incident (a dossier's pages are one incident), newest incident first.
    select distinct on (coalesce(mm.dossier_uuid, mm.message_uuid))
           mm.monitor_uuid, coalesce(mm.dossier_uuid, mm.message_uuid) as incident_uuid, mm.message_uuid, mm.dossier_uuid,
           mm.matched_at, mm.sended
      from screen_monitors s
      cross join lateral (select * from app_hidden.monitor_matches m where m.monitor_uuid = s.uuid
                           order by m.sended desc limit least(greatest(first, 1), 100)) mm
     order by coalesce(mm.dossier_uuid, mm.message_uuid), mm.sended desc
  )
  select i.monitor_uuid, s.name, i.incident_uuid, m.uuid, i.dossier_uuid, i.matched_at, i.sended, m.sended, m.message,
         app_hidden.p2000_plain_text_kept(m, case when station_screens_matches.language = 'en' then 'en' else 'nl' end), u.code, d.name, g.name, m.street, m.city, m.postcode, m.latitude, m.longitude,
         array(select coalesce(nullif(c.description, ''), c.name) from app_public.p2000_message_capcodes mc
                 join app_public.p2000_capcodes c on c.uuid = mc.capcode_uuid
                where mc.message_uuid = m.uuid order by c.name),
         array(select row(ch.name, r.status, r.arrives_at, r.changed)::app_public.station_screen_responder
                 from app_public.alert_responders r join app_public.channels ch on ch.uuid = r.channel_uuid
                where r.incident_uuid = i.incident_uuid and r.monitor_uuid in (select s2.uuid from screen_monitors s2)
                order by r.status = 'going' desc, r.arrives_at nulls last, ch.name),
         ra.at,
         (s.notification_rules->'reAlert'->>'coming')::integer
    from incidents i
    join screen_monitors s on s.uuid = i.monitor_uuid
    join app_public.p2000_messages m on m.uuid = i.message_uuid
    left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
    left join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
    left join app_public.p2000_regions g on g.uuid = m.region_uuid
    left join app_hidden.crew_re_alerts ra on ra.monitor_uuid = i.monitor_uuid and ra.incident_uuid = i.incident_uuid
   order by i.sended desc, i.incident_uuid
   limit least(greatest(first, 1), 100)
$$;
grant execute on function app_public.station_screens_matches(app_public.station_screens, integer, text) to app_visitor;
comment on function app_public.station_screens_matches(app_public.station_screens, integer, text) is E'@notNull\n@behavior -connection +list\nThe incidents the screen''s monitors matched, newest first (first: default 20, at most 100), each with its newest matched page (plainText in language: nl, the default, or en) and the crew''s answers. The newest is the alarm while its lastSended is less than alarmMinutes ago.';
comment on column app_public.station_screen_match.plain_text is 'The page in plain words (P2000Message.plainText), in the language matches was asked in.';
