--! Previous: sha1:28532ac552853e4a47a06d8e007d93d713a68e73
--! Hash: sha1:3e50f319ef49b6c7b69b9d65fbc5a8b9077fc2c5
--! Message: Traffic incident facts with their type label

-- traffic_incident_facts with its type's label. A view over one table is printed by PostgreSQL 15
-- with its columns qualified and by 16 and later without, so sql/schema.sql differed between the
-- versions; joined to the type's label (a column analysts want anyway) it prints the same on both.
create or replace view app_public.traffic_incident_facts with (security_invoker = true, security_barrier = true) as
select t.uuid,
       t.type,
       t.severity,
       t.road_number as road,
       t.sort_at as started_at,
       t.closed_at as ended_at,
       (t.sort_at at time zone 'Europe/Amsterdam')::date as started_day,
       date_trunc('month', t.sort_at at time zone 'Europe/Amsterdam')::date as started_month,
       (extract(epoch from t.closed_at - t.sort_at) / 60)::float8 as duration_minutes,
       y.label as type_label
  from app_public.traffic_incidents t
  left join app_public.traffic_incident_types y on y.value = t.type;
comment on column app_public.traffic_incident_facts.type_label is 'The incident type as people read it (trafficIncidentTypes labels).';
