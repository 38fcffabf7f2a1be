--! Previous: sha1:18e85288ef5f72835274ad2115f30976d56c33b0
--! Hash: sha1:30aa98135f809c006336bc4e8ee8f50bb16d0f69
--! Message: Feed monitor preview: matches as arrays, not JSON

-- monitorPreview of rss monitors at the benches' history sizes (bench/monitor-preview.ts): a
-- monitor of 30 busy feeds matches some 15,000 items in 30 days, and the preview of a feed
-- monitor turned every match into a JSON object, read them back twice (the matches, then the
-- newest 500) and sorted them as JSON. The matches are now two arrays (uuid, time) and the newest
-- 500 are made in the same pass.

create or replace function app_hidden.monitor_preview(days integer, location_given boolean, name text, description text, active boolean, type text, query text, latitude double precision, longitude double precision, location_mode text, location_live_source_id text, radius double precision, channels text, notification_rules text, OUT matches integer, OUT notifications integer, OUT by_day jsonb, OUT message_uuids uuid[], OUT items jsonb)

  returns record
  language plpgsql stable
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  mo app_public.monitors;
  c app_hidden.p2000_monitor_criteria;
  rules jsonb;
  first_day date;
  since timestamptz;
  capcode_uuids uuid[];
  matched text;
  r record;
  reason text;
  period interval;
  uuids uuid[] := '{}';
  sendeds timestamptz[] := '{}';
  reasons text[] := '{}';
  notified_at timestamptz[] := '{}';
  window_start integer := 1;
  dossier_notified integer[] := '{}';
  feed_uuids uuid[];
  feed_ats timestamptz[];
  newest uuid[];
