// The public calendars over real HTTP, read by Mozilla's iCalendar parser (ical.js), with rail
// works and weather warnings stored as their feeds store them (NS's list through the rail parser,
// KNMI's XML through the meteo ingestion): a province's calendar holds only what lies in it (works
// by their stations, warnings by province), the country's holds all; UIDs stay the same across
// fetches and when the item changes (a higher SEQUENCE then), withdrawn works turn CANCELLED; an
// unchanged calendar answers 304 to its ETag; an unknown province is 404 and a language we do not
// write 400. The test NL-Alert's dates are checked against the tests the government sent.
import { beforeAll, describe, expect, test } from "@jest/globals";
import ICAL from "ical.js";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml } from "../../lib/feeds/meteo/sample-documents.ts";
import { parseRailDisruptions } from "../../lib/feeds/rail/disruptions-parser.ts";
import { storeRailDisruptions } from "../../lib/feeds/rail/poll.ts";
import { railDisruptionsSample } from "../../lib/feeds/rail/sample-documents.ts";
import { nlAlertTestDay } from "../../lib/open-data/calendars/nl-alert-tests.ts";
import { FEEDS_OFF, useTestService } from "../helpers/service.ts";

const ctx = useTestService(() => ({ feeds: FEEDS_OFF }));

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

  test("holds the test NL-Alert when one falls in its window, tentative, on a Monday at 12:00", async () => {
    const country = await calendar("/calendars/netherlands.ics");
    const tests = country.events.filter((e) => e.summary === "NL-Alert controlebericht");
    const windowEnd = now.getTime() + 90 * 24 * HOUR;
    const expected = [now.getUTCFullYear(), now.getUTCFullYear() + 1]
      .flatMap((year) => [nlAlertTestDay(year, 5), nlAlertTestDay(year, 11)])
      .filter((day) => day.getTime() + 12 * HOUR > now.getTime() - 7 * 24 * HOUR && day.getTime() < windowEnd);
    expect(tests.map((e) => new Date(e.start).toISOString().slice(0, 10))).toEqual(
      expected.map((day) => day.toISOString().slice(0, 10)),
    );
    for (const event of tests) {
      expect(event.status).toBe("TENTATIVE");
      const local = new Intl.DateTimeFormat("en-GB", {
        timeZone: "Europe/Amsterdam",
        weekday: "long",
        hour: "2-digit",
        minute: "2-digit",
      }).format(new Date(event.start));
      expect(local).toBe("Monday 12:00");
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
    const changed = await get(path, { "if-none-match": etag });
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
    const withdrawn = eventWith(await calendar(path), "Amsterdam")!;
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

describe("the test NL-Alert's rule", () => {
  test("gives the days the government sent it", () => {
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
