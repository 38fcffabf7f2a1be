// The spec to the letter, one rule per error class (README "Errors"): no user means
// UNAUTHENTICATED for every account operation, checked before anything else; the scalar is the
// spec's DateTime; counts equal their lists whatever changed the rows, a DBA's UPDATE and DELETE
// included.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { errorOf, useTestService } from "../helpers/service.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";

const ctx = useTestService();

let token: string;
beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
});

async function ok(query: string, variables?: Record<string, unknown>) {
  const { body } = await ctx.service.graphql(query, { token, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
}

describe("no user: UNAUTHENTICATED for every account operation", () => {
  test.each([
    ["mySessions", "{ mySessions { uuid } }"],
    ["currentEnvironment", "{ currentEnvironment { uuid } }"],
    ["myOrganizations", "{ myOrganizations { uuid } }"],
    ["channels", "{ channels { uuid } }"],
    ["monitors", "{ monitors { uuid } }"],
    ["monitor", '{ monitor(uuid: "0190a1b2-0000-7000-8000-000000000000") { uuid } }'],
    ["apiTokens", "{ apiTokens { uuid } }"],
    ["apiToken", '{ apiToken(uuid: "garbage") { uuid } }'],
    ["apiScopes", "{ apiScopes { name } }"],
    ["deleteApiToken with a garbage uuid", 'mutation { deleteApiToken(uuid: "garbage") }'],
    ["deleteMonitor", 'mutation { deleteMonitor(uuid: "garbage") }'],
    ["deleteChannel", 'mutation { deleteChannel(uuid: "garbage") }'],
  ])("%s", async (_name, query) => {
    for (const as of [undefined, token]) {
      const { body } = await ctx.service.graphql(query, { token: as });
      expect(errorOf(body).code).toBe("UNAUTHENTICATED");
    }
  });

  test("me is null and sessionValid false, as the spec says", async () => {
    const { body } = await ctx.service.graphql("{ me { uuid } sessionValid }");
    expect(body).toEqual({ data: { me: null, sessionValid: false } });
  });
});

describe("DateTime, the spec's scalar", () => {
  test("DateRangeInput takes DateTime variables", async () => {
    const data = await ok("query ($f: DateTime!, $t: DateTime!) { p2000MessagesCount(filter: { sended: { from: $f, to: $t } }) }",
      { f: "2026-01-01T00:00:00Z", t: "2026-01-02T00:00:00Z" });
    expect(data.p2000MessagesCount).toBe(0);
  });
});

describe("counts equal their lists whatever changed the rows", () => {
  const HOUR = 3_600_000;
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * HOUR).toISOString();
  const COUNT_AND_LIST = `query ($f: P2000MessageFilterInput) { p2000MessagesCount(filter: $f) p2000Messages(filter: $f, first: 100) { uuid } }`;

  async function agree(filter: Record<string, unknown>) {
    const data = await ok(COUNT_AND_LIST, { f: filter });
    expect(data.p2000MessagesCount).toBe(data.p2000Messages.length);
    return data.p2000MessagesCount as number;
  }

  test("after a DBA deletes and updates messages, as owner, in SQL", async () => {
    await storeP2000Pages(ctx.db, [
      { message: "P 1 BDH-01 Brand woning Dorpsstraat Utrecht 091111", sended: at(50), capcodes: ["0923001"] },
      { message: "P 2 BDH-02 Buitenbrand Stationsweg Utrecht 091112", sended: at(49), capcodes: ["0923001"] },
      { message: "A1 Ambulance Kerkstraat Utrecht 12345", sended: at(48), capcodes: ["0923002"] },
      { message: "P 1 BDH-03 Liftopsluiting Utrecht 091113", sended: at(2), capcodes: ["0923001"] },
    ]);
    // Whole hours and days, so the counts come from the roll-ups, not from scanning the messages.
    const window = { sended: { from: at(72), to: at(0) } };
    const capcode = (await ok(`{ p2000Capcodes(filter: { name: "0923001" }) { uuid } }`)).p2000Capcodes[0].uuid;
    expect(await agree(window)).toBe(4);
    expect(await agree({ ...window, capcodes: [capcode] })).toBe(3);

    await ctx.db.asOwner("delete from app_public.p2000_messages where message like '%Buitenbrand%'");
    expect(await agree(window)).toBe(3);
    expect(await agree({ ...window, capcodes: [capcode] })).toBe(2);

    // Moved out of the window, and the capcode filter follows the new time too.
    await ctx.db.asOwner("update app_public.p2000_messages set sended = sended - interval '30 days' where message like '%Dorpsstraat%'");
    expect(await agree(window)).toBe(2);
    expect(await agree({ ...window, capcodes: [capcode] })).toBe(1);
    expect(await agree({ sended: { from: at(24 * 40), to: at(0) } })).toBe(3);

    // The statistics read the same roll-ups.
    const { rows: [daily] } = await ctx.db.asOwner(`select coalesce(sum(messages), 0)::int as n from app_hidden.p2000_daily_counts
      where dimension = 'total' and day >= (now() - interval '72 hours')::date`);
    expect(daily.n).toBe(2);
  });
});
