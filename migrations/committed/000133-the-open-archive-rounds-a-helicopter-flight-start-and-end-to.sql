--! Previous: sha1:147df1283c2428da89755c7688595cccc1794dc7
--! Hash: sha1:68fcd5b76d7ed2a06978f1169ccd98a77ecf2988
--! Message: The open archive rounds a helicopter flight start and end to 1 km

-- The open archive's helicopter flights with their start and end rounded to 2 decimals (about
-- 1 km): a trauma helicopter's landing can be a patient's address, which OGC API – Features
-- leaves out for that reason (docs/open-data.md). The place names stay; the columns and their
-- types stay, so files written before and after read alike.
create or replace view app_private.archive_helicopter_flights as
select r.first_seen_at,
       r.uuid::text as id,
       f.registration,
       f.kind,
       f.callsign,
       f.type as aircraft_type,
       f.operator,
       f.base,
       r.icao,
       r.status,
       r.took_off_at,
       r.landed_at,
       r.last_seen_at,
       round(r.start_latitude::numeric, 2)::double precision as start_latitude,
       round(r.start_longitude::numeric, 2)::double precision as start_longitude,
       r.start_place,
       round(r.end_latitude::numeric, 2)::double precision as end_latitude,
       round(r.end_longitude::numeric, 2)::double precision as end_longitude,
       r.end_place,
       r.point_count
  from app_public.aircraft_routes r
  join app_public.aircraft_fleet f on f.icao = r.icao;
comment on view app_private.archive_helicopter_flights is 'The open archive''s helicopter-flights files: each route of a tracked trauma or police helicopter, placed in a day by when it was first seen; its start and end rounded to 2 decimals (about 1 km), since a landing can be a patient''s address.';
