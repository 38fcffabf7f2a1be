// A feed per monitor over real HTTP, with the service's own worker matching P2000 pages stored as
// the FLEX reader stores them: rotateMonitorFeed gives an Atom and a GeoJSON URL; the Atom is read
// by another implementation than the one that wrote it (rss-parser) and the GeoJSON checked
// against RFC 7946's rules; an unchanged feed answers 304 to its ETag and a new match changes it;
// rotating or revoking ends the old URL (404, as an unknown one); another environment's user
// cannot make a feed of the monitor; matches of other monitors and matches held back by quiet
// hours stay out; the per-address request budget covers the feeds.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import Parser from "rss-parser";
import { ingestAlertsDocument } from "../../lib/feeds/alerts/ingest.ts";
import { nlAlertsJson, squareAround } from "../../lib/feeds/alerts/sample-documents.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { errorOf, startTestService, useTestService, type TestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

const ctx = useTestService();

let ada: TestUser;
let bob: TestUser;

async function gql(query: string, token: string | undefined, variables: Record<string, unknown> = {}) {
  return (await ctx.service.graphql(query, { token, variables })).body;
}
async function ok(query: string, token: string | undefined, variables: Record<string, unknown> = {}) {
  const body = await gql(query, token, variables);
  expect(body.errors).toBeUndefined();
  return body.data;
}

const ROTATE = "mutation ($m: String!) { rotateMonitorFeed(monitor: $m) { atomUrl geojsonUrl icsUrl createdAt } }";
const REVOKE = "mutation ($m: String!) { revokeMonitorFeed(monitor: $m) }";

async function createMonitor(
  name: string,
  query: object,
  notificationRules: object = {},
  type = "p2000",
): Promise<string> {
  const { createMonitor } = await ok(
    "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
    ada.accessToken,
    { i: { name, type, query: JSON.stringify(query), notificationRules: JSON.stringify(notificationRules) } },
  );
  return createMonitor.uuid;
}

async function rotate(
  monitor: string,
): Promise<{ atomUrl: string; geojsonUrl: string; icsUrl: string; createdAt: string }> {
  return (await ok(ROTATE, ada.accessToken, { m: monitor })).rotateMonitorFeed;
}

/** Stores a page as the FLEX reader does, sent now (so live matching runs), and answers its row. */
async function page(message: string, capcode: string) {
  await storeP2000Pages(ctx.db, [{ message, sended: new Date().toISOString(), capcodes: [capcode] }]);
  const {
    rows: [row],
  } = await ctx.db.asOwner(
    "select uuid, latitude, longitude from app_public.p2000_messages where message = $1 order by sended desc limit 1",
    [message],
  );
  await ctx.service.workerIdle();
  return row as { uuid: string; latitude: number | null; longitude: number | null };
}

const atomParser = new Parser({ customFields: { item: ["georss:point"] } });
async function readAtom(url: string) {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
  return atomParser.parseString(await response.text());
}

/** The rules of RFC 7946 a FeatureCollection of Point features must keep. */
function expectRfc7946(doc: any): void {
  expect(Object.keys(doc).sort()).toEqual(["features", "type"]);
  expect(doc.type).toBe("FeatureCollection");
  expect(Array.isArray(doc.features)).toBe(true);
  for (const feature of doc.features) {
    // §3.2: a Feature has "geometry" and "properties"; an id is a string or a number.
    expect(feature.type).toBe("Feature");
    expect(["string", "number"]).toContain(typeof feature.id);
    expect(typeof feature.properties).toBe("object");
    // §3.1.2, §4: a Point is one position, longitude then latitude, in WGS 84 degrees; no "crs".
    expect(feature.geometry.type).toBe("Point");
    expect(feature.geometry.coordinates).toHaveLength(2);
    const [longitude, latitude] = feature.geometry.coordinates;
    expect(Number.isFinite(longitude) && longitude >= -180 && longitude <= 180).toBe(true);
    expect(Number.isFinite(latitude) && latitude >= -90 && latitude <= 90).toBe(true);
    expect(feature.crs).toBeUndefined();
  }
}

async function readGeojson(url: string) {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/geo+json");
  const doc = JSON.parse(await response.text());
  expectRfc7946(doc);
  return doc;
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org");
  bob = await signUp(ctx.service, "bob@example.org");
});

