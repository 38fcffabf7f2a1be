// Issue 33: the response cache of public reads (plugins/response-cache.ts). A repeated read is
// answered from memory, with no SQL: proven by changing the data with the change notification
// switched off, which a cached answer does not see. A change with its notification is in the next
// answer; a revoked token is refused although its answer is cached; an environment-bound answer
// is never given to another environment; mutations, account queries and errors are never kept;
// GETs carry an ETag and If-None-Match gets 304; the maximum age and a lost LISTEN connection
// stop a cached answer from being served.
import { describe, expect, test } from "@jest/globals";
import pg from "pg";
import { makeServiceSchema } from "../../graphile.config.ts";
import { cacheRulesOf } from "../../lib/graphql/cache-rules.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { errorOf, startTestService, useTestService } from "../helpers/service.ts";
import { signUp } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";

const CACHE = { maxBytes: 8 * 1024 * 1024, maxAgeMs: 60_000 };
const ctx = useTestService(() => ({ api: { responseCache: CACHE }, delivery: { allowPrivateTargets: true } }));

const TYPES = "{ trafficIncidentTypes { value label } }";
/** The first and second incident types (by their order), as SQL. */
const FIRST = "value = (select value from app_public.traffic_incident_types order by sort_order limit 1)";
const SECOND = "value = (select value from app_public.traffic_incident_types order by sort_order offset 1 limit 1)";

/** Changes data with the table's data_changed trigger off: no notification, so a cached answer stays. */
async function changeSilently(table: string, sql: string): Promise<void> {
  await ctx.db.asOwner(
    `begin; alter table ${table} disable trigger _900_notify_data_changed; ${sql};
     alter table ${table} enable trigger _900_notify_data_changed; commit;`,
  );
}

async function typeLabel(token: string, index = 0, service = ctx.service): Promise<string> {
  const { body } = await service.graphql(TYPES, { token });
  expect(body.errors).toBeUndefined();
  return body.data.trafficIncidentTypes[index].label;
}

/** Sets the label of an incident type (announced), e.g. back to what it was. */
async function setLabel(where: string, label: string): Promise<void> {
  await ctx.db.asOwner(`update app_public.traffic_incident_types set label = $1 where ${where}`, [label]);
}

async function cacheCount(operation: string, outcome: "hit" | "miss"): Promise<number> {
  const metrics = await (await fetch(`${ctx.service.url}/metrics`)).text();
  const line = metrics.match(
    new RegExp(`^nlis_graphql_cache_total\\{operation="${operation}",outcome="${outcome}"\\} (\\d+)$`, "m"),
  );
  return Number(line?.[1] ?? 0);
}

function get(query: string, token: string, headers: Record<string, string> = {}) {
  const url = `${ctx.service.graphqlUrl}?query=${encodeURIComponent(query)}`;
  return fetch(url, { headers: { accept: "application/json", authorization: `Bearer ${token}`, ...headers } });
}

