--! Previous: sha1:1d373c71cdae261b68975aaad927e01d79b0d3d5
--! Hash: sha1:44838d2ec294d152b597e3df5e8b2b69aba89b7c
--! Message: p2000_enrich in steps

-- app_hidden.p2000_enrich in steps (issue 46): the ~290-line function was re-created whole by
-- every migration that changed one of its rules (000003, 000008, 000031, 000044, 000048, 000050,
-- 000052, 000082). Each rule is a step function of its own now, and p2000_enrich calls them in
-- order, so a change to a rule re-creates only its step. Behaviour is unchanged: the bodies are
-- the former function's, moved (test/p2000/enrichment-corpus.test.ts).
--
-- What it costs is what it cost, or a little less (docs/benchmarks.md#enrichment-and-streets):
-- * Steps that are one expression are SQL functions without settings, which PostgreSQL inlines
--   into p2000_enrich's own expressions: no call at all.
-- * The rest are PL/pgSQL, as the function was: a call costs about half a microsecond, where a
--   set-returning SQL function with sub-selects, inlined into a statement, cost more to start than
--   the statements it replaced (measured). The capcodes' query is one (its SQL function is inlined
--   into the SELECT that calls it, the plan as before), and so is the category's, which decides
--   the code and looks it up in one statement (two before).
-- * None has a setting of its own (a SET makes each call cost more, and keeps SQL functions from
--   being inlined): they run inside p2000_enrich's search_path and generic plans, and name
--   everything by schema.
-- * Three tests that ran a statement for every message run it only where it can apply now: the
--   postcode table is asked only when the text has a postcode's shape, the call numbers are
--   sought only in fire brigade messages, and the street register's emptiness is checked only for
--   a street still unplaced. (A PL/pgSQL condition with a sub-select runs as a statement however
--   it ends.) The results are the same.

drop type if exists app_hidden.p2000_head cascade;
create type app_hidden.p2000_head as (
  urgency_code text,
  explicit_priority boolean,
  body text
);
comment on type app_hidden.p2000_head is 'What the start of a P2000 text says, as app_hidden.p2000_enrich_head reads it: the urgency code (P1, A2, B1, ...; null where the text gives none), whether it was written as a priority (P 1, PRIO 1: the fire brigade''s way), and the body, the text after the leading code, which the road and the grouping text are read from.';

-- 1. The head: the urgency, wherever the dispatcher wrote it.
create or replace function app_hidden.p2000_enrich_head(t text) returns app_hidden.p2000_head
  language plpgsql immutable parallel safe
as $$
declare
  h app_hidden.p2000_head;
  m text[];
  lead text;
  compact text;
  code_letter text;
  after_lead text;
begin
  -- Urgency, wherever the dispatcher wrote it. At the start, after "Herhaalde alarmering",
  -- "Tweede alarmering", "Herhaling" or "Oefening" if one comes first: "P 1", "PRIO 1", "P1" and a bare 1-3 are P1-P3,
  -- A0-A2, B1 and B2 as written (not a road there: "A2 li 223,5", "A12"). Further on only the
  -- unmistakable forms: "prio 2" and "P 2" with its space ("parkeergarage P3" is no priority).
  -- Any case ("p 1 bzo-02", "a1"). The text after the leading code is the body the road is read
  -- from, so that "A1" is no road.
  -- (No capture groups in the leading pattern: with them PostgreSQL's matcher backtracks through
  -- the alternatives and costs a hundred times as much; the code is read from the match instead.)
  lead := (regexp_match(t, '^(?:(?:herhaalde\s+alarmering|tweede\s+alarmering|herhaling|oefening)\s*:?\s*)?(?:(?:prio|p)\s*:?\s*[123]|[ab]\s?[0-2]|[123](?=\s))\M', 'i'))[1];
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
  h.explicit_priority := false;
  if lead is not null then
    h.urgency_code := case when code_letter in ('a', 'b') then upper(right(compact, 2)) else 'P' || right(compact, 1) end;
    -- "P"/"PRIO" before the digit (the letter before it is p or the o of prio), not a bare digit.
    h.explicit_priority := code_letter in ('p', 'o');
    h.body := substr(t, length(lead) + 1);
  else
    h.body := t;
    m := regexp_match(t, '\m(?:prio\s*:?\s*|p\s+)([123])\M', 'i');
    if m is not null then
      h.urgency_code := 'P' || m[1];
      h.explicit_priority := true;
    end if;
  end if;
  return h;
