// Issue 45's "done when", in Chromium against the real service and its worker: a person, in the
// console and without writing GraphQL, makes a webhook channel to a local receiver and one monitor
// for home and work: two areas added by typing an address (a 1 km circle around each), only fires
// and accidents, notifications in English, escalations on. An administrator then publishes pages
// through the GraphQL API: a fire at home (told), a medical call at home (not a fire or accident),
// a fire in Rotterdam (in neither area), and then a GRIP raise of the fire at home (told as a
// raise). The receiver gets exactly the fire and then the raise, the fire in plain English. The
// plain words are on the respond page, in the map's incident panel and in the monitor's preview.
//
// And an area drawn on the map: a ring of fewer than 3 points refused beside the areas, a point
// undone, the area closed on its first corner and saved in query.areas as the corners clicked,
// drawn on the monitor's page; one whose edges cross is refused by the API, said beside the areas.
// And drawn with the keyboard (the map moved by the arrow keys, its centre added) in Dutch on a
// phone.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import {
  launchBrowser,
  LAUNCH_TIMEOUT,
  PHONE,
  pixelsOf,
  screenshot,
  seriousAxeViolations,
} from "../helpers/browser.ts";
import { distanceKm } from "../helpers/areas.ts";
import { mapIdle, openConsoleAs, textOf, typeInto } from "../helpers/console.ts";
import { graphqlCalls } from "../helpers/graphql-calls.ts";
import { useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let hooks: WebhookReceiver;
beforeAll(async () => {
  hooks = await startWebhookReceiver();
});
// The webhook receiver is on this machine, so the service allows private targets.
const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: true } }));
const { ok } = graphqlCalls(ctx);

/** Home and work, as the address register has them (Zeeland's addresses are shipped). */
const HOME = { search: "Oude Haven 3", label: "Within 1 km of Oude Haven 3, Zierikzee", lat: 51.649035, lon: 3.924109 };
const WORK = {
  search: "Lange Delft 1",
  label: "Within 1 km of Lange Delft 1, Middelburg",
  lat: 51.49845,
  lon: 3.612687,
};
/** The pages the administrator publishes, to the capcodes of their services. */
const FIRE_AT_HOME = "P 1 BRT-02 BR woning Oude Haven 3 Zierikzee 193131";
const MEDICAL_AT_HOME = "A1 AMBU 19101 Oude Haven 3 Zierikzee bon 4711";
const FIRE_ELSEWHERE = "P 1 BRT-01 BR woning Kerkstraat Rotterdam 173191";
/** The same fire scaled up: it joins the incident (same text, GRIP after it) and raises its GRIP level. */
const FIRE_RAISED = "P 1 BRT-02 BR woning Oude Haven 3 Zierikzee GRIP 1 193131";
const FIRE_PLAIN = "Priority 1 house fire, Oude Haven, Zierikzee";
/** The areas' outlines (circle-map.ts CIRCLE_COLOUR). */
const AREA_RGB: [number, number, number] = [0x09, 0x69, 0xda];

let browser: Browser | undefined;
let ada: TestUser;
let operator: TestUser;
const pages: Page[] = [];

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org");
  operator = await signUp(ctx.service, "operator@example.org", { admin: true });
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  for (const page of pages) await page.close().catch(() => {});
  await browser?.close();
  await hooks?.stop();
});

async function open(path: string) {
  const watched = await openConsoleAs(browser!, ctx.service.url, ada, path);
  pages.push(watched.page);
  return watched;
}

const byName = (page: Page, role: string, name: string) =>
  page.locator(`::-p-aria([name=${JSON.stringify(name)}][role=${JSON.stringify(role)}])`);

/** Ticks the choice of a pick list (`#<id>-options`) whose text starts with `wanted`, as a person clicks it. */
async function tick(page: Page, id: string, wanted: string): Promise<void> {
  const label = await waitUntil(
    async () => {
      for (const one of await page.$$(`#${id}-options label`))
        if ((await one.evaluate((element) => element.textContent?.trim() ?? "")).startsWith(wanted)) return one;
      return null;
    },
    (found) => found !== null,
    `“${wanted}” in #${id}`,
  );
  await label!.click();
}

