// RSS end to end: an rss monitor names a feed on a local feed server (RSS 2.0 with geo, and Atom);
// the poller reads it (the first read is the baseline, not news), a new item with a keyword
// notifies the monitor's webhook once, rssFeedItems and rssFeedItemsCount show the environment's
// own feeds only (with Dutch and English search), a broken feed keeps the last state, and a feed on
// a private address is refused unless private targets are allowed.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { pollRssFeeds } from "../../lib/feeds/rss/poll.ts";
import { startFeedServer, type FeedServer } from "../helpers/feed-server.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let feed: FeedServer;
let hooks: WebhookReceiver;
beforeAll(async () => {
  feed = await startFeedServer();
  hooks = await startWebhookReceiver();
});
// Local servers stand in for public ones: this service allows private targets (feeds too).
const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: true } }));
afterAll(async () => {
  await hooks?.stop();
  await feed?.stop();
});

interface Item {
  guid: string;
  title: string;
  description: string;
  pubDate: string;
  lat?: number;
  lon?: number;
}
const rss = (items: Item[]) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:geo="http://www.w3.org/2003/01/geo/wgs84_pos#"><channel><title>P2000 Rotterdam-Rijnmond</title>
<link>https://example.invalid/p2000</link><description>Meldingen</description>
${items
  .map(
    (i) => `<item><title>${i.title}</title><link>https://example.invalid/p2000/${i.guid}</link>
<description>${i.description}</description><pubDate>${i.pubDate}</pubDate><guid isPermaLink="false">${i.guid}</guid>
${i.lat !== undefined ? `<geo:lat>${i.lat}</geo:lat><geo:long>${i.lon}</geo:long>` : ""}</item>`,
  )
  .join("\n")}
</channel></rss>`;
const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Nieuws</title><id>urn:example:news</id><updated>2026-11-23T10:00:00Z</updated>
<entry><id>urn:example:news:1</id><title>Grote brand in Hoogvliet</title><updated>2026-11-23T10:00:00Z</updated>
<link rel="alternate" href="https://example.invalid/news/1"/><summary type="html">&lt;p&gt;De brandweer rukte uit.&lt;/p&gt;</summary></entry>
</feed>`;

const first: Item[] = [
  {
    guid: "18542012",
    title: "P 1 BRT-01 BR woning Toscalaan Hoogvliet Rotterdam 173151",
    description: "1400349 Brandweer Rotterdam-Rijnmond&lt;br /&gt;1400551 Hoogvliet",
    pubDate: "Fri, 03 Jun 2022 12:53:33 +0200",
    lat: 51.8612,
    lon: 4.3421,
  },
  {
    guid: "18542013",
    title: "A2 Ambulance Spijkenisse",
    description: "Rit 12345",
    pubDate: "Fri, 03 Jun 2022 12:55:00 +0200",
  },
];
const fresh: Item[] = [
  {
    guid: "18542100",
    title: "P 1 Brand bedrijfspand Europoort",
    description: "Grote brand",
    pubDate: new Date().toUTCString(),
  },
  {
    guid: "18542101",
    title: "B1 Ambulance Rotterdam",
    description: "Besteld vervoer",
    pubDate: new Date().toUTCString(),
  },
];

let ada: TestUser;
let monitorUuid: string;
const log = {
  lines: [] as string[],
  info(m: string) {
    this.lines.push(`info ${m}`);
  },
  error(m: string) {
    this.lines.push(`error ${m}`);
  },
};
const poll = async (allowPrivateTargets = true) => {
  // Every followed feed due now (the poller itself waits RSS_POLL_INTERVAL between two reads).
  await ctx.db.asOwner("update app_public.rss_feeds set next_poll_at = now()");
  await pollRssFeeds(ctx.service.ownerPool, { intervalSeconds: 300 }, allowPrivateTargets, log);
  await ctx.service.workerIdle();
};
const items = async (token: string, filter: Record<string, unknown> = {}) => {
  const { body } = await ctx.service.graphql(
    `query ($f: RssFeedItemFilterInput) { rssFeedItems(filter: $f) { feedUrl feedTitle guid title link summary
    publishedAt latitude longitude } rssFeedItemsCount(filter: $f) }`,
    { token, variables: { f: filter } },
  );
  return body;
};

