// The share pages over real HTTP (issue 50, lib/open-data/share-pages/): a P2000 incident stored
// as the FLEX reader stores it, a DATEX II accident, an NL-Alert and a KNMI warning, each through
// its feed's ingestion. Each page's link-preview tags are read by a parser of others' making
// (open-graph-scraper): title, description, canonical URL, the map image and its size, Twitter's
// large card; the image is a real PNG of the stated size (pngjs); the page says the database's
// plain words, the place, the region and the units, and nothing of the monitors, channels and
// responders the incident met; the long id answers 301 to the short one, an unknown id 404 and a
// malformed one 400; an ambulance call's page is noindex; an unchanged page answers 304 to its ETag;
// the page is answered from memory and drops what it kept when the incident gets a new page.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { beforeAll, describe, expect, test } from "@jest/globals";
import ogs from "open-graph-scraper";
import { PNG } from "pngjs";
import { ingestAlertsDocument } from "../../lib/feeds/alerts/ingest.ts";
import { nlAlertsJson, squareAround } from "../../lib/feeds/alerts/sample-documents.ts";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml } from "../../lib/feeds/meteo/sample-documents.ts";
import { ingestTrafficDocument } from "../../lib/feeds/traffic/ingest.ts";
import { datexV2Xml } from "../../lib/feeds/traffic/sample-documents.ts";
import { shortId } from "../../lib/open-data/share-pages/share-ids.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { FEEDS_OFF, useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService(() => ({
  feeds: FEEDS_OFF,
  // The pages' cache is the response cache's share: on here, as in production.
  api: { responseCache: { maxBytes: 64 * 1024 * 1024, maxAgeMs: 60_000 } },
}));

const SCREENSHOTS = path.join(import.meta.dirname, "..", "..", "test-results", "screenshots");
const PAGE_TEXT = "P 1 BDH-01 BR woning Toscalaan Rotterdam 171231";
const UNIT = "Brandweer Rotterdam-Rijnmond TS 17-1231";
/** What the incident's monitor, channel and responder are called: none of it may be on the page. */
const PERSONAL = ["Jan Jansen", "jan.jansen@example.org", "Monitor van Jan", "Kanaal van Jan", "hooks.example.org"];

/** The service's public address (PUBLIC_URL), which the pages' absolute links start with. */
const publicUrl = () => ctx.service.url.replace("//localhost:", "//127.0.0.1:");

let dossier: string;
let firstSent: Date;

const get = (pathAndQuery: string, headers: Record<string, string> = {}) =>
  fetch(`${ctx.service.url}${pathAndQuery}`, { headers, redirect: "manual" });

async function htmlOf(pathAndQuery: string): Promise<string> {
  const response = await get(pathAndQuery);
  expect(response.status).toBe(200);
  return response.text();
}

beforeAll(async () => {
  const db = ctx.db;
  await db.asOwner("insert into app_public.p2000_capcodes (name, description, kind) values ('1417001', $1, 'unit')", [
    UNIT,
  ]);
  firstSent = new Date(Date.now() - 10 * 60_000);
  await storeP2000Pages(db, [{ message: PAGE_TEXT, sended: firstSent.toISOString(), capcodes: ["1417001"] }]);
  const {
    rows: [message],
  } = await db.asOwner("select uuid, dossier_uuid from app_public.p2000_messages where message = $1", [PAGE_TEXT]);
  dossier = message.dossier_uuid;
  // A monitor that matched the incident, its channel and someone who answered that they are going.
  const {
    rows: [channel],
  } = await db.asOwner(
    "insert into app_public.channels (environment_uuid, type, name, url) values ($1, 'webhook', $2, $3) returning uuid",
    [db.operatorEnvironmentUuid, PERSONAL[3], "https://hooks.example.org/jan"],
  );
  const {
    rows: [monitor],
  } = await db.asOwner(
    "insert into app_public.monitors (environment_uuid, name, query) values ($1, $2, $3) returning uuid",
    [db.operatorEnvironmentUuid, PERSONAL[2], JSON.stringify({ capcodes: ["1417001"] })],
  );
  await db.asOwner(
    `insert into app_public.alert_responders (environment_uuid, monitor_uuid, channel_uuid, dossier_uuid, message_uuid,
       incident_uuid, recipient, status) values ($1, $2, $3, $4, $5, $4, $6, 'going')`,
    [db.operatorEnvironmentUuid, monitor.uuid, channel.uuid, dossier, message.uuid, `${PERSONAL[0]} <${PERSONAL[1]}>`],
  );
});

