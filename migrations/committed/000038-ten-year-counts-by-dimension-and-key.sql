--! Previous: sha1:40e33d314950e01f2766ac16c6f896dfe23f0d93
--! Hash: sha1:6ed37cd717cf508063b8eecfe0e5bf2b0a49fc77
--! Message: Counts over ten years: whole days read by dimension and key (a new index of the daily roll-up), partial hours planned with their values

-- Counts over ten years (bench/p2000-history.ts at 10 million messages): two reads that grew with
-- the history although they only need a few rows.
-- 1. A count's whole days of one dimension (all messages, or some disciplines) walked the daily
--    roll-up's primary key (day first) over every day of the range and filtered the dimension:
--    10 years of days for a count without a range. Now an index led by dimension and key, and the
--    key asked for by equality ('' is the key of the total), so the read is those rows only.
-- 2. The partial hours at either end of a range: the hourly roll-up's cached generic plan did not
--    know the range is a few hours and scanned the whole table (700,000 rows at ten years, 175 ms).
--    That function's statements are now planned with their values.

create index if not exists p2000_daily_counts_dimension_key_idx
  on app_hidden.p2000_daily_counts (dimension, key, day, exercise_type) include (messages);

alter function app_hidden.p2000_messages_count_between(timestamptz, timestamptz, text, uuid[]) set plan_cache_mode to force_custom_plan;

-- As in migration 000034, with the whole days read by dimension and key.
create or replace function app_public.p2000_messages_count(filter app_public.p2000_message_filter default null)
  returns integer
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
  set plan_cache_mode to force_generic_plan
as $$
declare
  exercise text := coalesce((filter).exercise_type, 'none');
  discipline_keys text[];
  range_from timestamptz;
  range_to timestamptz;
  first_day date;
  last_day date;
  whole_days integer;
  single_capcode uuid;
begin
  perform app_hidden.p2000_message_conditions(filter); -- validates the filter (and that the monitor is the environment's)
  range_from := coalesce(((filter).sended)."from", '-infinity');
  range_to := coalesce(((filter).sended)."to", 'infinity');
  if (filter).dossier is null and (filter).vehicle is null and (filter).disciplines is null then
    -- One capcode (by uuid or by name) or one monitor: their daily roll-ups.
    if (filter).monitor is null then
      single_capcode := app_hidden.p2000_single_capcode(filter);
      if single_capcode is not null then
        return app_hidden.p2000_capcode_messages_count(single_capcode, range_from, range_to, exercise);
      end if;
    elsif (filter).capcodes is null and (filter).capcode is null then
      return app_hidden.p2000_monitor_messages_count(app_hidden.try_uuid(((filter).monitor).uuid), range_from, range_to, exercise);
    end if;
  end if;
  if (filter).capcodes is not null or (filter).capcode is not null or (filter).dossier is not null
     or (filter).vehicle is not null or (filter).monitor is not null then
    return app_hidden.p2000_messages_count_by_scan(filter);
  end if;
  if (filter).disciplines is not null then
    discipline_keys := array(select d.uuid::text from app_public.p2000_disciplines d, unnest((filter).disciplines) x
      where d.uuid = app_hidden.try_uuid(x) or lower(d.name) = lower(btrim(x)) or lower(d.slug) = lower(btrim(x)));
  end if;
  -- Whole days: from the first midnight at or after range_from to the last day ending by range_to.
  select w.first_day, w.last_day into first_day, last_day from app_hidden.amsterdam_whole_days(range_from, range_to) w;
  if first_day > last_day then
    return app_hidden.p2000_messages_count_between(range_from, range_to, exercise, discipline_keys::uuid[]);
  end if;
  select coalesce(sum(d.messages), 0)::integer into whole_days from app_hidden.p2000_daily_counts d
   where d.dimension = case when discipline_keys is null then 'total' else 'discipline' end
     and d.key = any (coalesce(discipline_keys, array['']))
     and d.day between first_day and last_day
     and (exercise = 'all' or d.exercise_type = exercise);
  if range_from <> '-infinity' and range_from < first_day::timestamp at time zone 'Europe/Amsterdam' then
    whole_days := whole_days + app_hidden.p2000_messages_count_between(range_from,
      (first_day::timestamp at time zone 'Europe/Amsterdam') - interval '1 microsecond', exercise, discipline_keys::uuid[]);
  end if;
  if range_to <> 'infinity' and range_to >= (last_day + 1)::timestamp at time zone 'Europe/Amsterdam' then
    whole_days := whole_days + app_hidden.p2000_messages_count_between(
      (last_day + 1)::timestamp at time zone 'Europe/Amsterdam', range_to, exercise, discipline_keys::uuid[]);
  end if;
  return whole_days;
end;
$$;