/** Where the service placed a page, and its kind of incident (the category's code). */
async function placedPage(uuid: string): Promise<{ at: number[]; category: string | undefined }> {
  const { p2000Message: page } = (await ok(
    "query ($u: String!) { p2000Message(uuid: $u) { latitude longitude category { code } } }",
    ada.apiToken,
    { u: uuid },
  )) as { p2000Message: { latitude: number; longitude: number; category: { code: string } | null } };
  return { at: [page.longitude, page.latitude], category: page.category?.code };
}

/** Publishes a page as the administrator (createP2000Message), now, to a capcode. */
async function publish(message: string, capcode: string): Promise<{ uuid: string; dossier: { uuid: string } }> {
  const { createP2000Message } = await ok(
    "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid dossier { uuid } } }",
    operator.accessToken,
    { i: { message, sended: new Date().toISOString(), capcodes: [{ name: capcode }] } },
  );
  return createP2000Message;
}

async function savedMonitor(uuid: string) {
  const { monitor } = await ok(
    "query ($u: String!) { monitor(uuid: $u) { name query channels notificationRules } }",
    ada.accessToken,
    { u: uuid },
  );
  return { ...monitor, query: JSON.parse(monitor.query), notificationRules: JSON.parse(monitor.notificationRules) };
}

const monitorPath = /^\/console\/monitors\/([0-9a-f-]{36})$/;
async function savedAndShown(page: Page): Promise<string> {
  await page.waitForFunction(`${monitorPath}.test(location.pathname)`);
  await page.waitForSelector("#monitor-state");
  return monitorPath.exec(new URL(page.url()).pathname)![1];
}

