--! Previous: sha1:628a93d05b6ebc5ff49c7ca898ce84636a0aab3a
--! Hash: sha1:9ae560b90ae2d15861805ba179f4c74b0ff331a6
--! Message: Test sends disable a gone Web Push channel

-- sendTestNotification to a Web Push channel whose subscription is gone (the push service answers
-- 404 or 410) disables the channel as a real delivery does. The test send runs as the visitor,
-- who may not call app_private.disable_channel: this function checks the notification is a test
-- send of the current environment first.

create or replace function app_accounts.disable_tested_channel(notification_uuid uuid, reason text) returns void
language plpgsql security definer
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  environment uuid := app_accounts.require_current_environment();
  the_channel uuid;
begin
  select c.uuid into the_channel
    from app_private.notifications n join app_public.channels c on c.uuid = n.channel_uuid
   where n.uuid = disable_tested_channel.notification_uuid and n.event_kind = 'test'
     and n.status = 'queued' and c.environment_uuid = environment;
  if the_channel is null then
    raise exception 'Test notification not found.' using errcode = 'XNOTF';
  end if;
  perform app_private.disable_channel(the_channel, reason);
end;
$$;
grant execute on function app_accounts.disable_tested_channel(uuid, text) to app_visitor;
comment on function app_accounts.disable_tested_channel(uuid, text) is 'sendTestNotification, between its two steps: the receiver of a queued test send of the current environment said the channel is gone for good (a Web Push subscription answering 404 or 410), so the channel is disabled as app_private.disable_channel does for a real delivery.';
