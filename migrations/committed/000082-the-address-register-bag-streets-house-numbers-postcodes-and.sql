--! Previous: sha1:5d3e8df9ba442511c26996eaef8bc3b54b2c3ff2
--! Hash: sha1:8856b8c37ffcd9c94ca9583b11048fc60054b20b
--! Message: The address register (BAG): streets, house numbers, postcodes and woonplaatsen; pages placed at their address, street or postcode; address suggestions; related signals by precision

-- The national address register (BAG, Kadaster, CC0) for the lookups that place P2000 pages at
-- their street and address and that suggest addresses as someone types. Filled by
-- `npm run import:addresses` and, for the provinces no import has covered, from the compact index
-- shipped in data/addresses/ (lib/addresses/). docs/roads-and-places.md#addresses says how.

-- What an import streams in, before it replaces a province's rows in one transaction.
create unlogged table if not exists app_private.address_import_rows (
  import_uuid uuid not null,
  province text not null,
  municipality text not null,
  woonplaats text not null,
  street text not null,
  house_number integer not null check (house_number > 0),
  postcode text check (postcode ~ '^[1-9][0-9]{3}[A-Z]{2}$'),
  latitude double precision not null check (latitude between 50 and 54),
  longitude double precision not null check (longitude between 3 and 8)
);
create index if not exists address_import_rows_import_idx on app_private.address_import_rows (import_uuid, province);
alter table app_private.address_import_rows enable row level security;
comment on table app_private.address_import_rows is 'Rows of an address import in progress (lib/addresses/import.ts), one per address; app_private.replace_province_addresses turns a province''s rows into the lookup tables and deletes them. Unlogged: a crash loses only an import, which is run again.';

-- One row per street of a woonplaats.
create table if not exists app_hidden.address_streets (
  id bigint generated always as identity primary key,
  province text not null,
  municipality text not null,
  woonplaats text not null,
  name text not null,
  street_key text not null,
  place_key text not null,
  place_uuid uuid references app_public.places (uuid) on delete set null,
  latitude double precision not null check (latitude between -90 and 90),
  longitude double precision not null check (longitude between -180 and 180),
  min_latitude double precision not null,
  min_longitude double precision not null,
  max_latitude double precision not null,
  max_longitude double precision not null,
  address_count integer not null check (address_count > 0),
  source text not null check (source in ('import', 'shipped')),
  -- the woonplaats and municipality as typed text is compared with (type-ahead)
  woonplaats_key text generated always as (app_hidden.street_key(woonplaats)) stored,
  municipality_key text generated always as (app_hidden.street_key(municipality)) stored
);
create index if not exists address_streets_place_idx on app_hidden.address_streets (place_uuid, street_key);
create index if not exists address_streets_place_key_idx on app_hidden.address_streets (place_key, street_key);
create index if not exists address_streets_municipality_idx on app_hidden.address_streets (app_hidden.street_place_key(municipality), street_key);
-- type-ahead reads the street key's prefix and the place's from the index alone
create index if not exists address_streets_key_pattern_idx on app_hidden.address_streets (street_key text_pattern_ops)
  include (woonplaats_key, municipality_key, address_count);
create index if not exists address_streets_province_idx on app_hidden.address_streets (province);
alter table app_hidden.address_streets enable row level security;
drop policy if exists select_all on app_hidden.address_streets;
create policy select_all on app_hidden.address_streets for select to app_visitor, app_analyst using (true);
grant select on app_hidden.address_streets to app_visitor, app_analyst;
drop trigger if exists _900_notify_data_changed on app_hidden.address_streets;
create trigger _900_notify_data_changed after insert or update or delete or truncate on app_hidden.address_streets
  for each statement execute function app_hidden.tg__notify_data_changed('places');
comment on table app_hidden.address_streets is 'One row per street of a woonplaats in the address register (BAG): its name, the key it is matched by (app_hidden.street_key), its place, the centroid of its address points (where P2000 pages naming the street are placed), their extent and count. Source: import (npm run import:addresses) or shipped (data/addresses/, loaded for provinces no import covers).';
comment on column app_hidden.address_streets.place_key is 'app_hidden.street_place_key(woonplaats).';
comment on column app_hidden.address_streets.place_uuid is 'The place (app_public.places) of the woonplaats (app_hidden.place_of_woonplaats); null when no place has its name.';
comment on column app_hidden.address_streets.latitude is 'The centroid of the street''s address points in the woonplaats.';

-- A street's house numbers and their points, compactly: three arrays in step, numbers ascending.
create table if not exists app_hidden.address_numbers (
  street_id bigint primary key references app_hidden.address_streets (id) on delete cascade,
  numbers integer[] not null,
  latitudes double precision[] not null,
  longitudes double precision[] not null,
  check (cardinality(numbers) = cardinality(latitudes) and cardinality(numbers) = cardinality(longitudes))
);
alter table app_hidden.address_numbers enable row level security;
drop policy if exists select_all on app_hidden.address_numbers;
create policy select_all on app_hidden.address_numbers for select to app_visitor, app_analyst using (true);
grant select on app_hidden.address_numbers to app_visitor, app_analyst;
comment on table app_hidden.address_numbers is 'The house numbers of a street of app_hidden.address_streets with their points (the mean of the number''s address points: 12, 12a and 12-2 are one number), ascending: one row per street rather than one per address keeps about 10 million addresses in about 250,000 rows.';

