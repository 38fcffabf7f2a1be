// The national road-traffic data portal's situation publications (DATEX II, as in
// shared/research/feed-formats.md): the v2 SOAP envelope (d2LogicalModel/payloadPublication) and
// the v3 message container (namespaces sit:, loc:, com:), read as a stream with saxes, so a file of
// tens of megabytes never sits in memory whole. Namespace prefixes are ignored: both versions name
// the fields alike (situationRecord with xsi:type, validity, locationForDisplay or point
// coordinates, generalPublicComment …). Kept: accidents, broken-down and abandoned vehicles, and
// jams (AbnormalTraffic) with their delay, for matrix monitors.
import { SaxesParser } from "saxes";
import { FeedDocumentError, parseIsoTime, skipRecord, type SkipLog } from "../records.ts";

export type IncidentType = "accident" | "breakdown" | "unattended";

export interface TrafficRecord {
  recordId: string;
  situationId: string | null;
  version: number;
  versionTime: Date | null;
  type: IncidentType;
  /** DATEX severity: highest, high, medium, low, lowest (null when not stated). */
  severity: string | null;
  /** DATEX validityStatus: active, suspended, definedByValidityTimeSpec. */
  validityStatus: string | null;
  startAt: Date | null;
  endAt: Date | null;
  latitude: number | null;
  longitude: number | null;
  /** A roadNumber element anywhere in the record's location (A12, N11), upper-cased. */
  roadNumber: string | null;
  /** The public comment, Dutch where several languages are given. */
  comment: string | null;
  lanesRestricted: number | null;
}

export interface TrafficJamRecord {
  recordId: string;
  situationId: string | null;
  version: number;
  /** DATEX abnormalTrafficType: stationaryTraffic, queuingTraffic, slowTraffic, heavyTraffic … */
  jamType: string | null;
  /** delayTimeValue (seconds in DATEX) in whole minutes; null when the record states none. */
  delayMinutes: number | null;
  /** queueLength in metres. */
  queueLengthMetres: number | null;
  validityStatus: string | null;
  startAt: Date | null;
  endAt: Date | null;
  latitude: number | null;
  longitude: number | null;
  roadNumber: string | null;
}

export interface DatexDocument extends SkipLog {
  publicationTime: Date | null;
  records: TrafficRecord[];
  jams: TrafficJamRecord[];
  /** Situation records of other kinds (roadworks, closures …), which this service does not keep. */
  otherRecords: number;
}

/** The severities kept; DATEX's none and unknown say nothing and are stored as null. */
const SEVERITIES = new Set(["highest", "high", "medium", "low", "lowest"]);
const MAX_ID_LENGTH = 200;
const localName = (name: string) => name.slice(name.indexOf(":") + 1);

interface OpenRecord {
  id: string | undefined;
  version: string | undefined;
  xsiType: string;
  fields: Map<string, string>;
  comments: Array<{ lang: string | null; text: string }>;
}

function incidentType(record: OpenRecord): IncidentType | null {
  if (record.xsiType === "Accident") return "accident";
  if (record.xsiType !== "VehicleObstruction") return null;
  const kind = record.fields.get("vehicleObstructionType");
  if (kind === "brokenDownVehicle") return "breakdown";
  if (kind === "abandonedVehicle") return "unattended";
  return null;
}

