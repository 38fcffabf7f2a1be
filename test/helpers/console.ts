// The console in Chromium for a person who is signed in already: the session the console keeps
// (web/src/account/session.ts: localStorage "nlis.session") put in place before the page's script
// runs, so a test starts at the screen it is about. The sign-in itself is tested through its form
// (test/web/console-account.test.ts).
import type { Browser, Page } from "puppeteer-core";
import { newWatchedPage, type WatchedPage } from "./browser.ts";
import type { TestUser } from "./users.ts";

/** Where the console keeps its session (the key web/src/account/session.ts uses). */
export const SESSION_KEY = "nlis.session";

export async function openConsoleAs(
  browser: Browser,
  baseUrl: string,
  user: Pick<TestUser, "accessToken" | "refreshToken">,
  path: string,
  options: Parameters<typeof newWatchedPage>[1] = {},
): Promise<WatchedPage> {
  const watched = await newWatchedPage(browser, options);
  const session = {
    accessToken: user.accessToken,
    refreshToken: user.refreshToken,
    // The access token's own expiry is read by the page from the JWT when it refreshes; 15 minutes.
    expiresAt: Date.now() + 14 * 60_000,
  };
  // Only on the service's origin, and only once (a reload keeps what the page stored since).
  await watched.page.evaluateOnNewDocument(
    `if (location.origin === ${JSON.stringify(new URL(baseUrl).origin)} && !sessionStorage.getItem("test.seeded")) {
       sessionStorage.setItem("test.seeded", "1");
       localStorage.setItem(${JSON.stringify(SESSION_KEY)}, ${JSON.stringify(JSON.stringify(session))});
     }`,
  );
  await watched.page.goto(new URL(path, baseUrl).href, { waitUntil: "load" });
  return watched;
}

// The monitor form's map (web/src/console/monitors/circle-map.ts), as a person uses it.

/** An element's text. */
export const textOf = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent ?? "");

/** The centre the form shows ("Within 5 km of 51.91234, 4.34567."). */
export async function placed(page: Page): Promise<{ lat: number; lon: number }> {
  const shown = await textOf(page, "#monitor-place");
  const match = /(-?\d+\.\d+), (-?\d+\.\d+)/.exec(shown);
  if (!match) throw new Error(`no centre shown: ${shown}`);
  return { lat: Number(match[1]), lon: Number(match[2]) };
}

const mercator = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));

/**
 * Clicks the map where a place is: two clicks at known pixels tell (from the centre the form then
 * shows) how the map's pixels run in longitude and in Web Mercator latitude.
 */
export async function clickMapAt(page: Page, target: { lat: number; lon: number }): Promise<void> {
  await page.$eval(".monitor-map", (element) => element.scrollIntoView({ block: "center" }));
  const box = (await (await page.$(".monitor-map"))!.boundingBox())!;
  const a = { x: box.x + box.width * 0.3, y: box.y + box.height * 0.3 };
  const b = { x: box.x + box.width * 0.7, y: box.y + box.height * 0.7 };
  await page.mouse.click(a.x, a.y);
  const at = await placed(page);
  await page.mouse.click(b.x, b.y);
  const bt = await placed(page);
  const x = a.x + ((target.lon - at.lon) / (bt.lon - at.lon)) * (b.x - a.x);
  const y = a.y + ((mercator(target.lat) - mercator(at.lat)) / (mercator(bt.lat) - mercator(at.lat))) * (b.y - a.y);
  await page.mouse.click(x, y);
}

export async function typeInto(page: Page, selector: string, value: string): Promise<void> {
  // Select what is there and type over it, as a person does (the input events fire).
  await page.click(selector, { count: 3 });
  await page.keyboard.press("Backspace");
  if (value) await page.type(selector, value);
}

export async function mapIdle(page: Page): Promise<void> {
  await page.waitForSelector('.monitor-map[data-idle="true"]');
  await new Promise((resolve) => setTimeout(resolve, 300));
}

/**
 * On the open monitor form, as a person fills it: the name, a circle of `radiusKm` around `centre`
 * clicked on the map, the channel named `channel` ticked, then the preview asked. Returns the
 * preview's count line ("1 match in the past 30 days …").
 */
export async function fillCircleMonitor(
  page: Page,
  monitor: { name: string; centre: { lat: number; lon: number }; radiusKm: number; channel: string },
): Promise<string> {
  await page.waitForSelector("#monitor-form");
  await page.type("#monitor-name", monitor.name);
  await mapIdle(page);
  await clickMapAt(page, monitor.centre);
  await typeInto(page, "#monitor-radius", String(monitor.radiusKm));
  await page.$$eval(
    ".monitor-channels label",
    (labels, channel) =>
      labels
        .find((label) => label.textContent?.includes(channel))
        ?.querySelector("input")
        ?.click(),
    monitor.channel,
  );
  await page.click(".monitor-preview-button");
  await page.waitForSelector("#monitor-preview:not([hidden])");
  return textOf(page, ".monitor-preview-count");
}
