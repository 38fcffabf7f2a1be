// The missing-child alert feed (AMBER Alert NL / Vermist Kind Alert, the police's public
// "Landactiehost" JSON): an array of alert messages. Fields as the source's documentation and its
// users name them (../shared/research/feed-formats.md): AlertId, State ("Actual"), Type ("Alert" |
// "Cancel"), AlertLevel (10 = AMBER Alert, national; 5 = missing-child alert, regional; a number
// or a numeric string), Sent (Unix seconds, or an ISO time), Message { Title, Description (HTML),
// DescriptionExt, Readmore_URL, Media { Image } }.
import {
  FeedDocumentError,
  htmlToPlainText,
  isJsonObject,
  parseIsoTime,
  plausibleTime,
  skipRecord,
  webUrl,
  type SkipLog,
} from "../records.ts";

export interface AmberAlertRecord {
  alertId: string;
  level: 5 | 10;
  type: "alert" | "cancel";
  sent: Date | null;
  title: string | null;
  description: string | null;
  descriptionExt: string | null;
  imageUrl: string | null;
  readMoreUrl: string | null;
}

export interface AmberAlertsDocument extends SkipLog {
  alerts: AmberAlertRecord[];
  /** Alerts whose message was skipped as bad: they are not known to have ended. */
  skippedAlertIds: string[];
  /** Messages that are not real alerts (State Test or Exercise): left out, not errors. */
  notActual: number;
}

function text(value: unknown, max: number): string | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const trimmed = String(value).trim();
  return trimmed ? trimmed.slice(0, max) : null;
}

function plainText(html: unknown, max: number): string | null {
  const source = text(html, 100_000);
  return source ? htmlToPlainText(source, max) : null;
}

/** Sent as Unix seconds (a number or digits) or as an ISO time with a zone; null when implausible. */
function sentTime(value: unknown): Date | null {
  const seconds =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\d{9,11}$/.test(value.trim())
        ? Number(value)
        : NaN;
  return plausibleTime(Number.isInteger(seconds) ? new Date(seconds * 1000) : parseIsoTime(value));
}

function level(value: unknown): 5 | 10 | null {
  const number = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return number === 5 || number === 10 ? number : null;
}

/** The alerts of a parsed document; throws FeedDocumentError when it is no alert list at all. */
export function parseAmberAlerts(document: unknown): AmberAlertsDocument {
  if (!Array.isArray(document)) throw new FeedDocumentError("An AMBER alert document is a JSON array of alerts.");
  const result: AmberAlertsDocument = { alerts: [], skippedAlertIds: [], skipped: 0, problems: [], notActual: 0 };
  document.forEach((item, index) => {
    if (!isJsonObject(item)) return skipRecord(result, `item ${index}: not an object`);
    const alertId = text(item.AlertId, 100);
    if (!alertId) return skipRecord(result, `item ${index}: no AlertId`);
    const state = text(item.State, 40);
    if (state && state.toLowerCase() !== "actual") {
      result.notActual += 1;
      return;
    }
    const skip = (problem: string) => {
      result.skippedAlertIds.push(alertId);
      skipRecord(result, `alert ${alertId}: ${problem}`);
    };
    const type = text(item.Type, 40)?.toLowerCase();
    if (type !== "alert" && type !== "cancel")
      return skip(`Type ${JSON.stringify(item.Type)?.slice(0, 40)} is not Alert or Cancel`);
    const alertLevel = level(item.AlertLevel);
    if (alertLevel === null) return skip(`AlertLevel ${JSON.stringify(item.AlertLevel)?.slice(0, 40)} is not 10 or 5`);
    const message = isJsonObject(item.Message) ? item.Message : {};
    const media = isJsonObject(message.Media) ? message.Media : {};
    result.alerts.push({
      alertId,
      level: alertLevel,
      type,
      sent: sentTime(item.Sent),
      title: text(message.Title, 500),
      description: plainText(message.Description, 10_000),
      descriptionExt: plainText(message.DescriptionExt, 2000),
      imageUrl: webUrl(media.Image),
      readMoreUrl: webUrl(message.Readmore_URL),
    });
  });
  return result;
}
