--! Previous: sha1:3e50f319ef49b6c7b69b9d65fbc5a8b9077fc2c5
--! Hash: sha1:8865850252d58810fe43d3dac3de7f335d8cf125
--! Message: Dossier same-text lookup by its index, cheaper street match

-- The same-text rule of dossier grouping through an index of its own: it read every dossier of the
-- region from two hours before the message on, which for live traffic is the last two hours but
-- for a history stored backwards (an older capture file after newer traffic, the benches'
-- history loader) is every later dossier of the region: 169 ms a message a month into a
-- backwards load, growing with every month. With the text's hash in the index the lookup reads the
-- region's dossiers of that text (md5: a text may be longer than a B-tree entry may be).
create index if not exists p2000_dossiers_region_text_idx on app_public.p2000_dossiers
  (coalesce(region_uuid, app_hidden.no_region()), md5(normalized_text), last_sended desc);
comment on index app_public.p2000_dossiers_region_text_idx is 'The same-text rule of app_hidden.p2000_assign_dossier: the dossiers of a region with one grouping text, newest first.';

CREATE OR REPLACE FUNCTION app_hidden.p2000_assign_dossier(m app_public.p2000_messages)
 RETURNS uuid
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
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
       and md5(x.normalized_text) = md5(m.normalized_text) and x.normalized_text = m.normalized_text
       and x.discipline_uuid is not distinct from m.discipline_uuid
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
$function$;
comment on function app_hidden.p2000_assign_dossier(m app_public.p2000_messages) is 'Puts a message into its dossier. The same incident number in the same region within 6 hours joins that dossier; otherwise the same text in the same region and discipline within 2 hours; otherwise a truncated retransmission within 30 minutes; otherwise it opens a new dossier. Urgency and GRIP only go up, and the timeline records each step. The text rule reads the dossiers of the region with that text (p2000_dossiers_region_text_idx), the prefix rule the region''s dossiers of the hour around it (p2000_dossiers_region_recent_idx); neither reads the dossiers that come later, so a history loaded backwards (an older capture after newer traffic) is stored as fast as live traffic. force_generic_plan, as for the insert trigger that calls it per message.';

-- The street of a message found with regexp_substr and "alarmering" masked, rather than a capture
-- group and a lookahead: the same streets (checked over 3,000 stored messages), 5% less enrichment.
CREATE OR REPLACE FUNCTION app_hidden.p2000_enrich(message text, capcode_names text[])
 RETURNS app_hidden.p2000_enrichment
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
declare
  r app_hidden.p2000_enrichment;
  t text := btrim(regexp_replace(message, '\s+', ' ', 'g'));
  m text[];
  urgency_code text;
  discipline_name text;
  text_discipline text;
  region_number text;
  all_test_codes boolean;
  place app_public.places;
  weak_place boolean;
  words text[];
  candidates text[];
  -- Woonplaatsen that are words of P2000 texts ("een persoon", "Kerkstraat hoek Markt", "BR winkel",
  -- "natuurbrand heide"): never a place in lower case, and in capitals only when no other is named.
  common_words constant text[] := array['een', 'hoek', 'heide', 'winkel', 'veen', 'sluis', 'zeeland', 'nederland'];
  -- Place names that are never the place in a P2000 text: "Brand" (a district of Helmond, no
  -- woonplaats) is the fire ("P 1 Brand woning"), in any case.
  not_places constant text[] := array['brand'];
  body text;
  category_code text;
  padded text;
  spaced text;
  explicit_priority boolean := false;
  lead text;
  compact text;
  code_letter text;
  after_lead text;
  found_latitude double precision;
  found_longitude double precision;
  found_precision text;
  house_number integer;
  street_match text;
