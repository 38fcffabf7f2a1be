// NS (Dutch railways) disruptions, as the travel-information API serves them
// (GET https://gateway.apiportal.ns.nl/reisinformatie-api/api/v3/disruptions; docs/rail-disruptions-format.md):
// a bare JSON array of items, each of `type` DISRUPTION, MAINTENANCE or CALAMITY. Read here:
//   every type   → id, type, title, isActive
//   DISRUPTION / MAINTENANCE → start, end, timespans[].situation.label, summaryAdditionalTravelTime.label,
//                  expectedDuration.description, publicationSections[].section.stations[].stationCode
//   CALAMITY     → description (a calamity has no times and no stations)
// The array is the whole picture at its time, so a document that is not such an array is refused
// as a whole (a wrong URL or a truncated download must not read as "no disruptions"); one bad item
// is skipped and reported.
import {
  FeedDocumentError,
  htmlToPlainText,
  isJsonObject,
  parseIsoTime,
  parseJson,
  plausibleTime,
  skipRecord,
  type JsonObject,
} from "../records.ts";

export interface RailDisruption {
  /** The upstream id. It may be unique per type only: the single-item endpoint is /{type}/{id}. */
  id: string;
  kind: "disruption" | "maintenance" | "calamity";
  title: string;
  /** Plain text (no HTML), trimmed, at most 2000 characters. */
  description: string | null;
  /** Upstream isActive: happening now (maintenance that starts later is not active). */
  active: boolean;
  startAt: Date | null;
  endAt: Date | null;
  /** Distinct, uppercase, from every publication section's stations (empty for a calamity). */
  stationCodes: string[];
}

export interface RailDisruptionsDocument {
  disruptions: RailDisruption[];
  skipped: number;
  problems: string[];
}

// Maps rather than object literals: a type named "constructor" must find nothing.
const KINDS = new Map<string, RailDisruption["kind"]>([
  ["DISRUPTION", "disruption"],
  ["MAINTENANCE", "maintenance"],
  ["CALAMITY", "calamity"],
]);

const MAX_TEXT = 2000;

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function textOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** The `label` (or `description`) of an optional nested object such as situation or expectedDuration. */
function labelOf(value: unknown, field: "label" | "description" = "label"): string | null {
  return isJsonObject(value) ? textOf(value[field]) : null;
}

/**
 * The parts as plain text (NS texts are meant for apps and plain as far as the public examples
 * show, but nothing promises that; a stray tag or entity must not reach a notification), once
 * each, newline-separated and cut to MAX_TEXT; null when nothing is left.
 */
function cleanText(parts: (string | null)[]): string | null {
  const lines = [
    ...new Set(
      parts
        .filter((part) => part !== null)
        .map((part) => htmlToPlainText(part, 100_000) ?? "")
        .filter((part) => part !== ""),
    ),
  ];
  const text = lines.join("\n");
  if (text === "") return null;
  if (text.length <= MAX_TEXT) return text;
  // Cut inside the limit, without leaving half of a surrogate pair behind.
  return `${text
    .slice(0, MAX_TEXT - 1)
    .replace(/[\uD800-\uDBFF]$/, "")
    .trimEnd()}…`;
}

// A calamity has a description of its own. Disruptions and maintenance have none: what a traveller
// reads is the situation of each timespan (several for maintenance over a weekend), the extra
// travel time and the expected duration.
function descriptionOf(item: JsonObject): string | null {
  return cleanText([
    textOf(item.description),
    ...listOf(item.timespans).map((timespan) => (isJsonObject(timespan) ? labelOf(timespan.situation) : null)),
    labelOf(item.summaryAdditionalTravelTime),
    labelOf(item.expectedDuration, "description"),
  ]);
}

// Publication sections may be wider than the disrupted track: NS widens them to stations travellers
// recognise, which is what route monitors match on. A foreign station may come without a code.
function stationCodesOf(item: JsonObject): string[] {
  const codes = listOf(item.publicationSections)
    .flatMap((publication) => {
      const section = isJsonObject(publication) ? publication.section : null;
      return isJsonObject(section) ? listOf(section.stations) : [];
    })
    .map((station) => (isJsonObject(station) ? textOf(station.stationCode)?.toUpperCase() : undefined));
  return [...new Set(codes.filter((code) => code !== undefined))];
}

function readItem(item: unknown, position: number, document: RailDisruptionsDocument): void {
  if (!isJsonObject(item)) return skipRecord(document, `item ${position}: not an object`);
  const id = textOf(item.id);
  if (!id) return skipRecord(document, `item ${position}: no id`);
  const type = textOf(item.type) ?? "";
  const kind = KINDS.get(type);
  if (!kind) return skipRecord(document, `item ${position} (id ${id}): unknown type "${type}"`);
  // The title is shown on its own in notifications, so it is cleaned like the description.
  const title = cleanText([textOf(item.title)]);
  if (!title) return skipRecord(document, `${type} ${id}: no title`);
  document.disruptions.push({
    id,
    kind,
    title,
    description: descriptionOf(item),
    // isActive is required upstream; anything but true is read as "not now" rather than guessed.
    active: item.isActive === true,
    // Calamities carry no start or end. A malformed time is unknown, not a reason to drop the item.
    startAt: plausibleTime(parseIsoTime(item.start)),
    endAt: plausibleTime(parseIsoTime(item.end)),
    stationCodes: stationCodesOf(item),
  });
}

export function parseRailDisruptions(text: string): RailDisruptionsDocument {
  const parsed = parseJson(text, "The rail disruptions document");
  if (isJsonObject(parsed) && Array.isArray(parsed.payload)) {
    // The v2 endpoint answered {links, payload, meta} with Dutch field names (titel, verstoring,
    // trajecten, no isActive); NS switched it off on 4 August 2021. Its items cannot be read as v3.
    throw new FeedDocumentError(
      'rail disruptions document has a v2 "payload" wrapper; the source URL must be the v3 endpoint',
    );
  }
  if (!Array.isArray(parsed)) throw new FeedDocumentError("rail disruptions document is not a JSON array");
  const document: RailDisruptionsDocument = { disruptions: [], skipped: 0, problems: [] };
  parsed.forEach((item, index) => readItem(item, index + 1, document));
  return document;
}
