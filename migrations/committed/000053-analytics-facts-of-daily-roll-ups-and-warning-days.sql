--! Previous: sha1:8865850252d58810fe43d3dac3de7f335d8cf125
--! Hash: sha1:ebd2c4a8f14767be9b9ed3f105c4cac99fb58769
--! Message: Analytics facts of daily roll-ups and warning days

-- Issue 28, part 5: groupings over ten years of P2000 messages from the daily roll-ups. A grouping of
-- p2000_message_facts reads one row per message: a year of day and region groups reads a year of
-- messages (a million at the ten-year history's rate), ten years ten times that. The roll-ups that
-- p2000MessagesCount reads (app_hidden.p2000_daily_counts: messages per Amsterdam day, exercise
-- type and value of one dimension) answer the same counts from about 30 rows a day, so their view
-- is a fact connection of its own, with a window of up to ten years.

drop function if exists app_public.p2000_day_count_facts(text, date, date, boolean);
drop view if exists app_public.p2000_day_count_facts;
drop function if exists app_public.meteo_warning_day_facts(date, date, boolean);
drop view if exists app_public.meteo_warning_day_facts;
drop function if exists app_hidden.analytics_days(date, date);

create function app_hidden.analytics_days(window_start date, window_end date)
returns boolean language plpgsql immutable parallel safe as $$
begin
  if window_start is null or window_end is null then
    raise exception 'windowStart and windowEnd are required.' using errcode = 'XINPT';
  end if;
  if window_start >= window_end then
    raise exception 'windowStart must be before windowEnd (got % and %).', window_start, window_end
      using errcode = 'XINPT';
  end if;
  if window_end - window_start > 3660 then
    raise exception 'The window must be at most 3660 days (ten years; windowStart to windowEnd).' using errcode = 'XINPT';
  end if;
  return true;
end;
$$;
comment on function app_hidden.analytics_days(date, date) is
  'True for a window of days that the analytics facts of daily roll-ups accept (start before end, at most 3,660 days: ten years); raises BAD_USER_INPUT (XINPT) otherwise. Called with the arguments only, so the planner evaluates it once.';

drop function if exists app_hidden.p2000_count_dimension(text);
create function app_hidden.p2000_count_dimension(dimension text)
returns boolean language plpgsql immutable parallel safe as $$
begin
  if dimension is null or dimension not in ('total', 'region', 'discipline', 'urgency', 'category', 'road') then
    raise exception 'dimension must be one of total, region, discipline, urgency, category, road (got "%").',
      left(dimension, 40) using errcode = 'XINPT';
  end if;
  return true;
end;
$$;
comment on function app_hidden.p2000_count_dimension(text) is
  'True for a dimension of the P2000 daily roll-ups (app_hidden.p2000_daily_counts.dimension); raises BAD_USER_INPUT (XINPT) otherwise.';

create view app_public.p2000_day_count_facts with (security_invoker = true, security_barrier = true) as
select k.day,
       date_trunc('week', k.day::timestamp)::date as week,
       date_trunc('month', k.day::timestamp)::date as month,
       extract(year from k.day)::int as year,
       extract(isodow from k.day)::int as weekday,
       k.exercise_type,
       k.dimension,
       k.key,
       case k.dimension when 'region' then r.name when 'discipline' then d.name when 'urgency' then u.code
                        when 'category' then c.name when 'road' then k.key end as name,
       k.messages
  from app_hidden.p2000_daily_counts k
  left join app_public.p2000_regions r on k.dimension = 'region' and r.uuid::text = k.key
  left join app_public.p2000_disciplines d on k.dimension = 'discipline' and d.uuid::text = k.key
  left join app_public.p2000_urgencies u on k.dimension = 'urgency' and u.uuid::text = k.key
  left join app_public.p2000_categories c on k.dimension = 'category' and c.uuid::text = k.key
 -- (a count that went back to 0, its messages deleted or re-enriched away, is no group)
 where k.messages <> 0;
comment on view app_public.p2000_day_count_facts is E'@name p2000_day_count_fact\n@behavior +connection -query:resource:connection +resource:aggregates +resource:groupedAggregates +resource:groupedAggregates:having\nP2000 messages counted per Amsterdam day, exercise type and value of one dimension (the daily roll-ups that p2000MessagesCount reads), for groupings over up to ten years: sum messages (read it through p2000DayCountFacts). A message without a value for a dimension (no region known, no road) is counted in the total dimension only.';
comment on column app_public.p2000_day_count_facts.day is 'The day (Europe/Amsterdam).';
comment on column app_public.p2000_day_count_facts.week is 'The Monday of the ISO week of the day.';
comment on column app_public.p2000_day_count_facts.month is 'The first day of the month of the day.';
comment on column app_public.p2000_day_count_facts.year is 'The year of the day.';
comment on column app_public.p2000_day_count_facts.weekday is 'The ISO day of the week, 1 (Monday) to 7 (Sunday).';
comment on column app_public.p2000_day_count_facts.exercise_type is 'none for real alerts; test, proefalarm or oefening.';
comment on column app_public.p2000_day_count_facts.dimension is E'@behavior -attribute:groupBy\nWhat key and name are values of: total, region, discipline, urgency, category or road (the function''s argument).';
comment on column app_public.p2000_day_count_facts.key is 'The value as stored: the uuid of the region, discipline, urgency or category; the road (A2, N201, …); empty for total.';
comment on column app_public.p2000_day_count_facts.name is 'The value as people read it: region or discipline name, urgency code, category name or road; null for total.';
comment on column app_public.p2000_day_count_facts.messages is E'@behavior -attribute:groupBy\nMessages of that day, exercise type and value (sum them).';

create function app_public.p2000_day_count_facts(dimension text, window_start date, window_end date,
                                                 include_exercises boolean default false)
returns setof app_public.p2000_day_count_facts language sql stable parallel safe as $$
  select f.* from app_public.p2000_day_count_facts f
   where app_hidden.analytics_days(window_start, window_end)
     and app_hidden.p2000_count_dimension(p2000_day_count_facts.dimension)
     and f.dimension = p2000_day_count_facts.dimension
     and f.day >= window_start and f.day < window_end
     and (include_exercises or f.exercise_type = 'none')
$$;
comment on function app_public.p2000_day_count_facts(text, date, date, boolean) is E'@behavior +connection -list\nP2000 messages per Amsterdam day in [windowStart, windowEnd) (at most 3,660 days) and value of one dimension (total, region, discipline, urgency, category or road), real alerts only unless includeExercises: group by day, week, month, year, weekday, name and sum messages. From the daily roll-ups: the counts p2000MessagesCount gives for whole days.';

-- A dimension's days in order: a window of one dimension reads its rows and no other dimension's.
create index if not exists p2000_daily_counts_dimension_day_idx on app_hidden.p2000_daily_counts
  (dimension, day, exercise_type, key) include (messages);
comment on index app_hidden.p2000_daily_counts_dimension_day_idx is 'p2000_day_count_facts: one dimension''s roll-up rows of a window of days.';

-- Weather warning days: meteoStatsMonthly's days (app_hidden.meteo_daily_levels: the highest level
-- per province and Amsterdam day) as facts, so that "warning days per province per month" and the
-- spec's monthly statistics are one grouping apart. -------------------------------------------------

