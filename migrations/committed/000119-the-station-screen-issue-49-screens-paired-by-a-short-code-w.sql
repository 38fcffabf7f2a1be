--! Previous: sha1:561ede86fa985b7b0cb8589b0954b3201d574a03
--! Hash: sha1:683c1885f56ad2c22aa9538bd5af1ae32f95e980
--! Message: The station screen (issue 49): screens paired by a short code with a read-only credential, the crew's answers with an arrival estimate and their availability, and a reAlert rule

-- The station screen (issue 49): a screen on a fire station's wall, bound to chosen monitors of an
-- environment by a read-only credential it gets by pairing with a short code; the crew's answers
-- (with an arrival estimate) and availability; a rule that alerts again when too few are coming.

-- A screen's credential is an API token with this scope, made only when a screen is paired.
insert into app_public.api_scopes (name, description) values
  ('screen:read', 'A station screen''s credential (pairStationScreen, claimStationScreen): it reads its screen (stationScreen) and the public feeds, and of its environment only what the screen''s monitors match. No other token has it.')
on conflict (name) do nothing;

create table app_public.station_screens (
  uuid uuid primary key default gen_random_uuid(),
  environment_uuid uuid not null references app_public.environments on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 100 and name = btrim(name)),
  latitude double precision check (latitude between 50.6 and 53.7),
  longitude double precision check (longitude between 3.2 and 7.3),
  alarm_minutes integer not null default 30 check (alarm_minutes between 1 and 240),
  api_token_uuid uuid unique references app_public.api_tokens on delete set null,
  created timestamptz not null default now(),
  changed timestamptz not null default now(),
  check ((latitude is null) = (longitude is null))
);
create index station_screens_environment_uuid_idx on app_public.station_screens (environment_uuid);
create trigger _100_set_changed before update on app_public.station_screens
  for each row execute function app_hidden.tg__set_changed();
alter table app_public.station_screens enable row level security;
create policy select_member_environment on app_public.station_screens for select to app_visitor
  using (environment_uuid = (select app_hidden.current_member_environment_uuid()));
grant select on app_public.station_screens to app_visitor;
comment on table app_public.station_screens is E'A screen on a station''s wall (docs/screen.md): idle it shows what happens around the station, and it turns to an alarm when one of its monitors matches. Paired with a short code (requestScreenPairing, pairStationScreen); its credential reads only the screen.';
comment on column app_public.station_screens.latitude is 'Where the station is (WGS84): the centre of the idle map and the start of the line to an incident. Given when paired or changed, else the first of its monitors'' locations then; null when neither is known.';
comment on column app_public.station_screens.alarm_minutes is 'How long the alarm stays after the incident''s last page (1-240 minutes); then the screen is idle again.';
comment on column app_public.station_screens.api_token_uuid is E'@behavior -*\nThe screen''s credential; null once revoked (the screen then shows its pairing code again).';
comment on column app_public.station_screens.environment_uuid is '@behavior -*';
comment on constraint station_screens_environment_uuid_fkey on app_public.station_screens is '@behavior -*';
comment on constraint station_screens_api_token_uuid_fkey on app_public.station_screens is '@behavior -*';
create trigger _900_notify_data_changed after insert or update or delete or truncate on app_public.station_screens
  for each statement execute function app_hidden.tg__notify_data_changed('monitors');

create table app_hidden.station_screen_monitors (
  screen_uuid uuid not null references app_public.station_screens on delete cascade,
  monitor_uuid uuid not null references app_public.monitors on delete cascade,
  position smallint not null,
  primary key (screen_uuid, monitor_uuid)
);
create index station_screen_monitors_monitor_uuid_idx on app_hidden.station_screen_monitors (monitor_uuid);
alter table app_hidden.station_screen_monitors enable row level security;
comment on table app_hidden.station_screen_monitors is 'The monitors a station screen shows, in the order chosen; read through security-definer functions only.';
create trigger _900_notify_data_changed after insert or update or delete or truncate on app_hidden.station_screen_monitors
  for each statement execute function app_hidden.tg__notify_data_changed('monitors');

-- A screen asking to be paired: its short code (what a person types in the console) and its
-- secret (what the screen itself claims its credential with), both kept as hashes.
create table app_private.screen_pairings (
  code_hash bytea primary key,
  secret_hash bytea not null unique,
  screen_uuid uuid references app_public.station_screens on delete cascade,
  created timestamptz not null default now(),
  expires_at timestamptz not null
);
create index screen_pairings_expires_at_idx on app_private.screen_pairings (expires_at);
alter table app_private.screen_pairings enable row level security;
comment on table app_private.screen_pairings is 'Pairings under way (requestScreenPairing): a code lasts 10 minutes; pairStationScreen binds it to a screen, and claimStationScreen with the screen''s secret takes the credential and ends the pairing.';

-- Wrong codes typed in the console, per environment: at most 10 in 10 minutes (a code has 30 bits).
create table app_private.screen_pairing_failures (
  environment_uuid uuid not null references app_public.environments on delete cascade,
  at timestamptz not null default now()
);
create index screen_pairing_failures_environment_at_idx on app_private.screen_pairing_failures (environment_uuid, at);
alter table app_private.screen_pairing_failures enable row level security;

-- The crew's availability, one per channel (a crew member's phone, e-mail or chat).
create table app_public.crew_availability (
  channel_uuid uuid primary key references app_public.channels on delete cascade,
  environment_uuid uuid not null references app_public.environments on delete cascade,
  status text not null check (status in ('available', 'unavailable')),
  until timestamptz,
  changed timestamptz not null default now()
);
create index crew_availability_environment_uuid_idx on app_public.crew_availability (environment_uuid);
alter table app_public.crew_availability enable row level security;
create policy select_member_environment on app_public.crew_availability for select to app_visitor
  using (environment_uuid = (select app_hidden.current_member_environment_uuid()));
