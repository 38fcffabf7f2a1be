// Channels, monitors and notifications end to end, over real HTTP with the service's own worker:
// a webhook channel pointing at a local server, an e-mail channel at a real SMTP sink, a P2000
// monitor with a radius around Schiedam. A matching message reaches both (signature verified by
// the Standard Webhooks reference library, as receivers do; respond link answered "going" without a login); messages outside the radius, to another
// capcode, or exercises reach nobody; another environment sees none of it.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Webhook } from "standardwebhooks";
import { startMailSink, type MailSink } from "../helpers/mail-sink.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let mail: MailSink;
let hooks: WebhookReceiver;
beforeAll(async () => {
  mail = await startMailSink();
  hooks = await startWebhookReceiver();
});
// The webhook target is a local server, so this service allows private targets.
const ctx = useTestService(() => ({ delivery: { smtpUrl: mail.url, allowPrivateTargets: true } }));
afterAll(async () => {
  await hooks?.stop();
  await mail?.stop();
});

let ada: TestUser;
let bob: TestUser;
let schiedam: { latitude: number; longitude: number };

async function gql(query: string, token: string | undefined, variables: Record<string, unknown> = {}) {
  return (await ctx.service.graphql(query, { token, variables })).body;
}
async function ok(query: string, token: string | undefined, variables: Record<string, unknown> = {}) {
  const body = await gql(query, token, variables);
  expect(body.errors).toBeUndefined();
  return body.data;
}

async function sendMessage(message: string, capcode: string) {
  const data = await ok(
    "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid city exerciseType } }",
    ada.accessToken,
    { i: { message, sended: new Date().toISOString(), capcodes: [{ name: capcode }] } },
  );
  return data.createP2000Message as { uuid: string; city: string | null; exerciseType: string };
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org", { admin: true });
  bob = await signUp(ctx.service, "bob@example.org");
  const {
    rows: [place],
  } = await ctx.db.asOwner(
    "select latitude, longitude from app_public.places where name = 'Schiedam' order by population desc limit 1",
  );
  schiedam = place;
});

describe("channels", () => {
  test.each([
    [
      { type: "pager", name: "x" },
      /type must be one of discord, email, gotify, mqtt, ntfy, pushover, slack, sms, telegram, webhook, webpush\./,
    ],
    [{ type: "email", name: "x" }, /emailAddress must be an e-mail address/],
    [{ type: "email", name: "", emailAddress: "a@example.org" }, /name must have 1 to 200 characters/],
    [{ type: "sms", name: "x", phoneNumber: "0612345678" }, /E\.164/],
    [{ type: "webhook", name: "x", url: "ftp://example.org/" }, /http\(s\) URL/],
    [
      { type: "webhook", name: "x", url: "https://example.org/", headers: [{ name: "Content-Type", value: "x" }] },
      /headers/,
    ],
    [{ type: "telegram", name: "x", chatId: "not a chat" }, /chatId/],
    [
      { type: "email", name: "x", emailAddress: "a@example.org", headers: [{ name: "X-A", value: "1" }] },
      /headers apply to webhook channels only/,
    ],
  ])("createChannel refuses bad input %#", async (input, message) => {
    const body = await gql(
      "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
      ada.accessToken,
      { i: input },
    );
    expect(errorOf(body).message).toMatch(message);
    expect(errorOf(body).code).toBe("BAD_USER_INPUT");
  });

  test("needs a logged-in user", async () => {
    const body = await gql(
      'mutation { createChannel(input: { type: "email", name: "x", emailAddress: "a@example.org" }) { channel { uuid } } }',
      ada.apiToken,
    );
    expect(errorOf(body).code).toBe("UNAUTHENTICATED");
  });
});

