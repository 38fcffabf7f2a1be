// Escalations (issue 45): a P2000 monitor with notificationRules.escalations is told when an
// incident it notified is raised (urgency up, GRIP level up), once per raise, with the dossier's
// timeline entry in the payload; a monitor without the rule, or one that never told of the
// incident, is not. Pages go in through createP2000Message (one incident: the same ambulance
// ride number), the service's own worker matches, and a local webhook receiver gets the deliveries.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { graphqlCalls } from "../helpers/graphql-calls.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let hooks: WebhookReceiver;
beforeAll(async () => {
  hooks = await startWebhookReceiver();
});
const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: true } }));
afterAll(async () => {
  await hooks?.stop();
});
let ada: TestUser;

const { gql, ok } = graphqlCalls(ctx);

async function monitorTo(path: string, query: Record<string, unknown>, rules: Record<string, unknown>) {
  const { createChannel } = await ok(
    "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
    ada.accessToken,
    { i: { type: "webhook", name: path, url: `${hooks.url}${path}` } },
  );
  const { createMonitor } = await ok(
    "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
    ada.accessToken,
    {
      i: {
        name: path,
        query: JSON.stringify(query),
        channels: JSON.stringify([createChannel.channel.uuid]),
        notificationRules: JSON.stringify(rules),
      },
    },
  );
  return createMonitor.uuid as string;
}

async function page(message: string, capcode: string) {
  const { createP2000Message } = await ok(
    "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid dossier { uuid } } }",
    ada.accessToken,
    { i: { message, sended: new Date().toISOString(), capcodes: [{ name: capcode }] } },
  );
  const created = createP2000Message as { uuid: string; dossier: { uuid: string } };
  return { uuid: created.uuid, dossierUuid: created.dossier.uuid };
}

const events = (path: string) => hooks.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body));

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org", { admin: true });
});

describe("notificationRules.escalations", () => {
  test("must be true or false", async () => {
    const body = await gql(
      "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
      ada.accessToken,
      {
        i: { name: "x", notificationRules: JSON.stringify({ escalations: "yes" }) },
      },
    );
    expect(errorOf(body)).toEqual({
      message: "notificationRules.escalations must be true or false.",
      code: "BAD_USER_INPUT",
    });
  });

  test("a raise of urgency and then of GRIP level is told once each, with the timeline entry", async () => {
    // One notification per incident, and the raises besides.
    const following = await monitorTo("/raised", { capcodes: ["1420007"] }, { maxPerDossier: 1, escalations: true });
    const { rotateMonitorFeed: feed } = await ok(
      "mutation ($m: String!) { rotateMonitorFeed(monitor: $m) { geojsonUrl } }",
      ada.accessToken,
      { m: following },
    );
    // Without the rule: the first page only.
    await monitorTo("/plain", { capcodes: ["1420007"] }, { maxPerDossier: 1 });
    // The rule, and only the raising page's capcode: it tells of that page, not of the raise the
    // page itself brought; the GRIP raise after it, to another capcode, it is told of.
    await monitorTo("/late", { capcodes: ["1420059"] }, { escalations: true });

    const first = await page("A2 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 8576", "001420007");
    await hooks.waitFor((r) => r.path === "/raised");
    const raised = await page("A1 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 8576", "001420059");
    const grip = await page("GRIP 2 A1 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 8576", "001420007");
    expect(new Set([first.dossierUuid, raised.dossierUuid, grip.dossierUuid]).size).toBe(1);
    await hooks.waitFor((r) => r.path === "/raised", 3, 30_000);
    await hooks.waitFor((r) => r.path === "/late", 2, 30_000);
    await ctx.service.workerIdle();

    // Deliveries run concurrently: in whatever order they arrive.
    const told = events("/raised");
    expect(told.map((e) => e.event).sort()).toEqual([
      "p2000.incident.raised",
      "p2000.incident.raised",
      "p2000.message.matched",
    ]);
    const urgency = told.find((e) => e.timelineEntry?.kind === "urgency_raised");
    const gripLevel = told.find((e) => e.timelineEntry?.kind === "grip_raised");
    expect(urgency).toMatchObject({
      dossier: { uuid: first.dossierUuid, urgency: "A1" },
      timelineEntry: { kind: "urgency_raised", previousValue: "A2", newValue: "A1", messageUuid: raised.uuid },
    });
    expect(gripLevel).toMatchObject({
      dossier: { uuid: first.dossierUuid, gripLevel: 2 },
      timelineEntry: { kind: "grip_raised", previousValue: null, newValue: "2", messageUuid: grip.uuid },
    });
    // The entry is the dossier's own timeline entry.
    const { p2000DossierTimeline } = await ok(
      "query ($u: String!) { p2000DossierTimeline(filter: { dossier: { uuid: $u } }) { uuid kind } }",
      ada.apiToken,
      { u: first.dossierUuid },
    );
    expect(p2000DossierTimeline).toEqual(
      expect.arrayContaining([{ uuid: gripLevel.timelineEntry.uuid, kind: "grip_raised" }]),
    );
    expect(events("/plain").map((e) => e.event)).toEqual(["p2000.message.matched"]);
    expect(
      events("/late")
        .map((e) => [e.event, e.message?.uuid ?? e.timelineEntry.kind])
        .sort(),
    ).toEqual([
      ["p2000.incident.raised", "grip_raised"],
      ["p2000.message.matched", raised.uuid],
    ]);

    // Matching the same raise again tells nobody twice.
    const before = hooks.requests.length;
    await ctx.db.asOwner(
      "select app_private.match_escalation(uuid) from app_public.p2000_dossier_events where dossier_uuid = $1",
      [first.dossierUuid],
    );
    await ctx.service.workerIdle();
    expect(hooks.requests.length).toBe(before);

    // The monitor's feed lists the raises too, at the incident's place, besides the page it told of,
    // in the monitor's language (Dutch, the default).
    const { features } = (await (await fetch(feed.geojsonUrl)).json()) as {
      features: Array<{
        geometry: { coordinates: number[] };
        properties: { kind: string; label: string; title: string };
      }>;
    };
    expect(features.map((f) => f.properties.kind).sort()).toEqual(["escalation", "escalation", "p2000"]);
    expect(features.map((f) => f.properties.title)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^GRIP 2 \(was 0\): /),
        expect.stringMatching(/^Urgentie A1 \(was A2\): /),
      ]),
    );
    expect(features.find((f) => f.properties.kind === "escalation")?.properties.label).toBe("Incident raised");
    const escalations = features.filter((f) => f.properties.kind === "escalation");
    expect(escalations.map((f) => f.properties.label)).toEqual(["Incident raised", "Incident raised"]);
    const matched = features.find((f) => f.properties.kind === "p2000")!;
    for (const escalation of escalations) expect(escalation.geometry.coordinates).toEqual(matched.geometry.coordinates);
  });
});
