// Storing a parsed RSS or Atom document's items for one feed (app_private.ingest_rss_items): the
// poller's way in, which the tests that seed feed items take too.
import type pg from "pg";
import type { RssDocument } from "./parser.ts";

export interface StoredRssItems {
  /** Items in the document with an id. */
  items: number;
  /** Of them, new to the feed. */
  inserted: number;
}

/** A pool, a client, or a test database's owner connection. */
type Queryable = { query(text: string, values: unknown[]): Promise<pg.QueryResult> };

export async function storeRssDocument(
  db: Queryable,
  feedUuid: string,
  document: RssDocument,
): Promise<StoredRssItems> {
  const itemRows = document.items.map((i) => ({
    item_key: i.itemKey,
    guid: i.guid,
    title: i.title,
    link: i.link,
    summary: i.summary,
    published_at: i.publishedAt,
    latitude: i.latitude,
    longitude: i.longitude,
  }));
  const { rows } = await db.query("select app_private.ingest_rss_items($1, $2, $3::jsonb) as result", [
    feedUuid,
    document.title,
    JSON.stringify(itemRows),
  ]);
  return rows[0].result as StoredRssItems;
}