grant select on app_public.crew_availability to app_visitor;
comment on table app_public.crew_availability is E'A crew member''s availability (available or unavailable, optionally until a time), per channel: set in the console (setCrewAvailability) or from a notification''s respond link (respondAvailability). Past its until it no longer holds.';
comment on column app_public.crew_availability.environment_uuid is '@behavior -*';
comment on constraint crew_availability_environment_uuid_fkey on app_public.crew_availability is '@behavior -*';
comment on constraint crew_availability_channel_uuid_fkey on app_public.crew_availability is '@behavior -*';
create trigger _900_notify_data_changed after insert or update or delete or truncate on app_public.crew_availability
  for each statement execute function app_hidden.tg__notify_data_changed('monitors');

-- When a responder expects to arrive (respondOnTheWay's arrivalMinutes, from the moment of the answer).
alter table app_public.alert_responders add column arrives_at timestamptz;
comment on column app_public.alert_responders.arrives_at is 'When the responder expects to arrive (going, with arrivalMinutes); null when not said.';

-- A re-alert is the same page sent again to the monitor's channels (with its own respond link),
-- so a notification is unique per monitor, channel, message and whether it is the re-alert.
alter table app_private.notifications add column re_alert boolean not null default false;
alter table app_private.notifications drop constraint notifications_monitor_uuid_channel_uuid_message_uuid_key;
alter table app_private.notifications add constraint notifications_monitor_channel_message_key
  unique (monitor_uuid, channel_uuid, message_uuid, re_alert);
comment on column app_private.notifications.re_alert is 'True for the notification a reAlert rule sent again (headline says how many are coming); false for the first.';

-- The re-alerts made, one per monitor and incident, for the screen and the console.
create table app_hidden.crew_re_alerts (
  monitor_uuid uuid not null references app_public.monitors on delete cascade,
  incident_uuid uuid not null,
  message_uuid uuid not null references app_public.p2000_messages on delete cascade,
  coming integer not null,
  wanted integer not null,
  at timestamptz not null default now(),
  primary key (monitor_uuid, incident_uuid)
);
alter table app_hidden.crew_re_alerts enable row level security;
comment on table app_hidden.crew_re_alerts is 'Incidents a monitor''s reAlert rule alerted again because fewer than wanted answered going in time: how many were coming then.';

-- The screen whose credential made the request, or null.
create function app_hidden.current_station_screen_uuid() returns uuid
  language sql stable parallel safe security definer set search_path = pg_catalog, public, pg_temp as $$
  select s.uuid from app_public.station_screens s
   where s.api_token_uuid = app_hidden.current_api_token_uuid() and 'screen:read' = any (app_hidden.current_api_scopes())
$$;
grant execute on function app_hidden.current_station_screen_uuid() to app_visitor, app_analyst;
comment on function app_hidden.current_station_screen_uuid() is 'The station screen whose credential (scope screen:read) made this request; null for any other caller.';

-- A screen's credential reads the matches of its own monitors only, not every monitor of its environment.
create or replace function app_hidden.current_environment_monitor_uuids() returns setof uuid
  language sql stable parallel safe security definer set search_path = pg_catalog, public, pg_temp as $$
  select m.uuid from app_public.monitors m
   where m.environment_uuid = app_hidden.current_environment_uuid()
     and (not 'screen:read' = any (app_hidden.current_api_scopes())
          or m.uuid in (select x.monitor_uuid from app_hidden.station_screen_monitors x
                         where x.screen_uuid = app_hidden.current_station_screen_uuid()))
$$;
comment on function app_hidden.current_environment_monitor_uuids() is 'The monitors of the request''s environment, whether the request uses an API token or a member''s session; for a station screen''s credential only the screen''s monitors. The policies on monitor_matches, feed_monitor_matches and monitor_daily_counts read it, and so does the monitor filter of p2000Messages (a public read made with an API token). SECURITY DEFINER because API tokens cannot read monitor rows.';

-- Whether the caller may read this screen: a member of its environment, or the screen itself.
create function app_hidden.may_read_station_screen(screen app_public.station_screens) returns boolean
  language sql stable parallel safe security definer set search_path = pg_catalog, public, pg_temp as $$
  select screen.environment_uuid = app_hidden.current_member_environment_uuid()
      or screen.uuid = app_hidden.current_station_screen_uuid()
$$;
grant execute on function app_hidden.may_read_station_screen(app_public.station_screens) to app_visitor;

-- The screen as its own credential reads it.
create function app_public.station_screen() returns app_public.station_screens
  language plpgsql stable security definer set search_path = pg_catalog, public, pg_temp as $$
declare
  screen app_public.station_screens;
begin
  select s.* into screen from app_public.station_screens s where s.uuid = app_hidden.current_station_screen_uuid();
  if screen.uuid is null then
    raise exception 'stationScreen is read with a station screen''s credential (claimStationScreen).' using errcode = 'XFORB';
  end if;
  return screen;
end;
$$;
grant execute on function app_public.station_screen() to app_visitor;
comment on function app_public.station_screen() is E'@notNull\nThe station screen whose credential asks (claimStationScreen): its settings, monitors, recent matches with their responders, and its crew. FORBIDDEN for any other caller.';

create function app_public.station_screens() returns setof app_public.station_screens
  language sql stable set search_path = pg_catalog, public, pg_temp as $$
  select s.* from app_public.station_screens s
   where s.environment_uuid = app_hidden.current_member_environment_uuid()
   order by s.created, s.uuid
$$;
grant execute on function app_public.station_screens() to app_visitor;
comment on function app_public.station_screens() is E'@userToken\n@notNull\nThe station screens of the current environment (members only), oldest first.';

create function app_public.station_screens_last_seen_at(screen app_public.station_screens) returns timestamptz
  language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
  select t.last_used_at from app_public.api_tokens t
   where t.uuid = screen.api_token_uuid and app_hidden.may_read_station_screen(screen)
$$;
grant execute on function app_public.station_screens_last_seen_at(app_public.station_screens) to app_visitor;
comment on function app_public.station_screens_last_seen_at(app_public.station_screens) is 'When the screen last asked the service anything (its credential''s last use); null before it has.';

create function app_public.station_screens_paired(screen app_public.station_screens) returns boolean
  language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
  select screen.api_token_uuid is not null and app_hidden.may_read_station_screen(screen)
$$;
grant execute on function app_public.station_screens_paired(app_public.station_screens) to app_visitor;
comment on function app_public.station_screens_paired(app_public.station_screens) is E'@notNull\nTrue once the screen has taken its credential (claimStationScreen); false while it has not yet, or after its credential was revoked.';

create type app_public.station_screen_monitor as (
  uuid uuid,
  name text,
  type text,
  latitude double precision,
  longitude double precision,
  radius double precision
);
comment on type app_public.station_screen_monitor is E'A monitor a station screen shows: its name, type and circle (no criteria, no channels).';

create function app_public.station_screens_monitors(screen app_public.station_screens) returns setof app_public.station_screen_monitor
  language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
  select mo.uuid, mo.name, mo.type, mo.latitude, mo.longitude, mo.radius
    from app_hidden.station_screen_monitors x join app_public.monitors mo on mo.uuid = x.monitor_uuid
   where x.screen_uuid = screen.uuid and app_hidden.may_read_station_screen(screen)
   order by x.position
$$;
grant execute on function app_public.station_screens_monitors(app_public.station_screens) to app_visitor;
comment on function app_public.station_screens_monitors(app_public.station_screens) is E'@notNull\n@behavior -connection +list\nThe monitors the screen shows, in the order chosen.';

create type app_public.station_screen_responder as (
  name text,
  status text,
  arrives_at timestamptz,
  changed timestamptz
);
comment on type app_public.station_screen_responder is E'A crew member''s answer to an alarm as a screen shows it: the channel''s name (never its address or number), going or cancelled, and when they expect to arrive.';

create type app_public.station_screen_match as (
  monitor_uuid uuid,
  monitor_name text,
  incident_uuid uuid,
  message_uuid uuid,
  dossier_uuid uuid,
  matched_at timestamptz,
  last_sended timestamptz,
  sended timestamptz,
  message text,
  plain_text text,
  urgency text,
  discipline text,
  region text,
  street text,
  city text,
  postcode text,
  latitude double precision,
  longitude double precision,
  units text[],
  responders app_public.station_screen_responder[],
  re_alerted_at timestamptz,
  coming_wanted integer
);
comment on type app_public.station_screen_match is E'An incident one of a station screen''s monitors matched: its newest matched page (raw and in plain words), where, the units paged, and the crew''s answers.';
comment on column app_public.station_screen_match.incident_uuid is E'@notNull\nThe dossier, or the message when it has none (as AlertResponder.incidentUuid).';
comment on column app_public.station_screen_match.last_sended is E'@notNull\nWhen the incident''s last matched page was sent: the alarm lasts alarmMinutes from then.';
comment on column app_public.station_screen_match.units is E'@notNull\n@notNullItems\nThe units paged: the descriptions of the page''s capcodes (the capcode where it has none).';
comment on column app_public.station_screen_match.responders is E'@notNull\n@notNullItems\nThe answers for this incident on the screen''s monitors, coming first, then by arrival.';
comment on column app_public.station_screen_match.re_alerted_at is 'When the monitor''s reAlert rule alerted again because too few were coming; null when it did not.';
comment on column app_public.station_screen_match.coming_wanted is 'How many the monitor''s reAlert rule wants coming; null without such a rule.';

-- What is always there in the screen's composite types.
comment on column app_public.station_screen_monitor.uuid is '@notNull';
comment on column app_public.station_screen_monitor.name is '@notNull';
comment on column app_public.station_screen_monitor.type is '@notNull';
comment on column app_public.station_screen_responder.name is E'@notNull\nThe channel''s name.';
comment on column app_public.station_screen_responder.status is E'@notNull\ngoing or cancelled.';
comment on column app_public.station_screen_responder.changed is E'@notNull\nWhen they answered (last).';
comment on column app_public.station_screen_match.monitor_uuid is '@notNull';
comment on column app_public.station_screen_match.monitor_name is '@notNull';
comment on column app_public.station_screen_match.message_uuid is E'@notNull\nThe newest matched page of the incident.';
comment on column app_public.station_screen_match.matched_at is '@notNull';
comment on column app_public.station_screen_match.sended is '@notNull';
comment on column app_public.station_screen_match.message is E'@notNull\nThe page as sent.';
comment on column app_public.station_screen_match.plain_text is 'The page in plain Dutch words (P2000Message.plainText).';

create function app_public.station_screens_matches(screen app_public.station_screens, first integer default 20)
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
      cross join lateral (select * from app_hidden.monitor_matches m where m.monitor_uuid = s.uuid
                           order by m.sended desc limit least(greatest(first, 1), 100)) mm
     order by coalesce(mm.dossier_uuid, mm.message_uuid), mm.sended desc
  )
  select i.monitor_uuid, s.name, i.incident_uuid, m.uuid, i.dossier_uuid, i.matched_at, i.sended, m.sended, m.message,
         app_hidden.p2000_plain_text_kept(m, 'nl'), u.code, d.name, g.name, m.street, m.city, m.postcode, m.latitude, m.longitude,
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
grant execute on function app_public.station_screens_matches(app_public.station_screens, integer) to app_visitor;
comment on function app_public.station_screens_matches(app_public.station_screens, integer) is E'@notNull\n@behavior -connection +list\nThe incidents the screen''s monitors matched, newest first (first: default 20, at most 100), each with its newest matched page and the crew''s answers. The newest is the alarm while its lastSended is less than alarmMinutes ago.';