create view app_public.meteo_warning_day_facts with (security_invoker = true, security_barrier = true) as
select l.day,
       date_trunc('month', l.day::timestamp)::date as month,
       extract(year from l.day)::int as year,
       p.code as province_code,
       p.name as province,
       l.status_code,
       case l.status_code when 1 then 'yellow' when 2 then 'orange' when 3 then 'red' end as level
  from app_hidden.meteo_daily_levels l
  join app_public.meteo_provinces p on p.uuid = l.province_uuid;
comment on view app_public.meteo_warning_day_facts is E'@name meteo_warning_day_fact\n@behavior +connection -query:resource:connection +resource:aggregates +resource:groupedAggregates +resource:groupedAggregates:having\nOne row per day with a weather warning and province, at the day''s highest level (Europe/Amsterdam days), for counting warning days (read it through meteoWarningDayFacts).';
comment on column app_public.meteo_warning_day_facts.day is 'The day (Europe/Amsterdam).';
comment on column app_public.meteo_warning_day_facts.month is 'The first day of the month of the day.';
comment on column app_public.meteo_warning_day_facts.year is 'The year of the day.';
comment on column app_public.meteo_warning_day_facts.province_code is 'The province (noord-holland, …); null on the rows of the whole country.';
comment on column app_public.meteo_warning_day_facts.province is 'The province''s name; null on the rows of the whole country.';
comment on column app_public.meteo_warning_day_facts.status_code is 'The day''s highest warning level: 1 yellow, 2 orange, 3 red.';
comment on column app_public.meteo_warning_day_facts.level is 'The day''s highest warning level: yellow, orange or red.';

create function app_public.meteo_warning_day_facts(window_start date, window_end date, by_province boolean default false)
returns setof app_public.meteo_warning_day_facts language sql stable parallel safe as $$
  select f.* from app_public.meteo_warning_day_facts f
   where app_hidden.analytics_days(window_start, window_end) and by_province
     and f.day >= window_start and f.day < window_end and f.day <= (now() at time zone 'Europe/Amsterdam')::date
  union all
  select f.day, f.month, f.year, null, null, max(f.status_code),
         case max(f.status_code) when 1 then 'yellow' when 2 then 'orange' when 3 then 'red' end
    from app_public.meteo_warning_day_facts f
   where app_hidden.analytics_days(window_start, window_end) and not by_province
     and f.day >= window_start and f.day < window_end and f.day <= (now() at time zone 'Europe/Amsterdam')::date
   group by f.day, f.month, f.year
$$;
comment on function app_public.meteo_warning_day_facts(date, date, boolean) is E'@behavior +connection -list\nDays up to today in [windowStart, windowEnd) (at most 3,660 days) with a weather warning, at their highest level: one row per day for the whole country (as meteoStatsMonthly without regionCode), or with byProvince one per province and day. Count them with distinctCount { day }, grouped by month, year, level, province.';

grant select on app_public.p2000_day_count_facts, app_public.meteo_warning_day_facts to app_visitor, app_analyst;
