// Traffic incidents end to end: DATEX II publications in both shapes (v2 SOAP envelope, gzipped,
// and v3 message container) through the CLI and the poller from a local feed server; versions
// that never go back, incidents closed (not deleted) when they leave the feed or end, a truncated
// file rejected whole; the road from the record or the nearest hectometre post; the reference
// lists of traffic monitors.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { pollTraffic } from "../../lib/feeds/traffic/poll.ts";
import { datexV2Xml, datexV3Xml, type SampleIncident } from "../../lib/feeds/traffic/sample-documents.ts";
import { fixture, runCli } from "../helpers/cli.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let feed: FeedServer;
let hooks: WebhookReceiver;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "traffic-"));
beforeAll(async () => {
  feed = await startFeedServer();
  hooks = await startWebhookReceiver();
});
// The webhook target is a local server, so this service allows private targets.
const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: true } }));
afterAll(async () => {
  await hooks?.stop();
  await feed?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

let token: string;
beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
  // Hectometre posts of the A12 near Utrecht, for incidents whose record names no road.
  const imported = await runCli("import-hectometers.ts", [fixture("nwb-hectopunten.geojson")], ctx.db.ownerUrl);
  expect(imported.code).toBe(0);
});

async function ok(query: string) {
  const { body } = await ctx.service.graphql(query, { token });
  expect(body.errors).toBeUndefined();
  return body.data;
}
const FIELDS =
  "recordId situationId version type severity roadNumber comment lanesRestricted latitude longitude startAt endAt active closedAt";
const write = (name: string, content: string | Buffer) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
};
const ingest = (...files: string[]) => runCli("ingest-traffic.ts", files, ctx.db.ownerUrl);

const start = new Date(Date.now() - 30 * 60_000);
const accident: SampleIncident = {
  id: "RWS03_100",
  version: 2,
  type: "accident",
  start,
  latitude: 52.0771,
  longitude: 4.9632,
  roadNumber: "A12",
  comment: "Ongeval op de A12 richting Utrecht",
  severity: "high",
  lanesRestricted: 2,
};
// Beside the A12's hectometre posts of the fixture, without a road in the record.
const breakdown: SampleIncident = {
  id: "RWS03_101",
  version: 1,
  type: "breakdown",
  start,
  latitude: 52.0848,
  longitude: 4.9101,
};
const unattended: SampleIncident = {
  id: "RWS03_102",
  version: 1,
  type: "unattended",
  start,
  latitude: 53.2,
  longitude: 6.56,
  roadNumber: "N7",
};
const roadworks: SampleIncident = { id: "RWS03_103", version: 1, type: "roadworks", start, latitude: 52, longitude: 5 };

describe("before any traffic data", () => {
  test("trafficIncidents is empty; the reference lists answer", async () => {
    const data =
      await ok(`{ trafficIncidents { recordId } trafficIncidentTypes { value label } accidentSeverityLevels { value label }
      highways { value label description } }`);
    expect(data.trafficIncidents).toEqual([]);
    expect(data.trafficIncidentTypes.map((t: { value: string }) => t.value)).toEqual([
      "accident",
      "breakdown",
      "unattended",
    ]);
    expect(data.accidentSeverityLevels.map((t: { value: string }) => t.value)).toEqual([
      "lowest",
      "low",
      "medium",
      "high",
      "highest",
    ]);
    expect(data.highways.length).toBeGreaterThan(40);
    expect(data.highways).toContainEqual({
      value: "A12",
      label: "A12 Den Haag – Zevenaar",
      description: expect.stringContaining("Utrecht"),
    });
  });
});

