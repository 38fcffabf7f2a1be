--! Previous: sha1:a8f6d2eff59a29d3507c1559e443236720926a02
--! Hash: sha1:25886668b4bbd9b4b60f07f9893fef5773ec89c3
--! Message: OGC API Features: the public feeds with a place as feature collections, paged by key

-- OGC API – Features (issue 50, docs/open-data.md, lib/open-data/ogc/): the public feeds with a
-- place as feature collections, read by the authenticator (which reads no table) through one
-- SECURITY DEFINER function that returns each feature as GeoJSON, public columns only.
-- Paging is by key (the collection's time, then its id), never by OFFSET: a page deep in ten
-- million incidents costs what the first one does. The indexes below fit the filters: a page of
-- placed incidents in time order, and a box (with a time range) through GiST.

-- Incidents with a position, newest first: the collection's order and its keyset paging.
create index if not exists p2000_dossiers_placed_idx on app_public.p2000_dossiers (first_sended desc, uuid)
  where latitude is not null and longitude is not null;
-- A box, and a time range with it, over the placed incidents (btree_gist gives the time column's class).
create index if not exists p2000_dossiers_position_idx on app_public.p2000_dossiers
  using gist (point(longitude, latitude), first_sended)
  where latitude is not null and longitude is not null;
create index if not exists traffic_incidents_position_idx on app_public.traffic_incidents
  using gist (point(longitude, latitude), sort_at)
  where latitude is not null and longitude is not null;

drop function if exists app_private.ogc_polygons_coordinates(polygon[]);
create function app_private.ogc_polygons_coordinates(shapes polygon[]) returns jsonb
  language sql immutable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_array(ring.points) order by s.n), '[]'::jsonb)
    from unnest(shapes) with ordinality as s (shape, n)
   cross join lateral (
     -- A polygon's text is ((x,y),(x,y),…); GeoJSON closes a ring by repeating its first point.
     select jsonb_agg(jsonb_build_array(p.xy[1]::double precision, p.xy[2]::double precision) order by p.k)
            || jsonb_build_array((select jsonb_build_array(f[1]::double precision, f[2]::double precision)
                                    from regexp_match(s.shape::text, '\(([^(),]+),([^(),]+)\)') f)) as points
       from regexp_matches(s.shape::text, '\(([^(),]+),([^(),]+)\)', 'g') with ordinality as p (xy, k)
   ) ring;
$$;
comment on function app_private.ogc_polygons_coordinates(polygon[]) is 'PostgreSQL polygons (x = longitude, y = latitude, as nl_alerts.areas holds them) as the coordinates of a GeoJSON MultiPolygon, each a closed outer ring, for the OGC API''s nl-alerts collection (app_private.ogc_features).';

drop function if exists app_private.ogc_features(text, text, box, timestamptz, timestamptz, timestamptz, text, boolean, integer);
create function app_private.ogc_features(
  collection text,
  feature_id text default null,
  bbox box default null,
  time_from timestamptz default null,
  time_to timestamptz default null,
  after_time timestamptz default null,
  after_id text default null,
  backwards boolean default false,
  max_rows integer default 10
) returns table (sort_time text, sort_id text, feature jsonb)
  language plpgsql stable security definer
  set search_path to pg_catalog, public, pg_temp
  -- Times in the features as RFC 3339 in UTC, whatever the caller's time zone.
  set timezone to 'UTC'
  -- The planner takes a box to hold few rows (a fixed guess): a bitmap scan would then fetch all
  -- the rows a large box holds to sort them. The index scans below give the order themselves.
  set enable_bitmapscan to off
  -- For the same reason it would sort them all rather than sort each run of equal times as the
  -- index gives them (incremental sort), which a LIMIT stops early.
  set enable_sort to off
as $$
declare
  source text;          -- the from clause
  kept text;            -- the rows every request keeps (those with a place)
  time_col text;        -- the order's first key, indexed; null: a collection without time
  id_col text;          -- the order's second key and the feature's id
  id_type text;         -- the id column's type, so its index is used
  starts text;          -- when a feature's time begins and ends (the datetime filter intersects)
  ends text;
  time_bounds text;     -- index ranges the datetime filter implies, for collections with intervals
  in_box text;          -- the bbox filter ($1)
  shape text;           -- the GeoJSON geometry
  props text;           -- the GeoJSON properties
  knn boolean := false; -- a GiST index on (position, time) can walk a box in time order
  ordering text;
  conditions text[];
  direction text := case when backwards then 'asc' else 'desc' end;
  id_direction text := case when backwards then 'desc' else 'asc' end;
begin
  case collection
  when 'p2000-incidents' then
    source := 'app_public.p2000_dossiers x
               left join app_public.p2000_regions r on r.uuid = x.region_uuid
               left join app_public.p2000_disciplines d on d.uuid = x.discipline_uuid
               left join app_public.p2000_urgencies u on u.uuid = x.urgency_uuid
               left join app_public.p2000_categories c on c.uuid = x.category_uuid
