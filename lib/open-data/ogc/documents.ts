// The JSON documents of the OGC API – Features endpoints (OGC 17-069r4): landing page,
// conformance, collections, one collection, and its features as GeoJSON with the links that page
// through them. Links are absolute, from PUBLIC_URL, so that a client behind any proxy follows them.
import type { OgcCollection } from "./collections.ts";

export const CRS84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84";
const GREGORIAN = "http://www.opengis.net/def/uom/ISO-8601/0/Gregorian";

export const JSON_TYPE = "application/json";
export const GEOJSON_TYPE = "application/geo+json";
export const OPENAPI_TYPE = "application/vnd.oai.openapi+json;version=3.0";

/** What this implementation conforms to: Core, GeoJSON and OpenAPI 3.0 (no HTML). */
export const CONFORMANCE_CLASSES = [
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30",
];

/** The Netherlands with its waters, the Wadden and the Dutch North Sea coast (CRS84). */
export const NETHERLANDS_BBOX = [3.2, 50.7, 7.3, 53.7];

export interface Link {
  href: string;
  rel: string;
  type?: string;
  title?: string;
}

/** The features one page returned, and each one's key for the next and prev links. */
export interface FeatureRow {
  sort_time: string;
  sort_id: string;
  feature: { id: string; properties: Record<string, unknown> } & Record<string, unknown>;
}

export function landingPage(base: string): object {
  return {
    title: "Incidents in the Netherlands: open geodata",
    description:
      "Public incident data as OGC API – Features collections: P2000 incidents, traffic incidents, weather " +
      "warnings, NL-Alerts and fire stations, as GeoJSON in CRS84.",
    links: [
      { href: `${base}/`, rel: "self", type: JSON_TYPE, title: "This document" },
      { href: `${base}/api`, rel: "service-desc", type: OPENAPI_TYPE, title: "The API definition (OpenAPI 3.0)" },
      { href: `${base}/conformance`, rel: "conformance", type: JSON_TYPE, title: "Conformance classes" },
      { href: `${base}/collections`, rel: "data", type: JSON_TYPE, title: "The feature collections" },
    ],
  };
}

export function conformance(): object {
  return { conformsTo: CONFORMANCE_CLASSES };
}

export interface CollectionTimes {
  first: string | null;
  last: string | null;
}

export function collectionDocument(
  base: string,
  collection: OgcCollection,
  times: CollectionTimes | undefined,
): object {
  const url = `${base}/collections/${collection.id}`;
  return {
    id: collection.id,
    title: collection.title,
    description: collection.description,
    extent: {
      spatial: { bbox: [NETHERLANDS_BBOX], crs: CRS84 },
      ...(collection.temporal
        ? { temporal: { interval: [[times?.first ?? null, times?.last ?? null]], trs: GREGORIAN } }
        : {}),
    },
    itemType: "feature",
    crs: [CRS84],
    storageCrs: CRS84,
    links: [
      { href: url, rel: "self", type: JSON_TYPE, title: collection.title },
      { href: `${url}/items`, rel: "items", type: GEOJSON_TYPE, title: `${collection.title} (GeoJSON)` },
    ],
  };
}

export function collectionsDocument(
  base: string,
  collections: readonly OgcCollection[],
  times: Map<string, CollectionTimes>,
): object {
  return {
    links: [{ href: `${base}/collections`, rel: "self", type: JSON_TYPE, title: "The feature collections" }],
    collections: collections.map((collection) => collectionDocument(base, collection, times.get(collection.id))),
  };
}

export interface ItemsPage {
  base: string;
  collection: OgcCollection;
  /** The request's own parameters (limit, bbox, datetime, f), repeated in the paging links. */
  parameters: URLSearchParams;
  /** The page's features in the collection's order, at most `limit`. */
  rows: FeatureRow[];
  /** Whether there are features after the last of the page, and before its first. */
  hasNext: boolean;
  hasPrev: boolean;
}

function withQuery(url: string, query: URLSearchParams): string {
  const text = query.toString();
  return text ? `${url}?${text}` : url;
}

/** The page after the last row or before the first: the request's filters with that row's key. */
function pageUrl(itemsUrl: string, parameters: URLSearchParams, name: "after" | "before", row: FeatureRow): string {
  const query = new URLSearchParams(parameters);
  query.delete("after");
  query.delete("before");
  query.set(name, `${row.sort_time}_${row.sort_id}`);
  return withQuery(itemsUrl, query);
}

/**
 * A page of features. Without timeStamp, which the standard leaves optional ("if included"): the
 * time of the answer would change the page's ETag every second, and a crawler would never get 304
 * for a page whose features did not change.
 */
export function itemsDocument(page: ItemsPage): object {
  const itemsUrl = `${page.base}/collections/${page.collection.id}/items`;
  const first = page.rows[0];
  const last = page.rows.at(-1);
  const links: Link[] = [
    { href: withQuery(itemsUrl, page.parameters), rel: "self", type: GEOJSON_TYPE, title: "This page" },
    {
      href: `${page.base}/collections/${page.collection.id}`,
      rel: "collection",
      type: JSON_TYPE,
      title: page.collection.title,
    },
  ];
  if (page.hasNext && last)
    links.push({
      href: pageUrl(itemsUrl, page.parameters, "after", last),
      rel: "next",
      type: GEOJSON_TYPE,
      title: "Next page",
    });
  if (page.hasPrev && first)
    links.push({
      href: pageUrl(itemsUrl, page.parameters, "before", first),
      rel: "prev",
      type: GEOJSON_TYPE,
      title: "Previous page",
    });
  return {
    type: "FeatureCollection",
    features: page.rows.map((row) => row.feature),
    links,
    numberReturned: page.rows.length,
  };
}

export function featureDocument(base: string, collection: OgcCollection, row: FeatureRow): object {
  const url = `${base}/collections/${collection.id}`;
  return {
    ...row.feature,
    links: [
      { href: `${url}/items/${row.feature.id}`, rel: "self", type: GEOJSON_TYPE, title: "This feature" },
      { href: url, rel: "collection", type: JSON_TYPE, title: collection.title },
    ],
  };
}
