// A shared incident link opened in Chromium (issue 50, lib/open-data/share-pages/): the page the
// service rendered for link previews loads the web application, which shows the incident on the
// live map: its panel open with its pages, the address the map's own (?incident=<dossier>), and
// Back leaves the panel for the map. Nothing is reported (no CSP violation, no error). The
// screenshot goes to test-results/screenshots/share-page-opened.png.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser } from "puppeteer-core";
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
});
