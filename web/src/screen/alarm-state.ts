// When the screen is an alarm, and in which colour. The newest match is the alarm while its last
// page is less than alarmMinutes old (the API's rule, StationScreen.matches); "back to idle" on
// the screen sets that alarm aside until its incident has a new page or a re-alert. Pure, no DOM.
import type { ResultOf } from "../api/graphql.ts";
import { disciplineColour, EXERCISE_COLOUR, WARNING_COLOURS } from "../map/colours.ts";
import type { ScreenFields } from "./screen-queries.ts";

export type ScreenData = ResultOf<typeof ScreenFields>;
export type Match = ScreenData["matches"][number];

/** What an alarm is known by: a new page of its incident, or a re-alert, is a new alarm (and sounds). */
export function alarmKey(match: Match): string {
  return `${match.messageUuid} ${match.reAlertedAt ?? ""}`;
}

/** The alarm now, if any: the newest match while its last page is younger than alarmMinutes. */
export function currentAlarm(screen: ScreenData, now: number, setAside: string | null): Match | null {
  const newest = screen.matches[0];
  if (!newest || now - Date.parse(newest.lastSended) >= screen.alarmMinutes * 60_000) return null;
  return alarmKey(newest) === setAside ? null : newest;
}

/** When the alarm goes back to idle by itself. */
export function alarmEnds(screen: ScreenData, match: Match): number {
  return Date.parse(match.lastSended) + screen.alarmMinutes * 60_000;
}

const URGENCY_LEVELS: Readonly<Record<string, 1 | 2 | 3>> = {
  A0: 3,
  A1: 3,
  P1: 3,
  A2: 2,
  P2: 2,
  B1: 1,
  B2: 1,
  P3: 1,
};

/**
 * The alarm's colour and the text colour that reads on it. The urgency in the colours the map
 * warns with (KNMI's red, orange, yellow: most urgent red); an exercise in the map's exercise
 * grey; a page without an urgency in its service's colour.
 */
export function alarmColours(match: Pick<Match, "urgency" | "discipline">): { background: string; text: string } {
  const code = match.urgency?.replace(/\s+/g, "") ?? "";
  const level = URGENCY_LEVELS[code];
  const background = level
    ? WARNING_COLOURS[level]
    : code === "OEF"
      ? EXERCISE_COLOUR
      : disciplineColour(match.discipline?.toLowerCase());
  // White on red and the services' dark colours; near-black on orange, yellow and grey.
  return { background, text: relativeLuminance(background) > 0.18 ? "#111111" : "#ffffff" };
}

/** WCAG's relative luminance of a #rrggbb colour. */
function relativeLuminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** "12:05" or "1:02:05": the time since the alarm, for a clock on the wall. */
export function elapsedText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const mm = String(Math.floor((seconds % 3600) / 60)).padStart(hours ? 2 : 1, "0");
  const ss = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}
