// Takes monitors that left an mqtt channel (deleted, or the channel taken off their list) out of
// Home Assistant: queued by the trigger on app_hidden.monitor_channels with the channel and the
// monitors; clears their retained discovery config and state on the channel's broker. A broker
// that cannot be reached is retried (max_attempts 5); one that refuses for good (credentials,
// a private address) is given up on, as a delivery would be.
import type { Task } from "graphile-worker";
import { clearMqttMonitors, type MqttMonitorsToClear } from "../lib/monitors/channels/mqtt.ts";
import type { DeliveryError, NotificationSettings } from "../lib/monitors/notification.ts";

export function makeChannelsClearMqttDiscovery(settings: NotificationSettings): Task {
  return async (payload, helpers) => {
    const { channelUuid, monitorUuids } = payload as { channelUuid: string; monitorUuids: string[] };
    const {
      rows: [channel],
    } = await helpers.query<MqttMonitorsToClear>("select * from app_private.mqtt_discovery_to_clear($1, $2)", [
      channelUuid,
      monitorUuids,
    ]);
    if (!channel) return;
    try {
      await clearMqttMonitors(settings, channel);
    } catch (error) {
      if (!(error as DeliveryError).permanent) throw error;
      helpers.logger.warn(
        `Channel ${channelUuid}: could not clear Home Assistant discovery: ${(error as Error).message}`,
      );
    }
  };
}
