--! Previous: sha1:c9e4ef4656671a42b48bc2a894a1d285771e9ca7
--! Hash: sha1:2bf988bc91ce7a188db21effb6327b68a0d93fb4
--! Message: The spec to the letter: counts follow UPDATE and DELETE, roads as the spec shows them, dossier timeline by both, case-insensitive fire brigade search, UNAUTHENTICATED first for account operations, respond links as credentials, logins locked per address

-- The spec to the letter (issue: hardening): what a client written from the spec alone stumbled on.

drop trigger if exists _310_unroll_deleted on app_public.p2000_messages;
drop trigger if exists _310_unroll_updated on app_public.p2000_messages;
drop function if exists app_hidden.tg_p2000_messages__unroll();
drop trigger if exists _200_forget_login_failures on app_public.sessions;
drop function if exists app_hidden.tg_sessions__forget_login_failures();
drop table if exists app_private.login_failures;
drop function if exists app_private.login_failed(text);
drop function if exists app_public.roads_grouped_by_prefix();
drop type if exists app_public.roads_grouped_by_prefix;
drop function if exists app_public.available_hectometers(app_public.road_ref);

--------------------------------------------------------------------------------------------------
-- Counts equal to their lists whatever changed the rows: the roll-ups were kept on INSERT only, so
-- a DBA's UPDATE or DELETE of messages made p2000MessagesCount (and statistics) disagree with
-- p2000Messages. The same statement-level pattern takes the old rows out and puts the new rows in;
-- the capcode links' copy of `sended` and the dossiers' counts and times follow too.
create function app_hidden.tg_p2000_messages__unroll() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  -- Transition tables are visible to EXECUTE; one text for both operations.
  changes text := case tg_op when 'DELETE' then 'select o.*, -1 as sign from old_rows o'
                  else 'select o.*, -1 as sign from old_rows o union all select n.*, 1 from new_rows n' end;
begin
  execute format($f$
    insert into app_hidden.p2000_hourly_counts as h
      (hour, region_uuid, discipline_uuid, urgency_uuid, category_uuid, exercise_type, road, messages)
    select date_trunc('hour', c.sended), c.region_uuid, c.discipline_uuid, c.urgency_uuid, c.category_uuid, c.exercise_type, c.road, sum(c.sign)
      from (%s) c group by 1, 2, 3, 4, 5, 6, 7 having sum(c.sign) <> 0 order by 1, 2, 3, 4, 5, 6, 7
    on conflict (hour, region_uuid, discipline_uuid, urgency_uuid, category_uuid, exercise_type, road)
    do update set messages = h.messages + excluded.messages$f$, changes);
  execute format($f$
    insert into app_hidden.p2000_hourly_urgency_counts as u (hour, exercise_type, urgency_uuid, messages)
    select date_trunc('hour', c.sended), c.exercise_type, c.urgency_uuid, sum(c.sign)
      from (%s) c group by 1, 2, 3 having sum(c.sign) <> 0 order by 1, 2, 3
    on conflict (hour, exercise_type, urgency_uuid) do update set messages = u.messages + excluded.messages$f$, changes);
  execute format($f$
    insert into app_hidden.p2000_daily_counts as d (day, exercise_type, dimension, key, messages)
    select (c.sended at time zone 'Europe/Amsterdam')::date, c.exercise_type, x.dimension, x.key, sum(c.sign)
      from (%s) c,
           lateral (values ('total', ''), ('discipline', c.discipline_uuid::text), ('region', c.region_uuid::text),
                           ('urgency', c.urgency_uuid::text), ('category', c.category_uuid::text), ('road', c.road)) as x (dimension, key)
     where x.key is not null
     group by 1, 2, 3, 4 having sum(c.sign) <> 0 order by 1, 2, 3, 4
    on conflict (day, exercise_type, dimension, key) do update set messages = d.messages + excluded.messages$f$, changes);
  if tg_op = 'UPDATE' then
    update app_public.p2000_message_capcodes l set sended = n.sended
      from new_rows n where l.message_uuid = n.uuid and l.sended is distinct from n.sended;
  end if;
  -- Dossiers of the old and new rows: their message count and first and last times, recounted.
  execute format($f$
    update app_public.p2000_dossiers d
       set message_count = s.messages, first_sended = coalesce(s.first_sended, d.first_sended), last_sended = coalesce(s.last_sended, d.last_sended)
      from (select x.dossier_uuid, count(m.uuid)::integer as messages, min(m.sended) as first_sended, max(m.sended) as last_sended
              from (select distinct c.dossier_uuid from (%s) c where c.dossier_uuid is not null) x
              left join app_public.p2000_messages m on m.dossier_uuid = x.dossier_uuid
             group by x.dossier_uuid) s
     where d.uuid = s.dossier_uuid and (d.message_count, d.first_sended, d.last_sended)
           is distinct from (s.messages, coalesce(s.first_sended, d.first_sended), coalesce(s.last_sended, d.last_sended))$f$, changes);
  return null;
