// Reads the features of a collection through app_private.ogc_features (the authenticator reads no
// table): a page by key, one more row than asked so that the page knows whether another follows,
// or one feature by its id. Each feature gets its share page's address as the property `page`
// (docs/open-data.md#share-pages), for a GIS user who wants the incident's own page.
import type pg from "pg";
import { shortId } from "../share-pages/share-ids.ts";
import { sharePagePrefix, type OgcCollection } from "./collections.ts";
import type { FeatureRow } from "./documents.ts";
import type { ItemsQuery } from "./items-query.ts";

const SQL = `select sort_time, sort_id, feature
               from app_private.ogc_features($1, $2, $3::box, $4::timestamptz, $5::timestamptz,
                                             $6::timestamptz, $7, $8, $9)`;

export interface FeaturePage {
  rows: FeatureRow[];
  hasNext: boolean;
  hasPrev: boolean;
}

function withSharePage(row: FeatureRow, collection: OgcCollection, publicUrl: string): FeatureRow {
  if (!collection.sharePage) return row;
  row.feature.properties.page = `${publicUrl}${sharePagePrefix(collection.sharePage)}/${shortId(row.feature.id)}`;
  return row;
}

export async function readFeaturePage(
  pool: pg.Pool,
  collection: OgcCollection,
  query: ItemsQuery,
  publicUrl: string,
): Promise<FeaturePage> {
  const box = query.bbox ? `(${query.bbox[0]},${query.bbox[1]}),(${query.bbox[2]},${query.bbox[3]})` : null;
  const backwards = query.key?.backwards ?? false;
  const { rows } = await pool.query<FeatureRow>(SQL, [
    collection.id,
    null,
    box,
    query.timeFrom ?? null,
    query.timeTo ?? null,
    query.key?.time ?? null,
    query.key?.id ?? null,
    backwards,
    query.limit + 1,
  ]);
  const more = rows.length > query.limit;
  const page = rows.slice(0, query.limit).map((row) => withSharePage(row, collection, publicUrl));
  // Backwards the rows come oldest first, from the key on: the page shows them in the collection's order.
  if (backwards) return { rows: page.reverse(), hasNext: true, hasPrev: more };
  return { rows: page, hasNext: more, hasPrev: query.key !== undefined };
}

export async function readFeature(
  pool: pg.Pool,
  collection: OgcCollection,
  featureId: string,
  publicUrl: string,
): Promise<FeatureRow | undefined> {
  const { rows } = await pool.query<FeatureRow>(SQL, [
    collection.id,
    featureId,
    null,
    null,
    null,
    null,
    null,
    false,
    1,
  ]);
  return rows[0] && withSharePage(rows[0], collection, publicUrl);
}

export interface CollectionTimesRow {
  collection: string;
  first_time: Date | null;
  last_time: Date | null;
}

/** Each collection's first and last time (its temporal extent), by collection id. */
export async function readCollectionTimes(
  pool: pg.Pool,
): Promise<Map<string, { first: string | null; last: string | null }>> {
  const { rows } = await pool.query<CollectionTimesRow>(
    "select collection, first_time, last_time from app_private.ogc_collection_times()",
  );
  return new Map(
    rows.map((row) => [
      row.collection,
      { first: row.first_time?.toISOString() ?? null, last: row.last_time?.toISOString() ?? null },
    ]),
  );
}