test("home and work, fires and accidents, in English with escalations: the fire at home and its raise are told, nothing else", async () => {
  const { page, problems } = await open("/console/channels?lang=en");

  // A webhook channel to the local receiver.
  await page.locator("#channel-type").wait();
  await page.select("#channel-type", "webhook");
  await byName(page, "textbox", "Name").fill("Home Assistant");
  await byName(page, "textbox", "Webhook URL").fill(`${hooks.url}/home-work`);
  await byName(page, "button", "Make the channel").click();
  await page.locator("#channel-secret").wait();

  // The monitor: home and work typed as addresses, each a circle of 1 km.
  await byName(page, "link", "Monitors").click();
  await page.waitForSelector("a.button-link.primary");
  await page.click("a.button-link.primary");
  await page.waitForSelector("#monitor-form");
  await page.type("#monitor-name", "Home and work: fires and accidents");
  await typeInto(page, "#monitor-areas", HOME.search);
  await tick(page, "monitor-areas", HOME.label);
  await typeInto(page, "#monitor-areas", WORK.search);
  await tick(page, "monitor-areas", WORK.label);
  await typeInto(page, "#monitor-areas", "");
  expect(await textOf(page, "#monitor-areas-count")).toMatch(/^2 chosen/);
  // Both circles on the areas' map, which is zoomed to them.
  await page.$eval("#monitor-areas-map", (element) => element.scrollIntoView({ block: "center" }));
  await page.waitForSelector('#monitor-areas-map[data-idle="true"]');
  await screenshot(page, "console-monitors-home-work-areas");

  // Only fires and accidents, in English, told when an incident gets worse, to the webhook.
  await tick(page, "monitor-categories", "Fire");
  await tick(page, "monitor-categories", "Accident");
  await page.click("#rule-escalations");
  await page.select("#rule-language", "en");
  await page.$$eval(".monitor-channels label", (labels) =>
    labels
      .find((label) => label.textContent?.includes("Home Assistant"))
      ?.querySelector("input")
      ?.click(),
  );
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.click("#monitor-form button[type=submit]");
  const uuid = await savedAndShown(page);

  const saved = await savedMonitor(uuid);
  expect(saved.query).toEqual({
    areas: [
      { type: "circle", latitude: HOME.lat, longitude: HOME.lon, radius: 1 },
      { type: "circle", latitude: WORK.lat, longitude: WORK.lon, radius: 1 },
    ],
    categories: ["brand", "ongeval"],
  });
  expect(saved.notificationRules).toEqual({ maxPerDossier: 1, escalations: true, language: "en" });
  expect(JSON.parse(saved.channels)).toHaveLength(1);
  // The page draws both circles on its map.
  await mapIdle(page);
  expect(await pixelsOf(page, AREA_RGB, 10)).toBeGreaterThan(100);
  await screenshot(page, "console-monitors-home-work-page");

  // The administrator's pages: a fire at home, a medical call at home, a fire in Rotterdam; once
  // they are matched, the fire at home scaled up to GRIP 1.
  const fire = await publish(FIRE_AT_HOME, "001900101");
  const medical = await publish(MEDICAL_AT_HOME, "001920007");
  const elsewhere = await publish(FIRE_ELSEWHERE, "001400101");
  await ctx.service.workerIdle();
  const raised = await publish(FIRE_RAISED, "001900101");
  expect(raised.dossier.uuid).toBe(fire.dossier.uuid);
  await hooks.waitFor((request) => request.path === "/home-work", 2, 30_000);
  await ctx.service.workerIdle();
  await new Promise((resolve) => setTimeout(resolve, 500));

  // The pages not told could have been: the medical call lies in the home circle (only its kind
  // keeps it out), the fire elsewhere is a fire (only its place keeps it out).
  const home = [HOME.lon, HOME.lat];
  const work = [WORK.lon, WORK.lat];
  const medicalPage = await placedPage(medical.uuid);
  expect(distanceKm(medicalPage.at, home)).toBeLessThan(1);
  expect(["brand", "ongeval"]).not.toContain(medicalPage.category);
  const elsewherePage = await placedPage(elsewhere.uuid);
  expect(elsewherePage.category).toBe("brand");
  expect(distanceKm(elsewherePage.at, home)).toBeGreaterThan(1);
  expect(distanceKm(elsewherePage.at, work)).toBeGreaterThan(1);
  expect(distanceKm((await placedPage(fire.uuid)).at, home)).toBeLessThan(1);

  const told = hooks.requests.filter((request) => request.path === "/home-work").map((r) => JSON.parse(r.body));
  expect(told.map((payload) => payload.event)).toEqual(["p2000.message.matched", "p2000.incident.raised"]);
  const [first, raise] = told;
  expect(first.message).toMatchObject({
    uuid: fire.uuid,
    message: FIRE_AT_HOME,
    plainText: FIRE_PLAIN,
    language: "en",
  });
  // The raise says the raising page in the same plain English words.
  expect(raise).toMatchObject({
    dossier: {
      uuid: fire.dossier.uuid,
      gripLevel: 1,
      plainText: "Priority 1 house fire, GRIP 1 (scaled up: on-scene command team), Oude Haven, Zierikzee",
      language: "en",
    },
    timelineEntry: { kind: "grip_raised", previousValue: null, newValue: "1", messageUuid: raised.uuid },
  });
  expect(problems).toEqual([]);

  // The plain words where the console and the map show the page: the respond link's page…
  const respond = new URL(first.respond.url);
  await page.goto(new URL(`${respond.pathname}${respond.search}&lang=en`, ctx.service.url).href, {
    waitUntil: "load",
  });
  await page.waitForSelector("#respond-incident .plain-text");
  expect(await textOf(page, "#respond-incident .row-title")).toBe(FIRE_AT_HOME);
  expect(await textOf(page, "#respond-incident .plain-text")).toBe(FIRE_PLAIN);
  await screenshot(page, "console-respond-plain-words");

  // …the map's incident panel, each page under its pager text…
  await page.goto(new URL(`/?incident=${fire.dossier.uuid}&lang=en`, ctx.service.url).href, { waitUntil: "load" });
  const panel = await waitUntil(
    () =>
      page.$$eval(".incident-panel .messages li", (items) =>
        items.map((item) => [
          item.querySelector(".page-text")?.textContent,
          item.querySelector(".plain-text")?.textContent,
        ]),
      ),
    (items) => items.length === 2 && items.every(([, plain]) => plain),
    "the incident's two pages in plain words",
  );
  expect(panel).toEqual([
    [FIRE_AT_HOME, FIRE_PLAIN],
    [FIRE_RAISED, "Priority 1 house fire, GRIP 1 (scaled up: on-scene command team), Oude Haven, Zierikzee"],
  ]);
  await screenshot(page, "map-incident-plain-words");

  // …and the monitor's preview, its newest matches.
  await page.goto(new URL(`/console/monitors/${uuid}/edit?lang=en`, ctx.service.url).href, { waitUntil: "load" });
  await page.waitForSelector("#monitor-form");
  await waitUntil(
    () => textOf(page, "#monitor-areas-count"),
    (count) => count.startsWith("2 chosen"),
    "the saved areas",
  );
  await page.click(".monitor-preview-button");
  await page.waitForSelector("#monitor-preview:not([hidden])");
  expect(await textOf(page, ".monitor-preview-count")).toMatch(/^2 matches in the past 30 days, of which 1 would/);
  await page.click("#monitor-preview details summary");
  expect(await page.$$eval("#monitor-preview .plain-text", (lines) => lines.map((line) => line.textContent))).toEqual([
    "Priority 1 house fire, GRIP 1 (scaled up: on-scene command team), Oude Haven, Zierikzee",
    FIRE_PLAIN,
  ]);
  await page.$eval("#monitor-preview details", (element) => element.scrollIntoView({ block: "center" }));
  await screenshot(page, "console-monitors-preview-plain-words");
  expect(problems).toEqual([]);
});

