// The P2000 read operations and createP2000Message over real HTTP: filters, counts, dossiers and
// their timeline, capcodes, statistics and analytics.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp } from "../helpers/users.ts";

const ctx = useTestService();
let token: string;
const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();

async function ingest(message: string, sended: string, capcodes: string[] = []) {
  const {
    rows: [row],
  } = await ctx.db.asOwner("select app_private.ingest_p2000_message($1, $2, $3, 'test') as uuid", [
    message,
    sended,
    capcodes,
  ]);
  return row.uuid as string;
}

async function query(text: string, variables?: Record<string, unknown>) {
  const response = await ctx.service.graphql(text, { token, variables });
  expect(response.body.errors).toBeUndefined();
  return response.body.data;
}

async function failure(text: string, variables?: Record<string, unknown>) {
  return errorOf((await ctx.service.graphql(text, { token, variables })).body);
}

const uuids: Record<string, string> = {};

beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
  uuids.fire = await ingest("P 1 BRT-01 BR woning Toscalaan Hoogvliet Rotterdam 173151 171631 173131", ago(30), [
    "002029569",
    "001400349",
    "001400551",
  ]);
  uuids.ambuFirst = await ingest("A2 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 8576", ago(20), [
    "001420007",
  ]);
  uuids.ambuSecond = await ingest("A1 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 8576", ago(19.9), [
    "001420007",
  ]);
  uuids.road = await ingest("P 1 BDH-01 Ongeval wegvervoer A12 Re 45,6 Zoetermeer 151231", ago(10), ["001500123"]);
  uuids.test = await ingest("TESTOPROEP MOB", ago(5), ["001180000"]);
  uuids.old = await ingest("A1 Maerlantstraat 6531AT Nijmegen 69972", ago(24 * 60), ["000923129"]);
});

