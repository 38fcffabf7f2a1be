// Issue 44, the map's part: what a newcomer stumbled on at `/`, in Chromium on the desktop and a
// phone, against the real service with the demo's synthetic traffic (stored through the FLEX
// reader's path with source "demo", as DEMO_DATA does) and a few real pages.
// - The header says "Offline: reconnecting…" only when the live connection is lost: going from the
//   map to the dashboards or the console (which end the map's subscriptions) leaves no false alarm.
// - Demo data is marked: a banner while the installation has demo data, a "demo" mark on each demo
//   incident in the list and the panel, none on a real one.
// - An incident is said in words (urgency, service, kind, place), the pager's text kept small and in
//   the panel; the panel names the units paged; the map has a legend and a tooltip on hover.
// - A filter change scrolls the list to its newest incident; a safety region moves the map to it.
// - Opening an incident adds a history entry: Back closes the panel, Forward opens it again; on a
//   phone the panel opens where the person is, its title and first facts on screen.
import { readFileSync } from "node:fs";
import type { FeatureCollection, MultiPolygon, Polygon } from "geojson";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import { loadDemoTraffic } from "../../lib/p2000/demo-data.ts";
import { FLEX_READER_CONNECTIONS } from "../../lib/p2000/flex-ingest.ts";
import {
  DESKTOP,
  drawn,
  launchBrowser,
  LAUNCH_TIMEOUT,
  newWatchedPage,
  PHONE,
  screenshot,
  seriousAxeViolations,
  type WatchedPage,
} from "../helpers/browser.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService();
const MINUTE = 60_000;
const now = Date.now();
const ago = (minutes: number) => new Date(now - minutes * MINUTE).toISOString();

let browser: Browser | undefined;
const pages: Page[] = [];
const dossierOf: Record<string, string> = {};

/**
 * Real pages (source "test"), newer than the demo traffic: a fire in a town the demo does not page
 * (so its marker stands alone) and an ambulance call.
 */
const FIRE = "P 1 BRT-01 BR woning Kerkstraat Hellevoetsluis 173151 171631 173131";
const AMBULANCE = "A1 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 8576";
/** The LifeLiner's capcode has a description in the starter list; 1420007 is known by its block only. */
const AMBULANCE_CAPCODES = ["002029568", "001420059", "001420007"];

interface Region {
  number: string;
  name: string;
  bbox: [south: number, west: number, north: number, east: number];
}
let region: Region;

/** The bounding box of a safety region's outline in the shipped boundaries. */
function regionBox(number: string): Region {
  const regions = JSON.parse(
    readFileSync(path.join(import.meta.dirname, "..", "..", "data", "safety-regions.geojson"), "utf8"),
  ) as FeatureCollection;
  const feature = regions.features.find((f) => f.properties?.number === number)!;
  const points: number[][] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value) && typeof value[0] === "number") points.push(value as number[]);
    else if (Array.isArray(value)) value.forEach(walk);
  };
  walk((feature.geometry as Polygon | MultiPolygon).coordinates);
  const lats = points.map((p) => p[1]);
  const lons = points.map((p) => p[0]);
  return {
    number,
    name: String(feature.properties?.name),
    bbox: [Math.min(...lats), Math.min(...lons), Math.max(...lats), Math.max(...lons)],
  };
}