create type app_public.crew_member as (
  channel_uuid uuid,
  name text,
  type text,
  availability text,
  until timestamptz
);
comment on type app_public.crew_member is E'A crew member as a station screen and the console show them: the channel''s name and type and their availability (available or unavailable, until a time; null when not said or past).';
comment on column app_public.crew_member.channel_uuid is '@notNull';
comment on column app_public.crew_member.name is '@notNull';
comment on column app_public.crew_member.type is '@notNull';
comment on column app_public.crew_member.availability is 'available or unavailable; null when not said, or past its until.';

create function app_hidden.crew_member_of(c app_public.channels) returns app_public.crew_member
  language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
  select row(c.uuid, c.name, c.type,
             case when a.until is null or a.until > now() then a.status end,
             case when a.until > now() then a.until end)::app_public.crew_member
    from (select 1) one left join app_public.crew_availability a on a.channel_uuid = c.uuid
$$;

create function app_public.station_screens_crew(screen app_public.station_screens) returns setof app_public.crew_member
  language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
  select (app_hidden.crew_member_of(c)).*
    from app_public.channels c
   where c.uuid in (select mc.channel_uuid from app_hidden.station_screen_monitors x
                      join app_hidden.monitor_channels mc on mc.monitor_uuid = x.monitor_uuid
                     where x.screen_uuid = screen.uuid)
     and app_hidden.may_read_station_screen(screen)
   order by c.name, c.uuid
