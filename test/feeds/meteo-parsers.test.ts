// The weather feed's pure parsers on files in the upstream formats (test/fixtures/meteo, written by
// its generate.ts): three consecutive KNMI 48-hour warning issues in which a wind warning for
// Noord-Holland grows and turns red, a truncated download, a file with two bad records, and
// 10-minute station observations with two bad rows. Small inline documents cover the edges.
import { describe, expect, test } from "@jest/globals";
import fs from "node:fs";
import { parseMeteoDocument } from "../../lib/feeds/meteo/document.ts";
import { FeedDocumentError } from "../../lib/feeds/records.ts";
import { parseObservationsJson } from "../../lib/feeds/meteo/observations-parser.ts";
import { parseWarningsXml, type WarningSlice, type WarningsDocument } from "../../lib/feeds/meteo/warnings-parser.ts";
import { fixture } from "../helpers/cli.ts";

const read = (name: string) => fs.readFileSync(fixture(`meteo/${name}`), "utf8");
const warnings = (issued: string) => parseWarningsXml(read(`knmi_waarschuwingen_${issued}.xml`));

/** "20T14" for 2026-11-20T14:00Z: short enough to list a warning's hours readably. */
const hour = (slice: WarningSlice) => slice.start.toISOString().slice(8, 13);

function hoursOf(document: WarningsDocument, location: string, phenomenon: string, status: number): string[] {
  return document.slices
    .filter((s) => s.location === location && s.phenomenon === phenomenon && s.status === status)
    .map(hour);
}