test("an area drawn on the map: too few points refused, a point undone, saved as clicked and drawn on the page; crossing edges refused by the API", async () => {
  const { page, problems } = await open("/console/monitors/new?lang=en");
  await page.waitForSelector("#monitor-draw-start");
  await page.type("#monitor-name", "The old town");
  await page.$eval("#monitor-areas-map", (element) => element.scrollIntoView({ block: "center" }));
  await page.waitForSelector('#monitor-areas-map[data-idle="true"]');
  // Closer in, as a person zooms to their town (the whole country's view reaches beyond its bounds).
  for (let step = 0; step < 4; step++) await page.click("#monitor-areas-map a[title='Zoom in']");
  await page.waitForSelector('#monitor-areas-map[data-idle="true"]');
  const box = (await (await page.$("#monitor-areas-map"))!.boundingBox())!;
  const clickAt = (x: number, y: number) => page.mouse.click(box.x + box.width * x, box.y + box.height * y);

  await page.click("#monitor-draw-start");
  expect(await page.$eval("#monitor-areas-map", (map) => map.getAttribute("data-drawing"))).toBe("true");
  await clickAt(0.3, 0.3);
  await clickAt(0.7, 0.3);
  await page.click("#monitor-draw-finish");
  expect(await textOf(page, "#monitor-areas-error")).toBe(
    "An area needs at least 3 points; it has 2. Click the map to add corners.",
  );
  // A point clicked by mistake, undone; then the square's two other corners.
  await clickAt(0.5, 0.9);
  await page.click("#monitor-draw-undo");
  await clickAt(0.7, 0.7);
  await clickAt(0.3, 0.7);
  expect(await textOf(page, "#monitor-draw-status")).toBe("4 points. Click for another corner, or finish the area.");
  expect(await page.$eval("#monitor-areas-error", (error) => error.hidden)).toBe(true);
  await page.waitForSelector('#monitor-areas-map[data-idle="true"]');
  await screenshot(page, "console-monitors-draw-drawing");
  // The first corner clicked again closes it.
  await clickAt(0.3, 0.3);
  expect(await textOf(page, "#monitor-draw-status")).toMatch(/^Drawn area added \(4 points\)/);
  expect(
    await page.$$eval("#monitor-areas-options input:checked", (boxes) =>
      boxes.map((one) => one.parentElement?.textContent?.trim()),
    ),
  ).toEqual(["Drawn area (4 points)"]);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.waitForSelector('#monitor-areas-map[data-idle="true"]');
  await screenshot(page, "console-monitors-draw-added");

  await page.click("#monitor-form button[type=submit]");
  const uuid = await savedAndShown(page);
  const [area] = (await savedMonitor(uuid)).query.areas as Array<{ type: string; coordinates: number[][][] }>;
  expect(area.type).toBe("polygon");
  const ring = area.coordinates[0];
  // The four corners clicked, closed: a square on the screen is one in longitude and latitude.
  expect(ring).toHaveLength(5);
  expect(ring[4]).toEqual(ring[0]);
  const [[west, north], [east, north2], [east2, south], [west2, south2]] = ring;
  expect([east2, west2, north2, south2]).toEqual([east, west, north, south]);
  expect(east).toBeGreaterThan(west);
  expect(north).toBeGreaterThan(south);
  for (const [longitude, latitude] of ring) {
    expect(longitude).toBeGreaterThan(3.2);
    expect(longitude).toBeLessThan(7.3);
    expect(latitude).toBeGreaterThan(50.7);
    expect(latitude).toBeLessThan(53.7);
  }
  expect(await textOf(page, "#monitor-criterion-areas")).toBe("Drawn area (4 points)");
  await mapIdle(page);
  expect(await pixelsOf(page, AREA_RGB, 10)).toBeGreaterThan(100);
  await screenshot(page, "console-monitors-draw-page");

  // A second area whose edges cross (a bow tie): the API refuses it, said beside the areas.
  await page.click(`a[href^="/console/monitors/${uuid}/edit"]`);
  await page.waitForSelector("#monitor-draw-start");
  await page.$eval("#monitor-areas-map", (element) => element.scrollIntoView({ block: "center" }));
  await page.waitForSelector('#monitor-areas-map[data-idle="true"]');
  const edit = (await (await page.$("#monitor-areas-map"))!.boundingBox())!;
  await page.click("#monitor-draw-start");
  for (const [x, y] of [
    [0.2, 0.2],
    [0.8, 0.8],
    [0.8, 0.2],
    [0.2, 0.8],
  ])
    await page.mouse.click(edit.x + edit.width * x, edit.y + edit.height * y);
  await page.click("#monitor-draw-finish");
  await page.click("#monitor-form button[type=submit]");
  await page.waitForSelector("#monitor-areas-error:not([hidden])");
  expect(await textOf(page, "#monitor-areas-error")).toBe(
    "query.areas[1]: a polygon's edges must not cross or touch each other.",
  );
  expect(await page.$eval("#monitor-areas", (input) => input.getAttribute("aria-invalid"))).toBe("true");
  expect(new URL(page.url()).pathname).toBe(`/console/monitors/${uuid}/edit`);
  await page.$eval("#monitor-areas-error", (element) => element.scrollIntoView({ block: "center" }));
  await screenshot(page, "console-monitors-draw-refused");
  expect((await savedMonitor(uuid)).query.areas).toHaveLength(1);
  expect(problems).toEqual([]);
});

