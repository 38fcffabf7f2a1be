// Issue 31, part 3: the dashboards in Chromium, on data stored through the real ingestion paths
// (P2000 pages through the FLEX reader's statement, KNMI warnings documents, readsb aircraft.json
// documents). Every chart is on the page with its table, and the table's numbers are the API's for
// the same arguments; the safety-region choice in the URL narrows the P2000 charts and survives a
// reload; a phone has no horizontal scroll; errors and "no data" are said; axe finds nothing serious.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser, ElementHandle, HTTPRequest, Page } from "puppeteer-core";
import { pollAircraftOnce } from "../../lib/feeds/aircraft/poll.ts";
import { flightDocuments } from "../../lib/feeds/aircraft/sample-documents.ts";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml, type SampleWarning } from "../../lib/feeds/meteo/sample-documents.ts";
import {
  launchBrowser,
  LAUNCH_TIMEOUT,
  newWatchedPage,
  PHONE,
  screenshot,
  seriousAxeViolations,
} from "../helpers/browser.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { storeP2000Pages, type P2000Page } from "../helpers/p2000.ts";
import { useTestService } from "../helpers/service.ts";

const ctx = useTestService();
let browser: Browser | undefined;
let feed: FeedServer;
/** The credential the page reads with (the service's web-client token), for the test's own queries. */
let token: string;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.now();

/** Realistic pages of three regions, disciplines and urgencies, spread over the last three weeks. */
const TEMPLATES: Array<{ text: (n: number) => string; capcodes: string[] }> = [
  { text: (n) => `A1 Ambulance Kerkstraat Utrecht bon ${81000 + n}`, capcodes: ["0923002"] },
  { text: (n) => `P 1 BDH-01 Brand woning Dorpsstraat Utrecht ${91000 + n}`, capcodes: ["0923001"] },
  { text: (n) => `A2 Ambulance Coolsingel Rotterdam bon ${17000 + n}`, capcodes: ["1420001"] },
  { text: (n) => `P 2 BRT-02 Buitenbrand Blaak Rotterdam ${171000 + n}`, capcodes: ["1400001"] },
  { text: (n) => `B1 Ambulance Damrak Amsterdam bon ${13000 + n}`, capcodes: ["0120001"] },
];
const pages: P2000Page[] = Array.from({ length: 40 }, (_, i) => {
  const template = TEMPLATES[i % TEMPLATES.length];
  // Days 8 to 21 back, at hours all over the day: nothing in the last week, so "7 days" has no P2000 data.
  const sent = new Date(now - (8 + (i % 14)) * DAY - ((i * 5) % 24) * HOUR);
  return { message: template.text(i), sended: sent.toISOString(), capcodes: template.capcodes };
});

beforeAll(async () => {
  token = ((await (await fetch(new URL("/web/config.json", ctx.service.url))).json()) as { apiToken: string }).apiToken;
  await storeP2000Pages(ctx.db, pages);

  // KNMI: orange wind in Utrecht ten days ago; yellow rain in Noord-Holland and Zuid-Holland three days ago.
  for (const [daysAgo, warning] of [
    [10, { phenomenon: "wind", locations: ["UT"], status: 2 as const, text: "Zware windstoten." }],
    [3, { phenomenon: "rain", locations: ["NH", "ZH"], status: 1 as const, text: "Veel regen." }],
  ] satisfies Array<[number, Omit<SampleWarning, "from" | "to">]>) {
    const issued = new Date(Math.floor((now - daysAgo * DAY) / HOUR) * HOUR);
    await ingestMeteoDocument(
      ctx.service.ownerPool,
      warningsXml(issued, [{ ...warning, from: issued, to: new Date(issued.getTime() + 6 * HOUR) }], "dashboards"),
      `dashboards ${daysAgo}`,
    );
  }

  // readsb: two helicopters of the fleet, one flying twice, through the real parser and state machine.
  feed = await startFeedServer();
  const { rows: fleet } = await ctx.db.asOwner(
    "select icao, registration from app_public.aircraft_fleet order by registration limit 2",
  );
  const url = `${feed.url}/data/aircraft.json`;
  const log = { info: () => {}, error: (message: string) => console.error(message) };
  for (const [aircraft, daysAgo] of [
    [fleet[0], 5],
    [fleet[0], 2],
    [fleet[1], 4],
  ] as const) {
    for (const document of flightDocuments({
      hex: aircraft.icao,
      flight: "LIFE1",
      registration: aircraft.registration,
      from: { lat: 52.3728, lon: 4.8936 },
      to: { lat: 52.0907, lon: 5.1214 },
      start: new Date(now - daysAgo * DAY),
    })) {
      feed.documents.set("/data/aircraft.json", { body: document });
      await pollAircraftOnce(ctx.service.ownerPool, url, log);
    }
  }

  browser = await launchBrowser();
}, LAUNCH_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await feed?.stop();
});

