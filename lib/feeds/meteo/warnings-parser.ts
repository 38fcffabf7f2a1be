// KNMI's 48-hour weather warnings per province (KNMI Data Platform dataset
// waarschuwingen_nederland_48h, files like knmi_waarschuwingen_202611201000.xml), as described in
// shared/research/feed-formats.md:
//   data/cube/timeslice[] → timeslice_id (start of an hourly slot, ISO time)
//     → phenomenon[] → phenomenon_id (wind, rain, iciness, …)
//       → location[] → location_id (province code), location_warning_status 0–3, text/text_data
// Every file restates the whole 48 hours, so the result is flat: one slice per hour, phenomenon
// and location. Turning slices into warning periods is the caller's business. A damaged file is
// refused as a whole (a truncated download must not look like "all warnings lifted"); a single
// damaged record is skipped and reported.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { FeedDocumentError, parseIsoTime, skipRecord, stripBom } from "../records.ts";

export interface WarningSlice {
  /** Province code (GR … LB), or the Wadden areas WAE / WAB. */
  location: string;
  phenomenon: string;
  /** Start of the hour this status holds for. */
  start: Date;
  /** 0 none, 1 code geel, 2 code oranje, 3 code rood. */
  status: 0 | 1 | 2 | 3;
  text: string | null;
}

export interface WarningsDocument {
  kind: "warnings";
  slices: WarningSlice[];
  skipped: number;
  problems: string[];
}

type XmlNode = Record<string, unknown>;

const REPEATED_ELEMENTS = new Set(["timeslice", "phenomenon", "location"]);

const parser = new XMLParser({
  // A file with one timeslice, phenomenon or location still yields arrays.
  isArray: (tagName) => REPEATED_ELEMENTS.has(tagName),
  // Statuses and codes stay strings, so "7" or "2.5" is seen and refused rather than coerced.
  parseTagValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // The root element is unconfirmed; a namespace prefix must not hide data/cube either.
  removeNSPrefix: true,
});

function isNode(value: unknown): value is XmlNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function textOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** text/text_data. Should a location carry several (paragraphs), they are kept, in order, once each. */
function adviceOf(text: unknown): string | null {
  const parts = [text]
    .flat()
    .flatMap((node) => (isNode(node) ? [node.text_data].flat() : []))
    .map(textOf);
  const advice = [...new Set(parts.filter((part) => part !== null))];
  return advice.length > 0 ? advice.join("\n") : null;
}

// For elements left open the validator lists them and points at line 1, so where the document
// ends is told as well: that is what shows a truncated download.
function assertWellFormed(xml: string): void {
  const result = XMLValidator.validate(xml);
  if (result === true) return;
  const { msg, line, col } = result.err;
  const lastLine = xml.split("\n").length;
  throw new FeedDocumentError(
    `warnings XML is malformed or truncated: ${msg.replace(/\s+/g, " ")} (line ${line}, column ${col}; the document ends at line ${lastLine})`,
  );
}

/** The first data/cube at any depth, since the root element's name is not documented. */
function findCube(node: unknown): XmlNode | null {
  if (Array.isArray(node)) {
    for (const item of node) {
      const cube = findCube(item);
      if (cube) return cube;
    }
    return null;
  }
  if (!isNode(node)) return null;
  if (isNode(node.data) && isNode(node.data.cube)) return node.data.cube;
  return findCube(Object.values(node));
}

function sliceOf(location: unknown, phenomenon: string, start: Date): WarningSlice | string {
  const fields = isNode(location) ? location : {};
  const code = textOf(fields.location_id)?.toUpperCase();
  if (!code) return "no location_id";
  const status = textOf(fields.location_warning_status) ?? "";
  if (!/^[0-3]$/.test(status)) return `${code}: location_warning_status "${status}" is not 0-3`;
  return {
    location: code,
    phenomenon,
    start,
    status: Number(status) as WarningSlice["status"],
    text: adviceOf(fields.text),
  };
}

function readPhenomenon(node: unknown, start: Date, where: string, document: WarningsDocument): void {
  const fields = isNode(node) ? node : {};
  const phenomenon = textOf(fields.phenomenon_id)?.toLowerCase();
  if (!phenomenon) return skipRecord(document, `${where}: phenomenon without phenomenon_id`);
  listOf(fields.location).forEach((location, index) => {
    const slice = sliceOf(location, phenomenon, start);
    if (typeof slice === "string") skipRecord(document, `${where} ${phenomenon} location ${index + 1}: ${slice}`);
    else document.slices.push(slice);
  });
}

function readTimeslice(node: unknown, position: number, document: WarningsDocument): void {
  const fields = isNode(node) ? node : {};
  const id = textOf(fields.timeslice_id);
  const start = parseIsoTime(id);
  if (!start)
    return skipRecord(document, `timeslice ${position}: timeslice_id "${id ?? ""}" is not an ISO time with a zone`);
  for (const phenomenon of listOf(fields.phenomenon)) readPhenomenon(phenomenon, start, `timeslice ${id}`, document);
}

export function parseWarningsXml(xml: string): WarningsDocument {
  // Whitespace before the XML declaration is strictly an error, but says nothing about the content.
  const text = stripBom(xml).trimStart();
  assertWellFormed(text);
  const timeslices = listOf(findCube(parser.parse(text))?.timeslice);
  if (timeslices.length === 0) throw new FeedDocumentError("warnings XML has no data/cube/timeslice elements");
  const document: WarningsDocument = { kind: "warnings", slices: [], skipped: 0, problems: [] };
  timeslices.forEach((timeslice, index) => readTimeslice(timeslice, index + 1, document));
  return document;
}