end;
$$;
comment on function app_hidden.p2000_enrich_head(text) is 'Step of app_hidden.p2000_enrich: the urgency code of a P2000 text (at its start, after "Herhaalde alarmering", "Oefening" and the like, or the unmistakable "prio 2"/"P 2" further on; not a road such as "A2 li 223,5"), whether it was written as a priority, and the body after the leading code. Its own step because the rules for the head of a text change on their own (docs/p2000.md#enrichment-fields-of-p2000message). PL/pgSQL: the reading is a sequence of tests; no setting of its own, it runs inside p2000_enrich''s.';

-- 2. The units paged: the capcodes' discipline and region by majority.
create or replace function app_hidden.p2000_enrich_units(capcode_names text[])
  returns table (discipline_uuid uuid, region_uuid uuid, all_test_codes boolean)
  language sql stable parallel safe
as $$
  -- The discipline, and the region, from the capcodes that address units (not group calls, not
  -- monitor codes), by majority; their own data first, their 4-digit block second.
  select mode() within group (order by coalesce(c.discipline_uuid, b.discipline_uuid)),
         mode() within group (order by coalesce(c.region_uuid, b.region_uuid)),
         bool_and(c.kind = 'test')
    from (select distinct app_hidden.p2000_normalize_capcode(x) as name from unnest(capcode_names) x) as n
    left join app_public.p2000_capcodes c on c.name = n.name
    -- lateral: one index probe per capcode, not a hash of the whole block table per message
    left join lateral (select b.discipline_uuid, b.region_uuid from app_hidden.p2000_capcode_blocks b
                        where b.block = left(n.name, 4)) as b on true
   where n.name is not null and n.name not between '2029568' and '2029583'
     and coalesce(c.kind, app_hidden.p2000_capcode_kind(n.name, null)) in ('unit', 'test')
$$;
comment on function app_hidden.p2000_enrich_units(text[]) is 'Step of app_hidden.p2000_enrich: the discipline and the safety region of the units a P2000 message was sent to, by majority over its unit capcodes (their own data, else their 4-digit block; group calls 2029568-2029583 and monitor codes left out), and whether every one is a test capcode. One row, always. Its own step because it is the only one that reads the capcodes. A set-returning SQL function without settings, so that PostgreSQL inlines it into the statement of p2000_enrich that calls it: the same plan as when it was written there.';

-- 3. The discipline: the text's, else the capcodes', else the text's clues.
drop type if exists app_hidden.p2000_discipline_choice cascade;
create type app_hidden.p2000_discipline_choice as (
  discipline_uuid uuid,
  discipline_name text
);
comment on type app_hidden.p2000_discipline_choice is 'The discipline of a P2000 message, its uuid and name (the later rules read the name), as app_hidden.p2000_enrich_discipline returns it.';

create or replace function app_hidden.p2000_enrich_discipline(t text, words text[], padded text, urgency_code text,
    explicit_priority boolean, units_discipline_uuid uuid)
  returns app_hidden.p2000_discipline_choice
  language plpgsql stable parallel safe
as $$
declare
  d app_hidden.p2000_discipline_choice;
