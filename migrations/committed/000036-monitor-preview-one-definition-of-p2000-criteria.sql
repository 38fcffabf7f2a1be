--! Previous: sha1:cc33e779274b60e13938115731fe6524d0abd14a
--! Hash: sha1:eeb51c74126112dd166b0c6ac28e803fc35c60f2
--! Message: monitorPreview: a P2000 monitor's matches and notifications over stored history, through one definition of its criteria (checked input, criteria row, inlinable match with keyword LIKE patterns) and its notification rules shared with live matching

-- monitorPreview (issue #18): what a P2000 monitor would have matched over the last days of stored
-- history, with the same definitions as live matching rather than copies of them:
-- - app_hidden.checked_monitor: createMonitor's and updateMonitor's checks of the input, without
--   the write, so a preview accepts and refuses exactly what createMonitor does;
-- - app_hidden.p2000_criteria: a monitor's matchable form, for the criteria table (trigger) and
--   for an unsaved monitor;
-- - app_hidden.p2000_criteria_match: one message against one criteria row, inlinable, for
--   app_private.match_p2000_message and the preview alike;
-- - the notification rules split by what they need: p2000_message_suppression (quiet hours at a
--   given moment, minUrgency: the message alone) and p2000_throttle_suppression (maxPerDossier,
--   maxPerPeriod: counts of earlier notifications, which live matching takes from
--   monitor_matches and the preview from its own earlier matches).
-- Re-runnable while it is current.sql.
drop function if exists app_hidden.monitor_preview(integer, boolean, text, text, boolean, text, text, double precision,
  double precision, text, text, double precision, text, text);
drop function if exists app_hidden.checked_monitor(uuid, app_public.monitors, boolean, text, text, boolean, text, text,
  double precision, double precision, text, text, double precision, text, text);
drop function if exists app_hidden.p2000_criteria(app_public.monitors);
drop function if exists app_hidden.p2000_criteria_match(app_hidden.p2000_monitor_criteria, app_public.p2000_messages);
drop function if exists app_hidden.p2000_message_suppression(jsonb, app_public.p2000_messages, timestamptz);
drop function if exists app_hidden.p2000_throttle_suppression(jsonb, boolean, bigint, bigint);
drop function if exists app_hidden.in_quiet_hours(jsonb, timestamptz);
drop function if exists app_hidden.contains_pattern(text);

--------------------------------------------------------------------------------------------------
-- The monitor an input describes.

-- createMonitor, updateMonitor and monitorPreview: the monitor the arguments describe on top of
-- `existing` (a row with a null uuid for a new monitor, which starts from the defaults), every
-- field checked, and the uuids of its channels (null when not given). Writes nothing; the
-- arguments left null keep their value (the *_given flag tells "clear the location" from "not
-- given").
create function app_hidden.checked_monitor(environment uuid, existing app_public.monitors, location_given boolean, name text,
  description text, active boolean, type text, query text, latitude double precision, longitude double precision,
  location_mode text, location_live_source_id text, radius double precision, channels text, notification_rules text,
  out monitor app_public.monitors, out channel_uuids uuid[])
  language plpgsql stable
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  is_new boolean := existing.uuid is null;
  m app_public.monitors := existing;
begin
  if is_new then
    m.environment_uuid := environment;
    m.active := true;
    m.type := 'p2000';
    m.query := '{}';
    m.location_mode := 'fixed';
    m.notification_rules := '{}';
  end if;
  if name is not null or is_new then
    if name is null or length(btrim(name)) not between 1 and 200 then
      raise exception 'name must have 1 to 200 characters.' using errcode = 'XINPT';
    end if;
    m.name := btrim(name);
  end if;
  if description is not null then
    if length(description) > 2000 then
      raise exception 'description has at most 2000 characters.' using errcode = 'XINPT';
    end if;
    m.description := nullif(btrim(description), '');
  end if;
  m.active := coalesce(active, m.active);
  if type is not null then
    if not exists (select 1 from app_public.monitor_types t where t.name = checked_monitor.type) then
      raise exception 'type must be one of: %.', (select string_agg(t.name, ', ' order by t.name) from app_public.monitor_types t)
        using errcode = 'XINPT';
    end if;
    m.type := checked_monitor.type;
  end if;
  if query is not null then
    m.query := app_hidden.parse_json_input(query, 'query');
  end if;
  m.query := app_hidden.validate_monitor_query(m.type, m.query);
  if location_given then
    if (latitude is null) <> (longitude is null) or latitude not between -90 and 90 or longitude not between -180 and 180 then
      raise exception 'location needs a latitude (-90..90) and a longitude (-180..180).' using errcode = 'XINPT';
    end if;
    m.latitude := latitude;
    m.longitude := longitude;
    if latitude is null then
      m.radius := null;
    end if;
  end if;
  if location_mode is not null then
    if location_mode not in ('fixed', 'live') then
      raise exception 'locationMode must be fixed or live.' using errcode = 'XINPT';
    end if;
    m.location_mode := location_mode;
  end if;
  if location_live_source_id is not null then
    m.location_live_source_id := nullif(left(btrim(location_live_source_id), 200), '');
  end if;
  if radius is not null then
    if radius <= 0 or radius > 250 then
      raise exception 'radius is in kilometres, more than 0 and at most 250.' using errcode = 'XINPT';
    end if;
    m.radius := radius;
  end if;
  if m.radius is not null and m.latitude is null then
    raise exception 'radius needs a location.' using errcode = 'XINPT';
  end if;
  if notification_rules is not null then
    m.notification_rules := app_hidden.validate_notification_rules(app_hidden.parse_json_input(notification_rules, 'notificationRules'));
  end if;
  if channels is not null then
    channel_uuids := app_hidden.monitor_channel_uuids(app_hidden.parse_json_input(channels, 'channels'), environment);
  end if;
  monitor := m;
end;
$$;

-- createMonitor (monitor_uuid null) and updateMonitor: the checks above, then the write.
create or replace function app_accounts.save_monitor(monitor_uuid text, location_given boolean, name text, description text,
  active boolean, type text, query text, latitude double precision, longitude double precision, location_mode text,
  location_live_source_id text, radius double precision, channels text, notification_rules text) returns uuid
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  m app_public.monitors;
  checked record;
begin
  if monitor_uuid is null then
    if (select count(*) from app_public.monitors x where x.environment_uuid = environment) >= 1000 then
      raise exception 'An environment has at most 1000 monitors.' using errcode = 'XINPT';
    end if;
  else
    select * into m from app_public.monitors x where x.uuid = app_hidden.try_uuid(monitor_uuid) and x.environment_uuid = environment
      for update;
    if m.uuid is null then
      raise exception 'Monitor not found.' using errcode = 'XNOTF';
    end if;
  end if;
  checked := app_hidden.checked_monitor(environment, m, location_given, name, description, active, type, query, latitude,
    longitude, location_mode, location_live_source_id, radius, channels, notification_rules);
  m := checked.monitor;
  if monitor_uuid is null then
    insert into app_public.monitors (environment_uuid, name, description, active, type, query, latitude, longitude,
        location_mode, location_live_source_id, radius, notification_rules)
    values (m.environment_uuid, m.name, m.description, m.active, m.type, m.query, m.latitude, m.longitude,
        m.location_mode, m.location_live_source_id, m.radius, m.notification_rules)
    returning * into m;
  else
    update app_public.monitors x set name = m.name, description = m.description, active = m.active, type = m.type,
        query = m.query, latitude = m.latitude, longitude = m.longitude, location_mode = m.location_mode,
        location_live_source_id = m.location_live_source_id, radius = m.radius, notification_rules = m.notification_rules
     where x.uuid = m.uuid;
  end if;
  if checked.channel_uuids is not null then
    delete from app_hidden.monitor_channels mc where mc.monitor_uuid = m.uuid and mc.channel_uuid <> all (checked.channel_uuids);
    insert into app_hidden.monitor_channels (monitor_uuid, channel_uuid)
    select m.uuid, c from unnest(checked.channel_uuids) c on conflict do nothing;
  end if;
  return m.uuid;
end;
$$;

--------------------------------------------------------------------------------------------------
-- What a P2000 monitor asks for, and whether a message has it.

-- Keywords in the criteria as LIKE patterns ('%word%', escaped), so that one message is checked
-- against all of them by `lower(message) like any (...)`, without a subquery per row (a SQL
-- function with a subquery is never inlined, and the preview checks a month of messages).
alter table app_hidden.p2000_monitor_criteria
  add column if not exists keyword_patterns text[] not null default '{}',
  add column if not exists exclude_patterns text[] not null default '{}',
  drop column if exists keywords,
  drop column if exists exclude_keywords;
alter table app_hidden.p2000_monitor_criteria alter column keyword_patterns drop default, alter column exclude_patterns drop default;
comment on column app_hidden.p2000_monitor_criteria.keyword_patterns is 'LIKE patterns (%word%) of the keywords: lower(message) must match one.';
comment on column app_hidden.p2000_monitor_criteria.exclude_patterns is 'LIKE patterns (%word%) of the excludeKeywords: lower(message) must match none.';

-- A keyword (lower case already) as a LIKE pattern of text that contains it.
create or replace function app_hidden.contains_pattern(word text) returns text
  language sql immutable strict parallel safe
as $$
  select '%' || pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(word, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;

-- A P2000 monitor in matchable form (see app_hidden.p2000_monitor_criteria), whether or not it is
-- saved or active: anchor_keys are the keys of its most selective criterion (capcodes, else the
-- grid cells its circle touches, else regions, else disciplines, else '*').
create function app_hidden.p2000_criteria(mo app_public.monitors) returns app_hidden.p2000_monitor_criteria
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
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
    when cardinality(c.discipline_uuids) > 0 then array(select 'd:' || d from unnest(c.discipline_uuids) d)
    else array['*']
  end;
  return c;
end;
$$;

create or replace function app_hidden.tg_monitors__p2000_criteria() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_hidden.p2000_monitor_criteria x where x.monitor_uuid = new.uuid;
  if new.type = 'p2000' and new.active then
    insert into app_hidden.p2000_monitor_criteria select * from app_hidden.p2000_criteria(new);
  end if;
  return null;
end;
$$;

-- Whether a message has everything a criteria row asks for. Plain SQL without subqueries or a
-- search_path setting (everything is named by schema), so PostgreSQL inlines it into the query
-- that calls it: the matcher's probe of the criteria table and the preview's scan of the history.
create function app_hidden.p2000_criteria_match(c app_hidden.p2000_monitor_criteria, m app_public.p2000_messages) returns boolean
  language sql immutable parallel safe
as $$
  select (cardinality(c.capcode_names) = 0 or c.capcode_names && m.capcode_names)
     and (cardinality(c.region_uuids) = 0 or m.region_uuid = any (c.region_uuids))
     and (cardinality(c.discipline_uuids) = 0 or m.discipline_uuid = any (c.discipline_uuids))
     and (cardinality(c.urgency_uuids) = 0 or m.urgency_uuid = any (c.urgency_uuids))
     and (c.include_exercises or m.exercise_type = 'none')
     and (c.radius is null or (m.latitude is not null
          and app_hidden.distance_km(c.latitude, c.longitude, m.latitude, m.longitude) <= c.radius))
     and (cardinality(c.keyword_patterns) = 0 or pg_catalog.lower(m.message) like any (c.keyword_patterns))
     and (cardinality(c.exclude_patterns) = 0 or not pg_catalog.lower(m.message) like any (c.exclude_patterns))
$$;

-- The criteria of the P2000 monitors there are, in the form above.
delete from app_hidden.p2000_monitor_criteria;
insert into app_hidden.p2000_monitor_criteria
select c.* from app_public.monitors mo, app_hidden.p2000_criteria(mo) c where mo.type = 'p2000' and mo.active;

-- The matcher of P2000 monitors (task monitors__match_p2000): records the matches of one message
-- and queues one delivery job per monitor × channel, keyed by the notification, all in one
-- transaction and set-based (a message may match many monitors). Returns how many deliveries it
-- queued; a second run for the same message finds its matches and queues nothing.
create or replace function app_private.match_p2000_message(message_uuid uuid) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
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
$$;

--------------------------------------------------------------------------------------------------
-- Notification rules. Inlinable SQL (no search_path setting) because the preview applies them to
-- every match of a month.

-- Quiet hours (Dutch local time) at a moment: now for live matching, the message's time for the
-- preview.
create function app_hidden.in_quiet_hours(rules jsonb, moment timestamptz) returns boolean
  language sql stable parallel safe
as $$
  select rules ? 'quietHours' and case
    when (rules->'quietHours'->>'from')::time <= (rules->'quietHours'->>'to')::time
      then (moment at time zone 'Europe/Amsterdam')::time >= (rules->'quietHours'->>'from')::time
       and (moment at time zone 'Europe/Amsterdam')::time < (rules->'quietHours'->>'to')::time
    else (moment at time zone 'Europe/Amsterdam')::time >= (rules->'quietHours'->>'from')::time
      or (moment at time zone 'Europe/Amsterdam')::time < (rules->'quietHours'->>'to')::time
  end
$$;

-- The feeds' matchers (app_private.notify_feed_event) ask about now.
create or replace function app_hidden.in_quiet_hours(rules jsonb) returns boolean
  language sql stable parallel safe
as $$
  select app_hidden.in_quiet_hours(rules, pg_catalog.now())
$$;

create or replace function app_hidden.exceeds_max_per_period(rules jsonb, recent_notified bigint) returns boolean
  language sql immutable parallel safe
as $$
  select rules ? 'maxPerPeriod' and recent_notified >= (rules->'maxPerPeriod'->>'count')::integer
$$;

-- The rules that look at the message alone: quiet hours at `moment`, minUrgency. One row: the
-- reason, or null. A table function because it has subqueries: PostgreSQL inlines a table function
-- called in FROM even so (never a scalar one), and the preview applies it to every match.
create function app_hidden.p2000_message_suppression(rules jsonb, m app_public.p2000_messages, moment timestamptz)
  returns setof text
  language sql stable parallel safe rows 1
as $$
  select case
    when app_hidden.in_quiet_hours(rules, moment) then 'quiet_hours'
    when rules ? 'minUrgency' and coalesce((select u.rank from app_public.p2000_urgencies u where u.uuid = m.urgency_uuid), 999)
         > (select u.rank from app_public.p2000_urgencies u where u.code = rules->>'minUrgency') then 'min_urgency'
  end
$$;

-- The throttles, given how many notifications the monitor already made about the message's
-- dossier and within the last maxPerPeriod minutes.
create function app_hidden.p2000_throttle_suppression(rules jsonb, in_dossier boolean, dossier_notified bigint,
  period_notified bigint) returns text
  language sql immutable parallel safe
as $$
  select case
    when rules ? 'maxPerDossier' and in_dossier and dossier_notified >= (rules->>'maxPerDossier')::integer then 'max_per_dossier'
    when app_hidden.exceeds_max_per_period(rules, period_notified) then 'max_per_period'
  end
$$;

-- Why a live match notifies nobody, or null: the message's own rules now, then the throttles over
-- the monitor's recorded matches (counted only when the rule is reached).
create or replace function app_hidden.monitor_suppression(mo app_public.monitors, m app_public.p2000_messages) returns text
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce((select s from app_hidden.p2000_message_suppression(mo.notification_rules, m, now()) s),
    app_hidden.p2000_throttle_suppression(mo.notification_rules, m.dossier_uuid is not null,
      (select count(*) from app_hidden.monitor_matches x
        where x.monitor_uuid = mo.uuid and x.dossier_uuid = m.dossier_uuid and x.suppressed_reason is null),
      (select count(*) from app_hidden.monitor_matches x
        where x.monitor_uuid = mo.uuid and x.suppressed_reason is null
          and x.matched_at > now() - make_interval(mins => (mo.notification_rules->'maxPerPeriod'->>'minutes')::integer))))
$$;

--------------------------------------------------------------------------------------------------
-- The preview.

-- monitorPreview (plugins/monitor-preview.ts): the arguments of createMonitor, checked as it
-- checks them, and the days (1-90) of history to go through: from midnight (Dutch time) `days - 1`
-- days ago until now. Returns the matches and the notifications its rules let through, both in
-- total and per day (all days of the window, oldest first), and the newest 20 matched messages.
-- The rules apply as live matching applies them, at each message's time, the throttles counting
-- the preview's own earlier notifications (it starts with none). Writes nothing.
create function app_hidden.monitor_preview(days integer, location_given boolean, name text, description text,
  active boolean, type text, query text, latitude double precision, longitude double precision, location_mode text,
  location_live_source_id text, radius double precision, channels text, notification_rules text,
  out matches integer, out notifications integer, out by_day jsonb, out message_uuids uuid[])
  language plpgsql stable
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  mo app_public.monitors;
  c app_hidden.p2000_monitor_criteria;
  rules jsonb;
  first_day date;
  since timestamptz;
  capcode_uuids uuid[];
  matched text;
  -- With throttles: the matches in time order with their final reasons, and the state the
  -- throttles read: the times of the notifications so far (oldest first) with the first one still
  -- inside the maxPerPeriod window, and the notifications per dossier (by its number among the
  -- matches).
  r record;
  reason text;
  period interval;
  uuids uuid[] := '{}';
  sendeds timestamptz[] := '{}';
  reasons text[] := '{}';
  notified_at timestamptz[] := '{}';
  window_start integer := 1;
  dossier_notified integer[] := '{}';
begin
  if monitor_preview.days is null or monitor_preview.days not between 1 and 90 then
    raise exception 'days must be from 1 to 90.' using errcode = 'XINPT';
  end if;
  if monitor_preview.type is not null and monitor_preview.type <> 'p2000' then
    raise exception 'Previews exist for p2000 monitors only (type was %).', left(monitor_preview.type, 40) using errcode = 'XINPT';
  end if;
  mo := (app_hidden.checked_monitor(environment, null, location_given, name, description, active, type, query, latitude,
    longitude, location_mode, location_live_source_id, radius, channels, notification_rules)).monitor;
  c := app_hidden.p2000_criteria(mo);
  rules := mo.notification_rules;
  first_day := (now() at time zone 'Europe/Amsterdam')::date - (monitor_preview.days - 1);
  since := first_day::timestamp at time zone 'Europe/Amsterdam';

  -- The matches: the messages of the window, every criterion checked in full, with the reason of
  -- the rules that look at the message alone. The query is built and planned for this preview,
  -- its criteria as constants, so PostgreSQL picks by its statistics between the window's index
  -- and a criterion's own (regions, disciplines; capcodes through their links, by uuid so that it
  -- knows how common each one is): a capcode on every other message is cheaper to find by reading
  -- the window than by 50,000 lookups.
  capcode_uuids := array(select k.uuid from app_public.p2000_capcodes k where k.name = any (c.capcode_names));
  matched := format($query$
    select m.uuid, m.sended, m.dossier_uuid, s.reason
      from app_public.p2000_messages m, app_hidden.p2000_message_suppression($3, m, m.sended) s (reason)
     where %s and m.sended >= $2 and m.sended <= now() and app_hidden.p2000_criteria_match($1, m)
    $query$, case when cardinality(c.capcode_names) > 0 then
      'm.uuid in (select mc.message_uuid from app_public.p2000_message_capcodes mc where mc.capcode_uuid = any ($4) and mc.sended >= $2)'
      else 'true' end);

  -- The throttles depend on what came before: the matches in time order, as live matching met them.
  if rules ?| array['maxPerDossier', 'maxPerPeriod'] then
    period := make_interval(mins => (rules->'maxPerPeriod'->>'minutes')::integer);
    for r in execute format('select x.*, dense_rank() over (order by x.dossier_uuid)::integer as dossier from (%s) x order by x.sended, x.uuid', matched)
      using c, since, rules, capcode_uuids
    loop
      reason := r.reason;
      if reason is null then
        while window_start <= cardinality(notified_at) and notified_at[window_start] <= r.sended - period loop
          window_start := window_start + 1;
        end loop;
        reason := app_hidden.p2000_throttle_suppression(rules, r.dossier_uuid is not null, coalesce(dossier_notified[r.dossier], 0),
          cardinality(notified_at) - window_start + 1);
        if reason is null then
          notified_at[cardinality(notified_at) + 1] := r.sended;
          dossier_notified[r.dossier] := coalesce(dossier_notified[r.dossier], 0) + 1;
        end if;
      end if;
      uuids[cardinality(uuids) + 1] := r.uuid;
      sendeds[cardinality(sendeds) + 1] := r.sended;
      reasons[cardinality(reasons) + 1] := reason;
    end loop;
    matched := 'select * from unnest($5::uuid[], $6::timestamptz[], $7::text[]) m (uuid, sended, reason)';
  end if;

  execute format($query$
    with matched as materialized (%s),
         per_day as (select (m.sended at time zone 'Europe/Amsterdam')::date as day, count(*)::integer as matches,
                            count(*) filter (where m.reason is null)::integer as notifications
                       from matched m group by 1)
    select coalesce((select sum(d.matches) from per_day d), 0)::integer,
           coalesce((select sum(d.notifications) from per_day d), 0)::integer,
           (select jsonb_agg(jsonb_build_object('date', $8 + i, 'matches', coalesce(d.matches, 0),
                                                'notifications', coalesce(d.notifications, 0)) order by i)
              from generate_series(0, $9 - 1) i left join per_day d on d.day = $8 + i),
           array(select m.uuid from matched m order by m.sended desc, m.uuid desc limit 20)
    $query$, matched)
    into matches, notifications, by_day, message_uuids
    using c, since, rules, capcode_uuids, uuids, sendeds, reasons, first_day, monitor_preview.days;
end;
$$;
