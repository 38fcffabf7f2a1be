// An iCalendar (RFC 5545) document of calendar items, written by the ical-generator library: one
// VEVENT per item, in UTC (no VTIMEZONE needed), marked free time (TRANSP:TRANSPARENT: works and
// warnings do not make the reader busy). Calendar apps keep an event by its UID, so the UID is a
// name-based UUID of the item's upstream id (the same every time, and the same in every calendar
// that holds the item), SEQUENCE and LAST-MODIFIED grow when the item changes, and DTSTAMP is its
// last change too, not the time of the request: equal data gives equal bytes, and the body's hash
// is a strong ETag. The calendar's name and description go out as RFC 5545 TEXT that we escape
// ourselves (headText): ical-generator escapes the events' fields but writes NAME, X-WR-CALNAME and
// X-WR-CALDESC as given, and a monitor's name is its owner's text. Our own words are Dutch, or
// English with ?lang=en; the sources' texts (NS, KNMI, NL-Alert) stay as the sources wrote them.
import type { OpenDataLanguage } from "../language.ts";
import ical, { ICalEventStatus, ICalEventTransparency } from "ical-generator";
import { uuidV5 } from "../../monitors/feed-documents.ts";
import type { CalendarItem, MeteoEventItem, MeteoPeriodItem, RailItem } from "./items.ts";

export type CalendarLanguage = OpenDataLanguage;

export const CALENDAR_CONTENT_TYPE = "text/calendar; charset=utf-8";

/** How often a calendar app should fetch again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
export const REFRESH_SECONDS = 3600;

/** The namespace of the events' UIDs (a name-based UUID of "<kind>:<upstream id>"); never to change. */
const UID_NAMESPACE = "5b7f3c1e-2d4a-4f6b-9e8d-1c0a7b3e5f92";

export interface CalendarHead {
  /** X-WR-CALNAME: what the calendar app lists it as. */
  name: string;
  /** X-WR-CALDESC. */
  description: string;
  /** The calendar's own address (URL, SOURCE), for the public calendars only: a monitor's is a secret. */
  url?: string;
  language: CalendarLanguage;
}

const WORDS = {
  nl: {
    rail: { maintenance: "Werkzaamheden spoor", disruption: "Treinstoring", calamity: "Calamiteit spoor" },
    cancelled: "Vervallen",
    withdrawn: "NS meldt deze werkzaamheden niet meer: ze gaan niet door.",
    stations: "Stations",
    provinces: "Provincies",
    areas: "Gebied",
    source: "Bron",
    categories: { rail: "Spoor", weather: "Weer", nlAlert: "NL-Alert" },
    nlAlertTest: "NL-Alert controlebericht",
    nlAlertTestText:
      "Het controlebericht van NL-Alert, volgens de vaste regel van de overheid: de eerste maandag van juni en " +
      "december rond 12:00 uur (een week later als dat Tweede Pinksterdag is). De overheid kondigt elke datum vooraf " +
      "aan op nl-alert.nl; tot dan is deze datum voorlopig.",
    level: (item: MeteoPeriodItem | MeteoEventItem) => item.levelLabel,
    phenomenon: (item: MeteoPeriodItem) => item.phenomenonLabel,
    phenomena: (item: MeteoEventItem) => item.phenomenonLabels.join(", "),
  },
  en: {
    rail: { maintenance: "Rail works", disruption: "Rail disruption", calamity: "Rail calamity" },
    cancelled: "Cancelled",
    withdrawn: "NS no longer lists these works: they will not take place.",
    stations: "Stations",
    provinces: "Provinces",
    areas: "Area",
    source: "Source",
    categories: { rail: "Rail", weather: "Weather", nlAlert: "NL-Alert" },
    nlAlertTest: "NL-Alert test message",
    nlAlertTestText:
      "The test message of NL-Alert, by the government's standing rule: the first Monday of June and December at " +
      "about 12:00 (a week later when that is Whit Monday). The government announces each date on nl-alert.nl; " +
      "until then this date is tentative.",
    level: (item: MeteoPeriodItem | MeteoEventItem) => `Code ${item.level}`,
    phenomenon: (item: MeteoPeriodItem) => item.phenomenon.replaceAll("-", " "),
    phenomena: (item: MeteoEventItem) => item.phenomena.map((p) => p.replaceAll("-", " ")).join(", "),
  },
} as const;

