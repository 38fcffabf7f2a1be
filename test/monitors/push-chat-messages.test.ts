// What the ntfy, Pushover, Gotify, Discord and Slack senders put on the wire for items other than
// the P2000 message of the end-to-end test (test/api/push-chat-channels.test.ts): the one urgency
// scale and each receiver's priority from it, feed events (title, facts, the item's own link),
// Discord's and Slack's limits and escaping, which answers fail for good per receiver, and a
// reAlert rule's second notification of a page (its headline, the page and its respond link).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { deliverNotification } from "../../lib/monitors/notification-delivery.ts";
import { DeliveryError, type NotificationSettings, type PendingNotification } from "../../lib/monitors/notification.ts";
import { webhookBody } from "../../lib/monitors/notification-text.ts";
import { urgencyOf } from "../../lib/monitors/notification-urgency.ts";
import { startApiReceiver, type ApiReceiver } from "../helpers/api-receiver.ts";
import { blankNotification, testNotificationSettings } from "../helpers/notifications.ts";

const APP_TOKEN = "azGDORePK8gMaC0QOYAMyEEuzJnyUi";
let api: ApiReceiver;
beforeAll(async () => {
  api = await startApiReceiver();
  api.answers.set("/", { status: 200, body: "ok" });
});
afterAll(() => api?.stop());

function settings(): NotificationSettings {
  return testNotificationSettings({
    publicUrl: "https://incidents.example.nl",
    telegram: { botToken: undefined, apiUrl: api.url },
    pushover: { appToken: APP_TOKEN, apiUrl: `${api.url}/pushover` },
  });
}

const TYPES = ["ntfy", "pushover", "gotify", "discord", "slack"] as const;
type PushType = (typeof TYPES)[number];

/** A notification of a feed event (the kind and payload given) to a channel of the type given. */
function notification(type: PushType, event: Partial<PendingNotification> = {}): PendingNotification {
  return blankNotification({
    channel_type: type,
    monitor_uuid: "00000000-0000-4000-8000-000000000003",
    monitor_name: "Weather Utrecht",
    kind: "meteo",
    headline: "Code rood: Utrecht voor wind (wind)",
    facts: [
      "Level: red (was orange)",
      "Phenomena: wind",
      "Period: 2026-11-26 12:00 to 2026-11-26 18:00 (Europe/Amsterdam)",
    ],
    event_type: "meteo.warning.changed",
    payload: { warning: { statusCode: 3, level: "red", regionName: "Utrecht" } },
    server_url: `${api.url}/${type}`,
    topic: "weather",
    credentials: {
      accessToken: "tk_token",
      userKey: "uQiRzpo4DXghDmr9QzzfQu27cmVRsG",
      appToken: "AvKcy9o-yvVhyKd",
      webhookUrl: `${api.url}/${type}/hook`,
    },
    ...event,
  });
}

/** Sends the notification to the local receiver and returns the body it got, parsed. */
async function sent(n: PendingNotification): Promise<any> {
  const before = api.requests.length;
  await deliverNotification(settings(), n);
  expect(api.requests).toHaveLength(before + 1);
  const { body } = api.requests.at(-1)!;
  return n.channel_type === "pushover" ? Object.fromEntries(new URLSearchParams(body)) : JSON.parse(body);
}

describe("the urgency scale", () => {
  test.each([
    ["A0", 5],
    ["A1", 5],
    ["P1", 5],
    ["a1", 5],
    ["A2", 4],
    ["P2", 4],
    ["B1", 3],
    ["B2", 3],
    ["P3", 3],
    [null, 3],
  ])("P2000 urgency %s is level %i", (code, level) => {
    expect(urgencyOf(notification("ntfy", { kind: "p2000", urgency: code })).level).toBe(level);
  });

  test.each([
    ["nl_alert", {}, 5],
    ["amber_alert", { amberAlert: { level: 10 } }, 5],
    ["amber_alert", { amberAlert: { level: 5 } }, 4],
    ["amber_alert_end", { amberAlert: { level: 10 } }, 3],
    ["meteo", { warning: { statusCode: 3 } }, 5],
    ["meteo", { warning: { statusCode: 2 } }, 4],
    ["meteo", { warning: { statusCode: 1 } }, 3],
    ["rail", { disruption: { kind: "calamity" } }, 4],
    ["rail", { disruption: { kind: "disruption" } }, 3],
    ["traffic", { incident: { severity: "high" } }, 3],
    ["rss", { item: {} }, 3],
    ["test", { test: true }, 3],
  ])("a %s event with %j is level %i", (kind, payload, level) => {
    expect(urgencyOf(notification("ntfy", { kind, payload })).level).toBe(level);
  });

  test.each([
    [{ warning: { statusCode: 3 } }, 5, ["rotating_light"], "1", 10, 0xd32f2f],
    [{ warning: { statusCode: 2 } }, 4, ["warning"], "1", 8, 0xf57c00],
    [{ warning: { statusCode: 1 } }, 3, [], "0", 5, 0x1976d2],
  ])(
    "a weather warning %j: ntfy %i, Pushover %s, Gotify %i, the Discord colour",
    async (payload, ntfy, emoji, pushover, gotify, color) => {
      expect(await sent(notification("ntfy", { payload }))).toMatchObject({
        priority: ntfy,
        tags: [...emoji, "meteo"],
      });
      expect(await sent(notification("pushover", { payload }))).toMatchObject({ priority: pushover });
      expect(await sent(notification("gotify", { payload }))).toMatchObject({ priority: gotify });
      expect((await sent(notification("discord", { payload }))).embeds[0].color).toBe(color);
      const header = (await sent(notification("slack", { payload }))).blocks[0].text.text;
      expect(header).toBe(`${emoji.map((e) => `:${e}: `).join("")}Code rood: Utrecht voor wind (wind)`);
    },
  );
});

