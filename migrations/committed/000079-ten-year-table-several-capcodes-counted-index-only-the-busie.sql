--! Previous: sha1:1ddf1c5a33ddc9494c937bead72834b1efc669e4
--! Hash: sha1:e8cb46e38c51982c79adc6a0e8a83d50d58d54a3
--! Message: Ten-year table: several capcodes counted index-only, the busiest hour from an index by exercise type and hour

-- The last two reads of issue 33's ten-year table over 100 ms p99 at one client:
-- * p2000MessagesCount of several capcodes read each link's row for its message (100,000 links for
--   region 17's ten busiest unit capcodes: 138 ms). The capcode index carries the message, so the
--   count is an index-only scan. The index keeps its name; it is built beside the old one and
--   swapped (the links are locked for writes while it is built: about a minute at ten years).
-- * p2000Statistics(THIS_YEAR) spent 72 of its 85 ms on the busiest hour: a sequential scan of the
--   hourly urgency roll-up, every row converted to local time. An index by exercise type and hour
--   with the count makes the year an index-only range, and the hours are summed before they are
--   converted.
create index if not exists p2000_message_capcodes_capcode_message_idx
  on app_public.p2000_message_capcodes (capcode_uuid, sended desc) include (message_uuid);
drop index if exists app_public.p2000_message_capcodes_capcode_idx;
alter index app_public.p2000_message_capcodes_capcode_message_idx rename to p2000_message_capcodes_capcode_idx;

create index if not exists p2000_hourly_urgency_counts_exercise_hour_idx
  on app_hidden.p2000_hourly_urgency_counts (exercise_type, hour) include (messages);

create or replace function app_public.p2000_statistics(period app_public.p2000_statistics_period default 'LAST_7_DAYS')
 RETURNS app_public.p2000_statistics
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $$
declare
  result app_public.p2000_statistics;
  today date := (now() at time zone 'Europe/Amsterdam')::date;
  first_day date;
begin
  result.period := coalesce(period, 'LAST_7_DAYS');
  result."to" := now();
  if result.period = 'LAST_24_HOURS' then
    -- A rolling day: one pass over the hourly counts, grouped by each dimension at once.
    result."from" := now() - interval '24 hours';
    with counts as (
      select h.discipline_uuid, h.region_uuid, h.urgency_uuid, h.category_uuid,
             extract(hour from h.hour at time zone 'Europe/Amsterdam')::integer as local_hour,
             grouping(h.discipline_uuid, h.region_uuid, h.urgency_uuid, h.category_uuid,
                      extract(hour from h.hour at time zone 'Europe/Amsterdam')::integer) as set_id,
             sum(h.messages)::integer as n
        from app_hidden.p2000_hourly_counts h
       where h.hour >= date_trunc('hour', result."from") and h.exercise_type = 'none'
       group by grouping sets ((), (h.discipline_uuid), (h.region_uuid), (h.urgency_uuid), (h.category_uuid),
                               (extract(hour from h.hour at time zone 'Europe/Amsterdam')::integer))
    )
    select coalesce((select c.n from counts c where c.set_id = 31), 0),
           coalesce((select array_agg(row(d.uuid::text, d.name, c.n)::app_public.p2000_count order by c.n desc, d.name)
                       from counts c join app_public.p2000_disciplines d on d.uuid = c.discipline_uuid where c.set_id = 15 and c.n <> 0), '{}'),
           coalesce((select array_agg(row(g.number, g.name, c.n)::app_public.p2000_count order by c.n desc, g.number)
                       from counts c join app_public.p2000_regions g on g.uuid = c.region_uuid where c.set_id = 23 and c.n <> 0), '{}'),
           coalesce((select array_agg(row(u.code, u.name, c.n)::app_public.p2000_count order by c.n desc, u.code)
                       from counts c join app_public.p2000_urgencies u on u.uuid = c.urgency_uuid where c.set_id = 27 and c.n <> 0), '{}'),
           coalesce((select array_agg(row(x.code, x.name, c.n)::app_public.p2000_count order by c.n desc, x.code)
                       from counts c join app_public.p2000_categories x on x.uuid = c.category_uuid where c.set_id = 29 and c.n <> 0), '{}'),
           (select c.local_hour from counts c where c.set_id = 30 and c.n > 0 order by c.n desc, c.local_hour limit 1)
      into result.total, result.by_discipline, result.by_region, result.by_urgency, result.by_category, result.busiest_hour;
    return result;
  end if;
  -- Whole Dutch days up to and including today, from the daily roll-up (a year is a few thousand
  -- rows); the busiest hour from the hourly urgency counts.
  first_day := case result.period
    when 'LAST_7_DAYS' then today - 6
    when 'LAST_30_DAYS' then today - 29
    when 'THIS_YEAR' then date_trunc('year', today)::date
  end;
  result."from" := first_day::timestamp at time zone 'Europe/Amsterdam';
  select coalesce(sum(d.messages), 0)::integer into result.total from app_hidden.p2000_daily_counts d
   where d.day >= first_day and d.exercise_type = 'none' and d.dimension = 'total';
  result.by_discipline := app_hidden.p2000_daily_counts_by(first_day, 'infinity', 'discipline');
  result.by_region := app_hidden.p2000_daily_counts_by(first_day, 'infinity', 'region');
  result.by_urgency := app_hidden.p2000_daily_counts_by(first_day, 'infinity', 'urgency');
  result.by_category := app_hidden.p2000_daily_counts_by(first_day, 'infinity', 'category');
  -- Each hour's messages first (an index-only range of p2000_hourly_urgency_counts_exercise_hour_idx),
  -- then those hours by their local hour of the day: a year is 8,760 conversions to local time, not
  -- one for every urgency of every hour.
  select extract(hour from x.hour at time zone 'Europe/Amsterdam')::integer into result.busiest_hour
    from (select h.hour, sum(h.messages) as messages from app_hidden.p2000_hourly_urgency_counts h
           where h.exercise_type = 'none' and h.hour >= result."from" group by h.hour) x
   group by 1 having sum(x.messages) > 0 order by sum(x.messages) desc, 1 limit 1;
  return result;
end;
$$;
