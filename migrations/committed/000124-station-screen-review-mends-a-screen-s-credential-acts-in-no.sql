--! Previous: sha1:bdfd1dab3253e12aed3808799d49a515c163e77d
--! Hash: sha1:b480894a98a74187e3c2e4bfa401d071e5316eb8
--! Message: Station screen review mends: a screen's credential acts in no environment; paired means a working credential; a change keeps the station's point; wrong codes counted per person under a lock; the screen alarms on what the station would be told, counting from the first page; one crew check per incident; going again keeps the estimate; the re-alert goes to those who have not answered and are not unavailable

-- Review mends of the station screen (issue 49).

-- A screen's credential acts in no environment: what is keyed on the environment (its RSS feeds,
-- its monitors through the *ForMonitor reads, its environment and organisation rows, the response
-- cache's answers per environment) gives it nothing. Its own monitors' matches it reads through
-- its screen (lib/auth/context.ts leaves app.environment_uuid out for it).
create or replace function app_hidden.current_environment_monitor_uuids() returns setof uuid
  language sql stable parallel safe security definer set search_path = pg_catalog, public, pg_temp as $$
  select m.uuid from app_public.monitors m where m.environment_uuid = app_hidden.current_environment_uuid()
  union all
  select x.monitor_uuid from app_hidden.station_screen_monitors x where x.screen_uuid = app_hidden.current_station_screen_uuid()
$$;
comment on function app_hidden.current_environment_monitor_uuids() is 'The monitors of the request''s environment, whether the request uses an API token or a member''s session; for a station screen''s credential (which acts in no environment) its screen''s monitors. The policies on monitor_matches, feed_monitor_matches and monitor_daily_counts read it, and so does the monitor filter of p2000Messages (a public read made with an API token). SECURITY DEFINER because API tokens cannot read monitor rows.';

-- "Paired" means a credential that still works: one revoked or expired (on the API tokens screen)
-- is no pairing.
create or replace function app_public.station_screens_paired(screen app_public.station_screens) returns boolean
  language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
  select app_hidden.may_read_station_screen(screen)
     and exists (select 1 from app_public.api_tokens t
                  where t.uuid = screen.api_token_uuid and t.revoked_at is null and (t.expires_at is null or t.expires_at > now()))
$$;

create or replace function app_accounts.update_station_screen(screen_uuid uuid, name text, monitor_uuids uuid[], latitude double precision,
    longitude double precision, alarm_minutes integer) returns app_public.station_screens
  language plpgsql volatile security definer set search_path = pg_catalog, public, pg_temp as $$
declare
  environment uuid := app_accounts.require_current_environment();
  screen app_public.station_screens;
begin
  perform app_hidden.check_station_screen_settings(name, latitude, longitude, alarm_minutes);
  if monitor_uuids is not null then
    perform app_hidden.screen_monitor_uuids(monitor_uuids, environment);
  end if;
  update app_public.station_screens s
     set name = coalesce(btrim(update_station_screen.name), s.name),
         -- No point and no monitors given: the point stays. A point given is the point; none
         -- given with monitors is the first monitor's with one (set_station_screen_monitors).
         latitude = case when update_station_screen.latitude is null and monitor_uuids is null then s.latitude
                         else update_station_screen.latitude end,
         longitude = case when update_station_screen.longitude is null and monitor_uuids is null then s.longitude
                          else update_station_screen.longitude end,
         alarm_minutes = coalesce(update_station_screen.alarm_minutes, s.alarm_minutes)
   where s.uuid = screen_uuid and s.environment_uuid = environment
  returning s.* into screen;
  if screen.uuid is null then
    raise exception 'Station screen not found.' using errcode = 'XNOTF';
  end if;
  if monitor_uuids is not null then
    perform app_hidden.set_station_screen_monitors(screen.uuid, monitor_uuids);
  end if;
  perform pg_notify('station_screen:' || screen.api_token_uuid, '') where screen.api_token_uuid is not null;
  return screen;
end;
$$;

comment on function app_accounts.update_station_screen(uuid, text, uuid[], double precision, double precision, integer) is 'updateStationScreen: changes a screen of the current environment (its name, monitors and alarm minutes when given; its point when given, and with monitors given and no point, the first of them with a location); the screen shows the change at once.';

alter table app_private.screen_pairing_failures add column user_uuid uuid references app_public.users on delete cascade;
create index screen_pairing_failures_user_at_idx on app_private.screen_pairing_failures (user_uuid, at);
comment on table app_private.screen_pairing_failures is 'Wrong pairing codes typed in the console, per person and environment: pairStationScreen refuses an eleventh of either within 10 minutes (a code has 30 bits), and deletes older ones.';