begin
  -- Lower-case words of the text, and the text as " word word ": keyword rules test these
  -- instead of running a regex each (PostgreSQL caches only 32 compiled regexes per session).
  words := regexp_split_to_array(btrim(regexp_replace(lower(t), '[^[:alnum:]''’ -]+', ' ', 'g')), '\s+');
  padded := ' ' || array_to_string(words, ' ') || ' ';

  -- Urgency, wherever the dispatcher wrote it. At the start, after "Herhaalde alarmering",
  -- "Herhaling" or "Oefening" if one comes first: "P 1", "PRIO 1", "P1" and a bare 1-3 are P1-P3,
  -- A0-A2, B1 and B2 as written (not a road there: "A2 li 223,5", "A12"). Further on only the
  -- unmistakable forms: "prio 2" and "P 2" with its space ("parkeergarage P3" is no priority).
  -- Any case ("p 1 bzo-02", "a1"). The text after the leading code is the body the road is read
  -- from, so that "A1" is no road.
  -- (No capture groups in the leading pattern: with them PostgreSQL's matcher backtracks through
  -- the alternatives and costs a hundred times as much; the code is read from the match instead.)
  lead := (regexp_match(t, '^(?:(?:herhaalde\s+alarmering|herhaling|oefening)\s*:?\s*)?(?:(?:prio|p)\s*:?\s*[123]|[ab]\s?[0-2]|[123](?=\s))\M', 'i'))[1];
  if lead is not null then
    compact := translate(lower(lead), ' :', '');
    code_letter := substr(compact, length(compact) - 1, 1);
    -- After an A or B code, a carriageway or a kilometre value makes it a road ("A2 li 223,5").
    after_lead := split_part(lower(btrim(substr(t, length(lead) + 1))), ' ', 1);
    if code_letter in ('a', 'b') and (upper(right(compact, 2)) not in ('A0', 'A1', 'A2', 'B1', 'B2')
        or after_lead in ('li', 're', 'hrl', 'hrr')
        or (translate(after_lead, '0123456789', '') in (',', '.') and left(after_lead, 1) between '0' and '9'
            and right(after_lead, 1) between '0' and '9')) then
      lead := null;
    end if;
  end if;
  if lead is not null then
    urgency_code := case when code_letter in ('a', 'b') then upper(right(compact, 2)) else 'P' || right(compact, 1) end;
    -- "P"/"PRIO" before the digit (the letter before it is p or the o of prio), not a bare digit.
    explicit_priority := code_letter in ('p', 'o');
    body := substr(t, length(lead) + 1);
  else
    body := t;
    m := regexp_match(t, '\m(?:prio\s*:?\s*|p\s+)([123])\M', 'i');
    if m is not null then
      urgency_code := 'P' || m[1];
      explicit_priority := true;
    end if;
  end if;
  select u.uuid into r.urgency_uuid from app_public.p2000_urgencies u where u.code = urgency_code;

  -- Discipline: what the text says decides: a fire talkgroup ("BZO-02", any case) is the fire
  -- brigade, "ambu"/"ambulance" the ambulance ("assistentie ambulance" is a fire brigade's job).
  -- (The talkgroup regex is the one the grouping text uses below: one compiled regex.)
  text_discipline := case
    when lower(t) ~ '\mb[a-z]{2}-[0-9]{2}\M' then 'Brandweer'
    when words && array['ambu', 'ambulance'] and strpos(padded, ' assistentie ambu') = 0 and strpos(padded, ' ass ambu') = 0
      then 'Ambulance'
  end;

  -- Else the discipline, and the region, from the capcodes that address units (not group calls,
  -- not monitor codes), by majority; their own data first, their 4-digit block second.
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

  if text_discipline is not null then
    discipline_name := text_discipline;
    select d.uuid into r.discipline_uuid from app_public.p2000_disciplines d where d.name = discipline_name;
  elsif r.discipline_uuid is null then
    discipline_name := case
      when left(urgency_code, 1) in ('A', 'B') or words && array['ambu', 'lifeliner', 'traumaheli', 'mmt']
        or strpos(padded, ' dia ja ') > 0 or strpos(padded, ' directe inzet ') > 0 then 'Ambulance'
      when explicit_priority then 'Brandweer'
      when words && array['br', 'brandweer', 'brand'] then 'Brandweer'
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
  -- So far the region of the units paged; the place named below decides where there is one.

  -- Tests and exercises.
  r.exercise_type := case
    when words && array['testoproep', 'testbericht', 'testpage'] or t ~* '^((p|prio)\s*[123]\s+)?test\M' then 'test'
    when strpos(lower(t), 'proefalarm') > 0 then 'proefalarm'
    when words && array['oefening', 'oefenalarm'] then 'oefening'
    when all_test_codes then 'test'
    else 'none'
  end;
  -- Exercises and tests have the exercise urgency, whatever priority their text gives (the spec's
  -- urgencies: urgent, less urgent, exercise); exercise_type keeps which kind they are.
  if r.exercise_type <> 'none' then
    select u.uuid into r.urgency_uuid from app_public.p2000_urgencies u where u.code = 'OEF';
  end if;

  m := regexp_match(t, '\mGRIP\s*([1-5])\M', 'i');
  r.grip_level := m[1]::smallint;

  m := regexp_match(t, '\m([1-9][0-9]{3}) ?([A-Z]{2})\M');
  if m is not null and m[2] not in ('SA', 'SD', 'SS') then r.postcode := m[1] || m[2]; end if;

  -- Roads: "A12 Re 45,6", "a2 li 223.5", "N59 42,3" (in the body: not the urgency code at the start).
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
  -- then taken from the text as written. "Herhaalde alarmering" is no street: the word is masked
  -- (same length, so positions still match the text) rather than excluded by a lookahead in the
  -- pattern, and regexp_substr needs no capture group: with either, PostgreSQL's matcher costs
  -- about seven times as much, the largest single part of the enrichment.
  street_match := regexp_substr(replace(lower(t), 'alarmering', 'alarmer#ng'),
    '(?:\m(?:burgemeester|dokter|dr\.|sint|st\.|prins|prinses|koning|koningin|graaf|professor|prof\.|van|de|den)\s+)?'
    '\m[a-zà-ÿ''’-]*(?:straat|weg|laan|plein|kade|singel|dijk|gracht|pad|dreef|hof|baan|boulevard|steeg|wal|markt|ring|allee|plantsoen|erf|haven|brug|park|oord)\M');
  if street_match is not null and street_match !~ '^(auto)?snelweg$|^rijksweg$' then
    r.street := app_hidden.proper_case(substr(t, strpos(lower(t), street_match), length(street_match)));
  end if;

  -- Place: a P2000 abbreviation (VLAARD), else the place name that ends last in the text (the
  -- longest there: the town ends the text, after its street: "Hoofdweg 12 Nieuw-Vennep"); where
  -- names repeat, the one in the region of the units paged, then in its province, then the
  -- biggest. A place name that may be a word of the message counts only when no other place is
  -- named: one written in lower case ("Amstelveen hoofdweg"), and the common words above in
  -- capitals ("BR WINKEL ... HOORN"). The few abbreviations are tested as whole words of the text
  -- (as written: they are capitals); each found one is an index probe.
  spaced := ' ' || regexp_replace(t, '[^[:alnum:]]+', ' ', 'g') || ' ';
  select p.* into place
    from app_hidden.p2000_place_abbreviations a
    join app_hidden.place_names n on n.name = lower(a.place_name)
    join app_public.places p on p.uuid = n.place_uuid
   where strpos(spaced, ' ' || a.abbreviation || ' ') > 0
   order by p.population desc nulls last limit 1;
  weak_place := false;
  if place.uuid is null then
    -- Word n-grams of the text, preferred first: the one ending last, then the longest; each is
    -- one index probe into the place names.
    candidates := array(
      select array_to_string(words[i:i + n - 1], ' ')
        from generate_subscripts(words, 1) as i, generate_series(1, 4) as n
       -- not only digits, spaces and hyphens (translate: a regex per n-gram costs more)
       where i + n - 1 <= array_length(words, 1) and translate(array_to_string(words[i:i + n - 1], ' '), '0123456789 -', '') <> ''
       order by i + n desc, n desc);
    -- A weak find (a common word, or a name in lower case in a text that has capitals) names the
    -- place but does not overrule the region of the units paged.
    select p.uuid, p.name, p.province, p.latitude, p.longitude, p.region_uuid,
           c.name = any (common_words) or (t <> lower(t) and strpos(spaced, ' ' || c.name || ' ') > 0)
      into place.uuid, place.name, place.province, place.latitude, place.longitude, place.region_uuid, weak_place
      from unnest(candidates) with ordinality as c (name, position)
      join app_hidden.place_names n on n.name = c.name
      join app_public.places p on p.uuid = n.place_uuid
      left join app_public.p2000_regions g on g.uuid = r.region_uuid
     -- (lower case as written: the name is a whole word or words of the text as it stands)
     where not (c.name = any (common_words) and strpos(spaced, ' ' || c.name || ' ') > 0) and c.name <> all (not_places)
     order by strpos(spaced, ' ' || c.name || ' ') > 0 or c.name = any (common_words),
              c.position, (p.region_uuid = r.region_uuid) desc nulls last, (p.province = g.province) desc nulls last,
              p.population desc nulls last
     limit 1;
  end if;
  if place.uuid is not null then
    -- The place's safety region is the message's (the units paged may come from next door, or the
    -- capcode be a national one). A province with one safety region names the region where the
    -- place has none yet (Zeeland, Utrecht, Flevoland, ...).
    if place.region_uuid is not null and (not weak_place or r.region_uuid is null) then
      r.region_uuid := place.region_uuid;
    elsif r.region_uuid is null then
      select min(g.uuid::text)::uuid into r.region_uuid from app_public.p2000_regions g
       where g.province = place.province having count(*) = 1;
    end if;
    r.place_uuid := place.uuid;
    r.city := place.name;
    r.latitude := place.latitude;
    r.longitude := place.longitude;
    r.position_precision := 'place';
  end if;

  -- Position: the hectometre post of the road named (the streets migration's lookups, one index
  -- probe each), else the street named in the place, nearer the house number written right after
  -- it ("Wilhelminastraat 49 Venlo"; not a call number, not a postcode "3111 AB"), else the
  -- place's centre (above).
  if r.road is not null and r.hectometer is not null then
    select p.latitude, p.longitude, p.position_precision into found_latitude, found_longitude, found_precision
      from app_hidden.p2000_hectometre_position(r.road, r.hectometer, r.carriageway) p;
  end if;
  -- Only where streets were imported (npm run import:streets): without them every fallback of the
  -- lookup would run for every message that names a street, a quarter of the enrichment's cost.
  if found_latitude is null and r.street is not null and (r.place_uuid is not null or r.city is not null)
     and exists (select 1 from app_hidden.streets) then
    m := regexp_match(substr(t, strpos(lower(t), lower(r.street)) + length(r.street)),
                      '^\s*([1-9][0-9]{0,3})(?![0-9]|\s?[A-Z]{2}\M)');
    house_number := m[1]::integer;
    select p.latitude, p.longitude, p.position_precision into found_latitude, found_longitude, found_precision
      from app_hidden.p2000_street_position(r.street, r.city, r.place_uuid, house_number) p;
  end if;
  if found_latitude is not null then
    r.latitude := found_latitude;
    r.longitude := found_longitude;
    r.position_precision := found_precision;
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

  -- Text without what differs between retransmissions of one incident, for grouping: the body
  -- (without the leading urgency and a "Herhaalde alarmering" before it), talkgroups, numbers.
  r.normalized_text := btrim(regexp_replace(regexp_replace(regexp_replace(lower(body),
    '\mb[a-z]{2}-[0-9]{2}\M', ' ', 'g'),
    '\m[0-9]{4,}\M|\m(bon|rit|icnum)\M|[[:punct:]]', ' ', 'g'),
    '\s+', ' ', 'g'));
  return r;
end;
$function$;