describe("p2000Message and p2000Messages", () => {
  test("a message with its enrichment and capcodes", async () => {
    const { p2000Message } = await query(
      `query ($u: String!) { p2000Message(uuid: $u) {
      uuid message sended created changed capcodes { uuid name discipline { name } }
      urgency { code name } discipline { uuid name } region { uuid number name slug } street postcode city road hectometer
      carriageway gripLevel exerciseType category { code isCallOut } latitude longitude dossier { uuid } } }`,
      { u: uuids.road },
    );
    expect(p2000Message).toMatchObject({
      message: "P 1 BDH-01 Ongeval wegvervoer A12 Re 45,6 Zoetermeer 151231",
      urgency: { code: "P1" },
      discipline: { name: "Brandweer" },
      region: { number: "15", slug: "haaglanden" },
      city: "Zoetermeer",
      road: "A12",
      hectometer: 45.6,
      carriageway: "Re",
      gripLevel: null,
      exerciseType: "none",
      category: { code: "ongeval", isCallOut: true },
      capcodes: [{ name: "1500123" }],
    });
    expect(p2000Message.latitude).toBeGreaterThan(51);
    expect(p2000Message.dossier.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await query('{ p2000Message(uuid: "nope") { uuid } }')).p2000Message).toBeNull();
  });

  test("newest first, real alerts only by default; counts agree with lists", async () => {
    const { p2000Messages, p2000MessagesCount } = await query("{ p2000Messages { uuid } p2000MessagesCount }");
    expect(p2000Messages.map((m: any) => m.uuid)).toEqual([
      uuids.road,
      uuids.ambuSecond,
      uuids.ambuFirst,
      uuids.fire,
      uuids.old,
    ]);
    expect(p2000MessagesCount).toBe(5);
    const all = await query(
      '{ p2000Messages(filter: { exerciseType: "all" }) { uuid } p2000MessagesCount(filter: { exerciseType: "all" }) }',
    );
    expect(all.p2000MessagesCount).toBe(6);
    expect(all.p2000Messages[0].uuid).toBe(uuids.test);
    const tests = await query('{ p2000Messages(filter: { exerciseType: "test" }) { message exerciseType } }');
    expect(tests.p2000Messages).toEqual([{ message: "TESTOPROEP MOB", exerciseType: "test" }]);
    expect((await failure('{ p2000Messages(filter: { exerciseType: "fake" }) { uuid } }')).code).toBe("BAD_USER_INPUT");
  });

  test.each([
    ["sended range", () => ({ sended: { from: ago(25), to: ago(15) } }), ["ambuSecond", "ambuFirst"]],
    ["capcode names, 9 or 7 digits", () => ({ capcode: { names: ["001400349", "1500123"] } }), ["road", "fire"]],
    [
      "one capcode name (the capcode join) with a range",
      () => ({ capcode: { names: ["001420007"] }, sended: { from: ago(25), to: ago(0) } }),
      ["ambuSecond", "ambuFirst"],
    ],
    [
      "one capcode name and a range that excludes its messages",
      () => ({ capcode: { names: ["1420007"] }, sended: { from: ago(5), to: ago(0) } }),
      [],
    ],
    ["disciplines by name", () => ({ disciplines: ["Ambulance"] }), ["ambuSecond", "ambuFirst", "old"]],
    [
      "disciplines and capcode names (the general path)",
      () => ({ disciplines: ["ambulance"], capcode: { names: ["1420007", "1400349"] } }),
      ["ambuSecond", "ambuFirst"],
    ],
    ["vehicle with hyphen", () => ({ vehicle: { number: "17-3151" } }), ["fire"]],
    ["vehicle without hyphen", () => ({ vehicle: { number: "173151" } }), ["fire"]],
  ])("filter by %s", async (_what, filter, expected) => {
    const variables = { f: filter() };
    const { p2000Messages, p2000MessagesCount } = await query(
      "query ($f: P2000MessageFilterInput) { p2000Messages(filter: $f) { uuid } p2000MessagesCount(filter: $f) }",
      variables,
    );
    expect(p2000Messages.map((m: any) => m.uuid)).toEqual(expected.map((key) => uuids[key]));
    expect(p2000MessagesCount).toBe(expected.length);
  });

  test.each([
    ["a multi-day range with partial days at both ends", () => ({ sended: { from: ago(24 * 61 + 5), to: ago(3) } })],
    [
      "a range of whole days and all exercise types",
      () => ({ sended: { from: ago(24 * 70), to: ago(0) }, exerciseType: "all" }),
    ],
    ["disciplines over all time", () => ({ disciplines: ["Brandweer", "ambulance"] })],
    ["a range within one hour", () => ({ sended: { from: ago(20.5), to: ago(19.5) } })],
    ["hours within a day, not on the hour", () => ({ sended: { from: ago(25.5), to: ago(9.7) } })],
  ])("counts from the roll-up agree with the list: %s", async (_what, filter) => {
    const { p2000Messages, p2000MessagesCount } = await query(
      "query ($f: P2000MessageFilterInput) { p2000Messages(first: 100, filter: $f) { uuid } p2000MessagesCount(filter: $f) }",
      { f: filter() },
    );
    expect(p2000MessagesCount).toBe(p2000Messages.length);
    expect(p2000MessagesCount).toBeGreaterThan(0);
  });

  test("filter by capcode uuids and by dossier", async () => {
    const { p2000Capcodes } = await query('{ p2000Capcodes(filter: { name: "1420007" }) { uuid } }');
    const byCapcode = await query("query ($c: [String]) { p2000Messages(filter: { capcodes: $c }) { uuid } }", {
      c: [p2000Capcodes[0].uuid],
    });
    expect(byCapcode.p2000Messages.map((m: any) => m.uuid)).toEqual([uuids.ambuSecond, uuids.ambuFirst]);
    // One capcode takes the capcode join; with a second (unknown) one the general path: same answer, same pages.
    const general = await query("query ($c: [String]) { p2000Messages(filter: { capcodes: $c }) { uuid } }", {
      c: [p2000Capcodes[0].uuid, "00000000-0000-0000-0000-000000000000"],
    });
    expect(general.p2000Messages).toEqual(byCapcode.p2000Messages);
    const secondPage = await query(
      "query ($c: [String]) { p2000Messages(first: 1, page: 2, filter: { capcodes: $c }) { uuid } }",
      { c: [p2000Capcodes[0].uuid] },
    );
    expect(secondPage.p2000Messages).toEqual([{ uuid: uuids.ambuFirst }]);
    const { p2000Message } = await query("query ($u: String!) { p2000Message(uuid: $u) { dossier { uuid } } }", {
      u: uuids.ambuFirst,
    });
    const byDossier = await query("query ($d: String!) { p2000Messages(filter: { dossier: { uuid: $d } }) { uuid } }", {
      d: p2000Message.dossier.uuid,
    });
    expect(byDossier.p2000Messages.map((m: any) => m.uuid)).toEqual([uuids.ambuSecond, uuids.ambuFirst]);
  });

  // Several capcodes and several disciplines are read per capcode or discipline and merged
  // (migration 000041): page by page, each message comes once, in order, even when it was sent
  // to two of the capcodes or a discipline is named twice.
  test.each([
    [
      "several capcode names, one message sent to two of them",
      { capcode: { names: ["1400349", "001400551", "1420007"] } },
      ["ambuSecond", "ambuFirst", "fire"],
    ],
    [
      "several disciplines, one named twice",
      { disciplines: ["Brandweer", "ambulance", "Ambulance"] },
      ["road", "ambuSecond", "ambuFirst", "fire", "old"],
    ],
  ])("pages of %s", async (_what, filter, expected) => {
    const pages = [];
    for (const page of [1, 2, 3, 4]) {
      const { p2000Messages } = await query(
        "query ($f: P2000MessageFilterInput, $p: Int) { p2000Messages(first: 2, page: $p, filter: $f) { uuid } }",
        { f: filter, p: page },
      );
      pages.push(p2000Messages.map((m: any) => m.uuid));
    }
    const keys = expected.map((key) => uuids[key]);
    expect(pages).toEqual([keys.slice(0, 2), keys.slice(2, 4), keys.slice(4, 6), []]);
    const { p2000MessagesCount } = await query(
      "query ($f: P2000MessageFilterInput) { p2000MessagesCount(filter: $f) }",
      { f: filter },
    );
    expect(p2000MessagesCount).toBe(expected.length);
  });

  test("pagination and a sended range without both ends", async () => {
    const { p2000Messages } = await query("{ p2000Messages(first: 2, page: 2) { uuid } }");
    expect(p2000Messages.map((m: any) => m.uuid)).toEqual([uuids.ambuFirst, uuids.fire]);
    expect(
      (await failure('{ p2000Messages(filter: { sended: { from: "2026-01-01T00:00:00Z" } }) { uuid } }')).code,
    ).toBe("GRAPHQL_VALIDATION_FAILED");
  });
});