describe("the response cache", () => {
  test("a repeated read is served from memory (a change without its notification is not seen); a notified change is", async () => {
    const token = (await ctx.service.newToken()).secret;
    const original = await typeLabel(token);
    const hits = await cacheCount("trafficIncidentTypes", "hit");
    await changeSilently(
      "app_public.traffic_incident_types",
      `update app_public.traffic_incident_types set label = 'silent' where ${FIRST}`,
    );
    expect(await typeLabel(token)).toBe(original);
    expect(await cacheCount("trafficIncidentTypes", "hit")).toBe(hits + 1);
    const metrics = await (await fetch(`${ctx.service.url}/metrics`)).text();
    expect(Number(metrics.match(/^nlis_graphql_cache_bytes (\d+)$/m)?.[1])).toBeGreaterThan(0);
    // The same change again, announced: the next answer has it.
    await setLabel(FIRST, "announced");
    await waitUntil(
      () => typeLabel(token),
      (label) => label === "announced",
      "the announced change",
      2_000,
    );
    await setLabel(FIRST, original);
  });

  test("another token of another environment gets the shared answer; a revoked token is refused although it is cached", async () => {
    const first = await ctx.service.newToken();
    const other = await signUp(ctx.service, "other@example.org");
    const original = await typeLabel(first.secret, 1);
    await changeSilently(
      "app_public.traffic_incident_types",
      `update app_public.traffic_incident_types set label = 'unseen' where ${SECOND}`,
    );
    expect(await typeLabel(other.apiToken, 1)).toBe(original);
    await ctx.db.asOwner("update app_public.api_tokens set revoked_at = now() where uuid = $1", [first.uuid]);
    await waitUntil(
      async () => (await ctx.service.graphql(TYPES, { token: first.secret })).status,
      (status) => status === 401,
      "the revoked token to be refused",
      2_000,
    );
    const { body } = await ctx.service.graphql(TYPES, { token: first.secret });
    expect(errorOf(body).code).toBe("UNAUTHENTICATED");
    expect(body.data).toBeUndefined();
    await setLabel(SECOND, original);
  });

  test("a new P2000 message is in the next answer after its commit", async () => {
    const token = (await ctx.service.newToken()).secret;
    const latest = async () =>
      (await ctx.service.graphql("{ p2000Messages(first: 1) { message } }", { token })).body.data.p2000Messages[0]
        ?.message;
    await storeP2000Pages(ctx.db, [
      { message: "P 1 BDH-01 Brand woning Utrecht eerste", capcodes: ["0923001"], sended: new Date().toISOString() },
    ]);
    await waitUntil(latest, (m) => m === "P 1 BDH-01 Brand woning Utrecht eerste", "the first message", 2_000);
    await storeP2000Pages(ctx.db, [
      {
        message: "P 1 BDH-02 Brand schuur Utrecht tweede",
        capcodes: ["0923001"],
        sended: new Date(Date.now() + 1000).toISOString(),
      },
    ]);
    await waitUntil(latest, (m) => m === "P 1 BDH-02 Brand schuur Utrecht tweede", "the second message", 2_000);
  });

  test("an environment-bound answer (RSS items of the feeds an environment follows) is never given to another environment", async () => {
    const ada = await signUp(ctx.service, "ada@example.org");
    const bob = await signUp(ctx.service, "bob@example.org");
    const feedUrl = "http://127.0.0.1:9/cache-test.rss";
    const created = await ctx.service.graphql(
      `mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`,
      {
        token: ada.accessToken,
        variables: { i: { name: "Feed", type: "rss", query: JSON.stringify({ feeds: [feedUrl] }), channels: "[]" } },
      },
    );
    expect(created.body.errors).toBeUndefined();
    await ctx.db.asOwner(
      `insert into app_public.rss_feed_items (feed_uuid, item_key, guid, title)
       select uuid, 'cache-1', 'cache-1', 'Alleen voor Ada' from app_public.rss_feeds where url = $1`,
      [feedUrl],
    );
    const titles = async (token: string) =>
      (await ctx.service.graphql("{ rssFeedItems { title } }", { token })).body.data.rssFeedItems.map(
        (item: { title: string }) => item.title,
      );
    await waitUntil(
      () => titles(ada.apiToken),
      (t) => t.includes("Alleen voor Ada"),
      "Ada's item",
      2_000,
    );
    expect(await titles(bob.apiToken)).toEqual([]);
    expect(await titles(ada.apiToken)).toContain("Alleen voor Ada");
  });

  test("a filter naming a monitor is answered per environment: another environment never gets that monitor's matches", async () => {
    const erin = await signUp(ctx.service, "erin@example.org");
    const frank = await signUp(ctx.service, "frank@example.org");
    const created = await ctx.service.graphql(
      `mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`,
      {
        token: erin.accessToken,
        variables: { i: { name: "Alles", type: "p2000", query: "{}", channels: "[]" } },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const monitor = created.body.data.createMonitor.uuid;
    await storeP2000Pages(ctx.db, [
      { message: "P 2 BDH-05 Gebouwbrand Utrecht gezien", capcodes: ["0923001"], sended: new Date().toISOString() },
    ]);
    await ctx.service.workerIdle();
    const inline = `{ p2000Messages(first: 5, filter: { monitor: { uuid: "${monitor}" } }) { message } }`;
    const byVariable = `query ($f: P2000MessageFilterInput) { p2000Messages(first: 5, filter: $f) { message } }`;
    for (const [query, variables] of [
      [inline, {}],
      [byVariable, { f: { monitor: { uuid: monitor } } }],
    ] as const) {
      const own = await ctx.service.graphql(query, { token: erin.apiToken, variables });
      expect(own.body.errors).toBeUndefined();
      expect(own.body.data.p2000Messages.length).toBeGreaterThan(0);
      const other = await ctx.service.graphql(query, { token: frank.apiToken, variables });
      expect(other.body.data?.p2000Messages ?? []).toEqual([]);
    }
  });

  test("mutations, account queries and answers with errors are never kept", async () => {
    const user = await signUp(ctx.service, "carol@example.org");
    const me = async () => (await ctx.service.graphql("{ me { displayName } }", { token: user.accessToken })).body;
    await me();
    await ctx.db.asOwner(
      "update app_public.users set display_name = 'Carol' where email_address = 'carol@example.org'",
    );
    expect((await me()).data.me.displayName).toBe("Carol");
    const misses = await cacheCount("p2000Messages", "miss");
    const token = (await ctx.service.newToken()).secret;
    for (let i = 0; i < 2; i++) {
      const { body } = await ctx.service.graphql("{ p2000Messages(first: 0) { message } }", { token });
      expect(body.errors).toBeDefined();
    }
    expect(await cacheCount("p2000Messages", "miss")).toBe(misses + 2);
  });
});

describe("deny by default", () => {
  test("a document that mixes a listed field with one the cache does not list (webPushPublicKey) is never kept", async () => {
    const token = (await ctx.service.newToken()).secret;
    const mixed = "{ trafficIncidentTypes { value label } webPushPublicKey }";
    const label = async () => {
      const { body } = await ctx.service.graphql(mixed, { token });
      expect(body.errors).toBeUndefined();
      return (body.data.trafficIncidentTypes as Array<{ label: string }>)[0]!.label;
    };
    const original = await label();
    const counted = await cacheCount("trafficIncidentTypes", "miss");
    // Changed without its notification: a kept answer would not show it.
    await changeSilently(
      "app_public.traffic_incident_types",
      `update app_public.traffic_incident_types set label = 'unlisted' where ${FIRST}`,
    );
    try {
      expect(await label()).toBe("unlisted");
      // Not even looked up: the operation is not cacheable.
      expect(await cacheCount("trafficIncidentTypes", "miss")).toBe(counted);
    } finally {
      await setLabel(FIRST, original);
    }
  });
});

describe("conditional GET requests", () => {
  test("a GET answer carries an ETag; If-None-Match with it is 304 without a body, until the data changes", async () => {
    const token = (await ctx.service.newToken()).secret;
    const first = await get(TYPES, token);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const body = await first.text();
    const again = await get(TYPES, token, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    // Another tag, or a tag list without it: the whole answer, the same bytes.
    const other = await get(TYPES, token, { "if-none-match": `"other", W/"also-not"` });
    expect(other.status).toBe(200);
    expect(await other.text()).toBe(body);
    const original = await typeLabel(token);
    await setLabel(FIRST, `${original} `);
    const changed = await waitUntil(
      () => get(TYPES, token, { "if-none-match": etag }),
      (response) => response.status === 200,
      "a 200 after the change",
      2_000,
    );
    expect(changed.headers.get("etag")).not.toBe(etag);
    await setLabel(FIRST, original);
  });

  test("a repeated request keeps its own media type and bytes; a POST without a length (chunked) is read as before", async () => {
    const token = (await ctx.service.newToken()).secret;
    const accept = "application/graphql-response+json";
    const [first, second] = [await get(TYPES, token, { accept }), await get(TYPES, token, { accept })];
    expect(second.headers.get("content-type")).toBe(first.headers.get("content-type"));
    expect(second.headers.get("content-type")).toMatch(/^application\/graphql-response\+json/);
    expect(await second.text()).toBe(await first.text());
    const plain = await get(TYPES, token);
    expect(plain.headers.get("content-type")).toMatch(/^application\/json/);
    const body = JSON.stringify({ query: TYPES });
    const chunked = await fetch(ctx.service.graphqlUrl, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: new Blob([body]).stream(),
      duplex: "half",
    } as RequestInit);
    const answer = (await chunked.json()) as { data: { trafficIncidentTypes: unknown[] } };
    expect(answer.data.trafficIncidentTypes.length).toBeGreaterThan(0);
  });

  test("a revoked token gets 401, not 304", async () => {
    const revoked = await ctx.service.newToken();
    const etag = (await get(TYPES, revoked.secret)).headers.get("etag")!;
    await ctx.db.asOwner("update app_public.api_tokens set revoked_at = now() where uuid = $1", [revoked.uuid]);
    const refused = await waitUntil(
      () => get(TYPES, revoked.secret, { "if-none-match": etag }),
      (response) => response.status === 401,
      "the refusal",
      2_000,
    );
    expect(refused.headers.get("etag")).toBeNull();
  });

  test("an answer that is not cached (an account query) has no ETag", async () => {
    const user = await signUp(ctx.service, "dave@example.org");
    const response = await get("{ me { email { address } } }", user.accessToken);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { me: { email: { address: "dave@example.org" } } } });
    expect(response.headers.get("etag")).toBeNull();
  });
});

