--! Previous: sha1:a0f78feec47d0e43549646afcf1f09eb20be1afc
--! Hash: sha1:ad386b1a0933e8b25f55f6e128aedf146d9c8d09
--! Message: P2000 ingestion in batches: enrichment ahead, statement roll-ups, time-ordered keys; counts from hourly roll-ups

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

-- Ingestion in batches (the FLEX reader stores up to 500 pages per statement). Per message, the
-- work is planned once per connection instead of on every call (the insert path's custom plans
-- were re-made for every message), capcodes are created only when they are new (an upsert of a
-- known one still ran its classification trigger), and the capcode links and roll-ups are written
-- once per statement, one row per key, instead of once per message (a batch updated the same
-- counter rows hundreds of times in one transaction, each update a new row version to step over).
-- A strict SQL function whose body is not strict (a CASE) is never inlined; its result for null
-- is null either way, and inlined it costs nothing per capcode.
alter function app_hidden.p2000_normalize_capcode(text) called on null input;

-- Time-ordered keys: new rows land at the right edge of the key indexes instead of on a random
-- page of them, which keeps the part of the indexes that ingestion touches small and in memory.
alter table app_public.p2000_messages alter column uuid set default uuidv7();
alter table app_public.p2000_dossiers alter column uuid set default uuidv7();
alter table app_public.p2000_dossier_events alter column uuid set default uuidv7();

-- What a capcode addresses, from its number and description: the classification of new capcodes,
-- and what enrichment assumes of a capcode it does not know yet (the FLEX reader enriches a batch
-- before its new capcodes are stored).
create or replace function app_hidden.p2000_capcode_kind(name text, description text) returns text
  language sql immutable parallel safe
as $$
  select case
    when name::integer between 2029568 and 2029583 then 'group_call'
    when name = '1180000' or coalesce(description, '') ~* '(proefalarm|testcode|test ?oproep|\mtest\M)' then 'test'
    when name ~ '99[89]$' or coalesce(description, '') ~* 'monitor' then 'monitor'
    else 'unit'
  end
$$;

create or replace function app_hidden.tg_p2000_capcodes__classify() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  block app_hidden.p2000_capcode_blocks;
begin
  select * into block from app_hidden.p2000_capcode_blocks b where b.block = left(new.name, 4);
  new.discipline_uuid := coalesce(new.discipline_uuid, block.discipline_uuid);
  new.region_uuid := coalesce(new.region_uuid, block.region_uuid);
  new.kind := app_hidden.p2000_capcode_kind(new.name, new.description);
  return new;
end;
$$;

-- Enrichment, cheaper: the capcode blocks and place abbreviations are probed by index instead of
-- hashed whole for every message, and the street pattern runs on the lower-case text.
create or replace function app_hidden.p2000_enrich(message text, capcode_names text[]) returns app_hidden.p2000_enrichment
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
  set plan_cache_mode to force_generic_plan
as $$
declare
  r app_hidden.p2000_enrichment;
  t text := btrim(regexp_replace(message, '\s+', ' ', 'g'));
  m text[];
  urgency_code text;
  discipline_name text;
  region_number text;
  all_test_codes boolean;
  place app_public.places;
  words text[];
  candidates text[];
  body text;
  category_code text;
  padded text;
  spaced text;
  explicit_priority boolean := false;
