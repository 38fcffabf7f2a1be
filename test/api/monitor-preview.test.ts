// monitorPreview over real HTTP: what a P2000 monitor would have matched in the stored history.
// The preview of a keyword monitor must give exactly what live matching records for a saved
// monitor with the same input (app_private.match_p2000_message over the same messages, in time
// order): the same messages, the same days, and with throttle rules the same notifications. It
// takes a user's access token, refuses what createMonitor refuses, and saves nothing.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { errorOf, useTestService } from "../helpers/service.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

const ctx = useTestService();
const HOUR = 3_600_000;
const PREVIEW = `query ($i: CreateMonitorInput!, $d: Int) {
  monitorPreview(input: $i, days: $d) {
    matches notifications
    byDay { date matches notifications }
    messages { uuid message sended capcodes { name } region { number } }
    items { kind uuid at title latitude longitude }
  }
}`;

let ada: TestUser;
/** Dutch midnights: midnight[n] is the start of the day n days ago in Europe/Amsterdam. */
const midnight: number[] = [];
/** Dutch dates, dates[n] the date n days ago. */
const dates: string[] = [];
const iso = (ms: number) => new Date(ms).toISOString();

async function preview(input: Record<string, unknown>, days?: number | null, token: string | null = ada.accessToken) {
  return (await ctx.service.graphql(PREVIEW, { token: token ?? undefined, variables: { i: input, d: days } })).body;
}
async function previewOk(input: Record<string, unknown>, days?: number) {
  const body = await preview(input, days);
  expect(body.errors).toBeUndefined();
  return body.data.monitorPreview as {
    matches: number;
    notifications: number;
    byDay: Array<{ date: string; matches: number; notifications: number }>;
    messages: Array<{
      uuid: string;
      message: string;
      sended: string;
      capcodes: Array<{ name: string }>;
      region: { number: string } | null;
    }>;
    items: Array<{ kind: string; uuid: string; at: string; title: string }>;
  };
}

/** What live matching recorded for a monitor: its matches newest first, and per Dutch day. */
/** Saves the monitor as its owner would (createMonitor), and returns its uuid. */
async function createMonitor(input: Record<string, unknown>): Promise<string> {
  const { body } = await ctx.service.graphql(
    "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
    { token: ada.accessToken, variables: { i: input } },
  );
  expect(body.errors).toBeUndefined();
  return body.data.createMonitor.uuid;
}

async function recorded(monitorUuid: string) {
  const { rows: matches } = await ctx.db.asOwner(
    `
    select message_uuid as uuid, suppressed_reason as reason from app_hidden.monitor_matches
     where monitor_uuid = $1 order by sended desc, message_uuid desc`,
    [monitorUuid],
  );
  const { rows: days } = await ctx.db.asOwner(
    `
    select to_char((sended at time zone 'Europe/Amsterdam')::date, 'YYYY-MM-DD') as date, count(*)::int as matches,
           count(*) filter (where suppressed_reason is null)::int as notifications
      from app_hidden.monitor_matches where monitor_uuid = $1 group by 1 order by 1`,
    [monitorUuid],
  );
  return { matches, days };
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org");
  const { rows } = await ctx.db.asOwner(`
    select n, extract(epoch from (date_trunc('day', now() at time zone 'Europe/Amsterdam') - n * interval '1 day')
                                  at time zone 'Europe/Amsterdam') * 1000 as ms,
           to_char((now() at time zone 'Europe/Amsterdam')::date - n, 'YYYY-MM-DD') as date
      from generate_series(0, 30) n order by n`);
  for (const row of rows) {
    midnight[row.n] = Number(row.ms);
    dates[row.n] = row.date;
  }
  const page = (message: string, at: number, capcodes = ["0923001"]) => ({ message, sended: iso(at), capcodes });
  const now = Date.now();
  // History (older than an hour: no live matching queued for it). Kerkstraat for the keyword
  // monitor, in any case, but not in exercises or with an excluded word; Dorpsstraat, in the last
  // day, for the throttles (two messages of one incident: the same text minutes apart).
  await storeP2000Pages(ctx.db, [
    page("A1 AMBU 09101 Kerkstraat Utrecht bon 500001", midnight[5] + 9 * HOUR),
    page("A2 AMBU 09102 Molenweg Utrecht bon 500002", midnight[5] + 10 * HOUR),
    page("P 1 BDH-01 BR woning Kerkstraat Utrecht 091111", midnight[5] + 11 * HOUR, ["0923001", "0923002"]),
    page("PROEFALARM Kerkstraat Utrecht", midnight[4] + 12 * HOUR),
    page("A1 AMBU 09103 KERKSTRAAT Utrecht bon 500003", midnight[4] + 13 * HOUR),
    page("P 3 BDH-02 Nacontrole Kerkstraat Utrecht 091112", midnight[2] + 8 * HOUR),
    page("A1 AMBU 09104 Kerkstraat Zeist bon 500004", midnight[20] + 8 * HOUR),
    page("A1 AMBU 09105 Dorpsstraat Utrecht bon 600001", now - 20 * HOUR),
    page("A1 AMBU 09105 Dorpsstraat Utrecht bon 600001", now - 20 * HOUR + 3 * 60_000),
    page("A2 AMBU 09106 Dorpsstraat Utrecht bon 600002", now - 15 * HOUR),
    page("P 1 BDH-03 BR woning Dorpsstraat Utrecht 091113", now - 10 * HOUR),
    page("B1 AMBU 09107 Dorpsstraat Utrecht bon 600003", now - 5 * HOUR),
  ]);
});