describe("ingestion", () => {
  test("a gzipped v2 publication by the CLI: the three kinds kept, other records left out, the road found", async () => {
    const file = write(
      "incidents.xml.gz",
      gzipSync(datexV2Xml(new Date(), [accident, breakdown, unattended, roadworks])),
    );
    const result = await ingest(file);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("3 incidents read (1 other records left out); 3 new, 0 newer versions, 0 closed.");
    const { trafficIncidents } = await ok(`{ trafficIncidents(active: true) { ${FIELDS} } }`);
    expect(trafficIncidents).toHaveLength(3);
    const byId = Object.fromEntries(trafficIncidents.map((i: { recordId: string }) => [i.recordId, i]));
    expect(byId.RWS03_100_1).toMatchObject({
      situationId: "RWS03_100",
      version: 2,
      type: "accident",
      severity: "high",
      roadNumber: "A12",
      comment: "Ongeval op de A12 richting Utrecht",
      lanesRestricted: 2,
      active: true,
      closedAt: null,
    });
    expect(byId.RWS03_101_1).toMatchObject({ type: "breakdown", roadNumber: "A12" }); // from the nearest hectometre post
    expect(byId.RWS03_102_1).toMatchObject({ type: "unattended", roadNumber: "N7" });

    // The same file again changes nothing.
    const again = await ingest(file);
    expect(again.stdout).toContain("3 incidents read (1 other records left out); 0 new, 0 newer versions, 0 closed.");
  });

  test("a v3 publication: a newer version updates, an incident no longer in the feed is closed, not deleted", async () => {
    const newer = { ...accident, version: 3, comment: "Ongeval opgeruimd, rijstrook weer vrij", lanesRestricted: 0 };
    const result = await ingest(write("incidents-v3.xml", datexV3Xml(new Date(), [newer, breakdown])));
    expect(result.stdout).toContain("2 incidents read (0 other records left out); 0 new, 1 newer versions, 1 closed.");
    const data =
      await ok(`{ active: trafficIncidents(active: true) { recordId version comment } closed: trafficIncidents(active: false) { recordId active closedAt }
      all: trafficIncidents { recordId } }`);
    expect(data.active).toContainEqual({
      recordId: "RWS03_100_1",
      version: 3,
      comment: "Ongeval opgeruimd, rijstrook weer vrij",
    });
    expect(data.closed).toEqual([{ recordId: "RWS03_102_1", active: false, closedAt: expect.any(String) }]);
    expect(data.all).toHaveLength(3);
  });

  test("an older version never overwrites a newer one; an end time in the past closes", async () => {
    const ended = { ...breakdown, version: 2, end: new Date(Date.now() - 60_000) };
    const result = await ingest(write("incidents-old.xml", datexV2Xml(new Date(), [accident, ended])));
    expect(result.stdout).toContain("0 new, 1 newer versions, 0 closed."); // closed by its own end time, in the upsert
    const { trafficIncidents } = await ok(`{ trafficIncidents { recordId version comment active } }`);
    expect(trafficIncidents).toContainEqual({
      recordId: "RWS03_100_1",
      version: 3,
      comment: "Ongeval opgeruimd, rijstrook weer vrij",
      active: true,
    });
    expect(trafficIncidents).toContainEqual({ recordId: "RWS03_101_1", version: 2, comment: null, active: false });
  });

  test("a record without a place, with severity unknown, or with an over-long id does not fail the file", async () => {
    const nowhere: SampleIncident = { id: "RWS03_400", version: 1, type: "accident", start, severity: "unknown" };
    const tooLong: SampleIncident = { ...breakdown, id: "X".repeat(300) };
    const current = [
      { ...accident, version: 3, comment: "Ongeval opgeruimd, rijstrook weer vrij", lanesRestricted: 0 },
      { ...breakdown, version: 2 },
    ];
    const result = await ingest(write("odd.xml", datexV2Xml(new Date(), [...current, nowhere, tooLong])));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/3 incidents read \(0 other records left out, 1 bad record\(s\) skipped\); 1 new/);
    const { trafficIncidents } = await ok(
      `{ trafficIncidents(active: true) { recordId severity roadNumber latitude } }`,
    );
    expect(trafficIncidents).toContainEqual({
      recordId: "RWS03_400_1",
      severity: null,
      roadNumber: null,
      latitude: null,
    });
  });

  test("an older file read after a newer one updates nothing it has not newer, and closes nothing", async () => {
    const before = await ok(`{ trafficIncidents { recordId version active } }`);
    const result = await ingest(
      write("older.xml", datexV2Xml(new Date(Date.now() - 3_600_000), [{ ...breakdown, version: 1 }])),
    );
    expect(result.stdout).toContain(
      "0 new, 0 newer versions, 0 closed (older than the newest file stored: nothing closed).",
    );
    expect(await ok(`{ trafficIncidents { recordId version active } }`)).toEqual(before);
  });

  test("a truncated file is rejected whole and the state stays", async () => {
    const before = await ok(`{ trafficIncidents { recordId version active } }`);
    const xml = datexV2Xml(new Date(), [accident]);
    const result = await ingest(write("truncated.xml.gz", gzipSync(xml.slice(0, xml.length - 200))));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rejected whole, nothing changed: DATEX II XML is malformed or truncated/);
    expect(await ok(`{ trafficIncidents { recordId version active } }`)).toEqual(before);
  });

  test("the poller stores the feed's file, asks conditionally, and logs a failing source once", async () => {
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(`info ${m}`), error: (m: string) => lines.push(`error ${m}`) };
    const config = { enabled: true, incidentsUrl: `${feed.url}/incidents.xml.gz`, jamsUrl: undefined };
    await pollTraffic(ctx.service.ownerPool, config, log);
    await pollTraffic(ctx.service.ownerPool, config, log);
    expect(lines).toEqual([expect.stringMatching(/^error traffic-incidents: HTTP 404/)]);
    const fresh: SampleIncident = { ...accident, id: "RWS03_200", version: 1 };
    feed.documents.set("/incidents.xml.gz", { body: gzipSync(datexV2Xml(new Date(), [fresh])) });
    await pollTraffic(ctx.service.ownerPool, config, log);
    expect(lines[1]).toMatch(/^info traffic-incidents: 1 incidents read .* 1 new, 0 newer versions, 3 closed\.$/);
    await pollTraffic(ctx.service.ownerPool, config, log);
    expect(feed.requests.at(-1)).toEqual({ path: "/incidents.xml.gz", conditional: true, authorized: false });
    const { trafficIncidents } = await ok(`{ trafficIncidents(active: true) { recordId } }`);
    expect(trafficIncidents).toEqual([{ recordId: "RWS03_200_1" }]);
  });
});