begin
  -- Urgency: "P 1", "PRIO 1", "Prio 1" and a bare leading digit are P1..P3; A0..A2, B1, B2 as written.
  -- Lower-case words of the text, and the text as " word word ": keyword rules test these
  -- instead of running a regex each (PostgreSQL caches only 32 compiled regexes per session).
  words := regexp_split_to_array(btrim(regexp_replace(lower(t), '[^[:alnum:]''’ -]+', ' ', 'g')), '\s+');
  padded := ' ' || array_to_string(words, ' ') || ' ';

  m := regexp_match(t, '^(?:PRIO|P)\s*:?\s*([123])\M', 'i');
  if m is not null then
    explicit_priority := true;
    urgency_code := 'P' || m[1];
  else
    m := regexp_match(t, '^([AB])\s?([0-2])\M', 'i');
    if m is not null and upper(m[1]) || m[2] in ('A0', 'A1', 'A2', 'B1', 'B2') then
      urgency_code := upper(m[1]) || m[2];
    else
      m := regexp_match(t, '^([123])\s');
      if m is not null then urgency_code := 'P' || m[1]; end if;
    end if;
  end if;
  select u.uuid into r.urgency_uuid from app_public.p2000_urgencies u where u.code = urgency_code;

  -- Discipline and region: from the capcodes that address units (not group calls, not monitor
  -- codes), by majority; their own data first, their 4-digit block second.
  select mode() within group (order by coalesce(c.discipline_uuid, b.discipline_uuid)),
         mode() within group (order by coalesce(c.region_uuid, b.region_uuid)),
         bool_and(c.kind = 'test')
    into r.discipline_uuid, r.region_uuid, all_test_codes
    from (select distinct app_hidden.p2000_normalize_capcode(x) as name from unnest(capcode_names) x) as n
    left join app_public.p2000_capcodes c on c.name = n.name
    -- lateral: one index probe per capcode, not a hash of the whole block table per message
    left join lateral (select b.discipline_uuid, b.region_uuid from app_hidden.p2000_capcode_blocks b
                        where b.block = left(n.name, 4)) as b on true
   where n.name is not null and n.name not between '2029568' and '2029583'
     and coalesce(c.kind, app_hidden.p2000_capcode_kind(n.name, null)) in ('unit', 'test');

  if r.discipline_uuid is null then
    discipline_name := case
      when left(urgency_code, 1) in ('A', 'B') or words && array['ambu', 'lifeliner', 'traumaheli', 'mmt']
        or strpos(padded, ' dia ja ') > 0 or strpos(padded, ' directe inzet ') > 0 then 'Ambulance'
      when explicit_priority then 'Brandweer'
      when t ~ '\mB[A-Z]{2}-[0-9]{2}\M' or words && array['br', 'brandweer', 'brand'] then 'Brandweer'
      when words && array['knrm'] then 'KNRM'
      when words && array['politie'] then 'Politie'
    end;
    select d.uuid into r.discipline_uuid from app_public.p2000_disciplines d where d.name = discipline_name;
  else
    select d.name into discipline_name from app_public.p2000_disciplines d where d.uuid = r.discipline_uuid;
  end if;

  -- Fire call numbers (RRPPTV, the region first) and ambulance unit numbers (RRNNN).
  r.call_numbers := coalesce(array(
    select distinct x[1] from regexp_matches(t, '\m((?:0[1-9]|1[0-9]|2[0-5])[0-9]{4})\M', 'g') as x
     where discipline_name = 'Brandweer'), '{}');
  if r.region_uuid is null then
    -- "AMBU 17106", or the unit number right after the urgency ("A1 13108 ...").
    m := regexp_match(t, '(?:\mambu\s+|^(?:a[0-2]|b[12])\s+)((?:0[1-9]|1[0-9]|2[0-5]))[0-9]{3}\M', 'i');
    region_number := coalesce(m[1], left(r.call_numbers[1], 2));
    select g.uuid into r.region_uuid from app_public.p2000_regions g where g.number = region_number;
  end if;

  -- Tests and exercises.
  r.exercise_type := case
    when words && array['testoproep', 'testbericht', 'testpage'] or t ~* '^((p|prio)\s*[123]\s+)?test\M' then 'test'
    when strpos(lower(t), 'proefalarm') > 0 then 'proefalarm'
    when words && array['oefening', 'oefenalarm'] then 'oefening'
    when all_test_codes then 'test'
    else 'none'
  end;

  m := regexp_match(t, '\mGRIP\s*([1-5])\M', 'i');
  r.grip_level := m[1]::smallint;

  m := regexp_match(t, '\m([1-9][0-9]{3}) ?([A-Z]{2})\M');
  if m is not null and m[2] not in ('SA', 'SD', 'SS') then r.postcode := m[1] || m[2]; end if;

  -- Roads: "A12 Re 45,6", "a2 li 223.5", "N59 42,3" (not the urgency code at the start: "A1 ...").
  body := regexp_replace(t, '^(?:[AB]\s?[0-2]|(?:PRIO|P)\s*:?\s*[123]|[123])\M', '', 'i');
  m := regexp_match(body, '\m([ANS])\s?([0-9]{1,3})\M', 'i');
  if m is not null then
    r.road := upper(m[1]) || m[2];
    m := regexp_match(body, '\m[ANS]\s?[0-9]{1,3}\M(?:\s+(Li|Re|HRL|HRR)\M)?[^0-9]{0,40}?\m([0-9]{1,3})[,.]([0-9])\M', 'i');
    if m is not null then
      r.hectometer := (m[2] || '.' || m[3])::double precision;
    end if;
    m := regexp_match(body, '\m(Li|Re|HRL|HRR)\M', 'i');
    r.carriageway := case upper(m[1]) when 'LI' then 'Li' when 'HRL' then 'Li' when 'RE' then 'Re' when 'HRR' then 'Re' end;
  end if;

  -- Street: a word with a Dutch street suffix, with a title word before it ("Burgemeester ...").
  -- Matched in the lower-case text (a case-insensitive match of this pattern costs twice as much),
  -- then taken from the text as written.
  m := regexp_match(lower(t),
    '((?:\m(?:burgemeester|dokter|dr\.|sint|st\.|prins|prinses|koning|koningin|graaf|professor|prof\.|van|de|den)\s+)?'
    '\m[a-zà-ÿ''’-]*(?:straat|weg|laan|plein|kade|singel|dijk|gracht|pad|dreef|hof|baan|boulevard|steeg|wal|markt|ring|allee|plantsoen|erf|haven|brug|park|oord))\M');
  if m is not null and m[1] !~ '^(auto)?snelweg$|^rijksweg$' then
    r.street := app_hidden.proper_case(substr(t, strpos(lower(t), m[1]), length(m[1])));
  end if;

  -- Place: a P2000 abbreviation (VLAARD), else the place name that ends last in the text (the
  -- longest there); where names repeat, the one in the message's region's province, then the biggest.
  -- The few abbreviations are tested as whole words of the text (as written: they are capitals);
  -- each found one is an index probe.
  spaced := ' ' || regexp_replace(t, '[^[:alnum:]]+', ' ', 'g') || ' ';
  select p.* into place
    from app_hidden.p2000_place_abbreviations a
    join app_hidden.place_names n on n.name = lower(a.place_name)
    join app_public.places p on p.uuid = n.place_uuid
   where strpos(spaced, ' ' || a.abbreviation || ' ') > 0
   order by p.population desc nulls last limit 1;
  if place.uuid is null then
    -- Word n-grams of the text, preferred first: the one ending last, then the longest; each is
    -- one index probe into the place names.
    candidates := array(
      select array_to_string(words[i:i + n - 1], ' ')
        from generate_subscripts(words, 1) as i, generate_series(1, 4) as n
       -- not only digits, spaces and hyphens (translate: a regex per n-gram costs more)
       where i + n - 1 <= array_length(words, 1) and translate(array_to_string(words[i:i + n - 1], ' '), '0123456789 -', '') <> ''
       order by i + n desc, n desc);
    select p.* into place
      from unnest(candidates) with ordinality as c (name, position)
      join app_hidden.place_names n on n.name = c.name
      join app_public.places p on p.uuid = n.place_uuid
      left join app_public.p2000_regions g on g.uuid = r.region_uuid
     order by c.position, (p.province = g.province) desc nulls last, p.population desc nulls last
     limit 1;
  end if;
  if place.uuid is not null then
    -- A province with one safety region names the region (Zeeland, Utrecht, Flevoland, ...).
    if r.region_uuid is null then
      select min(g.uuid::text)::uuid into r.region_uuid from app_public.p2000_regions g
       where g.province = place.province having count(*) = 1;
    end if;
    r.place_uuid := place.uuid;
    r.city := place.name;
    r.latitude := place.latitude;
    r.longitude := place.longitude;
  end if;

  -- Decided once, then looked up (inside the lookup the regexes would run for every category row).
  category_code := case
    when r.exercise_type <> 'none' then 'test'
    when words && array['vws', 'dienstverlening', 'postbezetting'] or strpos(padded, ' post bezetting ') > 0 then 'dienstverlening'
    when urgency_code in ('B1', 'B2') then 'besteld_vervoer'
    when words && array['oms', 'brandmeldinstallatie', 'am'] or strpos(padded, ' automatische melding ') > 0
      or strpos(padded, ' automatische brandmelding ') > 0 or strpos(padded, ' automatisch brandalarm ') > 0 then 'automatisch_alarm'
    when words && array['gaslek', 'gaslekkage', 'gaslucht', 'ogs'] or strpos(padded, ' gevaarlijke stof') > 0 then 'gevaarlijke_stoffen'
    when words && array['waterongeval', 'ijs'] or strpos(padded, ' te water ') > 0 then 'waterongeval'
    when words && array['ongeval', 'aanrijding', 'ovw', 'wegvervoer'] then 'ongeval'
    when words && array['br', 'rookmelder'] or exists (select 1 from unnest(words) w where w like '%brand') then 'brand'
    when words && array['hv', 'hulpverlening', 'liftopsluiting', 'dier', 'stormschade', 'wateroverlast', 'nacontrole', 'assistentie'] then 'hulpverlening'
    when left(urgency_code, 1) = 'A' or discipline_name = 'Ambulance' then 'medisch'
    when words && array['klaarliggen', 'info', 'informatie'] or strpos(padded, ' contact meldkamer ') > 0 then 'informatie'
  end;
  select c.uuid into r.category_uuid from app_public.p2000_categories c where c.code = category_code;

  -- Incident number: after bon/rit/icnum, or a trailing 5-8 digit number (not for the fire
  -- brigade, whose texts end in call numbers).
  m := regexp_match(t, '\m(?:bon|rit|icnum|incident|incidentnummer)\s*:?\s*([0-9]{4,8})\M', 'i');
  r.incident_number := coalesce(m[1],
    case when discipline_name is distinct from 'Brandweer' then (regexp_match(t, '\m([0-9]{5,8})$'))[1] end);

  -- Text without what differs between retransmissions of one incident, for grouping.
  r.normalized_text := btrim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(lower(t),
    '^(prio|p)\s*:?\s*[123]\M|^[ab]\s?[0-2]\M|^[123]\s', ''),
    '\mb[a-z]{2}-[0-9]{2}\M', ' ', 'g'),
    '\m[0-9]{4,}\M|\m(bon|rit|icnum)\M|[[:punct:]]', ' ', 'g'),
    '\s+', ' ', 'g'));
  return r;
