// OGC API – Features at /ogc over real HTTP (issue 50, lib/open-data/ogc/), on data stored as the
// feeds store it: P2000 pages through the FLEX reader's path, a DATEX II document, an NL-Alert
// list, a KNMI warnings file and the fire-station import. Read by an OGC API client of others'
// making (@ogcapi-js/features); the API definition validated by @readme/openapi-parser (swagger-parser's
// maintained fork), every
// GeoJSON answer by @placemarkio/check-geojson; and the requirements of OGC 17-069r4's Core,
// GeoJSON and OpenAPI 3.0 classes checked one by one, each test named after its requirement.
import { createReadStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { beforeAll, describe, expect, test } from "@jest/globals";
import ogcFeatures from "@ogcapi-js/features";
import { check as checkGeojson } from "@placemarkio/check-geojson";
import { validate as validateOpenApi } from "@readme/openapi-parser";
import { ingestAlertsDocument } from "../../lib/feeds/alerts/ingest.ts";
import { nlAlertsJson, squareAround } from "../../lib/feeds/alerts/sample-documents.ts";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml } from "../../lib/feeds/meteo/sample-documents.ts";
import { ingestTrafficDocument } from "../../lib/feeds/traffic/ingest.ts";
import { datexV2Xml } from "../../lib/feeds/traffic/sample-documents.ts";
import { importFireBrigade } from "../../lib/fire/fire-brigade-import.ts";
import { shortId } from "../../lib/open-data/share-pages/share-ids.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { FEEDS_OFF, useTestService } from "../helpers/service.ts";

const ctx = useTestService(() => ({ feeds: FEEDS_OFF }));

const CONFORMANCE = [
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30",
];
const COLLECTIONS = ["p2000-incidents", "traffic-incidents", "weather-warnings", "nl-alerts", "fire-stations"];
const HOUR = 3_600_000;
const ROTTERDAM_BBOX = "4.3,51.85,4.6,52.0";

const ogc = () => `${ctx.service.url.replace("//localhost:", "//127.0.0.1:")}/ogc`;
const get = (pathAndQuery: string, headers: Record<string, string> = {}) =>
  fetch(`${ogc()}${pathAndQuery}`, { headers });

async function json(pathAndQuery: string, headers: Record<string, string> = {}): Promise<any> {
  const response = await get(pathAndQuery, headers);
  expect(response.status).toBe(200);
  return response.json();
}