describe("a P2000 incident's page", () => {
  test("link previews read its title, words, canonical address and map image", async () => {
    const id = shortId(dossier);
    expect(id).toHaveLength(22);
    const response = await get(`/incidents/${id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    expect(response.headers.get("etag")).toMatch(/^"[\w-]+"$/);
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await response.text();
    const canonical = `${publicUrl()}/incidents/${id}`;

    const { result } = await ogs({ html });
    expect(result.success).toBe(true);
    const {
      rows: [{ plain }],
    } = await ctx.db.asOwner(
      "select app_hidden.p2000_plain_text(m, 'nl') as plain from app_public.p2000_messages m where message = $1",
      [PAGE_TEXT],
    );
    expect(result.ogTitle).toBe(plain);
    expect(result.ogDescription).toContain("Rotterdam");
    expect(result.ogUrl).toBe(canonical);
    expect(result.ogType).toBe("article");
    expect(result.ogSiteName).toBe("Incidenten in Nederland");
    expect(result.ogLocale).toBe("nl_NL");
    expect(result.twitterCard).toBe("summary_large_image");
    expect(result.ogImage?.[0]).toMatchObject({ url: `${canonical}/map.png`, width: "1200", height: "630" });
    expect(result.twitterImage?.[0]?.url).toBe(`${canonical}/map.png`);

    expect(html).toMatch(/^<!doctype html>\n<html lang="nl">/);
    expect(html).toContain(`<link rel="canonical" href="${canonical}" />`);
    expect(html).toContain('<meta name="robots" content="index, follow, max-image-preview:large" />');
    expect(html).toContain(`<time datetime="`);
    // The time as people in the Netherlands read it, the region, the unit paged by its public name.
    const local = new Intl.DateTimeFormat("nl-NL", {
      timeZone: "Europe/Amsterdam",
      dateStyle: "long",
      timeStyle: "short",
    }).format(firstSent);
    expect(html).toContain(local);
    expect(html).toContain("Rotterdam-Rijnmond");
    expect(html).toContain(UNIT);
    expect(html).toContain(PAGE_TEXT);
    // The web application's own files, so a browser shows the incident on the live map; nothing inline.
    expect(html).toMatch(/<script type="module" src="\/web\/app-[A-Z2-7]{8}\.js"><\/script>/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/);
    expect(html).toContain(`href="/?incident=${dossier}"`);
  });

  test("nothing personal is on it, though a monitor matched it and a responder answered", async () => {
    const html = await htmlOf(`/incidents/${shortId(dossier)}`);
    const english = await htmlOf(`/incidents/${shortId(dossier)}?lang=en`);
    for (const page of [html, english]) {
      for (const words of PERSONAL) expect(page).not.toContain(words);
    }
  });

  test("an ambulance call's page is shared but kept out of search indexes", async () => {
    const AMBULANCE = "A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008";
    await storeP2000Pages(ctx.db, [
      { message: AMBULANCE, sended: new Date(Date.now() - 5 * 60_000).toISOString(), capcodes: ["001420007"] },
    ]);
    const {
      rows: [{ dossier_uuid: ambulance }],
    } = await ctx.db.asOwner("select dossier_uuid from app_public.p2000_messages where message = $1", [AMBULANCE]);
    for (const language of ["", "?lang=en"]) {
      const html = await htmlOf(`/incidents/${shortId(ambulance)}${language}`);
      expect(html).toContain('<meta name="robots" content="noindex, follow" />');
      // Still a page to share: its preview is whole.
      const { result } = await ogs({ html });
      expect(result.ogTitle).toMatch(/^A1 /);
      expect(result.ogImage?.[0]?.url).toBe(`${publicUrl()}/incidents/${shortId(ambulance)}/map.png`);
      expect(html).toContain("Bachplein");
    }
  });

  test("?lang=en is the English page, with its own canonical address", async () => {
    const id = shortId(dossier);
    const html = await htmlOf(`/incidents/${id}?lang=en`);
    const { result } = await ogs({ html });
    expect(html).toMatch(/<html lang="en">/);
    expect(result.ogLocale).toBe("en_GB");
    expect(result.ogUrl).toBe(`${publicUrl()}/incidents/${id}?lang=en`);
    const {
      rows: [{ plain }],
    } = await ctx.db.asOwner(
      "select app_hidden.p2000_plain_text(m, 'en') as plain from app_public.p2000_messages m where message = $1",
      [PAGE_TEXT],
    );
    expect(result.ogTitle).toBe(plain);
    expect(html).toContain("Units paged");
    expect((await get(`/incidents/${id}?lang=fr`)).status).toBe(400);
  });

  test("its map image is a PNG of the size the tags state", async () => {
    const response = await get(`/incidents/${shortId(dossier)}/map.png`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    const bytes = Buffer.from(await response.arrayBuffer());
    const png = PNG.sync.read(bytes);
    expect([png.width, png.height]).toEqual([1200, 630]);
    // The marker's red is drawn where the incident is (Rotterdam, in the middle of the picture).
    const centre = (315 * 1200 + 600) * 4;
    expect([png.data[centre], png.data[centre + 1], png.data[centre + 2]]).toEqual([0xd7, 0x19, 0x1c]);
    await mkdir(SCREENSHOTS, { recursive: true });
    await writeFile(path.join(SCREENSHOTS, "share-page-incident-map.png"), bytes);
    const again = await get(`/incidents/${shortId(dossier)}/map.png`, {
      "if-none-match": response.headers.get("etag")!,
    });
    expect(again.status).toBe(304);
  });

  test("the uuid's long form answers 301 to the short address; unknown ids 404, malformed ones 400", async () => {
    const long = await get(`/incidents/${dossier.toUpperCase()}?lang=en`);
    expect(long.status).toBe(301);
    expect(long.headers.get("location")).toBe(`/incidents/${shortId(dossier)}?lang=en`);
    expect((await get(`/incidents/${dossier}/map.png`)).headers.get("location")).toBe(
      `/incidents/${shortId(dossier)}/map.png`,
    );

    const unknown = await get(`/incidents/${shortId("0190aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee")}`);
    expect(unknown.status).toBe(404);
    const notFound = await unknown.text();
    expect(notFound).toContain("Niet gevonden");
    expect(notFound).toContain('<meta name="robots" content="noindex" />');
    expect((await get(`/incidents/${shortId("0190aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee")}/map.png`)).status).toBe(404);

    const malformed = await get("/incidents/not-an-id");
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toMatch(/is no id/);
    expect((await get("/warnings/x'%3Cscript%3E")).status).toBe(400);
  });

  test("an unchanged page answers 304 to its ETag", async () => {
    const first = await get(`/incidents/${shortId(dossier)}`);
    const etag = first.headers.get("etag")!;
    const again = await get(`/incidents/${shortId(dossier)}`, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  test("the page is answered from memory, and read again when the incident gets a new page", async () => {
    const path = `/incidents/${shortId(dossier)}`;
    // Kept once the cache hears the database's notifications (from the first page asked for).
    await waitUntil(
      async () => {
        await htmlOf(path);
        return htmlOf(path);
      },
      (html) => html.includes("Toscalaan"),
      "the page",
    );
    // A change the database does not announce: the kept page is still answered.
    await ctx.db.asOwner(`
      alter table app_public.p2000_dossiers disable trigger _900_notify_data_changed;
      update app_public.p2000_dossiers set city = 'Stilledorp' where uuid = '${dossier}';
      alter table app_public.p2000_dossiers enable trigger _900_notify_data_changed;`);
    expect(await htmlOf(path)).not.toContain("Stilledorp");
    // A new page of the incident is announced: the page is read again, with it.
    await storeP2000Pages(ctx.db, [
      { message: PAGE_TEXT, sended: new Date(firstSent.getTime() + 90_000).toISOString(), capcodes: ["1417002"] },
    ]);
    const html = await waitUntil(
      () => htmlOf(path),
      (page) => page.includes("Stilledorp"),
      "the page read again",
    );
    expect(html.match(/<li>/g)).toHaveLength(2);
  });
});

describe("the pages of the other feeds", () => {
  test("a traffic incident's page and image", async () => {
    await ingestTrafficDocument(
      ctx.service.ownerPool,
      Readable.from([
        Buffer.from(
          datexV2Xml(new Date(), [
            {
              id: "RWS03_900",
              version: 1,
              type: "accident",
              start: new Date(Date.now() - 20 * 60_000),
              latitude: 51.93,
              longitude: 4.36,
              roadNumber: "A4",
              severity: "high",
            },
          ]),
        ),
      ]),
      "test",
    );
    const {
      rows: [incident],
    } = await ctx.db.asOwner("select uuid from app_public.traffic_incidents where record_id like '%RWS03_900%'");
    const html = await htmlOf(`/traffic/${shortId(incident.uuid)}`);
    const { result } = await ogs({ html });
    expect(result.ogTitle).toBe("Ongeval A4");
    expect(result.ogUrl).toBe(`${publicUrl()}/traffic/${shortId(incident.uuid)}`);
    expect(html).toContain("Rotterdam-Rijnmond");
    const english = await ogs({ html: await htmlOf(`/traffic/${shortId(incident.uuid)}?lang=en`) });
    expect(english.result.ogTitle).toBe("Accident A4");
    const png = PNG.sync.read(
      Buffer.from(await (await get(`/traffic/${shortId(incident.uuid)}/map.png`)).arrayBuffer()),
    );
    expect([png.width, png.height]).toEqual([1200, 630]);
  });

  test("an NL-Alert's page says its message and shades its area", async () => {
    await ingestAlertsDocument(
      ctx.service.ownerPool,
      Buffer.from(
        nlAlertsJson([
          {
            id: "nl-share-1",
            messageNl: "Grote brand in Europoort. Sluit ramen en deuren.",
            messageEn: "Large fire in Europoort. Close windows and doors.",
            startAt: new Date(Date.now() - 5 * 60_000),
            areas: [squareAround(51.955, 4.095, 0.05)],
          },
        ]),
      ),
      "test",
    );
    const {
      rows: [alert],
    } = await ctx.db.asOwner("select uuid from app_public.nl_alerts where alert_id = 'nl-share-1'");
    const id = shortId(alert.uuid);
    const { result } = await ogs({ html: await htmlOf(`/nl-alerts/${id}`) });
    expect(result.ogTitle).toBe("NL-Alert: Grote brand in Europoort.");
    expect(result.ogDescription).toContain("Sluit ramen en deuren");
    const english = await ogs({ html: await htmlOf(`/nl-alerts/${id}?lang=en`) });
    expect(english.result.ogDescription).toContain("Close windows and doors");
    const bytes = Buffer.from(await (await get(`/nl-alerts/${id}/map.png`)).arrayBuffer());
    expect(PNG.sync.read(bytes).width).toBe(1200);
    await writeFile(path.join(SCREENSHOTS, "share-page-nl-alert-map.png"), bytes);
  });

  test("a weather warning's page names the province, the level and the period", async () => {
    const HOUR = 3_600_000;
    const thisHour = new Date(Math.floor(Date.now() / HOUR) * HOUR);
    await ingestMeteoDocument(
      ctx.service.ownerPool,
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
      "test share",
    );
    const {
      rows: [warning],
    } = await ctx.db.asOwner(
      `select e.uuid from app_public.meteo_warning_events e join app_public.meteo_provinces p on p.uuid = e.province_uuid
        where p.code = 'zuid-holland' order by e.issued_at desc limit 1`,
    );
    const id = shortId(warning.uuid);
    const html = await htmlOf(`/warnings/${id}`);
    const { result } = await ogs({ html });
    expect(result.ogTitle).toMatch(/^Weerwaarschuwing Zuid-Holland: code oranje/);
    expect(html).toContain("Zware windstoten tot 100 km/u.");
    const bytes = Buffer.from(await (await get(`/warnings/${id}/map.png`)).arrayBuffer());
    expect(PNG.sync.read(bytes).height).toBe(630);
    await writeFile(path.join(SCREENSHOTS, "share-page-warning-map.png"), bytes);
  });
});
