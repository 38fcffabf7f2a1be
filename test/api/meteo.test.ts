// Weather end to end over real HTTP: the eleven queries before any data (spec §7's null and empty
// answers), the poller fetching real-format documents from a local feed server (a broken one
// too, and a source that fails, logged once), the CLI, history and statistics of the fixture day,
// a live document turning Noord-Holland orange that notifies a meteo_weather monitor's webhook
// exactly once (a longer period does not notify again), and another environment kept out.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Webhook } from "standardwebhooks";
import { pollMeteo } from "../../lib/feeds/meteo/poll.ts";
import { warningsXml, type SampleWarning } from "../../lib/feeds/meteo/sample-documents.ts";
import { fixture, runCli } from "../helpers/cli.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let feed: FeedServer;
let hooks: WebhookReceiver;
beforeAll(async () => {
  feed = await startFeedServer();
  hooks = await startWebhookReceiver();
});
const ctx = useTestService(() => ({
  delivery: { allowPrivateTargets: true },
  feeds: {
    meteo: { enabled: true, warningsUrl: `${feed.url}/warnings.xml`, observationsUrl: `${feed.url}/observations.json` },
  },
}));
afterAll(async () => {
  await hooks?.stop();
  await feed?.stop();
});

let token: string;
let ada: TestUser;
beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
  ada = await signUp(ctx.service, "ada@example.org");
});

async function gql(query: string, variables: Record<string, unknown> = {}, as = token) {
  return (await ctx.service.graphql(query, { token: as, variables })).body;
}
async function ok(query: string, variables: Record<string, unknown> = {}, as = token) {
  const body = await gql(query, variables, as);
  expect(body.errors).toBeUndefined();
  return body.data;
}
const read = (name: string) => fs.readFileSync(fixture(`meteo/${name}`), "utf8");
const unix = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

/** Runs one poll through the worker, as the 5-minute schedule does, and waits for it. */
async function pollThroughWorker() {
  await ctx.db.asOwner("select graphile_worker.add_job('meteo__poll', '{}', job_key => 'test_poll')");
  await waitUntil(
    async () =>
      (
        await ctx.db.asOwner(
          "select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'meteo__poll' and j.key = 'test_poll'",
        )
      ).rows[0].n,
    (n) => n === 0,
    "the poll job",
  );
}

const DETAIL =
  "regionCode name statusCode status { description } warnings { icon label periods { description status_code from to } }";

describe("before any weather data", () => {
  test("every query answers null or empty as spec §7 says; the reference lists answer", async () => {
    const data = await ok(`{
      meteoGeneral { regionCode }
      meteoRegions { uuid code name statusCode status { description } }
      meteoRegionDetail(code: "noord-holland") { regionCode }
      meteoRegionDetails { regionCode }
      meteoSnapshot(date: "2026-11-20") { regionCode }
      meteoLatestObservation { stationId }
      meteoObservationHistory(stationId: "06260", fromTs: 0, toTs: 2000000000) { observedAt }
      meteoStatsAvailableYears
      meteoStatsMonthly(year: 2026) { month yellowDays orangeDays redDays warningDays }
      meteoColorCodes { value label description color }
    }`);
    expect(data.meteoGeneral).toBeNull();
    expect(data.meteoRegions).toHaveLength(12);
    expect(data.meteoRegions[3]).toMatchObject({
      code: "noord-holland",
      name: "Noord-Holland",
      statusCode: null,
      status: null,
    });
    expect(data.meteoRegionDetail).toBeNull();
    expect(data.meteoRegionDetails).toEqual([]);
    expect(data.meteoSnapshot).toEqual([]);
    expect(data.meteoLatestObservation).toBeNull();
    expect(data.meteoObservationHistory).toEqual([]);
    expect(data.meteoStatsAvailableYears).toEqual([]);
    expect(data.meteoStatsMonthly).toHaveLength(12);
    expect(data.meteoStatsMonthly.every((m: { warningDays: number }) => m.warningDays === 0)).toBe(true);
    expect(data.meteoColorCodes.map((c: { value: string }) => c.value)).toEqual(["yellow", "orange", "red"]);
    expect(data.meteoColorCodes[1]).toEqual({
      value: "orange",
      label: "Code oranje",
      description: expect.any(String),
      color: "#ff8c00",
    });
  });

  test("bad arguments are BAD_USER_INPUT errors that say what is wrong", async () => {
    const cases: Array<[string, RegExp]> = [
      ['{ meteoSnapshot(date: "20-11-2026") { regionCode } }', /date must be a day as YYYY-MM-DD/],
      ['{ meteoSnapshot(date: "2026-02-30") { regionCode } }', /date must be a day as YYYY-MM-DD/],
      ['{ meteoStatsMonthly(year: 2026, regionCode: "atlantis") { month } }', /regionCode must be a province code/],
      ["{ meteoStatsMonthly(year: 12) { month } }", /year must be from 1990 to 2999/],
      [
        '{ meteoObservationHistory(stationId: "06260", fromTs: 10, toTs: 5) { observedAt } }',
        /fromTs must not be after toTs/,
      ],
      [
        '{ meteoObservationHistory(stationId: "06260", fromTs: 0, toTs: 5, limit: 0) { observedAt } }',
        /"limit" must be at least 1/,
      ],
    ];
    for (const [query, message] of cases) {
      const body = await gql(query);
      expect(errorOf(body)).toEqual({ message: expect.stringMatching(message), code: "BAD_USER_INPUT" });
    }
  });

  test("the weather queries need an API token", async () => {
    const response = await ctx.service.graphql("{ meteoRegions { code } }");
    expect(response.status).toBe(401);
  });
});