/** An /items page: 200, GeoJSON's media type, valid GeoJSON by check-geojson. */
async function items(collection: string, query = ""): Promise<any> {
  const response = await get(`/collections/${collection}/items${query}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/geo+json");
  const text = await response.text();
  expect(() => checkGeojson(text)).not.toThrow();
  return JSON.parse(text);
}

async function status(pathAndQuery: string, headers: Record<string, string> = {}): Promise<[number, string]> {
  const response = await get(pathAndQuery, headers);
  return [response.status, await response.text()];
}

const linkOf = (document: any, rel: string) => document.links.find((link: any) => link.rel === rel);
const ids = (page: any) => page.features.map((feature: any) => feature.id);

/** The placed incidents in the collection's order, as the database has them. */
async function placedIncidents(where = "true", parameters: unknown[] = []): Promise<string[]> {
  const { rows } = await ctx.db.asOwner(
    `select uuid::text as id from app_public.p2000_dossiers
      where latitude is not null and longitude is not null and ${where} order by first_sended desc, uuid`,
    parameters,
  );
  return rows.map((row: { id: string }) => row.id);
}

let now: Date;
let thisHour: Date;

beforeAll(async () => {
  const pool = ctx.service.ownerPool;
  now = new Date();
  thisHour = new Date(Math.floor(now.getTime() / HOUR) * HOUR);
  const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();
  // Incidents in several places; two of them paged in the same second (a tie the paging must keep).
  await storeP2000Pages(ctx.db, [
    { message: "P 1 BDH-01 BR woning Toscalaan Rotterdam 171231", sended: minutesAgo(50), capcodes: ["1417001"] },
    { message: "A1 Coolsingel 3011AD Rotterdam ROT bon 11111", sended: minutesAgo(40), capcodes: ["1417002"] },
    { message: "P 2 BDH-02 Buitenbrand Damrak Amsterdam 131231", sended: minutesAgo(30), capcodes: ["1313001"] },
    { message: "P 1 BDH-03 Liftopsluiting Neude Utrecht 091231", sended: minutesAgo(30), capcodes: ["0909001"] },
    {
      message: "P 2 BDH-04 Brand container Grote Markt Groningen 011231",
      sended: minutesAgo(20),
      capcodes: ["0101001"],
    },
    {
      message: "P 1 BDH-05 OMS brandmelding Vrijthof Maastricht 241231",
      sended: minutesAgo(10),
      capcodes: ["2424001"],
    },
  ]);
  await ingestTrafficDocument(
    pool,
    Readable.from([
      Buffer.from(
        datexV2Xml(now, [
          {
            id: "RWS03_OGC1",
            version: 1,
            type: "accident",
            start: new Date(now.getTime() - 20 * 60_000),
            latitude: 51.93,
            longitude: 4.36,
            roadNumber: "A4",
            severity: "high",
          },
          {
            id: "RWS03_OGC2",
            version: 1,
            type: "breakdown",
            start: new Date(now.getTime() - 90 * 60_000),
            latitude: 52.09,
            longitude: 5.1,
            roadNumber: "A12",
          },
        ]),
      ),
    ]),
    "test",
  );
  await ingestAlertsDocument(
    pool,
    Buffer.from(
      nlAlertsJson([
        {
          id: "nl-ogc-1",
          messageNl: "Grote brand in Europoort. Sluit ramen en deuren.",
          startAt: new Date(now.getTime() - 5 * 60_000),
          stopAt: new Date(now.getTime() + 55 * 60_000),
          areas: [squareAround(51.955, 4.095, 0.05)],
        },
      ]),
    ),
    "test",
  );
  await ingestMeteoDocument(
    pool,
    warningsXml(
      thisHour,
      [
        {
          phenomenon: "wind",
          locations: ["ZH"],
          status: 2,
          text: "Zware windstoten tot 100 km/u.",
          from: thisHour,
          to: new Date(thisHour.getTime() + 4 * HOUR),
        },
      ],
      "wind",
    ),
    "test ogc",
  );
  await importFireBrigade(
    pool,
    createReadStream(path.join(import.meta.dirname, "..", "fixtures", "fire-stations.csv")),
    "csv",
    // The fixture's broken row is skipped as the import skips it; its log is not this test's.
    { log: () => undefined },
  );
});

describe("the data the collections are checked with", () => {
  test("at least three incidents were placed, so paging and bbox have something to tell apart", async () => {
    expect((await placedIncidents()).length).toBeGreaterThanOrEqual(3);
    expect(await placedIncidents("longitude between 4.3 and 4.6 and latitude between 51.85 and 52.0")).not.toHaveLength(
      0,
    );
  });
});

describe("an OGC API client of others' making (@ogcapi-js/features)", () => {
  const service = () => new ogcFeatures.FeatureService({ baseUrl: ogc() });

  test("reads the conformance, the collections, a page of features and one feature", async () => {
    expect((await service().getConformance()).conformsTo).toEqual(CONFORMANCE);
    const { collections } = await service().getCollections();
    expect(collections.map((c) => c.id)).toEqual(COLLECTIONS);
    const collection = await service().getCollection("traffic-incidents");
    expect(collection.title).toBe("Traffic incidents");
    const page = await service().getFeatures("traffic-incidents", {
      limit: 5,
      bbox: [4.3, 51.85, 4.6, 52.0],
      datetime: { start: new Date(now.getTime() - HOUR), end: now },
    });
    expect(page.features).toHaveLength(1);
    expect(page.features[0].properties).toMatchObject({ type: "accident", road_number: "A4", severity: "high" });
    const feature = await service().getFeature("traffic-incidents", String(page.features[0].id));
    expect(feature.geometry).toEqual({ type: "Point", coordinates: [4.36, 51.93] });
  });
});

describe("Core: the landing page, the API definition and conformance", () => {
  test("/req/core/root-op and /req/core/root-success: links to the API definition, conformance and data", async () => {
    for (const pathname of ["", "/"]) {
      const response = await get(pathname);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const landing = await response.json();
      expect(linkOf(landing, "self").href).toBe(`${ogc()}/`);
      expect(linkOf(landing, "service-desc")).toMatchObject({
        href: `${ogc()}/api`,
        type: "application/vnd.oai.openapi+json;version=3.0",
      });
      expect(linkOf(landing, "conformance").href).toBe(`${ogc()}/conformance`);
      expect(linkOf(landing, "data").href).toBe(`${ogc()}/collections`);
    }
  });

  test("/req/oas30/oas-definition-1, -2 and /req/oas30/completeness: a valid OpenAPI 3.0 document of every path", async () => {
    const response = await get("/api");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.oai.openapi+json;version=3.0");
    const api: any = await response.json();
    const validation = await validateOpenApi(structuredClone(api));
    expect(validation).toMatchObject({ valid: true, warnings: [] });
    expect(api.openapi).toMatch(/^3\.0\./);
    expect(api.servers[0].url).toBe(ogc());
    expect(Object.keys(api.paths).sort()).toEqual(
      [
        "/",
        "/api",
        "/conformance",
        "/collections",
        "/collections/{collectionId}",
        "/collections/{collectionId}/items",
        "/collections/{collectionId}/items/{featureId}",
      ].sort(),
    );
    expect(api.components.parameters.collectionId.schema.enum).toEqual(COLLECTIONS);
    // Asked for as JSON, the same document.
    expect(await json("/api", { accept: "application/json" })).toEqual(api);
  });

  test("/req/core/conformance-op and /req/core/conformance-success: Core, GeoJSON and OAS 3.0, no HTML", async () => {
    const { conformsTo } = await json("/conformance");
    expect(conformsTo).toEqual(CONFORMANCE);
    expect(conformsTo.join(" ")).not.toContain("html");
  });
});

describe("Core: the collections", () => {
  test("/req/core/fc-md-op, /req/core/fc-md-success, /req/core/fc-md-links and /req/core/fc-md-items", async () => {
    const document = await json("/collections");
    expect(linkOf(document, "self").href).toBe(`${ogc()}/collections`);
    expect(document.collections.map((c: any) => c.id)).toEqual(COLLECTIONS);
    for (const collection of document.collections) {
      expect(collection.itemType).toBe("feature");
      expect(linkOf(collection, "items")).toMatchObject({
        href: `${ogc()}/collections/${collection.id}/items`,
        type: "application/geo+json",
      });
      expect(linkOf(collection, "self").href).toBe(`${ogc()}/collections/${collection.id}`);
    }
  });

  test("/req/core/fc-md-extent: the spatial extent in CRS84, the temporal one from the first to the newest feature", async () => {
    const { collections } = await json("/collections");
    for (const collection of collections) {
      expect(collection.extent.spatial.crs).toBe("http://www.opengis.net/def/crs/OGC/1.3/CRS84");
      const [[west, south, east, north]] = collection.extent.spatial.bbox;
      expect([west < east, south < north, west >= 3, east <= 7.5, south >= 50.5, north <= 54]).toEqual(
        Array(6).fill(true),
      );
    }
    const incidents = collections.find((c: any) => c.id === "p2000-incidents");
    const { rows } = await ctx.db.asOwner(
      `select min(first_sended) as first, max(first_sended) as last from app_public.p2000_dossiers
        where latitude is not null and longitude is not null`,
    );
    expect(incidents.extent.temporal.interval).toEqual([[rows[0].first.toISOString(), rows[0].last.toISOString()]]);
    expect(collections.find((c: any) => c.id === "fire-stations").extent.temporal).toBeUndefined();
  });

  test("/req/core/sfc-md-op and /req/core/sfc-md-success: one collection as it is in the list; an unknown one 404", async () => {
    const { collections } = await json("/collections");
    for (const id of COLLECTIONS)
      expect(await json(`/collections/${id}`)).toEqual(collections.find((c: any) => c.id === id));
    const [code, text] = await status("/collections/no-such-thing");
    expect(code).toBe(404);
    expect(text).toContain('There is no collection "no-such-thing"');
    expect((await status("/collections/no-such-thing/items"))[0]).toBe(404);
  });
});

describe("Core: features", () => {
  test("/req/core/fc-op, /req/core/fc-response and /req/geojson/content: a FeatureCollection of valid GeoJSON", async () => {
    for (const id of COLLECTIONS) {
      const page = await items(id);
      expect(page.type).toBe("FeatureCollection");
      expect(page.features.length).toBeGreaterThan(0);
      for (const feature of page.features) {
        expect(feature.type).toBe("Feature");
        expect(typeof feature.id).toBe("string");
        expect(["Point", "MultiPolygon"]).toContain(feature.geometry.type);
      }
    }
  });

  test("/req/core/fc-numberReturned, and no timeStamp (optional): an unchanged page answers 304 a second later", async () => {
    const page = await get("/collections/p2000-incidents/items?limit=2");
    const body = (await page.json()) as { numberReturned: number; features: unknown[] };
    expect(body.numberReturned).toBe(body.features.length);
    expect(body.numberReturned).toBe(2);
    expect(body).not.toHaveProperty("timeStamp");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await get("/collections/p2000-incidents/items?limit=2", {
      "if-none-match": page.headers.get("etag") as string,
    });
    expect(again.status).toBe(304);
  });

  test("/req/core/fc-limit-definition and /req/core/fc-limit-response: at most limit; above the maximum is the maximum", async () => {
    const all = await placedIncidents();
    expect(ids(await items("p2000-incidents", "?limit=1"))).toEqual(all.slice(0, 1));
    expect(ids(await items("p2000-incidents"))).toEqual(all.slice(0, 10));
    expect(ids(await items("p2000-incidents", "?limit=100000"))).toEqual(all);
    for (const bad of ["0", "-1", "1.5", "ten", ""]) {
      const [code, text] = await status(`/collections/p2000-incidents/items?limit=${bad}`);
      expect(code).toBe(400);
      expect(text).toContain("limit must be a whole number");
    }
    expect((await status("/collections/p2000-incidents/items?limit=1&limit=2"))[0]).toBe(400);
  });

  test("/req/core/fc-links and /req/core/fc-rel-type: self, collection, next and prev page through in order", async () => {
    const all = await placedIncidents();
    const seen: string[] = [];
    const pages: any[] = [];
    let url: string | undefined = `${ogc()}/collections/p2000-incidents/items?limit=2`;
    while (url) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      const page: any = await response.json();
      expect(linkOf(page, "self")).toMatchObject({ href: url, type: "application/geo+json" });
      expect(linkOf(page, "collection").href).toBe(`${ogc()}/collections/p2000-incidents`);
      seen.push(...ids(page));
      pages.push(page);
      url = linkOf(page, "next")?.href;
      expect(pages.length).toBeLessThan(10);
    }
    // Every incident once, in the collection's order, the tie of equal times kept apart by id.
    expect(seen).toEqual(all);
    expect(linkOf(pages[0], "prev")).toBeUndefined();
    // Back from the second page is the first page again.
    const back = await (await fetch(linkOf(pages[1], "prev").href)).json();
    expect(ids(back)).toEqual(ids(pages[0]));
    expect(linkOf(back, "next").href).toBe(linkOf(pages[0], "next").href);
    // The paging links keep the request's filters.
    const filtered = await items("p2000-incidents", "?limit=1&datetime=../2100-01-01T00:00:00Z");
    expect(linkOf(filtered, "next").href).toContain("datetime=..%2F2100-01-01T00%3A00%3A00Z");
    expect(linkOf(filtered, "next").href).toContain("limit=1");
    // A key not made by a link is refused.
    for (const key of ["yesterday", "2026-11-30T10:00:00.000000Z_not-a-uuid"]) {
      const [code, text] = await status(`/collections/p2000-incidents/items?after=${key}`);
      expect([code, text]).toEqual([400, "after is no page key of this collection: follow the next and prev links.\n"]);
    }
  });

  test("/req/core/fc-bbox-definition and /req/core/fc-bbox-response: only features that meet the box", async () => {
    const inRotterdam = await placedIncidents("longitude between 4.3 and 4.6 and latitude between 51.85 and 52.0");
    expect(ids(await items("p2000-incidents", `?bbox=${ROTTERDAM_BBOX}&limit=100`))).toEqual(inRotterdam);
    // Six numbers: the heights do not matter.
    expect(ids(await items("p2000-incidents", "?bbox=4.3,51.85,-10,4.6,52.0,100&limit=100"))).toEqual(inRotterdam);
    // Traffic near Utrecht only; the NL-Alert's area near Europoort; Zuid-Holland's warning, not Utrecht's.
    const utrecht = await items("traffic-incidents", "?bbox=5.0,52.0,5.2,52.2");
    expect(utrecht.features.map((f: any) => f.properties.road_number)).toEqual(["A12"]);
    expect((await items("nl-alerts", "?bbox=4.0,51.9,4.2,52.0")).features).toHaveLength(1);
    expect((await items("nl-alerts", "?bbox=5.0,52.0,5.2,52.2")).features).toHaveLength(0);
    const warnings = await items("weather-warnings", `?bbox=${ROTTERDAM_BBOX}`);
    expect(new Set(warnings.features.map((f: any) => f.properties.province_code))).toEqual(new Set(["zuid-holland"]));
    expect((await items("fire-stations", "?bbox=4.45,51.9,4.5,51.93")).features.map((f: any) => f.id)).toEqual([
      "rotterdam-baan",
    ]);
    // A box far away: nothing, at once.
    expect((await items("p2000-incidents", "?bbox=-10,-10,-9,-9")).features).toEqual([]);
    for (const bad of ["1,2,3", "a,b,c,d", "4,52,5", "4,53,5,52", "4,52,5,91", "-181,52,5,53", "6,52,5,53"]) {
      const [code, text] = await status(`/collections/p2000-incidents/items?bbox=${bad}`);
      expect(code).toBe(400);
      expect(text).toMatch(/bbox/);
    }
  });

  test("/req/core/fc-time-definition and /req/core/fc-time-response: instants, closed and open intervals", async () => {
    const iso = (ms: number) => new Date(ms).toISOString();
    const t = now.getTime();
    const window = [iso(t - 35 * 60_000), iso(t - 15 * 60_000)];
    const inWindow = await placedIncidents("first_sended between $1 and $2", window);
    expect(inWindow.length).toBeGreaterThan(0);
    expect(ids(await items("p2000-incidents", `?limit=100&datetime=${window.join("/")}`))).toEqual(inWindow);
    expect(ids(await items("p2000-incidents", `?limit=100&datetime=../${window[1]}`))).toEqual(
      await placedIncidents("first_sended <= $1", [window[1]]),
    );
    expect(ids(await items("p2000-incidents", `?limit=100&datetime=${window[0]}/..`))).toEqual(
      await placedIncidents("first_sended >= $1", [window[0]]),
    );
    expect(ids(await items("p2000-incidents", `?limit=100&datetime=${window[0]}/`))).toEqual(
      await placedIncidents("first_sended >= $1", [window[0]]),
    );
    // Offsets are taken to UTC before the database reads them, even those beyond PostgreSQL's own
    // 15:59: the same window written 18 hours ahead, and 23:59 behind.
    const at = (ms: number, offsetMinutes: number) => {
      const sign = offsetMinutes < 0 ? "-" : "+";
      const hhmm = new Date(Math.abs(offsetMinutes) * 60_000).toISOString().slice(11, 16);
      return iso(ms + offsetMinutes * 60_000).replace("Z", `${sign}${hhmm}`);
    };
    const shifted = `${at(t - 35 * 60_000, 18 * 60)}/${at(t - 15 * 60_000, -(23 * 60 + 59))}`;
    expect(ids(await items("p2000-incidents", `?limit=100&datetime=${encodeURIComponent(shifted)}`))).toEqual(inWindow);
    // An instant: the incident that began then.
    const {
      rows: [first],
    } = await ctx.db.asOwner(
      `select uuid::text as id, to_char(first_sended at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
         from app_public.p2000_dossiers where uuid = $1`,
      [inWindow[0]],
    );
    expect(ids(await items("p2000-incidents", `?datetime=${first.at}`))).toContain(first.id);
    // Intervals meet intervals: the NL-Alert runs until 55 minutes from now, the warning for four hours.
    const later = `${iso(t + 30 * 60_000)}/${iso(t + 40 * 60_000)}`;
    expect((await items("nl-alerts", `?datetime=${later}`)).features).toHaveLength(1);
    expect((await items("nl-alerts", `?datetime=${iso(t + 2 * HOUR)}/..`)).features).toHaveLength(0);
    const warned = await items("weather-warnings", `?datetime=${iso(thisHour.getTime() + 2 * HOUR)}`);
    expect(warned.features.map((f: any) => f.properties.province_code)).toContain("zuid-holland");
    // Traffic by when it began; fire stations have no time, so no datetime meets them.
    expect((await items("traffic-incidents", `?datetime=${iso(t - HOUR)}/..`)).features).toHaveLength(1);
    expect((await items("fire-stations", `?datetime=${iso(t)}`)).features).toEqual([]);
    for (const bad of [
      "yesterday",
      "2026-02-30T00:00:00Z",
      "2026-11-01",
      "../..",
      "2026-11-02T00:00:00Z/2026-11-01T00:00:00Z",
      "a/b/c",
      // Offsets RFC 3339 has no room for, and an instant past the year 9999.
      "2026-01-01T00:00:00+24:00",
      "2026-01-01T00:00:00+01:60",
      "9999-12-31T23:00:00-18:00",
    ]) {
      const [code, text] = await status(`/collections/p2000-incidents/items?datetime=${encodeURIComponent(bad)}`);
      expect(code).toBe(400);
      expect(text).toContain("datetime");
    }
  });

  test("/req/core/query-param-unknown and /req/core/query-param-invalid: 400 in plain words", async () => {
    const [code, text] = await status("/collections/p2000-incidents/items?properties=title&sortby=time");
    expect(code).toBe(400);
    expect(text).toBe(
      'Unknown query parameters "properties", "sortby": this endpoint knows f, limit, bbox, datetime, after, before.\n',
    );
    expect((await status("/collections?bbox=1,2,3,4"))[0]).toBe(400);
    expect((await status("/conformance?limit=1"))[0]).toBe(400);
  });

  test("/req/core/f-op and /req/core/f-success: one feature with self and collection links; unknown ones 404", async () => {
    const [id] = await placedIncidents();
    const response = await get(`/collections/p2000-incidents/items/${id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/geo+json");
    const text = await response.text();
    expect(() => checkGeojson(text)).not.toThrow();
    const feature = JSON.parse(text);
    expect(feature).toMatchObject({ type: "Feature", id });
    expect(linkOf(feature, "self").href).toBe(`${ogc()}/collections/p2000-incidents/items/${id}`);
    expect(linkOf(feature, "collection").href).toBe(`${ogc()}/collections/p2000-incidents`);
    // The same feature as in the collection's pages.
    const listed = (await items("p2000-incidents", "?limit=1000")).features.find((f: any) => f.id === id);
    expect({ ...feature, links: undefined }).toEqual({ ...listed, links: undefined });
    expect((await json("/collections/fire-stations/items/rotterdam-baan")).properties.name).toBe("Kazerne Baan");
    for (const unknown of ["00000000-0000-7000-8000-000000000000", "not-a-uuid", "rotterdam-baan"])
      expect((await status(`/collections/p2000-incidents/items/${unknown}`))[0]).toBe(404);
  });
});

