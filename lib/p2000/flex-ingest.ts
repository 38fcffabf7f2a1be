// Turns parsed FLEX pages into stored P2000 messages: joins fragments and stores pages in batches
// through the same insert path (enrichment, dossiers) as every other source, with the next batch
// enriched while the previous one is stored (lib/p2000/batch-store.ts). Copies of one message
// (several receivers, or a group call printed per capcode) are merged there, with the union of
// their capcodes, also across reader processes. A bulk read (a capture file, the demo data)
// analyses the tables as they fill (lib/db/fresh-statistics.ts), so reads plan well at once.
import type pg from "pg";
import { analyzeAsRowsArrive } from "../db/fresh-statistics.ts";
import { FlexFragments } from "./flex-fragments.ts";
import { parseFlexLine, type FlexPage } from "./flex-parser.ts";
import { enrichBatch, P2000_STORED_TABLES, storeBatch } from "./batch-store.ts";

export interface FlexStats {
  lines: number;
  /** Pages handed to the database: stored, or merged into an earlier copy. */
  stored: number;
  skipped: number;
  malformed: number;
}

export interface FlexIngester {
  push(line: string): Promise<void>;
  /** Stores what is buffered; call at the end of input. */
  flush(): Promise<void>;
  stats: FlexStats;
}

const BATCH_SIZE = 500;
/** Statements storing one batch at once (by region). */
const PARALLEL_STORES = 2;
/** Connections a reader uses at most: the batch being stored, and the next one's enrichment. */
export const FLEX_READER_CONNECTIONS = PARALLEL_STORES + 1;

/** `db` is a pool: a batch is enriched on one connection while the previous one is stored on others. */
export function createFlexIngester(
  db: pg.Pool,
  options: { source?: string; log?: (message: string) => void } = {},
): FlexIngester {
  const stats: FlexStats = { lines: 0, stored: 0, skipped: 0, malformed: 0 };
  const log = options.log ?? ((message) => console.error(message));
  const source = options.source ?? "flex";
  const fragments = new FlexFragments();
  let batch: FlexPage[] = [];
  const statistics = analyzeAsRowsArrive(db, P2000_STORED_TABLES, "app_public.p2000_messages");

  // The batch being stored; a failure surfaces at the next flush.
  let storing: Promise<void> = Promise.resolve();

  async function flushBatch() {
    const pages = batch;
    batch = [];
    if (pages.length === 0) return;
    const previous = storing;
    const enriched = enrichBatch(
      db,
      pages.map((p) => ({ message: p.text, sended: p.sended.toISOString(), capcodes: p.capcodes })),
    );
    // Stored in order: this batch only after the previous one, which it may join dossiers of.
    storing = Promise.all([enriched, previous]).then(async ([messages]) => {
      await storeBatch(db, messages, source, PARALLEL_STORES);
      stats.stored += messages.length;
      await statistics.stored(messages.length);
    });
    storing.catch(() => {}); // awaited by the next flush
    await previous;
  }

  async function accept(part: FlexPage) {
    const page = fragments.add(part);
    if (!page) return;
    batch.push(page);
    if (batch.length >= BATCH_SIZE) await flushBatch();
  }

  return {
    stats,
    async push(line) {
      stats.lines++;
      const parsed = parseFlexLine(line);
      if (parsed.kind === "page") return accept(parsed.page);
      if (parsed.kind === "skipped") stats.skipped++;
      else {
        stats.malformed++;
        log(`Line ${stats.lines} is malformed (${parsed.reason}): ${line.slice(0, 200)}`);
      }
    },
    async flush() {
      batch.push(...fragments.drain());
      await flushBatch();
      await storing;
    },
  };
}