describe("rss monitors and rssFeedItems", () => {
  beforeAll(async () => {
    ada = await signUp(ctx.service, "ada@example.org");
    feed.documents.set("/p2000.rss", { body: rss(first) });
    feed.documents.set("/news.atom", { body: atom });
    const hook = await ctx.service.graphql(
      `mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }`,
      { token: ada.accessToken, variables: { i: { type: "webhook", name: "Feeds", url: `${hooks.url}/rss` } } },
    );
    const monitor = await ctx.service.graphql(
      `mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`,
      {
        token: ada.accessToken,
        variables: {
          i: {
            name: "Branden",
            type: "rss",
            query: JSON.stringify({ feeds: [`${feed.url}/p2000.rss`, `${feed.url}/news.atom`], keywords: ["Brand"] }),
            channels: JSON.stringify([hook.body.data.createChannel.channel.uuid]),
          },
        },
      },
    );
    expect(monitor.body.errors).toBeUndefined();
    monitorUuid = monitor.body.data.createMonitor.uuid;
  });

  test("the first read stores the items (RSS 2.0 with geo, and Atom) and notifies nobody", async () => {
    await poll();
    const body = await items(ada.apiToken);
    expect(body.errors).toBeUndefined();
    expect(body.data.rssFeedItemsCount).toBe(3);
    expect(body.data.rssFeedItems).toContainEqual({
      feedUrl: `${feed.url}/p2000.rss`,
      feedTitle: "P2000 Rotterdam-Rijnmond",
      guid: "18542012",
      title: first[0].title,
      link: "https://example.invalid/p2000/18542012",
      summary: "1400349 Brandweer Rotterdam-Rijnmond\n1400551 Hoogvliet",
      publishedAt: "2022-06-03T10:53:33.000000+00:00",
      latitude: 51.8612,
      longitude: 4.3421,
    });
    expect(body.data.rssFeedItems).toContainEqual(
      expect.objectContaining({
        feedTitle: "Nieuws",
        guid: "urn:example:news:1",
        title: "Grote brand in Hoogvliet",
        link: "https://example.invalid/news/1",
        summary: "De brandweer rukte uit.",
      }),
    );
    const { rows } = await ctx.db.asOwner(
      "select count(*)::int as n from app_private.notifications where monitor_uuid = $1",
      [monitorUuid],
    );
    expect(rows[0].n).toBe(0);
  });

  test("a new item with a keyword notifies once; one without, and reading the feed again, do not", async () => {
    feed.documents.set("/p2000.rss", { body: rss([...fresh, ...first]) });
    await poll();
    const [delivery] = await hooks.waitFor((r) => r.path === "/rss");
    expect(JSON.parse(delivery.body)).toMatchObject({
      event: "rss.item",
      monitor: { uuid: monitorUuid },
      item: { guid: "18542100", title: "P 1 Brand bedrijfspand Europoort", feedUrl: `${feed.url}/p2000.rss` },
    });
    await poll();
    const { rows } = await ctx.db.asOwner(
      "select count(*)::int as n from app_private.notifications where monitor_uuid = $1",
      [monitorUuid],
    );
    expect(rows[0].n).toBe(1);
    expect(hooks.requests.filter((r) => r.path === "/rss")).toHaveLength(1);
    // Conditional requests once the feed answered with an ETag.
    expect(feed.requests.filter((r) => r.path === "/p2000.rss").at(-1)?.conditional).toBe(true);
  });

  test("filters: monitor, feed, q with Dutch and English stemming, since", async () => {
    const byQuery = await items(ada.apiToken, { q: "branden" });
    // "branden" finds "brand" and "Brand" (Dutch stemming), not "Brandweer" (another word).
    expect(byQuery.data.rssFeedItems.map((i: { guid: string }) => i.guid).sort()).toEqual([
      "18542100",
      "urn:example:news:1",
    ]);
    expect(byQuery.data.rssFeedItemsCount).toBe(2);
    expect((await items(ada.apiToken, { q: "ambulances" })).data.rssFeedItemsCount).toBe(2);
    expect((await items(ada.apiToken, { feed: `${feed.url}/news.atom` })).data.rssFeedItemsCount).toBe(1);
    expect(
      (await items(ada.apiToken, { monitor: { uuid: monitorUuid }, since: "2026-01-01T00:00:00Z" })).data
        .rssFeedItemsCount,
    ).toBe(3);
    const { body } = await ctx.service.graphql("{ rssFeedItems(first: 500) { guid } }", { token: ada.apiToken });
    expect(body.data.rssFeedItems).toHaveLength(5);
    expect(
      errorOf((await ctx.service.graphql("{ rssFeedItems(first: 0) { guid } }", { token: ada.apiToken })).body).code,
    ).toBe("BAD_USER_INPUT");
  });

  test("another environment sees none of these items and cannot name the monitor", async () => {
    const bob = await signUp(ctx.service, "bob@example.org");
    expect((await items(bob.apiToken)).data).toEqual({ rssFeedItems: [], rssFeedItemsCount: 0 });
    expect(errorOf(await items(bob.apiToken, { monitor: { uuid: monitorUuid } }))).toEqual({
      message: "RSS monitor not found in this environment.",
      code: "NOT_FOUND",
    });
  });

  test("a broken feed keeps its items; a feed on a private address is refused without private targets", async () => {
    log.lines.length = 0;
    feed.documents.set("/p2000.rss", { body: "<rss><channel><item><title>afgebroken" });
    await poll();
    expect(log.lines).toEqual([
      expect.stringMatching(new RegExp(`^error rss:[0-9a-f-]+: not an RSS, Atom, RDF or JSON feed`)),
    ]);
    expect((await items(ada.apiToken)).data.rssFeedItemsCount).toBe(5);
    const before = feed.requests.length;
    await poll(false);
    expect(feed.requests.length).toBe(before);
    expect(log.lines.at(-1)).toMatch(/Feed 127\.0\.0\.1 is a private, loopback or link-local address/);
  });

  test("the count without a filter, kept per feed, follows a DBA's DELETE, UPDATE and TRUNCATE", async () => {
    // The kept counts equal a count of the items, feed by feed (no row for a feed without items),
    // and the API's count equals the list.
    const counted = async () => {
      const kept = await ctx.db.asOwner(
        "select feed_uuid, items::int from app_hidden.rss_feed_item_counts order by feed_uuid",
      );
      const actual = await ctx.db.asOwner(
        "select feed_uuid, count(*)::int as items from app_public.rss_feed_items group by feed_uuid order by feed_uuid",
      );
      expect(kept.rows).toEqual(actual.rows);
      const body = await items(ada.apiToken);
      expect(body.data.rssFeedItemsCount).toBe(body.data.rssFeedItems.length);
      return body.data.rssFeedItemsCount as number;
    };
    expect(await counted()).toBe(5);
    await ctx.db.asOwner(
      "delete from app_public.rss_feed_items where uuid = (select uuid from app_public.rss_feed_items order by uuid limit 1)",
    );
    expect(await counted()).toBe(4);
    // Items moved to a feed the environment does not follow leave its count; moved back, they return.
    const elsewhere = "https://example.org/elsewhere.rss";
    await ctx.db.asOwner("insert into app_public.rss_feeds (url) values ($1)", [elsewhere]);
    const moveTo =
      "update app_public.rss_feed_items set feed_uuid = (select uuid from app_public.rss_feeds where url = $1)";
    await ctx.db.asOwner(`${moveTo} where uuid in (select uuid from app_public.rss_feed_items order by uuid limit 2)`, [
      elsewhere,
    ]);
    expect(await counted()).toBe(2);
    await ctx.db.asOwner(`${moveTo} where feed_uuid = (select uuid from app_public.rss_feeds where url = $2)`, [
      `${feed.url}/p2000.rss`,
      elsewhere,
    ]);
    expect(await counted()).toBe(4);
    await ctx.db.asOwner("update app_public.rss_feed_items set title = title || ' (bijgewerkt)'");
    expect(await counted()).toBe(4);
    // A deleted feed's items go with it (the foreign key's cascade), and so does its count.
    await ctx.db.asOwner(`${moveTo} where uuid in (select uuid from app_public.rss_feed_items order by uuid limit 1)`, [
      elsewhere,
    ]);
    await ctx.db.asOwner("delete from app_public.rss_feeds where url = $1", [elsewhere]);
    expect(await counted()).toBe(3);
    await ctx.db.asOwner("truncate app_public.rss_feed_items cascade");
    expect(await counted()).toBe(0);
  });
});
