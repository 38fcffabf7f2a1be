// Station screens (issue 49) over real HTTP and a real WebSocket: a screen pairs with a short code
// (requestScreenPairing → pairStationScreen by a member → claimStationScreen with the screen's own
// secret); its credential reads its screen (query and subscription) and the public feeds, and of
// its environment nothing but what its monitors match; the crew answers with an arrival estimate
// and sets its availability; a monitor's reAlert rule sends the page again when too few are coming;
// deleting the screen revokes its credential at once.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { parseRssDocument } from "../../lib/feeds/rss/parser.ts";
import { storeRssDocument } from "../../lib/feeds/rss/store.ts";
import { watch, untilHeard, type Watch } from "../helpers/live-clients.ts";
import { startMailSink, type MailSink } from "../helpers/mail-sink.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";

let mail: MailSink;
beforeAll(async () => {
  mail = await startMailSink();
});
const ctx = useTestService(() => ({ delivery: { smtpUrl: mail.url } }));
const watches: Watch[] = [];
afterAll(async () => {
  for (const one of watches) await one.stop();
  await mail?.stop();
});

const PAGE = "A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008";
const CREW = [
  { name: "Jan", email: "jan@example.org" },
  { name: "Piet", email: "piet@example.org" },
  { name: "Klaas", email: "klaas@example.org" },
];
const SCREEN_QUERY = `{ stationScreen { name latitude longitude alarmMinutes paired monitors { name type }
  matches { monitorName message plainText urgency units city lastSended reAlertedAt comingWanted
            responders { name status arrivesAt } }
  crew { name type availability until } } }`;
const PAIR = `mutation ($i: PairStationScreenInput!) { pairStationScreen(input: $i) { uuid name latitude longitude alarmMinutes paired } }`;
const CLAIM = "mutation ($s: String!) { claimStationScreen(pairingSecret: $s) { token name } }";
const REQUEST = "mutation { requestScreenPairing { code pairingSecret expiresAt } }";

let ada: TestUser;
let monitorUuid: string;
let otherMonitorUuid: string;
let channelUuids: string[];

async function call(query: string, token: string | undefined, variables: Record<string, unknown> = {}) {
  return (await ctx.service.graphql(query, { token, variables })).body;
}
async function data(query: string, token: string | undefined, variables: Record<string, unknown> = {}) {
  const body = await call(query, token, variables);
  if (body.errors) throw new Error(body.errors[0].message);
  return body.data;
}
async function addPage(message = PAGE, capcode = "001420007"): Promise<string> {
  const { createP2000Message } = await data(
    "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid } }",
    ada.accessToken,
    { i: { message, sended: new Date().toISOString(), capcodes: [{ name: capcode }] } },
  );
  return createP2000Message.uuid;
}
/** The respond token of the (first, or re-alert) notification of this page to this channel, as its link carries it. */
async function respondToken(messageUuid: string, channelUuid: string, reAlert = false): Promise<string> {
  const { rows } = await ctx.db.asOwner<{ token: string }>(
    `select app_private.responder_token(uuid) as token from app_private.notifications
      where message_uuid = $1 and channel_uuid = $2 and re_alert = $3`,
    [messageUuid, channelUuid, reAlert],
  );
  return rows[0].token;
}
/** A screen paired by ada and claimed: its uuid and its credential. */
async function pairedScreen(name: string, monitors = [monitorUuid]): Promise<{ uuid: string; token: string }> {
  const { requestScreenPairing } = await data(REQUEST, ada.apiToken);
  const { pairStationScreen } = await data(PAIR, ada.accessToken, {
    i: { code: requestScreenPairing.code, name, monitorUuids: monitors },
  });
  const { claimStationScreen } = await data(CLAIM, ada.apiToken, { s: requestScreenPairing.pairingSecret });
  return { uuid: pairStationScreen.uuid, token: claimStationScreen.token };
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org", { admin: true });
  channelUuids = [];
  for (const member of CREW) {
    const { createChannel } = await data(
      "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
      ada.accessToken,
      { i: { type: "email", name: member.name, emailAddress: member.email } },
    );
    channelUuids.push(createChannel.channel.uuid);
  }
  const create = async (name: string, capcode: string, rules: object) =>
    (
      await data("mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }", ada.accessToken, {
        i: {
          name,
          type: "p2000",
          query: JSON.stringify({ capcodes: [capcode] }),
          channels: JSON.stringify(channelUuids),
          notificationRules: JSON.stringify(rules),
          location: { latitude: 51.9167, longitude: 4.3989 },
          radius: 10,
        },
      })
    ).createMonitor.uuid;
  // The check is an hour after the page, so that this test calls it itself.
  monitorUuid = await create("Kazerne Schiedam", "001420007", { reAlert: { coming: 2, minutes: 60 } });
  otherMonitorUuid = await create("Elsewhere", "002029569", {});
});