create or replace function app_accounts.pair_station_screen(code text, name text, monitor_uuids uuid[], latitude double precision,
    longitude double precision, alarm_minutes integer) returns app_public.station_screens
  language plpgsql volatile security definer set search_path = pg_catalog, public, pg_temp as $$
declare
  environment uuid := app_accounts.require_current_environment();
  caller uuid := app_hidden.require_user_uuid();
  pairing app_private.screen_pairings;
  screen app_public.station_screens;
begin
  -- One count per person and environment at a time (parallel guesses wait for each other), and
  -- per person too: environments are free to make.
  perform pg_advisory_xact_lock(hashtext('screen_pairing:' || caller));
  perform pg_advisory_xact_lock(hashtext('screen_pairing:' || environment));
  delete from app_private.screen_pairing_failures f where f.at < now() - interval '10 minutes';
  if (select count(*) from app_private.screen_pairing_failures f
       where (f.environment_uuid = environment or f.user_uuid = caller) and f.at > now() - interval '10 minutes') >= 10 then
    raise exception 'Too many wrong pairing codes; try again in 10 minutes.' using errcode = 'XRATE';
  end if;
  perform app_hidden.check_station_screen_settings(coalesce(name, ''), latitude, longitude, alarm_minutes);
  perform app_hidden.screen_monitor_uuids(monitor_uuids, environment);
  select p.* into pairing from app_private.screen_pairings p
   where p.code_hash = digest(upper(regexp_replace(coalesce(code, ''), '[^A-Za-z0-9]', '', 'g')), 'sha256')
     and p.expires_at > now() and p.screen_uuid is null
   for update;
  if pairing.code_hash is null then
    insert into app_private.screen_pairing_failures (environment_uuid, user_uuid) values (environment, caller);
    -- The failure must count even though this request fails: a deferred commit is not possible
    -- here, so the error is raised by the caller's plugin after the commit (see pairStationScreen).
    return null;
  end if;
  insert into app_public.station_screens (environment_uuid, name, latitude, longitude, alarm_minutes)
  values (environment, btrim(coalesce(pair_station_screen.name, '')), pair_station_screen.latitude, pair_station_screen.longitude,
          coalesce(pair_station_screen.alarm_minutes, 30))
  returning * into screen;
  perform app_hidden.set_station_screen_monitors(screen.uuid, monitor_uuids);
  update app_private.screen_pairings p set screen_uuid = screen.uuid where p.code_hash = pairing.code_hash;
  return screen;
end;
$$;