function numberOf(value: string | undefined): number | null {
  if (value === undefined || value.trim() === "") return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

type CommonFields = Pick<
  TrafficRecord,
  | "recordId"
  | "situationId"
  | "version"
  | "validityStatus"
  | "startAt"
  | "endAt"
  | "latitude"
  | "longitude"
  | "roadNumber"
>;

/** What incidents and jams share, or the reason the record is skipped. */
function commonFields(
  record: OpenRecord,
  situationId: string | null,
  time: (name: string) => Date | null,
): CommonFields | string {
  if (!record.id) return `a ${record.xsiType} record without an id`;
  if (record.id.length > MAX_ID_LENGTH || (situationId?.length ?? 0) > MAX_ID_LENGTH)
    return `record ${record.id.slice(0, 40)}…: an id longer than ${MAX_ID_LENGTH} characters`;
  const version = Number(record.version ?? "1");
  if (!Number.isInteger(version) || version < 0 || version > 2 ** 31 - 1)
    return `record ${record.id}: version "${record.version}" is not a whole number from 0 to 2^31-1`;
  const latitude = numberOf(record.fields.get("latitude"));
  const longitude = numberOf(record.fields.get("longitude"));
  if (
    (latitude !== null && (latitude < -90 || latitude > 90)) ||
    (longitude !== null && (longitude < -180 || longitude > 180))
  ) {
    return `record ${record.id}: coordinates ${latitude},${longitude} are out of range`;
  }
  return {
    recordId: record.id,
    situationId,
    version,
    validityStatus: record.fields.get("validityStatus") ?? null,
    startAt: time("overallStartTime"),
    endAt: time("overallEndTime"),
    latitude: latitude !== null && longitude !== null ? latitude : null,
    longitude: latitude !== null && longitude !== null ? longitude : null,
    roadNumber: record.fields.get("roadNumber")?.trim().toUpperCase().replace(/\s+/g, "") || null,
  };
}

/** A non-negative amount below the limit (whole numbers only when asked), rounded; else null. */
function amount(value: string | undefined, limit: number, wholeOnly = false): number | null {
  const parsed = numberOf(value);
  if (parsed === null || parsed < 0 || parsed >= limit || (wholeOnly && !Number.isInteger(parsed))) return null;
  return Math.round(parsed);
}

/** The record as kept (an incident or a jam), "other", or the reason it is skipped. */
function finish(
  record: OpenRecord,
  situationId: string | null,
): { incident: TrafficRecord } | { jam: TrafficJamRecord } | string {
  const type = incidentType(record);
  if (!type && record.xsiType !== "AbnormalTraffic") return "other";
  // Times outside 1900-2999 are typos (PostgreSQL would refuse year 0000 and fail the whole file).
  const time = (name: string) => {
    const raw = record.fields.get(name);
    const parsed = raw === undefined ? null : parseIsoTime(raw);
    return parsed && parsed.getUTCFullYear() >= 1900 && parsed.getUTCFullYear() <= 2999 ? parsed : null;
  };
  const common = commonFields(record, situationId, time);
  if (typeof common === "string") return common;
  if (!type) {
    const delaySeconds = amount(record.fields.get("delayTimeValue"), 7 * 24 * 3600);
    return {
      jam: {
        ...common,
        jamType: record.fields.get("abnormalTrafficType")?.slice(0, 60) ?? null,
        delayMinutes: delaySeconds === null ? null : Math.round(delaySeconds / 60),
        queueLengthMetres: amount(record.fields.get("queueLength"), 1_000_000),
      },
    };
  }
  const severity = record.fields.get("severity") ?? null;
  const comment = (record.comments.find((c) => c.lang === "nl") ?? record.comments[0])?.text ?? null;
  return {
    incident: {
      ...common,
      versionTime: time("situationRecordVersionTime") ?? time("situationRecordCreationTime"),
      type,
      severity: severity && SEVERITIES.has(severity) ? severity : null,
      comment: comment?.slice(0, 2000) ?? null,
      lanesRestricted: amount(record.fields.get("numberOfLanesRestricted"), 100, true),
    },
  };
}

/** Reads a DATEX II situation publication from text chunks; throws FeedDocumentError when it is not well-formed. */
export async function parseDatex(chunks: AsyncIterable<string> | Iterable<string>): Promise<DatexDocument> {
  const document: DatexDocument = {
    publicationTime: null,
    records: [],
    jams: [],
    otherRecords: 0,
    skipped: 0,
    problems: [],
  };
  const parser = new SaxesParser();
  const path: string[] = [];
  let text = "";
  let situationId: string | null = null;
  let record: OpenRecord | null = null;
  let commentLang: string | null = null;
  let failure: Error | null = null;
  let sawPublication = false;

  parser.on("error", (error) => {
    failure ??= error;
  });
  parser.on("opentag", (tag) => {
    const name = localName(tag.name);
    path.push(name);
    text = "";
    const attributes = tag.attributes as Record<string, string>;
    if (name === "payloadPublication" || name === "payload") {
      // Only a situation publication is the incidents file: a measured-data file (a wrong URL)
      // would otherwise read as "no incidents" and close them all.
      const type = Object.entries(attributes).find(([key]) => localName(key) === "type")?.[1];
      if (type !== undefined && localName(type) !== "SituationPublication") {
        failure ??= new Error(`a ${localName(type)}, not a SituationPublication`);
      } else sawPublication = true;
    }
    if (name === "situation") situationId = attributes.id ?? null;
    if (name === "situationRecord") {
      const xsiType = Object.entries(attributes).find(([key]) => localName(key) === "type")?.[1] ?? "";
      record = {
        id: attributes.id,
        version: attributes.version,
        xsiType: localName(xsiType),
        fields: new Map(),
        comments: [],
      };
    }
    if (name === "value" && record && path.includes("generalPublicComment")) {
      commentLang = Object.entries(attributes).find(([key]) => localName(key) === "lang")?.[1] ?? null;
    }
  });
  parser.on("text", (chunk) => {
    text += chunk;
  });
  parser.on("closetag", (tag) => {
    const name = localName(tag.name);
    const value = text.trim();
    text = "";
    path.pop();
    if (name === "publicationTime" && !record) document.publicationTime = parseIsoTime(value);
    if (name === "situationRecord" && record) {
      const result = finish(record, situationId);
      if (result === "other") document.otherRecords++;
      else if (typeof result === "string") skipRecord(document, result);
      else if ("jam" in result) document.jams.push(result.jam);
      else document.records.push(result.incident);
      record = null;
      return;
    }
    if (!record || value === "") return;
    const current = record as OpenRecord;
    if (name === "value" && path.includes("generalPublicComment"))
      current.comments.push({ lang: commentLang, text: value });
    else if (!current.fields.has(name)) current.fields.set(name, value); // the first of each: the location for display comes first
  });

  try {
    for await (const chunk of chunks) {
      parser.write(chunk);
      if (failure) break;
    }
    if (!failure) parser.close();
  } catch (error) {
    failure ??= error as Error;
  }
  if (failure) throw new FeedDocumentError(`DATEX II XML is malformed or truncated: ${(failure as Error).message}`);
  if (!sawPublication)
    throw new FeedDocumentError("not a DATEX II situation publication (no payloadPublication or payload element)");
  return document;
}
