// What a notification says: the plain text of e-mails and chat messages, the JSON of webhooks,
// the respond link. Every channel type renders from these, so they say the same everywhere.
import type { NotificationSettings, PendingNotification } from "./notification.ts";

const dutchTime = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  dateStyle: "short",
  timeStyle: "short",
});

export function respondUrl(settings: NotificationSettings, n: PendingNotification): string | null {
  return n.respond_token && `${settings.publicUrl}/respond?token=${encodeURIComponent(n.respond_token)}`;
}

/** What an e-mail's subject and an SMS say first: a P2000 message as sent, else the headline. */
export function headlineOf(n: PendingNotification): string {
  return (n.kind === "p2000" ? n.message : n.headline) ?? "";
}

/** The plain text of e-mails and chat messages: the message as sent (it names its own urgency), then the facts. */
export function notificationText(settings: NotificationSettings, n: PendingNotification): string {
  if (n.kind !== "p2000") {
    const monitor = n.monitor_name === null ? [] : [`Monitor: ${n.monitor_name}`];
    return [n.headline, "", ...(n.facts ?? []), ...monitor].join("\n");
  }
  const where = [n.street, n.postcode, n.city].filter(Boolean).join(", ");
  return [
    n.message,
    "",
    `Time: ${dutchTime.format(n.sended!)}`,
    n.urgency && `Urgency: ${n.urgency}`,
    where && `Place: ${where}`,
    [n.discipline, n.region].some(Boolean) && `Service: ${[n.discipline, n.region].filter(Boolean).join(", ")}`,
    `Monitor: ${n.monitor_name}`,
    "",
    `Are you going? ${respondUrl(settings, n)}`,
  ]
    .filter((line) => line !== false && line !== null && line !== undefined)
    .join("\n");
}

/** The JSON body of a webhook delivery (documented in docs/monitors.md). */
export function webhookBody(settings: NotificationSettings, n: PendingNotification): string {
  if (n.kind !== "p2000") {
    return JSON.stringify({
      id: n.notification_uuid,
      event: n.event_type,
      // A test send (event notification.test) has no monitor.
      ...(n.monitor_uuid === null ? {} : { monitor: { uuid: n.monitor_uuid, name: n.monitor_name } }),
      ...n.payload,
    });
  }
  return JSON.stringify({
    id: n.notification_uuid,
    event: "p2000.message.matched",
    monitor: { uuid: n.monitor_uuid, name: n.monitor_name },
    message: {
      uuid: n.message_uuid,
      message: n.message,
      sended: n.sended!.toISOString(),
      urgency: n.urgency,
      discipline: n.discipline,
      region: n.region,
      city: n.city,
      street: n.street,
      postcode: n.postcode,
      latitude: n.latitude,
      longitude: n.longitude,
      dossierUuid: n.dossier_uuid,
    },
    respond: { url: respondUrl(settings, n), token: n.respond_token },
  });
}