type Words = (typeof WORDS)[CalendarLanguage];

/** The parts of an event that differ by kind. */
interface EventText {
  summary: string;
  description: string;
  location?: string;
  category: string;
  status: ICalEventStatus;
}

function lines(...parts: (string | null | undefined | false)[]): string {
  return parts.filter(Boolean).join("\n");
}

function railText(item: RailItem, words: Words): EventText {
  const what = `${words.rail[item.railKind]}: ${item.title}`;
  return {
    summary: item.cancelled ? `${words.cancelled}: ${what}` : what,
    description: lines(
      item.cancelled && words.withdrawn,
      item.description,
      item.stations.length > 0 && `${words.stations}: ${item.stations.join(", ")}`,
      item.provinces.length > 0 && `${words.provinces}: ${item.provinces.join(", ")}`,
      `${words.source}: NS`,
    ),
    location: item.title,
    category: words.categories.rail,
    status: item.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  };
}

function textOf(item: CalendarItem, words: Words): EventText {
  switch (item.kind) {
    case "rail":
      return railText(item, words);
    case "meteo":
      return {
        summary: `${words.level(item)}: ${words.phenomenon(item)} – ${item.province}`,
        description: lines(item.description, `${words.source}: KNMI`),
        location: item.province,
        category: words.categories.weather,
        status: ICalEventStatus.CONFIRMED,
      };
    case "meteo_event":
      return {
        summary: `${words.level(item)}: ${words.phenomena(item)} – ${item.province}`,
        description: `${words.source}: KNMI`,
        location: item.province,
        category: words.categories.weather,
        status: ICalEventStatus.CONFIRMED,
      };
    case "nl_alert":
      return {
        summary: /^NL-Alert\b/i.test(item.title) ? item.title : `NL-Alert: ${item.title}`,
        description: lines(item.description, item.areas.length > 0 && `${words.areas}: ${item.areas.join("; ")}`),
        category: words.categories.nlAlert,
        status: ICalEventStatus.CONFIRMED,
      };
    case "nl_alert_test":
      return {
        summary: words.nlAlertTest,
        description: words.nlAlertTestText,
        location: "Nederland",
        category: words.categories.nlAlert,
        status: ICalEventStatus.TENTATIVE,
      };
  }
}

/** The event's UID: a name-based UUID of its kind and upstream id, the same in every calendar and fetch. */
export function eventUid(item: CalendarItem): string {
  return uuidV5(UID_NAMESPACE, `${item.kind}:${item.id}`);
}

/**
 * A value of the calendar's head as one line of RFC 5545 TEXT: line breaks and other control
 * characters become a space (else "\r\nBEGIN:VEVENT" in a monitor's name would start an event of
 * its own), and backslash, semicolon and comma are escaped.
 */
function headText(value: string): string {
  return value
    .replace(/\p{Cc}+/gu, " ")
    .trim()
    .replace(/[\\;,]/g, (special) => `\\${special}`);
}

const byStart = (a: CalendarItem, b: CalendarItem) =>
  Date.parse(a.startsAt) - Date.parse(b.startsAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function calendarDocument(head: CalendarHead, items: CalendarItem[]): string {
  const words = WORDS[head.language];
  const calendar = ical({
    name: headText(head.name),
    description: headText(head.description),
    prodId: { company: "NL incidents", product: "Calendars", language: head.language.toUpperCase() },
    url: head.url ?? null,
    source: head.url ?? null,
    ttl: REFRESH_SECONDS,
  });
  for (const item of [...items].sort(byStart)) {
    const text = textOf(item, words);
    const lastModified = new Date(item.lastModified);
    calendar.createEvent({
      id: eventUid(item),
      sequence: item.sequence,
      stamp: lastModified,
      lastModified,
      start: new Date(item.startsAt),
      end: item.endsAt ? new Date(item.endsAt) : null,
      summary: text.summary,
      description: text.description,
      location: text.location ?? null,
      categories: [{ name: text.category }],
      status: text.status,
      transparency: ICalEventTransparency.TRANSPARENT,
    });
  }
  return calendar.toString();
}
