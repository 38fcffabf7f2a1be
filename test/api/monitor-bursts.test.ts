// Bursts (issue 45): a P2000 monitor with notificationRules.burst { count, minutes, quietMinutes,
// per } is told once when count of its matches fall within minutes, with the matches in it, takes
// in the matches after it until quietMinutes pass without one, and is told again only of a burst
// after that; per place (or per area) each place counts on its own. Pages are stored with their
// place and time (as an importer that placed them stores them), matched one at a time by the
// service's own worker, and a local webhook receiver gets the deliveries; monitorPreview replays
// the same history and shows the same bursts.
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

const OSS = { city: "Oss", latitude: 51.765, longitude: 5.518 };
const UDEN = { city: "Uden", latitude: 51.661, longitude: 5.619 };

/** A page of minutesAgo at a place, matched before the next is stored (so in time order). */
async function pageAt(place: typeof OSS, minutesAgo: number, capcode: string): Promise<string> {
  const text = `P 1 BR woning Dorpsstraat ${place.city}`;
  const { rows } = await ctx.db.asOwner(
    `insert into app_public.p2000_messages (message, sended, capcode_names, city, latitude, longitude, normalized_text)
     values ($1, now() - make_interval(mins => $2), array[$3], $4, $5, $6, $1) returning uuid`,
    [text, minutesAgo, capcode, place.city, place.latitude, place.longitude],
  );
  await ctx.service.workerIdle();
  return rows[0].uuid;
}

function monitorInput(path: string, query: Record<string, unknown>, rules: Record<string, unknown>, channel?: string) {
  return {
    name: path,
    query: JSON.stringify(query),
    notificationRules: JSON.stringify(rules),
    ...(channel ? { channels: JSON.stringify([channel]) } : {}),
  };
}

async function monitorTo(path: string, query: Record<string, unknown>, rules: Record<string, unknown>) {
  const { createChannel } = await ok(
    "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
    ada.accessToken,
    { i: { type: "webhook", name: path, url: `${hooks.url}${path}` } },
  );
  const { createMonitor } = await ok(
    "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
    ada.accessToken,
    { i: monitorInput(path, query, rules, createChannel.channel.uuid) },
  );
  return createMonitor.uuid as string;
}

const told = (path: string) => hooks.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body));

// Two days: the pages are up to an hour old, and one day starts at the last Dutch midnight.
const PREVIEW = `query ($i: CreateMonitorInput!) {
  monitorPreview(input: $i, days: 2) {
    matches notifications
    bursts { startedAt lastMatchAt matches label notified suppressedReason messages { uuid } }
  }
}`;

