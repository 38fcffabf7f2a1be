--! Previous: sha1:eb90222b5761633851dfeed26a3c54ccb7978535
--! Hash: sha1:9cb243ac2fd8dcf5f0ebabc9758bdf330481cfa3
--! Message: The contract's last letters: hubAnalyticsWeekdays counts Dutch calendar days (both changes of the clock), meteoRegions' status is the current one, meteoStatsAvailableYears lists no year still to come, AircraftWithStats.flightHours a Float, Web Push subscriptions with their expirationTime

-- 1. hubAnalyticsWeekdays: the weekdays of the window counted as Dutch calendar days, and
--    yesterday as the Dutch day it was (23 or 25 hours on the days the clock changes). Stepping
--    24 hours from a local midnight in a UTC session drifted an hour after each change of the
--    clock and labelled a day by its neighbour (a 28-day window over the last Sunday of October
--    counted 3 Mondays and 5 Sundays). The window's end (today) is an argument, so that windows
--    across both changes can be tested; the live answer passes today's Dutch date.
create or replace function app_hidden.hub_analytics_weekdays_until(days integer, today date)
  returns app_public.hub_analytics_weekdays
  language plpgsql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  n integer := app_hidden.analytics_days(days);
  since timestamptz := (today - n)::timestamp at time zone 'Europe/Amsterdam';
  yesterday_start timestamptz := (today - 1)::timestamp at time zone 'Europe/Amsterdam';
  until timestamptz := today::timestamp at time zone 'Europe/Amsterdam';
  result app_public.hub_analytics_weekdays;
