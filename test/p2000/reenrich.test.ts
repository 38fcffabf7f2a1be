// `npm run p2000:reenrich` (lib/p2000/reenrich.ts over app_private.reenrich_p2000_messages): stored
// messages are enriched again when the rules or the reference data change. Only the messages whose
// enrichment changes are written, batch by batch, so the roll-ups follow them and every count still
// equals its list; a second run changes nothing, and a run resumes after a cursor.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import pg from "pg";
import { messagesAfter, reenrichP2000Messages } from "../../lib/p2000/reenrich.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { useTestService } from "../helpers/service.ts";

const ctx = useTestService();
const HOUR = 3_600_000;
const now = Date.now();
let token: string;
let pool: pg.Pool;

// [text, hours ago, capcodes, region once re-enriched]. Capcode 0923001 is of Gelderland-Zuid's
// block (08) until the test moves it to Gelderland-Midden (07): the messages that name no place
// follow it, those that name one keep their place's region.
const PAGES: [string, number, string[], string][] = [
  ["P 1 BGZ-01 Brand woning", 50, ["0923001"], "07"],
  ["P 2 BGZ-02 Nacontrole", 30, ["0923001"], "07"],
  ["A1 Reanimatie bon 80412", 2, ["0923001"], "07"],
  ["P 1 BGZ-01 Brand woning Hoogstraat Druten 083131", 49, ["0923001"], "08"],
  ["A2 Wilhelminastraat Venlo", 26, ["0923001"], "23"],
  ["A1 AMBU 09117 Horsterweg Zeewolde bon 91731", 3, ["0726117"], "25"],
  ["P 1 BUT-02 Brand woning Biltstraat Utrecht 091231", 5, ["0706231"], "09"],
  ["Oefening P 2 BGZ-01 Brand bedrijf", 4, ["0923001"], "07"],
  ["p 1 bzo-02 brand woning kastanjelaan eindhoven 221131", 1, ["1104131"], "22"],
];

async function query(text: string, variables: Record<string, unknown> = {}) {
  const { body } = await ctx.service.graphql(text, { token, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
}

async function regionsByMessage(): Promise<Record<string, string | null>> {
  const { rows } = await ctx.db.asOwner(
    `select m.message, g.number from app_public.p2000_messages m
       left join app_public.p2000_regions g on g.uuid = m.region_uuid`,
  );
  return Object.fromEntries(rows.map((r) => [r.message, r.number]));
}

/** A count from the roll-ups must equal the messages listed for the same window. */
async function expectCountsEqualLists() {
  const iso = (ms: number) => new Date(ms).toISOString();
  const list = async (from: number) =>
    (
      await query(
        `query ($f: DateTime!, $t: DateTime!) {
           p2000Messages(filter: { sended: { from: $f, to: $t } }, first: 100) { region { number } discipline { name } } }`,
        { f: iso(from), t: iso(Date.now()) },
      )
    ).p2000Messages as { region: { number: string } | null; discipline: { name: string } | null }[];
  const tally = (keys: (string | undefined)[]) =>
    Object.fromEntries(
      [...new Set(keys.filter((k) => k !== undefined))].sort().map((k) => [k, keys.filter((x) => x === k).length]),
    );
  const byKey = (counts: { key: string; count: number }[]) =>
    Object.fromEntries([...counts].sort((a, b) => a.key.localeCompare(b.key)).map((c) => [c.key, c.count]));

  // LAST_7_DAYS reads the daily roll-up (every message here is within it), LAST_24_HOURS the hourly.
  const week = (await query("{ p2000Statistics(period: LAST_7_DAYS) { total byRegion { key count } } }"))
    .p2000Statistics;
  const weekList = await list(now - 7 * 24 * HOUR);
  expect(week.total).toBe(weekList.length);
  expect(byKey(week.byRegion)).toEqual(tally(weekList.map((m) => m.region?.number)));
  const day = (await query("{ p2000Statistics(period: LAST_24_HOURS) { total byRegion { key count } } }"))
    .p2000Statistics;
  const dayList = await list(Date.now() - 24 * HOUR);
  expect(day.total).toBe(dayList.length);
  expect(byKey(day.byRegion)).toEqual(tally(dayList.map((m) => m.region?.number)));

  // p2000MessagesCount by discipline (the roll-ups' path) equals its list.
  for (const discipline of ["Brandweer", "Ambulance"]) {
    const { p2000MessagesCount, p2000Messages } = await query(
      `query ($d: [String!]) { p2000MessagesCount(filter: { disciplines: $d }) p2000Messages(filter: { disciplines: $d }, first: 100) { uuid } }`,
      { d: [discipline] },
    );
    expect({ discipline, count: p2000MessagesCount }).toEqual({ discipline, count: p2000Messages.length });
  }

  // Every region's daily roll-up, exercises included, equals the messages.
  const { rows } = await ctx.db.asOwner(`
    select coalesce(r.region, m.region) as region, r.messages as rolled_up, m.messages as stored
      from (select key as region, sum(messages)::integer as messages from app_hidden.p2000_daily_counts
             where dimension = 'region' group by key having sum(messages) <> 0) r
      full join (select region_uuid::text as region, count(*)::integer as messages from app_public.p2000_messages
                  where region_uuid is not null group by 1) m on m.region = r.region
     where r.messages is distinct from m.messages`);
  expect(rows).toEqual([]);
}

beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
  pool = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: 1 });
  // Its idle connection ends when the test database is dropped (with force) after the tests.
  pool.on("error", () => {});
  await storeP2000Pages(
    ctx.db,
    PAGES.map(([message, hours, capcodes]) => ({
      message,
      sended: new Date(now - hours * HOUR).toISOString(),
      capcodes,
    })),
  );
});