describe("dossiers", () => {
  test("messages with one bon number form one dossier; the urgency raise is on its timeline", async () => {
    const { p2000Dossiers } = await query(
      `query ($m: String!) { p2000Dossiers(filter: { message: { uuid: $m }, messagesOrderBy: "sendedDesc", timelineOrderBy: "oldestFirst" }) {
      uuid title messageCount firstSended lastSended urgency { code } region { number } discipline { name } city
      messages { uuid } timeline { kind previousValue newValue sended message { uuid } } } }`,
      { m: uuids.ambuFirst },
    );
    expect(p2000Dossiers).toHaveLength(1);
    const [dossier] = p2000Dossiers;
    expect(dossier).toMatchObject({
      messageCount: 2,
      urgency: { code: "A1" },
      region: { number: "17" },
      discipline: { name: "Ambulance" },
      city: "Vlaardingen",
    });
    expect(dossier.messages.map((m: any) => m.uuid)).toEqual([uuids.ambuSecond, uuids.ambuFirst]);
    expect(dossier.timeline.map((e: any) => [e.kind, e.previousValue, e.newValue])).toEqual([
      ["opened", null, "A2"],
      ["message", null, null],
      ["urgency_raised", "A2", "A1"],
    ]);
    // The opened and message entries are the messages themselves; only the raise is a stored row.
    expect(dossier.timeline.map((e: any) => e.message.uuid)).toEqual([
      uuids.ambuFirst,
      uuids.ambuSecond,
      uuids.ambuSecond,
    ]);
    const { rows: stored } = await ctx.db.asOwner(
      "select kind, message_uuid from app_public.p2000_dossier_events where dossier_uuid = $1",
      [dossier.uuid],
    );
    expect(stored).toEqual([{ kind: "urgency_raised", message_uuid: uuids.ambuSecond }]);
    const timeline = await query(
      "query ($d: String!) { p2000DossierTimeline(filter: { dossier: { uuid: $d } }) { kind } }",
      { d: dossier.uuid },
    );
    expect(timeline.p2000DossierTimeline.map((e: any) => e.kind)).toEqual(["urgency_raised", "message", "opened"]);
    // The spec asks for at least one of dossier and message: both, naming the same dossier, answer the same.
    const both = await query(
      "query ($d: String!, $m: String!) { p2000DossierTimeline(filter: { dossier: { uuid: $d }, message: { uuid: $m } }) { kind } }",
      { d: dossier.uuid, m: dossier.messages[0].uuid },
    );
    expect(both).toEqual(timeline);
  });

  test("the overview lists dossiers, latest first; tests have none", async () => {
    const { p2000Dossiers } = await query("{ p2000Dossiers { title messageCount } }");
    expect(p2000Dossiers.map((d: any) => d.title)).toEqual([
      "P 1 BDH-01 Ongeval wegvervoer A12 Re 45,6 Zoetermeer 151231",
      "A2 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 8576",
      "P 1 BRT-01 BR woning Toscalaan Hoogvliet Rotterdam 173151 171631 173131",
      "A1 Maerlantstraat 6531AT Nijmegen 69972",
    ]);
    const byCount = await query(
      '{ p2000Dossiers(first: 1, filter: { orderBy: "messageCountDesc" }) { messageCount } }',
    );
    expect(byCount.p2000Dossiers).toEqual([{ messageCount: 2 }]);
    const ordered = async (orderBy: string) =>
      (
        await query("query ($o: String) { p2000Dossiers(filter: { orderBy: $o }) { title firstSended lastSended } }", {
          o: orderBy,
        })
      ).p2000Dossiers;
    const latestFirst = await ordered("lastSendedDesc");
    expect(await ordered("lastSendedAsc")).toEqual([...latestFirst].reverse());
    const byFirstSended = [...latestFirst].sort((a, b) => Date.parse(b.firstSended) - Date.parse(a.firstSended));
    expect(await ordered("firstSendedDesc")).toEqual(byFirstSended);
    expect(
      (await query('{ p2000Dossiers(first: 2, page: 2, filter: { orderBy: "lastSendedAsc" }) { title } }'))
        .p2000Dossiers,
    ).toEqual(
      [...latestFirst]
        .reverse()
        .slice(2, 4)
        .map((d) => ({ title: d.title })),
    );
    expect(
      (await query("query ($m: String!) { p2000Message(uuid: $m) { dossier { uuid } } }", { m: uuids.test }))
        .p2000Message.dossier,
    ).toBeNull();
  });

  test("clear errors for a timeline without a reference, both references, and bad orders", async () => {
    const { p2000Message } = await query("query ($u: String!) { p2000Message(uuid: $u) { dossier { uuid } } }", {
      u: uuids.fire,
    });
    expect(await failure("{ p2000DossierTimeline(filter: {}) { kind } }")).toEqual({
      message: "Give a dossier { uuid } or a message { uuid }.",
      code: "BAD_USER_INPUT",
    });
    expect(
      await failure(
        "query ($d: String!, $m: String!) { p2000Dossier(dossier: { uuid: $d }, message: { uuid: $m }) { uuid } }",
        { d: p2000Message.dossier.uuid, m: uuids.fire },
      ),
    ).toEqual({ message: "Give a dossier or a message, not both.", code: "BAD_USER_INPUT" });
    expect((await failure('{ p2000Dossiers(filter: { orderBy: "sideways" }) { uuid } }')).code).toBe("BAD_USER_INPUT");
    expect(
      (await failure('{ p2000Dossiers(filter: { dossier: { uuid: "x" }, messagesOrderBy: "sideways" }) { uuid } }'))
        .code,
    ).toBe("BAD_USER_INPUT");
  });

  test("the deprecated p2000Dossier still answers", async () => {
    const { p2000Dossier } = await query(
      "query ($m: String!) { p2000Dossier(message: { uuid: $m }) { title messages { uuid } } }",
      { m: uuids.fire },
    );
    expect(p2000Dossier.messages).toEqual([{ uuid: uuids.fire }]);
  });
});

