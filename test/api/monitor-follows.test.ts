// Following one incident (issue 45): followIncident is "tell me when this gets worse" without
// writing a monitor. It makes a monitor of the incident that hears of its raises (urgency, GRIP
// level) and of no page; following again answers the same monitor; deleteMonitor ends it, and the
// nightly monitors__end_follows ends it a week after the incident's last page. Pages go in
// through createP2000Message (one incident: the same ambulance ride number), the service's own
// worker matches, and a local webhook receiver gets the deliveries.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { graphqlCalls, monitorMatches } from "../helpers/graphql-calls.ts";
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

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org", { admin: true });
});

async function page(message: string, capcode: string) {
  const { createP2000Message } = await ok(
    "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid dossier { uuid title } } }",
    ada.accessToken,
    { i: { message, sended: new Date().toISOString(), capcodes: [{ name: capcode }] } },
  );
  return createP2000Message as { uuid: string; dossier: { uuid: string; title: string } };
}

const FOLLOW = `mutation ($incident: String!, $channels: String) {
  followIncident(incident: $incident, channels: $channels) { uuid name type channels notificationRules followsIncident }
}`;

describe("followIncident", () => {
  test("a follow is told of its incident's raises and of no page, once however often it is asked for", async () => {
    const first = await page("A2 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 7001", "001420007");
    // Before any channel there is nowhere to tell.
    const refused = await gql(FOLLOW, ada.accessToken, { incident: first.dossier.uuid });
    expect(errorOf(refused)).toEqual({
      message: "followIncident tells you on a channel: make one first (createChannel).",
      code: "BAD_USER_INPUT",
    });
    const { createChannel } = await ok(
      "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
      ada.accessToken,
      { i: { type: "webhook", name: "phone", url: `${hooks.url}/follow` } },
    );

    // Channels left out: every channel of the environment.
    const { followIncident: follow } = await ok(FOLLOW, ada.accessToken, { incident: first.dossier.uuid });
    expect(follow).toEqual({
      uuid: expect.any(String),
      name: `Following: ${first.dossier.title}`,
      type: "p2000",
      channels: JSON.stringify([createChannel.channel.uuid]),
      notificationRules: '{"escalations": true}',
      followsIncident: first.dossier.uuid,
    });
    const { followIncident: again } = await ok(FOLLOW, ada.accessToken, {
      incident: first.dossier.uuid,
      channels: JSON.stringify([createChannel.channel.uuid]),
    });
    expect(again.uuid).toBe(follow.uuid);
    const { monitors } = await ok("{ monitors { uuid channels followsIncident } }", ada.accessToken);
    expect(monitors).toEqual([
      {
        uuid: follow.uuid,
        channels: JSON.stringify([createChannel.channel.uuid]),
        followsIncident: first.dossier.uuid,
      },
    ]);

    // A page of the incident that raises nothing, then the raise.
    await page("A2 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 7001", "001420059");
    const raise = await page("A1 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 7001", "001420007");
    expect(raise.dossier.uuid).toBe(first.dossier.uuid);
    await hooks.waitFor((r) => r.path === "/follow");
    await ctx.service.workerIdle();
    const told = hooks.requests.filter((r) => r.path === "/follow").map((r) => JSON.parse(r.body));
    expect(told).toEqual([
      expect.objectContaining({
        event: "p2000.incident.raised",
        monitor: { uuid: follow.uuid, name: follow.name },
        dossier: expect.objectContaining({ uuid: first.dossier.uuid, urgency: "A1" }),
        timelineEntry: expect.objectContaining({ kind: "urgency_raised", newValue: "A1", messageUuid: raise.uuid }),
      }),
    ]);
    // It matched no page.
    expect(await monitorMatches(ok, ada.apiToken, follow.uuid)).toEqual([]);
  });

  test("two calls at once follow once", async () => {
    const incident = await page("A2 AMBU 17109 Kethelweg 3134 Vlaardingen VLAARD bon 7003", "001420007");
    const [a, b] = await Promise.all([
      ok(FOLLOW, ada.accessToken, { incident: incident.dossier.uuid }),
      ok(FOLLOW, ada.accessToken, { incident: incident.dossier.uuid }),
    ]);
    expect(a.followIncident.uuid).toBe(b.followIncident.uuid);
    const { monitors } = await ok("{ monitors { uuid followsIncident } }", ada.accessToken);
    expect(monitors.filter((m: { followsIncident: string }) => m.followsIncident === incident.dossier.uuid)).toEqual([
      { uuid: a.followIncident.uuid, followsIncident: incident.dossier.uuid },
    ]);
  });

  test("an unknown incident is NOT_FOUND, and a caller without a login UNAUTHENTICATED", async () => {
    const unknown = await gql(FOLLOW, ada.accessToken, { incident: "00000000-0000-0000-0000-000000000000" });
    expect(errorOf(unknown)).toEqual({ message: "Incident not found.", code: "NOT_FOUND" });
    const { p2000Dossiers } = await ok("{ p2000Dossiers(first: 1) { uuid } }", ada.apiToken);
    const anonymous = await gql(FOLLOW, undefined, { incident: p2000Dossiers[0].uuid });
    expect(errorOf(anonymous)).toEqual({
      message: "Not authenticated. Send Authorization: Bearer <token>.",
      code: "UNAUTHENTICATED",
    });
    // An API token cannot follow: following makes a monitor, a person's doing.
    const byApiToken = await gql(FOLLOW, ada.apiToken, { incident: p2000Dossiers[0].uuid });
    expect(errorOf(byApiToken)).toEqual({
      message: "This operation needs a user's access token (from login); an API token cannot use it.",
      code: "UNAUTHENTICATED",
    });
  });

  test("monitors__end_follows ends the follows of incidents without a page for a week", async () => {
    const old = await page("A2 AMBU 17107 Kethelweg 3134 Vlaardingen VLAARD bon 7002", "001420007");
    const { followIncident: follow } = await ok(FOLLOW, ada.accessToken, { incident: old.dossier.uuid });
    await ctx.db.asOwner("select graphile_worker.add_job('monitors__end_follows', '{}')");
    await ctx.service.workerIdle();
    const kept = await ok("{ monitors { uuid } }", ada.accessToken);
    expect(kept.monitors.map((m: { uuid: string }) => m.uuid)).toContain(follow.uuid);

    await ctx.db.asOwner(
      "update app_public.p2000_dossiers set last_sended = now() - interval '8 days' where uuid = $1",
      [old.dossier.uuid],
    );
    await ctx.db.asOwner("select graphile_worker.add_job('monitors__end_follows', '{}')");
    await ctx.service.workerIdle();
    const ended = await ok("{ monitors { uuid } }", ada.accessToken);
    expect(ended.monitors.map((m: { uuid: string }) => m.uuid)).not.toContain(follow.uuid);
    // Only the follow went.
    expect(ended.monitors.map((m: { uuid: string }) => m.uuid)).toEqual(
      kept.monitors.map((m: { uuid: string }) => m.uuid).filter((uuid: string) => uuid !== follow.uuid),
    );
  });

  test("deleteMonitor ends a follow: following again makes a new one", async () => {
    const incident = await page("A2 AMBU 17110 Kethelweg 3134 Vlaardingen VLAARD bon 7004", "001420007");
    const { followIncident: follow } = await ok(FOLLOW, ada.accessToken, { incident: incident.dossier.uuid });
    await ok("mutation ($u: String!) { deleteMonitor(uuid: $u) }", ada.accessToken, { u: follow.uuid });
    const { followIncident: again } = await ok(FOLLOW, ada.accessToken, { incident: incident.dossier.uuid });
    expect(again.uuid).not.toBe(follow.uuid);
    expect(again.followsIncident).toBe(incident.dossier.uuid);
  });
});