beforeAll(async () => {
  // Two hours of the demo's synthetic traffic, as the demo load stores it (source "demo").
  const pool = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: FLEX_READER_CONNECTIONS });
  try {
    expect(await loadDemoTraffic(pool, new Date(now - 120 * MINUTE), new Date(now - 10 * MINUTE))).toBeGreaterThan(50);
  } finally {
    await pool.end();
  }
  await storeP2000Pages(ctx.db, [
    { message: FIRE, sended: ago(4), capcodes: ["002029569", "001400349"] },
    { message: AMBULANCE, sended: ago(2), capcodes: AMBULANCE_CAPCODES },
  ]);
  for (const text of [FIRE, AMBULANCE]) {
    const { rows } = await ctx.db.asOwner(
      `select d.uuid from app_public.p2000_messages m join app_public.p2000_dossiers d on d.uuid = m.dossier_uuid
        where m.message = $1 and d.latitude is not null`,
      [text],
    );
    dossierOf[text] = rows[0].uuid;
  }
  // A demo installation, as the first start with DEMO_DATA makes it (no live ticks in the test).
  await ctx.db.asOwner("update app_private.installation set demo_live_until = now()");
  // A region away from the country's centre with several ambulance incidents on the map.
  const { rows } = await ctx.db.asOwner<{ number: string }>(
    `select r.number from app_public.p2000_dossiers d
       join app_public.p2000_regions r on r.uuid = d.region_uuid
       join app_public.p2000_disciplines s on s.uuid = d.discipline_uuid
      where d.latitude is not null and s.slug = 'ambulance' and r.number not in ('09', '07', '08', '06')
      group by r.number order by count(*) desc limit 1`,
  );
  region = regionBox(rows[0].number);
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterEach(async () => {
  for (const page of pages.splice(0)) await page.close();
});

afterAll(async () => {
  await browser?.close();
});

/** Opens the map and waits for its list (by default until it holds the newest real incident). */
async function openMap(
  query: string,
  options: Parameters<typeof newWatchedPage>[1] = {},
  listed: (ids: string[]) => boolean = (ids) => ids.includes(dossierOf[AMBULANCE]),
): Promise<WatchedPage> {
  const watched = await newWatchedPage(browser!, options);
  pages.push(watched.page);
  await watched.page.goto(new URL(`/${query}`, ctx.service.url).href, { waitUntil: "load" });
  await waitUntil(
    () => watched.page.$$eval("button.incident", (all) => all.map((button) => button.getAttribute("data-id") ?? "")),
    listed,
    "the incident list",
  );
  await mapIdle(watched.page);
  return watched;
}

async function mapIdle(page: Page): Promise<void> {
  await page.locator(".map.leaflet-container canvas").wait();
  await new Promise((resolve) => setTimeout(resolve, 300));
  await page.locator(".map[data-idle='true']").wait();
}

const itemOf = (id: string) => `button.incident[data-id='${id}']`;
const panelOpen = (page: Page) => page.$eval(".incident-panel", (panel) => !panel.hasAttribute("hidden"));
/** How many entries the tab's history has. */
const historyLength = (page: Page) => page.evaluate("history.length") as Promise<number>;
const incidentInUrl = (page: Page) => new URL(page.url()).searchParams.get("incident");

describe("the header's connection state", () => {
  test("going from the map to the dashboards and the console shows no false 'Offline'; back on the map it is live", async () => {
    const { page, problems } = await openMap("?lang=en&off=traffic,weather,alerts,aircraft");
    const status = () =>
      page.$eval(".connection", (element) => [element.getAttribute("data-state"), element.textContent]);
    await waitUntil(status, ([state]) => state === "live", "the live connection");
    // Every state the header shows from now on.
    await page.evaluate(`{
      const element = document.querySelector(".connection");
      window.seen = [];
      new MutationObserver(() => window.seen.push(element.getAttribute("data-state"))).observe(element, {
        attributes: true,
        attributeFilter: ["data-state"],
      });
    }`);
    const seen = () => page.evaluate("window.seen") as Promise<string[]>;

    await page.locator("::-p-aria([role='link'][name='Dashboards'])").click();
    await page.locator("::-p-aria([role='heading'][name='Dashboards'])").wait();
    // The map's socket is closed once its subscriptions ended: no connection is needed, none shown.
    await waitUntil(status, ([state]) => state === "idle", "no connection state on the dashboards");
    // Long enough for a reconnection attempt or a late close to show up.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await status()).toEqual(["idle", ""]);
    expect(await page.evaluate(`getComputedStyle(document.querySelector(".connection")).display`)).toBe("none");
    await screenshot(page, "newcomer-dashboards-header");

    await page.locator("::-p-aria([role='link'][name='My account'])").click();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await status())[0]).toBe("idle");

    await page.locator("::-p-aria([role='link'][name='Map'])").click();
    await waitUntil(status, ([state]) => state === "live", "live again on the map");
    expect(await seen()).not.toContain("offline");
    expect(problems).toEqual([]);
  });
});