describe("a P2000 monitor around Schiedam", () => {
  let webhookUuid: string;
  let signingSecret: string;
  let emailUuid: string;
  let monitorUuid: string;
  let matched: { uuid: string };

  test("createChannel makes a webhook channel (secret shown once) and an e-mail channel", async () => {
    const { createChannel: webhook } = await ok(
      `mutation ($i: CreateChannelInput!) { createChannel(input: $i) { signingSecret channel { uuid type name url headers { name value } } } }`,
      ada.accessToken,
      {
        i: {
          type: "webhook",
          name: "Dispatch board",
          url: `${hooks.url}/hook`,
          headers: [{ name: "X-Team", value: "blue" }],
        },
      },
    );
    expect(webhook.channel).toMatchObject({
      type: "webhook",
      name: "Dispatch board",
      url: `${hooks.url}/hook`,
      headers: [{ name: "X-Team", value: "blue" }],
    });
    expect(webhook.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(webhook.signingSecret.slice("whsec_".length), "base64")).toHaveLength(32);
    webhookUuid = webhook.channel.uuid;
    signingSecret = webhook.signingSecret;
    const { createChannel: email } = await ok(
      'mutation { createChannel(input: { type: "email", name: "Me", emailAddress: "Responder@Example.org" }) { signingSecret channel { uuid emailAddress } } }',
      ada.accessToken,
    );
    expect(email).toMatchObject({ signingSecret: null, channel: { emailAddress: "responder@example.org" } });
    emailUuid = email.channel.uuid;
    const { channels } = await ok("{ channels { uuid type } }", ada.accessToken);
    expect(channels.map((c: { uuid: string }) => c.uuid).sort()).toEqual([webhookUuid, emailUuid].sort());
  });

  test.each([
    [{ name: "x", query: "{not json" }, /query is not valid JSON/],
    [{ name: "x", query: '{"capcode": ["1420007"]}' }, /query\.capcode: not a field of p2000 monitors/],
    [{ name: "x", query: '{"capcodes": "1420007"}' }, /query\.capcodes must be a list of strings/],
    [{ name: "x", query: '{"regions": ["99"]}' }, /query\.regions: unknown or malformed value\(s\): 99/],
    [{ name: "x", query: '{"includeExercises": "yes"}' }, /query\.includeExercises must be true or false/],
    [{ name: "x", type: "rss", query: "{}" }, /query\.feeds is required for rss monitors/],
    [{ name: "x", type: "matrix", query: '{"minDelayMinutes": -5}' }, /query\.minDelayMinutes must be a whole number/],
    [{ name: "x", type: "weather" }, /type must be one of/],
    [{ name: "x", radius: 5 }, /radius needs a location/],
    [{ name: "x", location: { latitude: 52, longitude: 4 }, radius: 500 }, /radius is in kilometres/],
    [
      { name: "x", notificationRules: '{"quietHours": {"from": "25:00", "to": "07:00"}}' },
      /notificationRules\.quietHours/,
    ],
    [{ name: "x", notificationRules: '{"snooze": true}' }, /notificationRules\.snooze: unknown rule/],
    [{ name: "x", channels: '["00000000-0000-0000-0000-000000000000"]' }, /channels: no channel/],
  ])("createMonitor refuses bad input %#", async (input, message) => {
    const body = await gql(
      "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
      ada.accessToken,
      { i: input },
    );
    expect(errorOf(body).message).toMatch(message);
    expect(errorOf(body).code).toBe("BAD_USER_INPUT");
  });

  test("every monitor type can be created with its query shape", async () => {
    const queries: Record<string, unknown> = {
      accident: { types: ["accident"], roads: ["A20"] },
      aircraft: { kinds: ["trauma"] },
      meteo_weather: { regions: ["zuid-holland"], levels: ["orange", "red"] },
      rail_disruptions: { routes: ["Rotterdam - Schiedam"] },
      matrix: { roads: ["A4"], minDelayMinutes: 10 },
      rss: { feeds: ["https://example.org/feed.xml"], keywords: ["Brand"] },
    };
    for (const [type, query] of Object.entries(queries)) {
      const { createMonitor } = await ok(
        "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { type query active } }",
        bob.accessToken,
        { i: { name: type, type, query: JSON.stringify(query) } },
      );
      expect(createMonitor.type).toBe(type);
      expect(JSON.parse(createMonitor.query)).toEqual(
        type === "rss" ? { feeds: ["https://example.org/feed.xml"], keywords: ["brand"] } : query,
      );
    }
  });

  test("createMonitor stores the monitor with its channels, location and rules", async () => {
    const { createMonitor } = await ok(
      `mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) {
         uuid name type active query channels notificationRules location { latitude longitude } locationMode radius created changed } }`,
      ada.accessToken,
      {
        i: {
          name: "Ambulance near home",
          type: "p2000",
          location: schiedam,
          radius: 5,
          query: JSON.stringify({ capcodes: ["001420007"], disciplines: ["ambulance"] }),
          channels: JSON.stringify([webhookUuid, emailUuid]),
          notificationRules: JSON.stringify({ maxPerDossier: 3 }),
        },
      },
    );
    expect(createMonitor).toMatchObject({
      name: "Ambulance near home",
      type: "p2000",
      active: true,
      locationMode: "fixed",
      radius: 5,
      location: schiedam,
    });
    expect(JSON.parse(createMonitor.query)).toEqual({ capcodes: ["1420007"], disciplines: ["Ambulance"] });
    expect(JSON.parse(createMonitor.channels).sort()).toEqual([webhookUuid, emailUuid].sort());
    expect(JSON.parse(createMonitor.notificationRules)).toEqual({ maxPerDossier: 3 });
    monitorUuid = createMonitor.uuid;
    const { monitors, monitor } = await ok(
      "query ($u: String!) { monitors { uuid } monitor(uuid: $u) { name } }",
      ada.accessToken,
      { u: monitorUuid },
    );
    expect(monitors).toEqual([{ uuid: monitorUuid }]);
    expect(monitor).toEqual({ name: "Ambulance near home" });
  });

  test("a matching message reaches the webhook (signed) and the e-mail (with a respond link)", async () => {
    matched = await sendMessage("A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008", "001420007");
    const [delivery] = await hooks.waitFor((r) => r.path === "/hook");
    const headers = delivery.headers as Record<string, string>;
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(signingSecret).verify(delivery.body, headers)).toEqual(JSON.parse(delivery.body));
    expect(() => new Webhook(signingSecret).verify(delivery.body.replace("Schiedam", "Rotterdam"), headers)).toThrow(
      "No matching signature found",
    );
    expect(() => new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(delivery.body, headers)).toThrow(
      "No matching signature found",
    );
    expect(delivery.headers["x-team"]).toBe("blue");
    const payload = JSON.parse(delivery.body);
    expect(payload).toMatchObject({
      id: delivery.headers["webhook-id"],
      event: "p2000.message.matched",
      monitor: { uuid: monitorUuid, name: "Ambulance near home" },
      message: { uuid: matched.uuid, urgency: "A1", discipline: "Ambulance", city: "Schiedam" },
    });
    // The subject is the page in plain words; the text has it as sent too.
    const received = await mail.waitFor("responder@example.org", /A1 spoed, ambulance, Bachplein, Schiedam/);
    expect(received.text).toContain("A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008");
    expect(received.text).toContain("Monitor: Ambulance near home");
    const link = new URL(mail.linkIn(received, "http://127.0.0.1"));
    expect(link.pathname).toBe("/respond");
    const page = await fetch(new URL(link.pathname + link.search, ctx.service.url));
    expect(page.status).toBe(200);
    // The web application's respond screen (web/src/console/respond-screen.ts), kept out of caches.
    expect(await page.text()).toMatch(/\/web\/app-[A-Z2-7]{8}\.js/);
    expect(page.headers.get("cache-control")).toBe("no-store");

    const token = link.searchParams.get("token")!;
    const { respondOnTheWay } = await ok(
      'mutation ($t: String!) { respondOnTheWay(token: $t, status: "going") { status recipient monitorUuid messageUuid } }',
      undefined,
      { t: token },
    );
    expect(respondOnTheWay).toEqual({
      status: "going",
      recipient: "responder@example.org",
      monitorUuid,
      messageUuid: matched.uuid,
    });
    const again = await ok(
      'mutation ($t: String!) { respondOnTheWay(token: $t, status: "cancelled") { status } }',
      undefined,
      { t: token },
    );
    expect(again.respondOnTheWay.status).toBe("cancelled");
    const { monitor } = await ok(
      "query ($u: String!) { monitor(uuid: $u) { responders { status recipient channel { name } } } }",
      ada.accessToken,
      { u: monitorUuid },
    );
    expect(monitor.responders).toEqual([
      { status: "cancelled", recipient: "responder@example.org", channel: { name: "Me" } },
    ]);

    const [body, signature] = token.split(".");
    // A different first character (the notification uuid starts with "0" one time in sixteen).
    const otherFirst = (claims: string) => claims.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    const tampered = `${Buffer.from(otherFirst(Buffer.from(body, "base64url").toString())).toString("base64url")}.${signature}`;
    for (const bad of [tampered, `${body}.${"A".repeat(43)}`, "nonsense"]) {
      const refused = await gql(
        'mutation ($t: String!) { respondOnTheWay(token: $t, status: "going") { status } }',
        undefined,
        { t: bad },
      );
      expect(errorOf(refused)).toEqual({ message: "This respond link is not valid.", code: "UNAUTHENTICATED" });
    }
    const badStatus = await gql(
      'mutation ($t: String!) { respondOnTheWay(token: $t, status: "maybe") { status } }',
      undefined,
      { t: token },
    );
    expect(errorOf(badStatus)).toEqual({ message: "status must be going or cancelled.", code: "BAD_USER_INPUT" });
  });

  test("messages outside the radius, to another capcode, or exercises notify nobody", async () => {
    await ctx.service.workerIdle();
    const before = { hooks: hooks.requests.length, mails: mail.mails.length };
    const far = await sendMessage("A1 AMBU 01101 Vismarkt Groningen bon 147009", "001420007");
    expect(far.city).toBe("Groningen");
    const otherCapcode = await sendMessage("A1 AMBU 17108 Hoogstraat Schiedam bon 147010", "001420059");
    expect(otherCapcode.city).toBe("Schiedam");
    const exercise = await sendMessage("TESTOPROEP AMBU 17107 Schiedam", "001420007");
    expect(exercise.exerciseType).toBe("test");
    await ctx.service.workerIdle();
    expect({ hooks: hooks.requests.length, mails: mail.mails.length }).toEqual(before);
  });

  test("p2000Messages(filter: { monitor }) lists the messages that matched it", async () => {
    const { p2000Messages, p2000MessagesCount } = await ok(
      "query ($f: P2000MessageFilterInput) { p2000Messages(filter: $f) { uuid } p2000MessagesCount(filter: $f) }",
      ada.apiToken,
      { f: { monitor: { uuid: monitorUuid } } },
    );
    expect(p2000Messages).toEqual([{ uuid: matched.uuid }]);
    expect(p2000MessagesCount).toBe(1);
  });

  test("updateMonitor changes the given fields only; inactive monitors match nothing", async () => {
    const { updateMonitor } = await ok(
      "mutation ($i: UpdateMonitorInput!) { updateMonitor(input: $i) { name active radius channels query } }",
      ada.accessToken,
      { i: { uuid: monitorUuid, active: false, channels: JSON.stringify([webhookUuid]) } },
    );
    expect(updateMonitor).toMatchObject({
      name: "Ambulance near home",
      active: false,
      radius: 5,
      channels: JSON.stringify([webhookUuid]),
    });
    await ctx.service.workerIdle();
    const before = hooks.requests.length;
    await sendMessage("A1 AMBU 17107 Broersvest Schiedam bon 147011", "001420007");
    await ctx.service.workerIdle();
    expect(hooks.requests.length).toBe(before);
  });

  test("another environment never sees these channels or monitors", async () => {
    const { channels, monitor } = await ok(
      "query ($u: String!) { channels { uuid } monitor(uuid: $u) { uuid } }",
      bob.accessToken,
      { u: monitorUuid },
    );
    expect(channels).toEqual([]);
    expect(monitor).toBeNull();
    expect(
      errorOf(await gql("mutation ($u: String!) { deleteMonitor(uuid: $u) }", bob.accessToken, { u: monitorUuid })),
    ).toEqual({ message: "Monitor not found.", code: "NOT_FOUND" });
    expect(
      errorOf(await gql("mutation ($u: String!) { deleteChannel(uuid: $u) }", bob.accessToken, { u: webhookUuid })),
    ).toEqual({ message: "Channel not found.", code: "NOT_FOUND" });
    expect(
      errorOf(
        await gql("query ($f: P2000MessageFilterInput) { p2000Messages(filter: $f) { uuid } }", bob.apiToken, {
          f: { monitor: { uuid: monitorUuid } },
        }),
      ),
    ).toEqual({ message: "Monitor not found in this environment.", code: "NOT_FOUND" });
  });

  test("deleteChannel takes the channel off its monitors; deleteMonitor removes the monitor", async () => {
    expect(await ok("mutation ($u: String!) { deleteChannel(uuid: $u) }", ada.accessToken, { u: webhookUuid })).toEqual(
      { deleteChannel: true },
    );
    const { monitor } = await ok("query ($u: String!) { monitor(uuid: $u) { channels } }", ada.accessToken, {
      u: monitorUuid,
    });
    expect(monitor.channels).toBe("[]");
    expect(await ok("mutation ($u: String!) { deleteMonitor(uuid: $u) }", ada.accessToken, { u: monitorUuid })).toEqual(
      { deleteMonitor: true },
    );
    expect((await ok("{ monitors { uuid } }", ada.accessToken)).monitors).toEqual([]);
  });
});
