// The streets importer as an operator runs it (a real process, progress bar on stderr) on NWB
// wegvakken as PDOK's WFS gives them (GeoJSON, RD New), and the positions it gives P2000 messages:
// the street's middle, a point nearer a house number, and how precise a message's position is.
import { describe, expect, test } from "@jest/globals";
import fs from "node:fs";
import { Readable } from "node:stream";
import pg from "pg";
import { importStreets } from "../../lib/streets/import.ts";
import { fixture, runCli } from "../helpers/cli.ts";
import { useTestDatabase } from "../helpers/database.ts";

const ctx = useTestDatabase();
const FIXTURE = "nwb-wegvakken.geojson";
const plannerRows = async (table: string) =>
  (await ctx.db.asOwner("select reltuples from pg_class where oid = $1::regclass", [table])).rows[0].reltuples;

interface Position {
  latitude: number | null;
  longitude: number | null;
  position_precision: string | null;
}

async function placeUuid(name: string): Promise<string> {
  const { rows } = await ctx.db.asOwner(
    "select uuid from app_public.places where name = $1 order by population desc nulls last limit 1",
    [name],
  );
  return rows[0].uuid;
}

async function streetPosition(street: string, city: string | null, place: string | null, houseNumber: number | null) {
  const { rows } = await ctx.db.asOwner<Position>(
    "select (p).latitude, (p).longitude, (p).position_precision from (select app_hidden.p2000_street_position($1, $2, $3, $4) as p) x",
    [street, city, place, houseNumber],
  );
  return rows[0];
}

type Point = { latitude: number | null; longitude: number | null };

/** Metres between two points (equirectangular: fine over a few kilometres). */
function metres(a: Point, b: Point): number {
  const dy = (a.latitude! - b.latitude!) * 111_195;
  const dx = (a.longitude! - b.longitude!) * 111_195 * Math.cos((b.latitude! * Math.PI) / 180);
  return Math.hypot(dx, dy);
}

describe("npm run import:streets", () => {
  test("imports NWB wegvakken in RD New as streets with a point on the street, and again without changes", async () => {
    const first = await runCli("import-streets.ts", [fixture(FIXTURE)], ctx.db.ownerUrl);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      "14 segments read: 11 with a street name imported (11 new or changed), 2 without a street name, 1 rejected; " +
        "6 streets new or changed.",
    );
    expect(first.stderr).toContain("street segments [");
    expect(first.stderr).toContain("Feature 14: no LineString or MultiLineString in RD New; skipped.");

    const { rows: streets } = await ctx.db.asOwner(`
      select s.name, s.woonplaats, s.municipality, p.name as place, s.segment_count
        from app_hidden.streets s left join app_public.places p on p.uuid = s.place_uuid
       order by s.woonplaats, s.name`);
    expect(streets).toEqual([
      {
        name: "Burg. Knappertlaan",
        woonplaats: "Schiedam",
        municipality: "Schiedam",
        place: "Schiedam",
        segment_count: 2,
      },
      { name: "Kerkstraat", woonplaats: "Schiedam", municipality: "Schiedam", place: "Schiedam", segment_count: 2 },
      { name: "Hoofdstraat", woonplaats: "Velden", municipality: "Venlo", place: "Velden", segment_count: 1 },
      { name: "Wilhelminastraat", woonplaats: "Venlo", municipality: "Venlo", place: "Venlo", segment_count: 3 },
      {
        name: "Dorpsstraat",
        woonplaats: "Zoetermeer",
        municipality: "Zoetermeer",
        place: "Zoetermeer",
        segment_count: 2,
      },
      {
        name: "Kerkstraat",
        woonplaats: "Zoetermeer",
        municipality: "Zoetermeer",
        place: "Zoetermeer",
        segment_count: 1,
      },
    ]);
    // House numbers as NWB gives them (0 = none), the MultiLineString measured over both parts.
    const { rows: segments } = await ctx.db.asOwner(`
      select wvk_id::int, left_first, left_last, left_parity, right_first, right_last, right_parity, length_m
        from app_hidden.street_segments where wvk_id in (606104011, 637055132) order by wvk_id`);
    expect(segments).toEqual([
      {
        wvk_id: 606104011,
        left_first: null,
        left_last: null,
        left_parity: null,
        right_first: null,
        right_last: null,
        right_parity: null,
        length_m: expect.any(Number),
      },
      {
        wvk_id: 637055132,
        left_first: 43,
        left_last: 91,
        left_parity: "O",
        right_first: 42,
        right_last: 88,
        right_parity: "E",
        length_m: expect.any(Number),
      },
    ]);
    expect(segments[1].length_m).toBeGreaterThan(150);
    expect(segments[1].length_m).toBeLessThan(200);

    // Analysed by the importer.
    expect(await plannerRows("app_hidden.street_segments")).toBe(11);
    expect(await plannerRows("app_hidden.streets")).toBe(6);

    const before = await ctx.db.asOwner("select xmin::text, * from app_hidden.streets order by place_key, street_key");
    const again = await runCli("import-streets.ts", [fixture(FIXTURE)], ctx.db.ownerUrl);
    expect(again.stdout).toContain(
      "11 with a street name imported (0 new or changed), 2 without a street name, 1 rejected; 0 streets new or changed.",
    );
    // Nothing was written: the same rows, the same row versions.
    expect(
      (await ctx.db.asOwner("select xmin::text, * from app_hidden.streets order by place_key, street_key")).rows,
    ).toEqual(before.rows);
  });

  test("reads newline-delimited features (GeoJSONSeq) and PDOK's camelCase property names too", async () => {
    const document = JSON.parse(fs.readFileSync(fixture(FIXTURE), "utf8"));
    const camel = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    const lines = document.features.slice(0, 3).map((feature: { properties: Record<string, unknown> }) =>
      JSON.stringify({
        ...feature,
        properties: Object.fromEntries(Object.entries(feature.properties).map(([k, v]) => [camel(k), v])),
      }),
    );
    const pool = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: 1 });
    try {
      const result = await importStreets(pool, Readable.from([`\u001e${lines.join("\n")}\n`]), { lineDelimited: true });
      expect(result).toEqual({ features: 3, segments: 3, changed: 0, unnamed: 0, rejected: 0, streetsChanged: 0 });
    } finally {
      await pool.end();
    }
  });

  test("a missing file is a usage error", async () => {
    const result = await runCli("import-streets.ts", ["/nonexistent.geojson"], ctx.db.ownerUrl);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: npm run import:streets");
  });
});