-- Postcodes: PC6 (3511AB) and PC4 (3511) with the centroid and extent of their addresses.
create table if not exists app_hidden.address_postcodes (
  postcode text not null check (postcode ~ '^[1-9][0-9]{3}([A-Z]{2})?$'),
  province text not null,
  woonplaats text not null,
  municipality text not null,
  latitude double precision not null,
  longitude double precision not null,
  min_latitude double precision not null,
  min_longitude double precision not null,
  max_latitude double precision not null,
  max_longitude double precision not null,
  address_count integer not null check (address_count > 0),
  source text not null check (source in ('import', 'shipped')),
  primary key (postcode, province)
);
create index if not exists address_postcodes_province_idx on app_hidden.address_postcodes (province);
alter table app_hidden.address_postcodes enable row level security;
drop policy if exists select_all on app_hidden.address_postcodes;
create policy select_all on app_hidden.address_postcodes for select to app_visitor, app_analyst using (true);
grant select on app_hidden.address_postcodes to app_visitor, app_analyst;
comment on table app_hidden.address_postcodes is 'Postcodes of the address register: PC6 (3511AB) and PC4 areas (3511), each with the centroid and extent of its addresses and the woonplaats and municipality most of them are in. Keyed by province too: a PC4 area on a provincial border has a row in each, the larger one counts.';

