--! Previous: sha1:371c25da5cb8c8cf334cd1a7e372ed14514722a9
--! Hash: sha1:628a93d05b6ebc5ff49c7ca898ce84636a0aab3a
--! Message: MQTT: clear Home Assistant discovery when a monitor leaves

--------------------------------------------------------------------------------------------------
-- Issue 30, mqtt channels: a monitor that leaves an mqtt channel (the monitor deleted, or the
-- channel taken off its list) leaves Home Assistant too. Each delivery publishes the monitor's
-- discovery config and state retained on the member's broker; when the link goes, a job clears
-- both (an empty retained message), so the sensor disappears instead of showing its last match
-- forever. A deleted channel takes its broker credentials with it, so nothing can be cleared then
-- (docs/channels/mqtt.md, known gaps).

create or replace function app_private.mqtt_discovery_to_clear(channel_uuid uuid, monitor_uuids uuid[])
  returns table (server_url text, topic text, credentials jsonb, monitor_uuids uuid[])
  language sql stable
  set search_path to pg_catalog, public, pg_temp
as $$
  select c.server_url, c.topic, coalesce(k.credentials, '{}'),
         array(select m.uuid from unnest(mqtt_discovery_to_clear.monitor_uuids) m (uuid)
                where not exists (select 1 from app_hidden.monitor_channels mc
                                   where mc.channel_uuid = c.uuid and mc.monitor_uuid = m.uuid)
                order by m.uuid)
    from app_public.channels c
    left join app_private.channel_credentials k on k.channel_uuid = c.uuid
   where c.uuid = mqtt_discovery_to_clear.channel_uuid and c.type = 'mqtt' and c.disabled_at is null
$$;
comment on function app_private.mqtt_discovery_to_clear(uuid, uuid[]) is 'What the task channels__clear_mqtt_discovery needs: the mqtt channel''s broker, topic prefix and credentials, and those of the given monitors that are still off the channel when the job runs (one put back in the meantime keeps its sensor). No row when the channel is gone, disabled or not mqtt.';

create or replace function app_hidden.tg_monitor_channels__clear_mqtt() returns trigger
  language plpgsql
  -- Definer: the deleting member (deleteMonitor, updateMonitor) may not queue jobs themselves.
  security definer
  set search_path to pg_catalog, public, pg_temp
as $$
begin
  perform graphile_worker.add_job('channels__clear_mqtt_discovery',
            json_build_object('channelUuid', c.uuid, 'monitorUuids', array_agg(o.monitor_uuid order by o.monitor_uuid)),
            max_attempts := 5)
     from old_links o
     join app_public.channels c on c.uuid = o.channel_uuid
    where c.type = 'mqtt'
    group by c.uuid;
  return null;
end;
$$;
comment on function app_hidden.tg_monitor_channels__clear_mqtt() is 'After links between monitors and mqtt channels go (a monitor deleted, a channel taken off its list), queues one channels__clear_mqtt_discovery job per channel with the monitors that left it. A channel deleted itself is gone by then and queues nothing.';

drop trigger if exists _500_clear_mqtt_discovery on app_hidden.monitor_channels;
create trigger _500_clear_mqtt_discovery after delete on app_hidden.monitor_channels
  referencing old table as old_links
  for each statement execute function app_hidden.tg_monitor_channels__clear_mqtt();
