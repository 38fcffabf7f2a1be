// The words of pager pages and what they mean in plain Dutch and English (data/p2000-plain-words.csv,
// sources in data/P2000-WORDS-SOURCES.md), behind P2000Message.plainText and the plain text of every
// notification. Loaded on start like the other reference lists: a shipped term is added or rewritten
// when the file changed; the rows a DBA added (shipped false) are never touched.
import type pg from "pg";
import { loadReferenceList, text } from "../db/table-import.ts";

export function loadPlainWords(db: pg.Pool | pg.ClientBase, file: string): Promise<number> {
  return loadReferenceList(db, file, "app_private.upsert_p2000_plain_words", (record) => ({
    term: text(record.term),
    kind: text(record.kind),
    nl: text(record.nl),
    en: text(record.en),
    source: text(record.source),
  }));
}