describe("notificationRules.burst", () => {
  test.each([
    [{ burst: { count: 1, minutes: 30 } }, /^notificationRules\.burst must be \{ "count": 2-1000/],
    [{ burst: { count: 3, minutes: 2000 } }, /^notificationRules\.burst must be/],
    [{ burst: { count: 3, minutes: 30, per: "street" } }, /^notificationRules\.burst must be/],
    [{ burst: { count: 3, minutes: 30, every: 5 } }, /^notificationRules\.burst must be/],
    [{ burst: { count: 3, minutes: 30 }, escalations: true }, /^notificationRules\.burst tells of bursts/],
  ])("%j is refused, naming the rule", async (rules, message) => {
    const body = await gql(
      "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
      ada.accessToken,
      {
        i: monitorInput("refused", {}, rules),
      },
    );
    const error = errorOf(body);
    expect(error.code).toBe("BAD_USER_INPUT");
    expect(error.message).toMatch(message);
  });

  test("per place: told once per burst with its pages, again only after a quiet period", async () => {
    const query = { capcodes: ["1420007"] };
    const rules = { burst: { count: 3, minutes: 30, quietMinutes: 10, per: "place" }, language: "en" };
    const monitor = await monitorTo("/burst", query, rules);
    // Every page alone, for comparison.
    const each = await monitorTo("/each", query, {});

    const p1 = await pageAt(OSS, 55, "1420007");
    await pageAt(UDEN, 54, "1420007");
    const p3 = await pageAt(OSS, 50, "1420007");
    expect(told("/burst")).toEqual([]);
    const p4 = await pageAt(OSS, 45, "1420007"); // the third in Oss within 30 minutes: a burst
    await hooks.waitFor((r) => r.path === "/burst");
    await pageAt(UDEN, 44, "1420007"); // Uden's second: Uden counts on its own
    const p6 = await pageAt(OSS, 40, "1420007"); // within 10 minutes of the last: the same burst
    const p7 = await pageAt(OSS, 32, "1420007"); // and again
    const p8 = await pageAt(OSS, 20, "1420007"); // 12 quiet minutes: counting starts again
    const p9 = await pageAt(OSS, 15, "1420007");
    const p10 = await pageAt(OSS, 12, "1420007"); // the third since: a second burst
    await hooks.waitFor((r) => r.path === "/burst", 2);
    await hooks.waitFor((r) => r.path === "/each", 10, 30_000);
    await ctx.service.workerIdle();
    expect(told("/each")).toHaveLength(10);
    // Every match is recorded (held back for the burst), so the monitor's message list has them all.
    expect(await monitorMatches(ok, ada.apiToken, monitor)).toEqual(await monitorMatches(ok, ada.apiToken, each));

    const bursts = told("/burst").sort((a, b) => a.burst.startedAt.localeCompare(b.burst.startedAt));
    expect(bursts.map((b) => b.event)).toEqual(["p2000.burst", "p2000.burst"]);
    expect(bursts.map((b) => b.burst.messages.map((m: { uuid: string }) => m.uuid))).toEqual([
      [p1, p3, p4],
      [p8, p9, p10],
    ]);
    expect(bursts[0].burst).toMatchObject({ monitorUuid: monitor, count: 3, minutes: 30, per: "place", label: "Oss" });
    expect(bursts[0].burst.messages[0].plainText).toMatch(/^Priority 1 house fire/);

    // Matching every page again tells nobody twice.
    const before = hooks.requests.length;
    await ctx.db.asOwner("select app_private.match_p2000_message(uuid) from app_public.p2000_messages order by sended");
    await ctx.service.workerIdle();
    expect(hooks.requests.length).toBe(before);
    // A burst never takes a page it holds, were two matchers to meet on it.
    await ctx.db.asOwner(
      `select app_private.advance_burst(mo, m, 'place:oss') from app_public.monitors mo, app_public.p2000_messages m
        where mo.uuid = $1 and m.uuid = $2`,
      [monitor, p10],
    );
    const { rows: second } = await ctx.db.asOwner(
      "select message_uuids from app_hidden.monitor_bursts where monitor_uuid = $1 order by started_at desc limit 1",
      [monitor],
    );
    expect(second[0].message_uuids).toEqual([p8, p9, p10]);

    // The monitor's feed lists each burst as it was told (3 pages, though the first took in 5).
    const { rotateMonitorFeed: feed } = await ok(
      "mutation ($m: String!) { rotateMonitorFeed(monitor: $m) { geojsonUrl } }",
      ada.accessToken,
      { m: monitor },
    );
    const { features } = (await (await fetch(feed.geojsonUrl)).json()) as {
      features: Array<{ geometry: { coordinates: number[] }; properties: { kind: string; title: string } }>;
    };
    expect(features.map((f) => [f.properties.kind, f.properties.title])).toEqual([
      ["burst", "3 pages within 30 minutes in Oss"],
      ["burst", "3 pages within 30 minutes in Oss"],
    ]);
    expect(features[0].geometry.coordinates).toEqual([OSS.longitude, OSS.latitude]);

    // The preview replays the same history into the same bursts, with the pages each took in.
    const { monitorPreview } = await ok(PREVIEW, ada.accessToken, { i: monitorInput("preview", query, rules) });
    expect(monitorPreview.matches).toBe(10);
    expect(monitorPreview.notifications).toBe(2);
    expect(
      monitorPreview.bursts.map(
        (b: { label: string; matches: number; notified: boolean; messages: Array<{ uuid: string }> }) => [
          b.label,
          b.matches,
          b.notified,
          b.messages.map((m) => m.uuid),
        ],
      ),
    ).toEqual([
      ["Oss", 3, true, [p8, p9, p10]],
      ["Oss", 5, true, [p1, p3, p4]],
    ]);
    const { rows } = await ctx.db.asOwner(
      "select started_at, last_match_at, cardinality(message_uuids) as size from app_hidden.monitor_bursts where monitor_uuid = $1 order by started_at desc",
      [monitor],
    );
    expect(rows.map((r) => [r.started_at.toISOString(), r.last_match_at.toISOString(), r.size])).toEqual(
      monitorPreview.bursts.map((b: { startedAt: string; lastMatchAt: string; matches: number }) => [
        new Date(b.startedAt).toISOString(),
        new Date(b.lastMatchAt).toISOString(),
        b.matches,
      ]),
    );
    // The first burst took in the two pages after it.
    const { rows: first } = await ctx.db.asOwner(
      "select message_uuids from app_hidden.monitor_bursts where monitor_uuid = $1 order by started_at limit 1",
      [monitor],
    );
    expect(first[0].message_uuids).toEqual([p1, p3, p4, p6, p7]);
  });

  test("per area: each of the monitor's areas counts on its own, and the whole monitor by default", async () => {
    const areas = [
      { type: "circle", latitude: OSS.latitude, longitude: OSS.longitude, radius: 3 },
      { type: "circle", latitude: UDEN.latitude, longitude: UDEN.longitude, radius: 3 },
    ];
    const perArea = await monitorTo(
      "/area",
      { capcodes: ["1420059"], areas },
      { burst: { count: 2, minutes: 30, per: "area" } },
    );
    await monitorTo("/whole", { capcodes: ["1420059"], areas }, { burst: { count: 2, minutes: 30 } });

    await pageAt(OSS, 30, "1420059");
    await pageAt(UDEN, 28, "1420059"); // two in the monitor, one in each area
    await hooks.waitFor((r) => r.path === "/whole");
    expect(told("/area")).toEqual([]);
    await pageAt(UDEN, 25, "1420059"); // Uden's second
    await hooks.waitFor((r) => r.path === "/area");
    await ctx.service.workerIdle();

    expect(told("/whole").map((b) => [b.burst.count, b.burst.label])).toEqual([[2, null]]);
    expect(told("/area")).toHaveLength(1);
    const [burst] = told("/area");
    expect(burst.burst).toMatchObject({
      monitorUuid: perArea,
      count: 2,
      per: "area",
      label: "3 km around 51.661, 5.619",
    });
    expect(burst.burst.messages.map((m: { city: string }) => m.city)).toEqual(["Uden", "Uden"]);
    // The preview counts per area as live matching does.
    const { monitorPreview } = await ok(PREVIEW, ada.accessToken, {
      i: monitorInput("preview", { capcodes: ["1420059"], areas }, { burst: { count: 2, minutes: 30, per: "area" } }),
    });
    expect(
      monitorPreview.bursts.map((b: { label: string; matches: number; notified: boolean }) => [
        b.label,
        b.matches,
        b.notified,
      ]),
    ).toEqual([["3 km around 51.661, 5.619", 2, true]]);
  });
});
