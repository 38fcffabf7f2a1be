--! Previous: sha1:8856b8c37ffcd9c94ca9583b11048fc60054b20b
--! Hash: sha1:1212ad54c0fccc9789087567c9fc10dcc950406d
--! Message: The register's street lookup probes once per word of the text instead of every run of words, the municipality's key computed once

-- The register's street lookup in a P2000 text (app_hidden.p2000_register_address) probed every
-- run of one to six words of the text, about 60 index probes a page, twice where the place had
-- none of them (the municipality's streets next): about 230 µs a page in the places the register
-- covers, the largest part of the enrichment's rise with migration 000082 (bench:enrichment,
-- docs/benchmarks.md). Now one probe per word: the streets whose key begins with that word, kept
-- when the text goes on with the rest of the key. The range is in byte order, so the place's and
-- the municipality's indexes compare the key with text_pattern_ops (equality works the same).

drop index if exists app_hidden.address_streets_place_idx;
create index if not exists address_streets_place_pattern_idx
  on app_hidden.address_streets (place_uuid, street_key text_pattern_ops);
drop index if exists app_hidden.address_streets_municipality_idx;
create index if not exists address_streets_municipality_pattern_idx
  on app_hidden.address_streets (app_hidden.street_place_key(municipality), street_key text_pattern_ops);

-- True when the words of a text from `start` on are the street key of `words` words, and neither
-- its first nor its last word is a number (a house number or a call number is no street's).
-- (No SET clause, so that the lookup inlines it: it names only pg_catalog's functions.)
create or replace function app_hidden.p2000_street_key_at(keys text[], start integer, street_key text, words integer)
  returns boolean
  language sql immutable parallel safe
as $$
  select words between 1 and 6 and start + words - 1 <= cardinality(keys)
     and translate(keys[start], '0123456789', '') <> ''
     and translate(keys[start + words - 1], '0123456789', '') <> ''
     and array_to_string(keys[start:start + words - 1], ' ') = street_key
$$;
comment on function app_hidden.p2000_street_key_at(text[], integer, text, integer) is 'Whether the words of a P2000 text from a position on are a street key of the address register (app_hidden.p2000_register_address), and its first and last words no numbers.';

create or replace function app_hidden.p2000_register_address(message text, place_uuid uuid, city text)
  returns app_hidden.p2000_address
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  keys text[] := app_hidden.p2000_text_street_keys(message);
  match_id bigint;
  match_name text;
  match_key text;
  match_latitude double precision;
  match_longitude double precision;
  match_start integer;
  match_length integer;
  number_key text;
  number_digits text;
  after_number text;
  point record;
  -- the key of the municipality the text names, computed once (street_place_key runs a regex)
  city_key text := app_hidden.street_place_key(city);
  result app_hidden.p2000_address;
begin
  if place_uuid is null or keys is null or cardinality(keys) = 0 then
    return null;
  end if;
  -- The longest street name of the place that the text contains, wherever it stands (before or
  -- after the place); of equal length, the one written last (the address ends the text), then
  -- the longer street. One index probe per word of the text: the place's streets whose key is
  -- that word or begins with it and a space (the range [word, word || '!') in byte order), kept
  -- when the text's next words are the rest of the key. (Probing every run of one to six words
  -- instead cost about 60 probes a page. OFFSET 0 keeps the lateral subquery from being pulled
  -- up, so each word is its own range probe whatever the plan: flattened, the generic plans the
  -- enrichment runs with read all the place's streets and filter them per word.)
  select s.id, s.name, s.street_key, s.latitude, s.longitude, w.start, s.words
      into match_id, match_name, match_key, match_latitude, match_longitude, match_start, match_length
    from generate_subscripts(keys, 1) as w (start)
    cross join lateral (select s.id, s.name, s.street_key, s.latitude, s.longitude, s.address_count,
                               cardinality(string_to_array(s.street_key, ' ')) as words
                          from app_hidden.address_streets s
                         where s.place_uuid = p2000_register_address.place_uuid
                           and s.street_key ~>=~ keys[w.start] and s.street_key ~<~ (keys[w.start] || '!')
                        offset 0) s
   where app_hidden.p2000_street_key_at(keys, w.start, s.street_key, s.words)
   order by length(s.street_key) desc, w.start desc, s.address_count desc
   limit 1;
  -- Else the street of that name in the municipality the text names ("Hoofdweg Midden-Groningen"),
  -- where one woonplaats has it.
  if match_id is null and city is not null then
    select s.id, s.name, s.street_key, s.latitude, s.longitude, w.start, s.words
      into match_id, match_name, match_key, match_latitude, match_longitude, match_start, match_length
      from generate_subscripts(keys, 1) as w (start)
      cross join lateral (select s.id, s.name, s.street_key, s.latitude, s.longitude, s.address_count,
                                 cardinality(string_to_array(s.street_key, ' ')) as words
                            from app_hidden.address_streets s
                           where app_hidden.street_place_key(s.municipality) = city_key
                             and s.street_key ~>=~ keys[w.start] and s.street_key ~<~ (keys[w.start] || '!')
                        offset 0) s
     where app_hidden.p2000_street_key_at(keys, w.start, s.street_key, s.words)
     order by length(s.street_key) desc, w.start desc, s.address_count desc
     limit 1;
    if match_id is not null and (select count(*) from app_hidden.address_streets s
          where app_hidden.street_place_key(s.municipality) = city_key
            and s.street_key = match_key) > 1 then
      match_id := null;
    end if;
  end if;
  if match_id is null then
    return null;
  end if;
  result := (match_name, null, match_latitude, match_longitude, 'street');
  -- A house number right after the street ("Kerkstraat 12", "Kerkstraat 12a"), not a postcode's
  -- digits ("Kerkstraat 9711 AB").
  -- (String functions, no regex: PostgreSQL keeps only 32 compiled regexes per session, and the
  -- enrichment's own fill that cache.)
  number_key := keys[match_start + match_length];
  number_digits := rtrim(number_key, 'abcdefghijklmnopqrstuvwxyz');
  after_number := keys[match_start + match_length + 1];
  if length(number_digits) between 1 and 5 and translate(number_digits, '0123456789', '') = ''
     and left(number_digits, 1) <> '0' and length(number_key) - length(number_digits) <= 1
     and not (length(number_key) = 4 and length(after_number) = 2
              and translate(after_number, 'abcdefghijklmnopqrstuvwxyz', '') = '') then
    result.house_number := number_digits::integer;
    select n.latitudes[x.i] as latitude, n.longitudes[x.i] as longitude into point
      from app_hidden.address_numbers n
      cross join lateral (select array_position(n.numbers, result.house_number) as i) x
     where n.street_id = match_id and x.i is not null;
    if point.latitude is not null then
      result.latitude := point.latitude;
      result.longitude := point.longitude;
      result.position_precision := 'address';
    end if;
  end if;
  return result;
end;
$$;

comment on function app_hidden.p2000_register_address(text, uuid, text) is 'The street of the address register that a P2000 text names in its place, read as a dispatcher reads it: the longest street name of the place that the text contains (any case or accents, street-type abbreviations and titles written out, before or after the place), else the one street of that name in the municipality the text names; with the house number written right after it, the address''s point (precision address), else the centroid of the street''s addresses (precision street). Null when the text names no street of the register there.';
