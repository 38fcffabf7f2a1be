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
