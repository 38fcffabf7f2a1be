// AMBER alerts, NL-Alerts and provinces end to end: the pollers against a local feed server with
// documents in the sources' real shapes (broken ones too), the CLI with either kind, a Cancel that
// ends an alert and leaves no personal details anywhere in its row, NL-Alerts found by the safety
// regions their areas cover, and the Timestamp scalar's bounds.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import pg from "pg";
import { parseAmberAlerts } from "../../lib/feeds/alerts/amber-parser.ts";
import { storeAmberAlerts, storeNlAlerts } from "../../lib/feeds/alerts/ingest.ts";
import { parseNlAlerts } from "../../lib/feeds/alerts/nl-alert-parser.ts";
import { pollAmberAlerts, pollNlAlerts } from "../../lib/feeds/alerts/poll.ts";
import {
  amberAlertsJson,
  nlAlertsJson,
  squareAround,
  type SampleAmberAlert,
  type SampleNlAlert,
} from "../../lib/feeds/alerts/sample-documents.ts";
import { runCli } from "../helpers/cli.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { errorOf, useTestService } from "../helpers/service.ts";

let feed: FeedServer;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "alerts-"));
beforeAll(async () => {
  feed = await startFeedServer();
});
const ctx = useTestService();
afterAll(async () => {
  await feed?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

let token: string;
beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
});