end;
$$;
-- Dossier grouping looks among one region's recent dossiers: a few rows, where the text index
-- (long keys, written on every new dossier) and the time index (every region) read many more.
-- Dossiers without a region are one group of their own.
create or replace function app_hidden.no_region() returns uuid
  language sql immutable parallel safe
as $$
  select '00000000-0000-0000-0000-000000000000'::uuid
$$;
comment on function app_hidden.no_region() is 'Stands for "no region" where regions are compared with =, as in p2000_dossiers_region_recent_idx.';
drop index if exists app_public.p2000_dossiers_text_idx;
create index if not exists p2000_dossiers_region_recent_idx on app_public.p2000_dossiers
  ((coalesce(region_uuid, app_hidden.no_region())), last_sended desc);

-- Grouping: the same incident number in the same region within 6 hours; else the same text in the
-- same region and discipline within 2 hours; else a truncated retransmission (one text a prefix
-- of the other) within 30 minutes. Urgency and GRIP only go up; the timeline records each step.
-- The text and prefix rules read the region's recent dossiers (p2000_dossiers_region_recent_idx).
create or replace function app_hidden.p2000_assign_dossier(m app_public.p2000_messages) returns uuid
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
  set plan_cache_mode to force_generic_plan
as $$
declare
  d app_public.p2000_dossiers;
  new_rank smallint;
  old_rank smallint;
