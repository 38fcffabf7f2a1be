// Issue 28: the analytics fact connections (p2000MessageFacts, …) count what the spec's own
// operations count on the same data, group days in Europe/Amsterdam across a DST change, follow a
// DBA's UPDATE and DELETE, agree with the analyst's SQL on the same views, and are bounded (API
// token, window, query cost).
import { beforeAll, describe, expect, test } from "@jest/globals";
import pg from "pg";
import { errorOf, useTestService } from "../helpers/service.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";

const ctx = useTestService();
let token: string;

// Around the end of summer time (Sunday 2026-10-25, 03:00 CEST becomes 02:00 CET).
const WINDOW = { start: "2026-10-20T00:00:00Z", end: "2026-10-30T00:00:00Z" };
const pages = [
  // 2026-10-24 22:30 UTC is 00:30 on the 25th in Amsterdam (the 24th in UTC).
  { message: "P 1 BDH-01 Brand woning Dorpsstraat Utrecht 091111", sended: "2026-10-24T22:30:00Z" },
  // 02:30 CEST and 02:30 CET: one Amsterdam day, two hours.
  { message: "P 2 BDH-02 Buitenbrand Stationsweg Utrecht 091112", sended: "2026-10-25T00:30:00Z" },
  { message: "P 2 BDH-03 Liftopsluiting Utrecht 091113", sended: "2026-10-25T01:30:00Z" },
  { message: "A1 Ambulance Kerkstraat Utrecht 12345", sended: "2026-10-26T09:00:00Z", capcodes: ["0923002"] },
  { message: "P 2 BDH-04 Wateroverlast Utrecht 091114", sended: "2026-10-26T23:30:00Z" },
  { message: "PROEFALARM Utrecht", sended: "2026-10-26T10:00:00Z" },
].map((page) => ({ capcodes: ["0923001"], ...page }));

const BY_DAY = `query ($s: DateTime!, $e: DateTime!) {
  p2000MessageFacts(windowStart: $s, windowEnd: $e) {
    totalCount
    groupedAggregates(groupBy: [SENT_DAY]) { keys distinctCount { uuid } }
  }
}`;

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const { body } = await ctx.service.graphql(query, { token, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
}

/** The analyst's psql: the same view, logged in as app_analyst, under row-level security. */
async function asAnalyst<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: ctx.db.analystUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function perDay(): Promise<Record<string, number>> {
  const data = await gql(BY_DAY, { s: WINDOW.start, e: WINDOW.end });
  return Object.fromEntries(
    data.p2000MessageFacts.groupedAggregates.map((g: { keys: string[]; distinctCount: { uuid: string } }) => [
      g.keys[0],
      Number(g.distinctCount.uuid),
    ]),
  );
}

/** p2000MessagesCount of one Amsterdam day. */
async function specCount(day: string): Promise<number> {
  const { rows } = await ctx.db.asOwner(
    `select ($1::date::timestamp at time zone 'Europe/Amsterdam') as "from",
            (($1::date + 1)::timestamp at time zone 'Europe/Amsterdam') as "to"`,
    [day],
  );
  const data = await gql(`query ($f: P2000MessageFilterInput) { p2000MessagesCount(filter: $f) }`, {
    f: { sended: { from: rows[0].from.toISOString(), to: rows[0].to.toISOString() } },
  });
  return data.p2000MessagesCount;
}

beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
  await storeP2000Pages(ctx.db, pages);
});

