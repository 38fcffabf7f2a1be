// The open archive end to end: P2000 pages, an NL-Alert and an AMBER alert stored as the feeds
// store them, a run of the publisher at a chosen time, the files read back with others' readers
// (hyparquet for Parquet, csv-parse for CSV) and compared with the database; Dutch days of 23
// hours at the clock change; the delay; a second run that rebuilds nothing; a run that failed
// half-way through a day taken up where it stopped, with no file left open; retention; helicopter
// flights' ends rounded to about a kilometre; the files over real HTTP (index, file, ETag and 304,
// byte ranges, the data dictionary at the index's URL, 404 in plain words, no way out of the
// directory); the worker's task run at the real clock; /archive switched off; and
// docs/archive-columns.md naming every column of every file.
// The test service's own archive stays off (test/helpers/service.ts): its worker's crontab runs
// archive__publish ten minutes past each hour, and at the real clock that run would delete these
// March days and write into the same .partial directories as the test. The routes are served here
// from the test's directory instead, and the task is run by the test, through its function.
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { parse } from "csv-parse/sync";
import express from "express";
import type { JobHelpers } from "graphile-worker";
import { parquetMetadata, parquetReadObjects, parquetSchema } from "hyparquet";
import { loadConfig, mergeConfig } from "../../lib/config.ts";
import { loadAircraftDemo } from "../../lib/feeds/aircraft/demo-data.ts";
import { ingestAlertsDocument } from "../../lib/feeds/alerts/ingest.ts";
import { amberAlertsJson, nlAlertsJson, squareAround } from "../../lib/feeds/alerts/sample-documents.ts";
import type { ArchiveIndex } from "../../lib/open-data/archive/archive-index.ts";
import { ARCHIVE_FEEDS } from "../../lib/open-data/archive/feeds.ts";
import { publishArchive, type ArchiveConfig } from "../../lib/open-data/archive/publish.ts";
import { archiveRoutes } from "../../lib/open-data/archive/routes.ts";
import { makeArchivePublish } from "../../tasks/archive__publish.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { FEEDS_OFF, useTestService } from "../helpers/service.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "archive-test-"));
const settings: ArchiveConfig = { enabled: true, dir, delayHours: 24, keepDays: 4, daysPerRun: 10 };
const ctx = useTestService(() => ({ feeds: FEEDS_OFF }));

