// The dashboards' choice (period and safety region) and the windows it gives the API. The choice
// lives in the URL's query (`period`, `region`), so a shared link shows the same charts; days are
// Amsterdam days, as the analytics views count them (docs/analytics.md, "Time zones").
import { dateFormat } from "../i18n.ts";

export type Period = "7d" | "30d" | "90d" | "year";
export const PERIODS: Period[] = ["7d", "30d", "90d", "year"];
const DEFAULT_PERIOD: Period = "30d";

export interface Choice {
  period: Period;
  /** A safety region's number ("01" to "25"), or null for the whole country. */
  region: string | null;
}

export function readChoice(search: string): Choice {
  const query = new URLSearchParams(search);
  const period = query.get("period") as Period | null;
  const region = query.get("region");
  return {
    period: period && PERIODS.includes(period) ? period : DEFAULT_PERIOD,
    region: region && /^\d{2}$/.test(region) ? region : null,
  };
}

/** The URL's query with the choice in it, every other parameter (`lang`) kept. */
export function writeChoice(search: string, choice: Choice): string {
  const query = new URLSearchParams(search);
  query.set("period", choice.period);
  if (choice.region) query.set("region", choice.region);
  else query.delete("region");
  return `?${query.toString()}`;
}

/** A window of whole Amsterdam days, [start, end). */
export interface Window {
  /** Dates (YYYY-MM-DD), for the daily roll-ups' Date arguments. */
  startDate: string;
  endDate: string;
  /** The same midnights as instants with Amsterdam's offset, for the DateTime arguments. */
  start: string;
  end: string;
  /** Count per week rather than per day: a year of days per region is thousands of groups. */
  byWeek: boolean;
}

export function windowOf(period: Period, now = new Date()): Window {
  const today = amsterdamDate(now);
  const endDate = addDays(today, 1);
  const startDate =
    period === "year" ? `${today.slice(0, 4)}-01-01` : addDays(endDate, -Number(period.replace("d", "")));
  return {
    startDate,
    endDate,
    start: amsterdamMidnight(startDate),
    end: amsterdamMidnight(endDate),
    byWeek: period === "year",
  };
}

/** The first day of the window's first month: warning days are counted per whole month. */
export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

export function amsterdamDate(instant: Date): string {
  // en-CA writes dates as YYYY-MM-DD.
  return dateFormat({ timeZone: "Europe/Amsterdam" }, "en-CA").format(instant);
}

export function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

/** Midnight in Amsterdam of a date, with its offset (summer time changes at 01:00 UTC, after it). */
function amsterdamMidnight(date: string): string {
  const offset = dateFormat({ timeZone: "Europe/Amsterdam", timeZoneName: "longOffset" }, "en-GB")
    .formatToParts(new Date(`${date}T00:00:00Z`))
    .find((part) => part.type === "timeZoneName")!
    .value.replace("GMT", "");
  return `${date}T00:00:00${offset || "+00:00"}`;
}
