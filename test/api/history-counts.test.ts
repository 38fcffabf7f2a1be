// p2000MessagesCount of one capcode (by uuid or by name) or one monitor reads daily roll-ups for the
// whole Dutch days of its range and counts the partial days at either end from the index (migration
// 000034, for ten years of history). Each count must equal its list, for whole days, partial days,
// a range inside one day and no range, with and without exercises, and after a DBA's DELETE and
// UPDATE: a roll-up that missed a change would make them differ. Several capcodes count from their
// links (a message sent to two of them once), checked the same way.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { useTestService } from "../helpers/service.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";

const ctx = useTestService();
const HOUR = 3_600_000;
const COUNT_AND_LIST = `query ($f: P2000MessageFilterInput) { p2000MessagesCount(filter: $f) p2000Messages(filter: $f, first: 100) { uuid } }`;

let token: string;
let capcodeUuid: string;
let secondCapcodeUuid: string;
let monitorUuid: string;
/** Dutch midnights: midnight[n] is the start of the day n days ago in Europe/Amsterdam. */
const midnight: number[] = [];
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
  const { rows } = await ctx.db.asOwner(`
    select n, extract(epoch from (date_trunc('day', now() at time zone 'Europe/Amsterdam') - n * interval '1 day')
                                  at time zone 'Europe/Amsterdam') * 1000 as ms
      from generate_series(0, 6) n order by n`);
  for (const row of rows) midnight[row.n] = Number(row.ms);
  const page = (message: string, at: number, capcodes = ["0923001"]) => ({ message, sended: iso(at), capcodes });
  await storeP2000Pages(ctx.db, [
    page("P 1 BDH-01 Brand woning Dorpsstraat Utrecht 091111", midnight[5] + 1 * HOUR),
    page("P 2 BDH-02 Buitenbrand Stationsweg Utrecht 091112", midnight[5] + 13 * HOUR),
    page("A1 Ambulance Kerkstraat Utrecht 12345", midnight[5] + 14 * HOUR, ["0923002"]),
    page("P 1 BDH-03 Liftopsluiting Utrecht 091113", midnight[4] + 10 * HOUR, ["0923001", "0923002"]),
    page("PROEFALARM Utrecht", midnight[4] + 12 * HOUR),
    page("P 2 BDH-04 Wateroverlast Utrecht 091114", midnight[3] + 23.5 * HOUR),
    page("P 2 BDH-05 Stormschade Utrecht 091115", midnight[1] + 2 * HOUR),
  ]);
  ({
    rows: [{ uuid: capcodeUuid }],
  } = await ctx.db.asOwner(
    "select uuid from app_public.p2000_capcodes where name = app_hidden.p2000_normalize_capcode('0923001')",
  ));
  ({
    rows: [{ uuid: secondCapcodeUuid }],
  } = await ctx.db.asOwner(
    "select uuid from app_public.p2000_capcodes where name = app_hidden.p2000_normalize_capcode('0923002')",
  ));
  // A monitor of the capcode, exercises included, and the matches the live matcher records.
  ({
    rows: [{ uuid: monitorUuid }],
  } = await ctx.db.asOwner(
    "insert into app_public.monitors (environment_uuid, name, query) values ($1, 'history counts', $2) returning uuid",
    [ctx.db.operatorEnvironmentUuid, JSON.stringify({ capcodes: ["0923001"], includeExercises: true })],
  ));
  await ctx.db.asOwner("select app_private.match_p2000_message(uuid) from app_public.p2000_messages order by sended");
});

async function countAndList(filter: Record<string, unknown>): Promise<{ count: number; listed: number }> {
  const { body } = await ctx.service.graphql(COUNT_AND_LIST, { token, variables: { f: filter } });
  expect(body.errors).toBeUndefined();
  return { count: body.data.p2000MessagesCount, listed: body.data.p2000Messages.length };
}