end;
$$;
comment on function app_hidden.tg_p2000_messages__unroll() is
  'After UPDATE or DELETE of messages: the roll-ups, the capcode links'' sended and the dossiers'' counts follow the rows.';
create trigger _310_unroll_deleted after delete on app_public.p2000_messages
  referencing old table as old_rows
  for each statement execute function app_hidden.tg_p2000_messages__unroll();
create trigger _310_unroll_updated after update on app_public.p2000_messages
  referencing old table as old_rows new table as new_rows
  for each statement execute function app_hidden.tg_p2000_messages__unroll();

--------------------------------------------------------------------------------------------------
-- Roads: searchRoads is [Road!]!, availableHectometers [Float!], and roadsGroupedByPrefix one
-- object with the roads of A, N, S and R (E routes are still in searchRoads and roads).
comment on function app_public.search_roads(text, integer) is E'@notNull\nRoads whose name starts with the search ("a1", "12"); first 1-50, default 10.';

create function app_public.available_hectometers(road app_public.road_ref) returns setof double precision
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select distinct h.hectometer from app_public.hectometer_markers h
   where h.road_uuid = app_hidden.find_road(available_hectometers.road)
   order by h.hectometer
$$;
comment on function app_public.available_hectometers(app_public.road_ref) is 'The kilometre values with a post on the road, ascending (empty for an unknown road).';
grant execute on function app_public.available_hectometers(app_public.road_ref) to app_visitor;

comment on table app_public.road_prefixes is E'@behavior -*\nThe road prefixes: A (motorways), N, S, R, E, with a description.';
create type app_public.roads_grouped_by_prefix as ("A" app_public.roads[], "N" app_public.roads[], "S" app_public.roads[], "R" app_public.roads[]);
comment on type app_public.roads_grouped_by_prefix is 'Every A, N, S and R road, by prefix and then number.';
comment on column app_public.roads_grouped_by_prefix."A" is E'@exactName A\n@notNull\nMotorways (autosnelwegen).';
comment on column app_public.roads_grouped_by_prefix."N" is E'@exactName N\n@notNull\nNational and provincial roads.';
comment on column app_public.roads_grouped_by_prefix."S" is E'@exactName S\n@notNull\nCity routes (stadsroutes).';
comment on column app_public.roads_grouped_by_prefix."R" is E'@exactName R\n@notNull\nRing roads.';

create function app_public.roads_grouped_by_prefix() returns app_public.roads_grouped_by_prefix
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(array_agg(r order by r.number) filter (where r.prefix = 'A'), '{}'),
         coalesce(array_agg(r order by r.number) filter (where r.prefix = 'N'), '{}'),
         coalesce(array_agg(r order by r.number) filter (where r.prefix = 'S'), '{}'),
         coalesce(array_agg(r order by r.number) filter (where r.prefix = 'R'), '{}')
    from app_public.roads r where r.prefix in ('A', 'N', 'S', 'R')
