// A monitor's calendar (/feeds/monitors/<secret>.ics) over real HTTP, read by Mozilla's iCalendar
// parser (ical.js): a rail_disruptions monitor's calendar holds the planned works on its routes
// before they begin (and not those elsewhere), and the disruptions it matched; a meteo_weather
// monitor's holds the warnings it matched over their warned hours; the URL is a capability
// (private, no-cache, noindex, no referrer), answers 304 to its ETag, and a rotated or unknown
// secret is 404 like the other formats. A monitor's name is its owner's text: line breaks in it
// cannot add events, and the name reads back as one line.
import { beforeAll, describe, expect, test } from "@jest/globals";
import ICAL from "ical.js";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml } from "../../lib/feeds/meteo/sample-documents.ts";
import { parseRailDisruptions } from "../../lib/feeds/rail/disruptions-parser.ts";
import { storeRailDisruptions } from "../../lib/feeds/rail/poll.ts";
import { railDisruptionsSample } from "../../lib/feeds/rail/sample-documents.ts";
import { FEEDS_OFF, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

// The calendar's name is TEXT (RFC 7986 NAME; X-WR-CALNAME and X-WR-CALDESC by custom): ical.js
// knows neither, and would hand over their escapes unread.
for (const property of ["name", "x-wr-calname", "x-wr-caldesc"]) {
  ICAL.design.icalendar.property[property] = { defaultType: "text" };
}

const ctx = useTestService(() => ({ feeds: FEEDS_OFF }));
const HOUR = 3_600_000;

let ada: TestUser;

async function ok(query: string, variables: Record<string, unknown>) {
  const { body } = await ctx.service.graphql(query, { token: ada.accessToken, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
}

async function monitorWithCalendar(name: string, type: string, query: object): Promise<string> {
  const { createMonitor } = await ok("mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }", {
    i: { name, type, query: JSON.stringify(query) },
  });
  return icsUrl(createMonitor.uuid);
}

/** A new feed secret of the monitor: its calendar's URL. */
async function icsUrl(monitor: string): Promise<string> {
  const { rotateMonitorFeed } = await ok("mutation ($m: String!) { rotateMonitorFeed(monitor: $m) { icsUrl } }", {
    m: monitor,
  });
  return rotateMonitorFeed.icsUrl;
}

async function read(url: string) {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
  const calendar = new ICAL.Component(ICAL.parse(await response.text()));
  return {
    name: calendar.getFirstPropertyValue("x-wr-calname"),
    calendarName: calendar.getFirstPropertyValue("name"),
    events: calendar.getAllSubcomponents("vevent").map((vevent) => {
      const event = new ICAL.Event(vevent);
      return { summary: event.summary, start: event.startDate.toJSDate().getTime(), uid: event.uid };
    }),
    response,
  };
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org");
});

describe("a monitor's calendar", () => {
  const now = new Date();
  const wholeHour = Math.floor(now.getTime() / HOUR) * HOUR;
  let groningen: string;
  let amsterdam: string;
  let weather: string;
  let forged: string;

  beforeAll(async () => {
    groningen = await monitorWithCalendar("Zwolle–Groningen", "rail_disruptions", { routes: ["zwolle-groningen"] });
    amsterdam = await monitorWithCalendar("Amsterdam–Utrecht", "rail_disruptions", { routes: ["amsterdam-utrecht"] });
    weather = await monitorWithCalendar("Storm Noord-Holland", "meteo_weather", {
      regions: ["noord-holland"],
      levels: ["orange", "red"],
    });
    forged = await monitorWithCalendar(
      "Storm\r\nBEGIN:VEVENT\r\nUID:evil\r\nSUMMARY:Forged; a, b\\c\r\nEND:VEVENT",
      "meteo_weather",
      { regions: ["noord-holland"], levels: ["orange", "red"] },
    );
    const rail = parseRailDisruptions(railDisruptionsSample(now));
    await storeRailDisruptions(ctx.service.ownerPool, rail, "test");
    const from = new Date(wholeHour + HOUR);
    const xml = warningsXml(
      new Date(wholeHour),
      [
        {
          phenomenon: "wind",
          locations: ["NH"],
          from,
          to: new Date(from.getTime() + 5 * HOUR),
          status: 2,
          text: "Storm.",
        },
      ],
      "storm",
    );
    await ingestMeteoDocument(ctx.service.ownerPool, xml, "test");
    await ctx.service.workerIdle();
  });

  test("holds the planned works on its routes before they begin, and what it matched", async () => {
    const onRoute = await read(groningen);
    expect(onRoute.name).toBe("Zwolle–Groningen");
    expect(onRoute.events.map((e) => e.summary)).toEqual(["Werkzaamheden spoor: Assen-Groningen"]);
    expect(onRoute.events[0].start).toBe(wholeHour + 72 * HOUR);

    const other = await read(amsterdam);
    expect(other.events.map((e) => e.summary)).toEqual(["Treinstoring: Amsterdam-Utrecht"]);

    const storm = await read(weather);
    expect(storm.events).toEqual([
      { summary: "Code oranje: Wind – Noord-Holland", start: wholeHour + HOUR, uid: expect.any(String) },
    ]);
  });

  test("a name with line breaks adds no event and reads back as one line", async () => {
    const calendar = await read(forged);
    expect(calendar.events.map((e) => e.summary)).toEqual(["Code oranje: Wind – Noord-Holland"]);
    const oneLine = "Storm BEGIN:VEVENT UID:evil SUMMARY:Forged; a, b\\c END:VEVENT";
    expect([calendar.name, calendar.calendarName]).toEqual([oneLine, oneLine]);
  });

  test("is a capability URL: private, unindexed, 304 to its ETag, 404 once rotated or unknown", async () => {
    const { response } = await read(groningen);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(response.headers.get("x-robots-tag")).toBe("noindex");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    const etag = response.headers.get("etag")!;
    expect((await fetch(groningen, { headers: { "if-none-match": etag } })).status).toBe(304);

    const monitorUuid = (await ctx.db.asOwner("select uuid from app_public.monitors where name = 'Zwolle–Groningen'"))
      .rows[0].uuid;
    const rotated = await icsUrl(monitorUuid);
    expect((await read(rotated)).events).toHaveLength(1);
    for (const gone of [groningen, groningen.replace(/nlfd_[^.]+/, `nlfd_${"A".repeat(43)}`)]) {
      const response = await fetch(gone);
      expect(response.status).toBe(404);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.text()).toBe("No such feed.\n");
    }
  });
});
