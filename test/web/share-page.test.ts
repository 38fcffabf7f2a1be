// A shared incident link opened in Chromium (issue 50, lib/open-data/share-pages/): the page the
// service rendered for link previews loads the web application, which shows the incident on the
// live map: its panel open with its pages, the address the map's own (?incident=<dossier>), and
// Back leaves the panel for the map. Nothing is reported (no CSP violation, no error). The
// screenshot goes to test-results/screenshots/share-page-opened.png. A page text and an NL-Alert
// that carry markup and quotes are read by Chromium's own parser (JavaScript off) exactly as sent:
// in the <title>, in the OpenGraph and Twitter tags' attributes and in the body.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser } from "puppeteer-core";
import { ingestAlertsDocument } from "../../lib/feeds/alerts/ingest.ts";
import { nlAlertsJson, squareAround } from "../../lib/feeds/alerts/sample-documents.ts";
import { shortId } from "../../lib/open-data/share-pages/share-ids.ts";
import { launchBrowser, LAUNCH_TIMEOUT, newWatchedPage, screenshot } from "../helpers/browser.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { FEEDS_OFF, useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService(() => ({ feeds: FEEDS_OFF }));
const FIRE = "P 1 BRT-01 BR woning Toscalaan Hoogvliet Rotterdam 173151";

let browser: Browser | undefined;
let dossier: string;

beforeAll(async () => {
  await storeP2000Pages(ctx.db, [
    { message: FIRE, sended: new Date(Date.now() - 15 * 60_000).toISOString(), capcodes: ["002029569"] },
  ]);
  const { rows } = await ctx.db.asOwner("select dossier_uuid from app_public.p2000_messages where message = $1", [
    FIRE,
  ]);
  dossier = rows[0].dossier_uuid;
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  await browser?.close();
});

describe("a shared incident link", () => {
  test("opens the incident on the live map", async () => {
    const { page, problems } = await newWatchedPage(browser!);
    const shared = `${ctx.service.url}/incidents/${shortId(dossier)}?lang=en`;
    await page.goto(shared, { waitUntil: "load" });
    // The map's own address, the incident named in it.
    await waitUntil(
      async () => new URL(page.url()),
      (url) => url.pathname === "/" && url.searchParams.get("incident") === dossier,
      "the map's address",
    );
    expect(new URL(page.url()).searchParams.get("lang")).toBe("en");
    await page.locator(`.incident-panel[role='dialog'] .page-text::-p-text(${FIRE})`).wait();
    await page.locator(".map.leaflet-container canvas").wait();
    await page.locator(".map[data-idle='true']").wait();
    expect(await page.$eval(".incident-panel", (panel) => panel.hidden)).toBe(false);
    await screenshot(page, "share-page-opened");

    // Back closes the incident and stays on the map.
    await page.goBack();
    await waitUntil(() => page.$eval(".incident-panel", (panel) => panel.hidden), Boolean, "the panel to close");
    expect(new URL(page.url()).pathname).toBe("/");
    expect(problems).toEqual([]);
    await page.close();
  });

  test("says texts with markup and quotes as they were sent, as text", async () => {
    // Each would end the <title>, close an attribute or open an element if it were not escaped.
    const markup = `</title><script>alert("x")</script> 'q' &lt; &amp;`;
    const pageText = `Zq ${markup}`;
    await storeP2000Pages(ctx.db, [
      { message: pageText, sended: new Date(Date.now() - 5 * 60_000).toISOString(), capcodes: ["002029569"] },
    ]);
    const {
      rows: [{ dossier_uuid: incident }],
    } = await ctx.db.asOwner("select dossier_uuid from app_public.p2000_messages where message = $1", [pageText]);
    const alertText = `Gevaar ${markup} "rook"`;
    await ingestAlertsDocument(
      ctx.service.ownerPool,
      Buffer.from(
        nlAlertsJson([
          {
            id: "nl-share-markup",
            messageNl: alertText,
            startAt: new Date(Date.now() - 5 * 60_000),
            areas: [squareAround(51.955, 4.095, 0.05)],
          },
        ]),
      ),
      "test",
    );
    const {
      rows: [alert],
    } = await ctx.db.asOwner("select uuid from app_public.nl_alerts where alert_id = 'nl-share-markup'");

    const { page } = await newWatchedPage(browser!);
    // The page as a link preview or a crawler reads it: the application does not take it over.
    await page.setJavaScriptEnabled(false);
    const read = async (path: string) => {
      await page.goto(`${ctx.service.url}${path}`, { waitUntil: "load" });
      const meta = (key: string) =>
        page.$eval(`meta[property="${key}"], meta[name="${key}"]`, (tag) => tag.getAttribute("content"));
      return {
        title: await page.title(),
        tags: await Promise.all(
          ["og:title", "twitter:title", "og:description", "twitter:description", "description"].map(meta),
        ),
        heading: await page.$eval("h1", (heading) => heading.textContent),
        headingElements: await page.$eval("h1", (heading) => heading.children.length),
        items: await page.$$eval("li", (items) => items.map((item) => item.textContent)),
        scripts: await page.$$eval("script", (scripts) => scripts.map((script) => script.getAttribute("src"))),
      };
    };

    const incidentPage = await read(`/incidents/${shortId(incident)}`);
    expect(incidentPage.title).toBe(`${pageText} – Incidenten in Nederland`);
    expect(incidentPage.tags.slice(0, 2)).toEqual([pageText, pageText]);
    expect(incidentPage.heading).toBe(pageText);
    expect(incidentPage.headingElements).toBe(0);
    expect(incidentPage.items).toHaveLength(1);
    expect(incidentPage.items[0]).toContain(pageText);
    expect(incidentPage.scripts).toEqual([expect.stringMatching(/^\/web\/app-[A-Z2-7]{8}\.js$/)]);

    const alertPage = await read(`/nl-alerts/${shortId(alert.uuid)}`);
    expect(alertPage.title).toBe(`NL-Alert: ${alertText} – Incidenten in Nederland`);
    expect(alertPage.tags).toEqual([
      `NL-Alert: ${alertText}`,
      `NL-Alert: ${alertText}`,
      alertText,
      alertText,
      alertText,
    ]);
    expect(alertPage.heading).toBe(`NL-Alert: ${alertText}`);
    expect(alertPage.headingElements).toBe(0);
    expect(alertPage.items[0]).toContain(alertText);
    expect(alertPage.scripts).toEqual(incidentPage.scripts);
    await page.close();
  });
});
