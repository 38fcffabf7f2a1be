// nl_alert and amber_alert monitors end to end: NL-Alert pages and AMBER alert lists in the
// sources' real shapes, served by a local feed server and read by the real pollers, notify the
// monitors whose circle, point, safety regions or provinces they reach, each once, through a
// webhook receiver and a real SMTP sink; an AMBER alert's end notifies once more; old alerts, a
// repeated poll and monitors elsewhere notify nobody; bad criteria are BAD_USER_INPUT.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { pollAmberAlerts, pollNlAlerts } from "../../lib/feeds/alerts/poll.ts";
import {
  amberAlertsJson,
  nlAlertsJson,
  squareAround,
  type SampleAmberAlert,
  type SampleNlAlert,
} from "../../lib/feeds/alerts/sample-documents.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { startMailSink, type MailSink } from "../helpers/mail-sink.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let feed: FeedServer;
let hooks: WebhookReceiver;
let mail: MailSink;
beforeAll(async () => {
  feed = await startFeedServer();
  hooks = await startWebhookReceiver();
  mail = await startMailSink();
});
const ctx = useTestService(() => ({ delivery: { smtpUrl: mail.url, allowPrivateTargets: true } }));
afterAll(async () => {
  await hooks?.stop();
  await mail?.stop();
  await feed?.stop();
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
const CREATE = `mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`;

/** A monitor with a webhook channel (path /<slug>) and an e-mail channel (<slug>@example.org). */
async function monitor(
  slug: string,
  type: string,
  query: object,
  place: Record<string, unknown> = {},
): Promise<string> {
  const channels: string[] = [];
  for (const input of [
    { type: "webhook", name: slug, url: `${hooks.url}/${slug}` },
    { type: "email", name: slug, emailAddress: `${slug}@example.org` },
  ]) {
    const { createChannel } = await gql(
      `mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }`,
      { i: input },
    );
    channels.push(createChannel.channel.uuid);
  }
  const { createMonitor } = await gql(CREATE, {
    i: { name: slug, type, query: JSON.stringify(query), channels: JSON.stringify(channels), ...place },
  });
  return createMonitor.uuid;
}

/** The event types of a monitor's notifications, per channel type, in order. */
const notified = async (monitorUuid: string) =>
  (
    await ctx.db.asOwner(
      `select c.type || ' ' || n.event_type as sent from app_private.notifications n join app_public.channels c on c.uuid = n.channel_uuid
        where n.monitor_uuid = $1 order by n.event_type, c.type`,
      [monitorUuid],
    )
  ).rows.map((r) => r.sent as string);
const hooksTo = (slug: string) => hooks.requests.filter((r) => r.path === `/${slug}`);
const mailsTo = (slug: string) => mail.mails.filter((m) => m.to === `${slug}@example.org`);
const log = { info: () => {}, error: (m: string) => errors.push(m) };
const errors: string[] = [];
const HOUR = 3_600_000;

describe("the reference list and the criteria", () => {
  test("monitorTypes lists every type with its query fields, nl_alert and amber_alert among them", async () => {
    const { monitorTypes } = await gql("{ monitorTypes { value label description } }", {}, ada.apiToken);
    expect(monitorTypes.map((t: { value: string }) => t.value)).toEqual([
      "p2000",
      "accident",
      "aircraft",
      "amber_alert",
      "matrix",
      "meteo_weather",
      "nl_alert",
      "rail_disruptions",
      "receiver_silence",
      "rss",
    ]);
    const byValue = Object.fromEntries(monitorTypes.map((t: { value: string }) => [t.value, t]));
    expect(byValue.nl_alert.description).toMatch(
      /^Query fields: areas: Places an NL-Alert's area must meet.*; regions: Safety regions/,
    );
    expect(byValue.amber_alert.description).toContain("provinces [groningen, friesland,");
    expect(byValue.amber_alert.description).toContain("kinds [amber, missing_child]");
  });

  test.each([
    ["nl_alert", { regions: ["99"] }, /^query\.regions: unknown or malformed value\(s\): 99\.$/],
    [
      "nl_alert",
      { provinces: ["utrecht"] },
      /^query\.provinces: not a field of nl_alert monitors \(fields: areas, regions\)\.$/,
    ],
    ["nl_alert", { regions: "17" }, /^query\.regions must be a list of strings\.$/],
    ["amber_alert", { provinces: ["atlantis"] }, /^query\.provinces: unknown or malformed value\(s\): atlantis\.$/],
    ["amber_alert", { kinds: ["test"] }, /^query\.kinds: unknown or malformed value\(s\): test\.$/],
    ["amber_alert", { regions: ["17"] }, /^query\.regions: not a field of amber_alert monitors/],
  ])("a %s monitor with %j is BAD_USER_INPUT naming the field", async (type, query, message) => {
    const { body } = await ctx.service.graphql(CREATE, {
      token: ada.accessToken,
      variables: { i: { name: "bad", type, query: JSON.stringify(query) } },
    });
    expect(errorOf(body)).toEqual({ message: expect.stringMatching(message), code: "BAD_USER_INPUT" });
  });

  test("updateMonitor checks the new criteria too, and stores them normalised", async () => {
    const { createMonitor } = await gql(
      `mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid query } }`,
      {
        i: {
          name: "Rijnmond",
          type: "nl_alert",
          query: JSON.stringify({ regions: ["17", "rotterdam-rijnmond", "9"] }),
        },
      },
    );
    expect(JSON.parse(createMonitor.query)).toEqual({ regions: ["09", "17"] });
    const { body } = await ctx.service.graphql(
      `mutation ($i: UpdateMonitorInput!) { updateMonitor(input: $i) { uuid } }`,
      { token: ada.accessToken, variables: { i: { uuid: createMonitor.uuid, query: '{"regions": ["26"]}' } } },
    );
    expect(errorOf(body)).toEqual({
      message: "query.regions: unknown or malformed value(s): 26.",
      code: "BAD_USER_INPUT",
    });
    await gql(`mutation { deleteMonitor(uuid: "${createMonitor.uuid}") }`);
  });
});

describe("nl_alert monitors", () => {
  const url = "/api/v1/providers/nl-alert/alerts";
  const nlFeed = () => ({ enabled: true, url: `${feed.url}${url}` });
  const europoort: SampleNlAlert = {
    id: "a1b2c3d4e5f6",
    startAt: new Date(Date.now() - 10 * 60_000),
    messageNl: "NL-Alert. Brand in industriegebied Europoort te Rotterdam. Blijf binnen.",
    messageEn: "NL-Alert. Fire in Europoort industrial area in Rotterdam. Stay inside.",
    areas: [squareAround(51.95, 4.1, 0.02)],
  };
  // Old news: over long ago, as a backfill or the first page of a new installation holds it.
  const past: SampleNlAlert = {
    id: "a1b2c3d4e000",
    startAt: new Date(Date.now() - 30 * HOUR),
    stopAt: new Date(Date.now() - 28 * HOUR),
    messageNl: "NL-Alert. Storing drinkwater in Groningen.",
    areas: [squareAround(53.22, 6.57, 0.05)],
  };

  test("an NL-Alert notifies the monitors it reaches once; a repeat notifies nobody; a wider one the newly reached", async () => {
    // 51.90,4.10 lies 3.3 km south of the alert's square: a 5 km circle meets it, a 2 km one does not.
    const circle = await monitor(
      "nl-circle",
      "nl_alert",
      {},
      { location: { latitude: 51.9, longitude: 4.1 }, radius: 5 },
    );
    const shortCircle = await monitor(
      "nl-short",
      "nl_alert",
      {},
      { location: { latitude: 51.9, longitude: 4.1 }, radius: 2 },
    );
    const point = await monitor("nl-point", "nl_alert", {}, { location: { latitude: 51.955, longitude: 4.095 } });
    const region = await monitor("nl-region", "nl_alert", { regions: ["rotterdam-rijnmond"] });
    const groningen = await monitor(
      "nl-groningen",
      "nl_alert",
      { regions: ["1"] },
      {
        location: { latitude: 53.22, longitude: 6.57 },
        radius: 10,
      },
    );
    const everywhere = await monitor("nl-everywhere", "nl_alert", {});

    feed.documents.set(url, { body: nlAlertsJson([europoort, past]) });
    feed.documents.set(`${url}?after=${past.id}`, { body: nlAlertsJson([]) });
    await pollNlAlerts(ctx.service.ownerPool, nlFeed(), log);
    await ctx.service.workerIdle();

    for (const reached of [circle, point, region, everywhere]) {
      expect(await notified(reached)).toEqual(["email nl_alert.issued", "webhook nl_alert.issued"]);
    }
    expect(await notified(shortCircle)).toEqual([]);
    expect(await notified(groningen)).toEqual([]);

    const [delivery] = await hooks.waitFor((r) => r.path === "/nl-circle");
    expect(JSON.parse(delivery.body)).toMatchObject({
      event: "nl_alert.issued",
      monitor: { uuid: circle, name: "nl-circle" },
      nlAlert: {
        alertId: europoort.id,
        messageNl: europoort.messageNl,
        messageEn: europoort.messageEn,
        regionNumbers: ["17"],
        areas: ["51.93,4.08 51.93,4.12 51.97,4.12 51.97,4.08 51.93,4.08"],
        stopAt: null,
      },
    });
    const received = await mail.waitFor(
      "nl-point@example.org",
      /^NL-Alert: NL-Alert\. Brand in industriegebied Europoort/,
    );
    expect(received.text).toContain("Safety regions: 17 Rotterdam-Rijnmond");
    await hooks.waitFor((r) => r.path === "/nl-region");
    await mail.waitFor("nl-everywhere@example.org", /^NL-Alert: /);

    // The same page again (conditionally, then under a new ETag, read and stored again): nothing more.
    await pollNlAlerts(ctx.service.ownerPool, nlFeed(), log);
    feed.documents.set(url, { body: `${nlAlertsJson([europoort, past])}\n` });
    await pollNlAlerts(ctx.service.ownerPool, nlFeed(), log);
    await ctx.service.workerIdle();
    expect(await notified(circle)).toHaveLength(2);

    // The alert widened to Groningen: the monitors there hear of it, the others not again.
    const widened = { ...europoort, areas: [...europoort.areas, squareAround(53.22, 6.57, 0.02)] };
    feed.documents.set(url, { body: nlAlertsJson([widened, past]) });
    await pollNlAlerts(ctx.service.ownerPool, nlFeed(), log);
    await ctx.service.workerIdle();
    expect(await notified(groningen)).toEqual(["email nl_alert.issued", "webhook nl_alert.issued"]);
    await mail.waitFor("nl-groningen@example.org", /^NL-Alert: /);
    for (const reached of [circle, point, region, everywhere]) expect(await notified(reached)).toHaveLength(2);
    expect(await notified(shortCircle)).toEqual([]);

    // Delivered exactly once each: one webhook and one mail per monitor reached.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const slug of ["nl-circle", "nl-point", "nl-region", "nl-everywhere", "nl-groningen"]) {
      expect([slug, hooksTo(slug).length, mailsTo(slug).length]).toEqual([slug, 1, 1]);
    }
    expect([hooksTo("nl-short").length, mailsTo("nl-short").length]).toEqual([0, 0]);
    expect(errors).toEqual([]);
  });

  test("the shared rules apply: maxPerPeriod lets one of two alerts through and records the other", async () => {
    const throttled = await monitor("nl-throttled", "nl_alert", { regions: ["13"] });
    await gql(`mutation ($i: UpdateMonitorInput!) { updateMonitor(input: $i) { uuid } }`, {
      i: { uuid: throttled, notificationRules: JSON.stringify({ maxPerPeriod: { count: 1, minutes: 60 } }) },
    });
    const storm = (id: string, minutesAgo: number): SampleNlAlert => ({
      id,
      startAt: new Date(Date.now() - minutesAgo * 60_000),
      messageNl: `NL-Alert. Zware storm in Amsterdam (${id}).`,
      areas: [squareAround(52.37, 4.9, 0.02)],
    });
    feed.documents.set(url, { body: nlAlertsJson([storm("a1b2c3d4e0a1", 3), storm("a1b2c3d4e0a2", 2), europoort]) });
    await pollNlAlerts(ctx.service.ownerPool, nlFeed(), log);
    await ctx.service.workerIdle();
    expect(await notified(throttled)).toEqual(["email nl_alert.issued", "webhook nl_alert.issued"]);
    const { rows } = await ctx.db.asOwner(
      "select suppressed_reason from app_hidden.feed_monitor_matches where monitor_uuid = $1 order by suppressed_reason nulls first",
      [throttled],
    );
    expect(rows.map((r) => r.suppressed_reason)).toEqual([null, "max_per_period"]);
  });
});

describe("amber_alert monitors", () => {
  const url = "/landactiehost/api/v1/alerts";
  const amberFeed = () => ({ enabled: true, url: `${feed.url}${url}` });
  const daan: SampleAmberAlert = {
    alertId: "2026-0501",
    type: "Alert",
    level: 5,
    sent: new Date(Date.now() - 5 * 60_000),
    title: "Vermist: Daan (12)",
    descriptionHtml: "<p>Daan is vermist in Zwolle, laatst gezien bij het station.</p>",
    readMoreUrl: "https://www.politie.nl/vermist/daan",
  };
  const sophie: SampleAmberAlert = {
    alertId: "2026-0502",
    type: "Alert",
    level: 10,
    sent: new Date(Date.now() - 2 * 60_000),
    title: "Vermist: Sophie (7)",
    descriptionHtml: "<p>De politie zoekt Sophie, laatst gezien in Dalfsen.</p>",
  };
  // An alert that ran three days ago and ended, as the demo data and a backfill store it.
  const old: SampleAmberAlert = {
    alertId: "2026-0300",
    type: "Alert",
    level: 10,
    sent: new Date(Date.now() - 72 * HOUR),
    title: "Vermist: oud",
    descriptionHtml: "<p>Oud bericht.</p>",
  };

  test.each([
    ["Vermist: Daan (12)", "Laatst gezien in Zwolle.", ["overijssel"]],
    ["Vermist in Leeuwarden", "Gezocht in heel Fryslân en bij Maastricht", ["friesland", "limburg"]],
    ["Vermist meisje", "Gezien in Noord-Brabant", ["noord-brabant"]],
    // Municipality names count as written (capitalised): "best" is a word, Best a place.
    ["Vermist kind", "Het is best koud; geen plaats genoemd.", []],
  ])("the provinces of %j / %j", async (title, description, codes) => {
    const { rows } = await ctx.db.asOwner("select app_hidden.amber_alert_province_codes($1, $2) as codes", [
      title,
      description,
    ]);
    expect(rows[0].codes).toEqual(codes);
  });

  test("an alert notifies nationwide and its provinces' monitors once, its end once more", async () => {
    const nationwide = await monitor("amber-nl", "amber_alert", {});
    const overijssel = await monitor("amber-ov", "amber_alert", { provinces: ["overijssel"] });
    const limburg = await monitor("amber-li", "amber_alert", { provinces: ["limburg"] });
    const amberOnly = await monitor("amber-only", "amber_alert", { kinds: ["amber"], provinces: ["limburg"] });

    // The old alert, stored while it ran and then ended, long ago: nobody hears of it.
    feed.documents.set(url, { body: amberAlertsJson([old]) });
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    feed.documents.set(url, { body: amberAlertsJson([{ ...old, type: "Cancel" }]) });
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    await ctx.service.workerIdle();
    for (const m of [nationwide, overijssel, limburg, amberOnly]) expect(await notified(m)).toEqual([]);

    // A missing-child alert in Zwolle (Overijssel).
    feed.documents.set(url, { body: amberAlertsJson([daan]) });
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    await ctx.service.workerIdle();
    expect(await notified(nationwide)).toEqual(["email amber_alert.issued", "webhook amber_alert.issued"]);
    expect(await notified(overijssel)).toEqual(["email amber_alert.issued", "webhook amber_alert.issued"]);
    expect(await notified(limburg)).toEqual([]);
    expect(await notified(amberOnly)).toEqual([]);
    const [issued] = await hooks.waitFor((r) => r.path === "/amber-ov");
    expect(JSON.parse(issued.body)).toMatchObject({
      event: "amber_alert.issued",
      amberAlert: {
        alertId: daan.alertId,
        level: 5,
        kind: "missing_child",
        label: "Vermist Kind Alert",
        provinces: ["overijssel"],
        title: daan.title,
        readMoreUrl: daan.readMoreUrl,
      },
    });
    const issuedMail = await mail.waitFor("amber-nl@example.org", /^Vermist Kind Alert: Vermist: Daan \(12\)$/);
    expect(issuedMail.text).toContain("Provinces: Overijssel");

    // The same list again: nothing more. Then an AMBER Alert, national: every monitor hears of it.
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    feed.documents.set(url, { body: amberAlertsJson([daan, sophie]) });
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    await ctx.service.workerIdle();
    expect(await notified(limburg)).toEqual(["email amber_alert.issued", "webhook amber_alert.issued"]);
    expect(await notified(amberOnly)).toEqual(["email amber_alert.issued", "webhook amber_alert.issued"]);
    expect(await notified(overijssel)).toHaveLength(4);

    // Daan's alert is cancelled: those who heard of it hear that it ended, once.
    feed.documents.set(url, { body: amberAlertsJson([{ ...daan, type: "Cancel" }, sophie]) });
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    await pollAmberAlerts(ctx.service.ownerPool, amberFeed(), log);
    await ctx.service.workerIdle();
    const ended = (sent: string[]) => sent.filter((s) => s.endsWith("amber_alert.ended"));
    expect(ended(await notified(nationwide))).toEqual(["email amber_alert.ended", "webhook amber_alert.ended"]);
    expect(ended(await notified(overijssel))).toEqual(["email amber_alert.ended", "webhook amber_alert.ended"]);
    expect(ended(await notified(limburg))).toEqual([]);
    const [end] = await hooks.waitFor((r) => r.path === "/amber-nl" && r.body.includes("amber_alert.ended"));
    const endBody = JSON.parse(end.body);
    expect(endBody).toMatchObject({
      event: "amber_alert.ended",
      amberAlert: {
        alertId: daan.alertId,
        kind: "missing_child",
        provinces: ["overijssel"],
        endedAt: expect.any(String),
      },
    });
    // An ended alert's notification carries no personal details.
    expect(endBody.amberAlert.title).toBeUndefined();
    expect(end.body).not.toContain("Daan");
    await mail.waitFor("amber-ov@example.org", /^Vermist Kind Alert beëindigd$/);

    // Delivered exactly once each.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      ["amber-nl", "amber-ov", "amber-li", "amber-only"].map((s) => [s, hooksTo(s).length, mailsTo(s).length]),
    ).toEqual([
      ["amber-nl", 3, 3],
      ["amber-ov", 3, 3],
      ["amber-li", 1, 1],
      ["amber-only", 1, 1],
    ]);
    expect(errors).toEqual([]);
  });
});
