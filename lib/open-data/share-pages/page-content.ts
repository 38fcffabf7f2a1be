// What a share page says about its record, in Dutch or English (docs/open-data.md#share-pages):
// the title and the one-line description a link preview shows, the facts a reader or a search
// engine sees (place, time in Europe/Amsterdam, region, urgency, units), and what its map image
// marks. Made from the JSON the database's share functions return (migration 000128), whose plain
// words are the database's own (app_hidden.p2000_plain_text); nothing here reads anything else.
import type { OpenDataLanguage } from "../language.ts";
import type { ShareKind } from "./kinds.ts";
import type { MapSubject } from "./map-image.ts";

export type Language = OpenDataLanguage;

export interface Fact {
  label: string;
  value: string;
  /** The value is a moment: shown in a `<time datetime>`. */
  datetime?: string;
}

export interface PageMessage {
  sent: string;
  plainText: string;
  text: string;
}

export interface SharePage {
  title: string;
  description: string;
  facts: Fact[];
  messages: PageMessage[];
  /**
   * Search engines may index it (robots). Not an exercise or test (marked as such in its title),
   * nor an ambulance call: shareable, but no search result of "ambulance at <address>"
   * (docs/open-data.md#share-pages).
   */
  searchable: boolean;
  /** When it happened (article:published_time). */
  at: string;
  map: MapSubject;
  /** The words under the image (og:image:alt). */
  imageAlt: string;
}

const TIME_FORMATS: Record<Language, Intl.DateTimeFormat> = {
  nl: new Intl.DateTimeFormat("nl-NL", { timeZone: "Europe/Amsterdam", dateStyle: "long", timeStyle: "short" }),
  en: new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Amsterdam", dateStyle: "long", timeStyle: "short" }),
};

/** A moment as people in the Netherlands read it. */
export function localTime(iso: string, language: Language): string {
  return TIME_FORMATS[language].format(new Date(iso));
}

const WORDS = {
  nl: {
    place: "Plaats",
    time: "Tijd",
    lastMessage: "Laatste melding",
    region: "Veiligheidsregio",
    regions: "Veiligheidsregio's",
    urgency: "Urgentie",
    discipline: "Dienst",
    kindOf: "Soort",
    grip: "GRIP",
    units: "Gealarmeerde eenheden",
    exercise: "Oefening of test",
    road: "Weg",
    severity: "Ernst",
    ended: "Afgelopen",
    lanes: "Rijstroken dicht",
    note: "Toelichting",
    start: "Begin",
    end: "Einde",
    areas: "Gebieden",
    province: "Provincie",
    period: "Periode",
    level: "Code",
    phenomena: "Waarschuwing voor",
    advice: "Advies",
    until: "tot",
    mapOf: "Kaart van de plek",
    incidentTitle: "Melding",
    trafficTitle: "Verkeersincident",
    nlAlertTitle: "NL-Alert",
    warningTitle: "Weerwaarschuwing",
    levels: { none: "geen waarschuwing meer", yellow: "code geel", orange: "code oranje", red: "code rood" },
  },
  en: {
    place: "Place",
    time: "Time",
    lastMessage: "Last message",
    region: "Safety region",
    regions: "Safety regions",
    urgency: "Urgency",
    discipline: "Service",
    kindOf: "Kind",
    grip: "GRIP",
    units: "Units paged",
    exercise: "Exercise or test",
    road: "Road",
    severity: "Severity",
    ended: "Ended",
    lanes: "Lanes closed",
    note: "Note",
    start: "Start",
    end: "End",
    areas: "Areas",
    province: "Province",
    period: "Period",
    level: "Code",
    phenomena: "Warning for",
    advice: "Advice",
    until: "until",
    mapOf: "Map of the place",
    incidentTitle: "Incident",
    trafficTitle: "Traffic incident",
    nlAlertTitle: "NL-Alert",
    warningTitle: "Weather warning",
    levels: { none: "warning ended", yellow: "code yellow", orange: "code orange", red: "code red" },
  },
} as const;

