// How urgent a notification is, on one 1–5 scale (ntfy's: 5 max/urgent, 4 high, 3 default,
// 2 low, 1 min), with the emoji tags that say so. Written once here; ntfy, Pushover and Gotify
// map it to their own priorities and Discord to an embed colour, so one item is equally urgent
// on every channel. The table is documented in docs/channels/ntfy.md.
import type { PendingNotification } from "./notification.ts";

export type UrgencyLevel = 1 | 2 | 3 | 4 | 5;

export interface Urgency {
  level: UrgencyLevel;
  /** Emoji shortcodes (ntfy tags, Slack's :shortcode:): rotating_light at 5, warning at 4. */
  emoji: string[];
}

const URGENT: Urgency = { level: 5, emoji: ["rotating_light"] };
const HIGH: Urgency = { level: 4, emoji: ["warning"] };
const DEFAULT: Urgency = { level: 3, emoji: [] };

/** A P2000 urgency code: A0/A1/P1 (life-threatening, lights and sirens), A2/P2 (urgent), the rest (B…, P3…) default. */
function p2000Urgency(code: string | null): Urgency {
  const normalized = (code ?? "").toUpperCase();
  if (["A0", "A1", "P1"].includes(normalized)) return URGENT;
  if (["A2", "P2"].includes(normalized)) return HIGH;
  return DEFAULT;
}

/** An object of the payload by its key (the payload's shape per kind is in docs/monitors.md). */
function part(n: PendingNotification, key: string): Record<string, unknown> {
  const value = n.payload?.[key];
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/** How urgent the notification is: a P2000 message by its urgency code, a feed event by its kind and level. */
export function urgencyOf(n: PendingNotification): Urgency {
  switch (n.kind) {
    case "p2000":
      return p2000Urgency(n.urgency);
    case "nl_alert":
      return URGENT;
    case "amber_alert":
      // Level 10 is a national AMBER Alert; level 5 a missing-child alert of some provinces.
      return part(n, "amberAlert").level === 10 ? URGENT : HIGH;
    case "meteo": {
      // KNMI status codes: 3 code red, 2 code orange, 1 code yellow.
      const status = part(n, "warning").statusCode;
      return status === 3 ? URGENT : status === 2 ? HIGH : DEFAULT;
    }
    case "rail":
      return part(n, "disruption").kind === "calamity" ? HIGH : DEFAULT;
    default:
      return DEFAULT;
  }
}

/**
 * Pushover's priority (-2 lowest … 1 high; 2, emergency, repeats until acknowledged and is not
 * used): 5 and 4 are high (bypass quiet hours), 3 normal, 2 low, 1 lowest.
 */
export function pushoverPriority(level: UrgencyLevel): number {
  return { 5: 1, 4: 1, 3: 0, 2: -1, 1: -2 }[level];
}

/** Gotify's priority (0–10; its Android app: 8–10 sound, vibration and pop-up, 4–7 sound, 1–3 silent). */
export function gotifyPriority(level: UrgencyLevel): number {
  return { 5: 10, 4: 8, 3: 5, 2: 2, 1: 1 }[level];
}

/** A colour per level (Discord embeds): red, orange, blue, grey. */
export function urgencyColor(level: UrgencyLevel): number {
  return { 5: 0xd32f2f, 4: 0xf57c00, 3: 0x1976d2, 2: 0x757575, 1: 0x757575 }[level];
}