describe("demo data", () => {
  test("a banner says the incidents are made up and how to turn it off; each demo incident is marked, a real one not", async () => {
    const dutch = { language: "nl-NL,nl;q=0.9" };
    const { page, problems } = await openMap("?off=traffic,weather,alerts,aircraft", dutch);
    const banner = await page.waitForSelector(".demo-banner:not([hidden])");
    const text = await banner!.evaluate((element) => element.textContent ?? "");
    expect(text).toContain("Demodata: deze meldingen zijn nagemaakt.");
    expect(text).toContain("DEMO_DATA=false");
    expect(await page.$eval("html", (html) => html.lang)).toBe("nl");
    // The skip link speaks the page's language.
    expect(await page.$eval(".skip-link", (link) => link.textContent)).toBe("Naar de inhoud");

    const marks = await page.$$eval("button.incident", (all) =>
      all.map((button) => ({
        id: button.getAttribute("data-id"),
        demo: button.getAttribute("data-demo") === "true",
        mark: button.querySelector(".demo-mark")?.textContent ?? null,
      })),
    );
    const demo = marks.filter((item) => item.demo);
    expect(demo.length).toBeGreaterThan(10);
    expect(demo.every((item) => item.mark === "demo")).toBe(true);
    const real = marks.find((item) => item.id === dossierOf[AMBULANCE])!;
    expect(real).toEqual({ id: dossierOf[AMBULANCE], demo: false, mark: null });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "newcomer-demo-desktop");

    // A demo incident's panel says it too.
    await page.locator(itemOf(demo[0].id!)).click();
    await waitUntil(
      () => page.$eval(".incident-panel", (panel) => panel.textContent ?? ""),
      (panelText) => panelText.includes("Demodata: deze melding is nagemaakt") && panelText.includes("Berichten"),
      "the demo incident's panel",
    );
    expect(await page.$eval("#incident-panel-heading .demo-mark", (mark) => mark.textContent)).toBe("demo");
    await screenshot(page, "newcomer-demo-panel");

    // In English too.
    const english = await openMap("?lang=en&off=traffic,weather,alerts,aircraft");
    await english.page.waitForSelector(".demo-banner:not([hidden])");
    expect(await english.page.$eval(".demo-banner", (element) => element.textContent)).toContain(
      "Demo data: these incidents are made up.",
    );
    expect(await english.page.$eval(".skip-link", (link) => link.textContent)).toBe("Skip to content");

    // A plain installation (no demo data): no banner.
    await ctx.db.asOwner("update app_private.installation set demo_live_until = null");
    try {
      const plain = await openMap("?off=traffic,weather,alerts,aircraft", dutch);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await plain.page.$eval(".demo-banner", (element) => element.hasAttribute("hidden"))).toBe(true);
      expect(plain.problems).toEqual([]);
    } finally {
      await ctx.db.asOwner("update app_private.installation set demo_live_until = now()");
    }
    expect(problems).toEqual([]);
    expect(english.problems).toEqual([]);
  });
});