begin
  if m.exercise_type <> 'none' or coalesce(m.normalized_text, '') = '' then
    return null;
  end if;
  if m.incident_number is not null then
    select * into d from app_public.p2000_dossiers x
     where x.incident_number = m.incident_number and x.region_uuid is not distinct from m.region_uuid
       and x.last_sended > m.sended - interval '6 hours' and x.first_sended < m.sended + interval '1 hour'
     order by x.last_sended desc limit 1;
  end if;
  if d.uuid is null then
    select * into d from app_public.p2000_dossiers x
     where coalesce(x.region_uuid, app_hidden.no_region()) = coalesce(m.region_uuid, app_hidden.no_region())
       and x.normalized_text = m.normalized_text and x.discipline_uuid is not distinct from m.discipline_uuid
       and x.last_sended > m.sended - interval '2 hours' and x.first_sended < m.sended + interval '1 hour'
     order by x.last_sended desc limit 1;
  end if;
  if d.uuid is null and length(m.normalized_text) >= 12 then
    select * into d from app_public.p2000_dossiers x
     where coalesce(x.region_uuid, app_hidden.no_region()) = coalesce(m.region_uuid, app_hidden.no_region())
       and x.last_sended between m.sended - interval '30 minutes' and m.sended + interval '30 minutes'
       and length(x.normalized_text) >= 12
       and (m.normalized_text like x.normalized_text || '%' or x.normalized_text like m.normalized_text || '%')
     order by x.last_sended desc limit 1;
  end if;

  if d.uuid is null then
    insert into app_public.p2000_dossiers (title, region_uuid, discipline_uuid, urgency_uuid, category_uuid, grip_level,
        exercise_type, incident_number, normalized_text, city, street, latitude, longitude, first_sended, last_sended, message_count)
    values (m.message, m.region_uuid, m.discipline_uuid, m.urgency_uuid, m.category_uuid, m.grip_level,
        m.exercise_type, m.incident_number, m.normalized_text, m.city, m.street, m.latitude, m.longitude, m.sended, m.sended, 1)
    returning * into d;
    insert into app_public.p2000_dossier_events (dossier_uuid, message_uuid, sended, kind, new_value)
    values (d.uuid, m.uuid, m.sended, 'opened', (select u.code from app_public.p2000_urgencies u where u.uuid = m.urgency_uuid));
    return d.uuid;
  end if;

  insert into app_public.p2000_dossier_events (dossier_uuid, message_uuid, sended, kind)
  values (d.uuid, m.uuid, m.sended, 'message');
  select u.rank into new_rank from app_public.p2000_urgencies u where u.uuid = m.urgency_uuid;
  select u.rank into old_rank from app_public.p2000_urgencies u where u.uuid = d.urgency_uuid;
  if new_rank < coalesce(old_rank, 99) then
    insert into app_public.p2000_dossier_events (dossier_uuid, message_uuid, sended, kind, previous_value, new_value)
    values (d.uuid, m.uuid, m.sended, 'urgency_raised',
            (select u.code from app_public.p2000_urgencies u where u.uuid = d.urgency_uuid),
            (select u.code from app_public.p2000_urgencies u where u.uuid = m.urgency_uuid));
  end if;
  if m.grip_level > coalesce(d.grip_level, 0) then
    insert into app_public.p2000_dossier_events (dossier_uuid, message_uuid, sended, kind, previous_value, new_value)
    values (d.uuid, m.uuid, m.sended, 'grip_raised', d.grip_level::text, m.grip_level::text);
  end if;
  update app_public.p2000_dossiers x set
    last_sended = greatest(x.last_sended, m.sended),
    first_sended = least(x.first_sended, m.sended),
    message_count = x.message_count + 1,
    urgency_uuid = case when new_rank < coalesce(old_rank, 99) then m.urgency_uuid else x.urgency_uuid end,
    grip_level = greatest(x.grip_level, m.grip_level),
    incident_number = coalesce(x.incident_number, m.incident_number),
    category_uuid = coalesce(x.category_uuid, m.category_uuid),
    city = coalesce(x.city, m.city),
    street = coalesce(x.street, m.street),
    latitude = coalesce(x.latitude, m.latitude),
    longitude = coalesce(x.longitude, m.longitude)
   where x.uuid = d.uuid;
  return d.uuid;