describe("pairing", () => {
  test("a code, a member who types it, and the screen's credential handed over once to the screen's secret", async () => {
    expect(errorOf(await call(REQUEST, undefined)).code).toBe("UNAUTHENTICATED");
    const { requestScreenPairing } = await data(REQUEST, ada.apiToken);
    expect(requestScreenPairing.code).toMatch(/^[A-HJ-NP-Z2-9]{3}-[A-HJ-NP-Z2-9]{3}$/);
    expect(new Date(requestScreenPairing.expiresAt).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    // Not typed yet: nothing to take.
    expect((await data(CLAIM, ada.apiToken, { s: requestScreenPairing.pairingSecret })).claimStationScreen).toBeNull();
    // Only a member of an environment pairs: an API token is no member.
    const input = { code: requestScreenPairing.code, name: "Kazerne Schiedam", monitorUuids: [monitorUuid] };
    expect(errorOf(await call(PAIR, ada.apiToken, { i: input })).code).toBe("UNAUTHENTICATED");
    // Typed in lower case without the dash, as people do; the station is the monitor's place.
    const { pairStationScreen } = await data(PAIR, ada.accessToken, {
      i: { ...input, code: requestScreenPairing.code.replace("-", "").toLowerCase() },
    });
    expect(pairStationScreen).toMatchObject({
      name: "Kazerne Schiedam",
      latitude: 51.9167,
      longitude: 4.3989,
      alarmMinutes: 30,
      paired: false,
    });
    // The code is spent: typed again it is no screen's.
    expect(errorOf(await call(PAIR, ada.accessToken, { i: input }))).toEqual({
      message: expect.stringMatching(/^No screen shows this code/),
      code: "NOT_FOUND",
    });
    const { claimStationScreen } = await data(CLAIM, undefined, { s: requestScreenPairing.pairingSecret });
    expect(claimStationScreen).toEqual({ token: expect.stringMatching(/^nlis_/), name: "Kazerne Schiedam" });
    // Once only: the pairing is over.
    expect(errorOf(await call(CLAIM, ada.apiToken, { s: requestScreenPairing.pairingSecret })).code).toBe("NOT_FOUND");
    const { rows } = await ctx.db.asOwner<{ scopes: string[]; name: string }>(
      "select t.scopes, t.name from app_public.api_tokens t join app_public.station_screens s on s.api_token_uuid = t.uuid",
    );
    expect(rows).toEqual([{ scopes: ["screen:read"], name: "Station screen: Kazerne Schiedam" }]);
    const { stationScreens } = await data("{ stationScreens { name paired monitors { name } } }", ada.accessToken);
    expect(stationScreens).toEqual([
      { name: "Kazerne Schiedam", paired: true, monitors: [{ name: "Kazerne Schiedam" }] },
    ]);
    await data("mutation ($u: UUID!) { deleteStationScreen(uuid: $u) }", ada.accessToken, {
      u: pairStationScreen.uuid,
    });
  });

  test("a code past its 10 minutes: no member can type it, and the screen is told to ask for a new one", async () => {
    const { requestScreenPairing } = await data(REQUEST, ada.apiToken);
    await ctx.db.asOwner("update app_private.screen_pairings set expires_at = now() - interval '1 second'");
    const input = { code: requestScreenPairing.code, name: "Late", monitorUuids: [monitorUuid] };
    expect(errorOf(await call(PAIR, ada.accessToken, { i: input })).code).toBe("NOT_FOUND");
    expect(errorOf(await call(CLAIM, ada.apiToken, { s: requestScreenPairing.pairingSecret }))).toEqual({
      message: "This pairing has expired: ask for a new code.",
      code: "NOT_FOUND",
    });
  });

  test("wrong codes, monitors of another environment and bad settings are refused; ten wrong codes wait", async () => {
    // The first test typed a spent code: a wrong one too. This one counts from none.
    await ctx.db.asOwner("delete from app_private.screen_pairing_failures");
    const { requestScreenPairing } = await data(REQUEST, ada.apiToken);
    const bob = await signUp(ctx.service, "bob@example.org");
    const refused = async (input: Record<string, unknown>, user = ada) =>
      errorOf(await call(PAIR, user.accessToken, { i: { code: requestScreenPairing.code, name: "S", ...input } }));
    expect((await refused({ monitorUuids: [monitorUuid] }, bob)).code).toBe("NOT_FOUND");
    expect(await refused({ monitorUuids: [] })).toEqual({
      message: "A station screen shows 1 to 20 monitors.",
      code: "BAD_USER_INPUT",
    });
    expect((await refused({ monitorUuids: [monitorUuid], alarmMinutes: 0 })).code).toBe("BAD_USER_INPUT");
    expect((await refused({ monitorUuids: [monitorUuid], latitude: 40, longitude: 4 })).code).toBe("BAD_USER_INPUT");
    // None of those spent the code; wrong codes count per environment, ten in ten minutes.
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await refused({ code: "AAA-AAA", monitorUuids: [monitorUuid] })).code).toBe("NOT_FOUND");
    expect(await refused({ monitorUuids: [monitorUuid] })).toEqual({
      message: "Too many wrong pairing codes; try again in 10 minutes.",
      code: "RATE_LIMITED",
    });
    await ctx.db.asOwner("delete from app_private.screen_pairing_failures");
    expect(
      (
        await data(PAIR, ada.accessToken, {
          i: { code: requestScreenPairing.code, name: "S", monitorUuids: [monitorUuid] },
        })
      ).pairStationScreen.name,
    ).toBe("S");
    await ctx.db.asOwner("delete from app_public.station_screens where name = 'S'");
  });
});