/** English names of the traffic feed's kinds and severities (the database has Dutch labels). */
const TRAFFIC_EN: Record<string, string> = {
  accident: "Accident",
  breakdown: "Broken-down vehicle",
  unattended: "Abandoned vehicle",
  lowest: "Very light",
  low: "Light",
  medium: "Medium",
  high: "Serious",
  highest: "Very serious",
};

type Data = Record<string, unknown>;
const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() ? value : undefined);
const texts = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v) => typeof v === "string") : []);
const number = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
const joined = (...parts: Array<string | undefined>): string => parts.filter(Boolean).join(", ");

function fact(facts: Fact[], label: string, value: string | undefined, datetime?: string): void {
  if (value) facts.push(datetime ? { label, value, datetime } : { label, value });
}

function timeFact(facts: Fact[], label: string, iso: unknown, language: Language): void {
  const at = text(iso);
  if (at) fact(facts, label, localTime(at, language), at);
}

function pointOf(data: Data): [number, number] | undefined {
  const lat = number(data.latitude);
  const lon = number(data.longitude);
  return lat === undefined || lon === undefined ? undefined : [lon, lat];
}

/**
 * A call for an ambulance (or a trauma helicopter): its discipline, by the reference data's name
 * (migration 000001; the share function gives the name), or an ambulance urgency (A0–A2, B1–B2),
 * whichever the incident has.
 */
function ambulanceCall(data: Data): boolean {
  return data.discipline === "Ambulance" || /^[AB]\d$/.test(text(data.urgencyCode) ?? "");
}

function incidentPage(data: Data, language: Language): SharePage {
  const w = WORDS[language];
  const exercise = text(data.exerciseType) !== undefined && data.exerciseType !== "none";
  const place = joined(text(data.street), text(data.city));
  const plain = text(data.plainText) ?? text(data.title) ?? w.incidentTitle;
  const at = String(data.firstSent);
  const facts: Fact[] = [];
  if (exercise) fact(facts, w.kindOf, w.exercise);
  fact(facts, w.place, place);
  timeFact(facts, w.time, data.firstSent, language);
  if (data.lastSent !== data.firstSent) timeFact(facts, w.lastMessage, data.lastSent, language);
  fact(facts, w.region, text(data.regionName));
  fact(facts, w.discipline, text(data.discipline));
  fact(facts, w.urgency, joined(text(data.urgencyCode), text(data.urgencyName)));
  fact(facts, w.kindOf, text(data.category));
  fact(facts, w.grip, number(data.gripLevel)?.toString());
  fact(facts, w.units, texts(data.units).join(", "));
  const messages = (Array.isArray(data.messages) ? (data.messages as Data[]) : []).map((m) => ({
    sent: String(m.sent),
    plainText: text(m.plainText) ?? String(m.text),
    text: String(m.text),
  }));
  return {
    title: exercise ? `${w.exercise}: ${plain}` : plain,
    description: joined(localTime(at, language), place || undefined, text(data.regionName), text(data.urgencyName)),
    facts,
    messages,
    searchable: !exercise && !ambulanceCall(data),
    at,
    map: { point: pointOf(data), regionNumber: text(data.regionNumber) },
    imageAlt: `${w.mapOf}: ${place || text(data.regionName) || plain}`,
  };
}

function trafficPage(data: Data, language: Language): SharePage {
  const w = WORDS[language];
  const label = (value: unknown, dutch: unknown) =>
    language === "en" ? (TRAFFIC_EN[String(value)] ?? text(value)) : text(dutch);
  const kind = label(data.type, data.typeLabel) ?? w.trafficTitle;
  const road = text(data.road);
  const at = text(data.startAt) ?? String(data.firstSeenAt);
  const facts: Fact[] = [];
  fact(facts, w.road, road);
  timeFact(facts, w.start, at, language);
  timeFact(facts, w.ended, data.closedAt, language);
  fact(facts, w.severity, label(data.severity, data.severityLabel));
  fact(facts, w.lanes, number(data.lanesRestricted)?.toString());
  fact(facts, w.region, text(data.regionName));
  fact(facts, w.note, text(data.comment));
  return {
    title: road ? `${kind} ${road}` : kind,
    description: joined(localTime(at, language), text(data.regionName), label(data.severity, data.severityLabel)),
    facts,
    messages: [],
    searchable: true,
    at,
    map: { point: pointOf(data) },
    imageAlt: `${w.mapOf}: ${road ?? kind}`,
  };
}