';
    kept := 'x.latitude is not null and x.longitude is not null';
    time_col := 'x.first_sended'; id_col := 'x.uuid'; id_type := 'uuid';
    starts := time_col; ends := time_col; time_bounds := null;
    in_box := 'point(x.longitude, x.latitude) <@ $1'; knn := true;
    shape := 'jsonb_build_object(''type'', ''Point'', ''coordinates'', jsonb_build_array(x.longitude, x.latitude))';
    props := 'jsonb_build_object(''title'', x.title, ''first_sent'', x.first_sended, ''last_sent'', x.last_sended,
               ''message_count'', x.message_count, ''region_code'', r.code, ''region_name'', r.name,
               ''discipline'', d.name, ''urgency_code'', u.code, ''urgency_name'', u.name,
               ''category_code'', c.code, ''category_name'', c.name, ''grip_level'', x.grip_level,
               ''exercise_type'', x.exercise_type, ''incident_number'', x.incident_number,
               ''street'', x.street, ''city'', x.city)';
  when 'traffic-incidents' then
    source := 'app_public.traffic_incidents t';
    kept := 't.latitude is not null and t.longitude is not null';
    time_col := 't.sort_at'; id_col := 't.uuid'; id_type := 'uuid';
    starts := time_col; ends := time_col; time_bounds := null;
    in_box := 'point(t.longitude, t.latitude) <@ $1'; knn := true;
    shape := 'jsonb_build_object(''type'', ''Point'', ''coordinates'', jsonb_build_array(t.longitude, t.latitude))';
    props := 'jsonb_build_object(''type'', t.type, ''severity'', t.severity, ''validity_status'', t.validity_status,
               ''began_at'', t.sort_at, ''start_at'', t.start_at, ''end_at'', t.end_at,
               ''first_seen_at'', t.first_seen_at, ''closed_at'', t.closed_at, ''road_number'', t.road_number,
               ''lanes_restricted'', t.lanes_restricted, ''comment'', t.comment,
               ''situation_id'', t.situation_id, ''record_id'', t.record_id, ''version'', t.version)';
  when 'weather-warnings' then
    source := 'app_public.meteo_warning_events e
               join app_public.meteo_provinces p on p.uuid = e.province_uuid
               join app_public.nl_provinces np on np.code = p.code';
    kept := 'true';
    time_col := 'e.issued_at'; id_col := 'e.uuid'; id_type := 'uuid';
    starts := 'coalesce(e.period_from, e.issued_at)'; ends := 'coalesce(e.period_to, e.issued_at)';
    -- A warned period begins at or after its document's issue hour and ends within the document's
    -- 48 hours (lib/feeds/meteo/warnings-parser.ts): bounds on the indexed issue hour, with room.
    time_bounds := 'e.issued_at <= $3 and e.issued_at >= $2 - interval ''3 days''';
    in_box := 'p.code in (select a.code from app_public.named_areas a
                           where a.kind = ''province'' and a.bounds && $1 and a.outline && polygon($1))';
    shape := 'np.boundary';
    props := 'jsonb_build_object(''province_code'', p.code, ''province_name'', np.name, ''level'', e.level,
               ''previous_level'', e.previous_level, ''phenomena'', to_jsonb(e.phenomena),
               ''previous_phenomena'', to_jsonb(e.previous_phenomena), ''period_from'', e.period_from,
               ''period_to'', e.period_to, ''issued_at'', e.issued_at)';
  when 'nl-alerts' then
    source := 'app_public.nl_alerts a';
    kept := 'cardinality(a.areas) > 0';
    time_col := 'a.start_at'; id_col := 'a.uuid'; id_type := 'uuid';
    starts := 'a.start_at'; ends := 'coalesce(a.stop_at, ''infinity'')';
    time_bounds := 'a.start_at <= $3';
    in_box := 'exists (select 1 from unnest(a.areas) g where g && polygon($1))';
    shape := 'jsonb_build_object(''type'', ''MultiPolygon'', ''coordinates'', app_private.ogc_polygons_coordinates(a.areas))';
    props := 'jsonb_build_object(''alert_id'', a.alert_id, ''message'', a.message, ''start_at'', a.start_at,
               ''stop_at'', a.stop_at, ''area_texts'', to_jsonb(a.area_texts),
               ''region_numbers'', to_jsonb(a.region_numbers), ''resource_uri'', a.resource_uri)';
  when 'fire-stations' then
    source := 'app_public.fire_stations f left join app_public.p2000_regions r on r.uuid = f.region_uuid';
    kept := 'f.latitude is not null and f.longitude is not null';
    -- No time of their own: ordered by when they were listed, and no datetime matches them.
    time_col := 'f.created'; id_col := 'f.slug'; id_type := 'text';
    starts := null; ends := null; time_bounds := null;
    in_box := 'point(f.longitude, f.latitude) <@ $1';
    shape := 'jsonb_build_object(''type'', ''Point'', ''coordinates'', jsonb_build_array(f.longitude, f.latitude))';
    props := 'jsonb_build_object(''name'', f.name, ''post_number'', f.post_number, ''region_code'', r.code,
               ''region_name'', r.name, ''street'', f.street, ''house_number'', f.house_number,
               ''zip_code'', f.zip_code, ''city'', f.city)';
  else
    raise exception 'There is no collection "%".', left(collection, 50) using errcode = 'XNOTF';
  end case;

  conditions := array[kept];
  if feature_id is not null then
    conditions := conditions || format('%s = $7::%s', id_col, id_type);
  end if;
  if bbox is not null then
    conditions := conditions || in_box;
  end if;
  if time_from is not null or time_to is not null then
    if starts is null then
      conditions := conditions || 'false'::text;
    else
      if time_to is not null then conditions := conditions || format('%s <= $3', starts); end if;
      if time_from is not null then conditions := conditions || format('%s >= $2', ends); end if;
      -- The implied index range holds only with both ends; an open end leaves the order's index to it.
      if time_bounds is not null and time_from is not null and time_to is not null then
        conditions := conditions || time_bounds;
      elsif time_bounds is not null and time_to is not null then
        conditions := conditions || format('%s <= $3', time_col);
      end if;
    end if;
  end if;
  if after_time is not null then
    -- The order is time descending, id ascending (the existing indexes' order); the plain bound
    -- on the time is the index range, the rest breaks ties.
    conditions := conditions || case when backwards
      then format('%1$s >= $4 and (%1$s > $4 or %2$s < $5::%3$s)', time_col, id_col, id_type)
      else format('%1$s <= $4 and (%1$s < $4 or %2$s > $5::%3$s)', time_col, id_col, id_type) end;
  end if;

  ordering := format('%s %s, %s %s', time_col, direction, id_col, id_direction);
  if feature_id is not null then
    ordering := 'true'; -- one row by its key: no order to keep (and no sort the settings above would refuse)
  elsif bbox is not null and knn then
    -- Within a box the GiST index gives the rows in order of their distance in time from an end
    -- beyond all of them (btree_gist's <->): the newest first, or after a key backwards the oldest,
    -- however many or few the box holds. The btree order with the box as a filter would read the
    -- whole history for a box with few incidents.
    ordering := format('%s <-> %s, %s %s', time_col,
      case when backwards then '$4' else 'coalesce(least($4, $3), now() + interval ''100 years'')' end,
      id_col, id_direction);
  end if;

  return query execute format(
    'select to_char(%1$s, ''YYYY-MM-DD"T"HH24:MI:SS.US"Z"''), %2$s::text,
            jsonb_build_object(''type'', ''Feature'', ''id'', %2$s::text, ''geometry'', %3$s, ''properties'', %4$s)
       from %5$s
      where %6$s
      order by %7$s
      limit $6',
    time_col, id_col, shape, props, source, array_to_string(conditions, ' and '), ordering)
    using bbox, time_from, time_to, after_time, after_id, max_rows, feature_id;
end;
$$;
comment on function app_private.ogc_features(text, text, box, timestamptz, timestamptz, timestamptz, text, boolean, integer) is 'The features of an OGC API – Features collection (lib/open-data/ogc/, docs/open-data.md) as GeoJSON Features, public columns only: p2000-incidents (P2000 dossiers with a position), traffic-incidents (NDW, with a position), weather-warnings (each change of a province''s KNMI warning, the province''s boundary as its shape), nl-alerts (their areas) and fire-stations. One feature by feature_id, or a page: within bbox (longitude/latitude), whose time meets [time_from, time_to], after (or, backwards, before) the key after_time/after_id, at most max_rows, in the order time descending then id ascending, with each row''s key (sort_time, sort_id) for the next page''s link. Called by the authenticator, which reads no table, hence SECURITY DEFINER; the SQL it runs is built from the fixed fragments above only, every value a parameter.';
grant execute on function app_private.ogc_features(text, text, box, timestamptz, timestamptz, timestamptz, text, boolean, integer) to app_authenticator;

drop function if exists app_private.ogc_collection_times();
create function app_private.ogc_collection_times()
  returns table (collection text, first_time timestamptz, last_time timestamptz)
  language sql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  -- Each is an end of an index (the placed incidents', the traffic order's, the warnings' issue hour,
  -- the alerts' start), so the collections' metadata costs a few index probes however long the history.
  select 'p2000-incidents',
         (select min(x.first_sended) from app_public.p2000_dossiers x where x.latitude is not null and x.longitude is not null),
         (select max(x.first_sended) from app_public.p2000_dossiers x where x.latitude is not null and x.longitude is not null)
  union all
  select 'traffic-incidents', (select min(t.sort_at) from app_public.traffic_incidents t),
         (select max(t.sort_at) from app_public.traffic_incidents t)
  union all
  select 'weather-warnings', (select min(e.issued_at) from app_public.meteo_warning_events e),
         (select max(e.issued_at) from app_public.meteo_warning_events e)
  union all
  select 'nl-alerts', (select min(a.start_at) from app_public.nl_alerts a),
         (select max(a.start_at) from app_public.nl_alerts a);
$$;
comment on function app_private.ogc_collection_times() is 'The first and last time of each OGC API collection that has time (lib/open-data/ogc/), its temporal extent: when the first and the newest feature began. Read from index ends only. Called by the authenticator, which reads no table, hence SECURITY DEFINER.';
grant execute on function app_private.ogc_collection_times() to app_authenticator;
