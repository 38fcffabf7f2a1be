// The API definition of /ogc as OpenAPI 3.0 (OGC 17-069r4 §7.2.4 and the OpenAPI 3.0 conformance
// class): every path, parameter and response the routes serve, with the collection ids as an enum,
// so a client generates its calls from it. Built from the same constants the routes check with.
import { OGC_COLLECTIONS } from "./collections.ts";
import { CRS84, GEOJSON_TYPE, JSON_TYPE, OPENAPI_TYPE } from "./documents.ts";
import { DEFAULT_LIMIT, MAX_LIMIT } from "./items-query.ts";

const TEXT = "text/plain";

function jsonResponse(description: string, schema: string, type = JSON_TYPE) {
  return { description, content: { [type]: { schema: { $ref: `#/components/schemas/${schema}` } } } };
}

const problem = (description: string) => ({ description, content: { [TEXT]: { schema: { type: "string" } } } });

const COMMON_RESPONSES = {
  "400": problem("A query parameter is unknown or has a wrong value (the text says which)."),
  "406": problem("The Accept header asks for a format other than JSON."),
  "503": problem("The database is away for a moment: try again after Retry-After seconds."),
};

const link = {
  type: "object",
  required: ["href", "rel"],
  properties: {
    href: { type: "string", format: "uri" },
    rel: { type: "string" },
    type: { type: "string" },
    title: { type: "string" },
  },
};

const links = { type: "array", items: { $ref: "#/components/schemas/link" } };

const geometry = {
  type: "object",
  nullable: true,
  required: ["type", "coordinates"],
  properties: {
    type: { type: "string", enum: ["Point", "MultiPolygon"] },
    coordinates: { type: "array", items: {} },
  },
};

const feature = {
  type: "object",
  required: ["type", "geometry", "properties", "id"],
  properties: {
    type: { type: "string", enum: ["Feature"] },
    id: { type: "string" },
    geometry: { $ref: "#/components/schemas/geometry" },
    properties: { type: "object", nullable: true },
    links,
  },
};