describe("p2000MessageFacts", () => {
  test("per Amsterdam day equals p2000MessagesCount and the analyst's SQL, across the DST change", async () => {
    const days = await perDay();
    expect(days).toEqual({ "2026-10-25": 3, "2026-10-26": 1, "2026-10-27": 1 });
    for (const [day, count] of Object.entries(days)) expect(await specCount(day)).toBe(count);
    const sql = await asAnalyst<{ day: string; n: number }>(
      `select sent_day::text as day, count(*)::int as n from app_public.p2000_message_facts
        where sent_at >= '${WINDOW.start}' and sent_at < '${WINDOW.end}' and exercise_type = 'none'
        group by 1 order by 1`,
    );
    expect(Object.fromEntries(sql.map((r) => [r.day, r.n]))).toEqual(days);
  });

  test("the two 02:00 hours of the DST change are two groups; regions agree with SQL", async () => {
    const data = await gql(
      `query ($s: DateTime!, $e: DateTime!) { p2000MessageFacts(windowStart: $s, windowEnd: $e) {
        hours: groupedAggregates(groupBy: [SENT_HOUR], having: { max: { sentHourOfDay: { greaterThanOrEqualTo: 0 } } }) { keys }
        regions: groupedAggregates(groupBy: [REGION]) { keys distinctCount { uuid } } } }`,
      { s: "2026-10-25T00:00:00Z", e: "2026-10-25T02:00:00Z" },
    );
    expect(data.p2000MessageFacts.hours).toHaveLength(2);
    const sql = await asAnalyst<{ region: string | null; n: number }>(
      `select region, count(*)::int as n from app_public.p2000_message_facts
        where sent_at >= '2026-10-25T00:00:00Z' and sent_at < '2026-10-25T02:00:00Z' and exercise_type = 'none'
        group by 1`,
    );
    expect(
      data.p2000MessageFacts.regions.map((g: { keys: string[]; distinctCount: { uuid: string } }) => [
        g.keys[0],
        Number(g.distinctCount.uuid),
      ]),
    ).toEqual(sql.map((r) => [r.region, r.n]));
  });

  test("includeExercises counts the test alarm too", async () => {
    const data = await gql(
      `query ($s: DateTime!, $e: DateTime!) { p2000MessageFacts(windowStart: $s, windowEnd: $e, includeExercises: true) { totalCount } }`,
      { s: WINDOW.start, e: WINDOW.end },
    );
    expect(data.p2000MessageFacts.totalCount).toBe(6);
  });

  test("a DBA's UPDATE and DELETE show in GraphQL and in SQL", async () => {
    await ctx.db.asOwner(`update app_public.p2000_messages set sended = '2026-10-27T12:00:00Z'
                            where message like 'A1 Ambulance%'`);
    await ctx.db.asOwner(`delete from app_public.p2000_messages where message like 'P 2 BDH-04%'`);
    const days = await perDay();
    expect(days).toEqual({ "2026-10-25": 3, "2026-10-27": 1 });
    for (const [day, count] of Object.entries(days)) expect(await specCount(day)).toBe(count);
    const sql = await asAnalyst<{ n: number }>(
      `select count(*)::int as n from app_public.p2000_message_facts
        where sent_at >= '${WINDOW.start}' and sent_at < '${WINDOW.end}' and exercise_type = 'none'`,
    );
    expect(sql[0].n).toBe(4);
  });
});