$$;
comment on function app_public.roads_grouped_by_prefix() is E'@notNull\nEvery road of the prefixes A, N, S and R, grouped by prefix.';
grant execute on function app_public.roads_grouped_by_prefix() to app_visitor;

--------------------------------------------------------------------------------------------------
-- p2000DossierTimeline takes a dossier, a message, or both (the spec: at least one); both must
-- name the same dossier.
create or replace function app_public.p2000_dossier_timeline(
  filter app_public.p2000_dossier_timeline_filter, first integer default null, page integer default null
) returns setof app_public.p2000_dossier_events
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  d app_public.p2000_dossiers;
begin
  if ((filter).dossier).uuid is not null and ((filter).message).uuid is not null then
    d := app_hidden.p2000_referenced_dossier((filter).dossier, null);
    if d.uuid is distinct from (app_hidden.p2000_referenced_dossier(null, (filter).message)).uuid then
      raise exception 'filter.message is not a message of filter.dossier.' using errcode = 'XINPT';
    end if;
  else
    d := app_hidden.p2000_referenced_dossier((filter).dossier, (filter).message);
  end if;
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
comment on function app_public.p2000_dossier_timeline(app_public.p2000_dossier_timeline_filter, integer, integer) is
  E'@notNull\nThe timeline of the dossier of filter.dossier or filter.message (at least one; both must name the same dossier).';

--------------------------------------------------------------------------------------------------
-- Fire brigade search: case-insensitive as the README says, and an empty search is no filter.
create or replace function app_hidden.fire_stations_matching(filter app_public.fire_station_filter) returns setof app_public.fire_stations
  language sql stable parallel safe
as $$
  select s.* from app_public.fire_stations s
   where (app_hidden.search_pattern((filter).search) is null or s.name ilike app_hidden.search_pattern((filter).search)
          or s.city ilike app_hidden.search_pattern((filter).search) or s.slug ilike app_hidden.search_pattern((filter).search))
     and ((filter).region is null or s.region_uuid = app_hidden.region_by_key((filter).region))
$$;

create or replace function app_hidden.fire_vehicles_matching(filter app_public.fire_vehicle_filter) returns setof app_public.fire_vehicles
  language sql stable parallel safe
as $$
  select v.* from app_public.fire_vehicles v
   where (app_hidden.search_pattern((filter).search) is null
          or v.name ilike app_hidden.search_pattern(regexp_replace((filter).search, '[\s-]', '', 'g'))
          or v.material_function ilike app_hidden.search_pattern((filter).search)
          or exists (select 1 from app_public.fire_stations s where s.uuid = v.station_uuid and s.name ilike app_hidden.search_pattern((filter).search)))
     and ((filter).region is null or v.region_uuid = app_hidden.region_by_key((filter).region))
     and ((filter).station is null or v.station_uuid = (select s.uuid from app_public.fire_station((filter).station) s))
$$;

--------------------------------------------------------------------------------------------------
-- One rule per error class. No user: UNAUTHENTICATED for every account operation (me stays null
-- and sessionValid false, as the spec says), the caller checked before anything else.
create or replace function app_public.channels() returns setof app_public.channels
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select c.* from app_public.channels c
   where app_hidden.require_user_uuid() is not null and c.environment_uuid = app_hidden.current_member_environment_uuid()
   order by c.created, c.uuid
$$;

create or replace function app_public.monitors() returns setof app_public.monitors
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select m.* from app_public.monitors m
   where app_hidden.require_user_uuid() is not null and m.environment_uuid = app_hidden.current_member_environment_uuid()
   order by m.created, m.uuid
$$;

create or replace function app_public.monitor(uuid text) returns app_public.monitors
  language plpgsql stable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  result app_public.monitors;
begin
  perform app_hidden.require_user_uuid();
  select m.* into result from app_public.monitors m
   where m.uuid = app_hidden.try_uuid(monitor.uuid) and m.environment_uuid = app_hidden.current_member_environment_uuid();
  return result;
end;
$$;

