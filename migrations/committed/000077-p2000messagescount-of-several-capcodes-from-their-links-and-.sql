--! Previous: sha1:c92372161b5f3b5cdf3eff4330ef4c000cdb42fa
--! Hash: sha1:dc4310737840e30c0e3c3ae4e490dbfab63ae6db
--! Message: p2000MessagesCount of several capcodes from their links and a partial index of exercises

-- p2000MessagesCount of several capcodes (issue 33's ten-year table: ten capcode names took 70 ms
-- of PostgreSQL, 818 ms p99 at 16 clients). A message sent to two of them counts once, so no sum
-- of per-capcode roll-ups can answer; the count reads the capcodes' links in the range, each
-- message once, and checks the exercise type against a small partial index of the exercises
-- instead of reading every message's row.
create index if not exists p2000_messages_exercises_idx
  on app_public.p2000_messages (uuid) include (exercise_type) where exercise_type <> 'none';
comment on index app_public.p2000_messages_exercises_idx is
  'The messages that are exercises or tests (a few percent): whether a linked message is one, without reading its row.';

create or replace function app_hidden.p2000_capcodes_messages_count(
  capcodes uuid[], range_from timestamptz, range_to timestamptz, exercise text
) returns integer
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select count(*)::integer
    from (select distinct mc.message_uuid from app_public.p2000_message_capcodes mc
           where mc.capcode_uuid = any (capcodes) and mc.sended between range_from and range_to) l
   where case exercise
           when 'all' then true
           when 'none' then not exists (select from app_public.p2000_messages x
                                         where x.uuid = l.message_uuid and x.exercise_type <> 'none')
           else exists (select from app_public.p2000_messages x
                         where x.uuid = l.message_uuid and x.exercise_type <> 'none' and x.exercise_type = exercise)
         end
$$;
comment on function app_hidden.p2000_capcodes_messages_count(uuid[], timestamptz, timestamptz, text) is
  'Messages sent to any of the capcodes in [range_from, range_to] of an exercise type (or all), each once: the capcode links (capcode, sended) read once per message, the exercise type from p2000_messages_exercises_idx.';

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
      -- Several capcodes, by uuid or by name (not both: that is their intersection): their links.
      if (filter).capcodes is not null and (filter).capcode is null then
        return app_hidden.p2000_capcodes_messages_count(
          array(select app_hidden.try_uuid(c) from unnest((filter).capcodes) c), range_from, range_to, exercise);
      end if;
      if (filter).capcode is not null and (filter).capcodes is null then
        return app_hidden.p2000_capcodes_messages_count(
          array(select c.uuid from app_public.p2000_capcodes c
                 where c.name = any (array(select app_hidden.p2000_normalize_capcode(n) from unnest(((filter).capcode).names) n))),
          range_from, range_to, exercise);
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
    discipline_keys := app_hidden.p2000_filter_discipline_uuids((filter).disciplines)::text[];
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