begin
  -- What the text says decides: a fire talkgroup ("BZO-02", any case) is the fire brigade,
  -- "ambu"/"ambulance" the ambulance ("assistentie ambulance" is a fire brigade's job).
  -- (The talkgroup regex is the one the grouping text uses: one compiled regex.)
  d.discipline_name := case
    when lower(t) ~ '\mb[a-z]{2}-[0-9]{2}\M' then 'Brandweer'
    when words && array['ambu', 'ambulance'] and strpos(padded, ' assistentie ambu') = 0 and strpos(padded, ' ass ambu') = 0
      then 'Ambulance'
  end;
  -- Else the units' (app_hidden.p2000_enrich_units); without theirs, the text's clues.
  if d.discipline_name is not null then
    select x.uuid into d.discipline_uuid from app_public.p2000_disciplines x where x.name = d.discipline_name;
  elsif units_discipline_uuid is null then
    d.discipline_name := case
      when left(urgency_code, 1) in ('A', 'B') or words && array['ambu', 'lifeliner', 'traumaheli', 'mmt']
        or strpos(padded, ' dia ja ') > 0 or strpos(padded, ' directe inzet ') > 0 then 'Ambulance'
      when explicit_priority then 'Brandweer'
      when words && array['br', 'brandweer', 'brand'] then 'Brandweer'
      when words && array['knrm'] then 'KNRM'
      -- police pages carry their incident number as "icnum"
      when words && array['politie', 'icnum'] then 'Politie'
    end;
    select x.uuid into d.discipline_uuid from app_public.p2000_disciplines x where x.name = d.discipline_name;
  else
    d.discipline_uuid := units_discipline_uuid;
    select x.name into d.discipline_name from app_public.p2000_disciplines x where x.uuid = units_discipline_uuid;
  end if;
  return d;
end;
$$;
comment on function app_hidden.p2000_enrich_discipline(text, text[], text, text, boolean, uuid) is 'Step of app_hidden.p2000_enrich: the discipline of a P2000 message (uuid and name), from its text (t, its lower-case words, and " word word " as padded), the urgency code and whether it was written as a priority (app_hidden.p2000_enrich_head), and the units'' discipline (app_hidden.p2000_enrich_units): a fire talkgroup or "ambu" in the text first, then the units'', then the text''s clues (A/B urgency, LifeLiner, MMT, "DIA: ja", P/PRIO, brand, KNRM, politie, icnum). One lookup of the discipline. Its own step because the discipline rules change on their own.';

-- 4. Fire call numbers.
create or replace function app_hidden.p2000_enrich_call_numbers(t text, discipline_name text) returns text[]
  language plpgsql immutable parallel safe
as $$
begin
  -- Fire call numbers (RRPPTV, the region first), only in fire brigade messages. (The test first,
  -- so that the query runs only for those; the query as it was, so the numbers come in the same
  -- order.)
  if discipline_name = 'Brandweer' then
    return coalesce(array(
      select distinct x[1] from regexp_matches(t, '\m((?:0[1-9]|1[0-9]|2[0-5])[0-9]{4})\M', 'g') as x
       where discipline_name = 'Brandweer'), '{}');
  end if;
  return '{}';
end;
$$;
comment on function app_hidden.p2000_enrich_call_numbers(text, text) is 'Step of app_hidden.p2000_enrich: the fire call numbers of a P2000 text (six digits, RRPPTV, the safety region first), distinct; empty unless the discipline is Brandweer. Its own step because it is its own rule.';

-- 5. The units' region where the capcodes give none.
create or replace function app_hidden.p2000_enrich_unit_region(t text, call_numbers text[]) returns uuid
  language plpgsql stable parallel safe
as $$
declare
  m text[];
  region_number text;
  region uuid;
begin
  -- "AMBU 17106", or the unit number right after the urgency ("A1 13108 ..."); else the first fire
  -- call number.
  m := regexp_match(t, '(?:\mambu\s+|^(?:a[0-2]|b[12])\s+)((?:0[1-9]|1[0-9]|2[0-5]))[0-9]{3}\M', 'i');
  region_number := coalesce(m[1], left(call_numbers[1], 2));
  select g.uuid into region from app_public.p2000_regions g where g.number = region_number;
  return region;
end;
$$;
comment on function app_hidden.p2000_enrich_unit_region(text, text[]) is 'Step of app_hidden.p2000_enrich, where the capcodes give no region (app_hidden.p2000_enrich_units): the safety region of an ambulance unit number in the text ("AMBU 17106", "A1 13108": 17, 13), else that of the first fire call number (app_hidden.p2000_enrich_call_numbers); null without either. The place the text names decides later where there is one (app_hidden.p2000_enrich_place). Its own step because it is its own rule.';

-- 6. Tests and exercises.
create or replace function app_hidden.p2000_enrich_exercise(t text, words text[], all_test_codes boolean) returns text
  language sql immutable parallel safe
as $$
  select case
    when words && array['testoproep', 'testbericht', 'testpage', 'systeemtest'] or t ~* '^((p|prio)\s*[123]\s+)?test\M' then 'test'
    when strpos(lower(t), 'proefalarm') > 0 then 'proefalarm'
    when words && array['oefening', 'oefenalarm'] then 'oefening'
    when all_test_codes then 'test'
    else 'none'
  end
$$;
comment on function app_hidden.p2000_enrich_exercise(text, text[], boolean) is 'Step of app_hidden.p2000_enrich: the exercise type of a P2000 message: test (TESTOPROEP, systeemtest, "P 1 TEST", or only test capcodes: all_test_codes), proefalarm, oefening, else none. Exercises and tests get the exercise urgency (OEF) in p2000_enrich. Its own step because it is its own rule; one SQL expression, inlined into p2000_enrich''s.';

-- 7. GRIP.
create or replace function app_hidden.p2000_enrich_grip(t text) returns smallint
  language sql immutable parallel safe
as $$
  select (regexp_match(t, '\mGRIP\s*([1-5])\M', 'i'))[1]::smallint
$$;
comment on function app_hidden.p2000_enrich_grip(text) is 'Step of app_hidden.p2000_enrich: the GRIP level a P2000 text names (GRIP 1 to GRIP 5), else null. Its own step because it is its own rule; one SQL expression, inlined into p2000_enrich''s.';

-- 8. Postcode.
create or replace function app_hidden.p2000_enrich_postcode(t text) returns text
  language plpgsql stable parallel safe
as $$
declare
  m text[];
begin
  -- "3511AB", "3511 AB", and in a lower-case feed "3511 ab" where the register or the postcode
  -- table knows it ("1234 en" is no postcode). (Two conditions: the one with the sub-select runs
  -- as a statement, so only for a text with a postcode's shape.)
  m := regexp_match(lower(t), '\m([1-9][0-9]{3}) ?([a-z]{2})\M');
  if m is not null and m[2] not in ('sa', 'sd', 'ss') then
    if strpos(t, m[1] || upper(m[2])) > 0 or strpos(t, m[1] || ' ' || upper(m[2])) > 0
       or exists (select 1 from app_public.postcodes p where p.postcode = m[1] || upper(m[2])) then
      return m[1] || upper(m[2]);
    end if;
  end if;
  return null;
end;
$$;
comment on function app_hidden.p2000_enrich_postcode(text) is 'Step of app_hidden.p2000_enrich: the postcode a P2000 text names (3511AB, 3511 AB, and 3511 ab in a lower-case feed where app_public.postcodes knows it), as 3511AB; null when it names none. Its own step because it is its own rule.';

-- 9. Road, hectometre and carriageway.
create or replace function app_hidden.p2000_enrich_road(body text, r app_hidden.p2000_enrichment)
  returns app_hidden.p2000_enrichment
  language plpgsql immutable parallel safe
as $$
declare
  m text[];
begin
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
  return r;
end;
$$;
comment on function app_hidden.p2000_enrich_road(text, app_hidden.p2000_enrichment) is 'Step of app_hidden.p2000_enrich: the road, kilometre value (hectometer) and carriageway a P2000 text names ("A12 Re 45,6", "a2 li 223.5", "N59 42,3"), read from the body after the leading urgency (app_hidden.p2000_enrich_head), so that "A1 ..." is no road; returns the enrichment r with road, hectometer and carriageway set. Its own step because it is its own rule; PL/pgSQL, as the patterns after the first run only when it finds a road.';

-- 10. The place, and the region it names.
create or replace function app_hidden.p2000_enrich_place(t text, words text[], r app_hidden.p2000_enrichment)
  returns app_hidden.p2000_enrichment
  language plpgsql stable parallel safe
as $$
declare
  place app_public.places;
  weak_place boolean;
  candidates text[];
  -- Woonplaatsen that are words of P2000 texts ("een persoon", "Kerkstraat hoek Markt", "BR winkel",
  -- "natuurbrand heide"): never a place in lower case, and in capitals only when no other is named.
  common_words constant text[] := array['een', 'hoek', 'heide', 'winkel', 'veen', 'sluis', 'zeeland', 'nederland'];
  -- Place names that are never the place in a P2000 text: "Brand" (a district of Helmond, no
  -- woonplaats) is the fire ("P 1 Brand woning"), in any case.
  not_places constant text[] := array['brand'];
  spaced text;
begin
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
    -- At the place's point for now: app_hidden.p2000_enrich_address puts it at the centroid of the
    -- woonplaats's addresses where the register has it, or more precisely.
    r.latitude := place.latitude;
    r.longitude := place.longitude;
    r.position_precision := 'place';
  end if;
  return r;
end;
$$;
comment on function app_hidden.p2000_enrich_place(text, text[], app_hidden.p2000_enrichment) is 'Step of app_hidden.p2000_enrich: the place a P2000 text names (a P2000 abbreviation such as VLAARD, else the place name that ends last in the text, the longest there; of equal names the one in the region of the units paged, r.region_uuid, then in its province, then the biggest; common words and lower-case names only where no other place is named), and the region it names (the place''s safety region, unless the find is weak and the units have one; else the only region of its province). Returns the enrichment r with region_uuid, place_uuid, city, and the place''s point as its position (precision place). Its own step because the place rules change on their own; PL/pgSQL, as the n-gram query runs only where no abbreviation is found.';

-- 11. The street and the position.
create or replace function app_hidden.p2000_enrich_address(t text, r app_hidden.p2000_enrichment)
  returns app_hidden.p2000_enrichment
  language plpgsql stable parallel safe
as $$
declare
  found_latitude double precision;
  found_longitude double precision;
  found_precision text;
  house_number integer;
  address app_hidden.p2000_address;
  registered_place boolean := false;
  street_match text;
  m text[];
begin
  if r.place_uuid is not null then
    -- the centroid of the woonplaats's addresses where the register has it (one index probe),
    -- else the place's point (app_hidden.p2000_enrich_place)
    select w.latitude, w.longitude into found_latitude, found_longitude from app_hidden.address_woonplaatsen w
     where w.place_uuid = r.place_uuid order by w.address_count desc limit 1;
    r.latitude := coalesce(found_latitude, r.latitude);
    r.longitude := coalesce(found_longitude, r.longitude);
    registered_place := found_latitude is not null;
    found_latitude := null;
    found_longitude := null;
  end if;

  -- Position: the hectometre post of the road named (the streets migration's lookups, one index
  -- probe each); else the address of the register the text names in its place (the house
  -- number's point, else the street's; docs/roads-and-places.md#addresses); else the street of
  -- the road register, nearer the house number written right after it ("Wilhelminastraat 49
  -- Venlo"; not a call number, not a postcode "3111 AB"); else the postcode's centroid; else the
  -- place's (above).
  if r.road is not null and r.hectometer is not null then
    select p.latitude, p.longitude, p.position_precision into found_latitude, found_longitude, found_precision
      from app_hidden.p2000_hectometre_position(r.road, r.hectometer, r.carriageway) p;
  end if;
  -- (Only where the register covers the place: elsewhere every key of the text would be probed
  -- in vain, for every page.)
  if found_latitude is null and registered_place then
    address := app_hidden.p2000_register_address(t, r.place_uuid, r.city);
    if address.street is not null then
      r.street := address.street;
      found_latitude := address.latitude;
      found_longitude := address.longitude;
      found_precision := address.position_precision;
    end if;
  end if;

  -- Street: a word with a Dutch street suffix, with a title word before it ("Burgemeester ...").
  -- Matched in the lower-case text (a case-insensitive match of this pattern costs twice as much),
  -- then taken from the text as written. "Herhaalde alarmering" is no street: the word is masked
  -- (same length, so positions still match the text) rather than excluded by a lookahead in the
  -- pattern, and regexp_substr needs no capture group: with either, PostgreSQL's matcher costs
  -- about seven times as much, the largest single part of the enrichment.
  -- (Only where the register named none: the pattern is the enrichment's costliest step.)
  street_match := case when r.street is null then regexp_substr(replace(lower(t), 'alarmering', 'alarmer#ng'),
    '(?:\m(?:burgemeester|dokter|dr\.|sint|st\.|prins|prinses|koning|koningin|graaf|professor|prof\.|van|de|den)\s+)?'
    '\m[a-zà-ÿ''’-]*(?:straat|weg|laan|plein|kade|singel|dijk|gracht|pad|dreef|hof|baan|boulevard|steeg|wal|markt|ring|allee|plantsoen|erf|haven|brug|park|oord)\M') end;
  if r.street is null and street_match is not null and street_match !~ '^(auto)?snelweg$|^rijksweg$' then
    r.street := app_hidden.proper_case(substr(t, strpos(lower(t), street_match), length(street_match)));
  end if;

  -- Only where streets were imported (npm run import:streets): without them every fallback of the
  -- lookup would run for every message that names a street, a quarter of the enrichment's cost.
  -- (Two conditions: the one with the sub-select runs as a statement, so only for a street still
  -- unplaced.)
  if found_latitude is null and r.street is not null and (r.place_uuid is not null or r.city is not null) then
    if exists (select 1 from app_hidden.streets) then
      m := regexp_match(substr(t, strpos(lower(t), lower(r.street)) + length(r.street)),
                        '^\s*([1-9][0-9]{0,3})(?![0-9]|\s?[A-Z]{2}\M)');
      house_number := m[1]::integer;
      select p.latitude, p.longitude, p.position_precision into found_latitude, found_longitude, found_precision
        from app_hidden.p2000_street_position(r.street, r.city, r.place_uuid, house_number) p;
    end if;
  end if;
  if found_latitude is null and r.postcode is not null then
    select p.latitude, p.longitude, 'postcode' into found_latitude, found_longitude, found_precision
      from app_public.postcodes p where p.postcode = r.postcode;
  end if;
  if found_latitude is not null then
    r.latitude := found_latitude;
    r.longitude := found_longitude;
    r.position_precision := found_precision;
  end if;
  return r;
end;
$$;
comment on function app_hidden.p2000_enrich_address(text, app_hidden.p2000_enrichment) is 'Step of app_hidden.p2000_enrich: the street a P2000 text names and where the message is placed, first that applies: the hectometre post of its road and kilometre, the address or street of the address register in its place, the road register''s street (nearer the house number), the postcode''s centroid, else the place (the centroid of the woonplaats''s addresses, else the place''s point that app_hidden.p2000_enrich_place set). Reads r''s road, hectometer, carriageway, place_uuid, city and postcode; returns r with street, latitude, longitude and position_precision set (docs/p2000.md#where-a-message-is-placed). Its own step because the position rules change on their own (each new register changed them); PL/pgSQL, as each lookup runs only where the ones before found nothing.';

-- 12. Category.
create or replace function app_hidden.p2000_enrich_category(exercise_type text, words text[], padded text, urgency_code text,
    discipline_name text)
  returns table (category_uuid uuid)
  language sql stable parallel safe
as $$
  -- Decided once, then looked up: the rules are an uncorrelated sub-select (evaluated once), not
  -- a condition the regexes would run in for every category row.
  select c.uuid from app_public.p2000_categories c
   where c.code = (select case
    when exercise_type <> 'none' then 'test'
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
  end)
$$;
comment on function app_hidden.p2000_enrich_category(text, text[], text, text, text) is 'Step of app_hidden.p2000_enrich: the category of a P2000 message (app_public.p2000_categories) by rules over its lower-case words (and " word word " as padded), urgency code, discipline and exercise type: tests are test, then dienstverlening, besteld_vervoer, automatisch_alarm, gevaarlijke_stoffen, waterongeval, ongeval, brand, hulpverlening, medisch, informatie; no row where none applies. Its own step because the category rules change on their own; set-returning SQL, inlined into the statement that calls it, which decides the code and looks it up at once.';

-- 13. Incident number.
create or replace function app_hidden.p2000_enrich_incident_number(t text, discipline_name text) returns text
  language sql immutable parallel safe
as $$
  -- After bon/rit/icnum, or a trailing 5-8 digit number (not for the fire brigade, whose texts end
  -- in call numbers).
  select coalesce((regexp_match(t, '\m(?:bon|rit|icnum|incident|incidentnummer)\s*:?\s*([0-9]{4,12})\M', 'i'))[1],
    case when discipline_name is distinct from 'Brandweer' then (regexp_match(t, '\m([0-9]{5,8})$'))[1] end)
$$;
comment on function app_hidden.p2000_enrich_incident_number(text, text) is 'Step of app_hidden.p2000_enrich: the incident number of a P2000 text: the 4-12 digits after bon, rit, icnum, incident or incidentnummer, else a trailing 5-8 digit number outside fire brigade texts. Its own step because it is its own rule; one SQL expression, inlined into p2000_enrich''s.';

-- 14. Grouping text.
create or replace function app_hidden.p2000_enrich_grouping_text(body text) returns text
  language sql immutable parallel safe
as $$
  -- Text without what differs between retransmissions of one incident, for grouping: the body
  -- (without the leading urgency and a "Herhaalde alarmering" before it), talkgroups, numbers.
  select btrim(regexp_replace(regexp_replace(regexp_replace(lower(body),
    '\mb[a-z]{2}-[0-9]{2}\M', ' ', 'g'),
    '\m[0-9]{4,}\M|\m(bon|rit|icnum)\M|[[:punct:]]', ' ', 'g'),
    '\s+', ' ', 'g'))
$$;
comment on function app_hidden.p2000_enrich_grouping_text(text) is 'Step of app_hidden.p2000_enrich: the grouping text (normalized_text) of a P2000 message: its body (app_hidden.p2000_enrich_head) in lower case without talkgroups, numbers of four digits or more, bon/rit/icnum and punctuation, so that retransmissions of one incident have the same. Its own step because dossier grouping depends on it alone; one SQL expression, inlined into p2000_enrich''s.';

-- The enrichment: the steps in order.
create or replace function app_hidden.p2000_enrich(message text, capcode_names text[])
  returns app_hidden.p2000_enrichment
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
  set plan_cache_mode to force_generic_plan
as $$
declare
  r app_hidden.p2000_enrichment;
  t text := btrim(regexp_replace(message, '\s+', ' ', 'g'));
  words text[];
  padded text;
  head app_hidden.p2000_head;
  discipline app_hidden.p2000_discipline_choice;
  all_test_codes boolean;
begin
  -- Lower-case words of the text, and the text as " word word ": keyword rules test these
  -- instead of running a regex each (PostgreSQL caches only 32 compiled regexes per session).
  words := regexp_split_to_array(btrim(regexp_replace(lower(t), '[^[:alnum:]''’ -]+', ' ', 'g')), '\s+');
  padded := ' ' || array_to_string(words, ' ') || ' ';

  head := app_hidden.p2000_enrich_head(t);

  -- Who was paged: the units' discipline and region (their capcodes), the discipline the text
  -- names, the fire call numbers, and where the capcodes give no region, a unit or call number's.
  -- The place below decides the region where the text names one.
  select u.discipline_uuid, u.region_uuid, u.all_test_codes into r.discipline_uuid, r.region_uuid, all_test_codes
    from app_hidden.p2000_enrich_units(capcode_names) as u;
  discipline := app_hidden.p2000_enrich_discipline(t, words, padded, head.urgency_code, head.explicit_priority,
                                                   r.discipline_uuid);
  r.discipline_uuid := discipline.discipline_uuid;
  r.call_numbers := app_hidden.p2000_enrich_call_numbers(t, discipline.discipline_name);
  if r.region_uuid is null then
    r.region_uuid := app_hidden.p2000_enrich_unit_region(t, r.call_numbers);
  end if;

  -- Exercises and tests have the exercise urgency, whatever priority their text gives (the spec's
  -- urgencies: urgent, less urgent, exercise); exercise_type keeps which kind they are.
  r.exercise_type := app_hidden.p2000_enrich_exercise(t, words, all_test_codes);
  select u.uuid into r.urgency_uuid from app_public.p2000_urgencies u
   where u.code = case when r.exercise_type <> 'none' then 'OEF' else head.urgency_code end;

  r.grip_level := app_hidden.p2000_enrich_grip(t);
  r.postcode := app_hidden.p2000_enrich_postcode(t);
  r := app_hidden.p2000_enrich_road(head.body, r);
  r := app_hidden.p2000_enrich_place(t, words, r);
  r := app_hidden.p2000_enrich_address(t, r);
  select c.category_uuid into r.category_uuid
    from app_hidden.p2000_enrich_category(r.exercise_type, words, padded, head.urgency_code, discipline.discipline_name) as c;
  r.incident_number := app_hidden.p2000_enrich_incident_number(t, discipline.discipline_name);
  r.normalized_text := app_hidden.p2000_enrich_grouping_text(head.body);
  return r;
end;
$$;
comment on function app_hidden.p2000_enrich(message text, capcode_names text[]) is 'Urgency, discipline, region, place, address, road, GRIP, exercise, category, incident number and grouping text of a message, read as a dispatcher reads it: the priority wherever the text gives it, the discipline the text names (a fire talkgroup, "ambu") before the capcodes'', and the region of the place the text names (app_public.places.region_uuid) before the capcodes'' and call numbers''. It calls its steps in order, one function per rule, so that a change to a rule re-creates only its step: app_hidden.p2000_enrich_head (the urgency code and the body after it), _units (the capcodes), _discipline, _call_numbers, _unit_region, _exercise, _grip, _postcode, _road, _place (and the region it names), _address (the street and the position), _category, _incident_number, _grouping_text. docs/p2000.md#enrichment-fields-of-p2000message says how each field is derived.';
