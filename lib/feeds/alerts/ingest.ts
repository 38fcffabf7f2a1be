// Stores alert documents, whatever brought them (the pollers, `npm run ingest:alerts`): an AMBER
// alert list or an NL-Alert page, told apart by their shape, each stored by one SQL function in one
// transaction, so a broken document changes nothing.
import type pg from "pg";
import { FeedDocumentError, parseJson } from "../records.ts";
import { parseAmberAlerts, type AmberAlertsDocument } from "./amber-parser.ts";
import { parseNlAlerts, type NlAlertsDocument } from "./nl-alert-parser.ts";
import { log as serviceLog } from "../../ops/log.ts";

export type AlertsDocument =
  { kind: "amber"; document: AmberAlertsDocument } | { kind: "nl-alert"; document: NlAlertsDocument };

export interface AmberStored {
  alerts: number;
  started: number;
  updated: number;
  ended: number;
}
export interface NlAlertsStored {
  alerts: number;
  inserted: number;
  updated: number;
}

export function parseJsonDocument(body: Buffer): unknown {
  return parseJson(body.toString("utf8"), "The alert document");
}

/** An AMBER list is an array; an NL-Alert page an object with "data". */
export function readAlertsDocument(body: Buffer): AlertsDocument {
  const json = parseJsonDocument(body);
  if (Array.isArray(json)) return { kind: "amber", document: parseAmberAlerts(json) };
  if (typeof json === "object" && json !== null && "data" in json)
    return { kind: "nl-alert", document: parseNlAlerts(json) };
  throw new FeedDocumentError(
    'Neither an AMBER alert list (a JSON array) nor an NL-Alert page (an object with "data").',
  );
}

/**
 * Stores an AMBER document: `complete` when it is the feed's whole list (the poller, the CLI), so
 * alerts it no longer holds have ended. Ending erases the personal details in the transaction;
 * VACUUM then also removes the old row versions that held them (those no open transaction can
 * still see). A failed VACUUM is reported, not fatal: the data is stored, and autovacuum follows.
 */
export async function storeAmberAlerts(
  db: pg.Pool | pg.ClientBase,
  document: AmberAlertsDocument,
  source: string,
  { complete }: { complete: boolean },
  log: (line: string) => void = (line) => serviceLog.error(line),
): Promise<AmberStored> {
  const rows = document.alerts.map((a) => ({
    alert_id: a.alertId,
    level: a.level,
    type: a.type,
    sent: a.sent,
    title: a.title,
    description: a.description,
    description_ext: a.descriptionExt,
    image_url: a.imageUrl,
    read_more_url: a.readMoreUrl,
  }));
  const {
    rows: [{ result }],
  } = await db.query<{ result: AmberStored }>(
    "select app_private.ingest_amber_alerts($1::jsonb, $2, $3, $4) as result",
    [JSON.stringify(rows), source, complete, document.skippedAlertIds],
  );
  if (result.ended > 0) {
    await db
      .query("vacuum app_public.amber_alerts")
      .catch((error: Error) =>
        log(
          `amber-alerts: stored, but VACUUM after erasing ended alerts failed (autovacuum will follow): ${error.message}`,
        ),
      );
  }
  return result;
}

export async function storeNlAlerts(
  db: pg.Pool | pg.ClientBase,
  document: NlAlertsDocument,
  source: string,
): Promise<NlAlertsStored> {
  const rows = document.alerts.map((a) => ({
    alert_id: a.alertId,
    message: a.message,
    start_at: a.startAt,
    stop_at: a.stopAt,
    area_texts: a.areaTexts,
    areas: a.polygons,
    resource_uri: a.resourceUri,
  }));
  const {
    rows: [{ result }],
  } = await db.query<{ result: NlAlertsStored }>("select app_private.ingest_nl_alerts($1::jsonb, $2) as result", [
    JSON.stringify(rows),
    source,
  ]);
  return result;
}

function skippedNote(document: { skipped: number }): string {
  return document.skipped ? `, ${document.skipped} bad item(s) skipped` : "";
}

export function describeAmber(document: AmberAlertsDocument, stored: AmberStored): string {
  const tests = document.notActual ? `, ${document.notActual} test message(s) left out` : "";
  return (
    `${stored.alerts} AMBER alert message(s) read${tests}${skippedNote(document)}; ` +
    `${stored.started} new, ${stored.updated} updated, ${stored.ended} ended (details erased).`
  );
}

export function describeNlAlerts(document: NlAlertsDocument, stored: NlAlertsStored): string {
  return `${stored.alerts} NL-Alert(s) read${skippedNote(document)}; ${stored.inserted} new, ${stored.updated} updated.`;
}

/** One document of either kind (the CLI): stored, and described in one line. */
export async function ingestAlertsDocument(
  db: pg.Pool,
  body: Buffer,
  source: string,
): Promise<{ summary: string; problems: string[] }> {
  const read = readAlertsDocument(body);
  if (read.kind === "amber") {
    const stored = await storeAmberAlerts(db, read.document, source, { complete: true });
    return { summary: describeAmber(read.document, stored), problems: read.document.problems };
  }
  return {
    summary: describeNlAlerts(read.document, await storeNlAlerts(db, read.document, source)),
    problems: read.document.problems,
  };
}
