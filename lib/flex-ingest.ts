// Turns parsed FLEX pages into stored P2000 messages: joins fragments and stores pages in batches
// through app_private.ingest_p2000_message, the same path (enrichment, dossiers) as every other
// source. Copies of one message (several receivers, or a group call printed per capcode) are
// merged there, with the union of their capcodes, also across reader processes.
import pg from "pg";
import { parseFlexLine, type FlexPage } from "./flex-parser.ts";

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

export function createFlexIngester(
  db: pg.Pool | pg.ClientBase,
  options: { source?: string; log?: (message: string) => void } = {},
): FlexIngester {
  const stats: FlexStats = { lines: 0, stored: 0, skipped: 0, malformed: 0 };
  const log = options.log ?? ((message) => console.error(message));
  const source = options.source ?? "flex";
  const fragments = new Map<string, FlexPage>();
  let batch: FlexPage[] = [];

  async function store(pages: FlexPage[]) {
    if (pages.length === 0) return;
    const payload = JSON.stringify(pages.map((p) => ({ message: p.text, sended: p.sended.toISOString(), capcodes: p.capcodes })));
    // Several readers may store at once: new capcodes are created first, in one sorted order, so
    // that they never wait for each other in opposite orders; a deadlock all the same is retried.
    for (let attempt = 1; ; attempt++) {
      const client = db instanceof pg.Pool ? await db.connect() : null;
      const target = client ?? (db as pg.ClientBase);
      try {
        await target.query("begin");
        await target.query(
          `insert into app_public.p2000_capcodes (name)
           select distinct app_hidden.p2000_normalize_capcode(c)
             from json_array_elements($1::json) as p (value), json_array_elements_text(p.value -> 'capcodes') as c
            where app_hidden.p2000_normalize_capcode(c) is not null
            order by 1
           on conflict (name) do nothing`,
          [payload],
        );
        await target.query(
          `select app_private.ingest_p2000_message(p.value ->> 'message', (p.value ->> 'sended')::timestamptz,
                  array(select json_array_elements_text(p.value -> 'capcodes')), $2)
             from json_array_elements($1::json) with ordinality as p (value, n)
            order by p.n`,
          [payload, source],
        );
        await target.query("commit");
        break;
      } catch (error) {
        await target.query("rollback").catch(() => {});
        if ((error as { code?: string }).code !== "40P01" || attempt >= 5) throw error;
      } finally {
        client?.release();
      }
    }
    stats.stored += pages.length;
  }

  async function accept(page: FlexPage) {
    // Fragments are keyed by their capcodes: F pages wait for the rest, C or K pages finish them.
    const key = page.capcodes.join(" ");
    const pending = fragments.get(key);
    if (page.fragment === "F") {
      fragments.set(key, pending ? { ...pending, text: pending.text + page.text } : page);
      return;
    }
    if (pending) {
      fragments.delete(key);
      page = { ...pending, text: pending.text + page.text, fragment: "K" };
    }
    batch.push(page);
    if (batch.length >= BATCH_SIZE) await flushBatch();
  }

  async function flushBatch() {
    const pages = batch;
    batch = [];
    await store(pages);
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
      // A fragment whose continuation never came is still worth keeping.
      for (const page of fragments.values()) batch.push({ ...page, fragment: "K" });
      fragments.clear();
      await flushBatch();
    },
  };
}