describe("ordering groups (after the DBA's changes: 25 Oct 3 messages, 26 Oct the test alarm, 27 Oct 1)", () => {
  const ORDERED = `query ($s: DateTime!, $e: DateTime!, $o: [P2000MessageFactGroupsOrderBy!], $n: Int) {
    p2000MessageFacts(windowStart: $s, windowEnd: $e, includeExercises: true) {
      groupedAggregates(groupBy: [SENT_DAY], orderBy: $o, first: $n) { keys distinctCount { uuid } } } }`;
  const ordered = async (orderBy: string[], first?: number) =>
    (
      await gql(ORDERED, { s: WINDOW.start, e: WINDOW.end, o: orderBy, n: first })
    ).p2000MessageFacts.groupedAggregates.map(
      (g: { keys: string[]; distinctCount: { uuid: string } }) => `${g.keys[0]}:${g.distinctCount.uuid}`,
    );

  test("by keys either way, by rows with the keys breaking ties, and the first N of that order", async () => {
    expect(await ordered(["KEYS_ASC"])).toEqual(["2026-10-25:3", "2026-10-26:1", "2026-10-27:1"]);
    expect(await ordered(["KEYS_DESC"])).toEqual(["2026-10-27:1", "2026-10-26:1", "2026-10-25:3"]);
    expect(await ordered(["COUNT_DESC"], 1)).toEqual(["2026-10-25:3"]);
    expect(await ordered(["COUNT_ASC"], 2)).toEqual(["2026-10-26:1", "2026-10-27:1"]);
    expect(await ordered(["COUNT_ASC", "KEYS_DESC"])).toEqual(["2026-10-27:1", "2026-10-26:1", "2026-10-25:3"]);
    const sql = await asAnalyst<{ day: string }>(
      `select sent_day::text as day from app_public.p2000_message_facts
        where sent_at >= '${WINDOW.start}' and sent_at < '${WINDOW.end}'
        group by 1 order by count(*) desc, 1 limit 2`,
    );
    expect((await ordered(["COUNT_DESC"], 2)).map((group: string) => group.slice(0, 10))).toEqual(
      sql.map((r) => r.day),
    );
  });

  test("by an aggregate of a column, inline; the roll-ups' busiest day is the one SQL names", async () => {
    const data =
      await gql(`{ p2000DayCountFacts(dimension: "total", includeExercises: true, windowStart: "2026-10-20", windowEnd: "2026-10-30") {
      groupedAggregates(groupBy: [DAY], orderBy: [SUM_MESSAGES_DESC], first: 1) { keys sum { messages } } } }`);
    expect(data.p2000DayCountFacts.groupedAggregates).toEqual([{ keys: ["2026-10-25"], sum: { messages: "3" } }]);
  });

  test.each([[0], [-1], [1001]])("first: %s is BAD_USER_INPUT, inline or through a variable", async (first) => {
    for (const { query, variables } of [
      { query: ORDERED, variables: { s: WINDOW.start, e: WINDOW.end, o: ["COUNT_DESC"], n: first } },
      {
        query: `{ p2000MessageFacts(windowStart: "${WINDOW.start}", windowEnd: "${WINDOW.end}") {
          groupedAggregates(groupBy: [REGION], first: ${first}) { keys } } }`,
        variables: {},
      },
    ]) {
      const { body } = await ctx.service.graphql(query, { token, variables });
      expect(errorOf(body).code).toBe("BAD_USER_INPUT");
      expect(errorOf(body).message).toMatch(/first must be from 1 to 1,000/);
    }
  });
});

