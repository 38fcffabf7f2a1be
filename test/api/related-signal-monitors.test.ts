// notificationRules.relatedSignals end to end: a P2000 monitor that notified a dossier is told once
// more when a signal of another feed joins that dossier (here the road authority's accident near
// it, from a live DATEX II publication read by the real poller), once per signal, through a real
// webhook receiver; a monitor without the rule hears nothing more; the rule is checked.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { pollTraffic } from "../../lib/feeds/traffic/poll.ts";
import { datexV3Xml } from "../../lib/feeds/traffic/sample-documents.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
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
const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: true } }));
afterAll(async () => {
  await hooks?.stop();
  await feed?.stop();
});

let ada: TestUser;
const gql = async (query: string, variables: Record<string, unknown> = {}) => {
  const { body } = await ctx.service.graphql(query, { token: ada.accessToken, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
};
const log = { info: () => {}, error: (m: string) => errors.push(m) };
const errors: string[] = [];

/** A P2000 monitor within 5 km of Utrecht's centre, with a webhook channel at /<slug>. */
async function monitor(slug: string, rules: object): Promise<string> {
  const { createChannel } = await gql(
    `mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }`,
    { i: { type: "webhook", name: slug, url: `${hooks.url}/${slug}` } },
  );
  const { createMonitor } = await gql(`mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`, {
    i: {
      name: slug,
      query: "{}",
      location: { latitude: 52.0907, longitude: 5.1214 },
      radius: 5,
      channels: JSON.stringify([createChannel.channel.uuid]),
      notificationRules: JSON.stringify(rules),
    },
  });
  return createMonitor.uuid;
}

const eventsTo = (slug: string) =>
  hooks.requests.filter((r) => r.path === `/${slug}`).map((r) => JSON.parse(r.body).event as string);

describe("notificationRules.relatedSignals", () => {
  test("a monitor that notified a dossier is told once when an accident joins it; one without the rule, or naming other kinds, is not", async () => {
    ada = await signUp(ctx.service, "ada@example.org");
    const withRule = await monitor("with-rule", { relatedSignals: true });
    const withoutRule = await monitor("without-rule", {});
    // The rule as a list of kinds: accidents told, or only NL-Alerts and landings.
    const accidents = await monitor("accidents", { relatedSignals: ["traffic_incident"] });
    const otherKinds = await monitor("other-kinds", { relatedSignals: ["nl_alert", "aircraft_landing"] });

    const sended = new Date(Date.now() - 2 * 60_000);
    await storeP2000Pages(ctx.db, [
      { message: "A1 Ambulance Utrecht bon 84411", sended: sended.toISOString(), capcodes: ["0923002"] },
    ]);
    await waitUntil(
      () => eventsTo("with-rule").length + eventsTo("without-rule").length,
      (n) => n >= 2,
      "the message's notifications",
    );
    await waitUntil(
      () => eventsTo("accidents").length + eventsTo("other-kinds").length,
      (n) => n >= 2,
      "the message's notifications to the monitors with kinds",
    );
    // Each of the four told of the page, so each could be told of a signal joining its incident.
    for (const slug of ["with-rule", "without-rule", "accidents", "other-kinds"])
      expect(eventsTo(slug)).toEqual(["p2000.message.matched"]);
    const {
      rows: [dossier],
    } = await ctx.db.asOwner(
      `select d.uuid, d.latitude, d.longitude from app_public.p2000_dossiers d
        join app_public.p2000_messages m on m.dossier_uuid = d.uuid where m.message like 'A1 Ambulance Utrecht bon 84411'`,
    );

    // A live publication of the road authority: an accident 300 m north of the dossier, a minute ago.
    const document = datexV3Xml(new Date(), [
      {
        id: "NLRWS_related",
        version: 1,
        type: "accident",
        start: new Date(Date.now() - 60_000),
        latitude: dossier.latitude + 300 / 111_195,
        longitude: dossier.longitude,
        roadNumber: "A27",
      },
    ]);
    feed.documents.set("/incidents.xml.gz", { body: gzipSync(document) });
    const config = { enabled: true, incidentsUrl: `${feed.url}/incidents.xml.gz`, jamsUrl: undefined };
    await pollTraffic(ctx.service.ownerPool, config, log);
    const [related] = await hooks.waitFor(
      (r) => r.path === "/with-rule" && JSON.parse(r.body).event === "p2000.related_signal",
    );
    const payload = JSON.parse(related.body);
    expect(payload.dossier.uuid).toBe(dossier.uuid);
    expect(payload.signal).toMatchObject({ kind: "traffic_incident", road: "A27", title: "accident on A27" });
    expect(payload.signal.distanceMetres).toBeGreaterThan(250);

    // The same publication again, and the matcher run again by hand: nothing more.
    await pollTraffic(ctx.service.ownerPool, config, log);
    const {
      rows: [incident],
    } = await ctx.db.asOwner("select uuid from app_public.traffic_incidents where record_id like '%NLRWS_related%'");
    await ctx.db.asOwner("select app_private.match_related_signal($1)", [incident.uuid]);
    // What was queued, whatever the deliveries still under way: one notification, to the rule's monitor.
    const { rows: queued } = await ctx.db.asOwner(
      `select monitor_uuid, event_uuid from app_private.notifications where event_kind = 'related_signal'`,
    );
    expect(queued).toEqual(
      expect.arrayContaining([
        { monitor_uuid: withRule, event_uuid: incident.uuid },
        { monitor_uuid: accidents, event_uuid: incident.uuid },
      ]),
    );
    expect(queued).toHaveLength(2);
    expect(queued.map((n) => n.monitor_uuid)).not.toContain(withoutRule);
    expect(queued.map((n) => n.monitor_uuid)).not.toContain(otherKinds);
    expect(eventsTo("with-rule").filter((e) => e === "p2000.related_signal")).toHaveLength(1);
    expect(eventsTo("without-rule")).not.toContain("p2000.related_signal");
    await hooks.waitFor((r) => r.path === "/accidents" && JSON.parse(r.body).event === "p2000.related_signal");
    await ctx.service.workerIdle();
    expect(eventsTo("other-kinds")).toEqual(["p2000.message.matched"]);
    expect(errors).toEqual([]);
  });

  test.each([['"yes"'], ["[]"], ['["traffic_incident", "weather"]']])(
    "relatedSignals %s is refused: it is true, false or a list of kinds",
    async (value) => {
      const { body } = await ctx.service.graphql(
        `mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`,
        { token: ada.accessToken, variables: { i: { name: "x", notificationRules: `{"relatedSignals": ${value}}` } } },
      );
      expect(errorOf(body)).toMatchObject({
        code: "BAD_USER_INPUT",
        message:
          "notificationRules.relatedSignals must be true, false, or a list of the kinds of signal to tell of (traffic_incident, aircraft_landing, aircraft_takeoff, nl_alert).",
      });
    },
  );
});