describe("what the features say", () => {
  test("public columns only, and each incident's share page", async () => {
    const keys = async (collection: string) => Object.keys((await items(collection)).features[0].properties).sort();
    expect(await keys("p2000-incidents")).toEqual(
      [
        "title",
        "first_sent",
        "last_sent",
        "message_count",
        "region_code",
        "region_name",
        "discipline",
        "urgency_code",
        "urgency_name",
        "category_code",
        "category_name",
        "grip_level",
        "exercise_type",
        "incident_number",
        "street",
        "city",
        "page",
      ].sort(),
    );
    expect(await keys("nl-alerts")).toEqual(
      ["alert_id", "message", "start_at", "stop_at", "area_texts", "region_numbers", "resource_uri", "page"].sort(),
    );
    const [id] = await placedIncidents();
    const feature = await json(`/collections/p2000-incidents/items/${id}`);
    expect(feature.properties.page).toBe(
      `${ctx.service.url.replace("//localhost:", "//127.0.0.1:")}/incidents/${shortId(id)}`,
    );
    const alert = (await items("nl-alerts")).features[0];
    expect(alert.geometry.type).toBe("MultiPolygon");
    // The source's closed ring, closed once: four corners and the first again.
    expect(alert.geometry.coordinates[0][0]).toHaveLength(5);
    expect(alert.geometry.coordinates[0][0][0]).toEqual([4.045, 51.905]);
    expect(alert.geometry.coordinates[0][0][4]).toEqual([4.045, 51.905]);
    const warning = (await items("weather-warnings", `?bbox=${ROTTERDAM_BBOX}`)).features[0];
    expect(warning.geometry.type).toBe("MultiPolygon");
    expect(warning.properties).toMatchObject({ province_code: "zuid-holland", level: "orange", phenomena: ["wind"] });
  });
});