describe("the screen's credential", () => {
  let screen: { uuid: string; token: string };
  let messageUuid: string;
  let live: Watch;

  beforeAll(async () => {
    screen = await pairedScreen("Kazerne Schiedam");
    live = watch("websocket", ctx.service.url + "/graphql", {
      token: screen.token,
      query: `subscription { stationScreen { matches(first: 1) { message responders { name status } } crew { name availability } } }`,
    });
    watches.push(live);
    // The subscription hears its settings changing.
    await untilHeard(
      () => live.events.length,
      () =>
        data("mutation ($i: UpdateStationScreenInput!) { updateStationScreen(input: $i) { uuid } }", ada.accessToken, {
          i: { uuid: screen.uuid, latitude: 51.9167, longitude: 4.3989 },
        }),
    );
    live.events.length = 0;
  });

  test("reads its screen: the page in plain words, the units paged, and the crew's answers as they come", async () => {
    const before = (await data(SCREEN_QUERY, screen.token)).stationScreen;
    expect(before).toMatchObject({
      name: "Kazerne Schiedam",
      paired: true,
      monitors: [{ name: "Kazerne Schiedam", type: "p2000" }],
      matches: [],
    });
    expect(before.crew.map((member: { name: string }) => member.name)).toEqual(["Jan", "Klaas", "Piet"]);
    messageUuid = await addPage();
    await ctx.service.workerIdle();
    // The live screen heard the match at once.
    await waitUntil(
      () => live.events.map((e) => e.stationScreen.matches[0]?.message),
      (seen) => seen.includes(PAGE),
      "the match on the live screen",
    );
    const [jan, piet, klaas] = channelUuids;
    const respond = (channel: string, status: string, arrivalMinutes?: number) =>
      respondToken(messageUuid, channel).then((token) =>
        data(
          "mutation ($t: String!, $s: String!, $a: Int) { respondOnTheWay(token: $t, status: $s, arrivalMinutes: $a) { status arrivesAt } }",
          undefined,
          { t: token, s: status, a: arrivalMinutes },
        ),
      );
    const answered = Date.now();
    await respond(jan, "going", 7);
    await respond(piet, "cancelled");
    await respond(klaas, "going", 4);
    // "Going" again without minutes keeps the estimate given before.
    const again = await respond(jan, "going");
    const jansEstimate = again.respondOnTheWay.arrivesAt;
    expect(new Date(jansEstimate).getTime() - answered).toBeGreaterThanOrEqual(7 * 60_000 - 1_000);
    const { stationScreen } = await data(SCREEN_QUERY, screen.token);
    const [match] = stationScreen.matches;
    expect(match).toMatchObject({
      monitorName: "Kazerne Schiedam",
      message: PAGE,
      plainText: expect.stringContaining("Bachplein"),
      urgency: "A1",
      city: "Schiedam",
      units: [expect.any(String)],
      reAlertedAt: null,
      comingWanted: 2,
    });
    // Coming first, soonest first; names only, never an address.
    expect(match.responders.map((r: { name: string; status: string }) => [r.name, r.status])).toEqual([
      ["Klaas", "going"],
      ["Jan", "going"],
      ["Piet", "cancelled"],
    ]);
    expect(JSON.stringify(stationScreen)).not.toContain("@example.org");
    const klaasArrives = new Date(match.responders[0].arrivesAt).getTime();
    expect(klaasArrives - answered).toBeGreaterThanOrEqual(4 * 60_000 - 1_000);
    expect(klaasArrives - answered).toBeLessThan(4 * 60_000 + 30_000);
    expect(match.responders[2].arrivesAt).toBeNull();
    await waitUntil(
      () => live.events.map((e) => e.stationScreen.matches[0]?.responders.length),
      (counts) => counts.includes(3),
      "the answers on the live screen",
    );
    // An estimate goes with going only.
    const token = await respondToken(messageUuid, piet);
    expect(
      errorOf(
        await call(
          'mutation ($t: String!) { respondOnTheWay(token: $t, status: "cancelled", arrivalMinutes: 5) { status } }',
          undefined,
          { t: token },
        ),
      ).code,
    ).toBe("BAD_USER_INPUT");
  });

  test("availability, from the console and from a respond link, shown to the screen; past its until it holds no more", async () => {
    const [jan, piet] = channelUuids;
    const until = new Date(Date.now() + 3600_000).toISOString();
    const { setCrewAvailability } = await data(
      'mutation ($c: UUID!, $u: DateTime) { setCrewAvailability(channel: $c, status: "unavailable", until: $u) { name availability until } }',
      ada.accessToken,
      { c: jan, u: until },
    );
    expect(setCrewAvailability).toEqual({ name: "Jan", availability: "unavailable", until });
    const { respondAvailability } = await data(
      'mutation ($t: String!) { respondAvailability(token: $t, status: "available") { name availability until } }',
      undefined,
      { t: await respondToken(messageUuid, piet) },
    );
    expect(respondAvailability).toEqual({ name: "Piet", availability: "available", until: null });
    // The respond page, opened again, reads back what was stored: the answer with its arrival, and
    // the availability.
    const link = async (channel: string) =>
      (
        await data(
          "query ($t: String!) { respondLink(token: $t) { status arrivesAt availability availableUntil } }",
          undefined,
          { t: await respondToken(messageUuid, channel) },
        )
      ).respondLink;
    expect(await link(piet)).toEqual({
      status: "cancelled",
      arrivesAt: null,
      availability: "available",
      availableUntil: null,
    });
    const janLink = await link(jan);
    expect([janLink.status, janLink.availability, new Date(janLink.availableUntil).toISOString()]).toEqual([
      "going",
      "unavailable",
      until,
    ]);
    expect(new Date(janLink.arrivesAt).getTime()).toBeGreaterThan(Date.now());
    // DateTimes compared as instants (PostgreSQL writes them with +00:00).
    const crewOf = async () =>
      (await data(SCREEN_QUERY, screen.token)).stationScreen.crew.map((member: { until: string | null }) => ({
        ...member,
        until: member.until && new Date(member.until).toISOString(),
      }));
    expect(await crewOf()).toEqual([
      { name: "Jan", type: "email", availability: "unavailable", until },
      { name: "Klaas", type: "email", availability: null, until: null },
      { name: "Piet", type: "email", availability: "available", until: null },
    ]);
    await waitUntil(
      () => live.events.map((e) => e.stationScreen.crew.find((m: { name: string }) => m.name === "Jan")?.availability),
      (seen) => seen.includes("unavailable"),
      "the availability on the live screen",
    );
    // The console sees the same; an until in the past is refused, one that passed no longer holds.
    expect((await data("{ crew { name availability } }", ada.accessToken)).crew).toContainEqual({
      name: "Jan",
      availability: "unavailable",
    });
    expect(
      errorOf(
        await call(
          'mutation ($c: UUID!) { setCrewAvailability(channel: $c, status: "available", until: "2020-01-01T00:00:00Z") { name } }',
          ada.accessToken,
          { c: jan },
        ),
      ).code,
    ).toBe("BAD_USER_INPUT");
    await ctx.db.asOwner(
      "update app_public.crew_availability set until = now() - interval '1 second' where channel_uuid = $1",
      [jan],
    );
    expect((await crewOf())[0]).toEqual({ name: "Jan", type: "email", availability: null, until: null });
  });

  test("reads nothing else of its environment: not the other monitors' matches, not the account's data", async () => {
    await addPage("P 2 BR woning Hoogstraat Schiedam", "002029569");
    await ctx.service.workerIdle();
    const matchesOf = (monitor: string) =>
      call("query ($m: String!) { p2000Messages(filter: { monitor: { uuid: $m } }) { message } }", screen.token, {
        m: monitor,
      });
    // Its own monitor's matches are a public read's filter as for any token of the environment …
    expect((await matchesOf(monitorUuid)).data.p2000Messages).toEqual([{ message: PAGE }]);
    // … another monitor's are not its to read, even once a full token of its environment has had
    // the same answer (the response cache keeps none for a screen's credential).
    const full = await call(
      "query ($m: String!) { p2000Messages(filter: { monitor: { uuid: $m } }) { message } }",
      ada.apiToken,
      { m: otherMonitorUuid },
    );
    expect(full.data.p2000Messages).toEqual([{ message: "P 2 BR woning Hoogstraat Schiedam" }]);
    expect(errorOf(await matchesOf(otherMonitorUuid)).code).toBe("NOT_FOUND");
    // A member's queries give it nothing (refused, or empty: an API token is no member), and the
    // public feeds answer.
    for (const [query, field] of [
      ["{ stationScreens { name } }", "stationScreens"],
      ["{ crew { name } }", "crew"],
      ["{ monitors { name } }", "monitors"],
      ["{ apiTokens { name } }", "apiTokens"],
    ]) {
      const body = await call(query, screen.token);
      expect([body.errors?.[0]?.extensions?.code, body.data?.[field] ?? []]).toEqual([
        body.errors ? "UNAUTHENTICATED" : undefined,
        [],
      ]);
    }
    expect((await call("{ p2000Messages(filter: {}) { message } }", screen.token)).errors).toBeUndefined();
    // Another token of the same environment is no screen.
    expect(errorOf(await call(SCREEN_QUERY, ada.apiToken)).code).toBe("FORBIDDEN");
  });

  test("reads nothing keyed on its environment: the RSS its monitors follow, a feed monitor's events", async () => {
    const feedUrl = "https://example.invalid/kazerne.rss";
    const feedMonitor = async (type: string, query: object) =>
      (
        await data("mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }", ada.accessToken, {
          i: { name: `Kazerne ${type}`, type, query: JSON.stringify(query), channels: JSON.stringify(channelUuids) },
        })
      ).createMonitor.uuid;
    await feedMonitor("rss", { feeds: [feedUrl] });
    const {
      rows: [{ uuid: feedUuid }],
    } = await ctx.db.asOwner<{ uuid: string }>("select uuid from app_public.rss_feeds where url = $1", [feedUrl]);
    await storeRssDocument(
      { query: ctx.db.asOwner },
      feedUuid,
      parseRssDocument(
        `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Kazerne</title>` +
          `<link>https://example.invalid/</link><description>Nieuws</description><item><title>Open dag</title>` +
          `<guid isPermaLink="false">1</guid><pubDate>${new Date().toUTCString()}</pubDate></item></channel></rss>`,
      ),
    );
    // The environment's full token reads the item (and the cache may keep that answer); the
    // screen's credential, which acts in no environment, follows no feed.
    const RSS = "{ rssFeedItems { title } }";
    expect((await data(RSS, ada.apiToken)).rssFeedItems).toEqual([{ title: "Open dag" }]);
    expect((await data(RSS, screen.token)).rssFeedItems).toEqual([]);
    const trafficMonitor = await feedMonitor("accident", {});
    const TRAFFIC = "query ($m: String!) { trafficIncidentsForMonitor(monitor: { uuid: $m }) { uuid } }";
    expect((await data(TRAFFIC, ada.apiToken, { m: trafficMonitor })).trafficIncidentsForMonitor).toEqual([]);
    expect(errorOf(await call(TRAFFIC, screen.token, { m: trafficMonitor })).code).toBe("NOT_FOUND");
  });

  test("what counts is what the station would be told: held back by quiet hours yes, below minUrgency no", async () => {
    const held = await addPage("A2 AMBU 17110 Broersvest Schiedam SCHIDM bon 147020");
    const below = await addPage("B2 AMBU 17111 Nieuwstraat Schiedam SCHIDM bon 147021");
    await ctx.service.workerIdle();
    // As the matcher records them when a rule holds them back.
    await ctx.db.asOwner(
      `update app_hidden.monitor_matches set suppressed_reason = case message_uuid when $1::uuid then 'quiet_hours' else 'min_urgency' end
        where monitor_uuid = $3 and message_uuid in ($1, $2)`,
      [held, below, monitorUuid],
    );
    const { stationScreen } = await data("{ stationScreen { matches { messageUuid } } }", screen.token);
    const shown = stationScreen.matches.map((m: { messageUuid: string }) => m.messageUuid);
    expect(shown).toContain(held);
    expect(shown).not.toContain(below);
  });

  test("screen:read is no scope to give: createApiToken refuses it and updateApiToken leaves a screen's token alone", async () => {
    expect(
      errorOf(
        await call(
          'mutation { createApiToken(input: { name: "sneaky", scopes: ["screen:read"] }) { plainToken } }',
          ada.accessToken,
        ),
      ),
    ).toEqual({
      message: "screen:read is only for a station screen's credential: pair the screen (pairStationScreen).",
      code: "BAD_USER_INPUT",
    });
    const { rows } = await ctx.db.asOwner<{ uuid: string }>(
      "select api_token_uuid as uuid from app_public.station_screens where uuid = $1",
      [screen.uuid],
    );
    expect(
      errorOf(
        await call("mutation ($u: String!) { updateApiToken(uuid: $u, scopes: []) { uuid } }", ada.accessToken, {
          u: rows[0].uuid,
        }),
      ).message,
    ).toMatch(/^This is a station screen's credential/);
  });

  test("deleting the screen revokes its credential: its reads answer UNAUTHENTICATED and its live view ends", async () => {
    const doomed = await pairedScreen("Doomed");
    const doomedLive = watch("websocket", ctx.service.url + "/graphql", {
      token: doomed.token,
      query: "subscription { stationScreen { name } }",
    });
    watches.push(doomedLive);
    await untilHeard(
      () => doomedLive.events.length,
      () =>
        data("mutation ($i: UpdateStationScreenInput!) { updateStationScreen(input: $i) { uuid } }", ada.accessToken, {
          i: { uuid: doomed.uuid, alarmMinutes: 20 },
        }),
    );
    // A change of its minutes alone keeps the station's point.
    const { stationScreens } = await data("{ stationScreens { uuid latitude alarmMinutes paired } }", ada.accessToken);
    expect(stationScreens.find((s: { uuid: string }) => s.uuid === doomed.uuid)).toEqual({
      uuid: doomed.uuid,
      latitude: 51.9167,
      alarmMinutes: 20,
      paired: true,
    });
    expect(
      (await data("mutation ($u: UUID!) { deleteStationScreen(uuid: $u) }", ada.accessToken, { u: doomed.uuid }))
        .deleteStationScreen,
    ).toBe(true);
    await waitUntil(
      () => doomedLive.ended,
      (ended) => ended,
      "the deleted screen's subscription to end",
    );
    expect(errorOf(await call("{ stationScreen { name } }", doomed.token)).code).toBe("UNAUTHENTICATED");
  });

  test("a credential revoked on the API tokens screen is no pairing: the console says so", async () => {
    const revoked = await pairedScreen("Revoked elsewhere");
    const { rows } = await ctx.db.asOwner<{ uuid: string }>(
      "select api_token_uuid as uuid from app_public.station_screens where uuid = $1",
      [revoked.uuid],
    );
    await data("mutation ($u: String!) { deleteApiToken(uuid: $u) }", ada.accessToken, { u: rows[0].uuid });
    const { stationScreens } = await data("{ stationScreens { uuid paired } }", ada.accessToken);
    expect(stationScreens.find((s: { uuid: string }) => s.uuid === revoked.uuid).paired).toBe(false);
    await data("mutation ($u: UUID!) { deleteStationScreen(uuid: $u) }", ada.accessToken, { u: revoked.uuid });
  });
});

describe("reAlert", () => {
  test("too few coming: the page again to those who have not answered, with how many are coming, once; enough coming: nothing", async () => {
    const messageUuid = await addPage("A1 BRT-01 Gebouwbrand Lange Haven Schiedam", "001420007");
    await ctx.service.workerIdle();
    // The check was booked for the rule's minutes after the page, once per incident.
    const { rows: jobs } = await ctx.db.asOwner<{ minutes: number }>(
      `select round(extract(epoch from (j.run_at - now())) / 60)::int as minutes
         from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = 'monitors__check_crew' and j.payload->>'message' = $1`,
      [messageUuid],
    );
    expect(jobs).toEqual([{ minutes: 60 }]);
    await data('mutation ($t: String!) { respondOnTheWay(token: $t, status: "going") { status } }', undefined, {
      t: await respondToken(messageUuid, channelUuids[0]),
    });
    const check = async () =>
      (
        await ctx.db.asOwner<{ queued: number }>("select app_private.check_crew($1, $2) as queued", [
          monitorUuid,
          messageUuid,
        ])
      ).rows[0].queued;
    // Again to those who have not answered (Jan said he is coming), and once only.
    expect(await check()).toBe(2);
    expect(await check()).toBe(0);
    await ctx.service.workerIdle();
    const reAlert = await mail.waitFor("klaas@example.org", /^Heralarm: 1 van 2 komen na 60 min: /);
    expect(mail.mails.filter((m) => m.to === "jan@example.org" && m.subject.startsWith("Heralarm"))).toEqual([]);
    expect(reAlert.text).toContain("A1 BRT-01 Gebouwbrand Lange Haven Schiedam");
    // The re-alert carries its own respond link, which answers for the same incident.
    const token = await respondToken(messageUuid, channelUuids[2], true);
    await data(
      'mutation ($t: String!) { respondOnTheWay(token: $t, status: "going", arrivalMinutes: 3) { status } }',
      undefined,
      { t: token },
    );
    const { rows } = await ctx.db.asOwner<{ going: number }>(
      "select count(*)::int as going from app_public.alert_responders where message_uuid = $1 and status = 'going'",
      [messageUuid],
    );
    expect(rows[0].going).toBe(2);
    // Enough coming for the next incident: no re-alert.
    const second = await addPage("A1 AMBU 17108 Hoogstraat Schiedam SCHIDM bon 147009", "001420007");
    await ctx.service.workerIdle();
    for (const channel of channelUuids.slice(0, 2))
      await data('mutation ($t: String!) { respondOnTheWay(token: $t, status: "going") { status } }', undefined, {
        t: await respondToken(second, channel),
      });
    expect(
      (
        await ctx.db.asOwner<{ queued: number }>("select app_private.check_crew($1, $2) as queued", [
          monitorUuid,
          second,
        ])
      ).rows[0].queued,
    ).toBe(0);
  });

  test("the rule's shape is checked, and it goes without a burst rule", async () => {
    const refused = async (rules: object) =>
      errorOf(
        await call("mutation ($i: UpdateMonitorInput!) { updateMonitor(input: $i) { uuid } }", ada.accessToken, {
          i: { uuid: monitorUuid, notificationRules: JSON.stringify(rules) },
        }),
      );
    expect(await refused({ reAlert: { coming: 0, minutes: 5 } })).toEqual({
      message: expect.stringMatching(/^notificationRules.reAlert must be \{ "coming": 1-99, "minutes": 1-60 \}/),
      code: "BAD_USER_INPUT",
    });
    expect((await refused({ reAlert: { coming: 2, minutes: 61 } })).code).toBe("BAD_USER_INPUT");
    expect((await refused({ reAlert: { coming: 2, minutes: 5, extra: 1 } })).code).toBe("BAD_USER_INPUT");
    expect((await refused({ reAlert: { coming: 2, minutes: 5 }, burst: { count: 3, minutes: 30 } })).message).toMatch(
      /without maxPerDossier, escalations, relatedSignals and reAlert/,
    );
  });
});