$$;
grant execute on function app_public.station_screens_crew(app_public.station_screens) to app_visitor;
comment on function app_public.station_screens_crew(app_public.station_screens) is E'@notNull\n@behavior -connection +list\nThe crew: the channels of the screen''s monitors with their availability, by name.';

create function app_public.crew() returns setof app_public.crew_member
  language sql stable security definer set search_path = pg_catalog, public, pg_temp as $$
  select (app_hidden.crew_member_of(c)).* from app_public.channels c
   where c.environment_uuid = app_hidden.current_member_environment_uuid()
   order by c.name, c.uuid
$$;
grant execute on function app_public.crew() to app_visitor;
comment on function app_public.crew() is E'@userToken\n@notNull\nEvery channel of the current environment as a crew member with their availability (members only), by name.';

-- Tells the screens of these monitors that what they show changed: the stationScreen subscription
-- listens on its credential's channel, station_screen:<API token uuid>.
create function app_hidden.notify_station_screens(monitor_uuids uuid[]) returns void
  language sql volatile security definer set search_path = pg_catalog, public, pg_temp as $$
  select pg_notify('station_screen:' || s.api_token_uuid, '')
    from app_public.station_screens s
   where s.api_token_uuid is not null
     and s.uuid in (select x.screen_uuid from app_hidden.station_screen_monitors x where x.monitor_uuid = any (monitor_uuids))
$$;

create function app_hidden.tg_monitor_matches__after_insert() returns trigger
  language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
begin
  -- A page matched a monitor with a reAlert rule: check, when its minutes are up, who is coming.
  -- One check per monitor and incident (the job key): a dossier's later pages do not postpone it.
  perform graphile_worker.add_job('monitors__check_crew',
            json_build_object('monitor', n.monitor_uuid, 'message', n.message_uuid),
            run_at := now() + make_interval(mins => (mo.notification_rules->'reAlert'->>'minutes')::integer),
            max_attempts := 5,
            job_key := 'check_crew:' || n.monitor_uuid || ':' || coalesce(n.dossier_uuid, n.message_uuid),
            job_key_mode := 'preserve_run_at')
     from new_rows n join app_public.monitors mo on mo.uuid = n.monitor_uuid
    where n.suppressed_reason is null and mo.notification_rules ? 'reAlert'
      and not exists (select 1 from app_hidden.crew_re_alerts r
                       where r.monitor_uuid = n.monitor_uuid and r.incident_uuid = coalesce(n.dossier_uuid, n.message_uuid));
  if exists (select 1 from new_rows n join app_hidden.station_screen_monitors x on x.monitor_uuid = n.monitor_uuid) then
    perform app_hidden.notify_station_screens(array(select distinct n.monitor_uuid from new_rows n));
  end if;
  return null;
end;
$$;
create trigger _910_station_screens after insert on app_hidden.monitor_matches
  referencing new table as new_rows for each statement execute function app_hidden.tg_monitor_matches__after_insert();

create function app_hidden.tg_alert_responders__notify_screens() returns trigger
  language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
begin
  perform app_hidden.notify_station_screens(array(select distinct n.monitor_uuid from new_rows n));
  return null;
