// The monitor form's address field (issue "Where it happened", part 4) in Chromium against the real
// service: a person types their place or postcode, the API's suggestions (locationSuggestions) come
// as they type in a combobox's list, the keyboard (arrows, Enter, Escape) or a click picks one, and
// the circle is centred there, on the map and in the saved monitor. Enter in the field never
// submits the form; a search without matches says so; a click on the map afterwards is a centre of
// its own. In English and in Dutch on a phone; axe finds nothing serious.
import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import { importPostcodes } from "../../lib/places/postcode-import.ts";
import {
  launchBrowser,
  LAUNCH_TIMEOUT,
  PHONE,
  pixelsOf,
  screenshot,
  seriousAxeViolations,
} from "../helpers/browser.ts";
import { fixture } from "../helpers/cli.ts";
import { mapIdle, openConsoleAs, placed, textOf, typeInto } from "../helpers/console.ts";
import { useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService();
/** The circle's colour (circle-map.ts CIRCLE_COLOUR). */
const CIRCLE_RGB: [number, number, number] = [0x09, 0x69, 0xda];
const COMBOBOX = (name: string) => `::-p-aria([role='combobox'][name='${name}'])`;

let browser: Browser | undefined;
let ada: TestUser;
let schiedam: { latitude: number; longitude: number };
const pages: Page[] = [];

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org");
  // Postcodes as an operator imports them (PC6 with a point): the suggestions' postcode kind.
  const pool = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: 2 });
  try {
    await importPostcodes(pool, fs.createReadStream(fixture("postcodes-pc6.csv")), { log: () => {} });
  } finally {
    await pool.end();
  }
  const { rows } = await ctx.db.asOwner<{ latitude: number; longitude: number }>(
    "select latitude, longitude from app_public.location_suggestions('Schiedam', 1)",
  );
  schiedam = rows[0];
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  for (const page of pages) await page.close().catch(() => {});
  await browser?.close();
});

async function open(path: string, options: Parameters<typeof openConsoleAs>[4] = {}) {
  const watched = await openConsoleAs(browser!, ctx.service.url, ada, path, options);
  pages.push(watched.page);
  await watched.page.waitForSelector("#monitor-address");
  return watched;
}

/** The suggestions shown: each option's label and detail. */
const options = (page: Page) =>
  page.$$eval("#monitor-address-options:not([hidden]) [role='option']", (items) =>
    items.map((item) => item.textContent ?? ""),
  );
const attribute = (page: Page, name: string) =>
  page.$eval("#monitor-address", (input, wanted) => input.getAttribute(wanted), name);

test("a place typed and picked by keyboard centres the circle; the saved monitor has it", async () => {
  const { page, problems } = await open("/console/monitors/new?lang=en");
  await page.locator(COMBOBOX("Address or place")).wait();
  expect(await attribute(page, "aria-expanded")).toBe("false");

  await page.type("#monitor-address", "Schied");
  const found = await waitUntil(
    () => options(page),
    (list) => list.length > 0,
    "the suggestions for “Schied”",
  );
  expect(found[0]).toBe("SchiedamPlace · Zuid-Holland");
  expect(await attribute(page, "aria-expanded")).toBe("true");
  expect(await textOf(page, "#monitor-address-status")).toMatch(/^\d+ suggestions?\.$/);
  expect(await seriousAxeViolations(page)).toEqual([]);

  // The arrow keys move through the list (the field keeps the focus), Enter takes the active one.
  await page.keyboard.press("ArrowDown");
  expect(await attribute(page, "aria-activedescendant")).toBe("monitor-address-option-0");
  expect(await page.$eval("#monitor-address-option-0", (option) => option.getAttribute("aria-selected"))).toBe("true");
  await page.$eval(".monitor-circle", (element) => element.scrollIntoView());
  await screenshot(page, "console-monitors-address-suggestions");
  await page.keyboard.press("Enter");
  expect(await attribute(page, "aria-expanded")).toBe("false");
  expect(await page.$eval("#monitor-address", (input) => (input as unknown as { value: string }).value)).toBe(
    "Schiedam",
  );
  expect(await textOf(page, "#monitor-place")).toBe(
    `Within 5 km of Schiedam (${schiedam.latitude.toFixed(5)}, ${schiedam.longitude.toFixed(5)}).`,
  );
  // Enter chose; it did not submit the form (which would say the name is missing).
  expect(await page.$eval("#monitor-name-error", (error) => error.hasAttribute("hidden"))).toBe(true);
  expect(new URL(page.url()).pathname).toBe("/console/monitors/new");
  // The circle is drawn there, the map zoomed to it.
  await mapIdle(page);
  expect(await pixelsOf(page, CIRCLE_RGB, 10)).toBeGreaterThan(200);
  expect(Number(await page.$eval(".monitor-map", (map) => map.getAttribute("data-zoom")))).toBeGreaterThan(9);
  await screenshot(page, "console-monitors-address-chosen");

  await page.type("#monitor-name", "Around Schiedam");
  await page.click("#monitor-form button[type=submit]");
  await page.waitForFunction("/^\\/console\\/monitors\\/[0-9a-f-]{36}$/.test(location.pathname)");
  const { rows } = await ctx.db.asOwner("select latitude, longitude, radius from app_public.monitors");
  expect(rows).toEqual([{ latitude: schiedam.latitude, longitude: schiedam.longitude, radius: 5 }]);
  expect(problems).toEqual([]);
});

