// The spec to the letter, one rule per error class (README "Errors"): no user means
// UNAUTHENTICATED for every account operation, checked before anything else; the scalar is the
// spec's DateTime; counts equal their lists whatever changed the rows, a DBA's UPDATE and DELETE
// included; the spec's type names and defaults as introspection shows them; City.displayName with
// the municipality; the spec's urgencies; meteoSnapshot of a past day as the state at its end.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "@jest/globals";
import { ROOT_DIR } from "../../lib/paths.ts";
import { ingestMeteoDocument } from "../../lib/feeds/meteo/ingest.ts";
import { warningsXml } from "../../lib/feeds/meteo/sample-documents.ts";
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
    const data = await ok(
      "query ($f: DateTime!, $t: DateTime!) { p2000MessagesCount(filter: { sended: { from: $f, to: $t } }) }",
      { f: "2026-01-01T00:00:00Z", t: "2026-01-02T00:00:00Z" },
    );
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
    await ctx.db.asOwner(
      "update app_public.p2000_messages set sended = sended - interval '30 days' where message like '%Dorpsstraat%'",
    );
    expect(await agree(window)).toBe(2);
    expect(await agree({ ...window, capcodes: [capcode] })).toBe(1);
    expect(await agree({ sended: { from: at(24 * 40), to: at(0) } })).toBe(3);

    // The statistics read the same roll-ups.
    const {
      rows: [daily],
    } = await ctx.db.asOwner(`select coalesce(sum(messages), 0)::int as n from app_hidden.p2000_daily_counts
      where dimension = 'total' and day >= (now() - interval '72 hours')::date`);
    expect(daily.n).toBe(2);
  });
});

describe("the spec's names and defaults, as introspection shows them", () => {
  const FIELD_ARGS = `{ __schema { queryType { fields(includeDeprecated: true) { name args { name defaultValue } } } } }`;
  let defaults: Map<string, string | null>;
  beforeAll(async () => {
    const { __schema } = await ok(FIELD_ARGS);
    defaults = new Map();
    for (const field of __schema.queryType.fields as {
      name: string;
      args: { name: string; defaultValue: string | null }[];
    }[]) {
      for (const arg of field.args) defaults.set(`${field.name}.${arg.name}`, arg.defaultValue);
    }
  });

  test("aircraftStatistics returns [AircraftWithStats!]!, the spec's type name", async () => {
    const { body } = await ctx.service.graphql(
      "{ aircraftStatistics { __typename ... on AircraftWithStats { icao } } }",
      { token },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.aircraftStatistics[0]).toEqual({ __typename: "AircraftWithStats", icao: expect.any(String) });
  });

  test("every default the spec names is declared", () => {
    expect(
      Object.fromEntries(
        [
          "p2000Statistics.period",
          "p2000MessageStatistics.chartDays",
          "hubAnalyticsHourly.days",
          "hubAnalyticsUrgency.days",
          "hubAnalyticsWeekdays.days",
          "meteoObservationHistory.limit",
          "hectometerMarkersNearest.limit",
          "aircraftRoutes.includeUnstarted",
          "p2000Dossier.messagesOrderBy",
          "p2000Dossier.timelineOrderBy",
          "rssFeedItems.first",
        ].map((key) => [key, defaults.get(key)]),
      ),
    ).toEqual({
      "p2000Statistics.period": "LAST_7_DAYS",
      "p2000MessageStatistics.chartDays": "30",
      "hubAnalyticsHourly.days": "28",
      "hubAnalyticsUrgency.days": "28",
      "hubAnalyticsWeekdays.days": "28",
      "meteoObservationHistory.limit": "1000",
      "hectometerMarkersNearest.limit": "10",
      "aircraftRoutes.includeUnstarted": "false",
      "p2000Dossier.messagesOrderBy": '"sendedAsc"',
      "p2000Dossier.timelineOrderBy": '"newestFirst"',
      "rssFeedItems.first": "20",
    });
    // Index queries: first 50 (spec §8) and page 1; the type-ahead searches show their own 10.
    const typeAhead = ["cities", "postcodes", "searchRoads", "locationSuggestions", "areaChoices"];
    for (const [key, value] of defaults) {
      const [field, arg] = key.split(".");
      if (arg === "page") expect([key, value]).toEqual([key, "1"]);
      if (arg === "first" && field !== "rssFeedItems")
        expect([key, value]).toEqual([key, typeAhead.includes(field) ? "10" : "50"]);
    }
  });

  test("every literal SQL default of an operation is its GraphQL default (one definition)", async () => {
    const { rows } = await ctx.db.asOwner(`
      select p.proname as function, p.proargnames[a.n] as argument, pg_get_function_arg_default(p.oid, a.n) as sql
        from pg_proc p join pg_namespace s on s.oid = p.pronamespace,
             generate_series(1, coalesce(array_length(p.proallargtypes, 1), p.pronargs)) as a (n)
       where s.nspname = 'app_public' and p.pronargdefaults > 0 and pg_get_function_arg_default(p.oid, a.n) !~ '^NULL::'`);
    const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    const shown = rows.filter((row) => defaults.has(`${camel(row.function)}.${camel(row.argument)}`));
    expect(shown.length).toBeGreaterThan(40);
    for (const row of shown) {
      const literal = String(row.sql)
        .replace(/^'(.*)'::text$/, '"$1"')
        .replace(/^'(.*)'::[\w.]+$/, "$1");
      expect([row.function, row.argument, defaults.get(`${camel(row.function)}.${camel(row.argument)}`)]).toEqual([
        row.function,
        row.argument,
        literal,
      ]);
    }
  });

  test("an omitted argument and its declared default give the same answer", async () => {
    const data = await ok(`{ a: p2000Urgencies { code } b: p2000Urgencies(first: 50, page: 1) { code }
      c: cities(search: "berg") { uuid } d: cities(search: "berg", first: 10) { uuid } }`);
    expect(data.a).toEqual(data.b);
    expect(data.c).toEqual(data.d);
    expect(data.c).toHaveLength(10);
  });
});

