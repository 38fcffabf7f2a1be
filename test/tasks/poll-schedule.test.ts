// Feed scheduling (docs/operations.md, "Feed scheduling"), timed against a local feed server that
// serves every source in its real format. Switched off or without a URL, a feed is not read and
// nothing is booked for it. Switched on, with two workers on one database: every source is read
// within 10 s of the start, then the every-minute sources (traffic incidents and jams, AMBER,
// NL-Alert, rail, and an RSS feed with RSS_POLL_INTERVAL=60, the setting's least) every 60 ± 10 s
// over two intervals, the weather once in that time (every 5 minutes), and the aircraft receiver
// every AIRCRAFT_POLL_SECONDS without drift; never twice for the two workers.
import fs from "node:fs";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type pg from "pg";
import { loadConfig, mergeConfig, type ConfigOverrides } from "../../lib/config.ts";
import { resilientPool } from "../../lib/db/pool.ts";
import { flightDocuments } from "../../lib/feeds/aircraft/sample-documents.ts";
import { amberAlertsJson, nlAlertsJson } from "../../lib/feeds/alerts/sample-documents.ts";
import { railDisruptionsSample } from "../../lib/feeds/rail/sample-documents.ts";
import { datexV2Xml } from "../../lib/feeds/traffic/sample-documents.ts";
import { POLL_TASKS } from "../../tasks/index.ts";
import { nextRoundAt } from "../../tasks/poll-schedule.ts";
import { startWorker, type SupervisedWorker } from "../../worker.ts";
import { fixture } from "../helpers/cli.ts";
import { useTestDatabase } from "../helpers/database.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { startTestService, type TestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestDatabase();
let feed: FeedServer;
/** When each path was requested: the feed server lists its requests, this stamps each as it is listed. */
const readsAt = new Map<string, number[]>();
beforeAll(async () => {
  feed = await startFeedServer();
  const list = feed.requests.push.bind(feed.requests);
  feed.requests.push = (...requests) => {
    for (const { path } of requests) readsAt.set(path, [...(readsAt.get(path) ?? []), Date.now()]);
    return list(...requests);
  };
  const now = new Date();
  const flight = flightDocuments({
    hex: "48ffa2",
    flight: "LIFE2",
    registration: "PH-TSU",
    from: { lat: 52.37, lon: 4.89 },
    to: { lat: 52.38, lon: 4.64 },
    start: now,
  });
  const documents: Record<string, string | Buffer> = {
    "/incidents.xml.gz": gzipSync(datexV2Xml(now, [])),
    "/jams.xml.gz": gzipSync(datexV2Xml(now, [])),
    "/amber": amberAlertsJson([]),
    "/nl-alerts": nlAlertsJson([]),
    "/warnings.xml": fs.readFileSync(fixture("meteo/knmi_waarschuwingen_202611201000.xml")),
    "/observations.json": fs.readFileSync(fixture("meteo/observations_202611201000.json")),
    "/disruptions": railDisruptionsSample(now),
    "/aircraft.json": flight[0],
    "/p2000.rss": `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>P2000</title>
      <link>https://example.invalid/</link><description>Meldingen</description><item><title>P 1 Brand Hoogvliet</title>
      <guid isPermaLink="false">1</guid><pubDate>${now.toUTCString()}</pubDate></item></channel></rss>`,
  };
  for (const [path, body] of Object.entries(documents)) feed.documents.set(path, { body });
});
afterAll(() => feed?.stop());

const EVERY_MINUTE = ["/incidents.xml.gz", "/jams.xml.gz", "/amber", "/nl-alerts", "/disruptions", "/p2000.rss"];
const EVERY_5_MINUTES = ["/warnings.xml", "/observations.json"];
const AIRCRAFT_SECONDS = 5;

function feedsAt(url: string): ConfigOverrides {
  return {
    delivery: { allowPrivateTargets: true },
    log: { level: "warning" },
    feeds: {
      traffic: { enabled: true, incidentsUrl: `${url}/incidents.xml.gz`, jamsUrl: `${url}/jams.xml.gz` },
      amber: { enabled: true, url: `${url}/amber` },
      nlAlert: { enabled: true, url: `${url}/nl-alerts` },
      meteo: { enabled: true, warningsUrl: `${url}/warnings.xml`, observationsUrl: `${url}/observations.json` },
      rail: { enabled: true, url: `${url}/disruptions` },
      aircraft: { url: `${url}/aircraft.json`, intervalSeconds: AIRCRAFT_SECONDS },
      rss: { intervalSeconds: 60 },
    },
  };
}

const jobs = async () =>
  (
    await ctx.db.asOwner<{ task: string; run_at: Date }>(`select t.identifier as task, j.run_at
  from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id`)
  ).rows;

/** The seconds between a path's reads. */
function gapsOf(path: string): number[] {
  const times = readsAt.get(path) ?? [];
  return times.slice(1).map((at, i) => (at - times[i]) / 1000);
}
const offSchedule = (path: string, expected: number, tolerance: number) =>
  gapsOf(path)
    .filter((gap) => Math.abs(gap - expected) > tolerance)
    .map((gap) => ({ path, gap }));

