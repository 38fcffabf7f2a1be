// Storing P2000 messages in batches, with the result of storing them one by one in order but with
// both cores busy: a batch's enrichment (app_private.p2000_enrich_messages) is a pure function of
// the texts, the capcodes and reference data, so it can run on one connection while the previous
// batch is stored on others; and since a dossier never spans two safety regions, messages of
// different regions can be stored by concurrent statements. All copies of one text stay in one
// part, so copies are still merged.
import type pg from "pg";

/** What storing a batch writes to (app_private.ingest_p2000_messages and its triggers). */
export const P2000_STORED_TABLES = [
  "app_public.p2000_messages",
  "app_public.p2000_message_capcodes",
  "app_public.p2000_capcodes",
  "app_public.p2000_dossiers",
  "app_public.p2000_dossier_events",
  "app_public.fire_vehicles",
  "app_hidden.p2000_daily_counts",
  "app_hidden.p2000_hourly_counts",
  "app_hidden.p2000_hourly_urgency_counts",
] as const;

export interface IncomingMessage {
  message: string;
  /** ISO time. */
  sended: string;
  capcodes: string[];
}

export interface EnrichedMessage extends IncomingMessage {
  /** app_hidden.p2000_enrichment as JSON. */
  enrichment: { region_uuid: string | null } & Record<string, unknown>;
}

export async function enrichBatch(db: pg.Pool, messages: IncomingMessage[]): Promise<EnrichedMessage[]> {
  const {
    rows: [{ enrichments }],
  } = await db.query<{ enrichments: EnrichedMessage["enrichment"][] }>(
    "select app_private.p2000_enrich_messages($1::json) as enrichments",
    [JSON.stringify(messages)],
  );
  return messages.map((message, i) => ({ ...message, enrichment: enrichments[i] }));
}

/**
 * Splits a batch into at most `count` parts of about equal size, each in the batch's order: all
 * messages of one region in one part, and every copy of a text where its first copy is.
 */
export function partitionByRegion(messages: EnrichedMessage[], count: number): EnrichedMessage[][] {
  const regionOfText = new Map<string, string>();
  const byRegion = new Map<string, number[]>();
  messages.forEach((m, index) => {
    const text = m.message.trim();
    const region = regionOfText.get(text) ?? m.enrichment.region_uuid ?? "";
    regionOfText.set(text, region);
    const indexes = byRegion.get(region) ?? [];
    indexes.push(index);
    byRegion.set(region, indexes);
  });
  const parts: number[][] = Array.from({ length: count }, () => []);
  for (const indexes of [...byRegion.values()].sort((a, b) => b.length - a.length)) {
    parts.reduce((smallest, part) => (part.length < smallest.length ? part : smallest)).push(...indexes);
  }
  return parts.filter((part) => part.length > 0).map((part) => part.sort((a, b) => a - b).map((i) => messages[i]));
}

/**
 * Runs `statement` (one transaction) again when it ends in a deadlock (40P01) with a concurrent
 * one, up to `attempts` times in all; any other error, or the last deadlock, is thrown.
 */
export async function retryOnDeadlock<T>(statement: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      if ((error as { code?: string }).code !== "40P01" || attempt >= attempts) throw error;
    }
  }
}

/** One statement (one transaction) per part; a deadlock between concurrent parts is retried. */
async function storePart(db: pg.Pool, messages: IncomingMessage[], source: string): Promise<void> {
  await retryOnDeadlock(() =>
    db.query("select app_private.ingest_p2000_messages($1::json, $2)", [JSON.stringify(messages), source]),
  );
}

/** Stores an enriched batch, its regions spread over `parallel` concurrent statements. */
export async function storeBatch(
  db: pg.Pool,
  messages: EnrichedMessage[],
  source: string,
  parallel: number,
): Promise<void> {
  await Promise.all(partitionByRegion(messages, parallel).map((part) => storePart(db, part, source)));
}