end;
$$;
create trigger _910_station_screens_insert after insert on app_public.alert_responders
  referencing new table as new_rows for each statement execute function app_hidden.tg_alert_responders__notify_screens();
create trigger _910_station_screens_update after update on app_public.alert_responders
  referencing new table as new_rows for each statement execute function app_hidden.tg_alert_responders__notify_screens();

create function app_hidden.tg_crew_availability__notify_screens() returns trigger
  language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
begin
  perform app_hidden.notify_station_screens(array(
    select distinct mc.monitor_uuid from app_hidden.monitor_channels mc
     where mc.channel_uuid = (case when tg_op = 'DELETE' then old.channel_uuid else new.channel_uuid end)));
  return null;
end;
$$;
create trigger _910_station_screens after insert or update or delete on app_public.crew_availability
  for each row execute function app_hidden.tg_crew_availability__notify_screens();

-- The rules, with reAlert { coming, minutes }: alert again when fewer than coming answered going in minutes.
create or replace function app_hidden.validate_notification_rules(rules jsonb) returns jsonb
  language plpgsql stable parallel safe set search_path = pg_catalog, public, pg_temp as $$
declare
  unknown text;
begin
  if jsonb_typeof(rules) is distinct from 'object' then
    raise exception 'notificationRules must be a JSON object.' using errcode = 'XINPT';
  end if;
  select string_agg(k, ', ' order by k) into unknown from jsonb_object_keys(rules) k
   where k not in ('quietHours', 'minUrgency', 'maxPerDossier', 'maxPerPeriod', 'relatedSignals', 'language', 'escalations', 'burst', 'reAlert');
  if unknown is not null then
    raise exception 'notificationRules.%: unknown rule (rules: quietHours, minUrgency, maxPerDossier, maxPerPeriod, relatedSignals, language, escalations, burst, reAlert).', unknown
      using errcode = 'XINPT';
  end if;
  if rules ? 'quietHours' and (jsonb_typeof(rules->'quietHours') <> 'object'
      or coalesce(rules->'quietHours'->>'from', '') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
      or coalesce(rules->'quietHours'->>'to', '') !~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
      or exists (select 1 from jsonb_object_keys(rules->'quietHours') k where k not in ('from', 'to'))) then
    raise exception 'notificationRules.quietHours must be { "from": "HH:MM", "to": "HH:MM" } (Dutch time).' using errcode = 'XINPT';
  end if;
  if rules ? 'minUrgency' and not exists (select 1 from app_public.p2000_urgencies u where u.code = rules->>'minUrgency') then
    raise exception 'notificationRules.minUrgency must be an urgency code (A0, A1, A2, B1, B2, P1, P2, P3).' using errcode = 'XINPT';
  end if;
  if rules ? 'maxPerDossier' and coalesce(rules->>'maxPerDossier', '') !~ '^[1-9][0-9]{0,3}$' then
    raise exception 'notificationRules.maxPerDossier must be a whole number from 1 to 9999.' using errcode = 'XINPT';
  end if;
  if rules ? 'maxPerPeriod' and (jsonb_typeof(rules->'maxPerPeriod') <> 'object'
      or coalesce(rules->'maxPerPeriod'->>'count', '') !~ '^[1-9][0-9]{0,3}$'
      or coalesce(rules->'maxPerPeriod'->>'minutes', '') !~ '^[1-9][0-9]{0,4}$'
      or (rules->'maxPerPeriod'->>'minutes')::integer > 10080
      or exists (select 1 from jsonb_object_keys(rules->'maxPerPeriod') k where k not in ('count', 'minutes'))) then
    raise exception 'notificationRules.maxPerPeriod must be { "count": 1-9999, "minutes": 1-10080 }.' using errcode = 'XINPT';
  end if;
  if rules ? 'relatedSignals' and jsonb_typeof(rules->'relatedSignals') <> 'boolean'
     and (jsonb_typeof(rules->'relatedSignals') <> 'array' or jsonb_array_length(rules->'relatedSignals') = 0
          or exists (select 1 from jsonb_array_elements(rules->'relatedSignals') k
                      where k not in ('"traffic_incident"', '"aircraft_landing"', '"aircraft_takeoff"', '"nl_alert"'))) then
    raise exception 'notificationRules.relatedSignals must be true, false, or a list of the kinds of signal to tell of (traffic_incident, aircraft_landing, aircraft_takeoff, nl_alert).'
      using errcode = 'XINPT';
  end if;
  if rules ? 'escalations' and jsonb_typeof(rules->'escalations') <> 'boolean' then
    raise exception 'notificationRules.escalations must be true or false.' using errcode = 'XINPT';
  end if;
  if rules ? 'language' and coalesce(rules->>'language', '') not in ('nl', 'en') then
    raise exception 'notificationRules.language must be nl or en.' using errcode = 'XINPT';
  end if;
  if rules ? 'burst' and (jsonb_typeof(rules->'burst') <> 'object'
      or coalesce(rules->'burst'->>'count', '') !~ '^[1-9][0-9]{0,3}$'
      or (rules->'burst'->>'count')::integer not between 2 and 1000
      or coalesce(rules->'burst'->>'minutes', '') !~ '^[1-9][0-9]{0,3}$'
      or (rules->'burst'->>'minutes')::integer > 1440
      or (rules->'burst' ? 'quietMinutes' and (coalesce(rules->'burst'->>'quietMinutes', '') !~ '^[1-9][0-9]{0,3}$'
          or (rules->'burst'->>'quietMinutes')::integer > 1440))
      or (rules->'burst' ? 'per' and coalesce(rules->'burst'->>'per', '') not in ('monitor', 'area', 'place'))
      or exists (select 1 from jsonb_object_keys(rules->'burst') k where k not in ('count', 'minutes', 'quietMinutes', 'per'))) then
    raise exception 'notificationRules.burst must be { "count": 2-1000, "minutes": 1-1440, "quietMinutes": 1-1440 (optional), "per": "monitor", "area" or "place" (optional) }.'
      using errcode = 'XINPT';
  end if;
  if rules ? 'burst' and rules ?| array['maxPerDossier', 'escalations', 'relatedSignals', 'reAlert'] then
    raise exception 'notificationRules.burst tells of bursts, not of single incidents: it goes without maxPerDossier, escalations, relatedSignals and reAlert.'
      using errcode = 'XINPT';
  end if;
  if rules ? 'reAlert' and (jsonb_typeof(rules->'reAlert') <> 'object'
      or coalesce(rules->'reAlert'->>'coming', '') !~ '^[1-9][0-9]?$'
      or coalesce(rules->'reAlert'->>'minutes', '') !~ '^[1-9][0-9]?$'
      or (rules->'reAlert'->>'minutes')::integer > 60
      or exists (select 1 from jsonb_object_keys(rules->'reAlert') k where k not in ('coming', 'minutes'))) then
    raise exception 'notificationRules.reAlert must be { "coming": 1-99, "minutes": 1-60 }: alert again when fewer than coming answered going within minutes.'
      using errcode = 'XINPT';
  end if;
  return rules;
