// Matrix and rail_disruptions monitors end to end: jams (DATEX II AbnormalTraffic) from the jams
// feed of a local server notify a matrix monitor once, when their delay first reaches its minimum
// on its road; railway disruptions in the source's real JSON from a local server notify the
// monitors whose routes they lie on, a calamity every one, each once; broken documents change nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { brokenRailDisruptionsDocument, railDisruptionsSample } from "../../lib/feeds/rail/sample-documents.ts";
import { pollRailDisruptions } from "../../lib/feeds/rail/poll.ts";
import { pollTraffic } from "../../lib/feeds/traffic/poll.ts";
import { datexV2Xml, datexV3Xml, type SampleIncident } from "../../lib/feeds/traffic/sample-documents.ts";
import { runCli } from "../helpers/cli.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let feed: FeedServer;
let hooks: WebhookReceiver;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jams-"));
beforeAll(async () => {
  feed = await startFeedServer();
  hooks = await startWebhookReceiver();
});
const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: true } }));
afterAll(async () => {
  await hooks?.stop();
  await feed?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

let ada: TestUser;
beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org");
});
const gql = async (query: string, variables: Record<string, unknown> = {}, token = ada.accessToken) => {
  const { body } = await ctx.service.graphql(query, { token, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
};
async function monitorWithHook(name: string, type: string, query: object, hookPath: string): Promise<string> {
  const { createChannel } = await gql(
    `mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }`,
    { i: { type: "webhook", name, url: `${hooks.url}${hookPath}` } },
  );
  const { createMonitor } = await gql(`mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`, {
    i: { name, type, query: JSON.stringify(query), channels: JSON.stringify([createChannel.channel.uuid]) },
  });
  return createMonitor.uuid;
}
const notificationsOf = async (monitorUuid: string) =>
  (
    await ctx.db.asOwner(
      "select headline, event_type from app_private.notifications where monitor_uuid = $1 order by created",
      [monitorUuid],
    )
  ).rows;
const log = { info: () => {}, error: (m: string) => errors.push(m) };
const errors: string[] = [];

describe("matrix monitors", () => {
  const jam = (version: number, delayMinutes: number, extra: Partial<SampleIncident> = {}): SampleIncident => ({
    id: "RWS01_500",
    version,
    type: "jam",
    start: new Date(Date.now() - 20 * 60_000),
    latitude: 52.2,
    longitude: 4.9,
    roadNumber: "A2",
    delayMinutes,
    queueLengthMetres: 3500,
    ...extra,
  });
  const elsewhere: SampleIncident = {
    id: "RWS01_501",
    version: 1,
    type: "jam",
    start: new Date(),
    latitude: 52,
    longitude: 4.4,
    roadNumber: "A4",
    delayMinutes: 45,
  };
  const jamsFeed = () => ({ enabled: true, incidentsUrl: undefined, jamsUrl: `${feed.url}/actueel_beeld.xml.gz` });

  test("a jam on the road notifies once, when its delay first reaches the minimum", async () => {
    const monitor = await monitorWithHook("A2 files", "matrix", { roads: ["a2"], minDelayMinutes: 15 }, "/jams");
    const publish = async (records: SampleIncident[]) => {
      feed.documents.set("/actueel_beeld.xml.gz", { body: gzipSync(datexV2Xml(new Date(), records)) });
      await pollTraffic(ctx.service.ownerPool, jamsFeed(), log);
      await ctx.service.workerIdle();
    };
    await publish([jam(1, 10), elsewhere]);
    expect(await notificationsOf(monitor)).toEqual([]);
    await publish([jam(2, 20), elsewhere]);
    const [delivery] = await hooks.waitFor((r) => r.path === "/jams");
    expect(JSON.parse(delivery.body)).toMatchObject({
      event: "traffic.jam",
      monitor: { uuid: monitor },
      jam: { recordId: "RWS01_500_1", roadNumber: "A2", delayMinutes: 20, queueLengthMetres: 3500 },
    });
    await publish([jam(3, 35), elsewhere]);
    await publish([jam(4, 35, {}), elsewhere]);
    expect(await notificationsOf(monitor)).toEqual([
      { headline: "File op de A2: 20 min vertraging", event_type: "traffic.jam" },
    ]);
    expect(hooks.requests.filter((r) => r.path === "/jams")).toHaveLength(1);
  });

  test("a jam the feed no longer holds is closed; the incidents are not the jams feed's business", async () => {
    await ctx.db.asOwner(
      "insert into app_public.traffic_incidents (record_id, version, type) values ('RWS09_1', 1, 'accident')",
    );
    feed.documents.set("/actueel_beeld.xml.gz", { body: gzipSync(datexV3Xml(new Date(), [elsewhere])) });
    await pollTraffic(ctx.service.ownerPool, jamsFeed(), log);
    const open = async () =>
      (
        await ctx.db
          .asOwner(`select (select count(*)::int from app_public.traffic_jams where closed_at is null) as open_jams,
      (select count(*)::int from app_public.traffic_incidents where closed_at is null) as open_incidents`)
      ).rows[0];
    expect(await open()).toEqual({ open_jams: 1, open_incidents: 1 });
    // Back in the feed: open again.
    feed.documents.set("/actueel_beeld.xml.gz", { body: gzipSync(datexV3Xml(new Date(), [elsewhere, jam(4, 35)])) });
    await pollTraffic(ctx.service.ownerPool, jamsFeed(), log);
    expect(await open()).toEqual({ open_jams: 2, open_incidents: 1 });
  });

  test("ingest:traffic --jams stores a file's jams as the jams feed", async () => {
    const file = path.join(dir, "jams.xml");
    fs.writeFileSync(file, datexV2Xml(new Date(Date.now() + 60_000), [{ ...elsewhere, version: 2, delayMinutes: 50 }]));
    const result = await runCli("ingest-traffic.ts", ["--jams", file], ctx.db.ownerUrl);
    expect(result.stdout).toContain("1 jams read (0 other records left out); 0 new, 1 newer versions, 1 closed.");
    expect(result.code).toBe(0);
  });
});

describe("rail_disruptions monitors", () => {
  const railFeed = () => ({
    enabled: true,
    url: `${feed.url}/reisinformatie-api/api/v3/disruptions`,
    apiKey: "test-key",
  });

  test("railRoutes lists the routes with their stations", async () => {
    const { railRoutes } = await gql("{ railRoutes { value label description } }", {}, ada.apiToken);
    expect(railRoutes.length).toBeGreaterThan(30);
    expect(railRoutes).toContainEqual({
      value: "amsterdam-utrecht",
      label: "Amsterdam – Utrecht",
      description: expect.stringContaining("Utrecht Centraal"),
    });
  });

  test("a disruption notifies the monitors of its routes, a calamity every monitor, each once", async () => {
    const onRoute = await monitorWithHook(
      "Amsterdam–Utrecht",
      "rail_disruptions",
      { routes: ["amsterdam-utrecht"] },
      "/rail-a",
    );
    const offRoute = await monitorWithHook(
      "Groningen–Zwolle",
      "rail_disruptions",
      { routes: ["zwolle-groningen"] },
      "/rail-b",
    );
    // The sample's list, plus a disruption that names no station: it lies on no route.
    const items = JSON.parse(railDisruptionsSample(new Date()));
    const disruption = items.find((item: { type: string }) => item.type === "DISRUPTION");
    items.push({ ...disruption, id: "7099999", title: "Storing zonder stations", publicationSections: [] });
    feed.documents.set("/reisinformatie-api/api/v3/disruptions", { body: JSON.stringify(items) });
    await pollRailDisruptions(ctx.service.ownerPool, railFeed(), log);
    await ctx.service.workerIdle();
    // The key goes in the API portal's own header, not Authorization.
    expect(feed.requests.at(-1)?.authorized).toBe(false);
    expect(feed.requestHeaders.at(-1)?.["ocp-apim-subscription-key"]).toBe("test-key");
    const onRouteEvents = (await notificationsOf(onRoute)).map((n) => n.event_type).sort();
    expect(onRouteEvents).toEqual(["rail.calamity", "rail.disruption"]);
    // The maintenance on Assen–Groningen has not started (not active): nobody hears of it yet.
    expect((await notificationsOf(offRoute)).map((n) => n.event_type)).toEqual(["rail.calamity"]);
    const [delivery] = await hooks.waitFor((r) => r.path === "/rail-a" && r.body.includes("rail.disruption"));
    expect(JSON.parse(delivery.body)).toMatchObject({
      event: "rail.disruption",
      disruption: { kind: "disruption", stations: expect.arrayContaining(["ASD", "UT"]) },
    });

    // The same list again, and a broken one: nothing new, nothing lost.
    await pollRailDisruptions(ctx.service.ownerPool, railFeed(), log);
    feed.documents.set("/reisinformatie-api/api/v3/disruptions", { body: brokenRailDisruptionsDocument });
    await pollRailDisruptions(ctx.service.ownerPool, railFeed(), log);
    await ctx.service.workerIdle();
    expect(errors.at(-1)).toMatch(/^rail-disruptions: The rail disruptions document is not JSON/);
    expect(await notificationsOf(onRoute)).toHaveLength(2);
    const { rows } = await ctx.db.asOwner("select count(*)::int as n from app_public.rail_disruptions where active");
    expect(rows[0].n).toBe(3);
  });

  test("the key is not sent on to another origin when the source redirects", async () => {
    const elsewhere = await startFeedServer();
    try {
      elsewhere.documents.set("/v3/disruptions", { body: "[]" });
      feed.documents.set("/reisinformatie-api/api/v3/disruptions", {
        status: 302,
        body: "",
        location: `${elsewhere.url}/v3/disruptions`,
      });
      await pollRailDisruptions(ctx.service.ownerPool, railFeed(), log);
      expect(elsewhere.requests).toHaveLength(1);
      expect(elsewhere.requestHeaders[0]["ocp-apim-subscription-key"]).toBeUndefined();
    } finally {
      await elsewhere.stop();
    }
  });
});