const range = (day: number, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${day}T${String(from + i).padStart(2, "0")}`);

const ORANGE_TEXT =
  "Zeer zware windstoten tot 100 km/u. Er is kans op omvallende bomen en schade aan gebouwen. " +
  "Wees voorzichtig op de weg en vermijd reizen met aanhangers.";

const xmlDocument = (timeslices: string, root = "report") =>
  `<?xml version="1.0"?><${root}><data><cube>${timeslices}</cube></data></${root}>`;
const location = (id: string, status: string) =>
  `<location><location_id>${id}</location_id><location_warning_status>${status}</location_warning_status></location>`;
const timeslice = (id: string, locations: string) =>
  `<timeslice><timeslice_id>${id}</timeslice_id><phenomenon><phenomenon_id>wind</phenomenon_id>${locations}</phenomenon></timeslice>`;

describe("parseWarningsXml on KNMI issues", () => {
  test("10:00Z: 48 hourly slices × 6 phenomena × 14 locations, NH orange wind 14:00–19:00 between yellow hours", () => {
    const document = warnings("202611201000");
    expect(document).toMatchObject({ kind: "warnings", skipped: 0, problems: [] });
    expect(document.slices).toHaveLength(48 * 6 * 14);
    const starts = [...new Set(document.slices.map((s) => s.start.toISOString()))];
    expect(starts).toHaveLength(48);
    expect(starts[0]).toBe("2026-11-20T10:00:00.000Z");
    expect(starts[47]).toBe("2026-11-22T09:00:00.000Z");
    expect(new Set(document.slices.map((s) => s.phenomenon))).toEqual(
      new Set(["wind", "rain", "thunderstorm", "snow", "iciness", "visibility"]),
    );
    expect(new Set(document.slices.map((s) => s.location))).toEqual(
      new Set(["GR", "FR", "DR", "NH", "FL", "OV", "GL", "UT", "ZH", "ZE", "NB", "LB", "WAE", "WAB"]),
    );

    expect(hoursOf(document, "NH", "wind", 2)).toEqual(range(20, 14, 19));
    expect(hoursOf(document, "NH", "wind", 1)).toEqual(["20T12", "20T13", "20T20", "20T21"]);
    expect(hoursOf(document, "ZH", "wind", 1)).toEqual(range(20, 14, 18));
    expect(hoursOf(document, "UT", "wind", 1)).toEqual(range(20, 14, 18));
    for (const province of ["GR", "FR", "DR"])
      expect(hoursOf(document, province, "iciness", 1)).toEqual(range(21, 3, 8));
    expect(document.slices.filter((s) => s.status > 0)).toHaveLength(6 + 4 + 5 + 5 + 3 * 6);
    expect(document.slices.some((s) => s.status === 3)).toBe(false);

    const orange = document.slices.find((s) => s.location === "NH" && s.status === 2)!;
    expect(orange).toEqual({
      location: "NH",
      phenomenon: "wind",
      start: new Date("2026-11-20T14:00:00Z"),
      status: 2,
      text: ORANGE_TEXT,
    });
    expect(document.slices.filter((s) => s.status === 0).every((s) => s.text === null)).toBe(true);
  });

  test("11:00Z: starts an hour later, NH orange lasts until 20:00Z with the same text", () => {
    const document = warnings("202611201100");
    expect(document.slices).toHaveLength(4032);
    expect(document.slices[0].start).toEqual(new Date("2026-11-20T11:00:00Z"));
    expect(hoursOf(document, "NH", "wind", 2)).toEqual(range(20, 14, 20));
    expect(hoursOf(document, "NH", "wind", 1)).toEqual(["20T12", "20T13", "20T21", "20T22"]);
    expect(hoursOf(document, "ZH", "wind", 1)).toEqual(range(20, 14, 18));
    const orangeTexts = document.slices.filter((s) => s.status === 2).map((s) => s.text);
    expect(new Set(orangeTexts)).toEqual(new Set([ORANGE_TEXT]));
  });

  test("12:00Z: NH wind red 16:00–17:00Z inside the orange period, ZH's yellow wind lifted", () => {
    const document = warnings("202611201200");
    expect(document.slices[0].start).toEqual(new Date("2026-11-20T12:00:00Z"));
    const red = document.slices.filter((s) => s.status === 3);
    expect(red.map((s) => `${s.location} ${s.phenomenon} ${hour(s)}`)).toEqual(["NH wind 20T16", "NH wind 20T17"]);
    expect(red[0].text).toMatch(/^Extreem zware windstoten tot 120 km\/u\./);
    expect(hoursOf(document, "NH", "wind", 2)).toEqual(["20T14", "20T15", "20T18", "20T19", "20T20"]);
    expect(document.slices.filter((s) => s.location === "ZH" && s.status > 0)).toEqual([]);
    expect(hoursOf(document, "UT", "wind", 1)).toEqual(range(20, 14, 18));
    expect(hoursOf(document, "DR", "iciness", 1)).toEqual(range(21, 3, 8));
  });

  test("a download cut off mid-element is refused as a whole, saying where it ends", () => {
    const parse = () => parseWarningsXml(read("knmi_waarschuwingen_truncated.xml"));
    expect(parse).toThrow(FeedDocumentError);
    expect(parse).toThrow(/^warnings XML is malformed or truncated: .*"text_data".*the document ends at line \d+\)$/);
  });

  test("a status of 7 and a location without location_id are skipped and named; the rest is kept", () => {
    const document = parseWarningsXml(read("knmi_waarschuwingen_bad_record.xml"));
    expect(document.skipped).toBe(2);
    expect(document.problems).toEqual([
      'timeslice 2026-11-20T12:00:00Z wind location 2: ZH: location_warning_status "7" is not 0-3',
      "timeslice 2026-11-20T13:00:00Z wind location 3: no location_id",
    ]);
    expect(document.slices.map((s) => `${s.location} ${hour(s)} ${s.status}`)).toEqual([
      "NH 20T12 1",
      "UT 20T12 0",
      "NH 20T13 1",
      "ZH 20T13 0",
    ]);
    expect(document.slices[1].text).toBeNull(); // an empty text_data
  });
});

describe("parseWarningsXml on edge cases", () => {
  test("single elements still come as lists; codes are normalised and texts trimmed under any root", () => {
    const xml = `<x:waarschuwingen xmlns:x="urn:example"><x:data><x:cube><x:timeslice><x:timeslice_id> 2026-11-20T14:00:00+01:00 </x:timeslice_id>
      <x:phenomenon><x:phenomenon_id> Wind </x:phenomenon_id><x:location><x:location_id> wae </x:location_id>
      <x:location_warning_status> 1 </x:location_warning_status><x:text><x:text_data>
        Zware windstoten &amp; hoge golven.  </x:text_data></x:text></x:location></x:phenomenon></x:timeslice></x:cube></x:data></x:waarschuwingen>`;
    expect(parseWarningsXml(xml).slices).toEqual([
      {
        location: "WAE",
        phenomenon: "wind",
        start: new Date("2026-11-20T13:00:00Z"),
        status: 1,
        text: "Zware windstoten & hoge golven.",
      },
    ]);
  });

  test("a timeslice without a zoned ISO time is skipped with its locations, the next one kept", () => {
    const document = parseWarningsXml(
      xmlDocument(
        timeslice("2026-11-20T14:00:00", location("NH", "2")) +
          timeslice("morgen", "") +
          timeslice("2026-11-20T15:00:00Z", location("NH", "2")),
      ),
    );
    expect(document.slices.map((s) => s.start)).toEqual([new Date("2026-11-20T15:00:00Z")]);
    expect(document.skipped).toBe(2);
    expect(document.problems).toEqual([
      'timeslice 1: timeslice_id "2026-11-20T14:00:00" is not an ISO time with a zone',
      'timeslice 2: timeslice_id "morgen" is not an ISO time with a zone',
    ]);
  });

  test("several text_data of a location are kept in order, once each; a phenomenon without id is skipped", () => {
    const advice =
      "<text><text_data>Zware windstoten.</text_data><text_data>Wees voorzichtig.</text_data><text_data>Zware windstoten.</text_data></text>";
    const document = parseWarningsXml(
      xmlDocument(`<timeslice><timeslice_id>2026-11-20T14:00:00Z</timeslice_id>
      <phenomenon><phenomenon_id>wind</phenomenon_id><location><location_id>NH</location_id>
        <location_warning_status>1</location_warning_status>${advice}</location></phenomenon>
      <phenomenon>${location("UT", "1")}</phenomenon></timeslice>`),
    );
    expect(document.slices.map((s) => s.text)).toEqual(["Zware windstoten.\nWees voorzichtig."]);
    expect(document.problems).toEqual(["timeslice 2026-11-20T14:00:00Z: phenomenon without phenomenon_id"]);
  });

  test("every bad record is counted, at most 20 are described", () => {
    const locations = Array.from({ length: 25 }, () => location("NH", "4")).join("");
    const document = parseWarningsXml(xmlDocument(timeslice("2026-11-20T14:00:00Z", locations + location("UT", "0"))));
    expect(document.skipped).toBe(25);
    expect(document.problems).toHaveLength(20);
    expect(document.slices.map((s) => s.location)).toEqual(["UT"]);
  });

  test("well-formed XML without data/cube/timeslice is refused", () => {
    for (const xml of ["<html><body>Service Unavailable</body></html>", xmlDocument(""), "<report><data/></report>"]) {
      expect(() => parseWarningsXml(xml)).toThrow(
        new FeedDocumentError("warnings XML has no data/cube/timeslice elements"),
      );
    }
  });

  test("malformed XML is refused with the validator's position", () => {
    expect(() => parseWarningsXml("<report>\n<data></cube></report>")).toThrow(
      /^warnings XML is malformed or truncated: .*'cube'.*\(line 2, column \d+; the document ends at line 2\)$/,
    );
  });
});

describe("parseObservationsJson", () => {
  const document = parseObservationsJson(read("observations_202611201000.json"));
  const at = (stationId: string, time: string) =>
    document.observations.find(
      (o) => o.stationId === stationId && o.observedAt.toISOString() === `2026-11-20T${time}:00.000Z`,
    );

  test('13 ten-minute rows for each of 4 stations; the row with ta "warm" and the one without stationId skipped', () => {
    expect(document.kind).toBe("observations");
    expect(document.observations).toHaveLength(52);
    expect(document.skipped).toBe(2);
    expect(document.problems).toEqual([
      'row 31: 06260 2026-11-20T09:00:00Z: ta is "warm", not a number',
      "row 41: stationId missing is not a five-digit station number",
    ]);
    const stations = new Map(document.observations.map((o) => [o.stationId, o.name]));
    expect(stations).toEqual(
      new Map([
        ["06260", "De Bilt"],
        ["06240", "Schiphol"],
        ["06330", "Hoek van Holland"],
        ["06280", "Groningen/Eelde"],
      ]),
    );
    const deBilt = document.observations
      .filter((o) => o.stationId === "06260")
      .map((o) => o.observedAt.toISOString().slice(11, 16));
    expect(deBilt).toEqual([
      "08:00",
      "08:10",
      "08:20",
      "08:30",
      "08:40",
      "08:50",
      "09:00",
      "09:10",
      "09:20",
      "09:30",
      "09:40",
      "09:50",
      "10:00",
    ]);
  });

  test("KNMI variables map to named fields", () => {
    expect(at("06260", "08:00")).toEqual({
      stationId: "06260",
      name: "De Bilt",
      latitude: 52.098,
      longitude: 5.18,
      observedAt: new Date("2026-11-20T08:00:00Z"),
      temperature: 9.8,
      dewPoint: 8,
      humidity: 86,
      pressure: 1003.4,
      windDirection: 215,
      windSpeed: 5.9,
      windGust: 11.2,
      visibility: 21000,
      precipitation: 0,
      radiation: 35,
      cloudCover: 7,
      sunshine: 0,
      weatherCode: null,
    });
    expect(at("06240", "09:10")).toMatchObject({ precipitation: 0.6, weatherCode: 61, cloudCover: 8, windGust: 20.5 });
  });

  test("the gust comes from fx where gff is missing", () => {
    expect(at("06330", "09:10")).toMatchObject({ stationId: "06330", windSpeed: 14.2, windGust: 22.7 });
    const rows = (gust: object) =>
      JSON.stringify([{ stationId: "06260", observedAt: "2026-11-20T08:00:00Z", ...gust }]);
    expect(parseObservationsJson(rows({ gff: 8.1, fx: 9.9 })).observations[0].windGust).toBe(8.1);
    expect(parseObservationsJson(rows({ gff: null, fx: 9.9 })).observations[0].windGust).toBe(9.9);
    expect(parseObservationsJson(rows({})).observations[0].windGust).toBeNull();
  });

  test("station numbers keep five digits: a numeric id is padded, anything else skipped", () => {
    const row = (stationId: unknown) => ({ stationId, observedAt: "2026-10-07T08:10:00Z" });
    const parsed = parseObservationsJson(
      JSON.stringify([row(6260), row(" 06240 "), row("6260"), row("0-20000-0-06260"), row(62.6)]),
    );
    expect(parsed.observations.map((o) => o.stationId)).toEqual(["06260", "06240"]);
    expect(parsed.skipped).toBe(3);
  });

  test("the research's example row, unknown fields ignored", () => {
    const parsed =
      parseObservationsJson(`[{"stationId":"06260","name":"De Bilt","lat":52.098,"lon":5.180,"observedAt":"2026-10-07T08:10:00Z",
      "ta":12.4,"rh":87,"pp":1014.2,"dd":230,"ff":4.6,"gff":8.1,"vv":18000,"ww":null,"height":1.9,"stationname":"DE BILT AWS"}]`);
    expect(parsed.skipped).toBe(0);
    expect(parsed.observations[0]).toMatchObject({
      temperature: 12.4,
      humidity: 87,
      pressure: 1014.2,
      windDirection: 230,
      windSpeed: 4.6,
      windGust: 8.1,
      visibility: 18000,
      dewPoint: null,
      precipitation: null,
      radiation: null,
      cloudCover: null,
      sunshine: null,
      weatherCode: null,
    });
    expect(Object.keys(parsed.observations[0])).not.toContain("height");
  });

  test("impossible values, non-numbers and times without a zone skip the row", () => {
    const base = { stationId: "06260", observedAt: "2026-10-07T08:10:00Z", ta: 12.4 };
    const bad = [
      { ta: 61 },
      { ta: -60.5 },
      { rh: 101 },
      { dd: 361 },
      { ff: -0.1 },
      { fx: -1 },
      { vv: -5 },
      { ta: "12.4" },
      { pp: true },
      { observedAt: "2026-10-07T08:10:00" },
      { observedAt: "yesterday" },
    ];
    const parsed = parseObservationsJson(JSON.stringify([base, ...bad.map((b) => ({ ...base, ...b })), "06260", null]));
    expect(parsed.observations).toHaveLength(1);
    expect(parsed.skipped).toBe(bad.length + 2);
    expect(parsed.problems).toContain("row 4: 06260 2026-10-07T08:10:00Z: rh 101 is outside 0..100");
    expect(parsed.problems).toContain('row 11: 06260: observedAt "2026-10-07T08:10:00" is not an ISO time with a zone');
    expect(parsed.problems).toContain("row 14: not an object");
  });

  test("malformed JSON or a top-level value other than an array is refused", () => {
    expect(() => parseObservationsJson('[{"stationId":"06260",')).toThrow(/^observations JSON is malformed: /);
    expect(() => parseObservationsJson('{"rows":[]}')).toThrow(
      new FeedDocumentError("observations JSON is not an array of rows"),
    );
    expect(parseObservationsJson("[]")).toEqual({ kind: "observations", observations: [], skipped: 0, problems: [] });
  });
});

describe("parseMeteoDocument", () => {
  test("tells warnings XML and observations JSON apart by their first character, after a BOM and whitespace", () => {
    expect(parseMeteoDocument(read("knmi_waarschuwingen_202611201000.xml")).kind).toBe("warnings");
    expect(parseMeteoDocument(read("observations_202611201000.json")).kind).toBe("observations");
    expect(
      parseMeteoDocument(`\uFEFF\n  ${xmlDocument(timeslice("2026-11-20T14:00:00Z", location("NH", "2")))}`),
    ).toMatchObject({
      kind: "warnings",
      slices: [{ location: "NH", status: 2 }],
    });
    expect(parseMeteoDocument('\uFEFF \n[{"stationId":"06260","observedAt":"2026-10-07T08:10:00Z"}]')).toMatchObject({
      kind: "observations",
      observations: [{ stationId: "06260" }],
    });
  });

  test("refuses anything else", () => {
    for (const text of ["", "   ", '{"stationId":"06260"}', "stationId,ta\n06260,12.4", "\uFEFF"]) {
      expect(() => parseMeteoDocument(text)).toThrow(
        new FeedDocumentError("neither a warnings XML nor an observations JSON array"),
      );
    }
  });

  test("a truncated warnings file is still refused when it comes through the dispatcher", () => {
    expect(() => parseMeteoDocument(read("knmi_waarschuwingen_truncated.xml"))).toThrow(FeedDocumentError);
  });
});