describe("a feed event", () => {
  const facts = [
    "Level: red (was orange)",
    "Phenomena: wind",
    "Period: 2026-11-26 12:00 to 2026-11-26 18:00 (Europe/Amsterdam)",
    "Monitor: Weather Utrecht",
  ];

  test("ntfy: the headline as title, the facts as message, the service's URL as click", async () => {
    const request = await sent(notification("ntfy"));
    expect(request).toEqual({
      topic: "weather",
      title: "Code rood: Utrecht voor wind (wind)",
      message: facts.join("\n"),
      priority: 5,
      tags: ["rotating_light", "meteo"],
      click: "https://incidents.example.nl",
    });
    expect(api.requests.at(-1)!.path).toBe("/ntfy/");
  });

  test("Pushover: no timestamp (the event's time is in its facts), the service's URL", async () => {
    expect(await sent(notification("pushover"))).toEqual({
      token: APP_TOKEN,
      user: "uQiRzpo4DXghDmr9QzzfQu27cmVRsG",
      title: "Code rood: Utrecht voor wind (wind)",
      message: facts.join("\n"),
      priority: "1",
      url: "https://incidents.example.nl",
      url_title: "Open",
    });
  });

  test("an RSS item: its own link is the click, its summary (a fact without label) the text of chat messages", async () => {
    const rss = {
      kind: "rss",
      headline: "Grote brand in Delft",
      facts: [
        "Feed: Omroep West",
        "Link: https://www.omroepwest.nl/nieuws/1",
        "Published: 2026-11-26 12:00",
        "Rook <dicht> & ramen",
      ],
      payload: { item: { title: "Grote brand in Delft", link: "https://www.omroepwest.nl/nieuws/1" } },
    };
    expect(await sent(notification("ntfy", rss))).toMatchObject({
      click: "https://www.omroepwest.nl/nieuws/1",
      priority: 3,
      tags: ["rss"],
    });
    expect(await sent(notification("gotify", rss))).toMatchObject({
      extras: { "client::notification": { click: { url: "https://www.omroepwest.nl/nieuws/1" } } },
    });
    const discord = (await sent(notification("discord", rss))).embeds[0];
    expect(discord).toMatchObject({ description: "Rook <dicht> & ramen", url: "https://www.omroepwest.nl/nieuws/1" });
    expect(discord.timestamp).toBeUndefined();
    expect(discord.fields.map((f: { name: string }) => f.name)).toEqual(["Feed", "Link", "Published", "Monitor"]);
    const slack = await sent(notification("slack", rss));
    // Slack's mrkdwn takes &, < and > as markup unless escaped.
    expect(slack.blocks[1].text).toEqual({ type: "mrkdwn", text: "Rook &lt;dicht&gt; &amp; ramen" });
    expect(slack.blocks[2].elements[0].text).toBe("<https://www.omroepwest.nl/nieuws/1|Open>");
  });
});