end;
$$;
comment on function app_hidden.validate_notification_rules(rules jsonb) is 'Checks notificationRules: quietHours { from, to } (Dutch time, HH:MM), minUrgency (an urgency code), maxPerDossier (1-9999), maxPerPeriod { count, minutes }, relatedSignals (true, or the kinds of signal: also tell when a signal of another feed joins a dossier already notified), language (nl or en: the language of the plain text its notifications carry), escalations (true: also tell when a dossier already notified is raised, its urgency or GRIP level), burst { count, minutes, quietMinutes, per } (tell only of bursts of matches, P2000 monitors; not with the rules about single incidents) and reAlert { coming, minutes } (alert the channels again when fewer than coming answered going within minutes of the first page; P2000 monitors). Anything else is refused, and every error names the rule.';

-- The re-alert check (task monitors__check_crew): fewer than wanted going, and not re-alerted yet,
-- sends the page again to the monitor's channels with a headline that says how many are coming.
create function app_private.check_crew(monitor_uuid uuid, message_uuid uuid) returns integer
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
      from app_hidden.monitor_channels mc where mc.monitor_uuid = mo.uuid
    on conflict do nothing
    returning uuid
  )
  select app_hidden.queue_notification_deliveries(array(select n.uuid from new_notifications n order by n.uuid)) into queued;
  perform app_hidden.notify_station_screens(array[mo.uuid]);
  return queued;
end;
$$;
comment on function app_private.check_crew(monitor_uuid uuid, message_uuid uuid) is 'The task monitors__check_crew, queued when a page matched a monitor with a reAlert rule, its minutes later: when fewer than reAlert.coming answered going for the incident, records the re-alert (once per monitor and incident) and queues the page again to the monitor''s channels, each with its own respond link and a headline saying how many are coming. Returns how many deliveries it queued.';

-- A screen asks to be paired: a code a person types (6 characters of an alphabet without 0/O and
-- 1/I, shown as ABC-DEF) and a secret only the screen knows.
create function app_accounts.request_screen_pairing(out code text, out pairing_secret text, out expires_at timestamptz)
  language plpgsql volatile security definer set search_path = pg_catalog, public, pg_temp as $$
declare
  alphabet constant text := 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  bytes bytea;
begin
  if app_hidden.current_api_token_uuid() is null then
    raise exception 'requestScreenPairing needs an API token (the web application''s).' using errcode = 'XAUTH';
  end if;
  delete from app_private.screen_pairings p where p.expires_at < now() - interval '1 hour';
  loop
    bytes := gen_random_bytes(6);
    code := (select string_agg(substr(alphabet, get_byte(bytes, i) % 32 + 1, 1), '' order by i) from generate_series(0, 5) i);
    pairing_secret := 'nlis_pair_' || translate(encode(gen_random_bytes(24), 'base64'), '+/=', '-_');
    expires_at := now() + interval '10 minutes';
    begin
      insert into app_private.screen_pairings (code_hash, secret_hash, expires_at)
      values (digest(code, 'sha256'), digest(pairing_secret, 'sha256'), request_screen_pairing.expires_at);
      exit;
    exception when unique_violation then
      -- A code in use: draw another.
    end;
  end loop;
  code := substr(code, 1, 3) || '-' || substr(code, 4, 3);
end;
$$;
grant execute on function app_accounts.request_screen_pairing() to app_visitor;
comment on function app_accounts.request_screen_pairing() is 'requestScreenPairing: a screen that has no credential asks for a pairing code (shown as ABC-DEF, valid 10 minutes) and a secret it keeps to itself; a member types the code in the console (pairStationScreen) and the screen then takes its credential with the secret (claimStationScreen). Needs an API token (the web application''s shared one).';

create function app_hidden.screen_monitor_uuids(monitor_uuids uuid[], environment uuid) returns uuid[]
  language plpgsql stable security definer set search_path = pg_catalog, public, pg_temp as $$
