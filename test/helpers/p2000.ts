// P2000 messages stored as the FLEX reader stores a batch: one statement through
// app_private.ingest_p2000_messages, so the enrichment, dossiers, roll-ups, monitor matching and
// the live-push notification run as they do in production (one notification per statement).
import type { TestDatabase } from "./database.ts";

export interface P2000Page {
  message: string;
  /** ISO time sent. */
  sended: string;
  capcodes: string[];
}

export async function storeP2000Pages(db: TestDatabase, pages: P2000Page[]): Promise<void> {
  await db.asOwner("select app_private.ingest_p2000_messages($1::json, 'test')", [JSON.stringify(pages)]);
}