describe("p2000DayCountFacts (the daily roll-ups)", () => {
  test("per day and region equals p2000MessagesCount and p2000MessageFacts; total equals every message", async () => {
    const data = await gql(`{
      regions: p2000DayCountFacts(dimension: "region", windowStart: "2026-10-20", windowEnd: "2026-10-30") {
        groupedAggregates(groupBy: [DAY, NAME]) { keys sum { messages } } }
      total: p2000DayCountFacts(dimension: "total", windowStart: "2026-10-20", windowEnd: "2026-10-30") {
        groupedAggregates(groupBy: [DAY]) { keys sum { messages } } }
      facts: p2000MessageFacts(windowStart: "2026-10-19T22:00:00Z", windowEnd: "2026-10-29T23:00:00Z") {
        groupedAggregates(groupBy: [SENT_DAY, REGION]) { keys distinctCount { uuid } } } }`);
    type Group = { keys: string[]; sum?: { messages: string }; distinctCount?: { uuid: string } };
    const byKeys = (groups: Group[]) =>
      Object.fromEntries(groups.map((g) => [g.keys.join(" "), Number(g.sum?.messages ?? g.distinctCount?.uuid)]));
    const total = byKeys(data.total.groupedAggregates);
    expect(total).toEqual(await perDay());
    for (const [day, count] of Object.entries(total)) expect(await specCount(day)).toBe(count);
    expect(byKeys(data.regions.groupedAggregates)).toEqual(byKeys(data.facts.groupedAggregates));
    expect(Object.keys(byKeys(data.regions.groupedAggregates))).toContain("2026-10-25 Utrecht");
  });

  test("ten years by month read the roll-ups; an unknown dimension and a longer window are BAD_USER_INPUT", async () => {
    const data =
      await gql(`{ p2000DayCountFacts(dimension: "discipline", windowStart: "2016-11-01", windowEnd: "2026-11-01") {
      groupedAggregates(groupBy: [MONTH, NAME]) { keys sum { messages } } } }`);
    expect(data.p2000DayCountFacts.groupedAggregates).toContainEqual({
      keys: ["2026-10-01", "Brandweer"],
      sum: { messages: String(Object.values(await perDay()).reduce((a, b) => a + b) - 1) },
    });
    for (const [args, message] of [
      [
        'dimension: "postcode", windowStart: "2026-01-01", windowEnd: "2026-02-01"',
        /dimension must be one of total, region/,
      ],
      ['dimension: "region", windowStart: "2016-01-01", windowEnd: "2026-02-01"', /at most 3660 days/],
      [
        'dimension: "region", windowStart: "2026-02-01", windowEnd: "2026-01-01"',
        /windowStart must be before windowEnd/,
      ],
    ] as const) {
      const { body } = await ctx.service.graphql(`{ p2000DayCountFacts(${args}) { totalCount } }`, { token });
      expect(errorOf(body).code).toBe("BAD_USER_INPUT");
      expect(errorOf(body).message).toMatch(message);
    }
  });
});

describe("meteoWarningDayFacts", () => {
  test("warning days per month and level equal meteoStatsMonthly, for the country and per province", async () => {
    await ctx.db.asOwner(`insert into app_hidden.meteo_daily_levels (province_uuid, day, status_code)
      select p.uuid, x.day::date, x.level from (values ('utrecht', '2025-03-10', 1), ('utrecht', '2025-03-11', 2),
        ('noord-holland', '2025-03-11', 3), ('noord-holland', '2025-07-01', 1)) as x (code, day, level)
      join app_public.meteo_provinces p on p.code = x.code`);
    type Month = { month: number; yellowDays: number; orangeDays: number; redDays: number; warningDays: number };
    const levels = ["yellowDays", "orangeDays", "redDays"] as const;
    const fromFacts = (groups: { keys: string[]; distinctCount: { day: string } }[], province: string | null) => {
      const months: Record<number, Omit<Month, "month">> = {};
      for (const { keys, distinctCount } of groups) {
        const [month, code, status] = province === null ? [keys[0], null, keys[1]] : keys;
        if (code !== province) continue;
        const m = (months[Number(month.slice(5, 7))] ??= { yellowDays: 0, orangeDays: 0, redDays: 0, warningDays: 0 });
        m[levels[Number(status) - 1]] += Number(distinctCount.day);
        m.warningDays += Number(distinctCount.day);
      }
      return months;
    };
    const nonEmpty = (months: Month[]) =>
      Object.fromEntries(months.filter((m) => m.warningDays > 0).map(({ month, ...days }) => [month, days]));
    const data = await gql(`{
      country: meteoWarningDayFacts(windowStart: "2025-01-01", windowEnd: "2026-01-01") {
        groupedAggregates(groupBy: [MONTH, STATUS_CODE]) { keys distinctCount { day } } }
      provinces: meteoWarningDayFacts(windowStart: "2025-01-01", windowEnd: "2026-01-01", byProvince: true) {
        groupedAggregates(groupBy: [MONTH, PROVINCE_CODE, STATUS_CODE]) { keys distinctCount { day } } }
      all: meteoStatsMonthly(year: 2025) { month yellowDays orangeDays redDays warningDays }
      utrecht: meteoStatsMonthly(year: 2025, regionCode: "utrecht") { month yellowDays orangeDays redDays warningDays }
      noordHolland: meteoStatsMonthly(year: 2025, regionCode: "noord-holland") { month yellowDays orangeDays redDays warningDays } }`);
    expect(nonEmpty(data.all)).toEqual({
      3: { yellowDays: 1, orangeDays: 0, redDays: 1, warningDays: 2 },
      7: { yellowDays: 1, orangeDays: 0, redDays: 0, warningDays: 1 },
    });
    expect(fromFacts(data.country.groupedAggregates, null)).toEqual(nonEmpty(data.all));
    expect(fromFacts(data.provinces.groupedAggregates, "utrecht")).toEqual(nonEmpty(data.utrecht));
    expect(fromFacts(data.provinces.groupedAggregates, "noord-holland")).toEqual(nonEmpty(data.noordHolland));
  });
});