describe("capcodes", () => {
  test("lookup, search, names and counts; unknown capcodes were created with their block's discipline", async () => {
    const { p2000Capcodes, p2000CapcodesCount } = await query(
      '{ p2000Capcodes(filter: { names: ["1500123", "0120901"] }) { uuid name created changed discipline { name } } p2000CapcodesCount(filter: { names: ["1500123", "0120901"] }) }',
    );
    expect(p2000Capcodes.map((c: any) => [c.name, c.discipline?.name])).toEqual([
      ["0120901", "Ambulance"],
      ["1500123", "Brandweer"],
    ]);
    expect(p2000CapcodesCount).toBe(2);
    const { p2000Capcode } = await query("query ($u: String!) { p2000Capcode(uuid: $u) { name } }", {
      u: p2000Capcodes[0].uuid,
    });
    expect(p2000Capcode.name).toBe("0120901");
    const search = await query('{ p2000Capcodes(filter: { search: "lifeliner" }) { name } }');
    expect(search.p2000Capcodes.map((c: any) => c.name)).toEqual(["0120901", "0923993", "1420059"]);
    const active = await query(
      `query ($f: DateTime!, $t: DateTime!) { p2000CapcodesCount(filter: { sended: { from: $f, to: $t } }) }`,
      { f: ago(21), t: ago(19) },
    );
    expect(active.p2000CapcodesCount).toBe(1);
  });
});

