--! Previous: sha1:088af9ba01a456ea54975c5a4161797702a03592
--! Hash: sha1:6311432469e07e9ae5cbb63df78155cb2b3167af
--! Message: P2000 monitors by kind of incident: categories and excludeCategories

-- Issue 45, kinds of incident: a P2000 monitor may name the categories it wants (categories) and
-- those it does not (excludeCategories), by code or name, as p2000Categories lists them.
alter table app_hidden.monitor_query_fields drop constraint if exists monitor_query_fields_kind_check;
alter table app_hidden.monitor_query_fields add constraint monitor_query_fields_kind_check check (kind = any (array[
  'strings', 'capcodes', 'regions', 'disciplines', 'urgencies', 'categories', 'choices', 'urls', 'boolean', 'integer']));
insert into app_hidden.monitor_query_fields (monitor_type, field, kind, required, choices, description) values
  ('p2000', 'categories', 'categories', false, null, 'Kinds of incident by code or name (brand, ongeval, Medisch; p2000Categories): messages of any of them. A message without a category does not match.'),
  ('p2000', 'excludeCategories', 'categories', false, null, 'Kinds of incident by code or name whose messages never match (medisch: no medical calls).')
on conflict (monitor_type, field) do update set kind = excluded.kind, description = excluded.description;

alter table app_hidden.p2000_monitor_criteria
  add column if not exists category_uuids uuid[] not null default '{}',
  add column if not exists exclude_category_uuids uuid[] not null default '{}';


