// The public calendars over real HTTP, read by Mozilla's iCalendar parser (ical.js), with rail
// works and weather warnings stored as their feeds store them (NS's list through the rail parser,
// KNMI's XML through the meteo ingestion): a province's calendar holds only what lies in it (works
// by their stations, warnings by province), the country's holds all; UIDs stay the same across
// fetches and when the item changes (a higher SEQUENCE then), withdrawn works turn CANCELLED; an
// unchanged calendar answers 304 to its ETag; an unknown province is 404 and a language we do not
// write 400. The test NL-Alert's dates are checked against the tests the government sent, and its
// events against fixed days (the calendar made for a given moment), as the window moves with the clock.
import { beforeAll, describe, expect, test } from "@jest/globals";
import ICAL from "ical.js";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml } from "../../lib/feeds/meteo/sample-documents.ts";
import { parseRailDisruptions } from "../../lib/feeds/rail/disruptions-parser.ts";
import { storeRailDisruptions } from "../../lib/feeds/rail/poll.ts";
import { railDisruptionsSample } from "../../lib/feeds/rail/sample-documents.ts";
import { calendarWindow } from "../../lib/open-data/calendars/items.ts";
import { nlAlertTestDay, nlAlertTests } from "../../lib/open-data/calendars/nl-alert-tests.ts";
import { provinceCalendar } from "../../lib/open-data/calendars/province-calendar.ts";
import { FEEDS_OFF, useTestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

// The calendar's name is TEXT (RFC 7986 NAME; X-WR-CALNAME and X-WR-CALDESC by custom): ical.js
// knows neither, and would hand over their escapes unread.
for (const property of ["name", "x-wr-calname", "x-wr-caldesc"]) {
  ICAL.design.icalendar.property[property] = { defaultType: "text" };
}

const ctx = useTestService(() => ({
  feeds: FEEDS_OFF,
  // The service keeps calendars in its response cache: on here, as in production.
  api: { responseCache: { maxBytes: 64 * 1024 * 1024, maxAgeMs: 60_000 } },
}));

const HOUR = 3_600_000;
const now = new Date();
const wholeHour = Math.floor(now.getTime() / HOUR) * HOUR;

interface Event {
  uid: string;
  summary: string;
  start: number;
  end: number | undefined;
  sequence: number;
  status: string | null;
  lastModified: string;
  categories: string[];
}

interface Calendar {
  name: string;
  refresh: string;
  events: Event[];
}

function parse(text: string): Calendar {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return {
    name: String(calendar.getFirstPropertyValue("x-wr-calname")),
    refresh: String(calendar.getFirstPropertyValue("refresh-interval")),
    events: calendar.getAllSubcomponents("vevent").map((vevent) => {
      const event = new ICAL.Event(vevent);
      return {
        uid: event.uid,
        summary: event.summary,
        start: event.startDate.toJSDate().getTime(),
        end: vevent.hasProperty("dtend") ? event.endDate.toJSDate().getTime() : undefined,
        sequence: event.sequence,
        status: vevent.getFirstPropertyValue("status") as string | null,
        lastModified: String(vevent.getFirstPropertyValue("last-modified")),
        categories: vevent.getAllProperties("categories").flatMap((p) => p.getValues() as string[]),
      };
    }),
  };
}

async function get(path: string, headers: Record<string, string> = {}) {
  return fetch(`${ctx.service.url}${path}`, { headers });
}

async function calendar(path: string): Promise<Calendar> {
  const response = await get(path);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
  return parse(await response.text());
}

const nlAlertTestEvents = (c: Calendar) => c.events.filter((e) => e.summary === "NL-Alert controlebericht");
const summaries = (c: Calendar) => c.events.map((e) => e.summary);
const eventWith = (c: Calendar, words: string) => c.events.find((e) => e.summary.includes(words));

/** NS's list of the sample (Assen – Groningen works) plus works in Noord-Holland, as `end` says. */
function railList(amsterdamWorks: { end: Date } | undefined): string {
  const items = JSON.parse(railDisruptionsSample(now));
  const works = items.find((item: { type: string }) => item.type === "MAINTENANCE");
  if (amsterdamWorks) {
    const station = (stationCode: string, name: string) => ({ uicCode: "0", stationCode, name, countryCode: "NL" });
    items.push({
      ...works,
      id: "7001111",
      title: "Amsterdam Centraal-Amsterdam Amstel",
      end: amsterdamWorks.end.toISOString(),
      publicationSections: [
        {
          section: { stations: [station("ASD", "Amsterdam Centraal"), station("ASA", "Amsterdam Amstel")] },
          direction: "BOTH",
        },
      ],
    });
  }
  return JSON.stringify(items);
}

async function storeRail(amsterdamWorks: { end: Date } | undefined) {
  await storeRailDisruptions(ctx.service.ownerPool, parseRailDisruptions(railList(amsterdamWorks)), "test");
}

/** Orange for wind in Noord-Holland from the next hour for `hours` hours, in a document issued now. */
async function storeWind(hours: number) {
  const from = new Date(wholeHour + HOUR);
  const to = new Date(from.getTime() + (hours - 1) * HOUR);
  const xml = warningsXml(
    new Date(wholeHour),
    [{ phenomenon: "wind", locations: ["NH"], from, to, status: 2, text: "Zware windstoten tot 100 km/u." }],
    `wind ${hours}h`,
  );
  await ingestMeteoDocument(ctx.service.ownerPool, xml, "test");
}

const worksStart = wholeHour + 72 * HOUR;
const firstEnd = new Date(worksStart + 10 * HOUR);

beforeAll(async () => {
  await storeRail({ end: firstEnd });
  await storeWind(6);
  await ctx.service.workerIdle();
});

describe("a province's calendar", () => {
  test("holds the planned works with a station in it and its warnings, nothing of other provinces", async () => {
    const holland = await calendar("/calendars/provinces/noord-holland.ics");
    expect(holland.name).toBe("Spoor, weer en NL-Alert – Noord-Holland");
    expect(holland.refresh).toBe("PT1H");
    const works = eventWith(holland, "Amsterdam Centraal-Amsterdam Amstel")!;
    expect(works).toMatchObject({
      summary: "Werkzaamheden spoor: Amsterdam Centraal-Amsterdam Amstel",
      start: worksStart,
      end: firstEnd.getTime(),
      status: "CONFIRMED",
      categories: ["Spoor"],
    });
    const wind = eventWith(holland, "Code oranje")!;
    expect(wind).toMatchObject({
      summary: "Code oranje: Wind – Noord-Holland",
      start: wholeHour + HOUR,
      end: wholeHour + 7 * HOUR,
      categories: ["Weer"],
    });
    expect(eventWith(holland, "Assen-Groningen")).toBeUndefined();

    // Assen lies in Drenthe, the rest of the stretch in Groningen: the works are in both.
    for (const province of ["groningen", "drenthe"]) {
      const other = await calendar(`/calendars/provinces/${province}.ics`);
      expect(summaries(other)).toContain("Werkzaamheden spoor: Assen-Groningen");
      expect(eventWith(other, "Amsterdam")).toBeUndefined();
      expect(eventWith(other, "Code oranje")).toBeUndefined();
    }
  });

  test("the country's holds every province's", async () => {
    const country = await calendar("/calendars/netherlands.ics");
    expect(country.name).toBe("Spoor, weer en NL-Alert – Nederland");
    expect(summaries(country)).toEqual(
      expect.arrayContaining([
        "Werkzaamheden spoor: Assen-Groningen",
        "Werkzaamheden spoor: Amsterdam Centraal-Amsterdam Amstel",
        "Code oranje: Wind – Noord-Holland",
      ]),
    );
    // Unplanned disruptions and calamities are not planned works.
    expect(eventWith(country, "Treinstoring")).toBeUndefined();
    expect(eventWith(country, "Calamiteit")).toBeUndefined();
  });

  test("says itself in English with ?lang=en", async () => {
    const english = await calendar("/calendars/provinces/noord-holland.ics?lang=en");
    expect(english.name).toBe("Rail, weather and NL-Alert – Noord-Holland");
    expect(summaries(english)).toEqual(
      expect.arrayContaining(["Rail works: Amsterdam Centraal-Amsterdam Amstel", "Code orange: wind – Noord-Holland"]),
    );
  });

  test("holds the test NL-Alerts of its window", async () => {
    // The window moves with the clock: the server's is the one of a moment between the test's
    // start (a calendar kept since) and now.
    const before = nlAlertTests(calendarWindow(now));
    const country = await calendar("/calendars/netherlands.ics");
    const after = nlAlertTests(calendarWindow(new Date()));
    const starts = nlAlertTestEvents(country).map((e) => new Date(e.start).toISOString());
    expect([before, after].map((items) => items.map((item) => item.startsAt))).toContainEqual(starts);
  });
});

describe("the test NL-Alert", () => {
  const amsterdamTime = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Amsterdam",
    dateStyle: "full",
    timeStyle: "short",
  });

  /** The country's calendar as the service makes it at `now`. */
  async function countryAt(now: string): Promise<Calendar> {
    const body = await provinceCalendar(ctx.service.ownerPool, null, "nl", "https://example.org/c.ics", new Date(now));
    return parse(body!);
  }

  test("is in the calendar when it falls in the window, tentative, for 15 minutes from 12:00 Amsterdam time", async () => {
    for (const [now, expected] of [
      // A week after June's test (CEST), and 17 days before December's (CET).
      ["2026-06-05T12:00:00Z", ["Monday, 1 June 2026 at 12:00"]],
      ["2026-11-20T12:00:00Z", ["Monday, 7 December 2026 at 12:00"]],
      // Neither: the window is the past week and the next 90 days.
      ["2026-06-09T12:00:00Z", []],
      ["2026-08-01T12:00:00Z", []],
    ] as const) {
      const events = nlAlertTestEvents(await countryAt(now));
      expect([now, events.map((e) => amsterdamTime.format(new Date(e.start)))]).toEqual([now, expected]);
      for (const event of events) {
        expect(event).toMatchObject({ status: "TENTATIVE", end: event.start + 15 * 60_000, categories: ["NL-Alert"] });
      }
    }
  });

  test("falls on the days the government sent it", () => {
    // First Mondays at 12:00, a week later where that Monday was Whit Monday (2020, 2022).
    const sent = ["2017-12-04", "2019-06-03", "2019-12-02", "2020-06-08", "2022-06-13", "2024-12-02", "2025-12-01"];
    for (const day of sent) {
      const [year, month] = day.split("-").map(Number);
      expect(
        nlAlertTestDay(year, month === 6 ? 5 : 11)
          .toISOString()
          .slice(0, 10),
      ).toBe(day);
    }
  });
});