describe("statistics and analytics", () => {
  test("p2000MessageStatistics counts what the filter selects, per day over chartDays", async () => {
    const { p2000MessageStatistics: s } = await query(`{ p2000MessageStatistics(chartDays: 7) {
      total chartDays perDay { date count } byDiscipline { name count } byUrgency { key count } byRegion { key count } } }`);
    expect(s.total).toBe(5);
    expect(s.perDay).toHaveLength(7);
    expect(s.perDay.reduce((sum: number, d: any) => sum + d.count, 0)).toBe(4); // the Nijmegen message is 60 days old
    expect(s.byDiscipline).toEqual([
      { name: "Ambulance", count: 2 },
      { name: "Brandweer", count: 2 },
    ]);
    expect(s.byUrgency).toEqual([
      { key: "A1", count: 1 },
      { key: "P1", count: 2 },
      { key: "A2", count: 1 },
    ]);
    expect((await failure("{ p2000MessageStatistics(chartDays: 91) { total } }")).code).toBe("BAD_USER_INPUT");
  });

  test("p2000MessageStatistics gives the same chart from the roll-ups as from the messages", async () => {
    // No filter reads the daily roll-up, disciplines the hourly one, and a sended window the
    // messages themselves; over a window that holds the whole chart they must agree.
    const chart = `perDay { date count } byDiscipline { key name count } byUrgency { key count } byRegion { key name count }`;
    const statistics = async (filter: Record<string, unknown>) =>
      (
        await query(
          `query ($filter: P2000MessageFilterInput) { p2000MessageStatistics(chartDays: 90, filter: $filter) { ${chart} } }`,
          { filter },
        )
      ).p2000MessageStatistics;
    const everything = { from: ago(24 * 200), to: ago(-1) };
    const fromRollUp = await statistics({});
    expect(fromRollUp.byRegion.length).toBeGreaterThan(0);
    expect(await statistics({ sended: everything })).toEqual(fromRollUp);
    const fire = await statistics({ disciplines: ["Brandweer"] });
    expect(fire.byDiscipline).toEqual([expect.objectContaining({ name: "Brandweer", count: 2 })]);
    expect(await statistics({ disciplines: ["Brandweer"], sended: everything })).toEqual(fire);
    const withExercises = await statistics({ exerciseType: "all" });
    expect(await statistics({ exerciseType: "all", sended: everything })).toEqual(withExercises);
    const total = (days: { count: number }[]) => days.reduce((sum, d) => sum + d.count, 0);
    expect(total(withExercises.perDay)).toBeGreaterThan(total(fromRollUp.perDay));
  });

  test("p2000Statistics counts real alerts in the period, roads only when asked", async () => {
    const { p2000Statistics: s } = await query(
      `{ p2000Statistics { period total byDiscipline { name count } byUrgency { key count } byRoadThisYear { key count } } }`,
    );
    expect(s.period).toBe("LAST_7_DAYS");
    expect(s.total).toBe(4);
    expect(s.byRoadThisYear).toEqual([{ key: "A12", count: 1 }]);
    const { p2000Statistics: year } = await query("{ p2000Statistics(period: THIS_YEAR) { total } }");
    expect(year.total).toBeGreaterThanOrEqual(4);
    const { p2000Statistics: day } = await query(
      "{ p2000Statistics(period: LAST_24_HOURS) { total byUrgency { key count } busiestHour } }",
    );
    expect(day.total).toBe(3); // the two ambulance messages and the road accident; not the test page
    expect(day.byUrgency).toEqual([
      { key: "A1", count: 1 },
      { key: "A2", count: 1 },
      { key: "P1", count: 1 },
    ]);
    expect(day.busiestHour).toBeGreaterThanOrEqual(0);
  });

  test("hub analytics: hourly, urgency and weekdays over whole days, 7-90", async () => {
    const data = await query(`{
      hubAnalyticsHourly(days: 7) { days total hours { hour total averagePerDay } }
      hubAnalyticsUrgency { days total urgent lessUrgent notUrgent unknown byCode { key count } }
      hubAnalyticsWeekdays(days: 14) { days weekdays { weekday name total expectedAverage } yesterday yesterdayExpected yesterdayDifferencePercent } }`);
    expect(data.hubAnalyticsHourly.hours).toHaveLength(24);
    expect(data.hubAnalyticsHourly.hours.reduce((sum: number, h: any) => sum + h.total, 0)).toBe(
      data.hubAnalyticsHourly.total,
    );
    expect(data.hubAnalyticsUrgency.days).toBe(28);
    expect(
      data.hubAnalyticsUrgency.urgent +
        data.hubAnalyticsUrgency.lessUrgent +
        data.hubAnalyticsUrgency.notUrgent +
        data.hubAnalyticsUrgency.unknown,
    ).toBe(data.hubAnalyticsUrgency.total);
    expect(data.hubAnalyticsWeekdays.weekdays.map((w: any) => w.name)).toEqual([
      "Monday",
      "Tuesday",
      "Wednesday",
      "Thursday",
      "Friday",
      "Saturday",
      "Sunday",
    ]);
    for (const days of [6, 91]) {
      expect((await failure(`{ hubAnalyticsHourly(days: ${days}) { days } }`)).code).toBe("BAD_USER_INPUT");
    }
  });
});