create or replace function app_accounts.delete_api_token(token_uuid text) returns boolean
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
begin
  update app_public.api_tokens t set revoked_at = now()
   where t.uuid = app_hidden.try_uuid(token_uuid) and t.environment_uuid = environment and t.revoked_at is null;
  if not found then
    raise exception 'API token not found.' using errcode = 'XNOTF';
  end if;
  return true;
end;
$$;

-- Login failures are counted per address, known or not, so a locked account answers exactly as an
-- unknown address with as many failures does (the lock says nothing about who has an account).
-- Five failures within 15 minutes lock the address for 15 minutes; a new session clears them.
create table app_private.login_failures (
  email_address text primary key,
  failed_count integer not null,
  first_failed_at timestamptz not null,
  locked_until timestamptz
);
comment on table app_private.login_failures is 'Failed logins per e-mail address (accounts or not) and the lock they set.';
alter table app_private.login_failures enable row level security;

create or replace function app_private.login_candidate(email text, out user_uuid uuid, out password_hash text, out locked_until timestamptz)
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select u.uuid, s.password_hash, f.locked_until
    from (select lower(btrim(email)) as address) a
    left join app_public.users u on u.email_address = a.address
    left join app_private.user_secrets s on s.user_uuid = u.uuid
    left join app_private.login_failures f on f.email_address = a.address
$$;

drop function if exists app_private.login_failed(uuid);
create function app_private.login_failed(email text) returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  insert into app_private.login_failures as f (email_address, failed_count, first_failed_at)
  values (lower(btrim(email)), 1, now())
  on conflict (email_address) do update
    set failed_count = case when f.first_failed_at > now() - interval '15 minutes' then f.failed_count + 1 else 1 end,
        first_failed_at = case when f.first_failed_at > now() - interval '15 minutes' then f.first_failed_at else now() end,
        locked_until = case when f.first_failed_at > now() - interval '15 minutes' and f.failed_count + 1 >= 5
                            then now() + interval '15 minutes' else f.locked_until end
$$;

create function app_hidden.tg_sessions__forget_login_failures() returns trigger
  language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  delete from app_private.login_failures f
   where f.email_address = (select u.email_address from app_public.users u where u.uuid = new.user_uuid);
  return null;
end;
$$;
create trigger _200_forget_login_failures after insert on app_public.sessions
  for each row execute function app_hidden.tg_sessions__forget_login_failures();

-- Every invalid credential token answers UNAUTHENTICATED, as invalid reset, magic-link and refresh
-- tokens do: a respond link that is malformed, tampered with or expired is one too.
create or replace function app_accounts.respond_on_the_way(token text, status text) returns uuid
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  parts text[] := string_to_array(coalesce(token, ''), '.');
  payload bytea;
  claims text[];
  n app_private.notifications;
  c app_public.channels;
  result uuid;
begin
  if status is null or status not in ('going', 'cancelled') then
    raise exception 'status must be going or cancelled.' using errcode = 'XINPT';
  end if;
  if cardinality(parts) <> 2 or parts[1] !~ '^[A-Za-z0-9_-]+$' or parts[2] !~ '^[A-Za-z0-9_-]{43}$' then
    raise exception 'This respond link is not valid.' using errcode = 'XAUTH';
  end if;
  payload := decode(rpad(translate(parts[1], '-_', '+/'), (length(parts[1]) + 3) / 4 * 4, '='), 'base64');
  if decode(rpad(translate(parts[2], '-_', '+/'), 44, '='), 'base64')
       <> hmac(payload, (select k.key from app_private.signing_keys k where k.purpose = 'responder'), 'sha256') then
    raise exception 'This respond link is not valid.' using errcode = 'XAUTH';
  end if;
  claims := string_to_array(convert_from(payload, 'UTF8'), '.');
  if claims[5]::bigint < extract(epoch from now()) then
    raise exception 'This respond link has expired.' using errcode = 'XAUTH';
  end if;
  select * into n from app_private.notifications x
   where x.uuid = claims[1]::uuid and x.monitor_uuid = claims[2]::uuid
     and coalesce(x.dossier_uuid, x.message_uuid) = claims[3]::uuid and x.channel_uuid = claims[4]::uuid;
  select * into c from app_public.channels x where x.uuid = n.channel_uuid;
  if n.uuid is null or c.uuid is null then
    raise exception 'This respond link belongs to a notification that no longer exists.' using errcode = 'XNOTF';
  end if;
  insert into app_public.alert_responders as r (environment_uuid, monitor_uuid, channel_uuid, dossier_uuid, message_uuid,
      incident_uuid, recipient, status, last_request_uuid)
  values (c.environment_uuid, n.monitor_uuid, n.channel_uuid, n.dossier_uuid, n.message_uuid, coalesce(n.dossier_uuid, n.message_uuid),
      coalesce(c.email_address, c.phone_number, c.chat_id, c.url, c.name), respond_on_the_way.status,
      nullif(current_setting('app.request_uuid', true), '')::uuid)
  on conflict (monitor_uuid, incident_uuid, channel_uuid) do update
    set status = excluded.status, last_request_uuid = excluded.last_request_uuid
  returning r.uuid into result;
  return result;