test("drawn with the keyboard, in Dutch on a phone in the dark: the map moved by the arrow keys, its centre added", async () => {
  const watched = await openConsoleAs(browser!, ctx.service.url, ada, "/console/monitors/new", {
    viewport: PHONE,
    language: "nl-NL,nl;q=0.9",
    colorScheme: "dark",
  });
  pages.push(watched.page);
  const { page, problems } = watched;
  await page.waitForSelector("#monitor-draw-start");
  await page.$eval("#monitor-draw-start", (element) => element.scrollIntoView({ block: "end" }));
  await page.waitForSelector('#monitor-areas-map[data-idle="true"]');
  await page.focus("#monitor-draw-start");
  await page.keyboard.press("Enter");
  // The focus is on "add the map's centre" now; the arrow keys move the map, as on any map.
  expect(await page.evaluate("document.activeElement?.id")).toBe("monitor-draw-centre");
  const centres: string[] = [];
  for (const key of ["ArrowLeft", "ArrowUp", "ArrowRight"] as const) {
    await page.focus("#monitor-draw-centre");
    await page.keyboard.press("Enter");
    centres.push((await page.$eval("#monitor-areas-map", (map) => map.getAttribute("data-centre"))) ?? "");
    await page.focus("#monitor-areas-map");
    for (let step = 0; step < 3; step++) await page.keyboard.press(key);
    await page.waitForSelector('#monitor-areas-map[data-idle="true"]');
  }
  expect(new Set(centres).size).toBe(3);
  expect(await textOf(page, "#monitor-draw-status")).toBe("3 punten. Klik voor nog een hoek, of maak het gebied af.");
  await page.$eval("#monitor-draw-status", (element) => element.scrollIntoView({ block: "end" }));
  expect(await seriousAxeViolations(page)).toEqual([]);
  await screenshot(page, "console-monitors-draw-phone-dark");
  await page.focus("#monitor-draw-finish");
  await page.keyboard.press("Enter");
  expect(await textOf(page, "#monitor-draw-status")).toMatch(/^Getekend gebied toegevoegd \(3 punten\)/);
  expect(
    await page.$$eval("#monitor-areas-options input:checked", (boxes) =>
      boxes.map((one) => one.parentElement?.textContent?.trim()),
    ),
  ).toEqual(["Getekend gebied (3 punten)"]);
  expect(await page.evaluate("document.activeElement?.id")).toBe("monitor-draw-start");
  expect(problems).toEqual([]);
});
