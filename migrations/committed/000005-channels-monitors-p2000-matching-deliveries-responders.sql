--! Previous: sha1:f67f3e025648b7d2c63e7c482c5bb01c2b5699de
--! Hash: sha1:257b7b0b905b6e2530d3a2b6944e36f353a2e0dd
--! Message: Channels, monitors, P2000 matching, deliveries and responders

-- Channels, monitors and notifications (issue #5). Re-runnable while it is current.sql.
drop table if exists app_public.alert_responders, app_private.notification_attempts, app_private.notifications,
  app_hidden.monitor_matches, app_hidden.p2000_monitor_criteria, app_hidden.monitor_channels, app_public.monitors,
  app_hidden.monitor_query_fields, app_public.monitor_types, app_private.channel_secrets, app_public.channels,
  app_private.signing_keys cascade;
drop type if exists app_public.channel_header, app_public.monitor_ref, app_public.geo_point cascade;
drop function if exists app_hidden.distance_km(double precision, double precision, double precision, double precision) cascade;
drop function if exists app_hidden.geo_cell(double precision, double precision) cascade;
drop function if exists app_hidden.current_member_environment_uuid() cascade;
drop function if exists app_hidden.current_environment_monitor_uuids() cascade;
drop function if exists app_hidden.parse_json_input(text, text) cascade;
drop function if exists app_hidden.validate_monitor_query(text, jsonb) cascade;
drop function if exists app_hidden.validate_notification_rules(jsonb) cascade;
drop function if exists app_hidden.monitor_channel_uuids(jsonb, uuid) cascade;
drop function if exists app_hidden.tg_monitors__p2000_criteria() cascade;
drop function if exists app_hidden.tg_p2000_messages__queue_matching() cascade;
drop function if exists app_hidden.monitor_suppression(app_public.monitors, app_public.p2000_messages) cascade;
drop function if exists app_private.match_p2000_message(uuid) cascade;
drop function if exists app_private.responder_token(uuid) cascade;
drop function if exists app_private.notification_for_delivery(uuid) cascade;
drop function if exists app_private.record_notification_attempt(uuid, boolean, integer, text, integer, boolean) cascade;
drop function if exists app_public.channels() cascade;
drop function if exists app_public.monitors() cascade;
drop function if exists app_public.monitor(text) cascade;
drop function if exists app_public.monitors_query(app_public.monitors) cascade;
drop function if exists app_public.monitors_channels(app_public.monitors) cascade;
drop function if exists app_public.monitors_notification_rules(app_public.monitors) cascade;
drop function if exists app_public.monitors_responders(app_public.monitors) cascade;
drop function if exists app_accounts.create_channel(text, text, text, text, text, jsonb, text, text) cascade;
drop function if exists app_accounts.delete_channel(text) cascade;
drop function if exists app_accounts.save_monitor(text, boolean, text, text, boolean, text, text, double precision, double precision, text, text, double precision, text, text) cascade;
drop function if exists app_accounts.delete_monitor(text) cascade;
drop function if exists app_accounts.respond_on_the_way(text, text) cascade;

-- HMAC for responder links (trusted extension: the database owner may create it).
create extension if not exists pgcrypto with schema public;

--! split: 0100-channels.sql
-- Where notifications go. Channel rows belong to one environment; members of its organization
-- acting in it (session) manage them.
create type app_public.channel_header as (name text, value text);
comment on type app_public.channel_header is 'An HTTP header a webhook channel sends with every delivery.';

create table app_public.channels (
  uuid uuid primary key default gen_random_uuid(),
  environment_uuid uuid not null references app_public.environments on delete cascade,
  type text not null check (type in ('email', 'sms', 'webhook', 'telegram')),
  name text not null check (length(btrim(name)) between 1 and 200),
  email_address text check (email_address ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  phone_number text check (phone_number ~ '^\+[1-9][0-9]{7,14}$'),
  url text check (url ~ '^https?://'),
  headers app_public.channel_header[] not null default '{}',
  chat_id text check (chat_id ~ '^(-?[0-9]{1,20}|@[A-Za-z0-9_]{5,32})$'),
  created timestamptz not null default now(),
  changed timestamptz not null default now(),
  check (case type when 'email' then email_address is not null when 'sms' then phone_number is not null
                   when 'webhook' then url is not null when 'telegram' then chat_id is not null end)
);
comment on table app_public.channels is 'A notification channel of an environment: e-mail, SMS, webhook or Telegram.';
comment on column app_public.channels.type is 'email, sms, webhook or telegram.';
comment on column app_public.channels.phone_number is 'SMS recipient in E.164 form (+31612345678).';
comment on column app_public.channels.url is 'Webhook target; deliveries are signed (see the README).';
comment on column app_public.channels.chat_id is 'Telegram chat id (or @channelname) the service''s bot writes to.';
comment on column app_public.channels.environment_uuid is '@behavior -*';
comment on constraint channels_environment_uuid_fkey on app_public.channels is '@behavior -*';
create index channels_environment_uuid_idx on app_public.channels (environment_uuid);
create trigger _100_set_changed before update on app_public.channels
  for each row execute function app_hidden.tg__set_changed();
alter table app_public.channels enable row level security;

-- The webhook signing secret: the server needs it in the clear to sign, so it lives where neither
-- the visitor nor the analyst can read it, and the API shows it once, at creation.
create table app_private.channel_secrets (
  channel_uuid uuid primary key references app_public.channels on delete cascade,
  signing_secret text not null check (length(signing_secret) >= 32)
);
alter table app_private.channel_secrets enable row level security;

-- The environment of the request, when the caller is a member of its organization (user sessions).
create function app_hidden.current_member_environment_uuid() returns uuid
  language sql stable security definer parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select e.uuid from app_public.environments e
   where e.uuid = app_hidden.current_environment_uuid()
     and e.organization_uuid in (select app_hidden.current_user_organization_uuids())
$$;
comment on function app_hidden.current_member_environment_uuid() is 'The current environment if the user of this request is a member of its organization.';

create policy select_member_environment on app_public.channels for select to app_visitor
  using (environment_uuid = (select app_hidden.current_member_environment_uuid()));
grant select on app_public.channels to app_visitor;

create function app_public.channels() returns setof app_public.channels
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select c.* from app_public.channels c
   where c.environment_uuid = app_hidden.current_member_environment_uuid()
   order by c.created, c.uuid
$$;
comment on function app_public.channels() is 'Notification channels of the current environment.';

-- Called by plugins/monitor-mutations.ts after Node checked the webhook target (DNS) and made the
-- signing secret.
create function app_accounts.create_channel(type text, name text, email_address text, phone_number text, url text,
  headers jsonb, chat_id text, signing_secret text) returns uuid
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  channel_type text := lower(btrim(create_channel.type));
  result uuid;
  header_list app_public.channel_header[];
begin
  if channel_type is null or channel_type not in ('email', 'sms', 'webhook', 'telegram') then
    raise exception 'type must be email, sms, webhook or telegram.' using errcode = 'XINPT';
  end if;
  if name is null or length(btrim(name)) not between 1 and 200 then
    raise exception 'name must have 1 to 200 characters.' using errcode = 'XINPT';
  end if;
  if (select count(*) from app_public.channels c where c.environment_uuid = environment) >= 100 then
    raise exception 'An environment has at most 100 channels.' using errcode = 'XINPT';
  end if;
  case channel_type
  when 'email' then
    if email_address is null or btrim(email_address) !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or length(email_address) > 254 then
      raise exception 'emailAddress must be an e-mail address for an email channel.' using errcode = 'XINPT';
    end if;
  when 'sms' then
    if phone_number is null or regexp_replace(phone_number, '[\s-]', '', 'g') !~ '^\+[1-9][0-9]{7,14}$' then
      raise exception 'phoneNumber must be an E.164 number such as +31612345678 for an sms channel.' using errcode = 'XINPT';
    end if;
  when 'webhook' then
    if url is null or url !~ '^https?://[^\s/?#]+([/?#]\S*)?$' or length(url) > 2000 then
      raise exception 'url must be an http(s) URL for a webhook channel.' using errcode = 'XINPT';
    end if;
    if signing_secret is null then
      raise exception 'A webhook channel needs a signing secret.' using errcode = 'XINPT';
    end if;
  when 'telegram' then
    if chat_id is null or btrim(chat_id) !~ '^(-?[0-9]{1,20}|@[A-Za-z0-9_]{5,32})$' then
      raise exception 'chatId must be a Telegram chat id (digits) or @channelname for a telegram channel.' using errcode = 'XINPT';
    end if;
  end case;
  if headers is not null and jsonb_array_length(headers) > 0 then
    if channel_type <> 'webhook' then
      raise exception 'headers apply to webhook channels only.' using errcode = 'XINPT';
    end if;
    if jsonb_array_length(headers) > 20 then
      raise exception 'A webhook has at most 20 headers.' using errcode = 'XINPT';
    end if;
    if exists (select 1 from jsonb_array_elements(headers) h
                where coalesce(h->>'name', '') !~ '^[A-Za-z0-9!#$%&''*+.^_`|~-]{1,100}$'
                   or coalesce(h->>'value', '') ~ '[\r\n]' or length(h->>'value') > 2000
                   or lower(h->>'name') in ('host', 'content-length', 'content-type', 'webhook-id', 'webhook-timestamp',
                                            'webhook-signature', 'transfer-encoding', 'connection')) then
      raise exception 'headers: each needs a valid name (not Host, Content-*, Webhook-* or hop-by-hop) and a value of one line.'
        using errcode = 'XINPT';
    end if;
    header_list := array(select row(h->>'name', coalesce(h->>'value', ''))::app_public.channel_header
                           from jsonb_array_elements(headers) with ordinality as x (h, i) order by i);
  end if;
  insert into app_public.channels (environment_uuid, type, name, email_address, phone_number, url, headers, chat_id)
  values (environment, channel_type, btrim(name),
          case when channel_type = 'email' then lower(btrim(email_address)) end,
          case when channel_type = 'sms' then regexp_replace(phone_number, '[\s-]', '', 'g') end,
          case when channel_type = 'webhook' then btrim(url) end,
          coalesce(header_list, '{}'),
          case when channel_type = 'telegram' then btrim(chat_id) end)
  returning uuid into result;
  if channel_type = 'webhook' then
    insert into app_private.channel_secrets (channel_uuid, signing_secret) values (result, signing_secret);
  end if;
  return result;
end;
$$;

create function app_accounts.delete_channel(channel_uuid text) returns boolean
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
begin
  delete from app_public.channels c where c.uuid = app_hidden.try_uuid(channel_uuid) and c.environment_uuid = environment;
  if not found then
    raise exception 'Channel not found.' using errcode = 'XNOTF';
  end if;
  return true;
end;
$$;

--! split: 0200-monitor-types.sql
-- Monitor types and the JSON shape of each type's query: one row per field, checked by
-- app_hidden.validate_monitor_query. A type's matcher reads its own criteria; see README.
create table app_public.monitor_types (
  name text primary key,
  description text not null
);
comment on table app_public.monitor_types is 'The kinds of monitor: what their query selects.';
alter table app_public.monitor_types enable row level security;
create policy select_all on app_public.monitor_types for select to app_visitor, app_analyst using (true);
grant select on app_public.monitor_types to app_visitor, app_analyst;
insert into app_public.monitor_types (name, description) values
  ('p2000', 'P2000 messages by capcode, region, discipline, urgency, keywords and distance.'),
  ('accident', 'Traffic incidents (accidents, breakdowns, unattended vehicles) near a location or on roads.'),
  ('aircraft', 'Trauma and police helicopters near a location.'),
  ('meteo_weather', 'Weather warnings for regions at or above a colour level.'),
  ('rail_disruptions', 'Railway disruptions on routes.'),
  ('matrix', 'Traffic jams on roads, from a minimum delay.'),
  ('rss', 'New items of RSS or Atom feeds, optionally with keywords.');

create table app_hidden.monitor_query_fields (
  monitor_type text not null references app_public.monitor_types,
  field text not null,
  -- strings: list of text; capcodes, regions, disciplines, urgencies: lists checked against the
  -- P2000 reference data; choices: list of the values in `choices`; urls: list of http(s) URLs;
  -- boolean; integer (0-10000).
  kind text not null check (kind in ('strings', 'capcodes', 'regions', 'disciplines', 'urgencies', 'choices', 'urls', 'boolean', 'integer')),
  required boolean not null default false,
  choices text[],
  description text not null,
  primary key (monitor_type, field)
);
comment on table app_hidden.monitor_query_fields is 'The fields a monitor type''s query may have, their kind and whether they are required.';
alter table app_hidden.monitor_query_fields enable row level security;
create policy select_all on app_hidden.monitor_query_fields for select to app_visitor, app_analyst using (true);
grant select on app_hidden.monitor_query_fields to app_visitor, app_analyst;
insert into app_hidden.monitor_query_fields (monitor_type, field, kind, required, choices, description) values
  ('p2000', 'capcodes', 'capcodes', false, null, 'Capcodes (7 or 9 digits): messages sent to any of them.'),
  ('p2000', 'regions', 'regions', false, null, 'Safety regions by number (17) or slug (rotterdam-rijnmond).'),
  ('p2000', 'disciplines', 'disciplines', false, null, 'Disciplines by name or slug (Brandweer, Ambulance, Politie, KNRM).'),
  ('p2000', 'urgencies', 'urgencies', false, null, 'Urgency codes (A1, P1, ...).'),
  ('p2000', 'keywords', 'strings', false, null, 'Words of which the text must contain at least one (case-insensitive).'),
  ('p2000', 'excludeKeywords', 'strings', false, null, 'Words the text must not contain.'),
  ('p2000', 'includeExercises', 'boolean', false, null, 'Also match tests and exercises (default false).'),
  ('accident', 'types', 'choices', false, array['accident', 'breakdown', 'unattended'], 'Incident types.'),
  ('accident', 'roads', 'strings', false, null, 'Roads such as A2 or N59.'),
  ('aircraft', 'kinds', 'choices', false, array['trauma', 'police'], 'Helicopter kinds.'),
  ('aircraft', 'registrations', 'strings', false, null, 'Registrations such as PH-ULP.'),
  ('meteo_weather', 'regions', 'strings', false, null, 'Province codes of weather warnings.'),
  ('meteo_weather', 'levels', 'choices', false, array['yellow', 'orange', 'red'], 'Warning colours.'),
  ('rail_disruptions', 'routes', 'strings', false, null, 'Routes from railRoutes.'),
  ('matrix', 'roads', 'strings', false, null, 'Roads such as A2.'),
  ('matrix', 'minDelayMinutes', 'integer', false, null, 'Only jams with at least this delay.'),
  ('rss', 'feeds', 'urls', true, null, 'Feed URLs (http or https).'),
  ('rss', 'keywords', 'strings', false, null, 'Words of which an item must contain at least one.');

-- A JSON string argument as jsonb, or a BAD_USER_INPUT error naming the argument.
create function app_hidden.parse_json_input(value text, argument text) returns jsonb
  language plpgsql immutable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  return value::jsonb;
exception when invalid_text_representation then
  raise exception '% is not valid JSON.', argument using errcode = 'XINPT';
end;
$$;

-- Checks a query against its type's fields; returns it with capcodes normalised, names trimmed and
-- keywords lower-cased. Every error names the field.
create function app_hidden.validate_monitor_query(monitor_type text, query jsonb) returns jsonb
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
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
$$;

-- notificationRules: quietHours { from, to } (Dutch local time, HH:MM), minUrgency (a code; the
-- message must be at least that urgent), maxPerDossier (notifications per incident),
-- maxPerPeriod { count, minutes }.
create function app_hidden.validate_notification_rules(rules jsonb) returns jsonb
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  unknown text;
begin
  if jsonb_typeof(rules) is distinct from 'object' then
    raise exception 'notificationRules must be a JSON object.' using errcode = 'XINPT';
  end if;
  select string_agg(k, ', ' order by k) into unknown from jsonb_object_keys(rules) k
   where k not in ('quietHours', 'minUrgency', 'maxPerDossier', 'maxPerPeriod');
  if unknown is not null then
    raise exception 'notificationRules.%: unknown rule (rules: quietHours, minUrgency, maxPerDossier, maxPerPeriod).', unknown
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
  return rules;
end;
$$;

--! split: 0300-monitors.sql
create table app_public.monitors (
  uuid uuid primary key default gen_random_uuid(),
  environment_uuid uuid not null references app_public.environments on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 200),
  description text check (length(description) <= 2000),
  active boolean not null default true,
  type text not null default 'p2000' references app_public.monitor_types,
  query jsonb not null default '{}',
  latitude double precision check (latitude between -90 and 90),
  longitude double precision check (longitude between -180 and 180),
  location_mode text not null default 'fixed' check (location_mode in ('fixed', 'live')),
  location_live_source_id text check (length(location_live_source_id) <= 200),
  radius double precision check (radius > 0 and radius <= 250),
  notification_rules jsonb not null default '{}',
  created timestamptz not null default now(),
  changed timestamptz not null default now(),
  check ((latitude is null) = (longitude is null)),
  check (radius is null or latitude is not null)
);
comment on table app_public.monitors is 'Criteria that notify the monitor''s channels when something matching happens.';
comment on column app_public.monitors.radius is 'Kilometres around the location (0-250); with a location, only located items within it match.';
comment on column app_public.monitors.location_mode is 'fixed, or live: the location follows a device (locationLiveSourceId) that posts positions through updateMonitor.';
comment on column app_public.monitors.environment_uuid is '@behavior -*';
comment on column app_public.monitors.query is '@behavior -*';
comment on column app_public.monitors.notification_rules is '@behavior -*';
comment on column app_public.monitors.latitude is '@behavior -*';
comment on column app_public.monitors.longitude is '@behavior -*';
comment on constraint monitors_environment_uuid_fkey on app_public.monitors is '@behavior -*';
comment on constraint monitors_type_fkey on app_public.monitors is '@behavior -*';
create index monitors_environment_uuid_idx on app_public.monitors (environment_uuid);
create trigger _100_set_changed before update on app_public.monitors
  for each row execute function app_hidden.tg__set_changed();
alter table app_public.monitors enable row level security;
create policy select_member_environment on app_public.monitors for select to app_visitor
  using (environment_uuid = (select app_hidden.current_member_environment_uuid()));
grant select on app_public.monitors to app_visitor;

create table app_hidden.monitor_channels (
  monitor_uuid uuid not null references app_public.monitors on delete cascade,
  channel_uuid uuid not null references app_public.channels on delete cascade,
  primary key (monitor_uuid, channel_uuid)
);
create index monitor_channels_channel_uuid_idx on app_hidden.monitor_channels (channel_uuid);
alter table app_hidden.monitor_channels enable row level security;
create policy select_member_environment on app_hidden.monitor_channels for select to app_visitor
  using (exists (select 1 from app_public.monitors m where m.uuid = monitor_uuid));
grant select on app_hidden.monitor_channels to app_visitor;

create type app_public.geo_point as (latitude double precision, longitude double precision);
comment on type app_public.geo_point is 'A WGS84 position.';

create function app_public.monitors_location(m app_public.monitors) returns app_public.geo_point
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select case when m.latitude is not null then row(m.latitude, m.longitude)::app_public.geo_point end
$$;
comment on function app_public.monitors_location(app_public.monitors) is 'The centre of the radius; null without one.';

create function app_public.monitors_query(m app_public.monitors) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select m.query::text
$$;
comment on function app_public.monitors_query(app_public.monitors) is E'@notNull\nThe type''s criteria as a JSON string (shapes in the README).';

create function app_public.monitors_notification_rules(m app_public.monitors) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select m.notification_rules::text
$$;
comment on function app_public.monitors_notification_rules(app_public.monitors) is E'@notNull\nquietHours, minUrgency, maxPerDossier and maxPerPeriod as a JSON string.';

create function app_public.monitors_channels(m app_public.monitors) returns text
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(jsonb_agg(mc.channel_uuid order by mc.channel_uuid), '[]')::text
    from app_hidden.monitor_channels mc where mc.monitor_uuid = m.uuid
$$;
comment on function app_public.monitors_channels(app_public.monitors) is E'@notNull\nThe uuids of the channels it notifies, as a JSON array string.';

create function app_public.monitors() returns setof app_public.monitors
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select m.* from app_public.monitors m
   where m.environment_uuid = app_hidden.current_member_environment_uuid()
   order by m.created, m.uuid
$$;
comment on function app_public.monitors() is 'Monitors of the current environment.';

create function app_public.monitor(uuid text) returns app_public.monitors
  language sql stable strict parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select m.* from app_public.monitors m
   where m.uuid = app_hidden.try_uuid(monitor.uuid) and m.environment_uuid = app_hidden.current_member_environment_uuid()
$$;
comment on function app_public.monitor(text) is 'One monitor of the current environment; null when there is none.';

-- The channel uuids of a monitor's `channels` JSON, each checked to be a channel of the environment.
create function app_hidden.monitor_channel_uuids(channels jsonb, environment uuid) returns uuid[]
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  wanted text[];
  unknown text;
begin
  if jsonb_typeof(channels) is distinct from 'array' or exists (select 1 from jsonb_array_elements(channels) e where jsonb_typeof(e) <> 'string') then
    raise exception 'channels must be a JSON array of channel uuids.' using errcode = 'XINPT';
  end if;
  wanted := array(select distinct e from jsonb_array_elements_text(channels) e);
  select string_agg(w, ', ') into unknown from unnest(wanted) w
   where not exists (select 1 from app_public.channels c where c.uuid = app_hidden.try_uuid(w) and c.environment_uuid = environment);
  if unknown is not null then
    raise exception 'channels: no channel % in this environment.', unknown using errcode = 'XINPT';
  end if;
  return array(select app_hidden.try_uuid(w) from unnest(wanted) w);
end;
$$;

-- createMonitor (monitor_uuid null) and updateMonitor: arguments left null keep their value on
-- update (the *_given flags tell "set to null" from "not given" for the clearable ones).
create function app_accounts.save_monitor(monitor_uuid text, location_given boolean, name text, description text,
  active boolean, type text, query text, latitude double precision, longitude double precision, location_mode text,
  location_live_source_id text, radius double precision, channels text, notification_rules text) returns uuid
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  m app_public.monitors;
  channel_uuids uuid[];
begin
  if monitor_uuid is null then
    if (select count(*) from app_public.monitors x where x.environment_uuid = environment) >= 1000 then
      raise exception 'An environment has at most 1000 monitors.' using errcode = 'XINPT';
    end if;
    m.environment_uuid := environment;
    m.active := true;
    m.type := 'p2000';
    m.query := '{}';
    m.location_mode := 'fixed';
    m.notification_rules := '{}';
  else
    select * into m from app_public.monitors x where x.uuid = app_hidden.try_uuid(monitor_uuid) and x.environment_uuid = environment
      for update;
    if m.uuid is null then
      raise exception 'Monitor not found.' using errcode = 'XNOTF';
    end if;
  end if;
  if name is not null or monitor_uuid is null then
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
    if not exists (select 1 from app_public.monitor_types t where t.name = save_monitor.type) then
      raise exception 'type must be one of: %.', (select string_agg(t.name, ', ' order by t.name) from app_public.monitor_types t)
        using errcode = 'XINPT';
    end if;
    m.type := save_monitor.type;
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
  if channel_uuids is not null then
    delete from app_hidden.monitor_channels mc where mc.monitor_uuid = m.uuid and mc.channel_uuid <> all (channel_uuids);
    insert into app_hidden.monitor_channels (monitor_uuid, channel_uuid)
    select m.uuid, c from unnest(channel_uuids) c on conflict do nothing;
  end if;
  return m.uuid;
end;
$$;

create function app_accounts.delete_monitor(monitor_uuid text) returns boolean
  language plpgsql volatile security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
begin
  delete from app_public.monitors m where m.uuid = app_hidden.try_uuid(monitor_uuid) and m.environment_uuid = environment;
  if not found then
    raise exception 'Monitor not found.' using errcode = 'XNOTF';
  end if;
  return true;
end;
$$;

--! split: 0400-p2000-matching.sql
-- Great-circle distance in km (haversine).
create function app_hidden.distance_km(lat1 double precision, lon1 double precision, lat2 double precision, lon2 double precision)
  returns double precision
  language sql immutable strict parallel safe
as $$
  select 2 * 6371.0088 * asin(least(1, sqrt(sin(radians(lat2 - lat1) / 2) ^ 2
         + cos(radians(lat1)) * cos(radians(lat2)) * sin(radians(lon2 - lon1) / 2) ^ 2)))
$$;

-- A grid cell of 0.1° latitude by 0.15° longitude (about 11 by 10 km in the Netherlands).
create function app_hidden.geo_cell(latitude double precision, longitude double precision) returns text
  language sql immutable strict parallel safe
as $$
  select 'g:' || floor(latitude / 0.1)::integer || ':' || floor(longitude / 0.15)::integer
$$;

-- What a P2000 monitor asks for, in matchable form, kept by a trigger on monitors. anchor_keys are
-- the keys of its most selective criterion (capcodes, else the grid cells its circle touches, else
-- regions, else disciplines, else '*'); a message looks up candidates by its own keys through the
-- GIN index, and only those candidates are checked in full.
create table app_hidden.p2000_monitor_criteria (
  monitor_uuid uuid primary key references app_public.monitors on delete cascade,
  capcode_names text[] not null,
  region_uuids uuid[] not null,
  discipline_uuids uuid[] not null,
  urgency_uuids uuid[] not null,
  keywords text[] not null,
  exclude_keywords text[] not null,
  include_exercises boolean not null,
  latitude double precision,
  longitude double precision,
  radius double precision,
  anchor_keys text[] not null
);
comment on table app_hidden.p2000_monitor_criteria is 'Active P2000 monitors in matchable form (derived from monitors by trigger).';
create index p2000_monitor_criteria_anchor_keys_idx on app_hidden.p2000_monitor_criteria using gin (anchor_keys);
alter table app_hidden.p2000_monitor_criteria enable row level security;

create function app_hidden.tg_monitors__p2000_criteria() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  c app_hidden.p2000_monitor_criteria;
  lat_span integer;
  lon_span integer;
begin
  delete from app_hidden.p2000_monitor_criteria x where x.monitor_uuid = new.uuid;
  if new.type <> 'p2000' or not new.active then
    return null;
  end if;
  c.monitor_uuid := new.uuid;
  c.capcode_names := array(select jsonb_array_elements_text(coalesce(new.query->'capcodes', '[]')));
  c.region_uuids := array(select g.uuid from app_public.p2000_regions g where g.number in (select jsonb_array_elements_text(coalesce(new.query->'regions', '[]'))));
  c.discipline_uuids := array(select d.uuid from app_public.p2000_disciplines d where d.name in (select jsonb_array_elements_text(coalesce(new.query->'disciplines', '[]'))));
  c.urgency_uuids := array(select u.uuid from app_public.p2000_urgencies u where u.code in (select jsonb_array_elements_text(coalesce(new.query->'urgencies', '[]'))));
  c.keywords := array(select jsonb_array_elements_text(coalesce(new.query->'keywords', '[]')));
  c.exclude_keywords := array(select jsonb_array_elements_text(coalesce(new.query->'excludeKeywords', '[]')));
  c.include_exercises := coalesce((new.query->>'includeExercises')::boolean, false);
  if new.radius is not null then
    c.latitude := new.latitude;
    c.longitude := new.longitude;
    c.radius := new.radius;
    lat_span := ceil(new.radius / 111.0 / 0.1);
    lon_span := ceil(new.radius / (111.0 * greatest(cos(radians(new.latitude)), 0.01)) / 0.15);
  end if;
  c.anchor_keys := case
    when cardinality(c.capcode_names) > 0 then array(select 'c:' || n from unnest(c.capcode_names) n)
    when c.radius is not null and (2 * lat_span + 1) * (2 * lon_span + 1) <= 400 then array(
      select app_hidden.geo_cell(new.latitude + dy * 0.1, new.longitude + dx * 0.15)
        from generate_series(-lat_span, lat_span) dy, generate_series(-lon_span, lon_span) dx)
    when cardinality(c.region_uuids) > 0 then array(select 'r:' || r from unnest(c.region_uuids) r)
    when cardinality(c.discipline_uuids) > 0 then array(select 'd:' || d from unnest(c.discipline_uuids) d)
    else array['*']
  end;
  insert into app_hidden.p2000_monitor_criteria select c.*;
  return null;
end;
$$;
create trigger _500_p2000_criteria after insert or update on app_public.monitors
  for each row execute function app_hidden.tg_monitors__p2000_criteria();

-- Messages that matched a monitor (whether or not rules let a notification through): the source
-- of p2000Messages(filter: { monitor }) and of the throttles.
create table app_hidden.monitor_matches (
  monitor_uuid uuid not null references app_public.monitors on delete cascade,
  message_uuid uuid not null references app_public.p2000_messages on delete cascade,
  dossier_uuid uuid,
  sended timestamptz not null,
  matched_at timestamptz not null default now(),
  -- null when the monitor's channels were notified; else why not (quiet_hours, min_urgency, ...).
  suppressed_reason text,
  primary key (monitor_uuid, message_uuid)
);
create index monitor_matches_monitor_sended_idx on app_hidden.monitor_matches (monitor_uuid, sended desc);
create index monitor_matches_monitor_dossier_idx on app_hidden.monitor_matches (monitor_uuid, dossier_uuid) where dossier_uuid is not null;
create index monitor_matches_message_uuid_idx on app_hidden.monitor_matches (message_uuid);
alter table app_hidden.monitor_matches enable row level security;

-- Monitors of the request's environment, for API tokens as well as members' sessions (the monitor
-- filter of p2000Messages is a public read, made with an API token of that environment).
create function app_hidden.current_environment_monitor_uuids() returns setof uuid
  language sql stable security definer parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select m.uuid from app_public.monitors m where m.environment_uuid = app_hidden.current_environment_uuid()
$$;
create policy select_current_environment on app_hidden.monitor_matches for select to app_visitor
  using (monitor_uuid in (select app_hidden.current_environment_monitor_uuids()));
grant select on app_hidden.monitor_matches to app_visitor;

-- One delivery of one matched message to one channel of the monitor. The unique key makes a
-- repeated match (retried job, merged duplicate, second trigger) a no-op.
create table app_private.notifications (
  uuid uuid primary key default gen_random_uuid(),
  monitor_uuid uuid not null references app_public.monitors on delete cascade,
  channel_uuid uuid not null references app_public.channels on delete cascade,
  message_uuid uuid not null references app_public.p2000_messages on delete cascade,
  dossier_uuid uuid,
  status text not null default 'queued' check (status in ('queued', 'delivered', 'failed')),
  attempts integer not null default 0,
  delivered_at timestamptz,
  created timestamptz not null default now(),
  unique (monitor_uuid, channel_uuid, message_uuid)
);
create index notifications_channel_uuid_idx on app_private.notifications (channel_uuid);
create index notifications_message_uuid_idx on app_private.notifications (message_uuid);
alter table app_private.notifications enable row level security;

create table app_private.notification_attempts (
  uuid uuid primary key default gen_random_uuid(),
  notification_uuid uuid not null references app_private.notifications on delete cascade,
  attempted_at timestamptz not null default now(),
  succeeded boolean not null,
  response_code integer,
  error text,
  duration_ms integer
);
create index notification_attempts_notification_uuid_idx on app_private.notification_attempts (notification_uuid);
alter table app_private.notification_attempts enable row level security;

-- Why a matched message notifies nobody, or null: quiet hours, minimum urgency, throttles.
create function app_hidden.monitor_suppression(mo app_public.monitors, m app_public.p2000_messages) returns text
  language plpgsql stable
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  rules jsonb := mo.notification_rules;
  local_time time := (now() at time zone 'Europe/Amsterdam')::time;
  quiet_from time;
  quiet_to time;
begin
  if rules ? 'quietHours' then
    quiet_from := (rules->'quietHours'->>'from')::time;
    quiet_to := (rules->'quietHours'->>'to')::time;
    if (quiet_from <= quiet_to and local_time >= quiet_from and local_time < quiet_to)
       or (quiet_from > quiet_to and (local_time >= quiet_from or local_time < quiet_to)) then
      return 'quiet_hours';
    end if;
  end if;
  if rules ? 'minUrgency' and coalesce((select u.rank from app_public.p2000_urgencies u where u.uuid = m.urgency_uuid), 999)
       > (select u.rank from app_public.p2000_urgencies u where u.code = rules->>'minUrgency') then
    return 'min_urgency';
  end if;
  if rules ? 'maxPerDossier' and m.dossier_uuid is not null and (select count(*) from app_hidden.monitor_matches x
       where x.monitor_uuid = mo.uuid and x.dossier_uuid = m.dossier_uuid and x.suppressed_reason is null)
       >= (rules->>'maxPerDossier')::integer then
    return 'max_per_dossier';
  end if;
  if rules ? 'maxPerPeriod' and (select count(*) from app_hidden.monitor_matches x
       where x.monitor_uuid = mo.uuid and x.suppressed_reason is null
         and x.matched_at > now() - make_interval(mins => (rules->'maxPerPeriod'->>'minutes')::integer))
       >= (rules->'maxPerPeriod'->>'count')::integer then
    return 'max_per_period';
  end if;
  return null;
end;
$$;

-- The matcher of P2000 monitors (task monitors__match_p2000): records the matches of one message
-- and queues one delivery job per monitor × channel, keyed by the notification, all in one
-- transaction and set-based (a message may match many monitors). Returns how many deliveries it
-- queued; a second run for the same message finds its matches and queues nothing.
create function app_private.match_p2000_message(message_uuid uuid) returns integer
  language plpgsql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  m app_public.p2000_messages;
  probe text[];
  text_lower text;
  matched uuid[];
  queued integer;
begin
  select * into m from app_public.p2000_messages x where x.uuid = match_p2000_message.message_uuid;
  if m.uuid is null then
    return 0;
  end if;
  text_lower := lower(m.message);
  probe := array['*'] || array(select 'c:' || n from unnest(m.capcode_names) n)
    || case when m.latitude is not null then array[app_hidden.geo_cell(m.latitude, m.longitude)] else '{}' end
    || case when m.region_uuid is not null then array['r:' || m.region_uuid] else '{}' end
    || case when m.discipline_uuid is not null then array['d:' || m.discipline_uuid] else '{}' end;
  -- Candidates by index (anchor keys), then every criterion in full.
  matched := array(
    select c.monitor_uuid from app_hidden.p2000_monitor_criteria c
     where c.anchor_keys && probe
       and (cardinality(c.capcode_names) = 0 or c.capcode_names && m.capcode_names)
       and (cardinality(c.region_uuids) = 0 or m.region_uuid = any (c.region_uuids))
       and (cardinality(c.discipline_uuids) = 0 or m.discipline_uuid = any (c.discipline_uuids))
       and (cardinality(c.urgency_uuids) = 0 or m.urgency_uuid = any (c.urgency_uuids))
       and (c.include_exercises or m.exercise_type = 'none')
       and (c.radius is null or (m.latitude is not null
            and app_hidden.distance_km(c.latitude, c.longitude, m.latitude, m.longitude) <= c.radius))
       and (cardinality(c.keywords) = 0 or exists (select 1 from unnest(c.keywords) k where strpos(text_lower, k) > 0))
       and not exists (select 1 from unnest(c.exclude_keywords) k where strpos(text_lower, k) > 0)
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

-- A new message queues one matching job (per statement: a bulk insert queues one job for all its
-- rows). Only live traffic is matched: history older than an hour (imports, demo data) notifies
-- nobody, nor does a message dated far ahead (a wrong clock).
create function app_hidden.tg_p2000_messages__queue_matching() returns trigger
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  fresh uuid[];
begin
  fresh := array(select n.uuid from new_messages n where n.sended between now() - interval '1 hour' and now() + interval '1 hour');
  if cardinality(fresh) > 0 then
    perform graphile_worker.add_job('monitors__match_p2000', json_build_object('messageUuids', fresh), max_attempts := 10);
  end if;
  return null;
end;
$$;
create trigger _600_queue_matching after insert on app_public.p2000_messages
  referencing new table as new_messages
  for each statement execute function app_hidden.tg_p2000_messages__queue_matching();
-- A copy from another receiver adds capcodes to the first message: match it again (matches and
-- notifications already made stay single).
create trigger _600_queue_rematching after update on app_public.p2000_messages
  referencing new table as new_messages
  for each statement execute function app_hidden.tg_p2000_messages__queue_matching();

--! split: 0500-deliveries.sql
create table app_private.signing_keys (
  purpose text primary key,
  key bytea not null default gen_random_bytes(32)
);
comment on table app_private.signing_keys is 'HMAC keys of this installation by purpose (responder links).';
alter table app_private.signing_keys enable row level security;
insert into app_private.signing_keys (purpose) values ('responder') on conflict do nothing;

-- A respond link token: base64url(payload).base64url(HMAC-SHA256), the payload binding the
-- notification, its monitor, its incident (dossier, else message), its recipient (channel) and
-- an expiry 24 hours after the notification.
create function app_private.responder_token(notification_uuid uuid) returns text
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  with payload as (
    select convert_to(concat_ws('.', n.uuid, n.monitor_uuid, coalesce(n.dossier_uuid, n.message_uuid), n.channel_uuid,
                                extract(epoch from n.created + interval '24 hours')::bigint), 'UTF8') as bytes
      from app_private.notifications n where n.uuid = responder_token.notification_uuid
  )
  select translate(encode(p.bytes, 'base64'), E'+/=\n', '-_') || '.'
      || translate(encode(hmac(p.bytes, k.key, 'sha256'), 'base64'), E'+/=\n', '-_')
    from payload p, app_private.signing_keys k where k.purpose = 'responder'
$$;

-- Who answered a notification: one row per incident and recipient, updated when they change
-- their answer.
create table app_public.alert_responders (
  uuid uuid primary key default gen_random_uuid(),
  environment_uuid uuid not null references app_public.environments on delete cascade,
  monitor_uuid uuid not null references app_public.monitors on delete cascade,
  channel_uuid uuid not null references app_public.channels on delete cascade,
  dossier_uuid uuid references app_public.p2000_dossiers on delete set null,
  message_uuid uuid not null references app_public.p2000_messages on delete cascade,
  incident_uuid uuid not null,
  recipient text not null,
  status text not null check (status in ('going', 'cancelled')),
  created timestamptz not null default now(),
  changed timestamptz not null default now(),
  -- The request that last answered, so that request alone can read the row back (it has no login).
  last_request_uuid uuid,
  unique (monitor_uuid, incident_uuid, channel_uuid)
);
comment on table app_public.alert_responders is 'A recipient''s answer (going or cancelled) to a notification about an incident.';
comment on column app_public.alert_responders.recipient is 'Who answered: the e-mail address, phone number, chat or webhook URL of the channel.';
comment on column app_public.alert_responders.incident_uuid is 'The dossier of the incident, or the message when it has no dossier.';
comment on column app_public.alert_responders.environment_uuid is '@behavior -*';
comment on column app_public.alert_responders.last_request_uuid is '@behavior -*';
comment on constraint alert_responders_monitor_uuid_fkey on app_public.alert_responders is E'@fieldName monitor\n@foreignFieldName responders';
comment on constraint alert_responders_channel_uuid_fkey on app_public.alert_responders is E'@fieldName channel\n@behavior -manyRelation:resource:list';
comment on constraint alert_responders_dossier_uuid_fkey on app_public.alert_responders is '@behavior -*';
comment on constraint alert_responders_message_uuid_fkey on app_public.alert_responders is '@behavior -*';
comment on constraint alert_responders_environment_uuid_fkey on app_public.alert_responders is '@behavior -*';
create index alert_responders_monitor_uuid_idx on app_public.alert_responders (monitor_uuid, changed desc);
create index alert_responders_channel_uuid_idx on app_public.alert_responders (channel_uuid);
create trigger _100_set_changed before update on app_public.alert_responders
  for each row execute function app_hidden.tg__set_changed();
alter table app_public.alert_responders enable row level security;
create policy select_member_environment on app_public.alert_responders for select to app_visitor
  using (environment_uuid = (select app_hidden.current_member_environment_uuid())
         or last_request_uuid = nullif(current_setting('app.request_uuid', true), '')::uuid);
grant select on app_public.alert_responders to app_visitor;

-- respondOnTheWay: the token is the credential. Returns the responder row's uuid.
create function app_accounts.respond_on_the_way(token text, status text) returns uuid
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
    raise exception 'This respond link is not valid.' using errcode = 'XINPT';
  end if;
  payload := decode(rpad(translate(parts[1], '-_', '+/'), (length(parts[1]) + 3) / 4 * 4, '='), 'base64');
  if decode(rpad(translate(parts[2], '-_', '+/'), 44, '='), 'base64')
       <> hmac(payload, (select k.key from app_private.signing_keys k where k.purpose = 'responder'), 'sha256') then
    raise exception 'This respond link is not valid.' using errcode = 'XINPT';
  end if;
  claims := string_to_array(convert_from(payload, 'UTF8'), '.');
  if claims[5]::bigint < extract(epoch from now()) then
    raise exception 'This respond link has expired.' using errcode = 'XINPT';
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

-- What the delivery task needs to send one notification, or nothing when it is not queued.
create function app_private.notification_for_delivery(notification_uuid uuid)
  returns table (notification_uuid uuid, channel_type text, channel_name text, email_address text, phone_number text,
    url text, headers jsonb, chat_id text, signing_secret text, monitor_uuid uuid, monitor_name text, message_uuid uuid,
    message text, sended timestamptz, urgency text, discipline text, region text, city text, street text, postcode text,
    latitude double precision, longitude double precision, dossier_uuid uuid, respond_token text)
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select n.uuid, c.type, c.name, c.email_address, c.phone_number, c.url,
         coalesce((select jsonb_agg(jsonb_build_object('name', h.name, 'value', h.value)) from unnest(c.headers) h), '[]'),
         c.chat_id, s.signing_secret, mo.uuid, mo.name, m.uuid, m.message, m.sended, u.code, d.name, g.name,
         m.city, m.street, m.postcode, m.latitude, m.longitude, m.dossier_uuid, app_private.responder_token(n.uuid)
    from app_private.notifications n
    join app_public.channels c on c.uuid = n.channel_uuid
    join app_public.monitors mo on mo.uuid = n.monitor_uuid
    join app_public.p2000_messages m on m.uuid = n.message_uuid
    left join app_private.channel_secrets s on s.channel_uuid = c.uuid
    left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
    left join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
    left join app_public.p2000_regions g on g.uuid = m.region_uuid
   where n.uuid = notification_for_delivery.notification_uuid and n.status = 'queued'
$$;

-- Records one attempt; the last failed attempt (final) marks the notification failed.
create function app_private.record_notification_attempt(notification_uuid uuid, succeeded boolean, response_code integer,
  error text, duration_ms integer, final boolean) returns void
  language sql volatile
  set search_path to pg_catalog, public, pg_temp
as $$
  insert into app_private.notification_attempts (notification_uuid, succeeded, response_code, error, duration_ms)
  values (notification_uuid, succeeded, response_code, left(error, 1000), duration_ms);
  update app_private.notifications n
     set attempts = n.attempts + 1,
         status = case when succeeded then 'delivered' when final then 'failed' else n.status end,
         delivered_at = case when succeeded then now() end
   where n.uuid = record_notification_attempt.notification_uuid;
$$;

--! split: 0600-monitor-filter.sql
-- p2000Messages(filter: { monitor: { uuid } }): the messages that matched a monitor of the
-- request's environment.
create type app_public.monitor_ref as (uuid text);
comment on type app_public.monitor_ref is 'A monitor by uuid.';
alter type app_public.p2000_message_filter add attribute monitor app_public.monitor_ref;
comment on column app_public.p2000_message_filter.monitor is 'A monitor of the current environment: the messages that matched it.';

create or replace function app_hidden.p2000_message_conditions(filter app_public.p2000_message_filter) returns text
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  parts text[] := array['true'];
  sended_bound text := case when (filter).sended is not null
    then ' and mc.sended between (($1).sended)."from" and (($1).sended)."to"' else '' end;
begin
  if coalesce((filter).exercise_type, 'none') not in ('none', 'test', 'proefalarm', 'oefening', 'all') then
    raise exception 'exerciseType must be none, test, proefalarm, oefening or all (got "%").', (filter).exercise_type using errcode = 'XINPT';
  end if;
  if coalesce((filter).exercise_type, 'none') <> 'all' then
    parts := array_append(parts, 'm.exercise_type = coalesce(($1).exercise_type, ''none'')');
  end if;
  if (filter).sended is not null then
    if ((filter).sended)."from" is null or ((filter).sended)."to" is null then
      raise exception 'sended needs both from and to.' using errcode = 'XINPT';
    end if;
    parts := array_append(parts, 'm.sended between (($1).sended)."from" and (($1).sended)."to"');
  end if;
  -- Capcode filters select from the capcode index (capcode, sended), bounded by sended when given.
  if (filter).capcodes is not null then
    parts := array_append(parts, 'm.uuid in (select mc.message_uuid from app_public.p2000_message_capcodes mc
      where mc.capcode_uuid = any (array(select app_hidden.try_uuid(c) from unnest(($1).capcodes) c))' || sended_bound || ')');
  end if;
  if (filter).capcode is not null then
    parts := array_append(parts, 'm.uuid in (select mc.message_uuid from app_public.p2000_message_capcodes mc
      where mc.capcode_uuid = any (array(select c.uuid from app_public.p2000_capcodes c
        where c.name = any (array(select app_hidden.p2000_normalize_capcode(n) from unnest((($1).capcode).names) n))))' || sended_bound || ')');
  end if;
  if (filter).dossier is not null then
    parts := array_append(parts, 'm.dossier_uuid = app_hidden.try_uuid((($1).dossier).uuid)');
  end if;
  if (filter).disciplines is not null then
    parts := array_append(parts, 'm.discipline_uuid = any (array(select d.uuid from app_public.p2000_disciplines d, unnest(($1).disciplines) x
      where d.uuid = app_hidden.try_uuid(x) or lower(d.name) = lower(btrim(x)) or lower(d.slug) = lower(btrim(x))))');
  end if;
  if (filter).vehicle is not null then
    parts := array_append(parts, 'm.call_numbers @> array[regexp_replace((($1).vehicle).number, ''[^0-9]'', '''', ''g'')]');
  end if;
  if (filter).monitor is not null then
    if app_hidden.try_uuid(((filter).monitor).uuid) is null
       or app_hidden.try_uuid(((filter).monitor).uuid) not in (select app_hidden.current_environment_monitor_uuids()) then
      raise exception 'Monitor not found in this environment.' using errcode = 'XNOTF';
    end if;
    parts := array_append(parts, 'm.uuid in (select mm.message_uuid from app_hidden.monitor_matches mm
      where mm.monitor_uuid = app_hidden.try_uuid((($1).monitor).uuid))');
  end if;
  return array_to_string(parts, ' and ');
end;
$$;

-- The daily roll-up cannot answer a monitor filter: count those by scanning the matches.
create or replace function app_public.p2000_messages_count(filter app_public.p2000_message_filter default null) returns integer
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  exercise text := coalesce((filter).exercise_type, 'none');
  discipline_keys text[];
  range_from timestamptz;
  range_to timestamptz;
  first_day date;
  last_day date;
  whole_days integer;
  edges app_public.p2000_message_filter := filter;
begin
  perform app_hidden.p2000_message_conditions(filter); -- validates the filter
  if (filter).capcodes is not null or (filter).capcode is not null or (filter).dossier is not null
     or (filter).vehicle is not null or (filter).monitor is not null then
    return app_hidden.p2000_messages_count_by_scan(filter);
  end if;
  if (filter).disciplines is not null then
    discipline_keys := array(select d.uuid::text from app_public.p2000_disciplines d, unnest((filter).disciplines) x
      where d.uuid = app_hidden.try_uuid(x) or lower(d.name) = lower(btrim(x)) or lower(d.slug) = lower(btrim(x)));
  end if;
  range_from := coalesce(((filter).sended)."from", '-infinity');
  range_to := coalesce(((filter).sended)."to", 'infinity');
  -- Whole days: from the first midnight at or after range_from to the last day ending by range_to.
  first_day := case when range_from = '-infinity' then '-infinity'::date
    else (range_from at time zone 'Europe/Amsterdam')::date
         + case when (range_from at time zone 'Europe/Amsterdam')::time = '00:00' then 0 else 1 end end;
  last_day := case when range_to = 'infinity' then 'infinity'::date
    else ((range_to + interval '1 microsecond') at time zone 'Europe/Amsterdam')::date - 1 end;
  if first_day > last_day then
    return app_hidden.p2000_messages_count_by_scan(filter);
  end if;
  select coalesce(sum(d.messages), 0)::integer into whole_days from app_hidden.p2000_daily_counts d
   where d.day between first_day and last_day
     and (exercise = 'all' or d.exercise_type = exercise)
     and d.dimension = case when discipline_keys is null then 'total' else 'discipline' end
     and (discipline_keys is null or d.key = any (discipline_keys));
  if range_from <> '-infinity' and range_from < first_day::timestamp at time zone 'Europe/Amsterdam' then
    edges.sended := row(range_from, (first_day::timestamp at time zone 'Europe/Amsterdam') - interval '1 microsecond');
    whole_days := whole_days + app_hidden.p2000_messages_count_by_scan(edges);
  end if;
  if range_to <> 'infinity' and range_to >= (last_day + 1)::timestamp at time zone 'Europe/Amsterdam' then
    edges.sended := row((last_day + 1)::timestamp at time zone 'Europe/Amsterdam', range_to);
    whole_days := whole_days + app_hidden.p2000_messages_count_by_scan(edges);
  end if;
  return whole_days;
end;
$$;

grant execute on all functions in schema app_accounts to app_visitor;
