--! Previous: sha1:683c1885f56ad2c22aa9538bd5af1ae32f95e980
--! Hash: sha1:ec5c96f62641e3229cd8d540493d50f5d0d4bef3
--! Message: screen:read only for station screens' credentials: createApiToken and updateApiToken neither give it nor change a screen's token; the station screen's helpers described

-- screen:read belongs to station screens' credentials only (claimStationScreen), as p2000:publish
-- belongs to receivers': createApiToken and updateApiToken neither give it nor change a screen's
-- token (its scope is what limits it to its screen; the screen is removed with deleteStationScreen).
create or replace function app_hidden.assert_no_receiver_scope(scopes text[]) returns void
  language plpgsql immutable
as $$
begin
  if 'p2000:publish' = any (scopes) then
    raise exception 'p2000:publish is only for a receiver''s token: register the receiver with createP2000Receiver.' using errcode = 'XINPT';
  end if;
  if 'screen:read' = any (scopes) then
    raise exception 'screen:read is only for a station screen''s credential: pair the screen (pairStationScreen).' using errcode = 'XINPT';
  end if;
end;
$$;
comment on function app_hidden.assert_no_receiver_scope(text[]) is 'BAD_USER_INPUT when a token made or changed by createApiToken or updateApiToken would get p2000:publish, which only createP2000Receiver gives, or screen:read, which only a paired station screen gets.';

create or replace function app_accounts.update_api_token(token_uuid text, name text, scopes text[])
  returns uuid
  language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  target uuid := app_hidden.try_uuid(token_uuid);
  unknown_scopes text;
begin
  if name is not null and length(btrim(name)) not between 1 and 200 then
    raise exception 'A token name has 1 to 200 characters.' using errcode = 'XINPT';
  end if;
  perform app_hidden.assert_no_receiver_scope(scopes);
  if exists (select 1 from app_public.p2000_receivers r where r.api_token_uuid = target) then
    raise exception 'This is a receiver''s token: it publishes pages and nothing else. Remove the receiver (deleteP2000Receiver) to end it.'
      using errcode = 'XINPT';
  end if;
  if exists (select 1 from app_public.station_screens s where s.api_token_uuid = target) then
    raise exception 'This is a station screen''s credential: it reads its screen and nothing else. Remove the screen (deleteStationScreen) to end it.'
      using errcode = 'XINPT';
  end if;
  select string_agg(s, ', ' order by s) into unknown_scopes
    from unnest(coalesce(scopes, '{}')) s where not exists (select 1 from app_public.api_scopes a where a.name = s);
  if unknown_scopes is not null then
    raise exception 'Unknown scope(s): %. See apiScopes for the list.', unknown_scopes using errcode = 'XINPT';
  end if;
  update app_public.api_tokens t
     set name = coalesce(btrim(update_api_token.name), t.name),
         scopes = case when update_api_token.scopes is null then t.scopes
                       else coalesce((select array_agg(distinct s order by s) from unnest(update_api_token.scopes) s), '{}') end
   where t.uuid = target and t.environment_uuid = app_accounts.require_current_environment() and t.revoked_at is null;
  if not found then
    raise exception 'API token not found.' using errcode = 'XNOTF';
  end if;
  return target;
end;
$$;

-- What each of the station screen's helpers is for (migration 000119).
comment on function app_hidden.check_station_screen_settings(text, double precision, double precision, integer) is 'BAD_USER_INPUT for a screen''s name (1-100 characters), station point (both or neither, in the Netherlands) or alarm minutes (1-240) that pairStationScreen or updateStationScreen cannot take, in words a person can act on.';
comment on function app_hidden.crew_member_of(app_public.channels) is 'A channel as a crew member: its name and type and its availability while it holds (none past its until).';
comment on function app_hidden.may_read_station_screen(app_public.station_screens) is 'True for a member of the screen''s environment and for the screen''s own credential: the screen''s computed fields answer nothing to anyone else.';
comment on function app_hidden.notify_station_screens(uuid[]) is 'NOTIFY station_screen:<API token uuid> for every paired screen showing one of these monitors: the stationScreen subscription reads its screen again.';
comment on function app_hidden.screen_monitor_uuids(uuid[], uuid) is 'The monitors a screen is to show, checked: 1 to 20, each of the environment (NOT_FOUND otherwise).';
comment on function app_hidden.set_station_screen_monitors(uuid, uuid[]) is 'Sets a screen''s monitors in the order given, and its point from the first of them with a location when it has none.';
comment on function app_hidden.store_crew_availability(app_public.channels, text, timestamptz) is 'Stores (or clears, with a null status) a channel''s availability, checked: available or unavailable, until in the future within 30 days.';
comment on function app_hidden.tg_alert_responders__notify_screens() is 'After answers are recorded or changed: the screens of their monitors read again.';
comment on function app_hidden.tg_crew_availability__notify_screens() is 'After a crew member''s availability changes: the screens of the monitors with that channel read again.';
comment on function app_hidden.tg_monitor_matches__after_insert() is 'After matches are recorded: books the reAlert check (task monitors__check_crew) of each notified match of a monitor with that rule, once per monitor and incident, and tells the screens of the matched monitors.';
comment on table app_private.screen_pairing_failures is 'Wrong pairing codes typed in the console, per environment: pairStationScreen refuses an eleventh within 10 minutes (a code has 30 bits).';