describe("updates", () => {
  test("keeps UIDs across fetches, answers 304 to its ETag, and a changed item keeps its UID with a higher SEQUENCE", async () => {
    const path = "/calendars/provinces/noord-holland.ics";
    const first = await get(path);
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("cache-control")).toBe("public, max-age=600");
    const before = parse(await first.text());
    const again = await get(path, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(parse(await (await get(path)).text()).events).toEqual(before.events);

    // A second later (SEQUENCE counts seconds): NS moves the works' end, KNMI makes the wind last longer.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const laterEnd = new Date(firstEnd.getTime() + 4 * HOUR);
    await storeRail({ end: laterEnd });
    await storeWind(9);
    // Read again once the service hears of the changes.
    const changed = await waitUntil(
      () => get(path, { "if-none-match": etag }),
      (response) => response.status !== 304,
      "the changed calendar",
    );
    expect(changed.status).toBe(200);
    const after = parse(await changed.text());
    expect(after.events).toHaveLength(before.events.length);
    for (const [words, end] of [
      ["Amsterdam", laterEnd.getTime()],
      ["Code oranje", wholeHour + 10 * HOUR],
    ] as const) {
      const old = eventWith(before, words)!;
      const now = eventWith(after, words)!;
      expect(now.uid).toBe(old.uid);
      expect(now.end).toBe(end);
      expect(now.sequence).toBeGreaterThan(old.sequence);
      expect(Date.parse(now.lastModified)).toBeGreaterThan(Date.parse(old.lastModified));
    }

    // NS withdraws the works before they begin: the same event, cancelled.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await storeRail(undefined);
    const withdrawn = eventWith(
      await waitUntil(
        () => calendar(path),
        (c) => eventWith(c, "Amsterdam")?.status === "CANCELLED",
        "the withdrawn works",
      ),
      "Amsterdam",
    )!;
    expect(withdrawn).toMatchObject({
      uid: eventWith(after, "Amsterdam")!.uid,
      summary: "Vervallen: Werkzaamheden spoor: Amsterdam Centraal-Amsterdam Amstel",
      status: "CANCELLED",
    });
    expect(withdrawn.sequence).toBeGreaterThan(eventWith(after, "Amsterdam")!.sequence);
  });
});