describe("a feed per monitor", () => {
  let monitor: string;
  let other: string;
  let feed: { atomUrl: string; geojsonUrl: string; icsUrl: string; createdAt: string };
  let first: { uuid: string; latitude: number | null; longitude: number | null };

  test("rotateMonitorFeed makes the URLs, shown once; the monitor tells only since when", async () => {
    monitor = await createMonitor("Ambulance Schiedam", { capcodes: ["001420007"] });
    other = await createMonitor("Brandweer elders", { capcodes: ["001420059"] });
    const before = await ok("query ($u: String!) { monitor(uuid: $u) { feedCreatedAt } }", ada.accessToken, {
      u: monitor,
    });
    expect(before.monitor.feedCreatedAt).toBeNull();

    feed = await rotate(monitor);
    const base = `http://127.0.0.1:${new URL(ctx.service.url).port}/feeds/monitors/`;
    expect(feed.atomUrl).toMatch(new RegExp(`^${base}nlfd_[A-Za-z0-9_-]{43}\\.atom$`));
    expect(feed.geojsonUrl).toBe(feed.atomUrl.replace(/\.atom$/, ".geojson"));
    expect(feed.icsUrl).toBe(feed.atomUrl.replace(/\.atom$/, ".ics"));
    const after = await ok("query ($u: String!) { monitor(uuid: $u) { feedCreatedAt } }", ada.accessToken, {
      u: monitor,
    });
    // The same instant (the two fields may write its microseconds with or without a trailing zero).
    expect(Date.parse(after.monitor.feedCreatedAt)).toBe(Date.parse(feed.createdAt));
    // Only the hash is stored.
    const secret = feed.atomUrl.slice(base.length, -".atom".length);
    const { rows } = await ctx.db.asOwner(
      "select encode(secret_hash, 'hex') as hash from app_private.monitor_feed_tokens where monitor_uuid = $1",
      [monitor],
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  test("an empty feed is a valid Atom feed and an empty FeatureCollection", async () => {
    const atom = await readAtom(feed.atomUrl);
    expect(atom.title?.trim()).toBe("Ambulance Schiedam");
    expect(atom.items).toEqual([]);
    expect((await readGeojson(feed.geojsonUrl)).features).toEqual([]);
  });

  test("a matched page is in both, with its place; another monitor's match is in neither", async () => {
    first = await page("A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008", "001420007");
    const elsewhere = await page("P 1 BRT-01 BR woning Coolsingel Rotterdam 170001", "001420059");
    expect(first.latitude).not.toBeNull();

    const atom = await readAtom(feed.atomUrl);
    expect(atom.items).toHaveLength(1);
    const [entry] = atom.items as Array<Record<string, any>>;
    expect(entry.id).toBe(`urn:uuid:${first.uuid}`);
    // Named in plain words (the monitor's language, Dutch by default), the page as sent in its content.
    expect(entry.title.trim()).toBe("A1 spoed, ambulance, Bachplein, Schiedam");
    expect(entry.contentSnippet).toContain("A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008");
    expect(entry.contentSnippet).toContain("P2000 message");
    expect(entry["georss:point"]).toBe(`${first.latitude} ${first.longitude}`);
    expect(Date.parse(entry.isoDate)).toBeGreaterThan(Date.now() - 60_000);

    const geojson = await readGeojson(feed.geojsonUrl);
    expect(geojson.features).toEqual([
      {
        type: "Feature",
        id: first.uuid,
        geometry: { type: "Point", coordinates: [first.longitude, first.latitude] },
        properties: {
          id: first.uuid,
          title: "A1 spoed, ambulance, Bachplein, Schiedam",
          text: "A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008",
          kind: "p2000",
          label: "P2000 message",
          time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      },
    ]);
    const text = JSON.stringify(geojson) + JSON.stringify(atom);
    expect(text).not.toContain(elsewhere.uuid);
    expect(text).not.toContain("Coolsingel");
    // Nothing of the environment or the monitor's criteria.
    expect(text).not.toContain(monitor);
    expect(text).not.toContain(ada.environmentUuid);
    expect(text).not.toContain("001420007");
  });

  test("an unchanged feed answers 304 to its ETag; a new match changes it", async () => {
    for (const url of [feed.atomUrl, feed.geojsonUrl]) {
      const full = await fetch(url);
      const etag = full.headers.get("etag");
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(full.headers.get("cache-control")).toBe("private, no-cache");
      expect(full.headers.get("referrer-policy")).toBe("no-referrer");
      await full.arrayBuffer();

      const again = await fetch(url, { headers: { "if-none-match": etag! } });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(await again.text()).toBe("");
      // One of several, and a weak comparison (RFC 9110 13.1.2).
      const listed = await fetch(url, { headers: { "if-none-match": `"other", W/${etag}` } });
      expect(listed.status).toBe(304);
      await listed.arrayBuffer();
      const any = await fetch(url, { headers: { "if-none-match": "*" } });
      expect(any.status).toBe(304);
      const head = await fetch(url, { method: "HEAD", headers: { "if-none-match": etag! } });
      expect(head.status).toBe(304);
      const stale = await fetch(url, { headers: { "if-none-match": '"other"' } });
      expect(stale.status).toBe(200);
      await stale.arrayBuffer();
    }
    const etags = async () =>
      Promise.all([feed.atomUrl, feed.geojsonUrl].map(async (url) => (await fetch(url)).headers.get("etag")));
    const before = await etags();
    const second = await page("A2 AMBU 17108 Broersvest Schiedam SCHIDM bon 147009", "001420007");
    const after = await etags();
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    const atom = await readAtom(feed.atomUrl);
    // Newest first.
    expect(atom.items.map((item: Record<string, any>) => item.id)).toEqual([
      `urn:uuid:${second.uuid}`,
      `urn:uuid:${first.uuid}`,
    ]);
    const stale = await fetch(feed.atomUrl, { headers: { "if-none-match": before[0]! } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  test("matches held back by quiet hours are not in the feed", async () => {
    const dutchTime = (ms: number) =>
      new Date(ms).toLocaleTimeString("en-GB", {
        timeZone: "Europe/Amsterdam",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      });
    const quiet = await createMonitor(
      "Quiet",
      { capcodes: ["001420007"] },
      { quietHours: { from: dutchTime(Date.now() - 3_600_000), to: dutchTime(Date.now() + 3_600_000) } },
    );
    const quietFeed = await rotate(quiet);
    const held = await page("A1 AMBU 17110 Lange Haven Schiedam SCHIDM bon 147010", "001420007");
    const { rows } = await ctx.db.asOwner(
      "select suppressed_reason from app_hidden.monitor_matches where monitor_uuid = $1 and message_uuid = $2",
      [quiet, held.uuid],
    );
    expect(rows).toEqual([{ suppressed_reason: "quiet_hours" }]);
    expect((await readAtom(quietFeed.atomUrl)).items).toEqual([]);
    // The monitor without quiet hours has it.
    expect(((await readAtom(feed.atomUrl)).items[0] as Record<string, any>).id).toBe(`urn:uuid:${held.uuid}`);
  });

  test("unknown, malformed and other-format paths answer 404", async () => {
    const unknown = feed.atomUrl.replace(/nlfd_[A-Za-z0-9_-]{43}/, `nlfd_${"A".repeat(43)}`);
    for (const url of [
      unknown,
      feed.atomUrl.replace(/\.atom$/, ".rss"),
      feed.atomUrl.replace(/\.atom$/, ""),
      feed.atomUrl.replace("nlfd_", "nlxx_"),
    ]) {
      const response = await fetch(url);
      expect(response.status).toBe(404);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.text()).toBe("No such feed.\n");
    }
  });

  test("another environment's user and API tokens cannot make or end a monitor's feed", async () => {
    for (const mutation of [ROTATE, REVOKE]) {
      const foreign = await gql(mutation, bob.accessToken, { m: monitor });
      expect(errorOf(foreign)).toEqual({ message: "Monitor not found.", code: "NOT_FOUND" });
      expect(errorOf(await gql(mutation, ada.accessToken, { m: "not a uuid" })).code).toBe("NOT_FOUND");
      expect(errorOf(await gql(mutation, ada.apiToken, { m: monitor })).code).toBe("UNAUTHENTICATED");
    }
    const bobs = await gql("query ($u: String!) { monitor(uuid: $u) { feedCreatedAt } }", bob.accessToken, {
      u: monitor,
    });
    expect(bobs.data?.monitor ?? null).toBeNull();
    // The feed still works.
    expect((await fetch(feed.atomUrl)).status).toBe(200);
  });

  test("rotating ends the old URL at once; revoking ends the feed", async () => {
    const renewed = await rotate(monitor);
    expect(renewed.atomUrl).not.toBe(feed.atomUrl);
    expect((await fetch(feed.atomUrl)).status).toBe(404);
    expect((await fetch(feed.geojsonUrl)).status).toBe(404);
    expect((await fetch(feed.icsUrl)).status).toBe(404);
    const atom = await readAtom(renewed.atomUrl);
    expect(atom.items).toHaveLength(3);

    expect((await ok(REVOKE, ada.accessToken, { m: monitor })).revokeMonitorFeed).toBe(true);
    expect((await fetch(renewed.atomUrl)).status).toBe(404);
    expect((await fetch(renewed.geojsonUrl)).status).toBe(404);
    expect((await ok(REVOKE, ada.accessToken, { m: monitor })).revokeMonitorFeed).toBe(false);
    const { monitor: after } = await ok(
      "query ($u: String!) { monitor(uuid: $u) { feedCreatedAt } }",
      ada.accessToken,
      {
        u: monitor,
      },
    );
    expect(after.feedCreatedAt).toBeNull();
    // Deleting a monitor deletes its feed.
    const otherFeed = await rotate(other);
    expect((await fetch(otherFeed.atomUrl)).status).toBe(200);
    await ok("mutation ($u: String!) { deleteMonitor(uuid: $u) }", ada.accessToken, { u: other });
    expect((await fetch(otherFeed.atomUrl)).status).toBe(404);
  });
});

describe("a feed monitor's feed", () => {
  test("an NL-Alert monitor's feed lists the alert it matched, placed at its area's centre", async () => {
    const monitor = await createMonitor("NL-Alerts", {}, {}, "nl_alert");
    const feed = await rotate(monitor);
    await ingestAlertsDocument(
      ctx.service.ownerPool,
      Buffer.from(
        nlAlertsJson([
          {
            id: "nl-feed-1",
            messageNl: "Brand Europoort, sluit ramen en deuren",
            startAt: new Date(Date.now() - 5 * 60_000),
            areas: [squareAround(51.955, 4.095)],
          },
        ]),
      ),
      "test",
    );
    await ctx.service.workerIdle();
    const {
      rows: [alert],
    } = await ctx.db.asOwner("select uuid from app_public.nl_alerts where alert_id = 'nl-feed-1'");
    const atom = await readAtom(feed.atomUrl);
    expect(atom.items).toHaveLength(1);
    const [entry] = atom.items as Array<Record<string, any>>;
    expect(entry).toMatchObject({ id: `urn:uuid:${alert.uuid}`, title: "Brand Europoort, sluit ramen en deuren" });
    expect(entry.contentSnippet).toContain("NL-Alert");
    const [feature] = (await readGeojson(feed.geojsonUrl)).features;
    expect(feature).toMatchObject({ id: alert.uuid, properties: { kind: "nl_alert", label: "NL-Alert" } });
    const [longitude, latitude] = feature.geometry.coordinates;
    // Inside the alert's square (its centre as monitorPreview places it).
    expect(Math.abs(longitude - 4.095)).toBeLessThanOrEqual(0.01);
    expect(Math.abs(latitude - 51.955)).toBeLessThanOrEqual(0.01);
  });
});

describe("the request budget", () => {
  let limited: TestService;
  beforeAll(async () => {
    // A second API instance on the same database whose per-address budget is 3 a minute; the
    // client's address comes from X-Forwarded-For, so that no other request of this file counts.
    limited = await startTestService(ctx.db, {
      processRole: "api",
      http: { requestBudgets: { perToken: 1_000, perAddress: 3, trustProxy: true } },
    });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  test("covers the feeds: over it, 429 with Retry-After", async () => {
    const monitor = await createMonitor("Budget", { capcodes: ["001420007"] });
    const path = new URL((await rotate(monitor)).atomUrl).pathname;
    // Budgets start afresh at each minute of the clock: leave time for the four requests.
    const left = 60 - new Date().getSeconds();
    if (left < 10) await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
    const get = () => fetch(`${limited.url}${path}`, { headers: { "x-forwarded-for": "192.0.2.30" } });
    for (let i = 0; i < 3; i++) {
      const response = await get();
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as any).errors[0].extensions.code).toBe("RATE_LIMITED");
  });
});