end;
$$;

-- A message's capcodes as stored: 7 digits each, sorted, once each, non-capcodes dropped.
-- (No settings, so that it is inlined where it is used.)
create or replace function app_hidden.p2000_clean_capcodes(names text[]) returns text[]
  language sql immutable parallel safe
as $$
  select coalesce(array(select distinct app_hidden.p2000_normalize_capcode(n) from unnest(names) n
                         where app_hidden.p2000_normalize_capcode(n) is not null order by 1), '{}')
$$;

-- The enrichment of a batch [{message, capcodes}], in order, as JSON objects: an importer computes
-- it for the next batch while the previous one is being stored, and hands it to
-- ingest_p2000_messages with the messages (the FLEX reader does).
create or replace function app_private.p2000_enrich_messages(messages json) returns json
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(json_agg(to_json(app_hidden.p2000_enrich(btrim(p.value ->> 'message'),
                    app_hidden.p2000_clean_capcodes(array(select json_array_elements_text(p.value -> 'capcodes'))))) order by p.n), '[]')
    from json_array_elements(messages) with ordinality as p (value, n)
$$;
comment on function app_private.p2000_enrich_messages(json) is
  'What app_hidden.p2000_enrich says of each message of a batch [{message, capcodes}], in order.';

-- Creates the capcodes (7 digits, as stored) not known yet, in sorted order.
create or replace function app_hidden.p2000_create_capcodes(names text[]) returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  insert into app_public.p2000_capcodes (name)
  select n from unnest(names) n where not exists (select from app_public.p2000_capcodes c where c.name = n)
   order by n
  on conflict (name) do nothing