describe("an incident in words", () => {
  test("the list says the service, the kind and the place; the panel names the units and keeps the pager text; a legend; a tooltip on hover", async () => {
    const { page, problems } = await openMap("?lang=en&off=traffic,weather,alerts,aircraft");
    const item = (id: string) =>
      page.$eval(itemOf(id), (button) => ({
        badge: button.querySelector(".badge")?.textContent,
        title: button.querySelector(".incident-title")?.textContent,
        meta: button.querySelector(".incident-meta")?.textContent,
        page: button.querySelector(".incident-page")?.textContent,
      }));
    const fire = await item(dossierOf[FIRE]);
    // The urgency once, as the services write it; the title in words, not the page.
    expect(fire.badge).toBe("P1");
    expect(fire.title).toBe("P1 Fire brigade · Fire");
    expect(fire.meta).toContain("Hellevoetsluis");
    expect(fire.page).toBe(FIRE);
    const ambulance = await item(dossierOf[AMBULANCE]);
    expect(ambulance.badge).toBe("A1");
    expect(ambulance.title).toMatch(/^A1 Ambulance( · \w+)?$/);
    expect(ambulance.title).not.toContain("AMBU");
    expect(ambulance.meta).toContain("Vlaardingen");

    // The legend: a line on the map that opens to the services' colours and the urgencies' sizes.
    expect(await page.$eval(".map-legend summary", (summary) => summary.textContent)).toBe("Legend");
    await page.locator(".map-legend summary").click();
    const legend = await page.$eval(".map-legend", (element) => ({
      open: element.hasAttribute("open"),
      text: element.textContent ?? "",
    }));
    expect(legend.open).toBe(true);
    for (const words of ["Legend", "Fire brigade", "Ambulance", "Police", "A1, P1: urgent", "A2, P2", "Exercise"])
      expect(legend.text).toContain(words);

    // The panel: units by name (the LifeLiner's description, the other unit by its block's
    // discipline and region), the group call left out of them; the pager's text kept.
    await page.locator(itemOf(dossierOf[AMBULANCE])).click();
    const units = await waitUntil(
      () =>
        page.$$eval(
          ".incident-panel .facts dt",
          (terms) => terms.find((term) => term.textContent === "Units")?.nextElementSibling?.textContent ?? "",
        ),
      (text) => text.length > 0,
      "the units paged",
    );
    expect(units).toContain("Traumaheli LifeLiner 2 - MMT");
    expect(units).toContain("Ambulance Rotterdam-Rijnmond (1420007)");
    expect(units).not.toContain("FLEX");
    expect(await page.$eval("#incident-panel-heading", (heading) => heading.textContent)).toMatch(/^A1 Ambulance/);
    expect(await page.$eval(".incident-panel .page-text", (text) => text.textContent)).toBe(AMBULANCE);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "newcomer-panel-units");
    await page.keyboard.press("Escape");
    await waitUntil(
      () => panelOpen(page),
      (open) => !open,
      "the panel to close",
    );

    // A tooltip on hover: the fire's marker, found by the ring of the open incident around it.
    await page.locator(itemOf(dossierOf[FIRE])).click();
    await mapIdle(page);
    const ring = await waitUntil(
      () => drawn(page, [9, 105, 218], 12),
      (found) => found.count > 20,
      "the open incident's ring",
    );
    await page.mouse.move(ring.x, ring.y);
    const tooltip = await waitUntil(
      () => page.$eval(".leaflet-tooltip", (element) => element.textContent ?? "").catch(() => ""),
      (text) => text.length > 0,
      "the marker's tooltip",
    );
    expect(tooltip).toContain("P1 Fire brigade · Fire");
    expect(tooltip).toContain("Hellevoetsluis");
    await screenshot(page, "newcomer-tooltip");
    expect(problems).toEqual([]);
  });
});

