// The contract's last letters (issue 48): what a client written from the spec alone would trip on.
// hubAnalyticsWeekdays counts Dutch calendar days, also in windows over either change of the clock
// (its window's end is an argument of app_hidden.hub_analytics_weekdays_until; the API passes
// today); meteoRegions' status is the current one; meteoStatsAvailableYears lists no year still to
// come; AircraftWithStats.flightHours is a Float; CreateMonitorInput.type names every type
// monitorTypes lists. (Web Push's expirationTime: test/api/webpush-channel.test.ts.)
import { beforeAll, describe, expect, test } from "@jest/globals";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml } from "../../lib/feeds/meteo/sample-documents.ts";
import { useTestService } from "../helpers/service.ts";

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

describe("hubAnalyticsWeekdays over a change of the clock", () => {
  interface Weekdays {
    weekdays: Array<{ weekday: number; total: number; expected_average: number }>;
    yesterday: number;
    yesterday_expected: number;
  }
  /** One real alert at each of these Dutch local times (the hourly roll-up's rows). */
  async function alertsAt(localTimes: string[]) {
    await ctx.db.asOwner("delete from app_hidden.p2000_hourly_urgency_counts");
    await ctx.db.asOwner(
      `insert into app_hidden.p2000_hourly_urgency_counts (hour, exercise_type, messages)
       select date_trunc('hour', t::timestamp at time zone 'Europe/Amsterdam'), 'none', count(*)
         from unnest($1::text[]) t group by 1`,
      [localTimes],
    );
  }
  const weekdaysUntil = async (today: string): Promise<Weekdays> =>
    (
      await ctx.db.asOwner(
        `select to_json(w.weekdays) as weekdays, w.yesterday, w.yesterday_expected
           from app_hidden.hub_analytics_weekdays_until(28, $1::date) w`,
        [today],
      )
    ).rows[0];
  /** The given local times (noon by default) of every Dutch day in [first, last]. */
  function everyDay(first: string, last: string, times = ["12:00"]) {
    const days: string[] = [];
    for (let d = new Date(`${first}T00:00:00Z`); d <= new Date(`${last}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + 1))
      for (const time of times) days.push(`${d.toISOString().slice(0, 10)} ${time}`);
    return days;
  }

  test("end of summer time (25 October 2026): four of each weekday, and yesterday its 25 hours", async () => {
    // The 28 days before Monday 26 October: 28 September to Sunday 25 October, four of each weekday.
    await alertsAt([...everyDay("2026-09-28", "2026-10-25"), "2026-10-25 00:30"]);
    const answer = await weekdaysUntil("2026-10-26");
    expect(answer.weekdays.map((w) => [w.weekday, w.total, w.expected_average])).toEqual([
      [1, 4, 1],
      [2, 4, 1],
      [3, 4, 1],
      [4, 4, 1],
      [5, 4, 1],
      [6, 4, 1],
      [7, 5, 1.25],
    ]);
    // Sunday from its local midnight (22:00 UTC on Saturday, summer time) to Monday's (23:00 UTC).
    expect([answer.yesterday, answer.yesterday_expected]).toEqual([2, 1.25]);
  });

  test("start of summer time (28 March 2027): four of each weekday, and yesterday its 23 hours", async () => {
    // Saturday 27 March at 23:30 is not Sunday's, whose day began at Saturday's 23:00 UTC.
    await alertsAt([...everyDay("2027-03-01", "2027-03-28"), "2027-03-27 23:30", "2027-03-28 23:30"]);
    const answer = await weekdaysUntil("2027-03-29");
    expect(answer.weekdays.map((w) => [w.weekday, w.total])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
      [5, 4],
      [6, 5],
      [7, 5],
    ]);
    expect(answer.weekdays.every((w) => w.expected_average === w.total / 4)).toBe(true);
    expect(answer.yesterday).toBe(2);
  });

  test("the API's answer is the same function's for today", async () => {
    const {
      rows: [{ today, yesterday, earlier }],
    } = await ctx.db.asOwner(
      `select d::text as today, (d - 1)::text as yesterday, (d - 3)::text as earlier
         from (select (now() at time zone 'Europe/Amsterdam')::date as d) x`,
    );
    await alertsAt([`${yesterday} 12:00`, `${yesterday} 00:30`, `${earlier} 12:00`]);
    const { hubAnalyticsWeekdays } = await ok(`{ hubAnalyticsWeekdays { days yesterday weekdays { weekday total } } }`);
    const expected = await weekdaysUntil(today);
    expect(hubAnalyticsWeekdays.days).toBe(28);
    expect(hubAnalyticsWeekdays.yesterday).toBe(2);
    expect(hubAnalyticsWeekdays.weekdays.map((w: { weekday: number; total: number }) => [w.weekday, w.total])).toEqual(
      expected.weekdays.map((w) => [w.weekday, w.total]),
    );
    expect(expected.weekdays.reduce((sum, w) => sum + w.total, 0)).toBe(3);
  });
});

describe("meteo: what is current", () => {
  test("meteoRegions counts the warnings in force now, not those announced for later", async () => {
    const HOUR = 3_600_000;
    const thisHour = new Date(Math.floor(Date.now() / HOUR) * HOUR);
    const at = (hours: number) => new Date(thisHour.getTime() + hours * HOUR);
    await ingestMeteoDocument(
      ctx.service.ownerPool,
      warningsXml(
        thisHour,
        [
          { phenomenon: "wind", locations: ["NH"], from: at(0), to: at(3), status: 2, text: "Zware windstoten." },
          { phenomenon: "rain", locations: ["ZE"], from: at(2), to: at(5), status: 1, text: "Veel regen." },
        ],
        "contract-letters: one warning now, one later",
      ),
      "contract-letters.xml",
    );
    const data = await ok(
      `{ meteoRegions { code statusCode } zeeland: meteoRegionDetail(code: "zeeland") { statusCode } }`,
    );
    const status = Object.fromEntries(
      data.meteoRegions.map((r: { code: string; statusCode: number }) => [r.code, r.statusCode]),
    );
    expect(status["noord-holland"]).toBe(2);
    expect(status.zeeland).toBe(0);
    expect(data.zeeland.statusCode).toBe(1);
  });

  test("meteoStatsAvailableYears lists no year still to come (a warning announced for 1 January on 31 December)", async () => {
    const { rows } = await ctx.db.asOwner(
      `insert into app_hidden.meteo_daily_levels (province_uuid, day, status_code)
       select p.uuid, d.day, 2 from (select uuid from app_public.meteo_provinces limit 1) p,
              (values ((now() at time zone 'Europe/Amsterdam')::date),
                      (make_date(extract(year from now() at time zone 'Europe/Amsterdam')::integer + 1, 1, 1))) d (day)
       on conflict do nothing
       returning extract(year from day)::integer as year`,
    );
    const { meteoStatsAvailableYears } = await ok("{ meteoStatsAvailableYears }");
    const nextYear = Math.max(...rows.map((row) => row.year as number));
    expect(meteoStatsAvailableYears).not.toContain(nextYear);
    expect(meteoStatsAvailableYears).toContain(nextYear - 1);
  });
});

test("AircraftWithStats.flightHours is a Float", async () => {
  const { __type } = await ok(
    `{ __type(name: "AircraftWithStats") { fields { name type { kind ofType { name } } } } }`,
  );
  const field = __type.fields.find((f: { name: string }) => f.name === "flightHours");
  expect(field.type).toEqual({ kind: "NON_NULL", ofType: { name: "Float" } });
});

test("CreateMonitorInput.type and UpdateMonitorInput.type name every type monitorTypes lists", async () => {
  const data = await ok(`{ monitorTypes { value }
    create: __type(name: "CreateMonitorInput") { inputFields { name description } }
    update: __type(name: "UpdateMonitorInput") { inputFields { name description } } }`);
  const names: string[] = data.monitorTypes.map((t: { value: string }) => t.value);
  expect(names).toEqual(expect.arrayContaining(["p2000", "nl_alert", "amber_alert"]));
  for (const input of [data.create, data.update]) {
    const description: string = input.inputFields.find((f: { name: string }) => f.name === "type").description;
    for (const name of names) expect(description).toMatch(new RegExp(`\\b${name}\\b`));
  }
});
