--! Previous: sha1:5be522a26ee899b22917b3053a6ff90cc5de0016
--! Hash: sha1:19f064c9a9dbefefa03b32302ef7ae9d27187e76
--! Message: Roads of each prefix in number order, rate-limit totals for every active bucket, every woonplaats as a place with the place rule for village names that are words

-- roadsGroupedByPrefix: its road lists in number order. Lists held in the row (000029) came back
-- in the order of PostGraphile's re-selection of the road rows (by key), not the array's; each
-- prefix is now a computed list with its own ORDER BY.
drop function if exists app_public.roads_grouped_by_prefix();
drop type if exists app_public.roads_grouped_by_prefix cascade;
drop function if exists app_hidden.roads_of_prefix(text);

create type app_public.roads_grouped_by_prefix as (prefixes text);
comment on type app_public.roads_grouped_by_prefix is 'Every A, N, S and R road, by prefix and then number.';
comment on column app_public.roads_grouped_by_prefix.prefixes is '@behavior -*';

create function app_hidden.roads_of_prefix(prefix text) returns setof app_public.roads
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select r.* from app_public.roads r where r.prefix = roads_of_prefix.prefix order by r.number
$$;

create function app_public.roads_grouped_by_prefix_a(g app_public.roads_grouped_by_prefix) returns setof app_public.roads
  language sql stable parallel safe set search_path to pg_catalog, public, pg_temp
as $$ select * from app_hidden.roads_of_prefix('A') $$;
create function app_public.roads_grouped_by_prefix_n(g app_public.roads_grouped_by_prefix) returns setof app_public.roads
  language sql stable parallel safe set search_path to pg_catalog, public, pg_temp
as $$ select * from app_hidden.roads_of_prefix('N') $$;
create function app_public.roads_grouped_by_prefix_s(g app_public.roads_grouped_by_prefix) returns setof app_public.roads
  language sql stable parallel safe set search_path to pg_catalog, public, pg_temp
as $$ select * from app_hidden.roads_of_prefix('S') $$;
create function app_public.roads_grouped_by_prefix_r(g app_public.roads_grouped_by_prefix) returns setof app_public.roads
  language sql stable parallel safe set search_path to pg_catalog, public, pg_temp
as $$ select * from app_hidden.roads_of_prefix('R') $$;
comment on function app_public.roads_grouped_by_prefix_a(app_public.roads_grouped_by_prefix) is E'@fieldName A\n@behavior -queryField\n@notNull\nMotorways (autosnelwegen), by number.';
comment on function app_public.roads_grouped_by_prefix_n(app_public.roads_grouped_by_prefix) is E'@fieldName N\n@behavior -queryField\n@notNull\nNational and provincial roads, by number.';
comment on function app_public.roads_grouped_by_prefix_s(app_public.roads_grouped_by_prefix) is E'@fieldName S\n@behavior -queryField\n@notNull\nCity routes (stadsroutes), by number.';
comment on function app_public.roads_grouped_by_prefix_r(app_public.roads_grouped_by_prefix) is E'@fieldName R\n@behavior -queryField\n@notNull\nRing roads, by number.';

create function app_public.roads_grouped_by_prefix() returns app_public.roads_grouped_by_prefix
  language sql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select row('ANSR')::app_public.roads_grouped_by_prefix
$$;
comment on function app_public.roads_grouped_by_prefix() is E'@notNull\nEvery road of the prefixes A, N, S and R, grouped by prefix.';
grant execute on function app_public.roads_grouped_by_prefix() to app_visitor;

-- Rate limits: the totals of every bucket asked about, also those this instance sends no new hits
-- for, so an instance learns what the others counted for a client it has seen (000028 answered
-- only the buckets it added to).
create or replace function app_private.add_rate_limit_hits(buckets text[], hits integer[], window_start timestamptz)
  returns table (bucket text, total integer)
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  -- Sorted, so two instances flushing the same buckets lock them in the same order (no deadlock).
  with added as (
    insert into app_private.rate_limit_counters as c (bucket, window_start, hits)
    select u.bucket, add_rate_limit_hits.window_start, u.hits
      from unnest(buckets, hits) as u (bucket, hits)
     where u.hits > 0
     order by u.bucket
    on conflict on constraint rate_limit_counters_pkey do update set hits = c.hits + excluded.hits
    returning c.bucket, c.hits
  )
  -- The statement's snapshot does not see its own insert: added rows answer for themselves.
  select u.bucket, coalesce(a.hits, c.hits, 0)
    from unnest(buckets) as u (bucket)
    left join added a on a.bucket = u.bucket
    left join app_private.rate_limit_counters c on c.bucket = u.bucket and c.window_start = add_rate_limit_hits.window_start
$$;

--------------------------------------------------------------------------------------------------
-- Places (for migration): every woonplaats (data/woonplaatsen.csv, loaded by
-- lib/places/reference-data.ts through app_private.upsert_place, whose signature is unchanged) makes
-- the place list twice as long, and some villages are words of messages too (Hoek, Heide, Winkel,
-- Een). The place rule of the enrichment stays "the longest place name that ends last in the text",
-- with one key before it: a place name that may be a word of the message (written in lower case, or
-- one of a few woonplaatsen that are words of P2000 texts, written in capitals) comes after every
-- other place name, so it counts only when the text names no other place; those few words in lower
-- case ("een persoon", "hoek", "winkel") never count. Everything else is as in 000008.
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
  -- Woonplaatsen that are words of P2000 texts ("een persoon", "Kerkstraat hoek Markt", "BR winkel",
  -- "natuurbrand heide"): never a place in lower case, and in capitals only when no other is named.
  common_words constant text[] := array['een', 'hoek', 'heide', 'winkel', 'veen', 'sluis', 'zeeland', 'nederland'];
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
  -- longest there: the town ends the text, after its street: "Hoofdweg 12 Nieuw-Vennep"); where
  -- names repeat, the one in the message's region's province, then the biggest. A place name that
  -- may be a word of the message counts only when no other place is named: one written in lower
  -- case ("Amstelveen hoofdweg"), and the common words above in capitals ("BR WINKEL ... HOORN").
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
     -- (lower case as written: the name is a whole word or words of the text as it stands)
     where not (c.name = any (common_words) and strpos(spaced, ' ' || c.name || ' ') > 0)
     order by strpos(spaced, ' ' || c.name || ' ') > 0 or c.name = any (common_words),
              c.position, (p.province = g.province) desc nulls last, p.population desc nulls last
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

-- The table's description (GraphQL type Place) named only the GeoNames places; optional, and it
-- changes schema.graphql's description of Place.
comment on table app_public.places is E'@name place\nDutch places with coordinates: every woonplaats (CBS Woonplaatsen in Nederland, points from GeoNames) and the GeoNames places of 1,000 inhabitants or more.';