describe("filters", () => {
  test("a filter change scrolls the list to its newest incident; a safety region moves the map to it, and back to the country", async () => {
    const { page, problems } = await openMap("?lang=en&off=traffic,weather,alerts,aircraft");
    const view = () =>
      page.$eval(".map", (map) => ({
        zoom: Number(map.getAttribute("data-zoom")),
        centre: (map.getAttribute("data-centre") ?? "0,0").split(",").map(Number),
      }));
    const country = await view();
    const scrolled = () => page.$eval(".incident-list", (list) => list.scrollTop);
    const scrollDown = () =>
      page.$eval(".incident-list", (list) => {
        list.scrollTop = 600;
        return list.scrollTop;
      });
    expect(await scrollDown()).toBeGreaterThan(300);

    await page.locator("::-p-aria([name='Filters and layers'])").click();
    await page.select("#filter-discipline", "ambulance");
    await waitUntil(
      () => page.$eval(".incident-count", (count) => count.textContent),
      (text) => text !== null,
      "the list",
    );
    expect(await scrolled()).toBe(0);
    expect(await page.$eval("button.incident", (first) => first.getAttribute("data-id"))).toBe(dossierOf[AMBULANCE]);

    await scrollDown();
    await page.select("#filter-region", region.number);
    await waitUntil(view, (now) => now.zoom > country.zoom, "the map to show the region");
    await mapIdle(page);
    const { zoom, centre } = await view();
    const [south, west, north, east] = region.bbox;
    expect(centre[0]).toBeGreaterThan(south);
    expect(centre[0]).toBeLessThan(north);
    expect(centre[1]).toBeGreaterThan(west);
    expect(centre[1]).toBeLessThan(east);
    expect(zoom).toBeGreaterThanOrEqual(9);
    expect(await scrolled()).toBe(0);
    await screenshot(page, `newcomer-region-${region.number}`);

    // A shared link with the region opens on it.
    const shared = await openMap(
      `?lang=en&region=${region.number}&off=traffic,weather,alerts,aircraft`,
      {},
      (ids) => ids.length > 0,
    );
    await waitUntil(
      () => shared.page.$eval(".map", (map) => Number(map.getAttribute("data-zoom"))),
      (zoom) => zoom >= 9,
      "the shared link's region",
    );
    expect(shared.problems).toEqual([]);

    // All regions: the country again.
    await page.select("#filter-region", "");
    // (The open filters made the map a little lower than when the page opened.)
    await waitUntil(view, (now) => now.zoom < 8.5, "the country again");
    expect(problems).toEqual([]);
  });
});

