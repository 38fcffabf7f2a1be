// OGC API – Features – Part 1: Core (OGC 17-069r4) at /ogc (issue 50, docs/open-data.md), which
// QGIS, ArcGIS and the Dutch government's own services read:
//   GET /ogc/                                            landing page
//   GET /ogc/api                                         the API definition (OpenAPI 3.0)
//   GET /ogc/conformance                                 conformance classes (Core, GeoJSON, OAS 3.0)
//   GET /ogc/collections[/{collectionId}]                the collections and their extents
//   GET /ogc/collections/{collectionId}/items            GeoJSON pages: limit, bbox, datetime, next/prev links
//   GET /ogc/collections/{collectionId}/items/{featureId}  one feature
// JSON only (f=json or an Accept that takes JSON; anything else 406), no sign-in, public data only.
// Answers carry a strong ETag and a Cache-Control a shared cache and a crawler can keep; a bad
// parameter is 400 and an unknown collection or feature 404, in plain words.
import express from "express";
import { sendCacheable, sendPlain, sendReadFailure } from "../../http/cacheable-document.ts";
import type { OpenDataDeps } from "../deps.ts";
import { collectionById, OGC_COLLECTIONS, type OgcCollection } from "./collections.ts";
import {
  collectionDocument,
  collectionsDocument,
  conformance,
  featureDocument,
  GEOJSON_TYPE,
  itemsDocument,
  JSON_TYPE,
  landingPage,
  OPENAPI_TYPE,
} from "./documents.ts";
import { readCollectionTimes, readFeature, readFeaturePage } from "./features.ts";
import { BadQuery, checkKnownParameters, ITEMS_PARAMETERS, parseItemsQuery } from "./items-query.ts";
import { openApiDocument } from "./openapi.ts";

export const OGC_PATH = "/ogc";

// What changes with a deployment only: an hour. Extents move with new data: five minutes.
// Features change by the minute: a minute, then revalidation by ETag.
const STATIC_CACHE = "public, max-age=3600";
const COLLECTIONS_CACHE = "public, max-age=300";
const FEATURES_CACHE = "public, max-age=60";

/**
 * The content type to answer with, from f (json only) or else the Accept header; undefined when it
 * has answered 400 or 406 itself.
 */
function negotiate(req: express.Request, res: express.Response, types: string[]): string | undefined {
  const f = req.query.f;
  if (f !== undefined) {
    if (f === "json") return types[0];
    sendPlain(res, 400, 'f must be "json": this API answers in JSON (GeoJSON for features) only.');
    return undefined;
  }
  const type = req.accepts(types);
  if (type) return type;
  sendPlain(
    res,
    406,
    `This API answers in ${types.join(" or ")} only; ask with f=json or an Accept header that takes it.`,
  );
  return undefined;
}

export function ogcRoutes({ authPool, config }: OpenDataDeps): express.Router {
  const router = express.Router();
  const base = `${config.delivery.publicUrl}${OGC_PATH}`;

  /** Answers a document in the negotiated JSON type; the answer depends on Accept. */
  function send(req: express.Request, res: express.Response, type: string, document: object, cacheControl: string) {
    sendCacheable(req, res, {
      body: JSON.stringify(document),
      contentType: type,
      cacheControl,
      headers: { vary: "Accept" },
    });
  }

  /** Runs a handler with the query checked first: known parameters, the format; 400/406 else. */
  function endpoint(
    known: readonly string[],
    types: string[],
    handle: (req: express.Request, res: express.Response, type: string) => Promise<void> | void,
  ): express.RequestHandler {
    return async (req, res) => {
      try {
        checkKnownParameters(req.query, known);
        const type = negotiate(req, res, types);
        if (type) await handle(req, res, type);
      } catch (error) {
        if (error instanceof BadQuery) return sendPlain(res, 400, error.message);
        sendReadFailure(req, res, error);
      }
    };
  }

  function collectionOf(req: express.Request, res: express.Response): OgcCollection | undefined {
    const collection = collectionById(String(req.params.collectionId));
    if (!collection)
      sendPlain(
        res,
        404,
        `There is no collection "${String(req.params.collectionId).slice(0, 60)}": see ${base}/collections.`,
      );
    return collection;
  }

  const json = [JSON_TYPE];
  const geojson = [GEOJSON_TYPE, JSON_TYPE];

  router.get(
    [OGC_PATH, `${OGC_PATH}/`],
    endpoint(["f"], json, (req, res, type) => send(req, res, type, landingPage(base), STATIC_CACHE)),
  );
  router.get(
    `${OGC_PATH}/api`,
    endpoint(["f"], [OPENAPI_TYPE, JSON_TYPE], (req, res, type) =>
      send(req, res, type, openApiDocument(base), STATIC_CACHE),
    ),
  );
  router.get(
    `${OGC_PATH}/conformance`,
    endpoint(["f"], json, (req, res, type) => send(req, res, type, conformance(), STATIC_CACHE)),
  );
  router.get(
    `${OGC_PATH}/collections`,
    endpoint(["f"], json, async (req, res, type) => {
      const times = await readCollectionTimes(authPool);
      send(req, res, type, collectionsDocument(base, OGC_COLLECTIONS, times), COLLECTIONS_CACHE);
    }),
  );
  router.get(
    `${OGC_PATH}/collections/:collectionId`,
    endpoint(["f"], json, async (req, res, type) => {
      const collection = collectionOf(req, res);
      if (!collection) return;
      const times = await readCollectionTimes(authPool);
      send(req, res, type, collectionDocument(base, collection, times.get(collection.id)), COLLECTIONS_CACHE);
    }),
  );
  router.get(
    `${OGC_PATH}/collections/:collectionId/items`,
    endpoint(ITEMS_PARAMETERS, geojson, async (req, res, type) => {
      const collection = collectionOf(req, res);
      if (!collection) return;
      const query = parseItemsQuery(req.query, collection.idPattern);
      const page = await readFeaturePage(authPool, collection, query, config.delivery.publicUrl);
      const parameters = new URL(req.originalUrl, "http://ogc").searchParams;
      const document = itemsDocument({ base, collection, parameters, ...page });
      send(req, res, type, document, FEATURES_CACHE);
    }),
  );
  router.get(
    `${OGC_PATH}/collections/:collectionId/items/:featureId`,
    endpoint(["f"], geojson, async (req, res, type) => {
      const collection = collectionOf(req, res);
      if (!collection) return;
      const featureId = String(req.params.featureId);
      const row = collection.idPattern.test(featureId)
        ? await readFeature(authPool, collection, featureId, config.delivery.publicUrl)
        : undefined;
      if (!row) return sendPlain(res, 404, `There is no feature "${featureId.slice(0, 60)}" in ${collection.id}.`);
      send(req, res, type, featureDocument(base, collection, row), FEATURES_CACHE);
    }),
  );
  return router;
}
