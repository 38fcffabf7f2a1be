// A monitor's calendar (GET /feeds/monitors/<secret>.ics, lib/monitors/feed-route.ts): what the
// monitor matched that has a period (railway works and disruptions, weather warnings over their
// warned hours, NL-Alerts from start to stop) in the calendar window, in the monitor's language
// (notificationRules.language). Read by the secret's hash through app_private.monitor_calendar,
// which says nothing else of the monitor than its name.
import type pg from "pg";
import { calendarDocument, type CalendarLanguage } from "./document.ts";
import { CALENDAR_WINDOW, calendarWindow, type CalendarItem } from "./items.ts";

interface MonitorCalendarRow {
  name: string;
  language: string;
  events: CalendarItem[];
}

const DESCRIPTIONS: Record<CalendarLanguage, string> = {
  nl:
    `Wat deze monitor vond dat een periode heeft (werk en storingen op het spoor, weerwaarschuwingen, ` +
    `NL-Alerts), van ${CALENDAR_WINDOW.pastDays} dagen geleden tot over ${CALENDAR_WINDOW.futureDays} dagen.`,
  en:
    `What this monitor matched that has a period (rail works and disruptions, weather warnings, NL-Alerts), ` +
    `from ${CALENDAR_WINDOW.pastDays} days ago to ${CALENDAR_WINDOW.futureDays} days ahead.`,
};

/** The monitor's calendar document, or undefined when the secret's hash names no feed. */
export async function monitorCalendar(authPool: pg.Pool, secretHash: Buffer, now: Date): Promise<string | undefined> {
  const window = calendarWindow(now);
  const {
    rows: [row],
  } = await authPool.query<MonitorCalendarRow>(
    "select name, language, events from app_private.monitor_calendar($1, $2, $3)",
    [secretHash, window.from, window.to],
  );
  if (!row) return undefined;
  const language: CalendarLanguage = row.language === "en" ? "en" : "nl";
  return calendarDocument({ name: row.name, description: DESCRIPTIONS[language], language }, row.events);
}