create or replace function app_public.station_screens_matches(screen app_public.station_screens, first integer default 20, language text default 'nl')
  returns setof app_public.station_screen_match
  language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
  with screen_monitors as (
    select mo.uuid, mo.name, mo.notification_rules from app_hidden.station_screen_monitors x
      join app_public.monitors mo on mo.uuid = x.monitor_uuid
     where x.screen_uuid = screen.uuid and app_hidden.may_read_station_screen(screen)
  ), incidents as (
    -- The newest match of each incident (a dossier's pages are one incident), newest incident first.
    select distinct on (coalesce(mm.dossier_uuid, mm.message_uuid))
           mm.monitor_uuid, coalesce(mm.dossier_uuid, mm.message_uuid) as incident_uuid, mm.message_uuid, mm.dossier_uuid,
           mm.matched_at, mm.sended
      from screen_monitors s
      -- What the station would be told: quiet hours and throttles are a person's, not the wall's;
      -- a page below minUrgency, or a burst monitor's single page, is not an alarm.
      cross join lateral (select * from app_hidden.monitor_matches m
                           where m.monitor_uuid = s.uuid
                             and (m.suppressed_reason is null or m.suppressed_reason in ('quiet_hours', 'max_per_dossier', 'max_per_period'))
                           order by m.sended desc limit least(greatest(first, 1), 100)) mm
     order by coalesce(mm.dossier_uuid, mm.message_uuid), mm.sended desc
  )
  select i.monitor_uuid, s.name, i.incident_uuid, m.uuid, i.dossier_uuid, i.matched_at, i.sended,
         -- The alarm counts from the incident's first matched page.
         (select min(x.sended) from app_hidden.monitor_matches x
           where x.monitor_uuid = i.monitor_uuid
             and (x.message_uuid = i.incident_uuid or x.dossier_uuid = i.incident_uuid)),
         m.message,
         app_hidden.p2000_plain_text_kept(m, case when station_screens_matches.language = 'en' then 'en' else 'nl' end), u.code, d.name, g.name, m.street, m.city, m.postcode, m.latitude, m.longitude,
         array(select coalesce(nullif(c.description, ''), c.name) from app_public.p2000_message_capcodes mc
                 join app_public.p2000_capcodes c on c.uuid = mc.capcode_uuid
                where mc.message_uuid = m.uuid order by c.name),
         array(select row(ch.name, r.status, r.arrives_at, r.changed)::app_public.station_screen_responder
                 from app_public.alert_responders r join app_public.channels ch on ch.uuid = r.channel_uuid
                where r.incident_uuid = i.incident_uuid and r.monitor_uuid in (select s2.uuid from screen_monitors s2)
                order by r.status = 'going' desc, r.arrives_at nulls last, ch.name),
         ra.at,
         (s.notification_rules->'reAlert'->>'coming')::integer
    from incidents i
    join screen_monitors s on s.uuid = i.monitor_uuid
    join app_public.p2000_messages m on m.uuid = i.message_uuid
    left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
    left join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
    left join app_public.p2000_regions g on g.uuid = m.region_uuid
    left join app_hidden.crew_re_alerts ra on ra.monitor_uuid = i.monitor_uuid and ra.incident_uuid = i.incident_uuid
   order by i.sended desc, i.incident_uuid
   limit least(greatest(first, 1), 100)
$$;

comment on column app_public.station_screen_match.sended is E'@notNull\nWhen the incident''s first matched page was sent: the alarm''s elapsed time counts from it.';

create or replace function app_hidden.tg_monitor_matches__after_insert() returns trigger
  language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
begin
  -- A page matched a monitor with a reAlert rule: check, when its minutes are up, who is coming.
  -- One check per monitor and incident, from its first notified page (the job key keeps a
  -- simultaneous second page from postponing it).
  perform graphile_worker.add_job('monitors__check_crew',
            json_build_object('monitor', n.monitor_uuid, 'message', n.message_uuid),
            run_at := now() + make_interval(mins => (mo.notification_rules->'reAlert'->>'minutes')::integer),
            max_attempts := 5,
            job_key := 'check_crew:' || n.monitor_uuid || ':' || coalesce(n.dossier_uuid, n.message_uuid),
            job_key_mode := 'preserve_run_at')
     from app_public.monitors mo join new_rows n on n.monitor_uuid = mo.uuid
    where n.suppressed_reason is null and mo.notification_rules ? 'reAlert'
      -- The incident's first notified page: a later page of a dossier already checked books no
      -- second check.
      and not exists (select 1 from app_hidden.monitor_matches x
                       where x.monitor_uuid = n.monitor_uuid and x.dossier_uuid = n.dossier_uuid
                         and x.message_uuid <> n.message_uuid and x.suppressed_reason is null);
  if exists (select 1 from new_rows n join app_hidden.station_screen_monitors x on x.monitor_uuid = n.monitor_uuid) then
    perform app_hidden.notify_station_screens(array(select distinct n.monitor_uuid from new_rows n));
  end if;
  return null;
end;
$$;

create or replace function app_accounts.respond_on_the_way(token text, status text, arrival_minutes integer default null) returns uuid
  language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
declare
  n record;
  result uuid;
  arrives timestamptz;
begin
  if status is null or status not in ('going', 'cancelled') then
    raise exception 'status must be going or cancelled.' using errcode = 'XINPT';
  end if;
  if arrival_minutes is not null and (arrival_minutes not between 0 and 240 or status <> 'going') then
    raise exception 'arrivalMinutes must be 0 to 240, with going.' using errcode = 'XINPT';
  end if;
  select * into n from app_private.respond_token_notification(token);
  arrives := now() + make_interval(mins => arrival_minutes);
  insert into app_public.alert_responders as r (environment_uuid, monitor_uuid, channel_uuid, dossier_uuid, message_uuid,
      incident_uuid, recipient, status, arrives_at, last_request_uuid)
  values (n.environment_uuid, n.monitor_uuid, n.channel_uuid, n.dossier_uuid, n.message_uuid, n.incident_uuid,
      n.recipient, respond_on_the_way.status, arrives, nullif(current_setting('app.request_uuid', true), '')::uuid)
  on conflict (monitor_uuid, incident_uuid, channel_uuid) do update
    -- "Going" again without minutes keeps an estimate given before.
    set status = excluded.status,
        arrives_at = case when excluded.status = 'going' and arrival_minutes is null and r.status = 'going' then r.arrives_at
                          else excluded.arrives_at end,
        last_request_uuid = excluded.last_request_uuid, changed = now()
  returning r.uuid into result;
  return result;
end;
$$;

create or replace function app_private.check_crew(monitor_uuid uuid, message_uuid uuid) returns integer
  language plpgsql set search_path = pg_catalog, public, pg_temp as $$
declare
  mo app_public.monitors;
  m app_public.p2000_messages;
  incident uuid;
  wanted integer;
  coming integer;
  headline text;
  queued integer;
begin
  select * into mo from app_public.monitors x where x.uuid = check_crew.monitor_uuid;
  select * into m from app_public.p2000_messages x where x.uuid = check_crew.message_uuid;
  if mo.uuid is null or m.uuid is null or not mo.notification_rules ? 'reAlert' or not mo.active then
    return 0;
  end if;
  incident := coalesce(m.dossier_uuid, m.uuid);
  wanted := (mo.notification_rules->'reAlert'->>'coming')::integer;
  select count(*) into coming from app_public.alert_responders r
   where r.monitor_uuid = mo.uuid and r.incident_uuid = incident and r.status = 'going';
  if coming >= wanted then
    return 0;
  end if;
  insert into app_hidden.crew_re_alerts (monitor_uuid, incident_uuid, message_uuid, coming, wanted)
  values (mo.uuid, incident, m.uuid, coming, wanted)
  on conflict do nothing;
  if not found then
    return 0;
  end if;
  headline := case when coalesce(mo.notification_rules->>'language', 'nl') = 'en'
                   then format('Re-alert: %s of %s coming after %s min', coming, wanted, mo.notification_rules->'reAlert'->>'minutes')
                   else format('Heralarm: %s van %s komen na %s min', coming, wanted, mo.notification_rules->'reAlert'->>'minutes') end;
  with new_notifications as (
    insert into app_private.notifications (monitor_uuid, channel_uuid, message_uuid, dossier_uuid, headline, re_alert)
    select mo.uuid, mc.channel_uuid, m.uuid, m.dossier_uuid, headline, true
      from app_hidden.monitor_channels mc
      join app_public.channels ch on ch.uuid = mc.channel_uuid
     where mc.monitor_uuid = mo.uuid
       -- Those who answered (coming or not) and those who said they are unavailable are not asked again.
       and not exists (select 1 from app_public.alert_responders r
                        where r.monitor_uuid = mo.uuid and r.incident_uuid = incident and r.channel_uuid = mc.channel_uuid)
       and (app_hidden.crew_member_of(ch)).availability is distinct from 'unavailable'
    on conflict do nothing
    returning uuid
  )
  select app_hidden.queue_notification_deliveries(array(select n.uuid from new_notifications n order by n.uuid)) into queued;
  perform app_hidden.notify_station_screens(array[mo.uuid]);
  return queued;
end;
$$;

comment on function app_private.check_crew(monitor_uuid uuid, message_uuid uuid) is 'The task monitors__check_crew, booked when a monitor with a reAlert rule notified an incident''s first page, its minutes later: when fewer than reAlert.coming answered going for the incident, records the re-alert (once per monitor and incident) and queues the page again to the monitor''s channels that have not answered and are not unavailable, each with its own respond link and a headline saying how many are coming. Returns how many deliveries it queued.';

create or replace function app_public.station_screens_crew(screen app_public.station_screens) returns setof app_public.crew_member
  language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
  select member.*
    from app_public.channels c cross join lateral app_hidden.crew_member_of(c) member
   where c.uuid in (select mc.channel_uuid from app_hidden.station_screen_monitors x
                      join app_hidden.monitor_channels mc on mc.monitor_uuid = x.monitor_uuid
                     where x.screen_uuid = screen.uuid)
     and app_hidden.may_read_station_screen(screen)
   order by c.name, c.uuid
$$;

create or replace function app_public.crew() returns setof app_public.crew_member
  language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
  select member.* from app_public.channels c cross join lateral app_hidden.crew_member_of(c) member
   where c.environment_uuid = app_hidden.current_member_environment_uuid()
   order by c.name, c.uuid
$$;

create or replace function app_accounts.respond_link(token text, out dossier_uuid uuid, out message_uuid uuid, out expires_at timestamptz,
    out status text, out arrives_at timestamptz, out availability text, out available_until timestamptz)
  language plpgsql stable security definer set search_path = pg_catalog, public, pg_temp as $$
declare
  n record;
  member app_public.crew_member;
begin
  select * into n from app_private.respond_token_notification(token);
  dossier_uuid := n.dossier_uuid;
  message_uuid := n.message_uuid;
  expires_at := n.expires_at;
  select r.status, r.arrives_at into status, arrives_at from app_public.alert_responders r
   where r.monitor_uuid = n.monitor_uuid and r.incident_uuid = n.incident_uuid and r.channel_uuid = n.channel_uuid;
  select x.* into member from app_public.channels c cross join lateral app_hidden.crew_member_of(c) x where c.uuid = n.channel_uuid;
  availability := member.availability;
  available_until := member.until;
end;
$$;