describe("the cache's safety nets", () => {
  test("an answer older than RESPONSE_CACHE_MAX_AGE_SECONDS is read again", async () => {
    const service = await startTestService(ctx.db, { api: { responseCache: { ...CACHE, maxAgeMs: 1_000 } } });
    const token = (await service.newToken()).secret;
    const original = await typeLabel(token, 0, service);
    try {
      await changeSilently(
        "app_public.traffic_incident_types",
        `update app_public.traffic_incident_types set label = 'aged' where ${FIRST}`,
      );
      expect(await typeLabel(token, 0, service)).toBe(original);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await typeLabel(token, 0, service)).toBe("aged");
    } finally {
      await service.stop();
      await setLabel(FIRST, original);
    }
  });

  test("every field the cache may keep is a Query field of the schema, and every other is a known exception", async () => {
    const { body } = await ctx.service.graphql(
      "{ __schema { queryType { fields(includeDeprecated: true) { name } } } }",
      {
        token: (await ctx.service.newToken()).secret,
      },
    );
    const fields = new Set(body.data.__schema.queryType.fields.map((f: { name: string }) => f.name));
    const { rules, uncached } = cacheRulesOf(await makeServiceSchema(ctx.db.authUrl));
    expect([...rules.keys()].filter((name) => name !== "__typename" && !fields.has(name))).toEqual([]);
    // Deny by default: what is not kept is the account queries (a user's access token), the
    // previews, respondLink (a secret link), a station screen's own (its credential's) and installation (configuration and a table no
    // notification covers). A public read whose function lost its @cacheReads would show here.
    expect([...uncached.keys()].sort()).toEqual([
      "apiScopes",
      "apiToken",
      "apiTokens",
      "channels",
      "crew",
      "currentEnvironment",
      "deliveries",
      "installation",
      "me",
      "monitor",
      "monitorPreview",
      "monitors",
      "myOrganizations",
      "mySessions",
      "p2000ReceiverStatistics",
      "p2000Receivers",
      "respondLink",
      "sessionValid",
      "stationScreen",
      "stationScreens",
      "webPushPublicKey",
    ]);
    // A field's domains are those of everything it reaches: a message's dossier's related signals.
    expect(rules.get("p2000Messages")?.domains).toEqual(
      expect.arrayContaining(["p2000", "traffic", "aircraft", "alerts", "meteo", "places"]),
    );
    expect(rules.get("rssFeedItems")?.environmentBound).toBe(true);
    expect(rules.get("trafficIncidentTypes")).toEqual({
      domains: ["traffic"],
      relations: ["app_public.traffic_incident_types"],
    });
  });

  test("a lost LISTEN connection empties the cache: what changed meanwhile is read again", async () => {
    const token = (await ctx.service.newToken()).secret;
    const original = await typeLabel(token);
    // As the superuser: the listener is the authenticator's connection.
    const root = new pg.Client({ connectionString: ctx.db.rootUrl });
    await root.connect();
    const { rowCount } = await root
      .query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query = 'listen data_changed'`,
        [ctx.db.name],
      )
      .finally(() => root.end());
    expect(rowCount).toBe(1);
    await changeSilently(
      "app_public.traffic_incident_types",
      `update app_public.traffic_incident_types set label = 'while deaf' where ${FIRST}`,
    );
    // The pool that lost the connection may answer 503 for a moment; its first answer is the new one.
    const answer = await waitUntil(
      async () => (await ctx.service.graphql(TYPES, { token })).body.data?.trafficIncidentTypes[0].label,
      (label) => label !== undefined,
      "an answer after the lost connection",
      10_000,
    );
    expect(answer).toBe("while deaf");
    await setLabel(FIRST, original);
  });
});