async function gql(query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const { body } = await ctx.service.graphql(query, { token, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
}

/** The window of "the last N days" as the page computes it, independently: whole Amsterdam days up to today. */
function lastDays(days: number): { startDate: string; endDate: string; start: string; end: string } {
  const date = (instant: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(instant);
  const shift = (day: string, by: number) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + by * DAY).toISOString().slice(0, 10);
  const endDate = shift(date(now), 1);
  const startDate = shift(endDate, -days);
  return { startDate, endDate, start: amsterdamMidnight(startDate), end: amsterdamMidnight(endDate) };
}

function amsterdamMidnight(day: string): string {
  // Midnight in Amsterdam is the instant whose Amsterdam wall clock reads the date's 00:00.
  for (const offset of [1, 2]) {
    const instant = new Date(Date.parse(`${day}T00:00:00Z`) - offset * HOUR);
    const wall = new Intl.DateTimeFormat("sv-SE", {
      timeZone: "Europe/Amsterdam",
      dateStyle: "short",
      timeStyle: "short",
    }).format(instant);
    if (wall === `${day} 00:00`) return instant.toISOString();
  }
  throw new Error(`no midnight for ${day}`);
}

const longDay = (day: string) =>
  new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));
const month = (day: string) =>
  new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${day.slice(0, 10)}T00:00:00Z`),
  );
const weekday = (day: string) => (new Date(`${day.slice(0, 10)}T00:00:00Z`).getUTCDay() + 6) % 7;

/** A card by its heading (a region named by it), once it has drawn its table (or said why not). */
async function card(page: Page, title: string): Promise<ElementHandle> {
  const handle = await page.locator(`::-p-aria([name="${title}"][role="region"])`).waitHandle();
  await page.waitForFunction(
    (element) => element.querySelector("details table, .chart-empty, .chart-error") !== null,
    {},
    handle,
  );
  return handle;
}

/** The card's table as the screen reader gets it: rows of cell texts. */
async function tableRows(page: Page, title: string): Promise<string[][]> {
  const handle = await card(page, title);
  return handle.$$eval("details table tbody tr", (rows) =>
    rows.map((row: any) => [...row.cells].map((cell: any) => String(cell.textContent))),
  );
}

const number = (text: string) => Number(text.replace(/[^\d.-]/g, ""));

/** Rows whose last column (a count) is not zero, as "label=count". */
function nonZero(rows: string[][], countColumn = 1): string[] {
  return rows.filter((row) => number(row[countColumn]) > 0).map((row) => `${row[0]}=${number(row[countColumn])}`);
}

async function openDashboards(
  path: string,
  options: Parameters<typeof newWatchedPage>[1] = {},
): Promise<{ page: Page; problems: string[] }> {
  const watched = await newWatchedPage(browser!, { language: "en-GB,en;q=0.9", ...options });
  await watched.page.goto(new URL(path, ctx.service.url).href, { waitUntil: "load" });
  await watched.page.locator("::-p-aria([name='Dashboards'][role='heading'])").wait();

  return watched;
}

describe("the dashboards", () => {
  test("the stored data are what the tests expect: three regions, several urgencies", async () => {
    const { rows } = await ctx.db.asOwner(
      `select r.number, count(*)::int as n from app_public.p2000_messages m
         join app_public.p2000_regions r on r.uuid = m.region_uuid group by 1 order by 1`,
    );
    expect(rows.map((row: { number: string }) => row.number)).toEqual(["09", "13", "17"]);
  });

  test("every chart shows, with a table of the same numbers the API gives for the same arguments", async () => {
    const { page, problems } = await openDashboards("/dashboards?lang=en&period=30d");
    const window = lastDays(30);

    // Alerts per day: the daily roll-ups, and the statistics operation's count of the same window.
    const perDay = await gql(
      `query ($s: Date!, $e: Date!) { p2000DayCountFacts(dimension: "total", windowStart: $s, windowEnd: $e) {
        groupedAggregates(groupBy: [DAY]) { keys sum { messages } } } }`,
      { s: window.startDate, e: window.endDate },
    );
    const dayRows = await tableRows(page, "Alerts per day");
    expect(dayRows).toHaveLength(30);
    expect(dayRows[0][0]).toBe(longDay(window.startDate));
    expect(nonZero(dayRows).sort()).toEqual(
      perDay.p2000DayCountFacts.groupedAggregates
        .map((g: any) => `${longDay(g.keys[0].slice(0, 10))}=${Number(g.sum.messages)}`)
        .sort(),
    );
    const { p2000MessagesCount } = await gql(`query ($f: P2000MessageFilterInput) { p2000MessagesCount(filter: $f) }`, {
      f: { sended: { from: window.start, to: window.end } },
    });
    expect(dayRows.reduce((sum, row) => sum + number(row[1]), 0)).toBe(p2000MessagesCount);
    expect(p2000MessagesCount).toBe(pages.length);

    // Alerts per safety region.
    const perRegion = await gql(
      `query ($s: Date!, $e: Date!) { p2000DayCountFacts(dimension: "region", windowStart: $s, windowEnd: $e) {
        groupedAggregates(groupBy: [NAME]) { keys sum { messages } } } }`,
      { s: window.startDate, e: window.endDate },
    );
    expect(nonZero(await tableRows(page, "Alerts per safety region")).sort()).toEqual(
      perRegion.p2000DayCountFacts.groupedAggregates.map((g: any) => `${g.keys[0]}=${Number(g.sum.messages)}`).sort(),
    );

    // Hour of the day by weekday: the message facts by Amsterdam day and hour, summed per weekday.
    const hours = await gql(
      `query ($s: DateTime!, $e: DateTime!) { p2000MessageFacts(windowStart: $s, windowEnd: $e) {
        groupedAggregates(groupBy: [SENT_DAY, SENT_HOUR_OF_DAY]) { keys distinctCount { uuid } } } }`,
      { s: window.start, e: window.end },
    );
    const grid = Array.from({ length: 24 }, () => new Array<number>(7).fill(0));
    for (const g of hours.p2000MessageFacts.groupedAggregates) {
      grid[Number(g.keys[1])][weekday(g.keys[0])] += Number(g.distinctCount.uuid);
    }
    const hourRows = await tableRows(page, "Hour of the day by weekday");
    expect(hourRows.map((row) => row.slice(1).map(number))).toEqual(grid);
    expect(hourRows[0][0]).toBe("00:00");

    // Urgency mix.
    const urgency = await gql(
      `query ($s: DateTime!, $e: DateTime!) { p2000MessageFacts(windowStart: $s, windowEnd: $e) {
        groupedAggregates(groupBy: [URGENCY]) { keys distinctCount { uuid } } } }`,
      { s: window.start, e: window.end },
    );
    const urgencyRows = await tableRows(page, "Urgency mix");
    expect(nonZero(urgencyRows).sort()).toEqual(
      urgency.p2000MessageFacts.groupedAggregates
        .map((g: any) => `${g.keys[0] ?? "Unknown"}=${Number(g.distinctCount.uuid)}`)
        .sort(),
    );
    expect(urgencyRows.length).toBeGreaterThanOrEqual(3);

    // Weather warning days per province and month, from the first of the window's month.
    const warnings = await gql(
      `query ($s: Date!, $e: Date!) { meteoWarningDayFacts(windowStart: $s, windowEnd: $e, byProvince: true) {
        groupedAggregates(groupBy: [PROVINCE, MONTH]) { keys distinctCount { day } } } }`,
      { s: `${window.startDate.slice(0, 7)}-01`, e: window.endDate },
    );
    const warningRows = await tableRows(page, "Weather warning days per province");
    expect(warningRows.map((row) => `${row[0]} ${row[1]}=${number(row[5])}`).sort()).toEqual(
      warnings.meteoWarningDayFacts.groupedAggregates
        .map((g: any) => `${g.keys[0]} ${month(g.keys[1])}=${Number(g.distinctCount.day)}`)
        .sort(),
    );
    expect(warningRows.map((row) => row[0]).sort()).toEqual(["Noord-Holland", "Utrecht", "Zuid-Holland"]);

    // Flights per helicopter: the statistics operation of the fleet.
    const { aircraftStatistics } = await gql(`{ aircraftStatistics { registration flights flightHours } }`);
    const flown = aircraftStatistics.filter((a: any) => a.flights > 0);
    const flightRows = await tableRows(page, "Flights per helicopter");
    expect(flightRows.map((row) => `${row[0]}=${number(row[2])}`).sort()).toEqual(
      flown.map((a: any) => `${a.registration}=${a.flights}`).sort(),
    );
    expect(flown.map((a: any) => a.flights).sort()).toEqual([1, 2]);

    // Each chart has its heading, its description and its drawing (a canvas, or the shaded grid).
    const drawn = await page.$$eval("section.chart-card", (sections) =>
      sections.map((s) => ({
        description: s.querySelector(".chart-description")?.textContent ?? "",
        drawing: s.querySelector(".chart-box canvas, .chart-box table") !== null,
      })),
    );
    expect(drawn).toHaveLength(6);
    for (const chart of drawn) {
      expect(chart.description.length).toBeGreaterThan(20);
      expect(chart.drawing).toBe(true);
    }
    await screenshot(page, "dashboards-desktop");
    // The lower charts (the page scrolls in its main region, not the window).
    await (await card(page, "Weather warning days per province")).evaluate((element) => element.scrollIntoView());
    await screenshot(page, "dashboards-desktop-lower");
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  test("the region chosen narrows the P2000 charts, goes into the URL with lang kept, and survives a reload", async () => {
    const { page, problems } = await openDashboards("/dashboards?lang=en&period=30d");
    await card(page, "Alerts per day");
    await page.locator("::-p-aria([name='Safety region'][role='combobox'])").wait();
    await page.waitForFunction(`document.querySelectorAll("#dash-region option").length > 20`);
    await page.select("#dash-region", "09");
    const query = new URL(page.url()).searchParams;
    expect(query.get("region")).toBe("09");
    expect(query.get("lang")).toBe("en");
    expect(query.get("period")).toBe("30d");

    const window = lastDays(30);
    const utrecht = await gql(
      `query ($s: Date!, $e: Date!) { p2000DayCountFacts(dimension: "region", windowStart: $s, windowEnd: $e) {
        groupedAggregates(groupBy: [DAY, NAME]) { keys sum { messages } } } }`,
      { s: window.startDate, e: window.endDate },
    );
    const expected = utrecht.p2000DayCountFacts.groupedAggregates
      .filter((g: any) => g.keys[1] === "Utrecht")
      .map((g: any) => `${longDay(g.keys[0].slice(0, 10))}=${Number(g.sum.messages)}`)
      .sort();
    const narrowed = async () => {
      await page.waitForFunction(
        `document.querySelector("[data-chart='alerts-per-day'] .chart-description")?.textContent.includes("Utrecht")`,
      );
      const days = nonZero(await tableRows(page, "Alerts per day")).sort();
      const urgencies = await tableRows(page, "Urgency mix");
      const hourTotal = (await tableRows(page, "Hour of the day by weekday"))
        .flatMap((row) => row.slice(1).map(number))
        .reduce((a, b) => a + b, 0);
      return { days, urgencies: urgencies.map((row) => row[0]).sort(), hourTotal };
    };
    const utrechtCount = pages.filter((p) => p.message.includes("Utrecht")).length;
    const before = await narrowed();
    expect(before.days).toEqual(expected);
    expect(before.urgencies).toEqual(["A1", "P1"]);
    expect(before.hourTotal).toBe(utrechtCount);

    await screenshot(page, "dashboards-region-utrecht");

    await page.reload({ waitUntil: "load" });
    await page.locator("::-p-aria([name='Dashboards'][role='heading'])").wait();
    await page.waitForFunction(`document.querySelector("#dash-region").value === "09"`);
    expect(await narrowed()).toEqual(before);
    expect(new URL(page.url()).searchParams.get("region")).toBe("09");
    expect(problems).toEqual([]);
    await page.close();
  });

  test("a phone gets one column and no horizontal scroll, in the dark scheme too; a period without data says so", async () => {
    const { page, problems } = await openDashboards("/dashboards?lang=nl&period=7d", {
      viewport: PHONE,
      colorScheme: "dark",
    });
    // Dutch, and nothing in the last seven days: the P2000 charts say so instead of an empty axis.
    const empty = await card(page, "Meldingen per dag");
    expect(await empty.$eval(".chart-empty", (p) => p.textContent)).toBe("Nog geen gegevens voor deze keuze.");
    await card(page, "Vluchten per helikopter");
    await card(page, "Weerwaarschuwingsdagen per provincie");
    const width = (await page.evaluate(`({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
      columns: getComputedStyle(document.querySelector(".dash-grid")).gridTemplateColumns.split(" ").length,
    })`)) as { scroll: number; inner: number; columns: number };
    expect(width.scroll).toBeLessThanOrEqual(width.inner);
    expect(width.columns).toBe(1);
    await screenshot(page, "dashboards-phone-dark");
    expect(await seriousAxeViolations(page)).toEqual([]);

    // With a month of data the widest parts (the hour grid, the province grid) still fit or scroll
    // inside their card, never the page.
    await page.select("#dash-period", "30d");
    expect(new URL(page.url()).searchParams.get("lang")).toBe("nl");
    const grid = await card(page, "Uur van de dag per weekdag");
    expect(await grid.$(".chart-box table")).not.toBeNull();
    await card(page, "Weerwaarschuwingsdagen per provincie");
    expect(await page.evaluate(`document.documentElement.scrollWidth`)).toBeLessThanOrEqual(PHONE.width);
    await grid.evaluate((element) => element.scrollIntoView());
    await screenshot(page, "dashboards-phone-dark-grid");
    expect(problems).toEqual([]);
    await page.close();
  });

  test("the dark scheme on a wide screen, this year counted per week", async () => {
    const { page, problems } = await openDashboards("/dashboards?lang=en&period=year", { colorScheme: "dark" });
    // A year is counted by week (a year of days per region would be thousands of groups); every
    // stored message is in one of them (the earliest is three weeks back, within this year in the test's clock).
    const weeks = await tableRows(page, "Alerts per week");
    // From the Monday of 1 January's week up to this week (the year so far, not the whole year).
    const { endDate } = lastDays(1);
    const january = `${endDate.slice(0, 4)}-01-01`;
    const firstMonday = Date.parse(`${january}T00:00:00Z`) - weekday(january) * DAY;
    expect(weeks.length).toBe(Math.ceil((Date.parse(`${endDate}T00:00:00Z`) - firstMonday) / (7 * DAY)));
    expect(weeks[0][0]).toBe(longDay(new Date(firstMonday).toISOString().slice(0, 10)));
    expect(weeks.reduce((sum, row) => sum + number(row[1]), 0)).toBe(
      pages.filter((p) => p.sended.slice(0, 4) === new Date(now).toISOString().slice(0, 4)).length,
    );
    for (const title of [
      "Alerts per safety region",
      "Urgency mix",
      "Hour of the day by weekday",
      "Flights per helicopter",
    ]) {
      await card(page, title);
    }
    // The charts draw in the dark scheme's colours, read from the stylesheet.
    expect(await page.evaluate(`getComputedStyle(document.documentElement).getPropertyValue("--fg").trim()`)).toBe(
      "#e6edf3",
    );
    await screenshot(page, "dashboards-desktop-dark");
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  test("a rate-limited API is said as such with a retry that loads the chart", async () => {
    const { page, problems } = await newWatchedPage(browser!, { language: "en-GB" });
    let limited = true;
    // The API answers 429 until lifted; every other request goes through.
    await page.setRequestInterception(true);
    page.on("request", (request: HTTPRequest) => {
      if (limited && new URL(request.url()).pathname === "/graphql") {
        void request.respond({ status: 429, contentType: "application/json", body: "{}" });
      } else void request.continue();
    });
    await page.goto(new URL("/dashboards?lang=en&period=30d", ctx.service.url).href, { waitUntil: "load" });
    const flights = await card(page, "Flights per helicopter");
    expect(await flights.$eval("[role='alert']", (alert) => alert.textContent)).toContain("Too many requests");
    limited = false;
    await page
      .locator("::-p-aria([name='Flights per helicopter'][role='region']) ::-p-aria([name='Try again'][role='button'])")
      .click();
    await page.waitForFunction(
      `document.querySelector("[data-chart='flights-per-helicopter'] details table") !== null`,
    );
    // Chromium reports each 429 on the console; those were the point of this test.
    expect(problems.filter((problem) => !problem.includes("429"))).toEqual([]);
    await page.close();
  });
});