describe("createP2000Message", () => {
  let userToken: string;
  beforeAll(async () => {
    userToken = (await signUp(ctx.service, "ops@example.org")).accessToken;
  });
  const create = (variables: Record<string, unknown>) =>
    ctx.service.graphql(
      `mutation ($input: CreateP2000MessageInput!) { createP2000Message(input: $input) {
       uuid message sended created capcodes { uuid name } urgency { code } region { number } } }`,
      { token: userToken, variables },
    );

  test("needs an administrator", async () => {
    const { body } = await create({ input: { message: "A1 test", sended: "2026-11-01T10:00:00Z" } });
    expect(body.errors![0]).toMatchObject({
      message: "Only administrators and receivers (an API token made by createP2000Receiver) may add P2000 messages.",
      extensions: { code: "FORBIDDEN" },
    });
  });

  test("stores an enriched message and creates unknown capcodes", async () => {
    await ctx.db.asOwner("update app_public.users set is_admin = true where email_address = 'ops@example.org'");
    const { body } = await create({
      input: {
        message: "A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008",
        sended: "2026-11-01T10:00:00",
        capcodes: [{ name: "001420999" }, { name: "9999999" }],
      },
    });
    expect(body.errors).toBeUndefined();
    expect(body.data.createP2000Message).toMatchObject({
      urgency: { code: "A1" },
      region: { number: "17" },
      capcodes: [{ name: "1420999" }, { name: "9999999" }],
    });
    expect(new Date(body.data.createP2000Message.sended).toISOString()).toBe("2026-11-01T10:00:00.000Z"); // no zone: UTC
    const { rows } = await ctx.db.asOwner("select kind from app_public.p2000_capcodes where name = '9999999'");
    expect(rows).toEqual([{ kind: "monitor" }]);
  });

  test.each([
    [{ message: "", sended: "2026-11-01T10:00:00Z" }, /1 to 2000 characters/],
    [{ message: "A1 x", sended: "yesterday" }, /ISO-8601/],
    [{ message: "A1 x", sended: "2026-13-45T10:00:00Z" }, /ISO-8601/],
    [{ message: "A1 x", sended: "2026-11-01T10:00:00Z", capcodes: [{ name: "12ab" }] }, /Capcodes are 1 to 9 digits/],
  ])("refuses bad input %#", async (input, message) => {
    const { body } = await create({ input });
    expect(body.errors![0].message).toMatch(message);
    expect(body.errors![0].extensions!.code).toBe("BAD_USER_INPUT");
  });
});
