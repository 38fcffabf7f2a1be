--! Previous: sha1:55688eb19b7fb74d0863d9add744adf24052fea7
--! Hash: sha1:20bd33089d1cc0d5c1e16aa7b857aa660e7e6353
--! Message: One definition of the disciplines a P2000 filter names, read by the conditions and the count too

-- One definition of the disciplines a P2000 filter names (by uuid, name or slug):
-- app_hidden.p2000_filter_discipline_uuids (migration 000041), now also read by the filter's
-- conditions and by the count, which each had a copy of it. As in migrations 000005 and 000038,
-- with that call in place of the copy. In the conditions it stays a sub-select, so it is still
-- evaluated once per query (cast to uuid[], or "= any (sub-select)" would compare row by row).
create or replace function app_hidden.p2000_message_conditions(filter app_public.p2000_message_filter) returns text
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  parts text[] := array['true'];
  sended_bound text := case when (filter).sended is not null
    then ' and mc.sended between (($1).sended)."from" and (($1).sended)."to"' else '' end;
begin
  if coalesce((filter).exercise_type, 'none') not in ('none', 'test', 'proefalarm', 'oefening', 'all') then
    raise exception 'exerciseType must be none, test, proefalarm, oefening or all (got "%").', (filter).exercise_type using errcode = 'XINPT';
  end if;
  if coalesce((filter).exercise_type, 'none') <> 'all' then
    parts := array_append(parts, 'm.exercise_type = coalesce(($1).exercise_type, ''none'')');
  end if;
  if (filter).sended is not null then
    if ((filter).sended)."from" is null or ((filter).sended)."to" is null then
      raise exception 'sended needs both from and to.' using errcode = 'XINPT';
    end if;
    parts := array_append(parts, 'm.sended between (($1).sended)."from" and (($1).sended)."to"');
  end if;
  -- Capcode filters select from the capcode index (capcode, sended), bounded by sended when given.
  if (filter).capcodes is not null then
    parts := array_append(parts, 'm.uuid in (select mc.message_uuid from app_public.p2000_message_capcodes mc
      where mc.capcode_uuid = any (array(select app_hidden.try_uuid(c) from unnest(($1).capcodes) c))' || sended_bound || ')');
  end if;
  if (filter).capcode is not null then
    parts := array_append(parts, 'm.uuid in (select mc.message_uuid from app_public.p2000_message_capcodes mc
      where mc.capcode_uuid = any (array(select c.uuid from app_public.p2000_capcodes c
        where c.name = any (array(select app_hidden.p2000_normalize_capcode(n) from unnest((($1).capcode).names) n))))' || sended_bound || ')');
  end if;
  if (filter).dossier is not null then
    parts := array_append(parts, 'm.dossier_uuid = app_hidden.try_uuid((($1).dossier).uuid)');
  end if;
  if (filter).disciplines is not null then
    parts := array_append(parts, 'm.discipline_uuid = any ((select app_hidden.p2000_filter_discipline_uuids(($1).disciplines))::uuid[])');
  end if;
  if (filter).vehicle is not null then
    parts := array_append(parts, 'm.call_numbers @> array[regexp_replace((($1).vehicle).number, ''[^0-9]'', '''', ''g'')]');
  end if;
  if (filter).monitor is not null then
    if app_hidden.try_uuid(((filter).monitor).uuid) is null
       or app_hidden.try_uuid(((filter).monitor).uuid) not in (select app_hidden.current_environment_monitor_uuids()) then
      raise exception 'Monitor not found in this environment.' using errcode = 'XNOTF';
    end if;
    parts := array_append(parts, 'm.uuid in (select mm.message_uuid from app_hidden.monitor_matches mm
      where mm.monitor_uuid = app_hidden.try_uuid((($1).monitor).uuid))');
  end if;
  return array_to_string(parts, ' and ');
end;
$$;

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