-- Woonplaatsen: the centroid of their addresses (cities and the enrichment's place fallback).
create table if not exists app_hidden.address_woonplaatsen (
  woonplaats text not null,
  municipality text not null,
  province text not null,
  place_uuid uuid references app_public.places (uuid) on delete set null,
  latitude double precision not null,
  longitude double precision not null,
  min_latitude double precision not null,
  min_longitude double precision not null,
  max_latitude double precision not null,
  max_longitude double precision not null,
  address_count integer not null check (address_count > 0),
  source text not null check (source in ('import', 'shipped')),
  primary key (woonplaats, municipality)
);
create index if not exists address_woonplaatsen_place_idx on app_hidden.address_woonplaatsen (place_uuid);
create index if not exists address_woonplaatsen_province_idx on app_hidden.address_woonplaatsen (province);
alter table app_hidden.address_woonplaatsen enable row level security;
drop policy if exists select_all on app_hidden.address_woonplaatsen;
create policy select_all on app_hidden.address_woonplaatsen for select to app_visitor, app_analyst using (true);
grant select on app_hidden.address_woonplaatsen to app_visitor, app_analyst;
comment on table app_hidden.address_woonplaatsen is 'Woonplaatsen of the address register with the centroid and extent of their addresses: the position cities and locationSuggestions give, and where a P2000 page that names only the place is put.';

-- The place a woonplaats of a register is: by name or alias, the one in its municipality first.
create or replace function app_hidden.place_of_woonplaats(woonplaats text, municipality text) returns uuid
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  -- "Bergen (NH)" is the place Bergen with the alias "Bergen NH"; "Hoogvliet Rotterdam" is Hoogvliet.
  -- (the spellings as rows joined by equality: one index probe each, where an IN list of
  -- expressions made the planner read every place name)
  select c.uuid
    from (select app_hidden.street_place_key(woonplaats) as k) as w
    cross join lateral (values (w.k), (btrim(regexp_replace(w.k, '[()]', '', 'g'))),
                               (btrim(regexp_replace(w.k, '\s*\(.*$', '')))) as spelling (name)
    join app_hidden.place_names n on n.name = spelling.name
    join app_public.places c on c.uuid = n.place_uuid
   order by app_hidden.street_place_key(c.municipality) = app_hidden.street_place_key(place_of_woonplaats.municipality) desc nulls last,
            n.name = w.k desc, c.population desc nulls last, c.uuid
   limit 1
$$;
comment on function app_hidden.place_of_woonplaats(text, text) is 'The place (app_public.places) a woonplaats of the address register is: by name or alias ("Bergen (NH)" is Bergen, alias "Bergen NH"), the one in the same municipality first, then the biggest.';

-- A province's woonplaatsen from its streets: the centroid and extent of their addresses.
create or replace function app_private.refresh_address_woonplaatsen(province text, source text) returns void
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.address_woonplaatsen w where w.province = refresh_address_woonplaatsen.province;
  insert into app_hidden.address_woonplaatsen (woonplaats, municipality, province, place_uuid, latitude, longitude,
      min_latitude, min_longitude, max_latitude, max_longitude, address_count, source)
  select s.woonplaats, s.municipality, refresh_address_woonplaatsen.province, min(s.place_uuid::text)::uuid,
         round((sum(s.latitude * s.address_count) / sum(s.address_count))::numeric, 7)::double precision,
         round((sum(s.longitude * s.address_count) / sum(s.address_count))::numeric, 7)::double precision,
         min(s.min_latitude), min(s.min_longitude), max(s.max_latitude), max(s.max_longitude),
         sum(s.address_count)::integer, refresh_address_woonplaatsen.source
    from app_hidden.address_streets s
   where s.province = refresh_address_woonplaatsen.province
   group by s.woonplaats, s.municipality;

end;
$$;
comment on function app_private.refresh_address_woonplaatsen(text, text) is 'Importer step: a province''s rows of app_hidden.address_woonplaatsen made again from its streets.';

-- The spec's postcodes read (app_public.postcodes) from a province's register postcodes.
create or replace function app_private.publish_address_postcodes(province text) returns void
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  -- The spec's postcodes read: the register's centroids, the larger province's where a PC4 crosses.
  insert into app_public.postcodes as t (postcode, city, municipality, latitude, longitude)
  select distinct on (p.postcode) p.postcode, p.woonplaats, p.municipality, p.latitude, p.longitude
    from app_hidden.address_postcodes p
   where p.postcode in (select q.postcode from app_hidden.address_postcodes q where q.province = publish_address_postcodes.province)
   order by p.postcode, p.address_count desc
  on conflict (postcode) do update
    set city = excluded.city, municipality = excluded.municipality, latitude = excluded.latitude, longitude = excluded.longitude
    where (t.city, t.municipality, t.latitude, t.longitude)
          is distinct from (excluded.city, excluded.municipality, excluded.latitude, excluded.longitude);

end;
$$;
comment on function app_private.publish_address_postcodes(text) is 'Importer step: the postcodes of a province of the address register written to app_public.postcodes (the postcodes query reads it), the centroid of the larger province where a PC4 area crosses a border; rows that did not change are not written.';

-- An import's rows of one province become the province's lookup rows, in the caller's transaction:
-- readers see the old rows until it commits, then the new ones, never a mix.
create or replace function app_private.replace_province_addresses(import_uuid uuid, province text, source text,
    out streets integer, out addresses integer, out postcodes integer)
  language plpgsql
  -- a province's sorts and hashes (Zuid-Holland: about 1.9 million addresses) in memory
  set work_mem to '256MB'
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.address_streets s where s.province = replace_province_addresses.province;
  delete from app_hidden.address_postcodes p where p.province = replace_province_addresses.province;

  -- One point per house number of a street (12, 12a and 12-2 are one number), the street keyed as
  -- P2000 texts are compared; the key computed once per street name, not per address.
  create temporary table numbers on commit drop as
  -- (materialized: else the planner calls street_key for every address, as a filter of the scan)
  with keyed as materialized (
    select n.*, app_hidden.street_key(n.street) as street_key
      from (select distinct r.municipality, r.woonplaats, r.street from app_private.address_import_rows r
             where r.import_uuid = replace_province_addresses.import_uuid
               and r.province = replace_province_addresses.province) as n
  )
  select r.municipality, r.woonplaats, k.street_key, r.house_number,
         mode() within group (order by r.street) as street,
         avg(r.latitude) as latitude, avg(r.longitude) as longitude, count(*)::integer as address_count
    from app_private.address_import_rows r
    join keyed k on (k.municipality, k.woonplaats, k.street) = (r.municipality, r.woonplaats, r.street)
   where r.import_uuid = replace_province_addresses.import_uuid and r.province = replace_province_addresses.province
     and k.street_key is not null
   group by r.municipality, r.woonplaats, k.street_key, r.house_number;

  with per_street as (
    select n.municipality, n.woonplaats, n.street_key,
           mode() within group (order by n.street) as name,
           sum(n.latitude * n.address_count) / sum(n.address_count) as latitude,
           sum(n.longitude * n.address_count) / sum(n.address_count) as longitude,
           min(n.latitude) as min_latitude, min(n.longitude) as min_longitude,
           max(n.latitude) as max_latitude, max(n.longitude) as max_longitude,
           sum(n.address_count)::integer as address_count,
           array_agg(n.house_number order by n.house_number) as numbers,
           array_agg(round(n.latitude::numeric, 7)::double precision order by n.house_number) as latitudes,
           array_agg(round(n.longitude::numeric, 7)::double precision order by n.house_number) as longitudes
      from numbers n
     group by n.municipality, n.woonplaats, n.street_key
  ), places as (
    select w.municipality, w.woonplaats, app_hidden.place_of_woonplaats(w.woonplaats, w.municipality) as place_uuid
      from (select distinct s.municipality, s.woonplaats from per_street s) w
  ), inserted as (
    insert into app_hidden.address_streets (province, municipality, woonplaats, name, street_key, place_key, place_uuid,
        latitude, longitude, min_latitude, min_longitude, max_latitude, max_longitude, address_count, source)
    select replace_province_addresses.province, s.municipality, s.woonplaats, s.name, s.street_key,
           app_hidden.street_place_key(s.woonplaats), p.place_uuid,
           round(s.latitude::numeric, 7)::double precision, round(s.longitude::numeric, 7)::double precision,
           s.min_latitude, s.min_longitude, s.max_latitude, s.max_longitude, s.address_count, replace_province_addresses.source
      from per_street s join places p on (p.municipality, p.woonplaats) = (s.municipality, s.woonplaats)
    returning id, municipality, woonplaats, street_key
  )
  insert into app_hidden.address_numbers (street_id, numbers, latitudes, longitudes)
  select i.id, s.numbers, s.latitudes, s.longitudes
    from inserted i join per_street s on (s.municipality, s.woonplaats, s.street_key) = (i.municipality, i.woonplaats, i.street_key);
  get diagnostics streets = row_count;
  select coalesce(sum(n.address_count), 0)::integer into addresses from numbers n;

  perform app_private.refresh_address_woonplaatsen(replace_province_addresses.province, replace_province_addresses.source);

  insert into app_hidden.address_postcodes (postcode, province, woonplaats, municipality, latitude, longitude,
      min_latitude, min_longitude, max_latitude, max_longitude, address_count, source)
  select c.code, replace_province_addresses.province,
         mode() within group (order by r.woonplaats), mode() within group (order by r.municipality),
         round(avg(r.latitude)::numeric, 7)::double precision, round(avg(r.longitude)::numeric, 7)::double precision,
         min(r.latitude), min(r.longitude), max(r.latitude), max(r.longitude), count(*)::integer,
         replace_province_addresses.source
    from app_private.address_import_rows r
    cross join lateral (values (r.postcode), (left(r.postcode, 4))) as c (code)
   where r.import_uuid = replace_province_addresses.import_uuid and r.province = replace_province_addresses.province
     and r.postcode is not null
   group by c.code;
  get diagnostics postcodes = row_count;

  perform app_private.publish_address_postcodes(replace_province_addresses.province);

  delete from app_private.address_import_rows r
   where r.import_uuid = replace_province_addresses.import_uuid and r.province = replace_province_addresses.province;
end;
$$;
comment on function app_private.replace_province_addresses(uuid, text, text) is 'Importer step, once per province of an address import, in one transaction: the province''s streets, house numbers, postcodes and woonplaatsen are replaced by those of the import''s rows (app_private.address_import_rows), which are then deleted. Returns the streets, addresses and postcodes written.';

-- The compact index shipped in data/addresses/ (lib/addresses/shipped-index.ts): the loader copies
-- its streets into pg_temp.shipped_address_streets and its postcodes into app_hidden.address_postcodes,
-- then this makes the streets' rows, in the loader's transaction.
create or replace function app_private.store_shipped_addresses(provinces text[]) returns integer
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  province text;
  stored integer;
begin
  with places as (
    select w.municipality, w.woonplaats, app_hidden.place_of_woonplaats(w.woonplaats, w.municipality) as place_uuid
      from (select distinct s.municipality, s.woonplaats from pg_temp.shipped_address_streets s) w
  ), inserted as (
    insert into app_hidden.address_streets (province, municipality, woonplaats, name, street_key, place_key, place_uuid,
        latitude, longitude, min_latitude, min_longitude, max_latitude, max_longitude, address_count, source)
    select s.province, s.municipality, s.woonplaats, s.name, s.street_key, app_hidden.street_place_key(s.woonplaats),
           p.place_uuid, s.latitude, s.longitude, s.min_latitude, s.min_longitude, s.max_latitude, s.max_longitude,
           s.address_count, 'shipped'
      from pg_temp.shipped_address_streets s
      join places p on (p.municipality, p.woonplaats) = (s.municipality, s.woonplaats)
     where s.province = any (provinces)
    returning id, municipality, woonplaats, street_key
  )
  insert into app_hidden.address_numbers (street_id, numbers, latitudes, longitudes)
  select i.id, s.numbers, s.latitudes, s.longitudes
    from inserted i
    join pg_temp.shipped_address_streets s on (s.municipality, s.woonplaats, s.street_key) = (i.municipality, i.woonplaats, i.street_key);
  get diagnostics stored = row_count;
  foreach province in array provinces loop
    perform app_private.refresh_address_woonplaatsen(province, 'shipped');
    perform app_private.publish_address_postcodes(province);
  end loop;
  return stored;
end;
$$;
comment on function app_private.store_shipped_addresses(text[]) is 'Loader step of the shipped address index (data/addresses/): the streets and house numbers of the given provinces from pg_temp.shipped_address_streets, then their woonplaatsen and public postcodes. Returns the streets stored.';

-- Reading the street as a dispatcher reads it: the longest street of the place that the text names.
create or replace function app_hidden.p2000_text_street_keys(message text) returns text[]
  language sql immutable parallel safe strict
  set search_path to pg_catalog, public, pg_temp
as $$
  -- The words of the text as street keys (app_hidden.street_key: lower case, no accents, titles
  -- written out), with the street-type abbreviations of pages written out too: "Kerkstr",
  -- "Stationsln", "Dorpswg", "Marktpln". (String functions, not a regex per word: the enrichment
  -- runs this for every page.)
  select array(
    select case
             when length(w) > 4 and right(w, 3) = 'str' then left(w, -3) || 'straat'
             when length(w) > 4 and right(w, 3) = 'pln' then left(w, -3) || 'plein'
             when length(w) > 3 and right(w, 2) = 'ln' then left(w, -2) || 'laan'
             when length(w) > 3 and right(w, 2) = 'wg' then left(w, -2) || 'weg'
             else w end
      from unnest(string_to_array(app_hidden.street_key(message), ' ')) with ordinality as x (w, i)
     order by x.i)
$$;
comment on function app_hidden.p2000_text_street_keys(text) is 'The words of a P2000 text as street keys, in order: app_hidden.street_key''s normal form, and the street-type abbreviations pages use written out (str: straat, ln: laan, wg: weg, pln: plein).';

drop type if exists app_hidden.p2000_address cascade;
create type app_hidden.p2000_address as (
  street text,
  house_number integer,
  latitude double precision,
  longitude double precision,
  position_precision text
);
comment on type app_hidden.p2000_address is 'A street (and house number) of the address register that a P2000 text names, with its position and precision (address or street), as app_hidden.p2000_register_address returns it.';

create or replace function app_hidden.p2000_register_address(message text, place_uuid uuid, city text)
  returns app_hidden.p2000_address
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  keys text[] := app_hidden.p2000_text_street_keys(message);
  grams text[];
  starts integer[];
  lengths integer[];
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
  result app_hidden.p2000_address;
begin
  if place_uuid is null or keys is null or cardinality(keys) = 0 then
    return null;
  end if;
  -- Every run of one to six words that neither begins nor ends with a number: each is a street
  -- key to look up, one index probe each.
  select array_agg(array_to_string(keys[i:i + n - 1], ' ')), array_agg(i), array_agg(n)
    into grams, starts, lengths
    from generate_subscripts(keys, 1) as i, generate_series(1, 6) as n
   where i + n - 1 <= cardinality(keys) and translate(keys[i + n - 1], '0123456789', '') <> ''
     and translate(keys[i], '0123456789', '') <> '';
  -- The longest street name of the place that the text contains, wherever it stands (before or
  -- after the place); of equal length, the one written last (the address ends the text), then
  -- the longer street.
  -- (A lateral subquery with a LIMIT, so that each key is an index probe whatever the plan: the
  -- enrichment runs with generic plans, which otherwise may hash the place's streets.)
  select s.id, s.name, s.street_key, s.latitude, s.longitude, g.start, g.len
      into match_id, match_name, match_key, match_latitude, match_longitude, match_start, match_length
    from unnest(grams, starts, lengths) as g (key, start, len)
    cross join lateral (select s.* from app_hidden.address_streets s
                         where s.place_uuid = p2000_register_address.place_uuid and s.street_key = g.key
                         order by s.address_count desc limit 1) s
   order by length(g.key) desc, g.start desc, s.address_count desc
   limit 1;
  -- Else the street of that name in the municipality the text names ("Hoofdweg Midden-Groningen"),
  -- where one woonplaats has it.
  if match_id is null and city is not null then
    select s.id, s.name, s.street_key, s.latitude, s.longitude, g.start, g.len
      into match_id, match_name, match_key, match_latitude, match_longitude, match_start, match_length
      from unnest(grams, starts, lengths) as g (key, start, len)
      cross join lateral (select s.* from app_hidden.address_streets s
                           where app_hidden.street_place_key(s.municipality) = app_hidden.street_place_key(city)
                             and s.street_key = g.key
                           order by s.address_count desc limit 1) s
     order by length(g.key) desc, g.start desc, s.address_count desc
     limit 1;
    if match_id is not null and (select count(*) from app_hidden.address_streets s
          where app_hidden.street_place_key(s.municipality) = app_hidden.street_place_key(city)
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

-- Positions say how they were found: address and postcode too.
alter table app_public.p2000_messages drop constraint if exists p2000_messages_position_precision_check;
alter table app_public.p2000_messages add constraint p2000_messages_position_precision_check
  check (position_precision in ('address', 'street', 'postcode', 'hectometre', 'place')) not valid;
alter table app_public.p2000_messages validate constraint p2000_messages_position_precision_check;
comment on column app_public.p2000_messages.position_precision is 'How latitude and longitude were found: address (the point of the house number the message names, address register), street (the centroid of the street''s addresses in the place, address register; or the road register''s street, nearer the house number), postcode (the centroid of the postcode''s addresses), hectometre (the hectometre post on the road), place (the centroid of the place''s addresses, or the place''s point); null without a position. docs/p2000.md#where-a-message-is-placed.';

create or replace function app_hidden.p2000_enrich(message text, capcode_names text[])
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
  address app_hidden.p2000_address;
  registered_place boolean := false;
  street_match text;
begin
  -- Lower-case words of the text, and the text as " word word ": keyword rules test these
  -- instead of running a regex each (PostgreSQL caches only 32 compiled regexes per session).
  words := regexp_split_to_array(btrim(regexp_replace(lower(t), '[^[:alnum:]''’ -]+', ' ', 'g')), '\s+');
  padded := ' ' || array_to_string(words, ' ') || ' ';

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
      -- police pages carry their incident number as "icnum"
      when words && array['politie', 'icnum'] then 'Politie'
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
    when words && array['testoproep', 'testbericht', 'testpage', 'systeemtest'] or t ~* '^((p|prio)\s*[123]\s+)?test\M' then 'test'
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

  -- Postcode: "3511AB", "3511 AB", and in a lower-case feed "3511 ab" where the register or the
  -- postcode table knows it ("1234 en" is no postcode).
  m := regexp_match(lower(t), '\m([1-9][0-9]{3}) ?([a-z]{2})\M');
  if m is not null and m[2] not in ('sa', 'sd', 'ss')
     and (strpos(t, m[1] || upper(m[2])) > 0 or strpos(t, m[1] || ' ' || upper(m[2])) > 0 or exists (select 1 from app_public.postcodes p where p.postcode = m[1] || upper(m[2]))) then
    r.postcode := m[1] || upper(m[2]);
  end if;

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
    -- the centroid of the woonplaats's addresses where the register has it (one index probe),
    -- else the place's point
    select w.latitude, w.longitude into found_latitude, found_longitude from app_hidden.address_woonplaatsen w
     where w.place_uuid = place.uuid order by w.address_count desc limit 1;
    r.latitude := coalesce(found_latitude, place.latitude);
    r.longitude := coalesce(found_longitude, place.longitude);
    r.position_precision := 'place';
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
  if found_latitude is null and r.street is not null and (r.place_uuid is not null or r.city is not null)
     and exists (select 1 from app_hidden.streets) then
    m := regexp_match(substr(t, strpos(lower(t), lower(r.street)) + length(r.street)),
                      '^\s*([1-9][0-9]{0,3})(?![0-9]|\s?[A-Z]{2}\M)');
    house_number := m[1]::integer;
    select p.latitude, p.longitude, p.position_precision into found_latitude, found_longitude, found_precision
      from app_hidden.p2000_street_position(r.street, r.city, r.place_uuid, house_number) p;
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
  m := regexp_match(t, '\m(?:bon|rit|icnum|incident|incidentnummer)\s*:?\s*([0-9]{4,12})\M', 'i');
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


-- Addresses everywhere: what someone types, read as street, house number and place.
create or replace function app_hidden.register_suggestions(search text)
  returns table (kind text, label text, detail text, latitude double precision, longitude double precision,
                 postcode text, rank integer, weight integer)
  language sql stable parallel safe
  -- the prefix walked in index order, from the index alone: a bitmap scan would read a heap page
  -- for each street of the prefix (hundreds for "kerkstraat" nationally) and sort them
  set enable_bitmapscan to off
  set search_path to pg_catalog, public, pg_temp
as $$
  with words as (
    select string_to_array(app_hidden.street_key(search), ' ') as w
  ), numbered as (
    -- the first word after the first that is a house number ("12", "12a")
    select w, (select min(i) from generate_subscripts(w, 1) as i
                where i > 1 and length(rtrim(w[i], 'abcdefghijklmnopqrstuvwxyz')) between 1 and 5
                  and translate(rtrim(w[i], 'abcdefghijklmnopqrstuvwxyz'), '0123456789', '') = ''
                  and length(w[i]) - length(rtrim(w[i], 'abcdefghijklmnopqrstuvwxyz')) <= 1) as at
      from words
  ), splits as (
    -- the street's words, then the place's: around the number, or without one at every split
    select array_to_string(w[1:at - 1], ' ') as street, rtrim(w[at], 'abcdefghijklmnopqrstuvwxyz')::integer as house_number,
           nullif(array_to_string(w[at + 1:], ' '), '') as place
      from numbered where at is not null
    union all
    select array_to_string(w[1:k], ' '), null, nullif(array_to_string(w[k + 1:], ' '), '')
      from numbered, generate_series(1, cardinality(w)) as k where at is null
  ), candidates as (
    -- The streets whose key starts with the typed street, walked in the key's index order (the
    -- pattern operators, which a generic plan can use too, unlike LIKE with a parameter), the
    -- place's prefix on the woonplaats or the municipality: all from the index (an index-only
    -- scan), and 200 are plenty to rank.
    select c.id, c.address_count, sp.house_number, c.street_key = sp.street as whole
      from splits sp
      cross join lateral (
        select s.id, s.street_key, s.address_count
          from app_hidden.address_streets s
         where length(sp.street) >= 2
           and s.street_key ~>=~ sp.street and s.street_key ~<~ (sp.street || '~')
           and (sp.place is null or s.woonplaats_key ~>=~ sp.place and s.woonplaats_key ~<~ (sp.place || '~')
                or s.municipality_key ~>=~ sp.place and s.municipality_key ~<~ (sp.place || '~'))
         order by s.street_key
         limit 200) c
  ), ranked as (
    -- the 20 best of each kind: the street as typed, then the biggest; then their rows
    select x.house_number, x.whole, s.*
      from (select c.*, row_number() over (partition by c.house_number, c.whole order by c.address_count desc) as n
              from candidates c) x
      -- (LIMIT 1: a lateral subquery without one is pulled up into a hash join over every street)
      cross join lateral (select s.* from app_hidden.address_streets s where s.id = x.id limit 1) s
     where x.n <= 20
  )
  select 'address', s.name || ' ' || s.house_number,
         s.woonplaats || case when s.municipality <> s.woonplaats then ', ' || s.municipality else '' end,
         x.latitudes[x.i], x.longitudes[x.i], null::text, case when s.whole then 0 else 1 end, s.address_count
    from ranked s
    cross join lateral (select n.latitudes, n.longitudes, array_position(n.numbers, s.house_number) as i
                          from app_hidden.address_numbers n where n.street_id = s.id limit 1) x
   where s.house_number is not null and x.i is not null
  union all
  select 'street', s.name,
         s.woonplaats || case when s.municipality <> s.woonplaats then ', ' || s.municipality else '' end,
         s.latitude, s.longitude, null, case when s.whole then 2 else 4 end, s.address_count
    from ranked s
   where s.house_number is null
$$;
comment on function app_hidden.register_suggestions(text) is 'Streets and addresses of the address register for what someone types ("stationsweg 12 amst": Stationsweg 12, Amstelveen): the words before a house number are a street''s prefix, those after it a woonplaats''s or municipality''s prefix; without a number every split is tried. rank: 0 an address on the street as typed, 1 on a longer street, 2 the street as typed, 4 a longer street; weight: the street''s addresses.';

create or replace function app_public.location_suggestions(search text, first integer default 10)
  returns setof app_public.location_suggestion
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  with term as (select app_hidden.require_search(search, 2) as t),
  candidates as (
    select 'place' as kind, c.display_name as label, c.province as detail, c.latitude, c.longitude, c.uuid, null::text as postcode,
           case when lower(c.name) like term.t || '%' then 1 else 3 end as rank, coalesce(c.population, 0) as weight
      from term, app_public.cities(search, 20) c
    union all
    select 'postcode', p.postcode, concat_ws(', ', p.city, p.municipality), p.latitude, p.longitude, null, p.postcode, 1, 0
      from term, app_public.postcodes p
     where term.t ~ '^[1-9][0-9]' and p.postcode like upper(replace(term.t, ' ', '')) || '%'
    union all
    select r.kind, r.label, r.detail, r.latitude, r.longitude, null, r.postcode, r.rank, r.weight
      from term, app_hidden.register_suggestions(term.t) r
     where term.t !~ '^[1-9][0-9]'
    union all
    -- fire stations: addresses where no register covers the province
    select 'address', concat_ws(' ', s.street, s.house_number), concat_ws(', ', s.zip_code, s.city, s.name), s.latitude, s.longitude,
           s.uuid, s.zip_code, case when lower(concat_ws(' ', s.street, s.house_number)) like term.t || '%' then 3 else 5 end, 0
      from term, app_public.fire_stations s
     where s.latitude is not null and s.street is not null
       and (lower(s.street) like term.t || '%' or lower(concat_ws(' ', s.street, s.house_number, s.city)) like '%' || term.t || '%')
  )
  select c.kind, c.label, c.detail, c.latitude, c.longitude, c.uuid, c.postcode
    from candidates c
   order by c.rank, c.weight desc, length(c.label), c.label
   limit app_hidden.page_limit(first, 20, 10)
$$;
comment on function app_public.location_suggestions(search text, first integer) is '@notNull
Places, streets, addresses and postcodes as someone types (at least 2 characters), from the address register where it is imported or shipped: an address on the street as typed first ("stationsweg 12 amst": Stationsweg 12, Amstelveen), then places and postcodes by prefix, the street as typed, similar place names, longer streets, then fire stations'' addresses; bigger places and streets first. kind: place, street, address or postcode. first 1-20, default 10.';
comment on type app_public.location_suggestion is 'A place, street, address or postcode with coordinates, for a location picker. kind: place, street, address (of the address register, or a fire station''s) or postcode.';

-- cities: positions from the address register where it covers the place.
create or replace function app_public.cities(search text, first integer DEFAULT 10)
 RETURNS SETOF app_public.city
 LANGUAGE sql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
  with term as (select app_hidden.require_search(search, 2) as t),
  found as (
    select n.place_uuid, min(case when n.name = term.t then 0 else 1 end) as rank
      from app_hidden.place_names n, term where n.name like replace(replace(term.t, '%', ''), '_', '\_') || '%'
     group by n.place_uuid
    union all
    select p.uuid, 1 from app_hidden.p2000_place_abbreviations a, term
      join app_public.places p on true
     where lower(a.abbreviation) = term.t and lower(p.name) = lower(a.place_name)
    union all
    select p.uuid, 2 from app_public.places p, term where lower(p.name) % term.t
  ),
  best as (select f.place_uuid, min(f.rank) as rank from found f group by f.place_uuid)
  select p.uuid, p.name,
         case when not exists (select 1 from app_public.places q where lower(q.name) = lower(p.name) and q.uuid <> p.uuid)
                then p.name
              -- two municipalities of one name (Bergen in Noord-Holland and in Limburg): the province too
              when p.municipality is not null and exists (
                     select 1 from app_public.places q
                      where lower(q.name) = lower(p.name) and q.uuid <> p.uuid and q.municipality = p.municipality)
                then p.name || ' (' || p.municipality || ', ' || coalesce(p.province, '?') || ')'
              else p.name || ' (' || coalesce(p.municipality, p.province, '?') || ')' end,
         -- the centroid of the woonplaats's addresses where the address register has it
         p.province, coalesce(w.latitude, p.latitude), coalesce(w.longitude, p.longitude), p.population, p.municipality
    from best b join app_public.places p on p.uuid = b.place_uuid
    left join lateral (select a.latitude, a.longitude from app_hidden.address_woonplaatsen a
                        where a.place_uuid = p.uuid order by a.address_count desc limit 1) w on true, term
   order by b.rank, similarity(lower(p.name), term.t) desc, p.population desc nulls last, p.name
   limit app_hidden.page_limit(first, 50, 10)
$function$;

-- Dispatch-centre abbreviations of towns that pages use (as the ones already known: VLAARD).
insert into app_hidden.p2000_place_abbreviations (abbreviation, place_name)
values ('OUDWTR', 'Oudewater'), ('SGRAVZ', '''s-Gravenzande'), ('VOORB', 'Voorburg')
on conflict do nothing;

-- Related signals take the position's precision into account.
alter table app_hidden.related_signal_windows add column if not exists place_metres integer not null default 3000
  check (place_metres between 0 and 20000);
alter table app_hidden.related_signal_windows add column if not exists road_metres integer not null default 5000
  check (road_metres between 0 and 20000);
comment on column app_hidden.related_signal_windows.place_metres is 'How far traffic incidents and helicopters are looked for around a dossier whose messages are placed only at their place (3,000: the centroid of a town''s addresses lies within a few kilometres of its streets; a village''s much nearer).';
comment on column app_hidden.related_signal_windows.road_metres is 'How far a traffic incident on the road the dossier''s messages name (A28, N33) may lie from the dossier''s position (5,000: a page placed at its place or at a hectometre post still finds the crash on that road near it).';
create or replace function app_public.p2000_dossier_related_signals(d app_public.p2000_dossier)
 RETURNS SETOF app_public.p2000_related_signal
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  with w as (select * from app_hidden.related_signal_windows),
       -- how the dossier's position was found, and the road its messages name: a position that is
       -- only the place's is searched wider, and a crash on the road named counts further away
       placed as (
         select bool_and(m.position_precision = 'place') as at_place_only, max(m.road) as road
           from app_public.p2000_messages m
          where m.dossier_uuid = d.uuid and m.latitude is not null),
       reach as (
         select case when placed.at_place_only then greatest(w.traffic_metres, w.place_metres) else w.traffic_metres end as traffic,
                case when placed.at_place_only then greatest(w.aircraft_metres, w.place_metres) else w.aircraft_metres end as aircraft,
                placed.road
           from w, placed),
       -- the dossier's province: the place of its first message that names one
       province as (
         select mp.uuid, mp.name
           from app_public.p2000_messages m
           join app_public.places p on p.uuid = m.place_uuid
           join app_public.nl_provinces np on np.iso_code = 'NL-' || p.province_code
           join app_public.meteo_provinces mp on mp.code = np.code
          where m.dossier_uuid = d.uuid and m.place_uuid is not null
          order by m.sended limit 1)
  select s.* from (
    select 'traffic_incident', t.uuid, t.sort_at, t.type || coalesce(' on ' || t.road_number, ''), t.latitude, t.longitude,
           round(1000 * app_hidden.distance_km(d.latitude, d.longitude, t.latitude, t.longitude))::int, t.road_number
      from w, reach, app_public.traffic_incidents t
     where t.sort_at >= d.first_sended - w.traffic_before and t.sort_at <= d.last_sended + w.traffic_after
       and 1000 * app_hidden.distance_km(d.latitude, d.longitude, t.latitude, t.longitude)
           <= case when t.road_number = reach.road then greatest(reach.traffic, w.road_metres) else reach.traffic end
    union all
    select 'aircraft_landing', r.uuid, r.landed_at, a.registration || ' (' || a.kind || ') landed',
           r.end_latitude, r.end_longitude,
           round(1000 * app_hidden.distance_km(d.latitude, d.longitude, r.end_latitude, r.end_longitude))::int, null
      from w, reach, app_public.aircraft_routes r join app_public.aircraft_fleet a on a.icao = r.icao
     where r.landed_at >= d.first_sended and r.landed_at <= d.first_sended + w.aircraft_after
       and 1000 * app_hidden.distance_km(d.latitude, d.longitude, r.end_latitude, r.end_longitude) <= reach.aircraft
    union all
    select 'aircraft_takeoff', r.uuid, r.took_off_at, a.registration || ' (' || a.kind || ') took off',
           r.start_latitude, r.start_longitude,
           round(1000 * app_hidden.distance_km(d.latitude, d.longitude, r.start_latitude, r.start_longitude))::int, null
      from w, reach, app_public.aircraft_routes r join app_public.aircraft_fleet a on a.icao = r.icao
     where r.took_off_at >= d.first_sended and r.took_off_at <= d.first_sended + w.aircraft_after
       and 1000 * app_hidden.distance_km(d.latitude, d.longitude, r.start_latitude, r.start_longitude) <= reach.aircraft
    union all
    select 'nl_alert', n.uuid, n.start_at, left(n.message, 500), null::float8, null::float8, 0, null
      from w, app_public.nl_alerts n
     where n.start_at >= d.first_sended - w.nl_alert_longest and n.start_at <= d.last_sended + w.nl_alert_after
       and coalesce(n.stop_at, 'infinity') > d.first_sended
       and exists (select 1 from unnest(n.areas) as a (area) where a.area @> point(d.longitude, d.latitude))
    union all
    -- the warning in force: the province's latest event issued by the first message, if it has a level
    -- and its period covers the incident
    select 'weather_warning', e.uuid, e.issued_at,
           province.name || ': ' || e.level || coalesce(' (' || nullif(array_to_string(e.phenomena, ', '), '') || ')', ''),
           null, null, null, null
      from province
      join lateral (select x.* from app_public.meteo_warning_events x
                     where x.province_uuid = province.uuid and x.issued_at <= d.first_sended
                     order by x.issued_at desc, x.uuid desc limit 1) e on true
     where e.status_code > 0 and coalesce(e.period_from, '-infinity') <= d.last_sended
       and coalesce(e.period_to, 'infinity') > d.first_sended
  ) as s (kind, uuid, at, title, latitude, longitude, distance_metres, road)
  where d.latitude is not null and d.longitude is not null
  order by s.at, s.kind, s.uuid
$function$;

comment on function app_public.p2000_dossier_related_signals(d app_public.p2000_dossier) is '@behavior -queryField +typeField
@notNull
The signals of the other feeds that belong with the dossier, oldest first: traffic incidents near its position around its time (further where its messages are placed only at their place, and further still on the road they name), helicopter landings and take-offs nearby in the hour after its first message, NL-Alerts whose area covers it while it runs, and the weather warning in force in its province. Empty for a dossier without a position. The windows are app_hidden.related_signal_windows.';
