--! Previous: sha1:d91e2c22b5b790e56d3af882ecd6b8b8850cd6eb
--! Hash: sha1:23b6b7c47c020270ded2edaccdf2fd07d4f512d6
--! Message: Traffic ingestion: one table of each feed's newest publication and one nearest-road lookup for incidents and jams

-- Traffic ingestion, one definition of what the incidents and jams feeds share: which publication
-- is the newest of its feed (one table, a row per feed, instead of a table per feed) and the road
-- of a record that names none.

drop function if exists app_hidden.claim_traffic_publication(text, timestamptz);
drop function if exists app_hidden.nearest_road_number(double precision, double precision);
drop table if exists app_hidden.traffic_feed_publications;

create table app_hidden.traffic_feed_publications (
  feed text primary key check (feed in ('incidents', 'jams')),
  newest_publication_time timestamptz not null
);
alter table app_hidden.traffic_feed_publications enable row level security;
do $$
begin
  -- (Guarded so that current.sql can run again while it is being written.)
  if to_regclass('app_hidden.traffic_publications') is not null then
    insert into app_hidden.traffic_feed_publications (feed, newest_publication_time)
    select 'incidents', p.newest_publication_time from app_hidden.traffic_publications p
    union all
    select 'jams', p.newest_publication_time from app_hidden.traffic_jam_publications p;
  end if;
end;
$$;

-- Serialises a feed's publications (one at a time per feed), records the newest, and tells the
-- triggers that queue matching whether this one is live (the newest, less than an hour old): an
-- older file read later (a backfill, a slow CLI run beside the poller) updates versions but
-- closes nothing and notifies nobody. Returns whether it is the newest.
create function app_hidden.claim_traffic_publication(feed text, at timestamptz) returns boolean
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  is_newest boolean;
begin
  perform pg_advisory_xact_lock(hashtext('traffic_' || feed));
  is_newest := coalesce(at >= (select p.newest_publication_time from app_hidden.traffic_feed_publications p
                                where p.feed = claim_traffic_publication.feed), true);
  if is_newest then
    insert into app_hidden.traffic_feed_publications as p (feed, newest_publication_time) values (feed, at)
    on conflict on constraint traffic_feed_publications_pkey do update set newest_publication_time = excluded.newest_publication_time;
  end if;
  perform set_config('app.traffic_notify', (is_newest and at > now() - interval '1 hour')::text, true);
  return is_newest;
end;
$$;

-- The road of the nearest hectometre post within 2 km; null without a place or a post near it.
create function app_hidden.nearest_road_number(latitude double precision, longitude double precision) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  -- CASE keeps the lookup from running without a place.
  select case when latitude is not null and longitude is not null then
    (select r.name from app_public.hectometer_markers_nearest(latitude, longitude, 1) h
       join app_public.roads r on r.uuid = h.road_uuid where h.distance_km <= 2) end
$$;

create or replace function app_private.ingest_traffic_incidents(records jsonb, publication_time timestamptz, source text) returns jsonb
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
  is_newest := app_hidden.claim_traffic_publication('incidents', at);

  drop table if exists pg_temp.incoming_incidents;
  create temporary table pg_temp.incoming_incidents on commit drop as
    select distinct on (r.record_id) r.*,
           (r.end_at is not null and r.end_at <= at) or r.validity_status = 'suspended' as ended
      from jsonb_to_recordset(records) as r (record_id text, situation_id text, version integer, version_time timestamptz,
             type text, severity text, validity_status text, start_at timestamptz, end_at timestamptz, latitude double precision,
             longitude double precision, road_number text, comment text, lanes_restricted integer)
     order by r.record_id, r.version desc;
  -- Temporary tables are never analysed on their own: without these the joins below planned as
  -- nested loops over the whole file (24 s instead of a second for 20,000 records).
  alter table pg_temp.incoming_incidents add primary key (record_id);
  analyze pg_temp.incoming_incidents;

  with written as (
    insert into app_public.traffic_incidents as t (record_id, situation_id, version, version_time, type, severity, validity_status,
      start_at, end_at, latitude, longitude, road_number, comment, lanes_restricted, closed_at)
    select i.record_id, i.situation_id, i.version, i.version_time, i.type, i.severity, i.validity_status, i.start_at, i.end_at,
           i.latitude, i.longitude,
           -- The nearest post only when the record names no road.
           coalesce(i.road_number, app_hidden.nearest_road_number(i.latitude, i.longitude)),
           i.comment, i.lanes_restricted, case when i.ended then at end
      from pg_temp.incoming_incidents i
      left join app_public.traffic_incidents old on old.record_id = i.record_id
     where old.uuid is null or old.version < i.version
    on conflict (record_id) do update set
      situation_id = excluded.situation_id, version = excluded.version, version_time = excluded.version_time, type = excluded.type,
      severity = excluded.severity, validity_status = excluded.validity_status, start_at = excluded.start_at, end_at = excluded.end_at,
      latitude = excluded.latitude, longitude = excluded.longitude, road_number = excluded.road_number,
      comment = excluded.comment, lanes_restricted = excluded.lanes_restricted,
      closed_at = case when excluded.closed_at is not null then coalesce(t.closed_at, excluded.closed_at) end
    where t.version < excluded.version
    returning (xmax = 0) as was_inserted
  )
  select count(*) filter (where was_inserted), count(*) filter (where not was_inserted) into inserted, updated from written;

  if is_newest then
    -- Gone from the feed's whole file: closed. Back in it, and not ended: open again.
    with gone as (
      update app_public.traffic_incidents t set closed_at = at
       where t.closed_at is null and not exists (select 1 from pg_temp.incoming_incidents i where i.record_id = t.record_id)
      returning 1
    )
    select count(*) into closed from gone;
    with back as (
      update app_public.traffic_incidents t set closed_at = null
        from pg_temp.incoming_incidents i
       where i.record_id = t.record_id and t.closed_at is not null and not i.ended and i.version = t.version
      returning 1
    )
    select count(*) into reopened from back;
  end if;

  return jsonb_build_object('records', jsonb_array_length(records), 'inserted', inserted, 'updated', updated, 'closed', closed,
    'reopened', reopened, 'older', not is_newest, 'source', left(source, 200));
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
  end if;
  return jsonb_build_object('records', jsonb_array_length(records), 'inserted', inserted, 'updated', updated, 'closed', closed,
    'reopened', 0, 'older', not is_newest, 'source', left(source, 200));
end;
$$;

drop table if exists app_hidden.traffic_publications, app_hidden.traffic_jam_publications;