begin
  if coalesce(cardinality(monitor_uuids), 0) not between 1 and 20 then
    raise exception 'A station screen shows 1 to 20 monitors.' using errcode = 'XINPT';
  end if;
  if exists (select 1 from unnest(monitor_uuids) u
              where not exists (select 1 from app_public.monitors mo where mo.uuid = u and mo.environment_uuid = environment)) then
    raise exception 'Monitor not found.' using errcode = 'XNOTF';
  end if;
  return monitor_uuids;
end;
$$;

-- The screen's monitors, and its point when none was given: the first of them with a location.
create function app_hidden.set_station_screen_monitors(screen uuid, monitor_uuids uuid[]) returns void
  language sql volatile security definer set search_path = pg_catalog, public, pg_temp as $$
  delete from app_hidden.station_screen_monitors x where x.screen_uuid = screen and x.monitor_uuid <> all (monitor_uuids);
  insert into app_hidden.station_screen_monitors (screen_uuid, monitor_uuid, position)
  select screen, u, min(n) from unnest(monitor_uuids) with ordinality as x (u, n) group by u
  on conflict on constraint station_screen_monitors_pkey do update set position = excluded.position;
  update app_public.station_screens s set latitude = m.latitude, longitude = m.longitude
    from (select mo.latitude, mo.longitude from unnest(monitor_uuids) with ordinality as x (u, n)
            join app_public.monitors mo on mo.uuid = x.u where mo.latitude is not null order by x.n limit 1) m
   where s.uuid = screen and s.latitude is null;
$$;

-- The settings a member gives a screen, checked with errors a person can act on (the table's
-- checks stand behind them).
create function app_hidden.check_station_screen_settings(name text, latitude double precision, longitude double precision,
    alarm_minutes integer) returns void
  language plpgsql immutable set search_path = pg_catalog, public, pg_temp as $$
begin
  if name is not null and length(btrim(name)) not between 1 and 100 then
    raise exception 'A station screen''s name has 1 to 100 characters.' using errcode = 'XINPT';
  end if;
  if (latitude is null) <> (longitude is null) or latitude not between 50.6 and 53.7 or longitude not between 3.2 and 7.3 then
    raise exception 'The station''s latitude and longitude go together and lie in the Netherlands.' using errcode = 'XINPT';
  end if;
  if alarm_minutes not between 1 and 240 then
    raise exception 'alarmMinutes is 1 to 240.' using errcode = 'XINPT';
  end if;
end;
$$;

create function app_accounts.pair_station_screen(code text, name text, monitor_uuids uuid[], latitude double precision,
    longitude double precision, alarm_minutes integer) returns app_public.station_screens
  language plpgsql volatile security definer set search_path = pg_catalog, public, pg_temp as $$
declare
  environment uuid := app_accounts.require_current_environment();
  pairing app_private.screen_pairings;
  screen app_public.station_screens;
begin
  if (select count(*) from app_private.screen_pairing_failures f
       where f.environment_uuid = environment and f.at > now() - interval '10 minutes') >= 10 then
    raise exception 'Too many wrong pairing codes; try again in 10 minutes.' using errcode = 'XRATE';
  end if;
  perform app_hidden.check_station_screen_settings(coalesce(name, ''), latitude, longitude, alarm_minutes);
  perform app_hidden.screen_monitor_uuids(monitor_uuids, environment);
  select p.* into pairing from app_private.screen_pairings p
   where p.code_hash = digest(upper(regexp_replace(coalesce(code, ''), '[^A-Za-z0-9]', '', 'g')), 'sha256')
     and p.expires_at > now() and p.screen_uuid is null
   for update;
  if pairing.code_hash is null then
    insert into app_private.screen_pairing_failures (environment_uuid) values (environment);
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
grant execute on function app_accounts.pair_station_screen(text, text, uuid[], double precision, double precision, integer) to app_visitor;
comment on function app_accounts.pair_station_screen(text, text, uuid[], double precision, double precision, integer) is 'pairStationScreen: a member binds the screen showing this code to a new station screen of the current environment (its name, 1-20 of its monitors, the station''s point and the alarm''s minutes). Null for a code no screen shows (wrong or past its 10 minutes); the failure is kept, and 10 in 10 minutes per environment answer RATE_LIMITED.';

create function app_accounts.claim_station_screen(secret text, token_hash bytea, token_preview text) returns app_public.station_screens
  language plpgsql volatile security definer set search_path = pg_catalog, public, pg_temp as $$
declare
  pairing app_private.screen_pairings;
  screen app_public.station_screens;
  token app_public.api_tokens;
begin
  select p.* into pairing from app_private.screen_pairings p where p.secret_hash = digest(coalesce(secret, ''), 'sha256') for update;
  if pairing.secret_hash is null or (pairing.screen_uuid is null and pairing.expires_at <= now()) then
    raise exception 'This pairing has expired: ask for a new code.' using errcode = 'XNOTF';
  end if;
  if pairing.screen_uuid is null then
    return null;
  end if;
  select s.* into screen from app_public.station_screens s where s.uuid = pairing.screen_uuid;
  select t.* into token from app_private.create_api_token(screen.environment_uuid, 'Station screen: ' || screen.name,
      array['screen:read'], null, token_hash, token_preview) t;
  update app_public.station_screens s set api_token_uuid = token.uuid where s.uuid = screen.uuid returning s.* into screen;
  delete from app_private.screen_pairings p where p.code_hash = pairing.code_hash;
  return screen;
end;
$$;
grant execute on function app_accounts.claim_station_screen(text, bytea, text) to app_visitor;
comment on function app_accounts.claim_station_screen(text, bytea, text) is 'claimStationScreen: the screen takes its credential with the secret requestScreenPairing gave it: null while no member has typed its code yet; once paired, an API token with scope screen:read is made for it (the plugin hands the plain token over once) and the pairing ends. An unknown or expired secret answers NOT_FOUND.';