end;
$$;

create or replace function app_private.purge_expired_auth_data() returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  delete from app_private.request_identities where created < now() - interval '1 hour';
  delete from app_private.rate_limit_counters where window_start < now() - interval '2 days';
  delete from app_private.login_failures where first_failed_at < now() - interval '1 day' and coalesce(locked_until, '-infinity') < now();
  delete from app_private.user_tokens where expires_at < now() - interval '7 days';
  delete from app_public.sessions where coalesce(revoked_at, expires_at) < now() - interval '30 days';
  delete from app_private.emails where created < now() - interval '30 days';
$$;

-- The lock moved to app_private.login_failures: a new session (trigger above) or a password reset
-- clears an address's failures; user_secrets no longer counts them.
create or replace function app_private.create_session(
  user_uuid uuid, refresh_token_hash bytea, ip_address text, user_agent text, request_uuid uuid, lifetime interval,
  out session_uuid uuid, out environment_uuid uuid, out expires_at timestamptz
)
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  select e.uuid into environment_uuid
    from app_public.environments e join app_hidden.organization_memberships m on m.organization_uuid = e.organization_uuid
   where m.user_uuid = create_session.user_uuid
   order by m.created, e.created, e.uuid limit 1;
  insert into app_public.sessions (user_uuid, environment_uuid, ip_address, user_agent, expires_at)
    values (user_uuid, environment_uuid, left(ip_address, 100), left(user_agent, 500), now() + lifetime)
    returning uuid, sessions.expires_at into session_uuid, expires_at;
  insert into app_private.refresh_tokens (session_uuid, token_hash) values (session_uuid, refresh_token_hash);
  insert into app_private.request_identities (request_uuid, user_uuid, session_uuid)
    values (request_uuid, user_uuid, session_uuid)
    on conflict on constraint request_identities_pkey
    do update set user_uuid = excluded.user_uuid, session_uuid = excluded.session_uuid;
end;
$$;

create or replace function app_private.reset_password(token_hash bytea, password_hash text) returns uuid
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  target_user uuid := (app_private.consume_user_token(token_hash, 'password_reset')).user_uuid;
begin
  update app_private.user_secrets s set password_hash = reset_password.password_hash, password_changed_at = now()
   where s.user_uuid = target_user;
  delete from app_private.login_failures f
   where f.email_address = (select u.email_address from app_public.users u where u.uuid = target_user);
  update app_public.sessions s set revoked_at = now() where s.user_uuid = target_user and s.revoked_at is null;
  update app_private.user_tokens t set used_at = now()
   where t.user_uuid = target_user and t.purpose = 'password_reset' and t.used_at is null;
  return target_user;
end;
$$;

alter table app_private.user_secrets drop column if exists failed_login_count, drop column if exists first_failed_login_at,
  drop column if exists locked_until;