describe("aircraftFlightFacts", () => {
  test("flights and minutes per aircraft over the last 365 days equal aircraftStatistics", async () => {
    await ctx.db
      .asOwner(`insert into app_public.aircraft_routes (icao, took_off_at, landed_at, first_seen_at, last_seen_at, status)
      select f.icao, now() - x.ago, now() - x.ago + x.minutes * interval '1 minute', now() - x.ago,
             now() - x.ago + x.minutes * interval '1 minute', 'completed'
        from (select icao from app_public.aircraft_fleet order by registration limit 2) f,
             (values (interval '2 days', 35), (interval '40 days', 52), (interval '400 days', 20)) as x (ago, minutes)`);
    const end = new Date();
    const start = new Date(end.getTime() - 365 * 86_400_000);
    const data = await gql(
      `query ($s: DateTime!, $e: DateTime!) {
        aircraftFlightFacts(windowStart: $s, windowEnd: $e) {
          groupedAggregates(groupBy: [ICAO], having: { min: { minutes: { greaterThanOrEqualTo: 0 } } }) {
            keys distinctCount { uuid } sum { minutes } } }
        aircraftStatistics { icao flights flightMinutes } }`,
      { s: start.toISOString(), e: end.toISOString() },
    );
    const flown = data.aircraftStatistics.filter((a: { flights: number }) => a.flights > 0);
    expect(flown).toHaveLength(2);
    const facts = Object.fromEntries(
      data.aircraftFlightFacts.groupedAggregates.map(
        (g: { keys: string[]; distinctCount: { uuid: string }; sum: { minutes: number } }) => [
          g.keys[0],
          { flights: Number(g.distinctCount.uuid), flightMinutes: Math.round(Number(g.sum.minutes)) },
        ],
      ),
    );
    for (const a of flown) expect(facts[a.icao]).toEqual({ flights: a.flights, flightMinutes: a.flightMinutes });
    expect(flown[0].flights).toBe(2);
  });
});

