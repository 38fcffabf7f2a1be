// The live map with more incidents than one page of the API (issue 31: "the map with 500
// incidents"): the page asks for five pages of p2000Dossiers at once and shows the newest 500;
// a live message adds the newest and the oldest leaves, so a page left open does not grow.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import type { Browser, Page } from "puppeteer-core";
import { launchBrowser, LAUNCH_TIMEOUT, newWatchedPage, screenshot } from "../helpers/browser.ts";
import { storeP2000Pages, type P2000Page } from "../helpers/p2000.ts";
import { useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService();
const STORED = 520;
const SHOWN = 500;
const now = Date.now();
let browser: Browser | undefined;
let places: string[] = [];

/** An ambulance call in a place with its own bon number: a dossier of its own, `minutesAgo` old. */
const call = (index: number, minutesAgo: number): P2000Page => ({
  message: `A2 AMBU 17101 Dorpsstraat ${places[index]} bon ${700000 + index}`,
  sended: new Date(now - minutesAgo * 60_000).toISOString(),
  capcodes: ["001420007"],
});

beforeAll(async () => {
  const { rows } = await ctx.db.asOwner<{ name: string }>(
    `select name from app_public.places where region_uuid is not null and name !~ '[^[:alpha:] .'']'
      group by name order by max(population) desc nulls last, name limit $1`,
    [STORED + 1],
  );
  places = rows.map((row) => row.name);
  // Oldest first: call i is STORED - i minutes old, so call STORED - 1 is the newest.
  await storeP2000Pages(
    ctx.db,
    places.slice(0, STORED).map((_, index) => call(index, STORED - index)),
  );
  // Every dossier on the map, so the counts below are the page's and not the geocoder's.
  await ctx.db.asOwner("update app_public.p2000_dossiers set latitude = 52.1, longitude = 5.1 where latitude is null");
  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  await browser?.close();
});

async function listedTexts(page: Page): Promise<string[]> {
  return page.$$eval("button.incident", (buttons) => buttons.map((button) => button.textContent ?? ""));
}

test("the newest 500 of 520 incidents are listed; a live one is added on top and the oldest leaves", async () => {
  const { page, problems } = await newWatchedPage(browser!);
  await page.goto(new URL("/?lang=en&off=traffic,weather,alerts,aircraft", ctx.service.url).href);
  let texts = await waitUntil(
    () => listedTexts(page),
    (found) => found.length === SHOWN,
    "500 incidents in the list",
  );
  expect(await page.$eval(".incident-count", (element) => element.textContent)).toBe(`${SHOWN} incidents`);
  expect(texts[0]).toContain(`bon ${700000 + STORED - 1}`);
  expect(texts[SHOWN - 1]).toContain(`bon ${700000 + STORED - SHOWN}`);
  // Older than the newest 500: not on the page.
  expect(texts.some((text) => text.includes(`bon ${700000 + STORED - SHOWN - 1}`))).toBe(false);
  await page.locator(".map[data-idle='true']").wait();
  await screenshot(page, "map-500-incidents");

  await storeP2000Pages(ctx.db, [call(STORED, 0)]);
  texts = await waitUntil(
    () => listedTexts(page),
    (found) => found[0]?.includes(`bon ${700000 + STORED}`) ?? false,
    "the live incident on top",
  );
  expect(texts).toHaveLength(SHOWN);
  expect(texts.some((text) => text.includes(`bon ${700000 + STORED - SHOWN}`))).toBe(false);
  expect(problems).toEqual([]);
  await page.close();
});