/** PostgreSQL polygon text, "((4.8,52.3),(4.9,52.3),…)": its rings' [longitude, latitude] points. */
function polygonPoints(polygon: string): Array<[number, number]> {
  return [...polygon.matchAll(/\(\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\)/g)].map(
    (m) => [Number(m[1]), Number(m[2])] as [number, number],
  );
}

function nlAlertPage(data: Data, language: Language): SharePage {
  const w = WORDS[language];
  // The message's Dutch part comes first; the English one, where there is one, after "***".
  const [dutch, english] = String(data.message)
    .split("***")
    .map((part) => part.trim());
  const message = (language === "en" && english) || dutch || String(data.message);
  const at = String(data.startAt);
  const regions = texts(data.regions);
  const facts: Fact[] = [];
  timeFact(facts, w.start, data.startAt, language);
  timeFact(facts, w.end, data.stopAt, language);
  fact(facts, w.areas, texts(data.areaTexts).join(", "));
  fact(facts, w.regions, regions.join(", "));
  const firstLine = message.split(/\n|(?<=[.!?])\s/)[0] ?? message;
  return {
    title: `${w.nlAlertTitle}: ${firstLine.length > 110 ? `${firstLine.slice(0, 109)}…` : firstLine}`,
    description: message.length > 300 ? `${message.slice(0, 299)}…` : message,
    facts,
    messages: [{ sent: at, plainText: message, text: message }],
    searchable: true,
    at,
    map: { areas: (Array.isArray(data.areas) ? data.areas : []).map((p) => polygonPoints(String(p))) },
    imageAlt: `${w.mapOf}: ${texts(data.areaTexts)[0] ?? regions.join(", ")}`,
  };
}

function warningPage(data: Data, language: Language): SharePage {
  const w = WORDS[language];
  const level = String(data.level) as keyof typeof w.levels;
  const province = String(data.provinceName);
  const phenomena = texts(data.phenomena).join(", ");
  const at = text(data.periodFrom) ?? String(data.issuedAt);
  const period =
    text(data.periodFrom) && text(data.periodTo)
      ? `${localTime(String(data.periodFrom), language)} ${w.until} ${localTime(String(data.periodTo), language)}`
      : undefined;
  const facts: Fact[] = [];
  fact(facts, w.province, province);
  fact(facts, w.level, w.levels[level] ?? level);
  fact(facts, w.phenomena, phenomena);
  fact(facts, w.period, period);
  timeFact(facts, w.time, data.issuedAt, language);
  for (const advice of texts(data.advice)) fact(facts, w.advice, advice);
  return {
    title: `${w.warningTitle} ${province}: ${w.levels[level] ?? level}${phenomena ? ` (${phenomena})` : ""}`,
    description: joined(period, texts(data.advice)[0]) || `${w.warningTitle} ${province}`,
    facts,
    messages: [],
    searchable: true,
    at,
    map: { provinceCode: text(data.provinceCode), level },
    imageAlt: `${w.mapOf}: ${province}`,
  };
}

const PAGES: Record<ShareKind, (data: Data, language: Language) => SharePage> = {
  incident: incidentPage,
  traffic: trafficPage,
  nlAlert: nlAlertPage,
  warning: warningPage,
};

export function sharePage(kind: ShareKind, data: Data, language: Language): SharePage {
  return PAGES[kind](data, language);
}

/** The site's name (og:site_name) and the words of the pages around the record. */
export const SITE_WORDS = {
  nl: { siteName: "Incidenten in Nederland", openMap: "Bekijk op de kaart", locale: "nl_NL", messages: "Meldingen" },
  en: { siteName: "Incidents in the Netherlands", openMap: "See it on the map", locale: "en_GB", messages: "Messages" },
} as const;