export function openApiDocument(base: string): object {
  const parameter = (name: string) => ({ $ref: `#/components/parameters/${name}` });
  const get = (summary: string, operationId: string, parameters: object[], ok: object, extra: object = {}) => ({
    get: { summary, operationId, parameters, responses: { "200": ok, ...extra, ...COMMON_RESPONSES } },
  });
  return {
    openapi: "3.0.3",
    info: {
      title: "Incidents in the Netherlands: OGC API – Features",
      version: "1.0.0",
      description:
        "Public incident data as OGC API – Features (OGC 17-069r4, Core, GeoJSON, OpenAPI 3.0): P2000 incidents, " +
        "traffic incidents, weather warnings, NL-Alerts and fire stations, in CRS84. Pages are linked by next and " +
        "prev links; follow them rather than building after/before keys.",
      license: { name: "Open data: free to reuse with attribution of the sources (P2000, NDW, KNMI, NL-Alert)" },
    },
    servers: [{ url: base }],
    paths: {
      "/": get(
        "The landing page",
        "getLandingPage",
        [parameter("f")],
        jsonResponse("Links to the API definition, conformance and collections.", "landingPage"),
      ),
      "/api": get("This API definition", "getApiDefinition", [parameter("f")], {
        description: "The OpenAPI 3.0 document.",
        content: { [OPENAPI_TYPE]: { schema: { type: "object" } }, [JSON_TYPE]: { schema: { type: "object" } } },
      }),
      "/conformance": get(
        "The conformance classes",
        "getConformance",
        [parameter("f")],
        jsonResponse("The conformance classes this API implements.", "confClasses"),
      ),
      "/collections": get(
        "The feature collections",
        "getCollections",
        [parameter("f")],
        jsonResponse("The collections and their extents.", "collections"),
      ),
      "/collections/{collectionId}": get(
        "One feature collection",
        "describeCollection",
        [parameter("collectionId"), parameter("f")],
        jsonResponse("The collection's metadata and links.", "collection"),
        { "404": problem("No collection with this id.") },
      ),
      "/collections/{collectionId}/items": get(
        "The features of a collection, a page at a time, newest first",
        "getFeatures",
        ["collectionId", "limit", "bbox", "datetime", "after", "before", "f"].map(parameter),
        jsonResponse(
          "A page of features, with next and prev links where there are more.",
          "featureCollectionGeoJSON",
          GEOJSON_TYPE,
        ),
        { "404": problem("No collection with this id.") },
      ),
      "/collections/{collectionId}/items/{featureId}": get(
        "One feature",
        "getFeature",
        [parameter("collectionId"), parameter("featureId"), parameter("f")],
        jsonResponse("The feature, with links to itself and its collection.", "featureGeoJSON", GEOJSON_TYPE),
        { "404": problem("No collection or no feature with this id.") },
      ),
    },
    components: {
      parameters: {
        f: {
          name: "f",
          in: "query",
          description: "The format of the answer: json (GeoJSON for features). The Accept header does the same.",
          required: false,
          schema: { type: "string", enum: ["json"] },
          style: "form",
          explode: false,
        },
        collectionId: {
          name: "collectionId",
          in: "path",
          required: true,
          schema: { type: "string", enum: OGC_COLLECTIONS.map((c) => c.id) },
        },
        featureId: { name: "featureId", in: "path", required: true, schema: { type: "string" } },
        limit: {
          name: "limit",
          in: "query",
          description: `How many features a page holds at most; a value above ${MAX_LIMIT} counts as ${MAX_LIMIT}.`,
          required: false,
          schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
          style: "form",
          explode: false,
        },
        bbox: {
          name: "bbox",
          in: "query",
          description:
            "Only features whose geometry meets this box: minimum longitude, minimum latitude, maximum longitude, " +
            `maximum latitude in CRS84 (${CRS84}); six numbers add heights, which are ignored.`,
          required: false,
          schema: { type: "array", minItems: 4, maxItems: 6, items: { type: "number" } },
          style: "form",
          explode: false,
        },
        datetime: {
          name: "datetime",
          in: "query",
          description:
            "Only features whose time meets this RFC 3339 date-time or interval (start/end, either end open as .. " +
            "or empty), e.g. 2026-11-01T00:00:00Z/2026-11-02T00:00:00Z or ../2026-11-01T00:00:00Z.",
          required: false,
          schema: { type: "string" },
          style: "form",
          explode: false,
        },
        after: {
          name: "after",
          in: "query",
          description: "The page after the feature with this key (as the next link gives it).",
          required: false,
          schema: { type: "string" },
        },
        before: {
          name: "before",
          in: "query",
          description: "The page before the feature with this key (as the prev link gives it).",
          required: false,
          schema: { type: "string" },
        },
      },
      schemas: {
        link,
        geometry,
        landingPage: {
          type: "object",
          required: ["links"],
          properties: { title: { type: "string" }, description: { type: "string" }, links },
        },
        confClasses: {
          type: "object",
          required: ["conformsTo"],
          properties: { conformsTo: { type: "array", items: { type: "string" } } },
        },
        collection: {
          type: "object",
          required: ["id", "links"],
          properties: {
            id: { type: "string" },
            title: { type: "string" },
            description: { type: "string" },
            links,
            extent: { type: "object" },
            itemType: { type: "string" },
            crs: { type: "array", items: { type: "string" } },
            storageCrs: { type: "string" },
          },
        },
        collections: {
          type: "object",
          required: ["links", "collections"],
          properties: { links, collections: { type: "array", items: { $ref: "#/components/schemas/collection" } } },
        },
        featureGeoJSON: feature,
        featureCollectionGeoJSON: {
          type: "object",
          required: ["type", "features"],
          properties: {
            type: { type: "string", enum: ["FeatureCollection"] },
            features: { type: "array", items: { $ref: "#/components/schemas/featureGeoJSON" } },
            links,
            numberReturned: { type: "integer", minimum: 0 },
          },
        },
      },
    },
  };
}
