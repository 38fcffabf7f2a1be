// Stores one DATEX II situation publication, whatever brought it (the poller, `npm run
// ingest:traffic`): read as a stream (gzipped or plain), parsed, then stored by one SQL function in
// one transaction, so a broken file changes nothing. The feed's file is complete: incidents it no
// longer holds are closed.
import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import type pg from "pg";
import { parseDatex, type TrafficRecord } from "./datex-parser.ts";

export interface TrafficIngestResult {
  records: number;
  otherRecords: number;
  skipped: number;
  problems: string[];
  stored: { inserted: number; updated: number; closed: number; reopened: number; older: boolean };
}

/** The bytes as text chunks, gunzipped when they start with gzip's magic number. */
async function* textChunks(input: AsyncIterable<Buffer>): AsyncIterable<string> {
  const iterator = input[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const rest = (async function* () {
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
  const gzipped = first.value[0] === 0x1f && first.value[1] === 0x8b;
  const bytes: AsyncIterable<Buffer> = gzipped ? Readable.from(rest).pipe(createGunzip()) : rest;
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of bytes) yield decoder.decode(chunk, { stream: true });
  const tail = decoder.decode();
  if (tail) yield tail;
}

const row = (r: TrafficRecord) => ({
  record_id: r.recordId, situation_id: r.situationId, version: r.version, version_time: r.versionTime, type: r.type,
  severity: r.severity, validity_status: r.validityStatus, start_at: r.startAt, end_at: r.endAt, latitude: r.latitude,
  longitude: r.longitude, road_number: r.roadNumber, comment: r.comment, lanes_restricted: r.lanesRestricted,
});

/** Parses and stores a publication; throws FeedDocumentError for one unusable as a whole. */
export async function ingestTrafficDocument(db: pg.Pool | pg.ClientBase, input: AsyncIterable<Buffer>, source: string): Promise<TrafficIngestResult> {
  const document = await parseDatex(textChunks(input));
  const { rows: [{ result }] } = await db.query<{ result: TrafficIngestResult["stored"] }>(
    "select app_private.ingest_traffic_incidents($1::jsonb, $2, $3) as result",
    [JSON.stringify(document.records.map(row)), document.publicationTime, source]);
  return { records: document.records.length, otherRecords: document.otherRecords, skipped: document.skipped, problems: document.problems, stored: result };
}

export function describeTrafficIngest(result: TrafficIngestResult): string {
  const { inserted, updated, closed, reopened, older } = result.stored;
  const skipped = result.skipped ? `, ${result.skipped} bad record(s) skipped` : "";
  return `${result.records} incidents read (${result.otherRecords} other records left out${skipped}); ` +
    `${inserted} new, ${updated} newer versions, ${closed} closed${reopened ? `, ${reopened} open again` : ""}` +
    `${older ? " (older than the newest file stored: nothing closed)" : ""}.`;
}
