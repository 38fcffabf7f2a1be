// What a notification says: the plain text of e-mails and chat messages, the JSON of webhooks,
// the respond link, and the title, body and link of push and chat messages. Every channel type
// renders from these, so they say the same everywhere.
import type { NotificationSettings, PendingNotification } from "./notification.ts";

const dutchTime = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  dateStyle: "short",
  timeStyle: "short",
});

export function respondUrl(settings: NotificationSettings, n: PendingNotification): string | null {
  return n.respond_token && `${settings.publicUrl}/respond?token=${encodeURIComponent(n.respond_token)}`;
}

/**
 * What an e-mail's subject, an SMS, a push title and a Home Assistant sensor say first: a P2000
 * message in plain words (the page as sent when it has none), after a re-alert's headline ("Re-alert:
 * 1 of 4 coming after 5 min"), else the event's headline.
 */
export function headlineOf(n: PendingNotification): string {
  if (n.kind !== "p2000") return n.headline ?? "";
  const page = n.plain_text ?? n.message ?? "";
  return n.headline ? `${n.headline}: ${page}` : page;
}

/** A P2000 message in plain words, then the page as sent (once, when the two are the same); a re-alert's headline first. */
function p2000Lines(n: PendingNotification): string[] {
  const plain = n.plain_text ?? n.message ?? "";
  return [...(n.headline ? [n.headline] : []), ...(plain === n.message ? [plain] : [plain, n.message ?? ""])];
}

/**
 * The text cut to at most `max` UTF-16 units (the stricter count), never inside a character, an
 * ellipsis marking a cut: receivers refuse fields over their limits.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = "";
  for (const char of text) {
    if (kept.length + char.length > max - 1) break;
    kept += char;
  }
  return `${kept}…`;
}

/** Where a P2000 message is: street, postcode and city as far as known ("" when none is). */
export function placeOf(n: PendingNotification): string {
  return [n.street, n.postcode, n.city].filter(Boolean).join(", ");
}

/**
 * A notification's facts as "Label: value" lines: a P2000 message's time, urgency, place, service
 * and monitor; a feed event's fact lines and its monitor (none for a test send).
 */
export function factLines(n: PendingNotification): string[] {
  if (n.kind !== "p2000")
    return [...(n.facts ?? []), ...(n.monitor_name === null ? [] : [`Monitor: ${n.monitor_name}`])];
  const where = placeOf(n);
  const service = [n.discipline, n.region].filter(Boolean).join(", ");
  return [
    `Time: ${dutchTime.format(n.sended!)}`,
    ...(n.urgency ? [`Urgency: ${n.urgency}`] : []),
    ...(where ? [`Place: ${where}`] : []),
    ...(service ? [`Service: ${service}`] : []),
    `Monitor: ${n.monitor_name}`,
  ];
}

/** A fact line split at its first ": " (a line without one has no label). */
function splitFact(line: string): { label: string | null; value: string } {
  const at = line.indexOf(": ");
  return at > 0 ? { label: line.slice(0, at), value: line.slice(at + 2) } : { label: null, value: line };
}

/**
 * For chat channels that show fields (Discord embeds, Slack blocks): the text (a P2000 message
 * as sent, else the fact lines without a label, like an RSS item's summary) and the labelled facts.
 */
export function fieldsOf(n: PendingNotification): { text: string; fields: Array<{ label: string; value: string }> } {
  const facts = factLines(n).map(splitFact);
  const fields = facts.filter((f) => f.label !== null && f.value.trim() !== "") as Array<{
    label: string;
    value: string;
  }>;
  const loose = facts.filter((f) => f.label === null && f.value.trim() !== "").map((f) => f.value);
  return { text: n.kind === "p2000" ? p2000Lines(n).join("\n") : loose.join("\n"), fields };
}

/**
 * The plain text of e-mails and chat messages: a P2000 message in plain words and as sent (it names
 * its own urgency), then the facts.
 */
export function notificationText(settings: NotificationSettings, n: PendingNotification): string {
  if (n.kind !== "p2000") return [n.headline, "", ...factLines(n)].join("\n");
  return [...p2000Lines(n), "", ...factLines(n), "", `Are you going? ${respondUrl(settings, n)}`].join("\n");
}

/**
 * A push notification's title: for a P2000 message its urgency, service and city (the message as
 * sent is the body), else the event's headline.
 */
export function titleOf(n: PendingNotification): string {
  if (n.kind !== "p2000") return n.headline ?? "";
  return [n.headline, n.urgency, n.discipline, n.city].filter(Boolean).join(" · ") || "P2000";
}

/** What a push notification says under its title: the plain text, without the headline the title already is. */
export function bodyOf(settings: NotificationSettings, n: PendingNotification): string {
  // A re-alert's headline is in the title already.
  return n.kind === "p2000" ? notificationText(settings, { ...n, headline: null }) : factLines(n).join("\n");
}

/** The first http(s) `link` or `url` of the payload's objects (an RSS item's link), if any. */
function payloadLink(payload: Record<string, unknown> | null): string | null {
  for (const value of Object.values(payload ?? {})) {
    if (typeof value !== "object" || value === null) continue;
    for (const key of ["link", "url"]) {
      const candidate = (value as Record<string, unknown>)[key];
      if (typeof candidate === "string" && /^https?:\/\//i.test(candidate)) return candidate;
    }
  }
  return null;
}

/**
 * Where tapping a notification leads: the respond link of a P2000 message, else the item's own
 * link in the payload, else the service's public URL.
 */
export function linkOf(settings: NotificationSettings, n: PendingNotification): string {
  return respondUrl(settings, n) ?? payloadLink(n.payload) ?? settings.publicUrl;
}

/** When it happened, for channels that show a time: a P2000 message's time sent, else null (the receiver's own). */
export function timeOf(n: PendingNotification): Date | null {
  return n.kind === "p2000" ? n.sended : null;
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
    // A reAlert rule's second notification of the page says so, and how many are coming.
    event: n.re_alert ? "p2000.message.re_alerted" : "p2000.message.matched",
    ...(n.re_alert ? { reAlert: n.headline } : {}),
    monitor: { uuid: n.monitor_uuid, name: n.monitor_name },
    message: {
      uuid: n.message_uuid,
      message: n.message,
      plainText: n.plain_text,
      language: n.language,
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
