// The FLEX reader's fast path (enrichment a batch ahead, each batch stored by region in concurrent
// statements, roll-ups per statement) must store exactly what storing the messages one by one, in
// order, stores: the same enrichment, the same dossiers, the same counts.
import { describe, expect, test } from "@jest/globals";
import { resilientPool } from "../../lib/db/pool.ts";
import { createFlexIngester, FLEX_READER_CONNECTIONS } from "../../lib/p2000/flex-ingest.ts";
import { parseFlexLine } from "../../lib/p2000/flex-parser.ts";
import { partitionByRegion, type EnrichedMessage } from "../../lib/p2000/batch-store.ts";
import { generatePagerTraffic } from "../../lib/p2000/synthetic-pager-traffic.ts";
import { useTestDatabase } from "../helpers/database.ts";

const ctx = useTestDatabase();

const HOUR = 3_600_000;
// Two copies of the same traffic a week apart: far enough for their dossiers never to meet.
const FROM = new Date("2026-03-02T06:00:00Z");
const SHIFT = 7 * 24 * HOUR;
const lines = [...generatePagerTraffic({ from: FROM, to: new Date(FROM.getTime() + 10 * HOUR), seed: 42 })];

const COLUMNS = `message, capcode_names, urgency_uuid, discipline_uuid, region_uuid, category_uuid, street, postcode, city,
  place_uuid, latitude, longitude, road, hectometer, carriageway, grip_level, exercise_type, incident_number, normalized_text, call_numbers`;

/** The messages of [from, from + 1 day) in order, each with the position of its dossier's first message. */
async function stored(from: Date) {
  const { rows } = await ctx.db.asOwner(
    `select ${COLUMNS}, extract(epoch from sended - $1::timestamptz) as offset_seconds,
            case when dossier_uuid is not null then min(row_number) over (partition by dossier_uuid) end as dossier_of
       from (select m.*, row_number() over (order by sended, message) from app_public.p2000_messages m
              where sended >= $1 and sended < $1::timestamptz + interval '1 day') m
      order by sended, message`,
    [from],
  );
  return rows;
}

describe("batch ingestion", () => {
  test("stores what one-by-one ingestion stores: enrichment, dossiers and counts", async () => {
    expect(lines.length).toBeGreaterThan(1000); // more than two batches of 500

    const pool = resilientPool({ connectionString: ctx.db.ownerUrl, max: FLEX_READER_CONNECTIONS });
    try {
      const ingester = createFlexIngester(pool, { source: "batch" });
      for (const line of lines) await ingester.push(line);
      await ingester.flush();
      expect(ingester.stats.stored).toBe(lines.length);
    } finally {
      await pool.end();
    }

    for (const line of lines) {
      const parsed = parseFlexLine(line);
      if (parsed.kind !== "page") throw new Error(`unexpected line ${line}`);
      await ctx.db.asOwner("select app_private.ingest_p2000_message($1, $2, $3, 'single')", [
        parsed.page.text,
        new Date(parsed.page.sended.getTime() + SHIFT),
        parsed.page.capcodes,
      ]);
    }

    const batch = await stored(FROM);
    const single = await stored(new Date(FROM.getTime() + SHIFT));
    expect(batch.length).toBeGreaterThan(1000);
    expect(batch).toEqual(single);
    expect(new Set(batch.map((m) => m.dossier_of)).size).toBeGreaterThan(100);

    const counts = async (from: Date) =>
      (
        await ctx.db.asOwner(
          `select extract(epoch from hour - $1::timestamptz) as at, region_uuid, discipline_uuid, urgency_uuid, category_uuid, exercise_type, road, messages
         from app_hidden.p2000_hourly_counts where hour >= $1 and hour < $1::timestamptz + interval '1 day'
        order by 1, 2, 3, 4, 5, 6, 7`,
          [from],
        )
      ).rows;
    expect(await counts(FROM)).toEqual(await counts(new Date(FROM.getTime() + SHIFT)));
  });
});

