// Stores one DATEX II situation publication, whatever brought it (the poller, `npm run
// ingest:traffic`): read as a stream (gzipped or plain), parsed, then stored by one SQL function in
// one transaction, so a broken file changes nothing. A feed's file is complete: the incidents (or,
// for the jams feed, the jams) it no longer holds are closed.
import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import type pg from "pg";
import { parseDatex, type TrafficJamRecord, type TrafficRecord } from "./datex-parser.ts";

/** Which records of a publication a feed is the whole list of: the incidents file, or the jams of the current-situation file. */
export type TrafficFeedKind = "incidents" | "jams";

export interface TrafficIngestResult {
  kind: TrafficFeedKind;
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

const jamRow = (r: TrafficJamRecord) => ({
  record_id: r.recordId,
  situation_id: r.situationId,
  version: r.version,
  jam_type: r.jamType,
  delay_minutes: r.delayMinutes,
  queue_length_m: r.queueLengthMetres,
  validity_status: r.validityStatus,
  start_at: r.startAt,
  end_at: r.endAt,
  latitude: r.latitude,
  longitude: r.longitude,
  road_number: r.roadNumber,
});

const row = (r: TrafficRecord) => ({
  record_id: r.recordId,
  situation_id: r.situationId,
  version: r.version,
  version_time: r.versionTime,
  type: r.type,
  severity: r.severity,
  validity_status: r.validityStatus,
  start_at: r.startAt,
  end_at: r.endAt,
  latitude: r.latitude,
  longitude: r.longitude,
  road_number: r.roadNumber,
  comment: r.comment,
  lanes_restricted: r.lanesRestricted,
});

/**
 * Parses and stores a publication as the whole list of the feed's kind (incidents, or jams); throws
 * FeedDocumentError for one unusable as a whole.
 */
export async function ingestTrafficDocument(
  db: pg.Pool | pg.ClientBase,
  input: AsyncIterable<Buffer>,
  source: string,
  kind: TrafficFeedKind = "incidents",
): Promise<TrafficIngestResult> {
  const document = await parseDatex(textChunks(input));
  const [records, rows, ingest] =
    kind === "incidents"
      ? [document.records, document.records.map(row), "app_private.ingest_traffic_incidents"]
      : [document.jams, document.jams.map(jamRow), "app_private.ingest_traffic_jams"];
  const {
    rows: [{ result }],
  } = await db.query<{ result: TrafficIngestResult["stored"] }>(`select ${ingest}($1::jsonb, $2, $3) as result`, [
    JSON.stringify(rows),
    document.publicationTime,
    source,
  ]);
  return {
    kind,
    records: records.length,
    otherRecords: document.otherRecords + document.records.length + document.jams.length - records.length,
    skipped: document.skipped,
    problems: document.problems,
    stored: result,
  };
}

export function describeTrafficIngest(result: TrafficIngestResult): string {
  const { inserted, updated, closed, reopened, older } = result.stored;
  const skipped = result.skipped ? `, ${result.skipped} bad record(s) skipped` : "";
  return (
    `${result.records} ${result.kind} read (${result.otherRecords} other records left out${skipped}); ` +
    `${inserted} new, ${updated} newer versions, ${closed} closed${reopened ? `, ${reopened} open again` : ""}` +
    `${older ? " (older than the newest file stored: nothing closed)" : ""}.`
  );
}