describe("an incident's history entry", () => {
  test("on the desktop: Back closes the panel and stays on the map, Forward opens it again, × goes back", async () => {
    const { page, problems } = await openMap("?lang=en&off=traffic,weather,alerts,aircraft");
    const entries = await historyLength(page);
    await page.locator(itemOf(dossierOf[FIRE])).click();
    await waitUntil(() => panelOpen(page), Boolean, "the panel");
    expect(incidentInUrl(page)).toBe(dossierOf[FIRE]);
    expect(await historyLength(page)).toBe(entries + 1);
    await page.goBack();
    await waitUntil(
      () => panelOpen(page),
      (open) => !open,
      "Back to close the panel",
    );
    expect(new URL(page.url()).pathname).toBe("/");
    expect(incidentInUrl(page)).toBeNull();
    expect(new URL(page.url()).searchParams.get("lang")).toBe("en");
    // The map stayed (not drawn again) and the focus is back on the incident's item.
    expect(await page.evaluate("document.activeElement?.getAttribute('data-id')")).toBe(dossierOf[FIRE]);

    await page.goForward();
    await waitUntil(() => panelOpen(page), Boolean, "Forward to open the panel again");
    expect(incidentInUrl(page)).toBe(dossierOf[FIRE]);
    await waitUntil(
      () => page.$eval(".incident-panel .page-text", (text) => text.textContent).catch(() => null),
      (text) => text === FIRE,
      "the reopened panel's messages",
    );

    // × is Back: the entry is left, so Forward opens it again.
    await page.locator("::-p-aria([role='button'][name='Close'])").click();
    await waitUntil(
      () => incidentInUrl(page),
      (id) => id === null,
      "× to close the panel",
    );
    expect(await panelOpen(page)).toBe(false);
    await page.goForward();
    await waitUntil(() => panelOpen(page), Boolean, "Forward after ×");

    // A shared link to an incident: Back shows the map without it, not the page before.
    const shared = await newWatchedPage(browser!, {});
    pages.push(shared.page);
    await shared.page.goto(new URL(`/?lang=en&incident=${dossierOf[FIRE]}`, ctx.service.url).href, {
      waitUntil: "load",
    });
    await waitUntil(() => panelOpen(shared.page), Boolean, "the shared incident's panel");
    await shared.page.goBack();
    await waitUntil(
      () => panelOpen(shared.page),
      (open) => !open,
      "Back to the map",
    );
    expect(new URL(shared.page.url()).pathname).toBe("/");
    expect(problems).toEqual([]);
    expect(shared.problems).toEqual([]);
  });

  test("on a phone: the panel opens where the person is, its title and first facts on screen; Back returns to the same place in the list", async () => {
    const { page, problems } = await openMap("", { viewport: PHONE, language: "nl-NL,nl;q=0.9" });
    // Down the list, well under the map.
    const ids = await waitUntil(
      () => page.$$eval("button.incident", (all) => all.map((button) => button.getAttribute("data-id")!)),
      (all) => all.length > 20,
      "the list",
    );
    const chosen = ids[15];
    await page.$eval(itemOf(chosen), (button) => button.scrollIntoView({ block: "center" }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const rectOf = (selector: string) =>
      page.$eval(selector, (element) => {
        const { top, bottom } = element.getBoundingClientRect();
        return { top, bottom };
      });
    const before = await rectOf(itemOf(chosen));
    await screenshot(page, "newcomer-phone-list");
    const entries = await historyLength(page);

    await (await page.$(itemOf(chosen)))!.tap();
    await waitUntil(() => panelOpen(page), Boolean, "the panel");
    await waitUntil(
      () => page.$eval(".incident-panel .facts", (facts) => facts.textContent ?? "").catch(() => ""),
      (text) => text.includes("Plaats"),
      "the panel's facts",
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const heading = await rectOf("#incident-panel-heading");
    const facts = await rectOf(".incident-panel .facts");
    const map = await rectOf(".map");
    // The page scrolls in <main>, under the header and the demo banner.
    const screenTop = (await rectOf("main")).top;
    // The title at the top of the screen, the first facts under it on screen; the map not scrolled into view.
    expect(heading.top).toBeGreaterThanOrEqual(screenTop);
    expect(heading.top).toBeLessThan(screenTop + 60);
    expect(facts.bottom).toBeLessThan(PHONE.height);
    expect(map.bottom).toBeLessThanOrEqual(screenTop);
    expect(await historyLength(page)).toBe(entries + 1);
    await screenshot(page, "newcomer-phone-panel");
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Back closes the panel and stays on the map, at the same place in the list.
    await page.goBack();
    await waitUntil(
      () => panelOpen(page),
      (open) => !open,
      "Back to close the panel",
    );
    expect(new URL(page.url()).pathname).toBe("/");
    const after = await rectOf(itemOf(chosen));
    expect(Math.abs(after.top - before.top)).toBeLessThan(40);
    await screenshot(page, "newcomer-phone-back");

    await page.goForward();
    await waitUntil(() => panelOpen(page), Boolean, "Forward to open it again");
    expect((await rectOf("#incident-panel-heading")).top).toBeLessThan((await rectOf("main")).top + 60);
    expect(problems).toEqual([]);
  });
});

test("the desktop's map with the demo banner, the legend and the list, in dark mode too", async () => {
  const light = await openMap("", { viewport: DESKTOP, language: "nl-NL" });
  await light.page.waitForSelector(".demo-banner:not([hidden])");
  // The legend open (it stays open once opened).
  if (!(await light.page.$eval(".map-legend", (legend) => legend.hasAttribute("open"))))
    await light.page.locator(".map-legend summary").click();
  await screenshot(light.page, "newcomer-desktop-nl");
  const dark = await openMap("?lang=en&off=traffic,weather,alerts,aircraft", {
    viewport: DESKTOP,
    colorScheme: "dark",
  });
  await dark.page.waitForSelector(".demo-banner:not([hidden])");
  expect(await seriousAxeViolations(dark.page)).toEqual([]);
  await screenshot(dark.page, "newcomer-desktop-dark");
  const phone = await openMap("", { viewport: PHONE, language: "nl-NL" });
  await phone.page.waitForSelector(".demo-banner:not([hidden])");
  await screenshot(phone.page, "newcomer-phone-top");
  expect(light.problems).toEqual([]);
  expect(dark.problems).toEqual([]);
  expect(phone.problems).toEqual([]);
});