begin
  if monitor_preview.days is null or monitor_preview.days not between 1 and 90 then
    raise exception 'days must be from 1 to 90.' using errcode = 'XINPT';
  end if;
  mo := (app_hidden.checked_monitor(environment, null, location_given, name, description, active, type, query, latitude,
    longitude, location_mode, location_live_source_id, radius, channels, notification_rules)).monitor;
  rules := mo.notification_rules;
  first_day := (now() at time zone 'Europe/Amsterdam')::date - (monitor_preview.days - 1);
  since := first_day::timestamp at time zone 'Europe/Amsterdam';

  if mo.type = 'p2000' then
    -- The matches: the messages of the window, every criterion checked in full, with the reason of
    -- the rules that look at the message alone. The query is built and planned for this preview,
    -- its criteria as constants, so PostgreSQL picks by its statistics between the window's index
    -- and a criterion's own (capcodes through their links, by uuid).
    c := app_hidden.p2000_criteria(mo);
    capcode_uuids := array(select k.uuid from app_public.p2000_capcodes k where k.name = any (c.capcode_names));
    matched := format($query$
      select m.uuid, m.sended, m.dossier_uuid, s.reason
        from app_public.p2000_messages m, app_hidden.p2000_message_suppression($3, m, m.sended) s (reason)
       where %s and m.sended >= $2 and m.sended <= now() and app_hidden.p2000_criteria_match($1, m)
      $query$, case when cardinality(c.capcode_names) > 0 then
        'm.uuid in (select mc.message_uuid from app_public.p2000_message_capcodes mc where mc.capcode_uuid = any ($4) and mc.sended >= $2)'
        else 'true' end);
  else
    -- A feed monitor: its items in time order, kept as two arrays (a busy RSS monitor matches
    -- tens of thousands of items in 30 days: no object per item), and the newest 500 as the
    -- answer's items, in one pass; quiet hours at each item's time (minUrgency and maxPerDossier
    -- are P2000's); no dossiers.
    select coalesce(array_agg(f.uuid order by f.at, f.uuid), '{}'), coalesce(array_agg(f.at order by f.at, f.uuid), '{}'),
           coalesce(jsonb_agg(jsonb_build_object('kind', f.kind, 'uuid', f.uuid, 'at', f.at, 'title', f.title,
                                'latitude', f.latitude, 'longitude', f.longitude) order by f.at desc, f.uuid desc)
                      filter (where f.newest <= 500), '[]')
      into feed_uuids, feed_ats, items
      from (select f.*, row_number() over (order by f.at desc, f.uuid desc) as newest
              from app_hidden.monitor_preview_feed_items(mo, since) f) f;
    matched := $query$
      select m.uuid, m.sended, null::uuid as dossier_uuid,
             case when app_hidden.in_quiet_hours($3, m.sended) then 'quiet_hours' end as reason
        from unnest($10::uuid[], $11::timestamptz[]) m (uuid, sended)
      $query$;
  end if;

  -- The throttles depend on what came before: the matches in time order, as live matching met them.
  if rules ?| array['maxPerDossier', 'maxPerPeriod'] then
    period := make_interval(mins => (rules->'maxPerPeriod'->>'minutes')::integer);
    for r in execute format('select x.uuid, x.sended, x.dossier_uuid, x.reason, dense_rank() over (order by x.dossier_uuid)::integer as dossier from (%s) x order by x.sended, x.uuid', matched)
      using c, since, rules, capcode_uuids, null::uuid[], null::timestamptz[], null::text[], first_day, monitor_preview.days, feed_uuids, feed_ats
    loop
      reason := r.reason;
      if reason is null then
        while window_start <= cardinality(notified_at) and notified_at[window_start] <= r.sended - period loop
          window_start := window_start + 1;
        end loop;
        reason := app_hidden.p2000_throttle_suppression(rules, r.dossier_uuid is not null, coalesce(dossier_notified[r.dossier], 0),
          cardinality(notified_at) - window_start + 1);
        if reason is null then
          notified_at[cardinality(notified_at) + 1] := r.sended;
          dossier_notified[r.dossier] := coalesce(dossier_notified[r.dossier], 0) + 1;
        end if;
      end if;
      uuids[cardinality(uuids) + 1] := r.uuid;
      sendeds[cardinality(sendeds) + 1] := r.sended;
      reasons[cardinality(reasons) + 1] := reason;
    end loop;
    matched := 'select * from unnest($5::uuid[], $6::timestamptz[], $7::text[]) m (uuid, sended, reason)';
  end if;

  execute format($query$
    with matched as materialized (select x.uuid, x.sended, x.reason from (%s) x),
         per_day as (select (m.sended at time zone 'Europe/Amsterdam')::date as day, count(*)::integer as matches,
                            count(*) filter (where m.reason is null)::integer as notifications
                       from matched m group by 1)
    select coalesce((select sum(d.matches) from per_day d), 0)::integer,
           coalesce((select sum(d.notifications) from per_day d), 0)::integer,
           (select jsonb_agg(jsonb_build_object('date', $8 + i, 'matches', coalesce(d.matches, 0),
                                                'notifications', coalesce(d.notifications, 0)) order by i)
              from generate_series(0, $9 - 1) i left join per_day d on d.day = $8 + i),
           array(select m.uuid from matched m order by m.sended desc, m.uuid desc limit 500)
    $query$, matched)
    into matches, notifications, by_day, newest
    using c, since, rules, capcode_uuids, uuids, sendeds, reasons, first_day, monitor_preview.days, feed_uuids, feed_ats;

  -- The newest 500 matches with time and place, newest first.
  if mo.type = 'p2000' then
    message_uuids := newest[1:20];
    items := coalesce((select jsonb_agg(jsonb_build_object('kind', 'p2000', 'uuid', m.uuid, 'at', m.sended,
                         'title', m.message, 'latitude', m.latitude, 'longitude', m.longitude) order by m.sended desc, m.uuid desc)
                         from app_public.p2000_messages m where m.uuid = any (newest)), '[]');
  else
    -- The items were made with the matches.
    message_uuids := '{}';
  end if;
end;
$$;
