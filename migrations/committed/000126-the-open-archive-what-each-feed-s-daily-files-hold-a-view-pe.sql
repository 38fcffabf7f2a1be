--! Previous: sha1:cdf5ac4b0748f5f537c95833ea0f7b294715e376
--! Hash: sha1:f18dbb25036817a39146c894710bfa095e56baf6
--! Message: The open archive: what each feed's daily files hold, a view per feed

-- The open archive (issue 50, docs/open-data.md, docs/archive-columns.md): what each feed's daily
-- files hold, one view per feed in app_private. The worker (tasks/archive__publish.ts) reads a
-- day's rows from a view through a cursor, and the files' columns are the view's, in its order and
-- with its types. Public columns only: nothing of users, monitors, channels or responders, and of
-- an AMBER alert not the child's name, description or picture (they are cleared once it ends too).
-- Each view's first column is the moment that places a row in a Dutch calendar day.
-- Lists are written as text joined with ';' so that a CSV cell holds them.

drop view if exists app_private.archive_p2000_messages;
create view app_private.archive_p2000_messages as
select m.sended as sent,
       m.uuid::text as id,
       m.message,
       app_hidden.p2000_plain_text(m, 'nl') as plain_text_nl,
       app_hidden.p2000_plain_text(m, 'en') as plain_text_en,
       r.code as region_code,
       r.name as region_name,
       d.name as discipline,
       u.code as urgency_code,
       u.name as urgency_name,
       c.code as category_code,
       c.name as category_name,
       m.grip_level::integer as grip_level,
       m.exercise_type,
       m.incident_number,
       m.street,
       m.postcode,
       m.city,
       p.name as place,
       p.municipality,
       p.province,
       m.latitude,
       m.longitude,
       m.position_precision,
       m.road,
       m.hectometer as hectometre,
       m.carriageway,
       array_to_string(m.capcode_names, ';') as capcodes,
       m.dossier_uuid::text as dossier_id
  from app_public.p2000_messages m
  left join app_public.p2000_regions r on r.uuid = m.region_uuid
  left join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
  left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
  left join app_public.p2000_categories c on c.uuid = m.category_uuid
  left join app_public.places p on p.uuid = m.place_uuid;
comment on view app_private.archive_p2000_messages is 'The open archive''s p2000-messages files: each P2000 page with its enrichment and plain words (docs/archive-columns.md), placed in a day by sent.';

drop view if exists app_private.archive_p2000_dossiers;
create view app_private.archive_p2000_dossiers as
select x.first_sended as first_sent,
       x.uuid::text as id,
       x.last_sended as last_sent,
       x.message_count,
       x.title,
       r.code as region_code,
       r.name as region_name,
       d.name as discipline,
       u.code as urgency_code,
       c.code as category_code,
       c.name as category_name,
       x.grip_level::integer as grip_level,
       x.exercise_type,
       x.incident_number,
       x.street,
       x.city,
       x.latitude,
       x.longitude
  from app_public.p2000_dossiers x
  left join app_public.p2000_regions r on r.uuid = x.region_uuid
  left join app_public.p2000_disciplines d on d.uuid = x.discipline_uuid
  left join app_public.p2000_urgencies u on u.uuid = x.urgency_uuid
  left join app_public.p2000_categories c on c.uuid = x.category_uuid;
comment on view app_private.archive_p2000_dossiers is 'The open archive''s p2000-dossiers files: each incident (the P2000 pages about it, grouped), placed in a day by its first page.';

drop view if exists app_private.archive_traffic_incidents;
create view app_private.archive_traffic_incidents as
select t.sort_at as began_at,
       t.uuid::text as id,
       t.record_id,
       t.situation_id,
       t.version,
       t.type,
       t.severity,
       t.validity_status,
       t.start_at,
       t.end_at,
       t.first_seen_at,
       t.closed_at,
       t.road_number,
       t.latitude,
       t.longitude,
       t.lanes_restricted,
       t.comment
  from app_public.traffic_incidents t;
comment on view app_private.archive_traffic_incidents is 'The open archive''s traffic-incidents files: accidents and broken-down or abandoned vehicles (NDW), placed in a day by when they began (or were first seen).';

drop view if exists app_private.archive_weather_warnings;
create view app_private.archive_weather_warnings as
select e.issued_at,
       e.uuid::text as id,
       p.code as province_code,
       p.name as province_name,
       e.level,
       e.status_code,
       e.previous_level,
       array_to_string(e.phenomena, ';') as phenomena,
       array_to_string(e.previous_phenomena, ';') as previous_phenomena,
       e.period_from,
       e.period_to
  from app_public.meteo_warning_events e
  join app_public.meteo_provinces p on p.uuid = e.province_uuid;
comment on view app_private.archive_weather_warnings is 'The open archive''s weather-warnings files: each change of a province''s KNMI warning level, placed in a day by the issue hour of the document that announced it.';

drop view if exists app_private.archive_nl_alerts;
create view app_private.archive_nl_alerts as
select a.start_at,
       a.alert_id as id,
       a.stop_at,
       a.message,
       array_to_string(a.area_texts, ';') as area_texts,
       array_to_string(a.region_numbers, ';') as region_numbers,
       a.resource_uri,
       a.first_seen_at
  from app_public.nl_alerts a;
comment on view app_private.archive_nl_alerts is 'The open archive''s nl-alerts files: each NL-Alert as the government sent it (the areas as their texts and safety regions, not their polygons), placed in a day by its start.';

drop view if exists app_private.archive_amber_alerts;
create view app_private.archive_amber_alerts as
select a.started_at,
       a.alert_id as id,
       a.ended_at,
       a.level,
       array_to_string(a.province_codes, ';') as province_codes,
       a.first_seen_at
  from app_public.amber_alerts a;
comment on view app_private.archive_amber_alerts is 'The open archive''s amber-alerts files: when each AMBER or missing-child alert ran, its level and provinces. Never the child''s name, description or picture: personal, and cleared once the alert ends.';

drop view if exists app_private.archive_helicopter_flights;
create view app_private.archive_helicopter_flights as
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
       r.start_latitude,
       r.start_longitude,
       r.start_place,
       r.end_latitude,
       r.end_longitude,
       r.end_place,
       r.point_count
  from app_public.aircraft_routes r
  join app_public.aircraft_fleet f on f.icao = r.icao;
comment on view app_private.archive_helicopter_flights is 'The open archive''s helicopter-flights files: each route of a tracked trauma or police helicopter, placed in a day by when it was first seen.';

-- A day's routes by when they were first seen (the archive's one read of them by that time).
create index if not exists aircraft_routes_first_seen_idx on app_public.aircraft_routes (first_seen_at);