describe("formats and caching", () => {
  test("f=json and Accept choose JSON; another format is 400 or 406", async () => {
    expect((await get("/collections?f=json")).status).toBe(200);
    expect((await get("/collections", { accept: "text/html,application/xhtml+xml,*/*;q=0.8" })).status).toBe(200);
    expect(
      (await get("/collections/nl-alerts/items", { accept: "application/json" })).headers.get("content-type"),
    ).toBe("application/json; charset=utf-8");
    expect(await status("/collections?f=html")).toEqual([
      400,
      'f must be "json": this API answers in JSON (GeoJSON for features) only.\n',
    ]);
    expect((await status("/collections", { accept: "text/html" }))[0]).toBe(406);
  });

  test("a strong ETag answers 304; Cache-Control fits each document; HEAD has no body", async () => {
    const response = await get("/collections/fire-stations/items/rotterdam-baan");
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    expect(response.headers.get("vary")).toContain("Accept");
    const etag = response.headers.get("etag") as string;
    expect(etag).toMatch(/^"[\w-]{43}"$/);
    expect((await get("/collections/fire-stations/items/rotterdam-baan", { "if-none-match": etag })).status).toBe(304);
    expect((await get("/conformance")).headers.get("cache-control")).toBe("public, max-age=3600");
    expect((await get("/collections")).headers.get("cache-control")).toBe("public, max-age=300");
    const head = await fetch(`${ogc()}/collections`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const [code] = await status("/collections/nl-alerts/items?limit=x");
    expect(code).toBe(400);
    expect((await get("/collections/nl-alerts/items?limit=x")).headers.get("cache-control")).toBe("no-store");
  });
});