describe("City.displayName shows the municipality of places that share a name", () => {
  test("Hengelo in Overijssel and in Gelderland; Bergen, two municipalities of one name, with their provinces", async () => {
    const labels = async (search: string, name: string) =>
      (
        await ok("query ($s: String!) { cities(search: $s, first: 50) { name displayName municipality } }", {
          s: search,
        })
      ).cities.filter((c: { name: string }) => c.name === name);
    expect(await labels("Hengelo", "Hengelo")).toEqual(
      expect.arrayContaining([
        { name: "Hengelo", displayName: "Hengelo (Hengelo)", municipality: "Hengelo" },
        { name: "Hengelo", displayName: "Hengelo (Bronckhorst)", municipality: "Bronckhorst" },
      ]),
    );
    expect((await labels("Bergen", "Bergen")).map((c: { displayName: string }) => c.displayName).sort()).toEqual([
      "Bergen (Bergen, Limburg)",
      "Bergen (Bergen, Noord-Holland)",
    ]);
    // A name of one place only: as it is.
    expect((await labels("Nieuw-Vennep", "Nieuw-Vennep"))[0].displayName).toBe("Nieuw-Vennep");
    const { locationSuggestions } = await ok(`{ locationSuggestions(search: "Hengelo", first: 20) { label } }`);
    expect(locationSuggestions.map((s: { label: string }) => s.label)).toContain("Hengelo (Bronckhorst)");
  });
});