async function ok(query: string, variables?: Record<string, unknown>) {
  const { body } = await ctx.service.graphql(query, { token, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
}
async function failure(query: string, variables?: Record<string, unknown>) {
  const { status, body } = await ctx.service.graphql(query, { token, variables });
  expect(status).toBeLessThan(500);
  return errorOf(body);
}
const lines: string[] = [];
const log = { info: (m: string) => lines.push(`info ${m}`), error: (m: string) => lines.push(`error ${m}`) };
const amberFeed = () => ({ enabled: true, url: `${feed.url}/landactiehost/api/v1/alerts` });
const nlFeed = () => ({ enabled: true, url: `${feed.url}/api/v1/providers/nl-alert/alerts` });
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

const HOUR = 3_600_000;
const sophie: SampleAmberAlert = {
  alertId: "2026-0412",
  type: "Alert",
  level: 10,
  sent: new Date(Date.now() - 2 * HOUR),
  title: "Vermist: Sophie de Vries (7)",
  descriptionHtml: "<p>De politie zoekt <b>Sophie</b>, laatst gezien bij het station van Dalfsen.</p>",
  imageUrl: "https://media.example.nl/sophie.jpg",
  readMoreUrl: "https://www.politie.nl/vermist/sophie",
};
const regional: SampleAmberAlert = {
  alertId: "2026-0413",
  type: "Alert",
  level: 5,
  levelAsString: true,
  sent: new Date(Date.now() - HOUR),
  title: "Vermist: Daan (12)",
  descriptionHtml: "<p>Daan is vermist in Zwolle.</p>",
};

describe("before any alert", () => {
  test("the lists are empty; the provinces answer with their boundaries", async () => {
    const data = await ok(`{ amberAlerts { uuid } amberAlertHistory { uuid } nlAlerts { uuid }
      nlProvinces { code isoCode name capital } nlProvincesGeoJson meteoRegions { code } }`);
    expect(data.amberAlerts).toEqual([]);
    expect(data.amberAlertHistory).toEqual([]);
    expect(data.nlAlerts).toEqual([]);
    expect(data.nlProvinces).toHaveLength(12);
    expect(data.nlProvinces).toContainEqual({
      code: "noord-holland",
      isoCode: "NL-NH",
      name: "Noord-Holland",
      capital: "Haarlem",
    });
    // The weather regions are the same provinces by the same codes.
    expect(data.meteoRegions.map((r: { code: string }) => r.code).sort()).toEqual(
      data.nlProvinces.map((p: { code: string }) => p.code).sort(),
    );
    const geo = JSON.parse(data.nlProvincesGeoJson);
    expect(geo.type).toBe("FeatureCollection");
    expect(geo.features).toHaveLength(12);
    expect(geo.features[0]).toMatchObject({
      type: "Feature",
      properties: { code: "groningen", isoCode: "NL-GR" },
      geometry: { type: "MultiPolygon" },
    });
  });

  test("nlProvincesGeoJson is null while the boundaries are not loaded", async () => {
    const client = new pg.Client({ connectionString: ctx.db.ownerUrl });
    await client.connect();
    try {
      await client.query("begin");
      await client.query("update app_public.nl_provinces set boundary = null where code = 'zeeland'");
      const {
        rows: [{ geo }],
      } = await client.query("select app_public.nl_provinces_geo_json() as geo");
      expect(geo).toBeNull();
    } finally {
      await client.query("rollback");
      await client.end();
    }
  });
});

describe("AMBER and missing-child alerts", () => {
  test("the poller stores the running alerts with their details; the history has what and when only", async () => {
    feed.documents.set("/landactiehost/api/v1/alerts", { body: amberAlertsJson([sophie, regional]) });
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    expect(lines.at(-1)).toBe(
      "info amber-alerts: 2 AMBER alert message(s) read; 2 new, 0 updated, 0 ended (details erased).",
    );
    const data =
      await ok(`{ amberAlerts(activeOnly: true) { alertId level kind label active title description imageUrl readMoreUrl startedAt endedAt }
      amberAlertHistory { alertId level kind label active startedAt endedAt durationMinutes } }`);
    expect(data.amberAlerts).toEqual([
      {
        alertId: "2026-0413",
        level: 5,
        kind: "missing_child",
        label: "Vermist Kind Alert",
        active: true,
        title: "Vermist: Daan (12)",
        description: "Daan is vermist in Zwolle.",
        imageUrl: null,
        readMoreUrl: null,
        startedAt: seconds(regional.sent),
        endedAt: null,
      },
      {
        alertId: "2026-0412",
        level: 10,
        kind: "amber",
        label: "AMBER Alert",
        active: true,
        title: "Vermist: Sophie de Vries (7)",
        description: "De politie zoekt Sophie, laatst gezien bij het station van Dalfsen.",
        imageUrl: "https://media.example.nl/sophie.jpg",
        readMoreUrl: "https://www.politie.nl/vermist/sophie",
        startedAt: seconds(sophie.sent),
        endedAt: null,
      },
    ]);
    expect(data.amberAlertHistory[1]).toEqual({
      alertId: "2026-0412",
      level: 10,
      kind: "amber",
      label: "AMBER Alert",
      active: true,
      startedAt: seconds(sophie.sent),
      endedAt: null,
      durationMinutes: null,
    });
  });

  test("the history type cannot carry a name, photo or text", async () => {
    const { __type } = await ok(`{ __type(name: "AmberAlertHistory") { fields { name } } }`);
    const names = __type.fields.map((f: { name: string }) => f.name);
    for (const personal of ["title", "description", "descriptionExt", "imageUrl", "readMoreUrl"])
      expect(names).not.toContain(personal);
  });

  test("a Cancel ends the alert and leaves no personal details in its row", async () => {
    feed.documents.set("/landactiehost/api/v1/alerts", {
      body: amberAlertsJson([{ ...sophie, type: "Cancel" }, regional]),
    });
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    expect(lines.at(-1)).toMatch(/0 new, 0 updated, 1 ended \(details erased\)\.$/);
    const { amberAlerts } = await ok(
      `{ amberAlerts { alertId active title description descriptionExt imageUrl readMoreUrl endedAt } }`,
    );
    expect(amberAlerts[1]).toEqual({
      alertId: "2026-0412",
      active: false,
      title: null,
      description: null,
      descriptionExt: null,
      imageUrl: null,
      readMoreUrl: null,
      endedAt: expect.any(Number),
    });
    const { rows } = await ctx.db.asOwner(
      "select count(*)::int as n from app_public.amber_alerts t where t::text ~* 'sophie|dalfsen|media\\.example'",
    );
    expect(rows[0].n).toBe(0);
    // Details on an ended alert are refused by the table itself.
    await expect(
      ctx.db.asOwner("update app_public.amber_alerts set title = 'x' where alert_id = '2026-0412'"),
    ).rejects.toThrow(/amber_alerts_no_personal_details_once_ended/);
  });

  test("an alert the list no longer holds has ended; activeOnly and since/until filter", async () => {
    feed.documents.set("/landactiehost/api/v1/alerts", { body: "[]" });
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    expect(lines.at(-1)).toMatch(/1 ended/);
    const data = await ok(
      `query($since: Timestamp, $until: Timestamp) {
      active: amberAlerts(activeOnly: true) { alertId }
      exact: amberAlertHistory(since: $since, until: $since) { alertId active }
      window: amberAlertHistory(since: $since, until: $until) { alertId } }`,
      { since: seconds(sophie.sent), until: seconds(regional.sent) - 1 },
    );
    expect(data.active).toEqual([]);
    expect(data.exact).toEqual([{ alertId: "2026-0412", active: false }]);
    expect(data.window).toEqual([{ alertId: "2026-0412" }]);
  });

  test("a broken document or bad items: the last state kept, one log line per change of state", async () => {
    const before = await ok(`{ amberAlertHistory { alertId active } }`);
    feed.documents.set("/landactiehost/api/v1/alerts", { body: '[{"AlertId": "2026-05' });
    lines.length = 0;
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    expect(lines).toEqual([
      "error amber-alerts: The alert document is not JSON (malformed or truncated, at character 21). (the last good document stays served)",
    ]);
    expect(await ok(`{ amberAlertHistory { alertId active } }`)).toEqual(before);

    const items = JSON.parse(amberAlertsJson([{ ...regional, alertId: "2026-0500" }]));
    feed.documents.set("/landactiehost/api/v1/alerts", {
      body: JSON.stringify([
        ...items,
        { ...items[0], AlertId: "2026-0501", AlertLevel: 7 },
        { ...items[0], AlertId: "2026-0502", State: "Test" },
        "nonsense",
      ]),
    });
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    expect(lines.at(-1)).toBe(
      "info amber-alerts: 1 AMBER alert message(s) read, 1 test message(s) left out, 2 bad item(s) skipped; 1 new, 0 updated, 0 ended (details erased).",
    );

    // The running alert's message unreadable in the next list: not taken for ended.
    feed.documents.set("/landactiehost/api/v1/alerts", { body: JSON.stringify([{ ...items[0], AlertLevel: "x" }]) });
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    const { amberAlerts } = await ok(`{ amberAlerts(activeOnly: true) { alertId title } }`);
    expect(amberAlerts).toEqual([{ alertId: "2026-0500", title: "Vermist: Daan (12)" }]);
  });

  test("an implausible time is no reason to fail: a Sent in milliseconds counts as absent", async () => {
    const [item] = JSON.parse(amberAlertsJson([{ ...regional, alertId: "2026-0800" }]));
    const stored = await storeAmberAlerts(
      ctx.service.ownerPool,
      parseAmberAlerts([item, { ...item, AlertId: "2026-0801", Sent: Date.now() }]),
      "test",
      { complete: false },
    );
    expect(stored).toMatchObject({ alerts: 2, started: 2 });
    const { amberAlertHistory } = await ok(`{ amberAlertHistory(first: 2) { alertId startedAt } }`);
    expect(amberAlertHistory.find((a: { alertId: string }) => a.alertId === "2026-0801").startedAt).toBeGreaterThan(
      seconds(new Date()) - 60,
    );

    // An NL-Alert starting before 1970 cannot be a Timestamp: that one item is skipped.
    const page = JSON.parse(
      nlAlertsJson([{ id: "0ld1960", messageNl: "x", startAt: new Date(Date.UTC(1960, 0, 1)), areas: [] }]),
    );
    expect(parseNlAlerts(page)).toMatchObject({ alerts: [], skipped: 1 });
  });
});

describe("an AMBER alert message without Sent", () => {
  test("keeps the start first seen across polls (the row does not change)", async () => {
    const [item] = JSON.parse(amberAlertsJson([{ ...regional, alertId: "2026-0700" }]));
    delete item.Sent;
    const body = JSON.stringify([item]);
    const url = "/landactiehost/api/v1/alerts";
    feed.documents.set(url, { body });
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    const first = await ok(`{ amberAlerts(activeOnly: true) { alertId startedAt } }`);
    const changed = async () =>
      (await ctx.db.asOwner("select changed from app_public.amber_alerts where alert_id = '2026-0700'")).rows[0]
        .changed;
    const changedBefore = await changed();
    // The same document under a new ETag: read and stored again, not a change.
    feed.documents.set(url, { body: `${body}\n` });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    expect(feed.requests.at(-1)).toMatchObject({ path: url, conditional: true });
    expect(await changed()).toEqual(changedBefore);
    expect(await ok(`{ amberAlerts(activeOnly: true) { alertId startedAt } }`)).toEqual(first);
  });
});

const rotterdam: SampleNlAlert = {
  id: "b7f2e1d3c8a1",
  startAt: new Date(Date.now() - 3 * HOUR),
  messageNl: "NL-Alert. Brand in industriegebied Europoort te Rotterdam. Blijf binnen.",
  messageEn: "NL-Alert. Fire in Europoort industrial area in Rotterdam. Stay inside.",
  areas: [squareAround(51.95, 4.1, 0.02)],
};
const groningenOver: SampleNlAlert = {
  id: "c0ffee000001",
  startAt: new Date(Date.now() - 30 * HOUR),
  stopAt: new Date(Date.now() - 28 * HOUR),
  messageNl: "NL-Alert. Storing drinkwater in Groningen.",
  areas: [squareAround(53.22, 6.57, 0.02)],
};
// One alert over Amsterdam and Haarlem: two regions from one area.
const amsterdamHaarlem: SampleNlAlert = {
  // Half a second into its second: `until` of that second must still hold it.
  id: "c0ffee000002",
  startAt: new Date(Math.floor((Date.now() - 5 * HOUR) / 1000) * 1000 + 500),
  messageNl: "NL-Alert. Zware storm.",
  areas: [
    [
      [52.33, 4.6],
      [52.33, 4.95],
      [52.4, 4.95],
      [52.4, 4.6],
      [52.33, 4.6],
    ],
  ],
};

describe("NL-Alerts", () => {
  test("the poller reads older pages while they hold news, then asks conditionally", async () => {
    const url = "/api/v1/providers/nl-alert/alerts";
    feed.documents.set(url, { body: nlAlertsJson([rotterdam, amsterdamHaarlem]) });
    feed.documents.set(`${url}?after=${amsterdamHaarlem.id}`, { body: nlAlertsJson([groningenOver]) });
    feed.documents.set(`${url}?after=${groningenOver.id}`, { body: nlAlertsJson([]) });
    lines.length = 0;
    await pollNlAlerts(ctx.service.ownerPool, nlFeed(), log);
    expect(lines).toEqual(["info nl-alerts: 3 NL-Alert(s) read; 3 new, 0 updated."]);
    await pollNlAlerts(ctx.service.ownerPool, nlFeed(), log);
    expect(feed.requests.filter((r) => r.path.startsWith(url)).map((r) => [r.path, r.conditional])).toEqual([
      [url, false],
      [`${url}?after=${amsterdamHaarlem.id}`, false],
      [`${url}?after=${groningenOver.id}`, false],
      [url, true],
    ]);
  });

  test("nlAlerts: the texts split, times as Timestamps, the regions the areas cover", async () => {
    const { nlAlerts } = await ok(
      `{ nlAlerts { alertId message messageNl messageEn active startAt stopAt areas regionNumbers resourceUri } }`,
    );
    expect(nlAlerts.map((a: { alertId: string }) => a.alertId)).toEqual([
      rotterdam.id,
      amsterdamHaarlem.id,
      groningenOver.id,
    ]);
    expect(nlAlerts[0]).toEqual({
      alertId: rotterdam.id,
      message: `${rotterdam.messageNl}***${rotterdam.messageEn}`,
      messageNl: rotterdam.messageNl,
      messageEn: rotterdam.messageEn,
      active: true,
      startAt: seconds(rotterdam.startAt),
      stopAt: null,
      areas: ["51.93,4.08 51.93,4.12 51.97,4.12 51.97,4.08 51.93,4.08"],
      regionNumbers: ["17"],
      resourceUri: `https://api.public-warning.app/api/v1/providers/nl-alert/alerts/${rotterdam.id}`,
    });
    expect(nlAlerts[1].regionNumbers).toEqual(["12", "13"]);
    expect(nlAlerts[2]).toMatchObject({
      active: false,
      messageEn: null,
      regionNumbers: ["01"],
      stopAt: seconds(groningenOver.stopAt!),
    });
  });

  test("regionNumber, activeOnly and since/until (inclusive) select", async () => {
    const data = await ok(
      `query($since: Timestamp) {
      haarlem: nlAlerts(regionNumber: "12") { alertId }
      amsterdam: nlAlerts(regionNumber: "VR13") { alertId }
      groningen: nlAlerts(regionNumber: "1") { alertId }
      groningenActive: nlAlerts(regionNumber: "01", activeOnly: true) { alertId }
      utrecht: nlAlerts(regionNumber: "09") { alertId }
      active: nlAlerts(activeOnly: true) { alertId }
      fromExactStart: nlAlerts(since: $since) { alertId }
      untilExactStart: nlAlerts(until: $since, regionNumber: "13") { alertId }
      paged: nlAlerts(first: 1, page: 2) { alertId } }`,
      { since: seconds(amsterdamHaarlem.startAt) },
    );
    expect(data).toEqual({
      haarlem: [{ alertId: amsterdamHaarlem.id }],
      amsterdam: [{ alertId: amsterdamHaarlem.id }],
      groningen: [{ alertId: groningenOver.id }],
      groningenActive: [],
      utrecht: [],
      active: [{ alertId: rotterdam.id }, { alertId: amsterdamHaarlem.id }],
      fromExactStart: [{ alertId: rotterdam.id }, { alertId: amsterdamHaarlem.id }],
      untilExactStart: [{ alertId: amsterdamHaarlem.id }],
      paged: [{ alertId: amsterdamHaarlem.id }],
    });
  });

  test("a withdrawn alert gets its stop time and is no longer active", async () => {
    const url = "/api/v1/providers/nl-alert/alerts";
    feed.documents.set(url, {
      body: nlAlertsJson([{ ...rotterdam, stopAt: new Date(Date.now() - 60_000) }, amsterdamHaarlem]),
    });
    await pollNlAlerts(ctx.service.ownerPool, nlFeed(), log);
    expect(lines.at(-1)).toBe("info nl-alerts: 2 NL-Alert(s) read; 0 new, 1 updated.");
    const { nlAlerts } = await ok(`{ nlAlerts(activeOnly: true, regionNumber: "17") { alertId } }`);
    expect(nlAlerts).toEqual([]);
  });

  test("bad arguments get clear errors", async () => {
    expect(await failure(`{ nlAlerts(regionNumber: "99") { alertId } }`)).toEqual({
      message: 'Unknown region number "99": give a safety-region number from 01 to 25.',
      code: "BAD_USER_INPUT",
    });
    expect(await failure(`{ nlAlerts(since: 20, until: 10) { alertId } }`)).toEqual({
      message: 'Argument "since" (20) is after "until" (10).',
      code: "BAD_USER_INPUT",
    });
    expect((await failure(`{ nlAlerts(regionNumber: "123") { alertId } }`)).code).toBe("BAD_USER_INPUT");
    expect((await failure(`{ nlAlerts(first: 0) { alertId } }`)).code).toBe("BAD_USER_INPUT");
    expect((await failure(`{ amberAlertHistory(page: 0) { alertId } }`)).code).toBe("BAD_USER_INPUT");
    // More than a page's cap stored (long ago): first is clamped to 100.
    const old = Array.from({ length: 110 }, (_, i): SampleNlAlert => ({
      id: `0ld${String(i).padStart(9, "0")}`,
      messageNl: "Oud",
      startAt: new Date(Date.UTC(2020, 0, 1, 0, i)),
      stopAt: new Date(Date.UTC(2020, 0, 2)),
      areas: [squareAround(52, 5)],
    }));
    await storeNlAlerts(ctx.service.ownerPool, parseNlAlerts(JSON.parse(nlAlertsJson(old))), "test");
    const { nlAlerts } = await ok(`{ nlAlerts(first: 500) { alertId } }`);
    expect(nlAlerts).toHaveLength(100);
  });

  test("Timestamp takes whole Unix seconds in range only", async () => {
    for (const since of [1.5, -1, 253402300800, "1700000000", true]) {
      const error = await failure(`query($since: Timestamp) { nlAlerts(since: $since) { alertId } }`, { since });
      expect(error.message).toMatch(/Timestamp must be a whole number of Unix seconds from 0 to 253402300799/);
      expect(error.code).toBe("GRAPHQL_VALIDATION_FAILED");
    }
    const literal = await failure(`{ amberAlertHistory(since: 1.5) { alertId } }`);
    expect(literal).toEqual({
      message: expect.stringMatching(/Timestamp must be a whole number of Unix seconds/),
      code: "GRAPHQL_VALIDATION_FAILED",
    });
    // Beyond GraphQL's 32-bit Int, as a literal too.
    expect(await ok(`{ amberAlertHistory(since: 4102444800) { alertId } }`)).toEqual({ amberAlertHistory: [] });
  });
});

describe("ingest:alerts", () => {
  test("reads either kind by its shape; a malformed file is rejected whole", async () => {
    const write = (name: string, content: string) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, content);
      return file;
    };
    const nl = write("nl.json", nlAlertsJson([{ ...rotterdam, id: "d00d00000001" }]));
    const broken = write("broken.json", '{"data": [');
    const neither = write("neither.json", '{"alerts": []}');
    const result = await runCli("ingest-alerts.ts", [nl, broken, neither], ctx.db.ownerUrl);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${nl}: 1 NL-Alert(s) read; 1 new, 0 updated.`);
    expect(result.stderr).toContain(`${broken}: rejected whole, nothing changed: The alert document is not JSON`);
    expect(result.stderr).toContain(`${neither}: rejected whole, nothing changed: Neither an AMBER alert list`);
    const amber = write("amber.json", amberAlertsJson([{ ...regional, alertId: "2026-0600" }]));
    const second = await runCli("ingest-alerts.ts", [amber], ctx.db.ownerUrl);
    expect(second.stdout).toContain("1 AMBER alert message(s) read; 1 new, 0 updated, 1 ended (details erased).");
  });
});