describe("ingestion", () => {
  test("the poller stores real-format documents from the feed server; the same file again changes nothing", async () => {
    feed.documents.set("/warnings.xml", {
      body: read("knmi_waarschuwingen_202611201000.xml"),
      contentType: "application/xml",
    });
    feed.documents.set("/observations.json", {
      body: read("observations_202611201000.json"),
      contentType: "application/json",
    });
    await pollThroughWorker();
    const { rows: status } = await ctx.db.asOwner("select feed, ok from app_hidden.feed_status order by feed");
    expect(status).toEqual([
      { feed: "meteo-observations", ok: true },
      { feed: "meteo-warnings", ok: true },
    ]);
    const counts = async () =>
      (
        await ctx.db.asOwner(`select
      (select count(*)::int from app_public.meteo_warning_slices) as slices, (select count(*)::int from app_public.meteo_warning_events) as events,
      (select count(*)::int from app_public.meteo_observations) as observations, (select count(*)::int from app_hidden.meteo_documents) as documents`)
      ).rows[0];
    expect(await counts()).toEqual({ slices: 38, events: 6, observations: 52, documents: 2 });

    // Unchanged upstream: a conditional request, answered 304, stores nothing.
    await pollThroughWorker();
    expect(feed.requests.filter((r) => r.conditional).length).toBeGreaterThanOrEqual(2);
    // The same file by the CLI: recognised by its content.
    const again = await runCli(
      "ingest-meteo.ts",
      [fixture("meteo/knmi_waarschuwingen_202611201000.xml")],
      ctx.db.ownerUrl,
    );
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("the same document was stored before; nothing changed");
    expect(await counts()).toEqual({ slices: 38, events: 6, observations: 52, documents: 2 });
  });

  test("later documents by the CLI: a longer period is no event, red and an ended warning are", async () => {
    const result = await runCli(
      "ingest-meteo.ts",
      [fixture("meteo/knmi_waarschuwingen_202611201100.xml"), fixture("meteo/knmi_waarschuwingen_202611201200.xml")],
      ctx.db.ownerUrl,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "knmi_waarschuwingen_202611201100.xml: warnings: 4032 slices read; 39 warned hours stored, 0 warning event(s).",
    );
    expect(result.stdout).toContain(
      "knmi_waarschuwingen_202611201200.xml: warnings: 4032 slices read; 34 warned hours stored, 2 warning event(s).",
    );
    const { rows } = await ctx.db
      .asOwner(`select p.code, e.level, e.previous_level, e.phenomena from app_public.meteo_warning_events e
      join app_public.meteo_provinces p on p.uuid = e.province_uuid order by e.uuid`);
    expect(rows.slice(-2)).toEqual(
      expect.arrayContaining([
        { code: "noord-holland", level: "red", previous_level: "orange", phenomena: ["wind"] },
        { code: "zuid-holland", level: "none", previous_level: "yellow", phenomena: [] },
      ]),
    );
  });

  test("an older document fills only the hours before the next newer one and announces nothing", async () => {
    const hours = async () =>
      (
        await ctx.db.asOwner(`select to_char(s.hour at time zone 'UTC', 'DD"T"HH24') as hour, s.status
      from app_public.meteo_warning_slices s join app_public.meteo_provinces p on p.uuid = s.province_uuid
      where p.code = 'limburg' and s.phenomenon = 'thunderstorm' order by s.hour`)
      ).rows;
    const events = async () =>
      (await ctx.db.asOwner("select count(*)::int as n from app_public.meteo_warning_events")).rows[0].n;
    const [beforeHours, beforeEvents] = [await hours(), await events()];
    // Issued at 09:00, before the three fixture issues: code red for thunder in Limburg all day.
    const older = warningsXml(
      new Date("2026-11-20T09:00:00Z"),
      [
        {
          phenomenon: "thunderstorm",
          locations: ["LB"],
          status: 3,
          from: new Date("2026-11-20T09:00:00Z"),
          to: new Date("2026-11-20T23:00:00Z"),
          text: "Oud bericht.",
        },
      ],
      "Synthetic older issue for tests.",
    );
    const file = path.join(os.tmpdir(), `older-issue-${process.pid}.xml`);
    fs.writeFileSync(file, older);
    try {
      const result = await runCli("ingest-meteo.ts", [file], ctx.db.ownerUrl);
      expect(result.stdout).toMatch(/1 warned hours stored, 0 warning event\(s\) \(an older document/);
    } finally {
      fs.rmSync(file);
    }
    expect(await events()).toBe(beforeEvents);
    expect(await hours()).toEqual([{ hour: "20T09", status: 3 }, ...beforeHours]); // only 09:00, before the 10:00 issue
  });

  test("a truncated file is rejected whole by the CLI and the poller; the last good state stays served", async () => {
    const before = await ok(`{ meteoSnapshot(date: "2026-11-20") { regionCode statusCode } }`);
    const cli = await runCli("ingest-meteo.ts", [fixture("meteo/knmi_waarschuwingen_truncated.xml")], ctx.db.ownerUrl);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/rejected whole, nothing changed: warnings XML is malformed or truncated/);

    feed.documents.set("/warnings.xml", { body: read("knmi_waarschuwingen_truncated.xml") });
    await pollThroughWorker();
    const {
      rows: [status],
    } = await ctx.db.asOwner("select ok, message from app_hidden.feed_status where feed = 'meteo-warnings'");
    expect(status.ok).toBe(false);
    expect(status.message).toMatch(/malformed or truncated.*the last good document stays served/);
    expect(await ok(`{ meteoSnapshot(date: "2026-11-20") { regionCode statusCode } }`)).toEqual(before);
  });

  test("a bad record in a good file is skipped and counted", async () => {
    const result = await runCli(
      "ingest-meteo.ts",
      [fixture("meteo/knmi_waarschuwingen_bad_record.xml")],
      ctx.db.ownerUrl,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/2 bad record\(s\) skipped/);
    expect(result.stderr).toMatch(/skipped: .*status "7" is not 0-3/);
  });

  test("a KNMI Open Data file listing is followed to the newest file, the key sent to KNMI only", async () => {
    const name = "knmi_waarschuwingen_202611201000.xml";
    feed.documents.set("/v1/datasets/w/versions/1.0/files?maxKeys=1&orderBy=created&sorting=desc", {
      body: JSON.stringify({ files: [{ filename: name, size: 473066 }] }),
      contentType: "application/json",
    });
    feed.documents.set(`/v1/datasets/w/versions/1.0/files/${name}/url`, {
      body: JSON.stringify({ temporaryDownloadUrl: `${feed.url}/download/${name}?signature=x` }),
      contentType: "application/json",
    });
    feed.documents.set(`/download/${name}?signature=x`, { body: read(name) });
    const lines: string[] = [];
    await pollMeteo(
      ctx.service.ownerPool,
      {
        enabled: true,
        apiKey: "knmi-key",
        observationsUrl: undefined,
        warningsUrl: `${feed.url}/v1/datasets/w/versions/1.0/files?maxKeys=1&orderBy=created&sorting=desc`,
      },
      { info: (m) => lines.push(m), error: (m) => lines.push(`error ${m}`) },
    );
    expect(lines.filter((line) => line.startsWith("error"))).toEqual([]);
    const asked = feed.requests.filter((r) => r.path.startsWith("/v1/") || r.path.startsWith("/download/"));
    expect(asked.map((r) => [r.path.split("?")[0], r.authorized])).toEqual([
      ["/v1/datasets/w/versions/1.0/files", true],
      [`/v1/datasets/w/versions/1.0/files/${name}/url`, true],
      [`/download/${name}`, false],
    ]);
    // The file was stored before (by its content): recognised, nothing changed.
    const {
      rows: [{ n }],
    } = await ctx.db.asOwner(
      "select count(*)::int as n from app_hidden.meteo_documents where source like '%/v1/datasets/%'",
    );
    expect(n).toBe(0);
  });

  test("a failing source is logged once per change of state, not at every poll", async () => {
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(`info ${m}`), error: (m: string) => lines.push(`error ${m}`) };
    const config = {
      enabled: true,
      warningsUrl: `${feed.url}/gone.xml`,
      observationsUrl: undefined,
      apiKey: undefined,
    };
    await pollMeteo(ctx.service.ownerPool, config, log);
    await pollMeteo(ctx.service.ownerPool, config, log);
    await pollMeteo(ctx.service.ownerPool, config, log);
    expect(lines).toEqual([expect.stringMatching(/^error meteo-warnings: HTTP 404/)]);
    feed.documents.set("/gone.xml", { body: read("knmi_waarschuwingen_202611201200.xml") });
    await pollMeteo(ctx.service.ownerPool, config, log);
    await pollMeteo(ctx.service.ownerPool, config, log);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^info meteo-warnings: warnings: the same document was stored before/);
    // Switched off, or KNMI's source without a key: nothing is fetched.
    const requests = feed.requests.length;
    await pollMeteo(ctx.service.ownerPool, { ...config, enabled: false }, log);
    await pollMeteo(
      ctx.service.ownerPool,
      { ...config, warningsUrl: "https://api.dataplatform.knmi.nl/open-data/v1/x" },
      log,
    );
    expect(feed.requests.length).toBe(requests);
  });
});