CREATE OR REPLACE FUNCTION app_hidden.validate_monitor_query(monitor_type text, query jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  f app_hidden.monitor_query_fields;
  value jsonb;
  result jsonb := '{}';
  item text;
  items text[];
  unknown text;
begin
  if jsonb_typeof(query) is distinct from 'object' then
    raise exception 'query must be a JSON object.' using errcode = 'XINPT';
  end if;
  select string_agg(k, ', ' order by k) into unknown from jsonb_object_keys(query) k
   where not exists (select 1 from app_hidden.monitor_query_fields q where q.monitor_type = validate_monitor_query.monitor_type and q.field = k);
  if unknown is not null then
    raise exception 'query.%: not a field of % monitors (fields: %).', unknown, monitor_type,
      (select string_agg(q.field, ', ' order by q.field) from app_hidden.monitor_query_fields q where q.monitor_type = validate_monitor_query.monitor_type)
      using errcode = 'XINPT';
  end if;
  for f in select * from app_hidden.monitor_query_fields q where q.monitor_type = validate_monitor_query.monitor_type order by q.field loop
    value := query -> f.field;
    if value is null or value = 'null' then
      if f.required then
        raise exception 'query.% is required for % monitors.', f.field, monitor_type using errcode = 'XINPT';
      end if;
      continue;
    end if;
    if f.kind = 'boolean' then
      if jsonb_typeof(value) <> 'boolean' then
        raise exception 'query.% must be true or false.', f.field using errcode = 'XINPT';
      end if;
      result := result || jsonb_build_object(f.field, value);
      continue;
    end if;
    if f.kind = 'integer' then
      if jsonb_typeof(value) <> 'number' or value::text !~ '^[0-9]{1,5}$' or value::text::integer > 10000 then
        raise exception 'query.% must be a whole number from 0 to 10000.', f.field using errcode = 'XINPT';
      end if;
      result := result || jsonb_build_object(f.field, value);
      continue;
    end if;
    if jsonb_typeof(value) <> 'array' or exists (select 1 from jsonb_array_elements(value) e where jsonb_typeof(e) not in ('string', 'number')) then
      raise exception 'query.% must be a list of strings.', f.field using errcode = 'XINPT';
    end if;
    if jsonb_array_length(value) > 500 then
      raise exception 'query.% has more than 500 entries.', f.field using errcode = 'XINPT';
    end if;
    items := array(select distinct btrim(e) from jsonb_array_elements_text(value) e where btrim(e) <> '' order by 1);
    if f.required and cardinality(items) = 0 then
      raise exception 'query.% needs at least one entry.', f.field using errcode = 'XINPT';
    end if;
    case f.kind
    when 'capcodes' then
      select string_agg(i, ', ') into unknown from unnest(items) i where app_hidden.p2000_normalize_capcode(i) is null;
      items := array(select distinct app_hidden.p2000_normalize_capcode(i) from unnest(items) i order by 1);
    when 'regions' then
      select string_agg(i, ', ') into unknown from unnest(items) i
       where not exists (select 1 from app_public.p2000_regions g where g.number = lpad(i, 2, '0') or g.slug = lower(i));
      items := array(select distinct g.number from unnest(items) i join app_public.p2000_regions g on g.number = lpad(i, 2, '0') or g.slug = lower(i) order by 1);
    when 'disciplines' then
      select string_agg(i, ', ') into unknown from unnest(items) i
       where not exists (select 1 from app_public.p2000_disciplines d where lower(d.name) = lower(i) or d.slug = lower(i));
      items := array(select distinct d.name from unnest(items) i join app_public.p2000_disciplines d on lower(d.name) = lower(i) or d.slug = lower(i) order by 1);
    when 'categories' then
      select string_agg(i, ', ') into unknown from unnest(items) i
       where not exists (select 1 from app_public.p2000_categories k where k.code = lower(i) or lower(k.name) = lower(i));
      items := array(select distinct k.code from unnest(items) i join app_public.p2000_categories k on k.code = lower(i) or lower(k.name) = lower(i) order by 1);
    when 'urgencies' then
      select string_agg(i, ', ') into unknown from unnest(items) i
       where not exists (select 1 from app_public.p2000_urgencies u where u.code = upper(i));
      items := array(select distinct upper(i) from unnest(items) i order by 1);
    when 'choices' then
      select string_agg(i, ', ') into unknown from unnest(items) i where not lower(i) = any (f.choices);
      items := array(select distinct lower(i) from unnest(items) i order by 1);
    when 'urls' then
      select string_agg(i, ', ') into unknown from unnest(items) i where i !~ '^https?://[^\s/?#]+([/?#]\S*)?$';
    when 'strings' then
      if exists (select 1 from unnest(items) i where length(i) > 200) then
        raise exception 'query.%: entries have at most 200 characters.', f.field using errcode = 'XINPT';
      end if;
      if f.field in ('keywords', 'excludeKeywords') then
        items := array(select distinct lower(i) from unnest(items) i order by 1);
      end if;
    end case;
    if unknown is not null then
      raise exception 'query.%: unknown or malformed value(s): %.', f.field, unknown using errcode = 'XINPT';
    end if;
    result := result || jsonb_build_object(f.field, to_jsonb(items));
  end loop;
  return result;
end;
$function$;

CREATE OR REPLACE FUNCTION app_hidden.p2000_criteria(mo app_public.monitors)
 RETURNS app_hidden.p2000_monitor_criteria
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  c app_hidden.p2000_monitor_criteria;
  lat_span integer;
  lon_span integer;
begin
  c.monitor_uuid := mo.uuid;
  c.capcode_names := array(select jsonb_array_elements_text(coalesce(mo.query->'capcodes', '[]')));
  c.region_uuids := array(select g.uuid from app_public.p2000_regions g where g.number in (select jsonb_array_elements_text(coalesce(mo.query->'regions', '[]'))));
  c.discipline_uuids := array(select d.uuid from app_public.p2000_disciplines d where d.name in (select jsonb_array_elements_text(coalesce(mo.query->'disciplines', '[]'))));
  c.urgency_uuids := array(select u.uuid from app_public.p2000_urgencies u where u.code in (select jsonb_array_elements_text(coalesce(mo.query->'urgencies', '[]'))));
  c.keyword_patterns := array(select app_hidden.contains_pattern(k) from jsonb_array_elements_text(coalesce(mo.query->'keywords', '[]')) k);
  c.exclude_patterns := array(select app_hidden.contains_pattern(k) from jsonb_array_elements_text(coalesce(mo.query->'excludeKeywords', '[]')) k);
  c.category_uuids := array(select k.uuid from app_public.p2000_categories k where k.code in (select jsonb_array_elements_text(coalesce(mo.query->'categories', '[]'))));
  c.exclude_category_uuids := array(select k.uuid from app_public.p2000_categories k where k.code in (select jsonb_array_elements_text(coalesce(mo.query->'excludeCategories', '[]'))));
  c.include_exercises := coalesce((mo.query->>'includeExercises')::boolean, false);
  if mo.radius is not null then
    c.latitude := mo.latitude;
    c.longitude := mo.longitude;
    c.radius := mo.radius;
    lat_span := ceil(mo.radius / 111.0 / 0.1);
    lon_span := ceil(mo.radius / (111.0 * greatest(cos(radians(mo.latitude)), 0.01)) / 0.15);
  end if;
  c.anchor_keys := case
    when cardinality(c.capcode_names) > 0 then array(select 'c:' || n from unnest(c.capcode_names) n)
    when c.radius is not null and (2 * lat_span + 1) * (2 * lon_span + 1) <= 400 then array(
      select app_hidden.geo_cell(mo.latitude + dy * 0.1, mo.longitude + dx * 0.15)
        from generate_series(-lat_span, lat_span) dy, generate_series(-lon_span, lon_span) dx)
    when cardinality(c.region_uuids) > 0 then array(select 'r:' || r from unnest(c.region_uuids) r)
    when cardinality(c.category_uuids) > 0 then array(select 'k:' || k from unnest(c.category_uuids) k)
    when cardinality(c.discipline_uuids) > 0 then array(select 'd:' || d from unnest(c.discipline_uuids) d)
    else array['*']
  end;
  return c;
end;
$function$;

CREATE OR REPLACE FUNCTION app_hidden.p2000_criteria_match(c app_hidden.p2000_monitor_criteria, m app_public.p2000_messages)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select (cardinality(c.capcode_names) = 0 or c.capcode_names && m.capcode_names)
     and (cardinality(c.region_uuids) = 0 or m.region_uuid = any (c.region_uuids))
     and (cardinality(c.discipline_uuids) = 0 or m.discipline_uuid = any (c.discipline_uuids))
     and (cardinality(c.urgency_uuids) = 0 or m.urgency_uuid = any (c.urgency_uuids))
     and (cardinality(c.category_uuids) = 0 or m.category_uuid = any (c.category_uuids))
     and (cardinality(c.exclude_category_uuids) = 0 or m.category_uuid is null or m.category_uuid <> all (c.exclude_category_uuids))
     and (c.include_exercises or m.exercise_type = 'none')
     and (c.radius is null or (m.latitude is not null
          and app_hidden.distance_km(c.latitude, c.longitude, m.latitude, m.longitude) <= c.radius))
     and (cardinality(c.keyword_patterns) = 0 or pg_catalog.lower(m.message) like any (c.keyword_patterns))
     and (cardinality(c.exclude_patterns) = 0 or not pg_catalog.lower(m.message) like any (c.exclude_patterns))
$function$;

CREATE OR REPLACE FUNCTION app_private.match_p2000_message(message_uuid uuid)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  m app_public.p2000_messages;
  probe text[];
  matched uuid[];
  queued integer;
begin
  select * into m from app_public.p2000_messages x where x.uuid = match_p2000_message.message_uuid;
  if m.uuid is null then
    return 0;
  end if;
  probe := array['*'] || array(select 'c:' || n from unnest(m.capcode_names) n)
    || case when m.latitude is not null then array[app_hidden.geo_cell(m.latitude, m.longitude)] else '{}' end
    || case when m.region_uuid is not null then array['r:' || m.region_uuid] else '{}' end
    || case when m.category_uuid is not null then array['k:' || m.category_uuid] else '{}' end
    || case when m.discipline_uuid is not null then array['d:' || m.discipline_uuid] else '{}' end;
  -- Candidates by index (anchor keys), then every criterion in full.
  matched := array(
    select c.monitor_uuid from app_hidden.p2000_monitor_criteria c
     where c.anchor_keys && probe
       and app_hidden.p2000_criteria_match(c, m)
       and not exists (select 1 from app_hidden.monitor_matches mm where mm.monitor_uuid = c.monitor_uuid and mm.message_uuid = m.uuid)
     order by c.monitor_uuid);
  if cardinality(matched) = 0 then
    return 0;
  end if;
  -- Throttles count earlier matches of the same monitor: one matcher per such monitor at a time,
  -- locked in a statement of its own so the next statement's snapshot sees what the last holder
  -- committed.
  perform pg_advisory_xact_lock(hashtext('monitor:' || mo.uuid))
     from app_public.monitors mo where mo.uuid = any (matched) and mo.notification_rules <> '{}' order by mo.uuid;
  with new_matches as (
    insert into app_hidden.monitor_matches (monitor_uuid, message_uuid, dossier_uuid, sended, suppressed_reason)
    select mo.uuid, m.uuid, m.dossier_uuid, m.sended,
           case when mo.notification_rules <> '{}' then app_hidden.monitor_suppression(mo, m) end
      from app_public.monitors mo where mo.uuid = any (matched)
    on conflict do nothing
    returning monitor_uuid, suppressed_reason
  ), new_notifications as (
    insert into app_private.notifications (monitor_uuid, channel_uuid, message_uuid, dossier_uuid)
    select nm.monitor_uuid, mc.channel_uuid, m.uuid, m.dossier_uuid
      from new_matches nm join app_hidden.monitor_channels mc on mc.monitor_uuid = nm.monitor_uuid
     where nm.suppressed_reason is null
    on conflict do nothing
    returning uuid
  )
  select count(*)::integer into queued from graphile_worker.add_jobs(array(
    select row('notifications__deliver', json_build_object('uuid', n.uuid), null, null, 6, 'notification:' || n.uuid, null, null)::graphile_worker.job_spec
      from new_notifications n));
  return queued;
end;
$function$;

comment on function app_hidden.p2000_criteria(mo app_public.monitors) is 'A P2000 monitor in matchable form, saved or not and active or not. Its trigger stores this in p2000_monitor_criteria, and monitorPreview uses it for an unsaved monitor. anchor_keys are the keys of its most selective criterion (capcodes, else the grid cells its circle touches, else regions, else categories, else disciplines, else ''*''): a message finds candidate monitors by its own keys through the GIN index.';