begin
  result.days := n;
  result.weekdays := array(
    select row(wd, (array['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])[wd],
               coalesce(c.total, 0),
               coalesce(c.total, 0)::double precision / greatest(1, (
                 select count(*) from generate_series((today - n)::timestamp, (today - 1)::timestamp, interval '1 day') d
                  where extract(isodow from d) = wd)))::app_public.hub_weekday
      from generate_series(1, 7) wd
      left join (select extract(isodow from h.hour at time zone 'Europe/Amsterdam')::integer as weekday, sum(h.messages)::integer as total
                   from app_hidden.p2000_hourly_urgency_counts h
                  where h.hour >= since and h.hour < until and h.exercise_type = 'none'
                  group by 1) c on c.weekday = wd
     order by wd);
  select coalesce(sum(h.messages), 0)::integer into result.yesterday from app_hidden.p2000_hourly_urgency_counts h
   where h.hour >= yesterday_start and h.hour < until and h.exercise_type = 'none';
  select x.expected_average into result.yesterday_expected from unnest(result.weekdays) x
   where x.weekday = extract(isodow from today - 1);
  result.yesterday_difference_percent := case when result.yesterday_expected > 0
    then round(((result.yesterday - result.yesterday_expected) / result.yesterday_expected * 100)::numeric, 1)::double precision end;
  return result;
end;
$$;
comment on function app_hidden.hub_analytics_weekdays_until(integer, date) is
  'hubAnalyticsWeekdays for the window of the last days whole Dutch (Europe/Amsterdam) days before today: real alerts per weekday from the hourly roll-up, each weekday''s expected average over the calendar days of that weekday in the window, and yesterday (the Dutch day, 23 or 25 hours when the clock changes) against it.';
grant execute on function app_hidden.hub_analytics_weekdays_until(integer, date) to app_visitor, app_analyst;

create or replace function app_hidden.hub_analytics_weekdays_live(days integer default 28) returns app_public.hub_analytics_weekdays
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select app_hidden.hub_analytics_weekdays_until(days, (now() at time zone 'Europe/Amsterdam')::date)
$$;

-- 2. meteoRegions: each province's current level, the highest of the warnings in force now (a
--    warning announced for later is not today's status; meteoRegionDetail lists those).
create or replace function app_public.meteo_regions() returns setof app_public.meteo_region
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select pr.uuid, pr.code, pr.name, d.status_code, case when d.status_code is not null then d.status end
    from app_public.meteo_provinces pr
    left join app_hidden.meteo_details(now(), now() + interval '1 microsecond') d on d.region_code = pr.code and app_hidden.meteo_has_data()
   order by pr.sort_order
$$;
comment on function app_public.meteo_regions() is '@cacheReads app_hidden.meteo_documents app_public.meteo_levels app_public.meteo_phenomena
@cacheReads app_public.meteo_provinces app_public.meteo_warning_slices
@notNull
The 12 provinces with their current level: the highest of the warnings in force now, 0 (green) without one; a warning announced for later counts from its start (null before the first warnings document).';

--    meteoStatsAvailableYears: the years up to today's, as meteoStatsMonthly counts days up to
--    today (on 30 and 31 December a warning announced for 1 January listed next year).
create or replace function app_public.meteo_stats_available_years() returns setof integer
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select distinct extract(year from d.day)::integer as year from app_hidden.meteo_daily_levels d
   where d.day <= (now() at time zone 'Europe/Amsterdam')::date order by year
$$;
comment on function app_public.meteo_stats_available_years() is '@cacheReads app_hidden.meteo_daily_levels
@notNull
Years (Europe/Amsterdam) with at least one day with a warning up to today: the years meteoStatsMonthly has something for.';

-- 3. AircraftWithStats.flightHours: a Float (a client reading a number got a BigFloat string).
alter type app_public.aircraft_with_stats alter attribute flight_hours type double precision;
create or replace function app_public.aircraft_statistics() returns setof app_public.aircraft_with_stats
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select f.icao, f.registration, f.kind, count(r.uuid)::integer,
         coalesce(sum(extract(epoch from coalesce(r.landed_at, r.last_seen_at) - r.took_off_at) / 60), 0)::integer,
         round(coalesce(sum(extract(epoch from coalesce(r.landed_at, r.last_seen_at) - r.took_off_at) / 3600), 0)::numeric, 1)::double precision,
         max(r.took_off_at), 365
    from app_public.aircraft_fleet f
    left join app_public.aircraft_routes r on r.icao = f.icao and r.took_off_at is not null and r.status = 'completed'
         and r.took_off_at > now() - interval '365 days'
   group by f.icao, f.registration, f.kind
   order by f.kind desc, f.registration
$$;

-- 4. createChannel (webpush): the subscription as browsers give it, expirationTime included.
CREATE OR REPLACE FUNCTION app_accounts.create_channel(type text, name text, email_address text, phone_number text, url text, headers jsonb, chat_id text, signing_secret text, server_url text, topic text, token text, user_key text, username text, password text, subscription jsonb)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
declare
  environment uuid := app_accounts.require_current_environment();
  channel_type text := lower(btrim(create_channel.type));
  result uuid;
  header_list app_public.channel_header[];
  credentials jsonb;
  expires timestamptz;
  -- An http(s) URL without credentials, spaces or fragments' tricks; the host is checked in Node.
  http_url constant text := '^https?://[^\s/?#@]+([/?][^\s#]*)?$';
  -- A secret token as services issue them: printable, no spaces.
  token_shape constant text := '^[!-~]{1,200}$';
  the_server_url text := nullif(btrim(create_channel.server_url), '');
  the_topic text := nullif(btrim(create_channel.topic), '');
  the_token text := nullif(btrim(create_channel.token), '');
begin
  if channel_type is null or not exists (select 1 from app_public.channel_types t where t.name = channel_type) then
    raise exception 'type must be one of %.', (select string_agg(t.name, ', ' order by t.name) from app_public.channel_types t)
      using errcode = 'XINPT';
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
  when 'ntfy' then
    the_server_url := coalesce(the_server_url, 'https://ntfy.sh');
    if the_server_url !~ http_url or length(the_server_url) > 2000 then
      raise exception 'serverUrl must be an http(s) URL without credentials for an ntfy channel.' using errcode = 'XINPT';
    end if;
    -- ntfy's topic rule: letters, digits, _ and -, at most 64.
    if the_topic is null or the_topic !~ '^[-_A-Za-z0-9]{1,64}$' then
      raise exception 'topic must be 1 to 64 letters, digits, _ or - for an ntfy channel.' using errcode = 'XINPT';
    end if;
    if the_token is not null and the_token !~ token_shape then
      raise exception 'token must be an ntfy access token (printable, no spaces, at most 200 characters).' using errcode = 'XINPT';
    end if;
    credentials := jsonb_strip_nulls(jsonb_build_object('accessToken', the_token));
  when 'pushover' then
    -- Pushover's user and group keys: 30 letters and digits.
    if user_key is null or btrim(user_key) !~ '^[A-Za-z0-9]{30}$' then
      raise exception 'userKey must be a Pushover user or group key (30 letters and digits) for a pushover channel.' using errcode = 'XINPT';
    end if;
    credentials := jsonb_build_object('userKey', btrim(user_key));
  when 'gotify' then
    if the_server_url is null or the_server_url !~ http_url or length(the_server_url) > 2000 then
      raise exception 'serverUrl must be the http(s) URL of the Gotify server for a gotify channel.' using errcode = 'XINPT';
    end if;
    if the_token is null or the_token !~ token_shape then
      raise exception 'token must be a Gotify application token for a gotify channel.' using errcode = 'XINPT';
    end if;
    credentials := jsonb_build_object('appToken', the_token);
  when 'discord', 'slack' then
    if url is null or btrim(url) !~ http_url or length(url) > 2000 then
      raise exception 'url must be the http(s) incoming-webhook URL for a % channel.', channel_type using errcode = 'XINPT';
    end if;
    credentials := jsonb_build_object('webhookUrl', btrim(url));
  when 'webpush' then
    -- A browser's PushSubscription.toJSON(): an https endpoint, the P-256 public key (65 bytes)
    -- and the 16-byte auth secret, both base64url (RFC 8291).
    if jsonb_typeof(subscription) is distinct from 'object'
       or coalesce(subscription->>'endpoint', '') !~ '^https://[^\s/?#@]+([/?][^\s#]*)?$' or length(subscription->>'endpoint') > 2000
       or coalesce(subscription->'keys'->>'p256dh', '') !~ '^[A-Za-z0-9_-]{86,88}=*$'
       or coalesce(subscription->'keys'->>'auth', '') !~ '^[A-Za-z0-9_-]{22,24}=*$' then
      raise exception 'subscription must be a browser push subscription: an https endpoint and keys.p256dh and keys.auth (base64url) for a webpush channel.'
        using errcode = 'XINPT';
    end if;
    -- expirationTime: when the browser will end the subscription (milliseconds since 1970), or
    -- null; always in toJSON()'s answer. One already past is refused; a later one is kept, and the
    -- deliverer sends nothing to the subscription after it (lib/monitors/channels/webpush.ts).
    if subscription ? 'expirationTime' and jsonb_typeof(subscription->'expirationTime') not in ('null', 'number') then
      raise exception 'subscription.expirationTime must be a number of milliseconds since 1970, or null.' using errcode = 'XINPT';
    end if;
    expires := case when jsonb_typeof(subscription->'expirationTime') = 'number'
                    then to_timestamp(least((subscription->>'expirationTime')::numeric, 32503680000000) / 1000) end;
    if expires <= now() then
      raise exception 'subscription.expirationTime has passed (%): the browser has ended this subscription; subscribe again.',
        to_char(expires at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') using errcode = 'XINPT';
    end if;
    credentials := jsonb_build_object('endpoint', subscription->>'endpoint',
                                      'p256dh', rtrim(subscription->'keys'->>'p256dh', '='),
                                      'auth', rtrim(subscription->'keys'->>'auth', '='))
                   || case when expires is not null
                           then jsonb_build_object('expiresAt', to_char(expires at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                           else '{}' end;
  when 'mqtt' then
    if the_server_url is null or the_server_url !~ '^(mqtts?|wss?)://[^\s/?#@]+(/[^\s#?]*)?$' or length(the_server_url) > 2000 then
      raise exception 'serverUrl must be an mqtt://, mqtts://, ws:// or wss:// broker URL without credentials for an mqtt channel.'
        using errcode = 'XINPT';
    end if;
    the_topic := coalesce(the_topic, 'nl-incidents');
    -- A topic prefix: no wildcards, no empty levels at its ends, no $ system topics.
    if the_topic !~ '^[^#+\s/$][^#+\s]{0,99}$' or the_topic ~ '/$' then
      raise exception 'topic must be an MQTT topic prefix without wildcards (+, #), spaces or a leading / or $ for an mqtt channel.'
        using errcode = 'XINPT';
    end if;
    if length(username) > 200 or length(password) > 200 or (password is not null and username is null) then
      raise exception 'username and password must have at most 200 characters, and a password needs a username.' using errcode = 'XINPT';
    end if;
    credentials := jsonb_strip_nulls(jsonb_build_object('username', username, 'password', password));
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
  insert into app_public.channels (environment_uuid, type, name, email_address, phone_number, url, headers, chat_id, server_url, topic)
  values (environment, channel_type, btrim(name),
          case when channel_type = 'email' then lower(btrim(email_address)) end,
          case when channel_type = 'sms' then regexp_replace(phone_number, '[\s-]', '', 'g') end,
          case when channel_type = 'webhook' then btrim(url) end,
          coalesce(header_list, '{}'),
          case when channel_type = 'telegram' then btrim(chat_id) end,
          case when channel_type in ('ntfy', 'gotify', 'mqtt') then the_server_url end,
          case when channel_type in ('ntfy', 'mqtt') then the_topic end)
  returning uuid into result;
  if channel_type = 'webhook' then
    insert into app_private.channel_secrets (channel_uuid, signing_secret) values (result, signing_secret);
  end if;
  if credentials is not null then
    insert into app_private.channel_credentials (channel_uuid, credentials) values (result, credentials);
  end if;
  return result;
end;
$function$;
