// What every feed's parser shares: the error for a document that is unusable as a whole (the
// caller keeps the last good state), the bounded log of skipped records (one bad record is
// counted, never fatal), and strict JSON, time and text clean-up.
import { convert } from "html-to-text";

/** The document as a whole is unusable (malformed, truncated, not the expected shape). */
export class FeedDocumentError extends Error {
  name = "FeedDocumentError";
}

/** A feed can have thousands of bad records; describing a handful is enough to diagnose it. */
export const MAX_PROBLEMS = 20;

export interface SkipLog {
  skipped: number;
  problems: string[];
}

export function skipRecord(log: SkipLog, problem: string): void {
  log.skipped += 1;
  if (log.problems.length < MAX_PROBLEMS) log.problems.push(problem);
}

// An explicit zone is required: without one, Date would read the time as the server's local time.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

export function parseIsoTime(value: unknown): Date | null {
  if (typeof value !== "string" || !ISO_TIME.test(value.trim())) return null;
  const date = new Date(value.trim());
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Files saved by Windows tools start with a byte order mark, which neither JSON.parse nor XML wants. */
export function stripBom(text: string): string {
  return text.replace(/^\uFEFF/, "");
}

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A JSON document, or FeedDocumentError. The parser's own message is not passed on: it can quote
 * a piece of the input, and a feed's text (a missing child's name) must not reach the logs.
 */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(stripBom(text));
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new FeedDocumentError(
      `${what} is not JSON (malformed or truncated${position ? `, at character ${position}` : ""}).`,
    );
  }
}

/** A time the database can hold as Unix seconds (1970 to 9999), else null: a typo is not fatal. */
export function plausibleTime(date: Date | null): Date | null {
  if (!date) return null;
  const year = date.getUTCFullYear();
  return year >= 1970 && year <= 9999 ? date : null;
}

/** HTML as plain text (tags dropped, entities decoded, whitespace tidied), at most `max` characters. */
export function htmlToPlainText(html: string, max: number): string | null {
  const text = convert(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { ignoreHref: true } },
      { selector: "img", format: "skip" },
    ],
  }).trim();
  return text ? text.slice(0, max) : null;
}

/** An http(s) URL from a feed, or null: a javascript: or data: URL must never reach a client. */
export function webUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  try {
    const url = new URL(value.trim().slice(0, 2000));
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}
