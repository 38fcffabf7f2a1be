--! Previous: sha1:b4a65ca714422f534a19408b4f8761123a8e46b1
--! Hash: sha1:676c9c130967e50df901ab5d28fe92184a347797
--! Message: Review fixes: partial AMBER documents and unreadable messages end nothing, jams reopen and rematch, disruptions without stations on no route, strict region numbers, inlinable Unix times

-- Review fixes. AMBER: a document may be partial (the demo data, one alert at a time), and an alert
-- whose message was skipped as unreadable is not taken for ended; of two messages of one alert in a
-- document, the newest counts. Jams open again when they are back in the feed, and are matched
-- again when their road changes or they reopen. A railway disruption without stations lies on no
-- route. nlAlerts refuses a region number it would otherwise cut down ("123" → "12"). The Unix-time
-- helper is STABLE (it calls date_part, which is), so PostgreSQL can inline it.

drop function if exists app_private.ingest_amber_alerts(jsonb, text);
drop function if exists app_private.ingest_amber_alerts(jsonb, text, boolean, text[]);

create or replace function app_hidden.to_unix_time(t timestamptz) returns app_public.unix_time
  language sql stable parallel safe
as $$
  select pg_catalog.floor(pg_catalog.date_part('epoch', t))::bigint::app_public.unix_time
$$;

-- One AMBER document (its alerts as JSON, keys as parsed): an Alert starts or updates its alert,
-- a Cancel ends it; `complete`: the document is the feed's whole list, so an alert it no longer
-- holds has ended too, except those in `still_running` (their message was there, unreadable).
-- Ending erases the personal details in the same statement.
create function app_private.ingest_amber_alerts(alerts jsonb, source text, complete boolean, still_running text[]) returns jsonb
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  started integer;
  updated integer;
  ended integer;