describe("history, observations and statistics of the fixture day", () => {
  test("meteoSnapshot of 2026-11-20 is the state at the end of the day", async () => {
    const { meteoSnapshot } = await ok(`{ meteoSnapshot(date: "2026-11-20") { ${DETAIL} } }`);
    expect(meteoSnapshot).toHaveLength(12);
    // Noord-Holland's wind ran until midnight (23:00 UTC): its last, yellow period was in force.
    const nh = meteoSnapshot.find((r: { regionCode: string }) => r.regionCode === "noord-holland");
    expect(nh).toMatchObject({ name: "Noord-Holland", statusCode: 1, status: { description: "Code geel" } });
    expect(nh.warnings).toHaveLength(1);
    expect(nh.warnings[0]).toMatchObject({ icon: "wind", label: "Wind" });
    expect(
      nh.warnings[0].periods.map((p: { status_code: number; from: string; to: string }) => [
        p.status_code,
        p.from.slice(11, 16),
        p.to.slice(11, 16),
      ]),
    ).toEqual([[1, "21:00", "23:00"]]);
    expect(nh.warnings[0].periods[0].description).toMatch(/^Zware windstoten tot 80 km\/u/);
    // Served from the day's answer kept at ingestion, which equals computing it anew.
    const {
      rows: [kept],
    } = await ctx.db
      .asOwner(`select exists (select 1 from app_hidden.meteo_day_snapshots where day = '2026-11-20') as cached,
      (select array_agg(d) from app_public.meteo_snapshot('2026-11-20') d) = (select array_agg(d) from app_hidden.meteo_end_of_day('2026-11-20') d) as same`);
    expect(kept).toEqual({ cached: true, same: true });
    // Utrecht's wind ended at 19:00; the iciness of Groningen, Friesland and Drenthe had been announced for the 21st.
    expect(meteoSnapshot.find((r: { regionCode: string }) => r.regionCode === "utrecht").statusCode).toBe(0);
    expect(
      meteoSnapshot
        .filter((r: { statusCode: number }) => r.statusCode > 0)
        .map((r: { regionCode: string }) => r.regionCode),
    ).toEqual(["groningen", "friesland", "drenthe", "noord-holland"]);
  });

  test("observations: the default station's latest, a station's history with its limit", async () => {
    const { meteoLatestObservation } = await ok(
      "{ meteoLatestObservation { stationId stationName observedAt temperature windGust humidity } }",
    );
    expect(meteoLatestObservation).toMatchObject({
      stationId: "06260",
      stationName: "De Bilt",
      observedAt: expect.stringMatching(/^2026-11-20T10:00:00/),
    });
    const { meteoLatestObservation: hoek } = await ok('{ meteoLatestObservation(stationId: "06330") { windGust } }');
    expect(hoek.windGust).toEqual(expect.any(Number)); // its converter writes the gust as fx
    const { meteoObservationHistory } =
      await ok(`{ meteoObservationHistory(stationId: "06260", fromTs: ${unix("2026-11-20T08:00:00Z")},
      toTs: ${unix("2026-11-20T09:00:00Z")}) { observedAt } }`);
    expect(meteoObservationHistory.map((o: { observedAt: string }) => o.observedAt.slice(11, 16))).toEqual([
      "08:00",
      "08:10",
      "08:20",
      "08:30",
      "08:40",
      "08:50",
      "09:00",
    ]); // both ends included
    const { meteoObservationHistory: limited } = await ok(
      `{ meteoObservationHistory(stationId: "06240", fromTs: 0, toTs: 2000000000, limit: 3) { observedAt } }`,
    );
    expect(limited).toHaveLength(3);
  });

  test("statistics: years with events, whole days per level per month", async () => {
    const data =
      await ok(`{ meteoStatsAvailableYears all: meteoStatsMonthly(year: 2026) { month yellowDays orangeDays redDays warningDays }
      nh: meteoStatsMonthly(year: 2026, regionCode: "noord-holland") { month redDays warningDays } }`);
    expect(data.meteoStatsAvailableYears).toEqual([2026]);
    expect(data.all[10]).toEqual({ month: 11, yellowDays: 1, orangeDays: 0, redDays: 1, warningDays: 2 });
    expect(data.all[9].warningDays).toBe(0);
    expect(data.nh[10]).toEqual({ month: 11, redDays: 1, warningDays: 1 });
  });
});

