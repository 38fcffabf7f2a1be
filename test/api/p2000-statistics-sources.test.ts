// p2000MessageStatistics reads its chart from three sources (the daily roll-up, the hourly roll-up
// for disciplines, the messages for every other filter): at the edges of the chart window, in
// Europe/Amsterdam time, they must give the same answer. Messages are stored half an hour either
// side of the window's first midnight and of today's, in local time, so that a window or time-zone
// mistake in one source (a UTC day, an off-by-one day) shows as a difference whatever the hour the
// test runs.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { useTestService } from "../helpers/service.ts";

const ctx = useTestService();
let token: string;
let monitorUuid: string;
const CHART_DAYS = 3;

/** Stores a message at a local (Europe/Amsterdam) time `days` days before today. */
async function ingestAt(message: string, days: number, localTime: string, capcodes: string[]) {
  await ctx.db.asOwner(
    `select app_private.ingest_p2000_message($1,
       (((now() at time zone 'Europe/Amsterdam')::date - $2::int) + $3::time) at time zone 'Europe/Amsterdam', $4, 'test')`,
    [message, days, localTime, capcodes],
  );
}

async function statistics(filter: Record<string, unknown>) {
  const { body } = await ctx.service.graphql(
    `query ($filter: P2000MessageFilterInput, $days: Int) { p2000MessageStatistics(chartDays: $days, filter: $filter) {
      perDay { date count } byDiscipline { key count } byUrgency { key count } byRegion { key count } } }`,
    { token, variables: { filter, days: CHART_DAYS } },
  );
  expect(body.errors).toBeUndefined();
  return body.data.p2000MessageStatistics;
}

beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
  const first = CHART_DAYS - 1; // the window's first day, in days before today
  await ingestAt("P 1 BRT-01 BR woning Toscalaan Hoogvliet Rotterdam 173151", first + 1, "23:30", ["001400349"]);
  // Before the window too, to the capcode the monitor and the capcode filters below select: the
  // chart's sources must leave it out of the days and of the breakdowns.
  await ingestAt("P 2 BDH-03 Brandgerucht Zoetermeer 151231", first + 1, "23:40", ["001500123"]);
  await ingestAt("P 2 BDH-02 Buitenbrand Zoetermeer 151231", first, "00:30", ["001500123"]);
  await ingestAt("A1 AMBU 17106 Schiedamseweg 3134BA Vlaardingen bon 1", first, "00:10", ["001420007"]);
  await ingestAt("A2 Maerlantstraat 6531AT Nijmegen 69972", 1, "23:50", ["000923129"]);
  await ingestAt("P 1 BDH-01 Ongeval wegvervoer A12 Re 45,6 Zoetermeer 151231", 0, "00:05", ["001500123"]);
  await ingestAt("PROEFALARM BRANDWEER ZOETERMEER", 0, "00:20", ["001500123"]);
  // A monitor of Zoetermeer's capcode, exercises included, with the matches the matcher records.
  ({
    rows: [{ uuid: monitorUuid }],
  } = await ctx.db.asOwner(
    "insert into app_public.monitors (environment_uuid, name, query) values ($1, 'statistics', $2) returning uuid",
    [ctx.db.operatorEnvironmentUuid, JSON.stringify({ capcodes: ["1500123"], includeExercises: true })],
  ));
  await ctx.db.asOwner("select app_private.match_p2000_message(uuid) from app_public.p2000_messages order by sended");
});

/**
 * The chart's days counted from the list itself: p2000Messages with the filter, within the window
 * (today's messages at 00:05 and 00:20 may still lie ahead when the test runs just after midnight).
 */
async function perDayOfList(filter: Record<string, unknown>, days: string[]) {
  const { body } = await ctx.service.graphql(
    "query ($f: P2000MessageFilterInput) { p2000Messages(first: 100, filter: $f) { sended } }",
    { token, variables: { f: { ...filter, sended: { from: "2000-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z" } } } },
  );
  expect(body.errors).toBeUndefined();
  const local = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" });
  const dates = body.data.p2000Messages.map((m: { sended: string }) => local.format(new Date(m.sended)));
  return days.map((date) => ({ date, count: dates.filter((d: string) => d === date).length }));
}

describe("p2000MessageStatistics at the window's edges", () => {
  const whole = { from: "2000-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z" };

  test("the daily roll-up and the messages agree, exercises or not", async () => {
    const fromRollUp = await statistics({});
    // The message half an hour before the window is left out; those just inside are in its first day.
    expect(fromRollUp.perDay.map((d: { count: number }) => d.count)).toEqual([2, 1, 1]);
    expect(await statistics({ sended: whole })).toEqual(fromRollUp);
    const all = await statistics({ exerciseType: "all" });
    expect(all.perDay.map((d: { count: number }) => d.count)).toEqual([2, 1, 2]);
    expect(await statistics({ exerciseType: "all", sended: whole })).toEqual(all);
  });

  test("the hourly roll-up and the messages agree for disciplines, exercises or not", async () => {
    for (const exerciseType of ["none", "all", "proefalarm"]) {
      const fromRollUp = await statistics({ disciplines: ["Brandweer"], exerciseType });
      expect(await statistics({ disciplines: ["Brandweer"], exerciseType, sended: whole })).toEqual(fromRollUp);
    }
    const fire = await statistics({ disciplines: ["Brandweer"] });
    expect(fire.perDay.map((d: { count: number }) => d.count)).toEqual([1, 0, 1]);
  });

  test("a monitor's matches and capcodes' links in the window give the days their lists give", async () => {
    const { rows } = await ctx.db.asOwner(
      `select array_agg(uuid::text order by name) as uuids from app_public.p2000_capcodes
        where name in (app_hidden.p2000_normalize_capcode('001500123'), app_hidden.p2000_normalize_capcode('001420007'))`,
    );
    const filters: Record<string, unknown>[] = [
      { monitor: { uuid: monitorUuid } },
      { monitor: { uuid: monitorUuid }, exerciseType: "all" },
      { capcodes: rows[0].uuids },
      { capcodes: [rows[0].uuids[1]], exerciseType: "all" },
      { capcode: { names: ["1500123", "1420007"] } },
    ];
    const sum = (counts: Array<{ count: number }> | null) => (counts ?? []).reduce((n, c) => n + c.count, 0);
    for (const filter of filters) {
      const stats = await statistics(filter);
      const chart = stats.perDay;
      // Every message in the window has a region: the breakdown counts the days' messages, no more.
      expect({ filter, byRegion: sum(stats.byRegion) }).toEqual({ filter, byRegion: sum(chart) });
      expect({ filter, perDay: chart }).toEqual({
        filter,
        perDay: await perDayOfList(
          filter,
          chart.map((d: { date: string }) => d.date),
        ),
      });
    }
    const monitored = await statistics({ monitor: { uuid: monitorUuid }, exerciseType: "all" });
    expect(monitored.perDay.map((d: { count: number }) => d.count)).toEqual([1, 0, 2]);
  });
});