$$;

create or replace function app_hidden.tg_p2000_messages__prepare() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
  set plan_cache_mode to force_generic_plan
as $$
declare
  earlier uuid;
  e app_hidden.p2000_enrichment;
begin
  new.message := btrim(new.message);
  new.capcode_names := app_hidden.p2000_clean_capcodes(new.capcode_names);

  select x.uuid into earlier from app_public.p2000_messages x
   where x.sended between new.sended - interval '10 seconds' and new.sended + interval '10 seconds'
     and md5(x.message) = md5(new.message) and x.message = new.message
   order by x.sended limit 1;
  if earlier is not null then
    perform app_hidden.p2000_create_capcodes(new.capcode_names);
    update app_public.p2000_messages x
       set capcode_names = array(select distinct c from unnest(x.capcode_names || new.capcode_names) c order by 1)
     where x.uuid = earlier;
    insert into app_public.p2000_message_capcodes (message_uuid, capcode_uuid, sended)
    select earlier, c.uuid, x.sended from app_public.p2000_capcodes c, app_public.p2000_messages x
     where c.name = any (new.capcode_names) and x.uuid = earlier
    on conflict do nothing;
    return null;
  end if;

  -- An importer may pass the enrichment it computed (app_private.p2000_enrich_messages); the
  -- grouping text is never null once a message is enriched.
  if new.normalized_text is null then
    e := app_hidden.p2000_enrich(new.message, new.capcode_names);
    new.urgency_uuid := e.urgency_uuid;
    new.discipline_uuid := e.discipline_uuid;
    new.region_uuid := e.region_uuid;
    new.category_uuid := e.category_uuid;
    new.street := e.street;
    new.postcode := e.postcode;
    new.city := e.city;
    new.place_uuid := e.place_uuid;
    new.latitude := e.latitude;
    new.longitude := e.longitude;
    new.road := e.road;
    new.hectometer := e.hectometer;
    new.carriageway := e.carriageway;
    new.grip_level := e.grip_level;
    new.exercise_type := e.exercise_type;
    new.incident_number := e.incident_number;
    new.normalized_text := e.normalized_text;
    new.call_numbers := e.call_numbers;
  end if;
  new.dossier_uuid := app_hidden.p2000_assign_dossier(new);
  return new;
end;
$$;

-- After messages are stored: capcodes not seen before, the capcode links and the roll-ups, one
-- row per key and statement, in key order (two readers storing at once take new capcodes and
-- counter rows in the same order).
drop trigger if exists _300_index on app_public.p2000_messages;
create or replace function app_hidden.tg_p2000_messages__index() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform app_hidden.p2000_create_capcodes(array(select distinct c from inserted i, unnest(i.capcode_names) c));
  insert into app_public.p2000_message_capcodes (message_uuid, capcode_uuid, sended)
  select i.uuid, c.uuid, i.sended from inserted i join app_public.p2000_capcodes c on c.name = any (i.capcode_names)
  on conflict do nothing;
  insert into app_hidden.p2000_hourly_counts as h
    (hour, region_uuid, discipline_uuid, urgency_uuid, category_uuid, exercise_type, road, messages)
  select date_trunc('hour', i.sended), i.region_uuid, i.discipline_uuid, i.urgency_uuid, i.category_uuid, i.exercise_type, i.road, count(*)
    from inserted i group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7
  on conflict (hour, region_uuid, discipline_uuid, urgency_uuid, category_uuid, exercise_type, road)
  do update set messages = h.messages + excluded.messages;
  insert into app_hidden.p2000_hourly_urgency_counts as u (hour, exercise_type, urgency_uuid, messages)
  select date_trunc('hour', i.sended), i.exercise_type, i.urgency_uuid, count(*)
    from inserted i group by 1, 2, 3 order by 1, 2, 3
  on conflict (hour, exercise_type, urgency_uuid) do update set messages = u.messages + excluded.messages;
  insert into app_hidden.p2000_daily_counts as d (day, exercise_type, dimension, key, messages)
  select (i.sended at time zone 'Europe/Amsterdam')::date, i.exercise_type, x.dimension, x.key, count(*)
    from inserted i,
         lateral (values ('total', ''), ('discipline', i.discipline_uuid::text), ('region', i.region_uuid::text),
                         ('urgency', i.urgency_uuid::text), ('category', i.category_uuid::text), ('road', i.road)) as x (dimension, key)
   where x.key is not null
   group by 1, 2, 3, 4 order by 1, 2, 3, 4
  on conflict (day, exercise_type, dimension, key) do update set messages = d.messages + excluded.messages;
  return null;
