// What every feed's parser shares: the error for a document that is unusable as a whole (the
// caller keeps the last good state), the bounded log of skipped records (one bad record is
// counted, never fatal), and strict time and text clean-up.

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