describe("street positions for P2000 messages", () => {
  test("the street's middle, by place or by name, whatever the case or the abbreviated titles", async () => {
    const venlo = await placeUuid("Venlo");
    const middle = await streetPosition("Wilhelminastraat", "Venlo", venlo, null);
    expect(middle.position_precision).toBe("street");
    // The middle of the middle one of the street's three segments, on the street.
    expect(middle.latitude).toBeCloseTo(51.36925, 4);
    expect(middle.longitude).toBeCloseTo(6.16755, 4);
    expect(await streetPosition("WILHELMINASTRAAT", "venlo", null, null)).toEqual(middle);

    // NWB's "Burg. Knappertlaan" is the text's "Burgemeester Knappertlaan"; a text
    // that drops the title ("Knappertlaan") finds it as the one street of the place ending so.
    const schiedam = await placeUuid("Schiedam");
    const knappert = await streetPosition("Burgemeester Knappertlaan", "Schiedam", schiedam, null);
    expect(knappert.position_precision).toBe("street");
    expect(await streetPosition("Knappertlaan", "Schiedam", schiedam, null)).toEqual(knappert);

    // One name, two places: the place decides.
    const kerkstraatSchiedam = await streetPosition("Kerkstraat", "Schiedam", schiedam, null);
    const kerkstraatZoetermeer = await streetPosition("Kerkstraat", "Zoetermeer", await placeUuid("Zoetermeer"), null);
    expect(metres(kerkstraatSchiedam, { latitude: 51.9172, longitude: 4.4 })).toBeLessThan(100);
    expect(metres(kerkstraatZoetermeer, { latitude: 52.0585, longitude: 4.4926 })).toBeLessThan(100);

    // A village's street under its municipality's name (Hoofdstraat, Velden, gemeente Venlo).
    expect(
      metres(await streetPosition("Hoofdstraat", "Venlo", venlo, null), { latitude: 51.4105, longitude: 6.1668 }),
    ).toBeLessThan(20);

    // Unknown street: null, so the place's centre stays.
    const { rows } = await ctx.db.asOwner(
      "select app_hidden.p2000_street_position('Marktstraat', 'Venlo', $1, null) is null as missing",
      [venlo],
    );
    expect(rows[0].missing).toBe(true);
  });

  test("a house number moves the point along the segment whose range holds it", async () => {
    const venlo = await placeUuid("Venlo");
    const middle = await streetPosition("Wilhelminastraat", "Venlo", venlo, null);
    const westEnd = { latitude: 51.369, longitude: 6.165 };
    const eastEnd = { latitude: 51.3694, longitude: 6.1701 };
    const three = await streetPosition("Wilhelminastraat", "Venlo", venlo, 3);
    const fortyNine = await streetPosition("Wilhelminastraat", "Venlo", venlo, 49);
    expect(three.position_precision).toBe("street");
    expect(metres(three, westEnd)).toBeLessThan(30);
    expect(metres(fortyNine, eastEnd)).toBeLessThan(30);
    expect(metres(fortyNine, eastEnd)).toBeLessThan(metres(middle, eastEnd));
    // Even numbers are on the other side of the same segments: 50 is next to 49.
    expect(metres(await streetPosition("Wilhelminastraat", "Venlo", venlo, 50), fortyNine)).toBeLessThan(15);
    // A number beyond every range: the end where the numbers stop.
    expect(metres(await streetPosition("Wilhelminastraat", "Venlo", venlo, 400), eastEnd)).toBeLessThan(1);
    // A street without numbers in NWB: its middle.
    const schiedam = await placeUuid("Schiedam");
    expect(await streetPosition("Kerkstraat", "Schiedam", schiedam, 12)).toEqual(
      await streetPosition("Kerkstraat", "Schiedam", schiedam, null),
    );
  });

  test("a road and kilometre value are placed on the nearest hectometre post of that road", async () => {
    expect((await runCli("import-hectometers.ts", [fixture("nwb-hectopunten.geojson")], ctx.db.ownerUrl)).code).toBe(0);
    const position = async (road: string, hectometer: number, carriageway: string | null) =>
      (
        await ctx.db.asOwner(
          `select (p).latitude, (p).longitude, (p).position_precision
             from (select app_hidden.p2000_hectometre_position($1, $2, $3) as p) x`,
          [road, hectometer, carriageway],
        )
      ).rows[0];
    const post = await position("A12", 45.4, "Re");
    expect(post.position_precision).toBe("hectometre");
    expect(post.latitude).toBeCloseTo(52.0847, 3);
    expect(post.longitude).toBeCloseTo(4.91, 3);
    expect((await position("A12", 45.43, "Re")).latitude).toBe(post.latitude);
    expect((await position("A12", 90, null)).latitude).toBeNull();
  });

  test("a P2000 message naming a street and a place is placed on the street, near its house number", async () => {
    const {
      rows: [stored],
    } = await ctx.db.asOwner(
      "select app_private.ingest_p2000_message('P 1 BDH-02 Woningbrand Wilhelminastraat 49 Venlo 233131', now(), '{}', 'test') as uuid",
    );
    const {
      rows: [message],
    } = await ctx.db.asOwner(
      `select m.street, m.city, m.place_uuid, m.latitude, m.longitude, m.position_precision,
              p.latitude as place_latitude, p.longitude as place_longitude
         from app_public.p2000_messages m join app_public.places p on p.uuid = m.place_uuid where m.uuid = $1`,
      [stored.uuid],
    );
    expect(message).toMatchObject({ street: "Wilhelminastraat", city: "Venlo" });
    // What the enrichment takes from the street, house number and place it found: near number 49.
    const onStreet = await streetPosition(message.street, message.city, message.place_uuid, 49);
    expect(onStreet.position_precision).toBe("street");
    expect(metres(onStreet, { latitude: 51.3694, longitude: 6.1701 })).toBeLessThan(30);
    // The enrichment placed the message there, not on its place's centre.
    expect(message).toMatchObject({
      latitude: onStreet.latitude,
      longitude: onStreet.longitude,
      position_precision: "street",
    });
    expect(metres(message, { latitude: message.place_latitude, longitude: message.place_longitude })).toBeGreaterThan(
      100,
    );
  });

  test("position_precision: a place's position is 'place', none without a position, and the batch path keeps the enrichment's", async () => {
    const insert = async (latitude: number | null, longitude: number | null) =>
      (
        await ctx.db.asOwner(
          // with its own enrichment (a normalized text), as an importer that computed it passes it
          `insert into app_public.p2000_messages (message, sended, latitude, longitude, normalized_text)
           values ($1, now(), $2, $3, 'proefalarm') returning position_precision`,
          [`Proefalarm ${Math.random()}`, latitude, longitude],
        )
      ).rows[0].position_precision;
    expect(await insert(51.37, 6.168)).toBe("place");
    expect(await insert(null, null)).toBeNull();

    const messages = [{ message: "A1 Wilhelminastraat 49 Venlo", sended: new Date().toISOString(), capcodes: [] }];
    const {
      rows: [{ enrichments }],
    } = await ctx.db.asOwner("select app_private.p2000_enrich_messages($1::json) as enrichments", [
      JSON.stringify(messages),
    ]);
    const onStreet = await streetPosition("Wilhelminastraat", "Venlo", null, 49);
    const enrichment = { ...enrichments[0], ...onStreet };
    await ctx.db.asOwner("select app_private.ingest_p2000_messages($1::json, 'test')", [
      JSON.stringify([{ ...messages[0], enrichment }]),
    ]);
    const { rows } = await ctx.db.asOwner(
      "select latitude, longitude, position_precision from app_public.p2000_messages where message = $1",
      [messages[0].message],
    );
    expect(rows).toEqual([onStreet]);
  });
});
