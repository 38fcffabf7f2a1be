// multimon-ng FLEX output, as documented in shared/research/p2000-format-and-parsing.md:
//   FLEX|2021-06-28 16:50:07|1600/2/K/A|12.077|002029569 001420999|ALN|A1 AMBU 17107 ...   (UTC)
//   FLEX|1600/2/K/A|12.077|001180000|ALN|TESTOPROEP MOB                                     (--flex-no-ts)
//   {"timestamp":"2024-09-13 20:35:30","capcode":1180000,"demod_name":"flex_alphanumeric","message":"..."}
// Only alphanumeric pages (ALN) are messages; numeric and tone pages are skipped, anything else is
// malformed. The text may itself contain "|".

export type FragmentFlag = "K" | "F" | "C";

export interface FlexPage {
  sended: Date;
  capcodes: string[];
  text: string;
  /** K complete, F a fragment that continues, C a continuation. */
  fragment: FragmentFlag;
}

export type ParsedLine =
  { kind: "page"; page: FlexPage } | { kind: "skipped"; reason: string } | { kind: "malformed"; reason: string };

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?$/;
const BAUD_FIELD = /^\d{3,4}\/\d(?:\/([KFC]))?(?:\/[A-D])?$/;

/** multimon-ng prints UTC without a zone; ISO-8601 with a zone is taken as given. */
function parseTimestamp(value: string): Date | null {
  if (!TIMESTAMP.test(value)) return null;
  const iso = value.replace(" ", "T");
  const date = new Date(/Z|[+-]\d{2}:?\d{2}$/.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

function parseCapcodes(field: string): string[] | null {
  const capcodes = field.trim().split(/\s+/);
  return capcodes.every((c) => /^\d{1,10}$/.test(c)) ? capcodes : null;
}

function parseJson(line: string, receivedAt: Date): ParsedLine {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: "malformed", reason: "invalid JSON" };
  }
  if (typeof value.demod_name === "string" && !value.demod_name.includes("alpha")) {
    return { kind: "skipped", reason: `not alphanumeric (${value.demod_name})` };
  }
  const capcode = String(value.capcode ?? "");
  if (!/^\d{1,10}$/.test(capcode) || typeof value.message !== "string") {
    return { kind: "malformed", reason: "JSON page without capcode or message" };
  }
  const stamp = typeof value.iso8601 === "string" ? value.iso8601 : value.timestamp;
  const sended = typeof stamp === "string" ? parseTimestamp(stamp) : receivedAt;
  if (!sended) return { kind: "malformed", reason: `bad timestamp "${String(stamp)}"` };
  return { kind: "page", page: { sended, capcodes: [capcode], text: value.message, fragment: "K" } };
}

/** A time as multimon-ng prints one (UTC, to the second). */
const flexTime = (at: Date) => at.toISOString().slice(0, 19).replace("T", " ");

/**
 * The line with the time it was read written into it when it has none of its own (multimon-ng's
 * --flex-no-ts lines, JSON without a timestamp): a line that is stored later than it was heard (a
 * remote receiver's spool, sent after an outage) keeps the time it was heard.
 */
export function withReadTime(raw: string, readAt: Date): string {
  const line = raw.replace(/\r$/, "");
  if (line.trimStart().startsWith("{")) {
    try {
      const value = JSON.parse(line) as Record<string, unknown>;
      if (value && typeof value === "object" && value.iso8601 === undefined && value.timestamp === undefined)
        return JSON.stringify({ ...value, timestamp: flexTime(readAt) });
    } catch {
      // not JSON: sent as it is, and counted as malformed where it is parsed
    }
    return line;
  }
  // Only a line of the form without a time (FLEX|baud|…): anything else is sent as it was read.
  const fields = line.split("|");
  if (fields[0] !== "FLEX" || !BAUD_FIELD.test(fields[1] ?? "")) return line;
  return ["FLEX", flexTime(readAt), ...fields.slice(1)].join("|");
}

export function parseFlexLine(raw: string, receivedAt: Date = new Date()): ParsedLine {
  const line = raw.replace(/\r$/, "");
  if (line.trim() === "") return { kind: "skipped", reason: "empty line" };
  if (line.trimStart().startsWith("{")) return parseJson(line.trim(), receivedAt);
  if (!line.startsWith("FLEX|")) {
    return line.startsWith("FLEX")
      ? { kind: "skipped", reason: "not an alphanumeric page" }
      : { kind: "malformed", reason: "not a FLEX line" };
  }
  const fields = line.split("|");
  if (!fields.includes("ALN")) return { kind: "skipped", reason: "not an alphanumeric page" };
  // With a timestamp: FLEX|time|baud|cycle|capcodes|type|text...; without: FLEX|baud|cycle|capcodes|type|text...
  const hasTime = fields.length >= 7 && TIMESTAMP.test(fields[1]);
  const [timeField, baudField, , capcodeField, typeField] = hasTime
    ? fields.slice(1, 6)
    : [null, ...fields.slice(1, 5)];
  const text = fields.slice(hasTime ? 6 : 5).join("|");
  if (typeField !== "ALN") {
    return typeField && /^(NUM|TON|UNK|BIN|HEX)$/.test(typeField)
      ? { kind: "skipped", reason: `not an alphanumeric page (${typeField})` }
      : { kind: "malformed", reason: "no page type" };
  }
  const baud = BAUD_FIELD.exec(baudField ?? "");
  if (!baud) return { kind: "malformed", reason: `bad baud field "${baudField}"` };
  const capcodes = parseCapcodes(capcodeField ?? "");
  if (!capcodes) return { kind: "malformed", reason: `bad capcodes "${capcodeField}"` };
  const sended = timeField ? parseTimestamp(timeField) : receivedAt;
  if (!sended) return { kind: "malformed", reason: `bad timestamp "${timeField}"` };
  if (text.trim() === "") return { kind: "malformed", reason: "empty message" };
  return { kind: "page", page: { sended, capcodes, text, fragment: (baud[1] as FragmentFlag | undefined) ?? "K" } };
}