describe("bad requests", () => {
  test("an unknown province is 404, a malformed name 404, an unknown language 400, in plain words", async () => {
    for (const [path, status] of [
      ["/calendars/provinces/atlantis.ics", 404],
      ["/calendars/provinces/Noord-Holland.ics", 404],
      ["/calendars/provinces/noord-holland.json", 404],
      ["/calendars/provinces/noord-holland.ics?lang=fr", 400],
      ["/calendars/netherlands.ics?lang=en&lang=nl", 400],
    ] as const) {
      const response = await get(path);
      expect([path, response.status]).toEqual([path, status]);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await response.text()).not.toMatch(/select|error:/i);
    }
  });
});

describe("kept by the service", () => {
  test("until the data it read changes", async () => {
    const path = "/calendars/netherlands.ics";
    expect(summaries(await calendar(path))).toContain("Werkzaamheden spoor: Assen-Groningen");
    // A change the database does not announce: the kept calendar is still answered.
    await ctx.db.asOwner(`
      alter table app_public.rail_disruptions disable trigger _900_notify_data_changed;
      update app_public.rail_disruptions set title = 'Stilledorp-Groningen' where title = 'Assen-Groningen';
      alter table app_public.rail_disruptions enable trigger _900_notify_data_changed;`);
    expect(summaries(await calendar(path))).toContain("Werkzaamheden spoor: Assen-Groningen");
    // A new weather warning is announced: the calendar is read again, with both.
    await storeWind(3);
    await waitUntil(
      () => calendar(path),
      (c) => summaries(c).includes("Werkzaamheden spoor: Stilledorp-Groningen"),
      "the calendar read again",
    );
  });
});