begin
  perform pg_advisory_xact_lock(hashtext('amber_alerts'));
  drop table if exists pg_temp.incoming_amber;
  -- A Cancel outranks an Alert of the same id in one document.
  create temporary table pg_temp.incoming_amber on commit drop as
    select distinct on (a.alert_id) a.*
      from jsonb_to_recordset(alerts) as a (alert_id text, level integer, type text, sent timestamptz, title text,
             description text, description_ext text, image_url text, read_more_url text)
     order by a.alert_id, a.type = 'cancel' desc, a.sent desc nulls last;
  -- A message without Sent keeps the start first stored.
  update pg_temp.incoming_amber i set sent = t.started_at
    from app_public.amber_alerts t where t.alert_id = i.alert_id and i.sent is null;

  with written as (
    insert into app_public.amber_alerts as t (alert_id, level, started_at, title, description, description_ext, image_url, read_more_url)
    select a.alert_id, a.level, coalesce(a.sent, now()), a.title, a.description, a.description_ext, a.image_url, a.read_more_url
      from pg_temp.incoming_amber a where a.type = 'alert'
    on conflict (alert_id) do update set
      level = excluded.level, started_at = excluded.started_at, ended_at = null, title = excluded.title,
      description = excluded.description, description_ext = excluded.description_ext, image_url = excluded.image_url,
      read_more_url = excluded.read_more_url, changed = now()
    where (t.level, t.started_at, t.ended_at, t.title, t.description, t.description_ext, t.image_url, t.read_more_url)
          is distinct from (excluded.level, excluded.started_at, null::timestamptz, excluded.title, excluded.description,
                            excluded.description_ext, excluded.image_url, excluded.read_more_url)
    returning (xmax = 0) as was_inserted
  )
  select count(*) filter (where was_inserted), count(*) filter (where not was_inserted) into started, updated from written;

  -- A Cancel of an alert never seen running still belongs in the history.
  insert into app_public.amber_alerts (alert_id, level, started_at, ended_at)
  select a.alert_id, a.level, coalesce(a.sent, now()), now() from pg_temp.incoming_amber a where a.type = 'cancel'
  on conflict (alert_id) do nothing;

  -- A Cancel ends its alert; a complete list (the feed's) also ends the alerts it no longer holds,
  -- except those whose message was there but unreadable (not known to have ended).
  with gone as (
    update app_public.amber_alerts t set ended_at = now(), title = null, description = null, description_ext = null,
           image_url = null, read_more_url = null, changed = now()
     where t.ended_at is null
       and (exists (select 1 from pg_temp.incoming_amber a where a.alert_id = t.alert_id and a.type = 'cancel')
            or (complete and t.alert_id <> all (still_running)
                and not exists (select 1 from pg_temp.incoming_amber a where a.alert_id = t.alert_id and a.type = 'alert')))
    returning 1
  )
  select count(*) into ended from gone;

  return jsonb_build_object('alerts', jsonb_array_length(alerts), 'started', started, 'updated', updated, 'ended', ended,
    'source', left(source, 200));
end;
$$;

create or replace function app_private.ingest_traffic_jams(records jsonb, publication_time timestamptz, source text) returns jsonb
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  inserted integer;
  updated integer;
  closed integer := 0;
  reopened integer := 0;
  at timestamptz := coalesce(publication_time, now());
  is_newest boolean;
begin
  is_newest := app_hidden.claim_traffic_publication('jams', at);

  drop table if exists pg_temp.incoming_jams;
  create temporary table pg_temp.incoming_jams on commit drop as
    select distinct on (r.record_id) r.*,
           (r.end_at is not null and r.end_at <= at) or r.validity_status = 'suspended' as ended
      from jsonb_to_recordset(records) as r (record_id text, situation_id text, version integer, jam_type text, delay_minutes integer,
             queue_length_m integer, validity_status text, start_at timestamptz, end_at timestamptz, latitude double precision,
             longitude double precision, road_number text)
     order by r.record_id, r.version desc;
  alter table pg_temp.incoming_jams add primary key (record_id);
  analyze pg_temp.incoming_jams;

  with written as (
    insert into app_public.traffic_jams as t (record_id, situation_id, version, jam_type, delay_minutes, queue_length_m, start_at,
      end_at, latitude, longitude, road_number, closed_at)
    select i.record_id, i.situation_id, i.version, i.jam_type, i.delay_minutes, i.queue_length_m, i.start_at, i.end_at,
           i.latitude, i.longitude,
           coalesce(i.road_number, app_hidden.nearest_road_number(i.latitude, i.longitude)),
           case when i.ended then at end
      from pg_temp.incoming_jams i
      left join app_public.traffic_jams old on old.record_id = i.record_id
     where old.uuid is null or old.version < i.version
    on conflict (record_id) do update set
      situation_id = excluded.situation_id, version = excluded.version, jam_type = excluded.jam_type,
      delay_minutes = excluded.delay_minutes, queue_length_m = excluded.queue_length_m, start_at = excluded.start_at,
      end_at = excluded.end_at, latitude = excluded.latitude, longitude = excluded.longitude, road_number = excluded.road_number,
      closed_at = case when excluded.closed_at is not null then coalesce(t.closed_at, excluded.closed_at) end
    where t.version < excluded.version
    returning (xmax = 0) as was_inserted
  )
  select count(*) filter (where was_inserted), count(*) filter (where not was_inserted) into inserted, updated from written;

  if is_newest then
    with gone as (
      update app_public.traffic_jams t set closed_at = at
       where t.closed_at is null and not exists (select 1 from pg_temp.incoming_jams i where i.record_id = t.record_id)
      returning 1
    )
    select count(*) into closed from gone;
    -- Back in the feed's whole file, and not ended: open again (as incidents are).
    with back as (
      update app_public.traffic_jams t set closed_at = null
        from pg_temp.incoming_jams i
       where i.record_id = t.record_id and t.closed_at is not null and not i.ended and i.version = t.version
      returning 1
    )
    select count(*) into reopened from back;
  end if;
  return jsonb_build_object('records', jsonb_array_length(records), 'inserted', inserted, 'updated', updated, 'closed', closed,
    'reopened', reopened, 'older', not is_newest, 'source', left(source, 200));
end;
$$;

create or replace function app_hidden.tg_traffic_jams__queue_matching() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  changed uuid[];
begin
  if coalesce(current_setting('app.traffic_notify', true), '') <> 'true' then
    return null;
  end if;
  -- New open jams, and open jams whose delay or road changed or that opened again (each may now
  -- pass a monitor; matching again is harmless).
  if tg_op = 'INSERT' then
    changed := array(select n.uuid from new_jams n where n.closed_at is null order by n.uuid);
  else
    changed := array(select n.uuid from new_jams n join old_jams o on o.uuid = n.uuid
                      where n.closed_at is null
                        and (n.delay_minutes, n.road_number, o.closed_at is null) is distinct from (o.delay_minutes, o.road_number, true)
                      order by n.uuid);
  end if;
  if cardinality(changed) > 0 then
    perform graphile_worker.add_job('monitors__match_feed', json_build_object('feed', 'traffic_jam', 'uuids', changed), max_attempts := 10);
  end if;
  return null;
end;
$$;

create or replace function app_private.match_rail_disruption(disruption_uuid uuid) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  d app_public.rail_disruptions;
begin
  select * into d from app_public.rail_disruptions x where x.uuid = match_rail_disruption.disruption_uuid;
  if d.uuid is null or not d.active then
    return 0;
  end if;
  return app_private.notify_feed_event('rail', d.uuid, array(
    select c.monitor_uuid from app_hidden.rail_monitor_criteria c
     where cardinality(c.routes) = 0 or d.kind = 'calamity'
        or (cardinality(d.station_codes) > 0 and exists (select 1 from app_public.rail_routes r
                    where r.value = any (c.routes)
                      and cardinality(array(select unnest(r.stations) intersect select unnest(d.station_codes)))
                          >= least(2, cardinality(d.station_codes))))
     order by c.monitor_uuid), app_hidden.rail_disruption_notification_subject(d));
end;
$$;

create or replace function app_public.nl_alerts(first integer default null, page integer default null, since app_public.unix_time default null,
    until app_public.unix_time default null, region_number text default null, active_only boolean default null)
  returns setof app_public.nl_alert
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  from_at timestamptz;
  to_at timestamptz;
  region text;
  page_size integer := app_hidden.page_limit(first, 100);
  skip integer := app_hidden.page_offset(first, page, 100);
  only_active boolean := coalesce(active_only, false);
begin
  select w.from_at, w.to_at into from_at, to_at from app_hidden.time_window(since, until) w;
  if region_number is not null then
    -- "13", "1" or "VR13"; anything else (such as "123") is no region, not a cut-down one.
    if region_number ~* '^\s*(vr)?[0-9]{1,2}\s*$' then
      select r.number into region from app_public.p2000_regions r
       where r.number = lpad(regexp_replace(region_number, '[^0-9]', '', 'g'), 2, '0');
    end if;
    if region is null then
      raise exception 'Unknown region number "%": give a safety-region number from 01 to 25.', left(region_number, 20)
        using errcode = 'XINPT';
    end if;
  end if;
  return query
    select a.uuid, a.alert_id, a.message,
           -- The source writes the Dutch text, then ***, then the English one (if any).
           btrim(split_part(a.message, '***', 1)),
           case when strpos(a.message, '***') > 0 then nullif(btrim(substr(a.message, strpos(a.message, '***') + 3)), '') end,
           a.stop_at is null or a.stop_at > now(), app_hidden.to_unix_time(a.start_at), app_hidden.to_unix_time(a.stop_at),
           a.area_texts, a.region_numbers, a.resource_uri
      from (
        -- The page is picked by the index that fits; only one branch runs (the others' one-time
        -- filters are false). Running alerts: by their stop time.
        (select x.uuid, x.start_at from app_public.nl_alerts x
          where only_active and (x.stop_at is null or x.stop_at > now()) and (region is null or region = any (x.region_numbers))
            -- Written so that the cached plan cannot take the window for a range of the start
            -- index (which would read every alert when the window is unbounded).
            and (from_at = '-infinity' or x.start_at >= from_at) and (to_at = 'infinity' or x.start_at <= to_at)
          order by x.start_at desc, x.uuid limit page_size offset skip)
        union all
        -- A region's alerts: its index gives them in order.
        (select ar.alert_uuid, ar.start_at from app_public.nl_alert_regions ar
          where not only_active and region is not null and ar.region_number = region and ar.start_at between from_at and to_at
          order by ar.start_at desc, ar.alert_uuid limit page_size offset skip)
        union all
        (select x.uuid, x.start_at from app_public.nl_alerts x
          where not only_active and region is null and x.start_at between from_at and to_at
          order by x.start_at desc, x.uuid limit page_size offset skip)
      ) picked (uuid, start_at)
      join app_public.nl_alerts a on a.uuid = picked.uuid
     order by picked.start_at desc, picked.uuid;
end;
$$;