describe("bounds", () => {
  test("no API token: 401", async () => {
    const { status, body } = await ctx.service.graphql(BY_DAY, { variables: { s: WINDOW.start, e: WINDOW.end } });
    expect(status).toBe(401);
    expect(errorOf(body).code).toBe("UNAUTHENTICATED");
  });

  test.each([
    ["the wrong way round", WINDOW.end, WINDOW.start, /windowStart must be before windowEnd/],
    ["longer than 366 days", "2025-01-01T00:00:00Z", "2026-01-03T00:00:00Z", /at most 366 days/],
  ])("a window %s is BAD_USER_INPUT", async (_name, s, e, message) => {
    for (const field of ["p2000MessageFacts", "trafficIncidentFacts", "aircraftFlightFacts", "rssItemFacts"]) {
      const { body } = await ctx.service.graphql(
        `query ($s: DateTime!, $e: DateTime!) { ${field}(windowStart: $s, windowEnd: $e) { totalCount } }`,
        { token, variables: { s, e } },
      );
      expect(errorOf(body).code).toBe("BAD_USER_INPUT");
      expect(errorOf(body).message).toMatch(message);
    }
  });

  test("a year of hours is BAD_USER_INPUT, inline or through variables; a month of hours is answered", async () => {
    const byHour = `query ($s: DateTime!, $e: DateTime!) { p2000MessageFacts(windowStart: $s, windowEnd: $e) {
      groupedAggregates(groupBy: [REGION, SENT_HOUR]) { keys } } }`;
    const year = await ctx.service.graphql(byHour, {
      token,
      variables: { s: "2026-01-01T00:00:00Z", e: "2027-01-01T00:00:00Z" },
    });
    expect(errorOf(year.body).code).toBe("BAD_USER_INPUT");
    expect(errorOf(year.body).message).toMatch(
      /grouping a window of 365 days by hour makes up to 8,760 groups; at most 1,000/,
    );
    const inline = await ctx.service.graphql(
      `{ p2000DayCountFacts(dimension: "total", windowStart: "2016-11-01", windowEnd: "2026-11-01") { ...ByDay } }
       fragment ByDay on P2000DayCountFactConnection { groupedAggregates(groupBy: [DAY]) { keys } }`,
      { token },
    );
    expect(errorOf(inline.body).code).toBe("BAD_USER_INPUT");
    await gql(byHour, { s: "2026-10-01T00:00:00Z", e: "2026-11-01T00:00:00Z" });
    await gql(`{ p2000MessageFacts(windowStart: "2026-01-01T00:00:00Z", windowEnd: "2027-01-01T00:00:00Z") {
      groupedAggregates(groupBy: [SENT_HOUR_OF_DAY]) { keys } } }`);
  });

  test("an unknown grouping is a validation error; fact connections have no rows to page", async () => {
    const unknown = await ctx.service.graphql(
      `{ p2000MessageFacts(windowStart: "2026-10-20T00:00:00Z", windowEnd: "2026-10-21T00:00:00Z") { groupedAggregates(groupBy: [SENT_FORTNIGHT]) { keys } } }`,
      { token },
    );
    expect(errorOf(unknown.body).code).toBe("GRAPHQL_VALIDATION_FAILED");
    const nodes = await ctx.service.graphql(
      `{ p2000MessageFacts(windowStart: "2026-10-20T00:00:00Z", windowEnd: "2026-10-21T00:00:00Z") { nodes { uuid } } }`,
      { token },
    );
    expect(errorOf(nodes.body).code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  test("grouped aggregates are priced: ten of them are over the cost limit", async () => {
    const aliases = Array.from(
      { length: 10 },
      (_, i) => `g${i}: groupedAggregates(groupBy: [SENT_DAY]) { keys distinctCount { uuid } }`,
    ).join(" ");
    const { body } = await ctx.service.graphql(
      `{ p2000MessageFacts(windowStart: "2026-10-20T00:00:00Z", windowEnd: "2026-10-21T00:00:00Z") { ${aliases} } }`,
      { token },
    );
    expect(errorOf(body).code).toBe("QUERY_TOO_COMPLEX");
  });

  test("every fact connection answers totalCount and aggregates", async () => {
    for (const [field, aggregate] of [
      ["p2000DossierFacts", "max { messageCount }"],
      ["trafficIncidentFacts", "average { durationMinutes }"],
      ["meteoWarningEventFacts", "max { statusCode }"],
      ["alertFacts", "distinctCount { alertUuid }"],
      ["aircraftFlightFacts", "sum { minutes }"],
      ["rssItemFacts", "distinctCount { feedUuid }"],
    ]) {
      const data = await gql(
        `query ($s: DateTime!, $e: DateTime!) { ${field}(windowStart: $s, windowEnd: $e) { totalCount aggregates { ${aggregate} } } }`,
        { s: WINDOW.start, e: WINDOW.end },
      );
      expect(data[field!].totalCount).toBeGreaterThanOrEqual(0);
    }
  });
});
