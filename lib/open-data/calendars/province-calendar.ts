// The public calendar of a province, or of the whole country (docs/open-data.md#calendars): planned
// railway works with a station in it, the KNMI weather warning periods of the province (every
// province's for the country), and the government's test NL-Alert, which reaches everyone, in the
// calendar window. Read through app_private.province_calendar, which answers no row for an unknown
// province code, and kept in the service's response cache (lib/http/response-cache/store.ts) until
// the data it read changes: many calendar apps fetch the same few calendars, and a read costs a
// tenth of a second or more (mostly the works' events, with their stations placed in provinces).
// The cache's maximum age (seconds) bounds how far the kept calendar's window lags the clock.
import type pg from "pg";
import type { ResponseCache } from "../../http/response-cache/store.ts";
import { calendarDocument, type CalendarLanguage } from "./document.ts";
import { CALENDAR_WINDOW, calendarWindow, type CalendarItem } from "./items.ts";
import { nlAlertTests } from "./nl-alert-tests.ts";
import { keptRead } from "../kept-read.ts";

interface ProvinceCalendarRow {
  code: string | null;
  name: string;
  events: CalendarItem[];
}

const COUNTRY: Record<CalendarLanguage, string> = { nl: "Nederland", en: "the Netherlands" };

function head(place: string, country: boolean, language: CalendarLanguage) {
  const { pastDays, futureDays } = CALENDAR_WINDOW;
  return language === "nl"
    ? {
        name: `Spoor, weer en NL-Alert – ${place}`,
        description:
          `Geplande werkzaamheden aan het spoor (NS)${country ? "" : ` met een station in ${place}`}, ` +
          `weerwaarschuwingen van het KNMI${country ? " per provincie" : ""} en het controlebericht van NL-Alert, ` +
          `van ${pastDays} dagen geleden tot over ${futureDays} dagen.`,
      }
    : {
        name: `Rail, weather and NL-Alert – ${place}`,
        description:
          `Planned rail works (NS)${country ? "" : ` with a station in ${place}`}, KNMI weather warnings` +
          `${country ? " per province" : ""} and the NL-Alert test message, from ${pastDays} days ago to ` +
          `${futureDays} days ahead.`,
      };
}

/**
 * The calendar of a province by its code (null: the whole country) at `url`, or undefined when no
 * province has the code.
 */
export async function provinceCalendar(
  authPool: pg.Pool,
  province: string | null,
  language: CalendarLanguage,
  url: string,
  now: Date,
): Promise<string | undefined> {
  const window = calendarWindow(now);
  const {
    rows: [row],
  } = await authPool.query<ProvinceCalendarRow>(
    "select code, name, events from app_private.province_calendar($1, $2, $3)",
    [province, window.from, window.to],
  );
  if (!row) return undefined;
  const place = row.code === null ? COUNTRY[language] : row.name;
  const items = [...row.events, ...nlAlertTests(window)];
  return calendarDocument({ ...head(place, row.code === null, language), url, language }, items);
}

/**
 * The data_changed domains of what province_calendar reads: rail_disruptions ("rail"), the
 * warnings and their documents ("meteo"), and the provinces and areas that place stations ("places").
 */
const CALENDAR_DOMAINS = ["rail", "meteo", "places"] as const;

/** The public calendars, read once and kept until their data changes. */
export class ProvinceCalendars {
  private readonly pool: pg.Pool;
  private readonly cache: ResponseCache;

  constructor(pool: pg.Pool, cache: ResponseCache) {
    this.pool = pool;
    this.cache = cache;
  }

  /** The calendar as provinceCalendar makes it now, or the one kept of a moment ago. */
  read(province: string | null, language: CalendarLanguage, url: string): Promise<string | undefined> {
    return keptRead(this.cache, ["calendar", province ?? "", language].join("\u0000"), CALENDAR_DOMAINS, () =>
      provinceCalendar(this.pool, province, language, url, new Date()),
    );
  }
}