describe("p2000Urgencies: urgent, less urgent and exercise", () => {
  test("the list holds the spec's three levels, and exercises and tests have the exercise urgency", async () => {
    const { p2000Urgencies } = await ok("{ p2000Urgencies { code level isUrgent disciplineUuid } }");
    const levels = new Set(p2000Urgencies.map((u: { level: string }) => u.level));
    for (const level of ["urgent", "less_urgent", "exercise"]) expect(levels).toContain(level);
    expect(p2000Urgencies.at(-1)).toEqual({ code: "OEF", level: "exercise", isUrgent: false, disciplineUuid: null });

    const sended = new Date(Date.now() - 3_600_000).toISOString();
    await storeP2000Pages(ctx.db, [
      { message: "Oefening P 2 BRT-01 Brand woning Kerkstraat Schiedam", sended, capcodes: ["1730001"] },
      { message: "P 1 TEST proefpagina brandweer", sended, capcodes: ["1730001"] },
      { message: "Proefalarm", sended, capcodes: ["1730001"] },
      { message: "P 2 BRT-01 Buitenbrand Kerkstraat Schiedam 173121", sended, capcodes: ["1730001"] },
    ]);
    const { p2000Messages } =
      await ok(`{ p2000Messages(filter: { exerciseType: "all", capcode: { names: ["1730001"] } }) {
      message exerciseType urgency { code level } } }`);
    const byText = Object.fromEntries(p2000Messages.map((m: { message: string }) => [m.message, m]));
    expect(byText["Oefening P 2 BRT-01 Brand woning Kerkstraat Schiedam"]).toMatchObject({
      exerciseType: "oefening",
      urgency: { code: "OEF", level: "exercise" },
    });
    expect(byText["P 1 TEST proefpagina brandweer"]).toMatchObject({ exerciseType: "test", urgency: { code: "OEF" } });
    expect(byText["Proefalarm"]).toMatchObject({ exerciseType: "proefalarm", urgency: { code: "OEF" } });
    expect(byText["P 2 BRT-01 Buitenbrand Kerkstraat Schiedam 173121"]).toMatchObject({
      exerciseType: "none",
      urgency: { code: "P2", level: "less_urgent" },
    });
  });
});

describe("meteoSnapshot of a past day: the state at its end", () => {
  const REGIONS = `query ($d: String!) { meteoSnapshot(date: $d) { regionCode statusCode warnings { icon periods { status_code from to } } } }`;
  const warned = async (date: string) =>
    Object.fromEntries(
      (await ok(REGIONS, { d: date })).meteoSnapshot
        .filter((r: { statusCode: number }) => r.statusCode > 0)
        .map(
          (r: {
            regionCode: string;
            statusCode: number;
            warnings: { icon: string; periods: { from: string; to: string }[] }[];
          }) => [
            r.regionCode,
            r.warnings.map((w) => `${w.icon} ${w.periods.map((p) => `${p.from.slice(8, 13)}-${p.to.slice(8, 13)}`)}`),
          ],
        ),
    );

  beforeAll(async () => {
    // The fixture day's three KNMI issues (10:00, 11:00 and 12:00 UTC on 20 November), then one
    // issued the next morning that warns Zeeland for that morning.
    for (const hour of ["1000", "1100", "1200"]) {
      const file = path.join(ROOT_DIR, "test", "fixtures", "meteo", `knmi_waarschuwingen_20261120${hour}.xml`);
      await ingestMeteoDocument(ctx.service.ownerPool, fs.readFileSync(file, "utf8"), file);
    }
    const morning = (hour: number) => new Date(Date.UTC(2026, 10, 21, hour));
    await ingestMeteoDocument(
      ctx.service.ownerPool,
      warningsXml(
        morning(6),
        [
          {
            phenomenon: "wind",
            locations: ["ZE"],
            from: morning(10),
            to: morning(11),
            status: 2,
            text: "Zeer zware windstoten.",
          },
        ],
        "issued on the morning of 21 November",
      ),
      "next-morning.xml",
    );
  });

  test("what was in force at 23:59:59 and what had been announced by then; not what ended before, nor later news", async () => {
    // Noord-Holland's wind ended at midnight (23:00 UTC): only its last yellow period was in force;
    // Utrecht's ended at 19:00 and is not in it. The iciness of the 21st had been announced;
    // Zeeland's wind of the 21st was announced only on the 21st.
    expect(await warned("2026-11-20")).toEqual({
      groningen: ["iciness 21T03-21T06"],
      friesland: ["iciness 21T03-21T06"],
      drenthe: ["iciness 21T03-21T06"],
      "noord-holland": ["wind 20T21-20T23"],
    });
    // At the end of the 21st nothing is in force any more.
    expect(await warned("2026-11-21")).toEqual({});
  });

  test("the day's answer is kept at ingestion and equals computing it anew", async () => {
    const {
      rows: [kept],
    } = await ctx.db
      .asOwner(`select exists (select 1 from app_hidden.meteo_day_snapshots where day = '2026-11-20') as cached,
      (select array_agg(d) from app_public.meteo_snapshot('2026-11-20') d) = (select array_agg(d) from app_hidden.meteo_end_of_day('2026-11-20') d) as same`);
    expect(kept).toEqual({ cached: true, same: true });
  });
});