describe("monitorPreview", () => {
  const keywordInput = {
    name: "Kerkstraat",
    query: JSON.stringify({ keywords: ["Kerkstraat"], excludeKeywords: ["nacontrole"] }),
  };
  // Every throttle: one notification per incident, two a day.
  const throttledInput = {
    name: "Dorpsstraat",
    query: JSON.stringify({ keywords: ["dorpsstraat"] }),
    notificationRules: JSON.stringify({ maxPerDossier: 1, maxPerPeriod: { count: 2, minutes: 1440 } }),
  };
  let keywordPreview: Awaited<ReturnType<typeof previewOk>>;
  let throttledPreview: Awaited<ReturnType<typeof previewOk>>;
  let keywordMonitor: string;
  let throttledMonitor: string;

  test("saves nothing: no monitor, match or notification", async () => {
    const count = async () =>
      (
        await ctx.db.asOwner(`
      select (select count(*) from app_public.monitors)::int as monitors, (select count(*) from app_hidden.monitor_matches)::int as matches,
             (select count(*) from app_private.notifications)::int as notifications, (select count(*) from app_hidden.p2000_monitor_criteria)::int as criteria`)
      ).rows[0];
    const before = await count();
    keywordPreview = await previewOk(keywordInput, 7);
    throttledPreview = await previewOk(throttledInput, 2);
    expect(await count()).toEqual(before);
    expect(before.monitors).toBe(0);
  });

  test("gives the matches live matching records for the same monitor, newest first, with each day of the window", async () => {
    keywordMonitor = await createMonitor(keywordInput);
    throttledMonitor = await createMonitor(throttledInput);
    // Live matching over the same messages, in the order they were sent.
    await ctx.db.asOwner(
      "select app_private.match_p2000_message(uuid) from app_public.p2000_messages order by sended, uuid",
    );

    const live = await recorded(keywordMonitor);
    // Kerkstraat in any case, not the exercise, not the excluded Nacontrole, not 20 days ago (window of 7).
    expect(keywordPreview.messages.map((m) => m.message)).toEqual([
      "A1 AMBU 09103 KERKSTRAAT Utrecht bon 500003",
      "P 1 BDH-01 BR woning Kerkstraat Utrecht 091111",
      "A1 AMBU 09101 Kerkstraat Utrecht bon 500001",
    ]);
    expect(keywordPreview.messages.map((m) => m.uuid)).toEqual(live.matches.slice(0, 3).map((m) => m.uuid));
    expect(live.matches).toHaveLength(4); // and the one of 20 days ago, outside the window
    expect(keywordPreview.messages[1].capcodes).toEqual(
      expect.arrayContaining([{ name: "0923001" }, { name: "0923002" }]),
    );
    expect(keywordPreview).toMatchObject({ matches: 3, notifications: 3 });
    // Every day of the window, oldest first, today last; the days with matches are live matching's.
    expect(keywordPreview.byDay.map((d) => d.date)).toEqual(dates.slice(0, 7).reverse());
    expect(keywordPreview.byDay.filter((d) => d.matches > 0)).toEqual(live.days.filter((d) => d.date >= dates[6]));

    // Over 30 days the one of 20 days ago too: exactly live matching's list, in its order.
    const month = await previewOk(keywordInput);
    expect(month.byDay).toHaveLength(30);
    expect(month.messages.map((m) => m.uuid)).toEqual(live.matches.map((m) => m.uuid));
    // The plot list: the same matches, each with its time and text.
    expect(month.items.map((i) => i.uuid)).toEqual(live.matches.map((m) => m.uuid));
    expect(month.items.map((i) => [i.kind, new Date(i.at).getTime(), i.title])).toEqual(
      month.messages.map((m) => ["p2000", new Date(m.sended).getTime(), m.message]),
    );
    expect(month.byDay.filter((d) => d.matches > 0)).toEqual(live.days);

    // The messages, field for field, are those p2000Messages lists for the saved monitor.
    const { body } = await ctx.service.graphql(
      "query ($f: P2000MessageFilterInput) { p2000Messages(filter: $f) { uuid message sended capcodes { name } region { number } } }",
      { token: ada.apiToken, variables: { f: { monitor: { uuid: keywordMonitor } } } },
    );
    expect(month.messages).toEqual(body.data.p2000Messages);
  });

  test("applies the notification rules as live matching does: fewer notifications than matches, the same ones", async () => {
    const live = await recorded(throttledMonitor);
    expect(live.matches).toHaveLength(5);
    // The second page of an incident (max_per_dossier), and after two notifications the rest of the day (max_per_period).
    expect(live.matches.map((m) => m.reason)).toEqual([
      "max_per_period",
      "max_per_period",
      null,
      "max_per_dossier",
      null,
    ]);
    expect(throttledPreview.matches).toBe(5);
    expect(throttledPreview.notifications).toBe(live.matches.filter((m) => m.reason === null).length);
    expect(throttledPreview.notifications).toBeLessThan(throttledPreview.matches);
    expect(throttledPreview.messages.map((m) => m.uuid)).toEqual(live.matches.map((m) => m.uuid));
    expect(throttledPreview.items.map((i) => i.uuid)).toEqual(live.matches.map((m) => m.uuid));
    expect(throttledPreview.byDay.filter((d) => d.matches > 0)).toEqual(live.days);
  });

  test("minUrgency and quiet hours count as suppressed at each message's own time", async () => {
    const urgent = await previewOk({ ...throttledInput, notificationRules: JSON.stringify({ minUrgency: "A1" }) }, 2);
    // A1 and P 1 pages notify; A2 and B1 do not.
    expect(urgent).toMatchObject({ matches: 5, notifications: 3 });
    // Quiet from the Dutch time of 16 hours ago to that of 9 hours ago: the pages of 15 and 10 hours ago.
    const dutchTime = (ms: number) =>
      new Date(ms).toLocaleTimeString("en-GB", {
        timeZone: "Europe/Amsterdam",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      });
    const quiet = await previewOk(
      {
        ...throttledInput,
        notificationRules: JSON.stringify({
          quietHours: { from: dutchTime(Date.now() - 16 * HOUR), to: dutchTime(Date.now() - 9 * HOUR) },
        }),
      },
      2,
    );
    expect(quiet).toMatchObject({ matches: 5, notifications: 3 });
  });

  test("refuses what createMonitor refuses, days out of 1-90, and unknown types", async () => {
    for (const [input, days, message] of [
      [keywordInput, 0, /days must be from 1 to 90/],
      [keywordInput, 91, /days must be from 1 to 90/],
      [keywordInput, null, /days must be from 1 to 90/],
      [{ name: "x", query: '{"regions": ["99"]}' }, 30, /query\.regions: unknown or malformed value\(s\): 99/],
      [{ name: "", query: "{}" }, 30, /name must have 1 to 200 characters/],
      [{ name: "x", notificationRules: '{"snooze": true}' }, 30, /notificationRules\.snooze: unknown rule/],
      [{ name: "x", channels: '["00000000-0000-0000-0000-000000000000"]' }, 30, /channels: no channel/],
      [{ name: "x", type: "pager" }, 30, /type must be one of/],
    ] as const) {
      const body = await preview(input as Record<string, unknown>, days);
      expect({ input, days, error: errorOf(body) }).toEqual({
        input,
        days,
        error: { message: expect.stringMatching(message), code: "BAD_USER_INPUT" },
      });
    }
  });

  test("needs a user's access token: none, or an API token, is UNAUTHENTICATED", async () => {
    for (const token of [null, ada.apiToken]) {
      const body = await preview(keywordInput, 7, token);
      expect(errorOf(body).code).toBe("UNAUTHENTICATED");
      expect(body.data?.monitorPreview ?? null).toBeNull();
    }
  });
});