test("a postcode picked with the mouse; Escape closes the list, then empties the field; no match is said; a map click is a centre of its own", async () => {
  const { page, problems } = await open("/console/monitors/new?lang=en");
  await page.type("#monitor-address", "3111");
  const found = await waitUntil(
    () => options(page),
    (list) => list.some((text) => text.includes("Postcode")),
    "the postcode's suggestion",
  );
  const index = found.findIndex((text) => text.includes("Postcode"));
  expect(found[index]).toMatch(/^3111 ?AB.*Postcode · Schiedam/);
  await page.click(`#monitor-address-option-${index}`);
  const centre = await placed(page);
  expect(centre).toEqual({ lat: 51.917, lon: 4.3996 });
  expect(await textOf(page, "#monitor-place")).toMatch(/^Within 5 km of 3111 ?AB \(/);

  await typeInto(page, "#monitor-address", "Vlaard");
  await waitUntil(
    () => options(page),
    (list) => list.some((text) => text.startsWith("Vlaardingen")),
    "Vlaardingen",
  );
  await page.keyboard.press("Escape");
  expect(await attribute(page, "aria-expanded")).toBe("false");
  expect(await page.$eval("#monitor-address", (input) => (input as unknown as { value: string }).value)).toBe("Vlaard");
  // The centre stays where it was chosen.
  expect(await placed(page)).toEqual(centre);
  await page.keyboard.press("Escape");
  expect(await page.$eval("#monitor-address", (input) => (input as unknown as { value: string }).value)).toBe("");

  await page.type("#monitor-address", "Xyzzyq");
  await waitUntil(
    () => textOf(page, "#monitor-address-status"),
    (text) => text === "Nothing found for “Xyzzyq”.",
    "the search to say it found nothing",
  );
  expect(await options(page)).toEqual([]);

  // A click on the map: the centre is there, without the address's name; the field is emptied.
  await page.$eval(".monitor-map", (element) => element.scrollIntoView({ block: "center" }));
  await mapIdle(page);
  const box = (await (await page.$(".monitor-map"))!.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  expect(await textOf(page, "#monitor-place")).toMatch(/^Within 5 km of \d+\.\d+, \d+\.\d+\.$/);
  expect(await page.$eval("#monitor-address", (input) => (input as unknown as { value: string }).value)).toBe("");
  expect(problems).toEqual([]);
});

test("in Dutch on a phone, in the dark", async () => {
  const { page, problems } = await open("/console/monitors/new", {
    viewport: PHONE,
    language: "nl-NL,nl;q=0.9",
    colorScheme: "dark",
  });
  await page.locator(COMBOBOX("Adres of plaats")).wait();
  await page.type("#monitor-address", "Schiedam");
  await waitUntil(
    () => options(page),
    (list) => list[0] === "SchiedamPlaats · Zuid-Holland",
    "the Dutch suggestion",
  );
  expect(await textOf(page, "#monitor-address-status")).toMatch(/^\d+ suggesties?\.$/);
  await page.$eval("#monitor-address", (element) => element.scrollIntoView({ block: "start" }));
  await screenshot(page, "console-monitors-address-phone-dark");
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.keyboard.press("Enter");
  expect(await textOf(page, "#monitor-place")).toMatch(/^Binnen 5 km van Schiedam \(/);
  expect(problems).toEqual([]);
});
