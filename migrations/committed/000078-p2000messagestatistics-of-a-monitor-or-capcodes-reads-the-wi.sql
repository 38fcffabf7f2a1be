--! Previous: sha1:dc4310737840e30c0e3c3ae4e490dbfab63ae6db
--! Hash: sha1:1ddf1c5a33ddc9494c937bead72834b1efc669e4
--! Message: p2000MessageStatistics of a monitor or capcodes reads the window's matches or links

-- p2000MessageStatistics of a monitor or of capcodes: the chart reads the window's matches or links,
-- not every one the monitor or capcodes ever had (a region's monitor has 1.4 million matches at ten
-- years). The chart's filter is the client's within the window (its start passed as a time range).
create or replace function app_public.p2000_message_statistics(
  filter app_public.p2000_message_filter default null, chart_days integer default 30
) returns app_public.p2000_message_statistics
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  days integer := coalesce(chart_days, 30);
  since timestamptz;
  result app_public.p2000_message_statistics;
  conditions text := app_hidden.p2000_message_conditions(filter); -- checks the filter
  chart_filter app_public.p2000_message_filter := filter;
  source text;
begin
  if days < 1 or days > 90 then
    raise exception 'chartDays must be between 1 and 90 (got %).', days using errcode = 'XINPT';
  end if;
  -- The window's first midnight in Amsterdam: the date made a local timestamp first (a date at
  -- time zone is taken as midnight in the session's zone, UTC, which began the window at 01:00 or
  -- 02:00 local time and left the first hours out of the chart).
  since := ((now() at time zone 'Europe/Amsterdam')::date - (days - 1))::timestamp at time zone 'Europe/Amsterdam';
  result.chart_days := days;
  result.total := app_public.p2000_messages_count(filter);
  -- The chart's messages: the filter's within the window, the window's start passed as a time
  -- range, so that the capcode sub-selects read their links from it on (not over the decade).
  chart_filter.sended := row(greatest(coalesce(((filter).sended)."from", since), since),
                             coalesce(((filter).sended)."to", 'infinity'))::app_public.date_range;
  if (filter).monitor is not null and (filter).capcodes is null and (filter).capcode is null
     and (filter).dossier is null and (filter).vehicle is null and (filter).disciplines is null then
    -- A monitor: its matches in the window (its index by time, and the match's copy of the time and
    -- exercise type, as p2000Messages lists a monitor's messages), not every match it ever had.
    source := $q$
      select (mm.sended at time zone 'Europe/Amsterdam')::date as day, m.discipline_uuid, m.urgency_uuid, m.region_uuid,
             1 as messages, true as counts_day
        from app_hidden.monitor_matches mm join app_public.p2000_messages m on m.uuid = mm.message_uuid
       where mm.monitor_uuid = app_hidden.try_uuid((($1).monitor).uuid)
         and mm.sended between (($1).sended)."from" and (($1).sended)."to"
         and (coalesce(($1).exercise_type, 'none') = 'all' or mm.exercise_type = coalesce(($1).exercise_type, 'none'))$q$;
  elsif (filter).capcodes is not null or (filter).capcode is not null or (filter).dossier is not null
     or (filter).vehicle is not null or (filter).monitor is not null or (filter).sended is not null then
    source := format($q$
      select (m.sended at time zone 'Europe/Amsterdam')::date as day, m.discipline_uuid, m.urgency_uuid, m.region_uuid,
             1 as messages, true as counts_day
        from app_public.p2000_messages m where %s$q$, app_hidden.p2000_message_conditions(chart_filter));
  elsif (filter).disciplines is not null then
    source := $q$
      select (h.hour at time zone 'Europe/Amsterdam')::date as day, h.discipline_uuid, h.urgency_uuid, h.region_uuid,
             h.messages, true as counts_day
        from app_hidden.p2000_hourly_counts h
       where h.hour >= $2
         and (coalesce(($1).exercise_type, 'none') = 'all' or h.exercise_type = coalesce(($1).exercise_type, 'none'))
         and h.discipline_uuid = any ((select app_hidden.p2000_filter_discipline_uuids(($1).disciplines))::uuid[])$q$;
  else
    source := $q$
      select d.day,
             case when d.dimension = 'discipline' then d.key::uuid end as discipline_uuid,
             case when d.dimension = 'urgency' then d.key::uuid end as urgency_uuid,
             case when d.dimension = 'region' then d.key::uuid end as region_uuid,
             d.messages, d.dimension = 'total' as counts_day
        from app_hidden.p2000_daily_counts d
       where d.dimension in ('total', 'discipline', 'urgency', 'region')
         and d.day >= ($2 at time zone 'Europe/Amsterdam')::date
         and (coalesce(($1).exercise_type, 'none') = 'all' or d.exercise_type = coalesce(($1).exercise_type, 'none'))$q$;
  end if;
  execute format($q$
    with source as materialized (%s),
    by_day as (select s.day, sum(s.messages) filter (where s.counts_day) as n from source s group by s.day)
    select
      array(select row(g.day::date, coalesce(b.n, 0))::app_public.p2000_day_count
              from generate_series(($2 at time zone 'Europe/Amsterdam')::date, (now() at time zone 'Europe/Amsterdam')::date, interval '1 day') g (day)
              left join by_day b on b.day = g.day::date
             order by g.day),
      array(select row(d.uuid::text, d.name, c.n)::app_public.p2000_count
              from (select s.discipline_uuid, sum(s.messages) as n from source s group by 1) c
              join app_public.p2000_disciplines d on d.uuid = c.discipline_uuid
             where c.n <> 0 order by c.n desc, d.name),
      array(select row(u.code, u.name, c.n)::app_public.p2000_count
              from (select s.urgency_uuid, sum(s.messages) as n from source s group by 1) c
              join app_public.p2000_urgencies u on u.uuid = c.urgency_uuid
             where c.n <> 0 order by u.rank, u.code),
      array(select row(r.number, r.name, c.n)::app_public.p2000_count
              from (select s.region_uuid, sum(s.messages) as n from source s group by 1) c
              join app_public.p2000_regions r on r.uuid = c.region_uuid
             where c.n <> 0 order by c.n desc, r.number)
  $q$, source) into result.per_day, result.by_discipline, result.by_urgency, result.by_region using chart_filter, since;
  return result;
end;
$$;
comment on function app_public.p2000_message_statistics(app_public.p2000_message_filter, integer) is '@notNull
Counts for a message filter (real alerts only by default); chartDays 1-90, default 30.';
