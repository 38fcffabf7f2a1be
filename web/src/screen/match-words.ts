// A match in words, as the idle list and the alarm say it: the urgency as the services write it
// (A1, P1), the page in plain words (else as sent) and the place.
import type { Match } from "./alarm-state.ts";

export function urgencyBadge(match: Pick<Match, "urgency">): string | null {
  return match.urgency?.replace(/\s+/g, "") ?? null;
}

export function placeOf(match: Pick<Match, "street" | "city">): string | null {
  return [match.street, match.city].filter(Boolean).join(", ") || null;
}
