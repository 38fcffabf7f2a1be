--! Previous: sha1:889836b645cda1bb3fd15fafe4996d452a4a04d5
--! Hash: sha1:a0f78feec47d0e43549646afcf1f09eb20be1afc
--! Message: hubAnalytics cache, API-token change announcements, row triggers for matching and vehicle learning, one-capcode message pages

-- hubAnalytics* answers are cached (issue #4): their windows are whole days up to yesterday, so
-- an answer holds for the day. The task analytics__refresh_cache recomputes every window (days
-- 7-90) each hour, which also catches late or imported history; the public functions read the
-- cache and compute live only when it has nothing fresh.
drop table if exists app_hidden.analytics_cache cascade;
drop function if exists app_private.refresh_analytics_cache() cascade;

create table app_hidden.analytics_cache (
  analysis text not null check (analysis in ('hourly', 'urgency', 'weekdays')),
  days integer not null check (days between 7 and 90),
  window_end date not null,
  result text not null,
  computed_at timestamptz not null default now(),
  primary key (analysis, days)
);
comment on table app_hidden.analytics_cache is 'Answers of hubAnalyticsHourly, hubAnalyticsUrgency and hubAnalyticsWeekdays per window, refreshed hourly.';
alter table app_hidden.analytics_cache enable row level security;
create policy select_all on app_hidden.analytics_cache for select to app_visitor, app_analyst using (true);
grant select on app_hidden.analytics_cache to app_visitor, app_analyst;

-- The computations move to app_hidden (*_live) unchanged; the public names become cache readers.
do $$
begin
  if to_regprocedure('app_hidden.hub_analytics_hourly_live(integer)') is null then
    alter function app_public.hub_analytics_hourly(integer) rename to hub_analytics_hourly_live;
    alter function app_public.hub_analytics_hourly_live(integer) set schema app_hidden;
    alter function app_public.hub_analytics_urgency(integer) rename to hub_analytics_urgency_live;
    alter function app_public.hub_analytics_urgency_live(integer) set schema app_hidden;
    alter function app_public.hub_analytics_weekdays(integer) rename to hub_analytics_weekdays_live;
    alter function app_public.hub_analytics_weekdays_live(integer) set schema app_hidden;
  end if;
end
$$;
comment on function app_hidden.hub_analytics_hourly_live(integer) is 'hubAnalyticsHourly computed from the hourly roll-up.';
comment on function app_hidden.hub_analytics_urgency_live(integer) is 'hubAnalyticsUrgency computed from the roll-ups.';
comment on function app_hidden.hub_analytics_weekdays_live(integer) is 'hubAnalyticsWeekdays computed from the hourly roll-up.';

create or replace function app_public.hub_analytics_hourly(days integer default 28) returns app_public.hub_analytics_hourly
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(
    (select c.result::app_public.hub_analytics_hourly from app_hidden.analytics_cache c
      where c.analysis = 'hourly' and c.days = app_hidden.analytics_days(hub_analytics_hourly.days)
        and c.window_end = (now() at time zone 'Europe/Amsterdam')::date and c.computed_at > now() - interval '65 minutes'),
    app_hidden.hub_analytics_hourly_live(hub_analytics_hourly.days))
$$;
comment on function app_public.hub_analytics_hourly(integer) is E'@notNull\nReal alerts per hour of the day; days 7-90, default 28 (cached, refreshed hourly).';

create or replace function app_public.hub_analytics_urgency(days integer default 28) returns app_public.hub_analytics_urgency
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(
    (select c.result::app_public.hub_analytics_urgency from app_hidden.analytics_cache c
      where c.analysis = 'urgency' and c.days = app_hidden.analytics_days(hub_analytics_urgency.days)
        and c.window_end = (now() at time zone 'Europe/Amsterdam')::date and c.computed_at > now() - interval '65 minutes'),
    app_hidden.hub_analytics_urgency_live(hub_analytics_urgency.days))
$$;
comment on function app_public.hub_analytics_urgency(integer) is E'@notNull\nReal alerts by urgency; days 7-90, default 28 (cached, refreshed hourly).';

create or replace function app_public.hub_analytics_weekdays(days integer default 28) returns app_public.hub_analytics_weekdays
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(
    (select c.result::app_public.hub_analytics_weekdays from app_hidden.analytics_cache c
      where c.analysis = 'weekdays' and c.days = app_hidden.analytics_days(hub_analytics_weekdays.days)
        and c.window_end = (now() at time zone 'Europe/Amsterdam')::date and c.computed_at > now() - interval '65 minutes'),
    app_hidden.hub_analytics_weekdays_live(hub_analytics_weekdays.days))
$$;
comment on function app_public.hub_analytics_weekdays(integer) is E'@notNull\nReal alerts per weekday with the expected average, and yesterday against expected; days 7-90, default 28 (cached, refreshed hourly).';

-- Task analytics__refresh_cache: every window, computed once. Returns how many answers it stored.
create function app_private.refresh_analytics_cache() returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  today date := (now() at time zone 'Europe/Amsterdam')::date;
  stored integer;
begin
  insert into app_hidden.analytics_cache as c (analysis, days, window_end, result)
  select a.analysis, n, today,
         case a.analysis when 'hourly' then app_hidden.hub_analytics_hourly_live(n)::text
                         when 'urgency' then app_hidden.hub_analytics_urgency_live(n)::text
                         else app_hidden.hub_analytics_weekdays_live(n)::text end
    from generate_series(7, 90) n, (values ('hourly'), ('urgency'), ('weekdays')) a (analysis)
  on conflict (analysis, days) do update set window_end = excluded.window_end, result = excluded.result, computed_at = now();
  get diagnostics stored = row_count;
  return stored;
end;
$$;

-- API-token authentication is cached by the server (lib/api-token-cache.ts); every change to a
-- token (revocation, scopes, expiry, deletion) is announced on the channel api_token_changed,
-- so each server instance forgets it at once. The lookup now also says when the token expires.
drop function if exists app_hidden.tg_api_tokens__notify_change() cascade;
create function app_hidden.tg_api_tokens__notify_change() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform pg_notify('api_token_changed', coalesce(new.uuid, old.uuid)::text);
  return null;
end;
$$;
create trigger _900_notify_change after update of revoked_at, scopes, expires_at, environment_uuid or delete on app_public.api_tokens
  for each row execute function app_hidden.tg_api_tokens__notify_change();

drop function if exists app_private.authenticate_api_token(bytea) cascade;
create function app_private.authenticate_api_token(secret_hash bytea)
  returns table (api_token_uuid uuid, environment_uuid uuid, scopes text[], expires_at timestamptz)
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  return query
    update app_public.api_tokens t
       set last_used_at = now()
      from app_private.api_token_secrets s
     where s.secret_hash = authenticate_api_token.secret_hash
       and t.uuid = s.api_token_uuid
       and t.revoked_at is null
       and (t.expires_at is null or t.expires_at > now())
       -- Writing on every request would make a hot row; a minute's precision is enough.
       and (t.last_used_at is null or t.last_used_at < now() - interval '1 minute')
    returning t.uuid, t.environment_uuid, t.scopes, t.expires_at;
  if not found then
    return query
      select t.uuid, t.environment_uuid, t.scopes, t.expires_at
        from app_public.api_tokens t
        join app_private.api_token_secrets s on s.api_token_uuid = t.uuid
       where s.secret_hash = authenticate_api_token.secret_hash
         and t.revoked_at is null
         and (t.expires_at is null or t.expires_at > now());
  end if;
end;
$$;
comment on function app_private.authenticate_api_token(bytea) is 'The valid (not revoked, not expired) API token with this secret hash, if any, and when it expires.';
grant execute on function app_private.authenticate_api_token(bytea) to app_authenticator;

-- Row triggers with a WHEN condition instead of statement triggers with transition tables: the
-- FLEX reader inserts one message per statement, and capturing a transition table for each cost
-- more than the work; history (not live) and messages without call numbers now cost nothing.
drop trigger if exists _600_queue_matching on app_public.p2000_messages;
drop trigger if exists _600_queue_rematching on app_public.p2000_messages;
drop trigger if exists _700_learn_vehicles on app_public.p2000_messages;

create or replace function app_hidden.tg_p2000_messages__queue_matching() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform graphile_worker.add_job('monitors__match_p2000', json_build_object('uuid', new.uuid), max_attempts := 10);
  return null;
end;
$$;
comment on function app_hidden.tg_p2000_messages__queue_matching() is 'Queues the monitor matching of a live message (sent within an hour of now).';
create trigger _600_queue_matching after insert on app_public.p2000_messages
  for each row when (new.sended between now() - interval '1 hour' and now() + interval '1 hour')
  execute function app_hidden.tg_p2000_messages__queue_matching();
-- A copy from another receiver adds capcodes to the first message: match it again (matches and
-- notifications already made stay single).
create trigger _600_queue_rematching after update of capcode_names on app_public.p2000_messages
  for each row when (new.capcode_names is distinct from old.capcode_names
                     and new.sended between now() - interval '1 hour' and now() + interval '1 hour')
  execute function app_hidden.tg_p2000_messages__queue_matching();

create or replace function app_hidden.tg_p2000_messages__learn_vehicles() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform app_private.learn_fire_vehicles(new.call_numbers, new.sended);
  return null;
end;
$$;
create trigger _700_learn_vehicles after insert on app_public.p2000_messages
  for each row when (cardinality(new.call_numbers) > 0)
  execute function app_hidden.tg_p2000_messages__learn_vehicles();

-- p2000Messages for one capcode (the usual capcode page): a join that walks that capcode's index
-- newest first and stops after the page, instead of fetching every message of the capcode in the
-- range and sorting them; static SQL, so it is not planned on every call.
drop function if exists app_hidden.p2000_single_capcode(app_public.p2000_message_filter) cascade;

-- The capcode of a filter that names exactly one (by uuid or by number), else null.
create function app_hidden.p2000_single_capcode(filter app_public.p2000_message_filter) returns uuid
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case
    when cardinality((filter).capcodes) = 1 and (filter).capcode is null then app_hidden.try_uuid((filter).capcodes[1])
    when (filter).capcodes is null and cardinality(((filter).capcode).names) = 1 then
      (select c.uuid from app_public.p2000_capcodes c where c.name = app_hidden.p2000_normalize_capcode(((filter).capcode).names[1]))
  end
$$;

create or replace function app_public.p2000_messages(
  first integer default null, page integer default null, filter app_public.p2000_message_filter default null
) returns setof app_public.p2000_messages
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  single_capcode uuid := app_hidden.p2000_single_capcode(filter);
  conditions text := app_hidden.p2000_message_conditions(filter); -- also validates the filter
  exercise text := coalesce((filter).exercise_type, 'none');
begin
  -- One capcode and a time range: static SQL, so its plan is prepared once per connection.
  if single_capcode is not null and (filter).dossier is null and (filter).disciplines is null
     and (filter).vehicle is null and (filter).monitor is null then
    return query
      select m.* from app_public.p2000_message_capcodes mc join app_public.p2000_messages m on m.uuid = mc.message_uuid
       where mc.capcode_uuid = single_capcode
         and mc.sended between coalesce(((filter).sended)."from", '-infinity') and coalesce(((filter).sended)."to", 'infinity')
         and (exercise = 'all' or m.exercise_type = exercise)
       order by mc.sended desc, m.uuid
       limit app_hidden.page_limit(first) offset app_hidden.page_offset(first, page);
    return;
  end if;
  return query execute format(
    'select m.* from app_public.p2000_messages m where %s order by m.sended desc, m.uuid limit %s offset %s',
    conditions, app_hidden.page_limit(first), app_hidden.page_offset(first, page))
  using filter;
end;
$$;
comment on function app_public.p2000_messages(integer, integer, app_public.p2000_message_filter) is 'P2000 messages, newest first; real alerts only unless filter.exerciseType says otherwise.';