create function app_accounts.update_station_screen(screen_uuid uuid, name text, monitor_uuids uuid[], latitude double precision,
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
         latitude = update_station_screen.latitude,
         longitude = update_station_screen.longitude,
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
grant execute on function app_accounts.update_station_screen(uuid, text, uuid[], double precision, double precision, integer) to app_visitor;
comment on function app_accounts.update_station_screen(uuid, text, uuid[], double precision, double precision, integer) is 'updateStationScreen: changes a screen of the current environment (its name, monitors and alarm minutes when given; its point as given, null taking its first monitor''s); the screen shows the change at once.';

create function app_accounts.delete_station_screen(screen_uuid uuid) returns app_public.station_screens
  language plpgsql volatile security definer set search_path = pg_catalog, public, pg_temp as $$
declare
  environment uuid := app_accounts.require_current_environment();
  screen app_public.station_screens;
begin
  delete from app_public.station_screens s where s.uuid = screen_uuid and s.environment_uuid = environment returning s.* into screen;
  if screen.uuid is null then
    raise exception 'Station screen not found.' using errcode = 'XNOTF';
  end if;
  -- The credential goes with it: its subscription ends (api_token_changed) and it reads nothing more.
  perform app_private.revoke_api_token(screen.api_token_uuid) where screen.api_token_uuid is not null;
  return screen;
end;
$$;
grant execute on function app_accounts.delete_station_screen(uuid) to app_visitor;
comment on function app_accounts.delete_station_screen(uuid) is 'deleteStationScreen: removes a screen of the current environment and revokes its credential at once (its live view ends; the screen shows a pairing code again).';

create function app_accounts.set_crew_availability(channel_uuid uuid, status text, until timestamptz) returns app_public.crew_member
  language plpgsql volatile security definer set search_path = pg_catalog, public, pg_temp as $$
declare
  environment uuid := app_accounts.require_current_environment();
  c app_public.channels;
begin
  select x.* into c from app_public.channels x where x.uuid = set_crew_availability.channel_uuid and x.environment_uuid = environment;
  if c.uuid is null then
    raise exception 'Channel not found.' using errcode = 'XNOTF';
  end if;
  perform app_hidden.store_crew_availability(c, status, until);
  return app_hidden.crew_member_of(c);
end;
$$;
grant execute on function app_accounts.set_crew_availability(uuid, text, timestamptz) to app_visitor;
comment on function app_accounts.set_crew_availability(uuid, text, timestamptz) is 'setCrewAvailability: a member sets a crew member''s (a channel''s) availability: available, unavailable, or null to clear it; until (optional, in the future, within 30 days) ends it.';

create function app_hidden.store_crew_availability(c app_public.channels, status text, until timestamptz) returns void
  language plpgsql volatile security definer set search_path = pg_catalog, public, pg_temp as $$
begin
  if status is null then
    delete from app_public.crew_availability a where a.channel_uuid = c.uuid;
    return;
  end if;
  if status not in ('available', 'unavailable') then
    raise exception 'status must be available or unavailable (or null to clear it).' using errcode = 'XINPT';
  end if;
  if until is not null and (until <= now() or until > now() + interval '30 days') then
    raise exception 'until must be in the future, within 30 days.' using errcode = 'XINPT';
  end if;
  insert into app_public.crew_availability as a (channel_uuid, environment_uuid, status, until)
  values (c.uuid, c.environment_uuid, store_crew_availability.status, store_crew_availability.until)
  on conflict on constraint crew_availability_pkey do update
    set status = excluded.status, until = excluded.until, changed = now();
end;
$$;

create function app_accounts.respond_availability(token text, status text, until timestamptz) returns app_public.crew_member
  language plpgsql volatile security definer set search_path = pg_catalog, public, pg_temp as $$
declare
  n record;
  c app_public.channels;
begin
  select * into n from app_private.respond_token_notification(token);
  select x.* into c from app_public.channels x where x.uuid = n.channel_uuid;
  perform app_hidden.store_crew_availability(c, status, until);
  return app_hidden.crew_member_of(c);
end;
$$;
grant execute on function app_accounts.respond_availability(text, text, timestamptz) to app_visitor;
comment on function app_accounts.respond_availability(text, text, timestamptz) is 'respondAvailability: with a notification''s respond link as the credential (as respondOnTheWay), its recipient says whether they are available (available, unavailable or null to clear; until optional, within 30 days). The screen and the console show it.';

-- respondOnTheWay with the arrival estimate.
drop function app_accounts.respond_on_the_way(text, text);
create function app_accounts.respond_on_the_way(token text, status text, arrival_minutes integer default null) returns uuid
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
    set status = excluded.status, arrives_at = excluded.arrives_at, last_request_uuid = excluded.last_request_uuid, changed = now()
  returning r.uuid into result;
  return result;
end;
$$;
grant execute on function app_accounts.respond_on_the_way(text, text, integer) to app_visitor;
comment on function app_accounts.respond_on_the_way(text, text, integer) is 'respondOnTheWay: the signed respond link of a P2000 notification (app_private.responder_token) is the credential, so no login is needed; records or changes that recipient''s status (going or cancelled) for the incident, as of now, with an optional arrival estimate (arrivalMinutes, going only). A malformed, tampered or expired link answers UNAUTHENTICATED, as every invalid credential token does (migration 000029); the link is checked by app_private.respond_token_notification, as respond_link checks it.';
