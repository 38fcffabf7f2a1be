// What a calendar holds (docs/open-data.md#calendars): the items the calendar reads answer
// (app_private.province_calendar and app_private.monitor_calendar, migration 000127), one shape
// per kind, and the window every calendar covers. The window is fixed, not the client's to choose,
// so a calendar stays a few hundred kilobytes at most and a crawler cannot ask for all history.

const DAY = 86_400_000;

/** How far back and ahead a calendar looks: the past week, for what just ended, and the next 90 days. */
export const CALENDAR_WINDOW = { pastDays: 7, futureDays: 90 } as const;

export interface CalendarWindow {
  from: Date;
  to: Date;
}

export function calendarWindow(now: Date): CalendarWindow {
  return {
    from: new Date(now.getTime() - CALENDAR_WINDOW.pastDays * DAY),
    to: new Date(now.getTime() + CALENDAR_WINDOW.futureDays * DAY),
  };
}

/** What every item has: its upstream key (the root of its UID), period and revision. */
interface Revised {
  /** The upstream id: NS's kind:id, KNMI's province:phenomenon:level:first hour, an NL-Alert's id, an event's uuid. */
  id: string;
  startsAt: string;
  /** Null when the source gives no end (an NL-Alert still on, works without an announced end). */
  endsAt: string | null;
  lastModified: string;
  /** Grows with every change of the item (RFC 5545 SEQUENCE). */
  sequence: number;
}

/** A railway disruption or planned works (app_private.calendar_rail_item). */
export interface RailItem extends Revised {
  kind: "rail";
  railKind: "disruption" | "maintenance" | "calamity";
  /** NS's title: the places, "Assen-Groningen". */
  title: string;
  description: string | null;
  stations: string[];
  provinces: string[];
  /** Withdrawn: the source stopped listing it before it began. */
  cancelled: boolean;
}

/** A weather warning period of one province, phenomenon and level (app_private.calendar_meteo_periods). */
export interface MeteoPeriodItem extends Revised {
  kind: "meteo";
  provinceCode: string;
  province: string;
  phenomenon: string;
  /** Its Dutch name (meteo_phenomena.label): "Gladheid". */
  phenomenonLabel: string;
  level: "yellow" | "orange" | "red";
  /** Its Dutch name (meteo_levels.label): "Code oranje". */
  levelLabel: string;
  /** KNMI's advice for the period's first hour, in Dutch. */
  description: string | null;
}

/** A weather warning event a monitor matched, over its warned period. */
export interface MeteoEventItem extends Revised {
  kind: "meteo_event";
  provinceCode: string;
  province: string;
  level: "yellow" | "orange" | "red";
  levelLabel: string;
  phenomena: string[];
  phenomenonLabels: string[];
}

/** An NL-Alert a monitor matched, from its start to its stop. */
export interface NlAlertItem extends Revised {
  kind: "nl_alert";
  /** The Dutch part of the message. */
  title: string;
  /** The whole message, Dutch and English. */
  description: string;
  areas: string[];
}

/** The government's twice-yearly test NL-Alert (lib/open-data/calendars/nl-alert-tests.ts). */
export interface NlAlertTestItem extends Revised {
  kind: "nl_alert_test";
}

export type CalendarItem = RailItem | MeteoPeriodItem | MeteoEventItem | NlAlertItem | NlAlertTestItem;