test("a round keeps its poller's cadence when on time or a little late, and starts it afresh when later", () => {
  const due = new Date("2026-01-01T12:00:00Z");
  const next = (lateMs: number, intervalMs: number) =>
    nextRoundAt(due, intervalMs, due.getTime() + lateMs).toISOString();
  expect(next(0, 60_000)).toBe("2026-01-01T12:01:00.000Z");
  expect(next(1_800, 60_000)).toBe("2026-01-01T12:01:00.000Z");
  expect(next(20_000, 60_000)).toBe("2026-01-01T12:01:15.000Z");
  expect(next(1_800, 5_000)).toBe("2026-01-01T12:00:05.000Z");
  expect(next(9_000, 5_000)).toBe("2026-01-01T12:00:11.500Z");
});

describe("feeds", () => {
  test("switched off or without a URL: nothing is read and nothing is booked", async () => {
    const config = mergeConfig(mergeConfig(loadConfig(), feedsAt(feed.url)), {
      feeds: {
        traffic: { enabled: false },
        amber: { enabled: false },
        nlAlert: { enabled: false },
        rail: { url: undefined },
        aircraft: { url: undefined },
        meteo: { warningsUrl: undefined, observationsUrl: undefined },
      },
    });
    const pool = resilientPool({ connectionString: ctx.db.ownerUrl, max: 4 });
    const worker = await startWorker(pool, { ...config.worker, concurrency: 2 }, config);
    try {
      // Every poller was started, and its round read nothing and booked nothing (no rss monitor follows a feed yet).
      const { rows } = await ctx.db.asOwner(
        "select identifier from graphile_worker._private_tasks where identifier = any ($1)",
        [POLL_TASKS],
      );
      expect(rows).toHaveLength(POLL_TASKS.length);
      await waitUntil(jobs, (left) => left.length === 0, "the pollers' first rounds");
    } finally {
      await worker.stop();
      await pool.end();
    }
    expect(feed.requests).toHaveLength(0);
  });

  describe("switched on, with two workers on one database", () => {
    let service: TestService;
    let secondPool: pg.Pool;
    let second: SupervisedWorker;
    let started: number;
    beforeAll(async () => {
      // An rss monitor follows the feed before the workers start.
      await ctx.db.asOwner(
        "insert into app_public.monitors (environment_uuid, name, type, query) values ($1, 'P2000', 'rss', $2)",
        [ctx.db.operatorEnvironmentUuid, JSON.stringify({ feeds: [`${feed.url}/p2000.rss`] })],
      );
      started = Date.now();
      service = await startTestService(ctx.db, feedsAt(feed.url));
      secondPool = resilientPool({ connectionString: ctx.db.ownerUrl, max: 6 });
      const config = mergeConfig(loadConfig(), feedsAt(feed.url));
      second = await startWorker(secondPool, { ...config.worker, concurrency: 4 }, config);
      // Two intervals: three reads of every every-minute source.
      await waitUntil(
        () => EVERY_MINUTE.map((path) => readsAt.get(path)?.length ?? 0),
        (counts) => counts.every((n) => n >= 3),
        "three reads of every every-minute source",
        160_000,
      );
    }, 200_000);
    afterAll(async () => {
      await second?.stop();
      await secondPool?.end();
      await service?.stop();
    });

    test("every source is read within 10 s of the start", () => {
      const late = [...EVERY_MINUTE, ...EVERY_5_MINUTES, "/aircraft.json"]
        .map((path) => ({ path, seconds: ((readsAt.get(path)?.[0] ?? Infinity) - started) / 1000 }))
        .filter(({ seconds }) => seconds > 10);
      expect(late).toEqual([]);
    });

    test("the every-minute sources every 60 ± 10 s; the weather once, its next round 5 minutes on", async () => {
      expect(EVERY_MINUTE.flatMap((path) => offSchedule(path, 60, 10))).toEqual([]);
      expect(EVERY_5_MINUTES.map((path) => readsAt.get(path)?.length)).toEqual([1, 1]);
      const [meteo] = (await jobs()).filter(({ task }) => task === "meteo__poll");
      expect(Math.abs(meteo.run_at.getTime() - readsAt.get("/warnings.xml")![0] - 300_000)).toBeLessThan(5_000);
    });

    test("the receiver every AIRCRAFT_POLL_SECONDS ± 10 s, never twice at once, and without drift", () => {
      expect(offSchedule("/aircraft.json", AIRCRAFT_SECONDS, 10)).toEqual([]);
      expect(Math.min(...gapsOf("/aircraft.json"))).toBeGreaterThan(1);
      // Each round is booked an interval after the last one was due, not after it started, so
      // graphile-worker's pick-up delay (up to 2 s) is not added to every interval.
      const times = readsAt.get("/aircraft.json")!;
      const meanGap = (times.at(-1)! - times[0]) / 1000 / (times.length - 1);
      expect(Math.abs(meanGap - AIRCRAFT_SECONDS)).toBeLessThan(0.5);
    });
  });
});