describe("live warnings and meteo_weather monitors", () => {
  const HOUR = 3_600_000;
  const thisHour = () => new Date(Math.floor(Date.now() / HOUR) * HOUR);
  const nhWind = (status: 1 | 2 | 3, fromHours: number, toHours: number): SampleWarning => ({
    phenomenon: "wind",
    locations: ["NH"],
    status,
    text: "Zeer zware windstoten tot 100 km/u.",
    from: new Date(thisHour().getTime() + fromHours * HOUR),
    to: new Date(thisHour().getTime() + toHours * HOUR),
  });
  const live = (warnings: SampleWarning[], issuedHoursAgo = 0) =>
    warningsXml(new Date(thisHour().getTime() - issuedHoursAgo * HOUR), warnings, "Synthetic live sample for tests.");
  let monitorUuid: string;

  test("a province turning orange notifies the monitor's webhook once; a longer period does not notify again", async () => {
    const { createChannel } = await ok(
      `mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } signingSecret } }`,
      { i: { type: "webhook", name: "Weather hook", url: `${hooks.url}/meteo` } },
      ada.accessToken,
    );
    const { createMonitor } = await ok(
      `mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`,
      {
        i: {
          name: "Storm in Noord-Holland",
          type: "meteo_weather",
          query: JSON.stringify({ regions: ["noord-holland"], levels: ["orange", "red"] }),
          channels: JSON.stringify([createChannel.channel.uuid]),
        },
      },
      ada.accessToken,
    );
    monitorUuid = createMonitor.uuid;

    feed.documents.set("/warnings.xml", { body: live([nhWind(1, 1, 2), nhWind(2, 3, 6)], 1) });
    await pollThroughWorker();
    const [delivery] = await hooks.waitFor((r) => r.path === "/meteo");
    const body = JSON.parse(delivery.body);
    expect(body).toMatchObject({
      event: "meteo.warning.changed",
      monitor: { uuid: monitorUuid, name: "Storm in Noord-Holland" },
      warning: { regionCode: "noord-holland", regionName: "Noord-Holland", level: "orange", phenomena: ["wind"] },
    });
    // Before: the fixture documents of 20 November left Noord-Holland at yellow (the bad-record file was the last).
    expect(body.warning.previousLevel).toBe("yellow");
    expect(
      new Webhook(createChannel.signingSecret).verify(delivery.body, delivery.headers as Record<string, string>),
    ).toEqual(body);

    // The live reads show it at once.
    const data = await ok(`{ meteoRegionDetail(code: "noord-holland") { ${DETAIL} } meteoGeneral { ${DETAIL} }
      meteoRegions { code statusCode status { description } } }`);
    expect(data.meteoRegionDetail).toMatchObject({
      regionCode: "noord-holland",
      statusCode: 2,
      status: { description: "Code oranje" },
    });
    expect(data.meteoGeneral).toMatchObject({ regionCode: "nl", name: "Nederland", statusCode: 2 });
    expect(data.meteoGeneral.warnings[0].periods.map((p: { description: string }) => p.description)).toEqual([
      "Noord-Holland",
      "Noord-Holland",
    ]);
    // Announced for an hour from now: meteoRegionDetail lists it; meteoRegions' current status does not count it yet.
    expect(data.meteoRegions.find((r: { code: string }) => r.code === "noord-holland").statusCode).toBe(0);
    expect(data.meteoRegions.find((r: { code: string }) => r.code === "utrecht").statusCode).toBe(0);

    // The next issue: the same orange warning, lasting two hours longer.
    feed.documents.set("/warnings.xml", { body: live([nhWind(1, 1, 2), nhWind(2, 3, 8)]) });
    await pollThroughWorker();
    const {
      rows: [{ events }],
    } = await ctx.db.asOwner(
      "select count(*)::int as events from app_public.meteo_warning_events where period_to > now()",
    );
    expect(events).toBe(1);
    // Nothing left for the worker, and one notification in all: the longer period made none.
    await ctx.service.workerIdle();
    const {
      rows: [{ notifications }],
    } = await ctx.db.asOwner(
      "select count(*)::int as notifications from app_private.notifications where monitor_uuid = $1",
      [monitorUuid],
    );
    expect(notifications).toBe(1);
    expect(hooks.requests.filter((r) => r.path === "/meteo")).toHaveLength(1);
  });

  test("meteoWarningEventsForMonitor lists the matched events, for the monitor's environment only", async () => {
    const { meteoWarningEventsForMonitor } = await ok(
      `query ($m: String!) { meteoWarningEventsForMonitor(monitor: { uuid: $m }) {
      regionCode regionName level statusCode previousLevel phenomena periodFrom periodTo issuedAt } }`,
      { m: monitorUuid },
      ada.apiToken,
    );
    expect(meteoWarningEventsForMonitor).toEqual([
      expect.objectContaining({ regionCode: "noord-holland", level: "orange", statusCode: 2, phenomena: ["wind"] }),
    ]);
    const elsewhere = await gql(
      "query ($m: String!) { meteoWarningEventsForMonitor(monitor: { uuid: $m }) { level } }",
      { m: monitorUuid },
    );
    expect(errorOf(elsewhere)).toEqual({ message: "Monitor not found in this environment.", code: "NOT_FOUND" });
    const tooMany = await gql(
      "query ($m: String!) { meteoWarningEventsForMonitor(monitor: { uuid: $m }, first: 0) { level } }",
      { m: monitorUuid },
      ada.apiToken,
    );
    expect(errorOf(tooMany).code).toBe("BAD_USER_INPUT");
  });

  test("a meteo_weather monitor takes province codes and levels only", async () => {
    const body = await gql(
      `mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`,
      {
        i: { name: "x", type: "meteo_weather", query: JSON.stringify({ regions: ["NH"], levels: ["purple"] }) },
      },
      ada.accessToken,
    );
    expect(errorOf(body).code).toBe("BAD_USER_INPUT");
    expect(errorOf(body).message).toMatch(/regions|levels/);
  });
});
