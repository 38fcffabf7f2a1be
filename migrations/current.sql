-- Message counts: whole hours from the hourly roll-ups, only the partial hours at either end of a
-- range from the messages themselves, through static SQL whose plans are prepared once.

-- Messages sent in [range_from, range_to] (both ends included, both finite) of these exercise
-- types, and of these disciplines when given.
create or replace function app_hidden.p2000_messages_count_between(range_from timestamptz, range_to timestamptz,
    exercise text, discipline_uuids uuid[]) returns bigint
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
  -- Custom plans would be made anew on every call: the estimates differ with every time range.
  set plan_cache_mode to force_generic_plan
as $$
declare
  exercises text[] := case when exercise = 'all' then array['none', 'test', 'proefalarm', 'oefening'] else array[exercise] end;
  -- Whole hours: from the first hour starting at or after range_from to the last ending by range_to.
  first_hour timestamptz := date_trunc('hour', range_from)
    + case when range_from = date_trunc('hour', range_from) then interval '0' else interval '1 hour' end;
  end_hour timestamptz := date_trunc('hour', range_to + interval '1 microsecond');
  whole_hours bigint;
  partial_hours bigint;
begin
  if range_from > range_to then
    return 0;
  end if;
  if first_hour >= end_hour then
    return (select count(*) from app_public.p2000_messages m
             where m.exercise_type = any (exercises) and m.sended between range_from and range_to
               and (discipline_uuids is null or m.discipline_uuid = any (discipline_uuids)));
  end if;
  if discipline_uuids is null then
    select coalesce(sum(h.messages), 0) into whole_hours from app_hidden.p2000_hourly_urgency_counts h
     where h.hour >= first_hour and h.hour < end_hour and h.exercise_type = any (exercises);
  else
    select coalesce(sum(h.messages), 0) into whole_hours from app_hidden.p2000_hourly_counts h
     where h.hour >= first_hour and h.hour < end_hour and h.exercise_type = any (exercises)
       and h.discipline_uuid = any (discipline_uuids);
  end if;
  select count(*) into partial_hours from app_public.p2000_messages m
   where m.exercise_type = any (exercises)
     and (m.sended >= range_from and m.sended < first_hour or m.sended >= end_hour and m.sended <= range_to)
     and (discipline_uuids is null or m.discipline_uuid = any (discipline_uuids));
  return whole_hours + partial_hours;
end;
$$;
comment on function app_hidden.p2000_messages_count_between(timestamptz, timestamptz, text, uuid[]) is
  'Messages sent in a closed time range, of the given exercise type (or all) and disciplines (or any).';

create or replace function app_public.p2000_messages_count(filter app_public.p2000_message_filter default null) returns integer
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
begin
  perform app_hidden.p2000_message_conditions(filter); -- validates the filter
  if (filter).capcodes is not null or (filter).capcode is not null or (filter).dossier is not null
     or (filter).vehicle is not null or (filter).monitor is not null then
    return app_hidden.p2000_messages_count_by_scan(filter);
  end if;
  if (filter).disciplines is not null then
    discipline_keys := array(select d.uuid::text from app_public.p2000_disciplines d, unnest((filter).disciplines) x
      where d.uuid = app_hidden.try_uuid(x) or lower(d.name) = lower(btrim(x)) or lower(d.slug) = lower(btrim(x)));
  end if;
  range_from := coalesce(((filter).sended)."from", '-infinity');
  range_to := coalesce(((filter).sended)."to", 'infinity');
  -- Whole days: from the first midnight at or after range_from to the last day ending by range_to.
  first_day := case when range_from = '-infinity' then '-infinity'::date
    else (range_from at time zone 'Europe/Amsterdam')::date
         + case when (range_from at time zone 'Europe/Amsterdam')::time = '00:00' then 0 else 1 end end;
  last_day := case when range_to = 'infinity' then 'infinity'::date
    else ((range_to + interval '1 microsecond') at time zone 'Europe/Amsterdam')::date - 1 end;
  if first_day > last_day then
    return app_hidden.p2000_messages_count_between(range_from, range_to, exercise, discipline_keys::uuid[]);
  end if;
  select coalesce(sum(d.messages), 0)::integer into whole_days from app_hidden.p2000_daily_counts d
   where d.day between first_day and last_day
     and (exercise = 'all' or d.exercise_type = exercise)
     and d.dimension = case when discipline_keys is null then 'total' else 'discipline' end
     and (discipline_keys is null or d.key = any (discipline_keys));
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
