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
  source text not null check (source in ('import', 'shipped'))
);
create index if not exists address_streets_place_idx on app_hidden.address_streets (place_uuid, street_key);
create index if not exists address_streets_place_key_idx on app_hidden.address_streets (place_key, street_key);
create index if not exists address_streets_municipality_idx on app_hidden.address_streets (app_hidden.street_place_key(municipality), street_key);
create index if not exists address_streets_key_pattern_idx on app_hidden.address_streets (street_key text_pattern_ops);
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
