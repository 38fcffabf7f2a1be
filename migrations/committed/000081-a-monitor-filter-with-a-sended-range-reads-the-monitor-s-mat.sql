--! Previous: sha1:4c91c46e6ac07b9dd754095eec634f919ff8103b
--! Hash: sha1:5d3e8df9ba442511c26996eaef8bc3b54b2c3ff2
--! Message: A monitor filter with a sended range reads the monitor's matches of that range

-- A monitor's messages within a time range read the monitor's matches of that range (its index by
-- monitor and time), as the capcode filters read their links of it: every filter with a monitor
-- and a sended range (p2000Messages, p2000MessagesCount, the statistics' chart with any other
-- filter beside the monitor) no longer reads every match the monitor ever had (1.4 million for a
-- region's monitor at ten years). The bound is one builder's for all three sub-selects.
create or replace function app_hidden.p2000_message_conditions(filter app_public.p2000_message_filter)
  returns text
  language plpgsql stable parallel safe
  set search_path to 'pg_catalog', 'public', 'pg_temp'
as $$
declare
  parts text[] := array['true'];
  -- The sended range on a sub-select's own copy of the time (%1$s: its alias).
  sended_bound text := case when (filter).sended is not null
    then ' and %1$s.sended between (($1).sended)."from" and (($1).sended)."to"' else '' end;
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
      where mc.capcode_uuid = any (array(select app_hidden.try_uuid(c) from unnest(($1).capcodes) c))' || format(sended_bound, 'mc') || ')');
  end if;
  if (filter).capcode is not null then
    parts := array_append(parts, 'm.uuid in (select mc.message_uuid from app_public.p2000_message_capcodes mc
      where mc.capcode_uuid = any (array(select c.uuid from app_public.p2000_capcodes c
        where c.name = any (array(select app_hidden.p2000_normalize_capcode(n) from unnest((($1).capcode).names) n))))' || format(sended_bound, 'mc') || ')');
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
  -- A monitor's filter selects from its matches (monitor_matches_monitor_sended_idx), bounded by
  -- sended when given.
  if (filter).monitor is not null then
    if app_hidden.try_uuid(((filter).monitor).uuid) is null
       or app_hidden.try_uuid(((filter).monitor).uuid) not in (select app_hidden.current_environment_monitor_uuids()) then
      raise exception 'Monitor not found in this environment.' using errcode = 'XNOTF';
    end if;
    parts := array_append(parts, 'm.uuid in (select mm.message_uuid from app_hidden.monitor_matches mm
      where mm.monitor_uuid = app_hidden.try_uuid((($1).monitor).uuid)' || format(sended_bound, 'mm') || ')');
  end if;
  return array_to_string(parts, ' and ');
end;
$$;

comment on function app_hidden.p2000_messages_count_by_scan(filter app_public.p2000_message_filter) is 'Counts the messages a filter selects by running its conditions (index range scans). p2000MessagesCount uses it when neither a roll-up nor the capcodes'' links answer: a dossier, a vehicle, or a monitor or capcodes combined with other filters. (Several capcodes alone are counted from their links since migration 000077.)';