/** Every filter of one capcode or monitor over every kind of range: the count must equal its list. */
async function expectCountsEqualLists(): Promise<Record<string, number>> {
  const ranges: Record<string, { from: string; to: string } | undefined> = {
    "no range": undefined,
    "whole days": { from: iso(midnight[6]), to: iso(midnight[1] - 1) },
    "partial days at both ends": { from: iso(midnight[5] + 12 * HOUR), to: iso(midnight[3] + 23.6 * HOUR) },
    "inside one day": { from: iso(midnight[4] + 9 * HOUR), to: iso(midnight[4] + 13 * HOUR) },
    "from a midnight to now": { from: iso(midnight[4]), to: iso(Date.now()) },
  };
  const selectors: Record<string, Record<string, unknown>> = {
    capcodes: { capcodes: [capcodeUuid] },
    "capcode names": { capcode: { names: ["0923001"] } },
    monitor: { monitor: { uuid: monitorUuid } },
    // Several capcodes count from their links, a message sent to both once (migration 000077).
    "several capcodes": { capcodes: [capcodeUuid, secondCapcodeUuid] },
    "several capcode names": { capcode: { names: ["0923001", "0923002"] } },
  };
  const counts: Record<string, number> = {};
  for (const [selector, filter] of Object.entries(selectors)) {
    for (const [range, sended] of Object.entries(ranges)) {
      for (const exerciseType of [undefined, "all", "proefalarm"]) {
        const { count, listed } = await countAndList({
          ...filter,
          ...(sended ? { sended } : {}),
          ...(exerciseType ? { exerciseType } : {}),
        });
        const name = `${selector}, ${range}${exerciseType ? `, ${exerciseType}` : ""}`;
        expect({ name, count }).toEqual({ name, count: listed });
        counts[name] = count;
      }
    }
  }
  return counts;
}

describe("counts of one capcode or one monitor over ten years of history", () => {
  test("come from the daily roll-ups and equal their lists, after inserts, a DBA's DELETE and UPDATE", async () => {
    let counts = await expectCountsEqualLists();
    expect(counts["capcodes, no range"]).toBe(5);
    expect(counts["capcodes, no range, all"]).toBe(6);
    expect(counts["capcodes, whole days"]).toBe(4);
    expect(counts["monitor, no range, all"]).toBe(6);
    expect(counts["monitor, partial days at both ends, proefalarm"]).toBe(1);
    expect(counts["several capcodes, no range, all"]).toBe(7);
    expect(counts["several capcode names, no range"]).toBe(6);
    expect(counts["several capcode names, inside one day, proefalarm"]).toBe(1);
    // The roll-ups hold what the counts read: one row per capcode, Dutch day and exercise type.
    const {
      rows: [rolled],
    } = await ctx.db.asOwner(
      `
      select (select sum(messages)::int from app_hidden.p2000_daily_capcode_counts where capcode_uuid = $1) as capcode,
             (select sum(messages)::int from app_hidden.monitor_daily_counts where monitor_uuid = $2) as monitor`,
      [capcodeUuid, monitorUuid],
    );
    expect(rolled).toEqual({ capcode: 6, monitor: 6 });

    // A DBA deletes one message (its links and matches go by cascade) and moves another a day back.
    await ctx.db.asOwner("delete from app_public.p2000_messages where message like '%Buitenbrand%'");
    await ctx.db.asOwner(
      "update app_public.p2000_messages set sended = sended - interval '1 day' where message like '%Wateroverlast%'",
    );
    counts = await expectCountsEqualLists();
    expect(counts["capcodes, no range, all"]).toBe(5);
    expect(counts["monitor, no range, all"]).toBe(5);
  });

  test("a monitor's counts are its environment's only", async () => {
    const {
      rows: [other],
    } = await ctx.db.asOwner(
      `insert into app_public.environments (organization_uuid, name)
      select organization_uuid, 'someone else' from app_public.environments where uuid = $1 returning uuid`,
      [ctx.db.operatorEnvironmentUuid],
    );
    const {
      rows: [foreign],
    } = await ctx.db.asOwner(
      "insert into app_public.monitors (environment_uuid, name, query) values ($1, 'theirs', $2) returning uuid",
      [other.uuid, JSON.stringify({ capcodes: ["0923001"] })],
    );
    await ctx.db.asOwner("select app_private.match_p2000_message(uuid) from app_public.p2000_messages");
    const { body } = await ctx.service.graphql(COUNT_AND_LIST, {
      token,
      variables: { f: { monitor: { uuid: foreign.uuid } } },
    });
    expect(body.errors?.[0]?.extensions?.code).toBeDefined();
    expect(body.data?.p2000MessagesCount ?? null).toBeNull();
  });
});
