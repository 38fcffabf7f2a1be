// Dates of the charts as the reader's language writes them (i18n.ts formats instants; these are
// whole Amsterdam days and months, given as YYYY-MM-DD, so they are read and written in UTC to stay
// the same day whatever the browser's time zone).
import { dateFormat, t } from "../i18n.ts";

export function formatDay(date: string): string {
  return dateFormat({ day: "numeric", month: "short", timeZone: "UTC" }).format(utc(date));
}

export function formatLongDay(date: string): string {
  return dateFormat({ dateStyle: "medium", timeZone: "UTC" }).format(utc(date));
}

export function formatMonth(date: string): string {
  return dateFormat({ month: "short", year: "numeric", timeZone: "UTC" }).format(utc(date));
}

/** Monday first, as the Dutch week (and the analytics' weeks) start. */
export function weekdayNames(): string[] {
  const monday = utc("2024-01-01");
  return Array.from({ length: 7 }, (_, i) =>
    dateFormat({ weekday: "short", timeZone: "UTC" }).format(new Date(monday.getTime() + i * 86_400_000)),
  );
}

/** 0 for Monday … 6 for Sunday. */
export function weekdayOf(date: string): number {
  return (utc(date).getUTCDay() + 6) % 7;
}

/** A text with {placeholders} filled in. */
export function fill(key: string, values: Record<string, string | number>): string {
  return t(key).replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ""));
}

/** Group keys of a date grouping may come as a date or as a timestamp; the date is what counts. */
export function dateKey(key: string | null | undefined): string {
  return (key ?? "").slice(0, 10);
}

function utc(date: string): Date {
  return new Date(`${date.slice(0, 10)}T00:00:00Z`);
}