describe("receivers' limits", () => {
  const long = {
    headline: "H".repeat(300),
    facts: [...Array.from({ length: 30 }, (_, i) => `Fact ${i}: ${"v".repeat(1500)}`), "x".repeat(5000)],
  };

  test("Discord: title 256, description 4096, field values 1024, at most 25 fields", async () => {
    const [embed] = (await sent(notification("discord", long))).embeds;
    expect(embed.title).toHaveLength(256);
    expect(embed.title.endsWith("…")).toBe(true);
    expect(embed.description).toHaveLength(4096);
    expect(embed.fields).toHaveLength(25);
    for (const field of embed.fields) {
      expect(field.value).toHaveLength(1024);
      expect(field.inline).toBe(false);
    }
  });

  test("Slack: header 150, section text 3000, at most 10 fields of 2000", async () => {
    const { blocks, text } = await sent(notification("slack", long));
    expect(blocks[0].text.text).toHaveLength(150);
    expect(blocks[1].text.text).toHaveLength(3000);
    expect(blocks[1].fields).toHaveLength(10);
    for (const field of blocks[1].fields) expect(field.text.length).toBeLessThanOrEqual(2000);
    expect(text).toBe("H".repeat(300));
  });

  test("Pushover: title 250, message 1024", async () => {
    const form = await sent(notification("pushover", long));
    expect(form.title).toHaveLength(250);
    expect(form.message).toHaveLength(1024);
  });
});

describe("which answers fail for good", () => {
  async function failure(type: PushType, status: number): Promise<DeliveryError> {
    api.answers.set(`/${type}`, { status, body: "refused" });
    try {
      const error = await deliverNotification(settings(), notification(type)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DeliveryError);
      return error as DeliveryError;
    } finally {
      api.answers.delete(`/${type}`);
    }
  }

  // Pushover: never repeat a request answered with a 4xx (its 429 means the monthly limit). A
  // deleted Discord webhook (404) and a removed Slack webhook or channel (404, 410) are gone:
  // their channel is disabled.
  const gone: Record<string, number[]> = { discord: [404], slack: [404, 410] };
  test.each(TYPES.flatMap((type) => [400, 401, 403, 404, 410, 413, 429, 500, 502, 503].map((s) => [type, s] as const)))(
    "%s answering %i",
    async (type, status) => {
      const error = await failure(type, status);
      const permanent = status < 500 && (status !== 429 || type === "pushover");
      const disablesChannel = gone[type]?.includes(status) ?? false;
      const message = `HTTP ${status}: refused${disablesChannel ? " (the target is gone; the channel is disabled)" : ""}`;
      expect(error).toMatchObject({ responseCode: status, permanent, disablesChannel, message });
    },
  );

  test("a channel without its secret fails for good, saying so", async () => {
    const error = await deliverNotification(settings(), notification("gotify", { credentials: {} })).catch((e) => e);
    expect(error).toMatchObject({
      permanent: true,
      message: "The gotify channel has no application token: create it again.",
    });
  });
});

describe("a re-alert (the reAlert rule, docs/screen.md)", () => {
  const reAlert = (type: PushType) =>
    notification(type, {
      kind: "p2000",
      re_alert: true,
      headline: "Heralarm: 1 van 3 komen na 5 min",
      message: "A1 BRT-01 Gebouwbrand Lange Haven Schiedam",
      plain_text: "A1 spoed, brandweer, gebouwbrand, Lange Haven, Schiedam",
      sended: new Date("2026-11-30T12:00:00Z"),
      urgency: "A1",
      discipline: "Brandweer",
      city: "Schiedam",
      respond_token: "payload.signature",
      facts: null,
      event_type: null,
      payload: null,
    });

  test.each(TYPES)("%s: says it is a re-alert, and carries the page and its respond link", async (type) => {
    const text = JSON.stringify(await sent(reAlert(type)));
    expect(text).toContain("Heralarm: 1 van 3 komen na 5 min");
    expect(text).toContain("Lange Haven");
    expect(text).toContain("https://incidents.example.nl/respond?token=payload.signature");
  });

  test("a webhook: the event p2000.message.re_alerted with the headline as reAlert", () => {
    const body = JSON.parse(webhookBody(settings(), { ...reAlert("ntfy"), channel_type: "webhook" }));
    expect(body).toMatchObject({
      event: "p2000.message.re_alerted",
      reAlert: "Heralarm: 1 van 3 komen na 5 min",
      message: { message: "A1 BRT-01 Gebouwbrand Lange Haven Schiedam" },
      respond: { url: "https://incidents.example.nl/respond?token=payload.signature" },
    });
    // The first page of the same message is no re-alert.
    const first = JSON.parse(
      webhookBody(settings(), { ...reAlert("ntfy"), channel_type: "webhook", re_alert: false, headline: null }),
    );
    expect(first).toMatchObject({ event: "p2000.message.matched" });
    expect(first).not.toHaveProperty("reAlert");
  });
});
