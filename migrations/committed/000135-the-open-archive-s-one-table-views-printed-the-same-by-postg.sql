--! Previous: sha1:64b68381012a9af42b9ab9e126dcda60e95621ba
--! Hash: sha1:d7fd323473aacacc4b6601610b32aa7a6e111e2a
--! Message: The open archive s one-table views printed the same by PostgreSQL 15 and 18

-- The open archive's three views over one table each, given a second (empty) relation: PostgreSQL 16
-- and later print a one-table view's columns unqualified, 15 qualifies them, and sql/schema.sql is
-- compared with the dump on both (test/schema-artifacts.test.ts). With two relations every version
-- prints the same text. The views' columns, rows and comments are unchanged.

create or replace view app_private.archive_amber_alerts as
select a.started_at,
       a.alert_id as id,
       a.ended_at,
       a.level,
       array_to_string(a.province_codes, ';') as province_codes,
       a.first_seen_at
  from app_public.amber_alerts a
       cross join lateral (select) as same_text_on_every_version;

create or replace view app_private.archive_nl_alerts as
select a.start_at,
       a.alert_id as id,
       a.stop_at,
       a.message,
       array_to_string(a.area_texts, ';') as area_texts,
       array_to_string(a.region_numbers, ';') as region_numbers,
       a.resource_uri,
       a.first_seen_at
  from app_public.nl_alerts a
       cross join lateral (select) as same_text_on_every_version;

create or replace view app_private.archive_traffic_incidents as
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
  from app_public.traffic_incidents t
       cross join lateral (select) as same_text_on_every_version;