describe("partitionByRegion", () => {
  const message = (text: string, region: string | null): EnrichedMessage => ({
    message: text,
    sended: "2026-03-02T06:00:00Z",
    capcodes: [],
    enrichment: { region_uuid: region },
  });

  test("keeps each region, and every copy of a text, in one part, in the batch's order", () => {
    const batch = [
      message("a", "r1"),
      message("b", "r2"),
      message("c", "r1"),
      message("d", null),
      message("b", "r3"),
      message("e", "r2"),
      message("f", null),
      message("g", "r3"),
    ];
    const parts = partitionByRegion(batch, 2);
    expect(parts).toHaveLength(2);
    expect(parts.flat()).toHaveLength(batch.length);
    for (const part of parts) {
      // in batch order
      expect(part.map((m) => batch.indexOf(m))).toEqual([...part.map((m) => batch.indexOf(m))].sort((x, y) => x - y));
    }
    const partOf = (m: EnrichedMessage) => parts.findIndex((part) => part.includes(m));
    expect(partOf(batch[0])).toBe(partOf(batch[2])); // r1
    expect(partOf(batch[1])).toBe(partOf(batch[5])); // r2
    expect(partOf(batch[3])).toBe(partOf(batch[6])); // no region
    expect(partOf(batch[4])).toBe(partOf(batch[1])); // a copy of "b" goes where the first "b" went
    expect(Math.abs(parts[0].length - parts[1].length)).toBeLessThanOrEqual(2);
  });

  test("never makes more parts than regions", () => {
    expect(partitionByRegion([message("a", "r1"), message("b", "r1")], 2)).toHaveLength(1);
    expect(partitionByRegion([], 2)).toEqual([]);
  });
});

describe("dossiers of a history stored backwards", () => {
  const ingest = (text: string, sended: string) =>
    ctx.db.asOwner("select app_private.ingest_p2000_message($1, $2, $3, 'backwards')", [text, sended, ["1420999"]]);
  const dossierOf = async (sended: string) =>
    (await ctx.db.asOwner("select dossier_uuid from app_public.p2000_messages where sended = $1", [sended])).rows[0]
      ?.dossier_uuid;

  test("an older copy of a text joins the later dossier (the same-text rule reads its index, not every later dossier)", async () => {
    const text = "P 2 BRT-02 Brand wegvervoer Kerkstraat Schiedam 171532";
    await ingest(text, "2026-04-06T12:30:00Z");
    await ingest(`${text.replace("BRT-02", "BRT-03")}`, "2026-04-06T12:45:00Z");
    await ingest(text, "2026-04-06T12:00:00Z");
    const later = await dossierOf("2026-04-06T12:30:00Z");
    expect(later).toBeTruthy();
    expect(await dossierOf("2026-04-06T12:00:00Z")).toBe(later);
    const { rows } = await ctx.db.asOwner(
      "select message_count, first_sended = '2026-04-06T12:00:00Z' as first from app_public.p2000_dossiers where uuid = $1",
      [later],
    );
    expect(rows[0]).toEqual({ message_count: 3, first: true });
  });

  test("a text longer than a B-tree entry may be is stored and grouped (the index holds its hash)", async () => {
    // Within the 2,000 characters a message may have, but about 3,900 bytes (two-byte letters in an
    // order that does not compress): over a B-tree entry's 2,704.
    const letters = "éèëêïîöôüûáàâç";
    let seed = 7;
    const words = Array.from({ length: 1960 }, (_, i) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return i % 8 === 7 ? " " : letters[seed % letters.length];
    }).join("");
    const text = `P 1 Brand woning Kerkstraat Schiedam ${words}`.slice(0, 2000);
    expect(Buffer.byteLength(text)).toBeGreaterThan(2704);
    await ingest(text, "2026-04-07T08:00:00Z");
    await ingest(text, "2026-04-07T08:20:00Z");
    expect(await dossierOf("2026-04-07T08:00:00Z")).toBe(await dossierOf("2026-04-07T08:20:00Z"));
  });
});