afterAll(async () => {
  await pool?.end();
});

describe("re-enriching stored messages", () => {
  test("only the messages whose enrichment changed are updated, and the counts follow", async () => {
    const stored = await regionsByMessage();
    expect(stored["P 2 BGZ-02 Nacontrole"]).toBe("08");
    expect(stored["A2 Wilhelminastraat Venlo"]).toBe("23");
    await expectCountsEqualLists();

    // The capcode list corrected (as `npm run import:capcodes` would), and two messages as the rules
    // before issue 27 stored them: the region of the units paged, not of the place named.
    await ctx.db.asOwner(
      `update app_public.p2000_capcodes set region_uuid = (select uuid from app_public.p2000_regions where number = '07')
        where name = '0923001'`,
    );
    await ctx.db.asOwner(
      `update app_public.p2000_messages m set region_uuid = g.uuid
         from app_public.p2000_regions g
        where (m.message, g.number) in (('A2 Wilhelminastraat Venlo', '08'), ('A1 AMBU 09117 Horsterweg Zeewolde bon 91731', '09'))`,
    );
    await expectCountsEqualLists();
    const { rows: before } = await ctx.db.asOwner("select uuid, changed from app_public.p2000_messages order by uuid");

    const progress: number[] = [];
    expect(await messagesAfter(pool)).toBe(PAGES.length);
    const result = await reenrichP2000Messages(pool, { batchSize: 4, onBatch: (p) => progress.push(p.scanned) });
    // Four messages without a place (an exercise among them) follow the capcode, two go back to their place.
    expect(result).toMatchObject({ batches: 3, scanned: PAGES.length, changed: 6 });
    expect(progress).toEqual([4, 8, 9]);
    expect(result.lastUuid).toBe(before.at(-1).uuid);
    expect(await regionsByMessage()).toEqual(
      Object.fromEntries(PAGES.map(([message, , , region]) => [message, region])),
    );

    // Untouched rows keep their `changed`: they were not written.
    const { rows: after } = await ctx.db.asOwner("select uuid, changed from app_public.p2000_messages order by uuid");
    const rewritten = after.filter((row, i) => row.changed.getTime() !== before[i].changed.getTime());
    expect(rewritten).toHaveLength(6);
    await expectCountsEqualLists();

    // Idempotent: a second run reads everything and changes nothing.
    expect(await reenrichP2000Messages(pool, { batchSize: 4 })).toMatchObject({ scanned: PAGES.length, changed: 0 });
    // Resumable: after a cursor it reads only what follows.
    expect(await messagesAfter(pool, before[5].uuid)).toBe(3);
    expect(await reenrichP2000Messages(pool, { after: before[5].uuid })).toMatchObject({
      batches: 1,
      scanned: 3,
      changed: 0,
      lastUuid: before.at(-1).uuid,
    });
    await expectCountsEqualLists();
  });

  test("a batch size must be a positive integer", async () => {
    await expect(reenrichP2000Messages(pool, { batchSize: 0 })).rejects.toThrow("positive integer");
    await expect(ctx.db.asOwner("select * from app_private.reenrich_p2000_messages(null, 0)")).rejects.toThrow(
      "batch_size must be at least 1",
    );
  });
});