/** The archive's routes over real HTTP, as the API serves them from `archive.dir`; the base URL is PUBLIC_URL. */
async function serveArchive(archive: ArchiveConfig): Promise<{ base: string; server: http.Server }> {
  const server = http.createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = mergeConfig(loadConfig(), { archive, delivery: { publicUrl: base } });
  server.on("request", express().use(archiveRoutes({ config })));
  return { base, server };
}
let served: { base: string; server: http.Server };
beforeAll(async () => {
  served = await serveArchive(settings);
});
afterAll(() => {
  served.server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// Summer time began on Sunday 29 March 2026 at 02:00 (01:00 UTC): that day has 23 hours.
const PAGES = [
  { message: "P 1 BDH-01 Brand woning Dorpsstraat 1 Amsterdam", sended: "2026-03-26T12:00:00Z" },
  // 00:30 CET on the 29th, the first minute of the short day after its midnight.
  { message: 'A1 Ambulance Stationsplein 3 Utrecht "kort", zie melding', sended: "2026-03-28T23:30:00Z" },
  // 23:59 CEST: still the 29th.
  { message: "P 2 BDH-02 Nacontrole Kerkstraat Haarlem", sended: "2026-03-29T21:59:00Z" },
  // 00:30 CEST on the 30th: the next day, which the delay holds back.
  { message: "P 1 BDH-03 Liftopsluiting Marktplein Leiden", sended: "2026-03-29T22:30:00Z" },
];
/** The 31st at 11:00: the 30th ended 10 hours ago, so the 29th is the newest day due. */
const NOW = new Date("2026-03-31T09:00:00Z");
const DAYS = ["2026-03-29", "2026-03-28", "2026-03-27", "2026-03-26"];

const index = (): ArchiveIndex => JSON.parse(fs.readFileSync(path.join(dir, "index.json"), "utf8"));
const dayFile = (date: string, name: string) => path.join(dir, date.slice(0, 4), date, name);
const csvRows = (file: string): Record<string, string>[] => parse(fs.readFileSync(file), { columns: true, bom: false });
async function parquetFile(file: string) {
  const bytes = fs.readFileSync(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const metadata = parquetMetadata(buffer);
  return { metadata, rows: (await parquetReadObjects({ file: buffer })) as Record<string, unknown>[] };
}

/** The files under `dir` this process holds open (Linux: /proc/self/fd; the listing's own fd is gone when read). */
function openFilesIn(dir: string): string[] {
  return fs
    .readdirSync("/proc/self/fd")
    .map((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return "";
      }
    })
    .filter((target) => target.startsWith(dir));
}

/** A GET over a raw socket: the path exactly as given (fetch would resolve ../ first). */
function rawGet(pathname: string): Promise<{ status: number; body: string }> {
  const url = new URL(served.base);
  return new Promise((resolve, reject) => {
    http
      .get({ host: url.hostname, port: url.port, path: pathname }, (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      })
      .on("error", reject);
  });
}

describe("the open archive", () => {
  test("a run publishes each due Dutch day of every feed as CSV and Parquet, equal to the database", async () => {
    await storeP2000Pages(
      ctx.db,
      PAGES.map((page) => ({ ...page, capcodes: ["1300001"] })),
    );
    const nlAlert = {
      id: "archive-1",
      messageNl: "Brand in Rotterdam, sluit ramen en deuren.\nVolg de berichten.",
      startAt: new Date("2026-03-29T10:00:00Z"),
      stopAt: new Date("2026-03-29T14:00:00Z"),
      areas: [squareAround(51.92, 4.48, 0.02)],
    };
    await ingestAlertsDocument(ctx.service.ownerPool, Buffer.from(nlAlertsJson([nlAlert])), "test");
    const amber = {
      alertId: "amber-archive",
      type: "Alert" as const,
      level: 10 as const,
      sent: new Date("2026-03-29T08:00:00Z"),
      title: "Vermist: Jan Jansen (8) uit Utrecht",
      descriptionHtml: "<p>Jan Jansen is sinds vanochtend vermist.</p>",
    };
    await ingestAlertsDocument(ctx.service.ownerPool, Buffer.from(amberAlertsJson([amber])), "test");
    // The demo helicopter's two flights, on the 29th: Amsterdam → Haarlem → Leiden.
    await loadAircraftDemo(ctx.service.ownerPool, new Date("2026-03-29T12:00:00Z"));

    const run = await publishArchive(ctx.service.ownerPool, settings, NOW);
    expect(run).toEqual({ published: DAYS, deleted: [], remaining: 0 });

    // The index: every day, both formats of every feed, sizes, rows and checksums that hold.
    const listed = index();
    expect(listed.days.map((day) => day.date)).toEqual(DAYS);
    for (const day of listed.days) {
      expect(day.files.map((file) => `${file.feed}.${file.format}`).sort()).toEqual(
        ARCHIVE_FEEDS.flatMap((feed) => [`${feed.name}.csv`, `${feed.name}.parquet`]).sort(),
      );
      for (const file of day.files) {
        const bytes = fs.readFileSync(path.join(dir, file.path.replace(/^\/archive\//, "")));
        expect(bytes.length).toBe(file.bytes);
        expect((await import("node:crypto")).createHash("sha256").update(bytes).digest("hex")).toBe(file.sha256);
      }
    }

    // The short day holds its two pages, in time order; the page after its midnight is not in it.
    const { rows: stored } = await ctx.db.asOwner(
      `select uuid::text, message, sended, latitude, grip_level from app_public.p2000_messages
        where sended >= '2026-03-28T23:00:00Z' and sended < '2026-03-29T22:00:00Z' order by sended`,
    );
    expect(stored.map((row) => row.message)).toEqual([PAGES[1].message, PAGES[2].message]);
    const csv = csvRows(dayFile("2026-03-29", "p2000-messages.csv"));
    const parquet = await parquetFile(dayFile("2026-03-29", "p2000-messages.parquet"));
    expect(csv.map((row) => [row.id, row.message, row.sent])).toEqual(
      stored.map((row) => [row.uuid, row.message, row.sended.toISOString()]),
    );
    expect(parquet.rows.map((row) => [row.id, row.message, row.sent])).toEqual(
      stored.map((row) => [row.uuid, row.message, row.sended]),
    );
    // Both files hold the view's every column, in its order, with the same values.
    const { rows: viewRows } = await ctx.db.asOwner(
      "select * from app_private.archive_p2000_messages where id = any ($1) order by sent",
      [stored.map((row) => row.uuid)],
    );
    expect(parquet.rows).toEqual(viewRows);
    expect(Object.keys(csv[0])).toEqual(Object.keys(viewRows[0]));
    expect(csv[0].plain_text_nl).toBe(viewRows[0].plain_text_nl);
    expect(csv[0].plain_text_nl.length).toBeGreaterThan(0);

    // Types: timestamps as UTC timestamps, numbers as numbers.
    const columns = Object.fromEntries(
      parquetSchema(parquet.metadata).children.map((child) => [child.element.name, child.element]),
    );
    expect(columns.sent).toMatchObject({ type: "INT64", logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true } });
    expect(columns.latitude.type).toBe("DOUBLE");
    expect(columns.grip_level.type).toBe("INT32");
    expect(columns.message).toMatchObject({ type: "BYTE_ARRAY", converted_type: "UTF8" });

    // A day without pages: the header and no rows, in both formats.
    const empty = listed.days.find((day) => day.date === "2026-03-27")!;
    expect(empty.files.filter((file) => file.feed === "p2000-messages").map((file) => file.rows)).toEqual([0, 0]);
    expect(fs.readFileSync(dayFile("2026-03-27", "p2000-messages.csv"), "utf8")).toBe(
      Object.keys(viewRows[0]).join(",") + "\r\n",
    );
    expect((await parquetFile(dayFile("2026-03-27", "p2000-messages.parquet"))).rows).toEqual([]);

    // The NL-Alert: a text with a comma and a line break survives CSV quoting.
    const alerts = csvRows(dayFile("2026-03-29", "nl-alerts.csv"));
    expect(alerts).toEqual([expect.objectContaining({ id: "archive-1", message: nlAlert.messageNl })]);
    expect((await parquetFile(dayFile("2026-03-29", "nl-alerts.parquet"))).rows[0].stop_at).toEqual(nlAlert.stopAt);
    // The AMBER alert: when and how urgent, never the child's name or description.
    const ambers = fs.readFileSync(dayFile("2026-03-29", "amber-alerts.csv"), "utf8");
    expect(csvRows(dayFile("2026-03-29", "amber-alerts.csv"))).toEqual([
      expect.objectContaining({ id: "amber-archive", level: "10", started_at: amber.sent.toISOString() }),
    ]);
    expect(ambers).not.toMatch(/Jansen|vermist/i);

    // Helicopter flights: where one began and ended to 2 decimals (about 1 km), since a trauma
    // helicopter's landing can be a patient's address; the place names as stored.
    const { rows: routes } = await ctx.db.asOwner(
      `select uuid::text as id, start_latitude, start_longitude, start_place, end_latitude, end_longitude, end_place
         from app_public.aircraft_routes where first_seen_at >= '2026-03-28T23:00:00Z' and first_seen_at < '2026-03-29T22:00:00Z'
        order by first_seen_at`,
    );
    expect(routes).toHaveLength(2);
    const ends = ["start_latitude", "start_longitude", "end_latitude", "end_longitude"];
    // The stored positions are finer than that, so the rounding is seen.
    expect(routes.flatMap((route) => ends.map((end) => route[end])).some((x) => Math.round(x * 100) / 100 !== x)).toBe(
      true,
    );
    const rounded = routes.map((route) => ({
      ...route,
      ...Object.fromEntries(ends.map((end) => [end, Math.round(route[end] * 100) / 100])),
    }));
    const pick = (row: Record<string, unknown>) => Object.fromEntries(Object.keys(routes[0]).map((k) => [k, row[k]]));
    const flights = (await parquetFile(dayFile("2026-03-29", "helicopter-flights.parquet"))).rows;
    expect(flights.map(pick)).toEqual(rounded);
    expect(csvRows(dayFile("2026-03-29", "helicopter-flights.csv")).map(pick)).toEqual(
      rounded.map((route) =>
        Object.fromEntries(Object.entries(route).map(([k, v]) => [k, v === null ? "" : String(v)])),
      ),
    );
  });

  test("the delay holds back the day that has not been over for a day, and a second run rebuilds nothing", async () => {
    expect(fs.existsSync(dayFile("2026-03-30", "p2000-messages.csv"))).toBe(false);
    const before = fs.statSync(dayFile("2026-03-29", "p2000-messages.parquet"));
    const indexBefore = fs.statSync(path.join(dir, "index.json"));
    expect(await publishArchive(ctx.service.ownerPool, settings, NOW)).toEqual({
      published: [],
      deleted: [],
      remaining: 0,
    });
    expect(fs.statSync(dayFile("2026-03-29", "p2000-messages.parquet")).mtimeMs).toBe(before.mtimeMs);
    expect(fs.statSync(path.join(dir, "index.json")).mtimeMs).toBe(indexBefore.mtimeMs);
  });

  test("a long history is written a bounded number of days per run, newest first", async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "archive-backfill-"));
    try {
      const bounded = { ...settings, dir: fresh, daysPerRun: 3 };
      expect(await publishArchive(ctx.service.ownerPool, bounded, NOW)).toEqual({
        published: DAYS.slice(0, 3),
        deleted: [],
        remaining: 1,
      });
      expect(await publishArchive(ctx.service.ownerPool, bounded, NOW)).toEqual({
        published: DAYS.slice(3),
        deleted: [],
        remaining: 0,
      });
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });

  test("a run that fails half-way through a day leaves it unlisted, and the next run finishes it without redoing the feeds it wrote", async () => {
    const later = new Date("2026-04-01T09:00:00Z"); // the 30th is due
    // A directory where the NL-Alerts' CSV of the 30th is to be renamed to when whole: the run fails
    // there, after the feeds before it, with the CSV finished and the Parquet file still open.
    const partial = path.join(dir, "2026", ".2026-03-30.partial");
    const blocker = path.join(partial, "nl-alerts.csv");
    fs.mkdirSync(path.join(blocker, "in-the-way"), { recursive: true });
    await expect(publishArchive(ctx.service.ownerPool, settings, later)).rejects.toThrow();
    // Both files were closed on the way out: this process holds none of the archive's open.
    expect(openFilesIn(dir)).toEqual([]);
    const written = fs.statSync(path.join(partial, "p2000-messages.csv"));
    // Listed: the days in place, without the half-written 30th and without the 26th, past keeping.
    expect(index().days.map((day) => day.date)).toEqual(DAYS.slice(0, 3));
    // What a run killed while writing leaves: a half file under the temporary name.
    fs.rmSync(blocker, { recursive: true });
    fs.writeFileSync(`${blocker}.tmp`, "start_at,id,sto");

    const run = await publishArchive(ctx.service.ownerPool, settings, later);
    expect(run.published).toEqual(["2026-03-30"]);
    expect(fs.existsSync(partial)).toBe(false);
    expect(fs.statSync(dayFile("2026-03-30", "p2000-messages.csv")).mtimeMs).toBe(written.mtimeMs);
    expect(csvRows(dayFile("2026-03-30", "p2000-messages.csv")).map((row) => row.message)).toEqual([PAGES[3].message]);
    expect(csvRows(dayFile("2026-03-30", "nl-alerts.csv"))).toEqual([]);
    expect(index().days.map((day) => day.date)).toEqual(["2026-03-30", ...DAYS.slice(0, 3)]);
    // Four days kept: the 26th went, at the start of the run that failed.
    expect(fs.existsSync(path.join(dir, "2026", "2026-03-26"))).toBe(false);
  });

  test("over HTTP: the index, a file with its checksum as ETag, 304, a byte range, and 404 in plain words", async () => {
    const { base } = served;
    const listed = await fetch(`${base}/archive/index.json`);
    expect(listed.status).toBe(200);
    expect(listed.headers.get("cache-control")).toBe("public, max-age=300");
    const listedIndex = (await listed.json()) as ArchiveIndex;
    const entry = listedIndex.days[0].files.find(
      (file) => file.feed === "p2000-messages" && file.format === "parquet",
    )!;
    expect(entry.path).toBe("/archive/2026/2026-03-30/p2000-messages.parquet");

    const file = await fetch(base + entry.path);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    expect(file.headers.get("content-length")).toBe(String(entry.bytes));
    expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = file.headers.get("etag")!;
    expect(etag).toBe(`"${Buffer.from(entry.sha256, "hex").toString("base64url")}"`);
    expect(Buffer.from(await file.arrayBuffer()).length).toBe(entry.bytes);

    const again = await fetch(base + entry.path, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    const head = await fetch(base + entry.path, { method: "HEAD" });
    expect([head.status, head.headers.get("content-length"), head.headers.get("etag")]).toEqual([
      200,
      String(entry.bytes),
      etag,
    ]);
    const range = await fetch(base + entry.path, { headers: { range: "bytes=0-3" } });
    expect(range.status).toBe(206);
    expect(await range.text()).toBe("PAR1");

    const csv = await fetch(`${base}/archive/2026/2026-03-30/p2000-messages.csv`);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    const page = await fetch(`${base}/archive/`);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain('href="/archive/2026/2026-03-30/p2000-messages.csv"');

    // The data dictionary at the absolute URL the index gives: any client can fetch it.
    expect(listedIndex.columns).toBe(`${base}/archive/columns.md`);
    const columns = await fetch(listedIndex.columns);
    expect(columns.status).toBe(200);
    expect(columns.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(columns.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(await columns.text()).toBe(
      fs.readFileSync(path.join(import.meta.dirname, "../../docs/archive-columns.md"), "utf8"),
    );
    const columnsEtag = columns.headers.get("etag")!;
    expect((await fetch(listedIndex.columns, { headers: { "if-none-match": columnsEtag } })).status).toBe(304);

    for (const wanted of [
      "/archive/2026/2026-03-31/p2000-messages.csv",
      "/archive/2026/2026-03-26/p2000-messages.csv",
      "/archive/2026/2026-03-30/manifest.json",
      "/archive/2026/.2026-03-30.partial/p2000-messages.csv",
      "/archive/../../package.json",
      "/archive/2026/2026-03-30/..%2F..%2F..%2Fpackage.json",
      "/archive/%2e%2e/%2e%2e/package.json",
    ]) {
      const answer = await rawGet(wanted);
      expect([wanted, answer.status]).toEqual([wanted, 404]);
      expect(answer.body).toBe("No such archive file. The published files are listed at /archive/index.json.\n");
    }
  });

  test("the worker's task publishes the days due by the real clock", async () => {
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await storeP2000Pages(ctx.db, [
      { message: "P 2 BDH-04 Buitenbrand Parkweg Delft", sended: twoDaysAgo.toISOString(), capcodes: ["1300001"] },
    ]);
    const logged: string[] = [];
    const helpers = { logger: { info: (text: string) => logged.push(text) } } as unknown as JobHelpers;
    await makeArchivePublish(settings, ctx.service.ownerPool)({}, helpers);
    expect(logged).toEqual([expect.stringMatching(/^Open archive: published \d{4}-\d\d-\d\d/)]);
    const date = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(twoDaysAgo);
    const rows = csvRows(dayFile(date, "p2000-messages.csv"));
    expect(rows.map((row) => row.message)).toContain("P 2 BDH-04 Buitenbrand Parkweg Delft");
    // Past keeping at the real clock: the March days went.
    expect(index().days.map((day) => day.date)).not.toContain("2026-03-30");
  });

  test("switched off, /archive answers 404 in plain words", async () => {
    const app = express().use(
      archiveRoutes({ config: mergeConfig(loadConfig(), { archive: { ...settings, enabled: false } }) }),
    );
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as AddressInfo;
      for (const wanted of ["/archive/index.json", "/archive/2026/2026-03-30/p2000-messages.csv"]) {
        const answer = await fetch(`http://127.0.0.1:${port}${wanted}`);
        expect([answer.status, await answer.text()]).toEqual([
          404,
          "The open archive is switched off on this service.\n",
        ]);
      }
    } finally {
      server.close();
    }
  });

  test("docs/archive-columns.md names every column of every file, in order", async () => {
    const docs = fs.readFileSync(path.join(import.meta.dirname, "../../docs/archive-columns.md"), "utf8");
    const latest = index().days[0].date;
    for (const feed of ARCHIVE_FEEDS) {
      const header = fs
        .readFileSync(dayFile(latest, `${feed.name}.csv`), "utf8")
        .split("\r\n")[0]
        .split(",");
      const section = docs.split(/^## /m).find((part) => part.startsWith(`\`${feed.name}\``));
      expect(section).toBeDefined();
      const documented = [...section!.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((match) => match[1]);
      expect([feed.name, documented]).toEqual([feed.name, header]);
    }
  });
});