end;
$$;
create trigger _300_index after insert on app_public.p2000_messages
  referencing new table as inserted
  for each statement execute function app_hidden.tg_p2000_messages__index();

-- Stores (or merges) many P2000 messages in one statement, in the order given: the batch path of
-- the FLEX reader and the demo data. Each message may carry its "enrichment" (from
-- app_private.p2000_enrich_messages); without it the insert trigger enriches. Returns how many
-- were handed over.
create or replace function app_private.ingest_p2000_messages(messages json, source text) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  insert into app_public.p2000_messages (message, sended, capcode_names, source, urgency_uuid, discipline_uuid,
      region_uuid, category_uuid, street, postcode, city, place_uuid, latitude, longitude, road, hectometer,
      carriageway, grip_level, exercise_type, incident_number, normalized_text, call_numbers)
  select p.value ->> 'message', (p.value ->> 'sended')::timestamptz,
         coalesce(array(select json_array_elements_text(p.value -> 'capcodes')), '{}'), ingest_p2000_messages.source,
         e.urgency_uuid, e.discipline_uuid, e.region_uuid, e.category_uuid, e.street, e.postcode, e.city, e.place_uuid,
         e.latitude, e.longitude, e.road, e.hectometer, e.carriageway, e.grip_level, coalesce(e.exercise_type, 'none'),
         e.incident_number, e.normalized_text, coalesce(e.call_numbers, '{}')
    from json_array_elements(messages) with ordinality as p (value, n),
         lateral json_populate_record(null::app_hidden.p2000_enrichment, p.value -> 'enrichment') as e
   order by p.n;
  return json_array_length(messages);
end;
$$;
comment on function app_private.ingest_p2000_messages(json, text) is
  'Stores (or merges into earlier copies) a batch of P2000 messages [{message, sended, capcodes}] in order; returns the batch size.';

-- Vehicles learnt from call numbers once per statement: a batch of 500 messages is one upsert,
-- each vehicle with the first and last time the batch names it.
drop trigger if exists _700_learn_vehicles on app_public.p2000_messages;
drop function if exists app_private.learn_fire_vehicles(text[], timestamptz);
create or replace function app_private.learn_fire_vehicles(call_numbers text[], seen timestamptz[]) returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  insert into app_public.fire_vehicles as v (name, region_uuid, station_uuid, type_digit, first_seen, last_seen)
  select n.c, g.uuid, s.uuid, substr(n.c, 5, 1), n.first_seen, n.last_seen
    from (select x.c, min(x.t) as first_seen, max(x.t) as last_seen from unnest(call_numbers, seen) as x (c, t)
           where app_hidden.fire_call_number(x.c) = x.c group by x.c) as n
    left join app_public.p2000_regions g on g.number = left(n.c, 2)
    left join app_public.fire_stations s on s.region_uuid = g.uuid and s.post_number = substr(n.c, 3, 2)
   order by n.c
  on conflict (name) do update
    set first_seen = least(v.first_seen, excluded.first_seen),
        last_seen = greatest(v.last_seen, excluded.last_seen),
        station_uuid = coalesce(v.station_uuid, excluded.station_uuid)
    where v.last_seen is null or v.last_seen < excluded.last_seen or v.first_seen > excluded.first_seen
$$;
comment on function app_private.learn_fire_vehicles(text[], timestamptz[]) is
  'Records fire vehicles named by call numbers, each seen at the time at the same position of seen.';

create or replace function app_hidden.tg_p2000_messages__learn_vehicles() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform app_private.learn_fire_vehicles(array_agg(c), array_agg(n.sended))
     from inserted n, unnest(n.call_numbers) as c
   having count(*) > 0;
  return null;
end;
$$;
create trigger _700_learn_vehicles after insert on app_public.p2000_messages
  referencing new table as inserted
  for each statement execute function app_hidden.tg_p2000_messages__learn_vehicles();