describe("arguments", () => {
  test("first is 1-200 (clamped above), page at least 1", async () => {
    for (const query of ["{ trafficIncidents(first: 0) { recordId } }", "{ trafficIncidents(page: 0) { recordId } }"]) {
      const { body } = await ctx.service.graphql(query, { token });
      expect(errorOf(body).code).toBe("BAD_USER_INPUT");
    }
    const { trafficIncidents } = await ok("{ trafficIncidents(first: 500) { recordId } }");
    expect(trafficIncidents.length).toBeLessThanOrEqual(200);
  });
});

describe("accident monitors", () => {
  let ada: TestUser;
  let monitorUuid: string;
  const gqlAs = async (as: string, query: string, variables: Record<string, unknown> = {}) =>
    (await ctx.service.graphql(query, { token: as, variables })).body;

  test("an accident on a monitored road within the radius notifies its webhook once; a later version with a new comment does not", async () => {
    ada = await signUp(ctx.service, "ada@example.org");
    const channel = await gqlAs(
      ada.accessToken,
      `mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }`,
      { i: { type: "webhook", name: "Road hook", url: `${hooks.url}/traffic` } },
    );
    const monitor = await gqlAs(
      ada.accessToken,
      `mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`,
      {
        i: {
          name: "A12 bij Utrecht",
          type: "accident",
          query: JSON.stringify({ types: ["accident"], roads: ["A12"] }),
          location: { latitude: 52.08, longitude: 4.95 },
          radius: 5,
          channels: JSON.stringify([channel.data.createChannel.channel.uuid]),
        },
      },
    );
    expect(monitor.errors).toBeUndefined();
    monitorUuid = monitor.data.createMonitor.uuid;

    const crash: SampleIncident = {
      ...accident,
      id: "RWS03_300",
      version: 1,
      start: new Date(Date.now() - 5 * 60_000),
    };
    const elsewhere: SampleIncident = { ...accident, id: "RWS03_301", version: 1, latitude: 51.5, longitude: 5.5 }; // outside the circle
    const still: SampleIncident = { ...accident, id: "RWS03_200", version: 1 };
    // Already over when first seen: stored closed, and no news for anybody.
    const over: SampleIncident = { ...crash, id: "RWS03_302", end: new Date(Date.now() - 60_000) };
    await ingest(write("monitored.xml", datexV2Xml(new Date(), [still, crash, elsewhere, breakdown, over])));
    const [delivery] = await hooks.waitFor((r) => r.path === "/traffic");
    expect(JSON.parse(delivery.body)).toMatchObject({
      event: "traffic.incident.opened",
      monitor: { uuid: monitorUuid },
      incident: { recordId: "RWS03_300_1", type: "accident", roadNumber: "A12", active: true },
    });

    await ingest(
      write(
        "monitored-2.xml",
        datexV2Xml(new Date(), [
          still,
          { ...crash, version: 2, comment: "Berger ter plaatse" },
          elsewhere,
          breakdown,
          { ...over, version: 2, comment: "Afgehandeld" },
        ]),
      ),
    );
    await ctx.service.workerIdle();
    const {
      rows: [{ n }],
    } = await ctx.db.asOwner("select count(*)::int as n from app_private.notifications where monitor_uuid = $1", [
      monitorUuid,
    ]);
    expect(n).toBe(1);
    expect(hooks.requests.filter((r) => r.path === "/traffic")).toHaveLength(1);
  });

  test("trafficIncidentsForMonitor lists the incidents passing the monitor's filters, for its environment only", async () => {
    const mine = await gqlAs(
      ada.apiToken,
      `query ($m: String!) { trafficIncidentsForMonitor(monitor: { uuid: $m }, active: true) { recordId } }`,
      { m: monitorUuid },
    );
    expect(mine.errors).toBeUndefined();
    expect(mine.data.trafficIncidentsForMonitor.map((i: { recordId: string }) => i.recordId).sort()).toEqual([
      "RWS03_200_1",
      "RWS03_300_1",
    ]);
    const other = await gqlAs(
      token,
      `query ($m: String!) { trafficIncidentsForMonitor(monitor: { uuid: $m }) { recordId } }`,
      { m: monitorUuid },
    );
    expect(errorOf(other)).toEqual({ message: "Accident monitor not found in this environment.", code: "NOT_FOUND" });
  });
});
