// Issue 33: repeated public reads answered from the response cache before grafserv
// (lib/http/response-cache/answers.ts). A real HTTP server and a real response cache (LISTENing on a test
// database); grafserv's part is played by a stand-in that stores each answer as the response
// cache's plugin does (the key, and the request's bytes in the index of known requests) and counts
// the requests that reach it. So the count shows which requests the shortcut answered: the same
// bytes again with a token that may read, and nothing else. The whole path through the real
// service is test/api/response-cache.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import type { RequestAuth } from "../../lib/auth/context.ts";
import { CachedAnswers } from "../../lib/http/response-cache/answers.ts";
import { cacheKey, KnownRequests, requestIdentity } from "../../lib/http/response-cache/known-requests.ts";
import { ResponseCache } from "../../lib/http/response-cache/store.ts";
import { prereadBody, prereadBodyOf } from "../../lib/http/preread-body.ts";
import { resilientPool } from "../../lib/db/pool.ts";
import { useTestDatabase } from "../helpers/database.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestDatabase();

/** Tokens the stand-in's authenticate knows: two environments, and the web client under sign-in. */
const AUTH: Record<string, RequestAuth> = {
  "Bearer ada": token("env-a", true),
  "Bearer bob": token("env-b", true),
  "Bearer web": token("env-a", false),
};
function token(environmentUuid: string, publicReads: boolean): RequestAuth {
  return {
    kind: "apiToken",
    apiTokenUuid: `t-${environmentUuid}`,
    environmentUuid,
    scopes: [],
    webClient: false,
    publicReads,
  };
}

/** The stand-in's answer. */
interface Answer {
  data: { asked: string; environment: string };
}

let pool: pg.Pool;
let cache: ResponseCache;
let server: http.Server;
let url: string;
/** Requests that reached the stand-in for grafserv, and the body it was handed for each. */
const reached: Array<{ method: string; body: string }> = [];
/** Whether the stand-in keeps its answers per environment (an environment-bound field). */
let perEnvironment = false;

beforeAll(async () => {
  // Its idle connections end when the test database is dropped: that must not fail the run.
  pool = resilientPool({ connectionString: ctx.db.authUrl, max: 2 });
  cache = new ResponseCache({ pool, maxBytes: 1024 * 1024, maxAgeMs: 60_000 });
  await cache.start();
  const known = new KnownRequests(1024 * 1024);
  const authenticate = async (authorization: string | undefined) =>
    AUTH[authorization ?? ""] ?? { kind: "invalid" as const };
  const answers = new CachedAnswers(cache, known, authenticate);
  server = http.createServer(async (req, res) => {
    const body = req.method === "POST" ? await prereadBody(req, 1_000) : undefined;
    if (await answers.answerBeforeGrafserv(req, res, body)) return;
    // The stand-in for grafserv: answers with the environment it was asked from and keeps it.
    const handed = prereadBodyOf(req)?.toString() ?? "";
    reached.push({ method: req.method!, body: handed });
    const auth = await authenticate(req.headers.authorization);
    const environment = auth.kind === "apiToken" ? auth.environmentUuid : "";
    const result = { data: { asked: handed || req.url, environment } };
    const keyTail = `tail ${req.method} ${req.url} ${handed}`;
    const kept = cache.set(
      cacheKey(perEnvironment ? environment : "", keyTail),
      result,
      ["rss"],
      cache.snapshot(["rss"]),
    );
    const identity = requestIdentity(req, body);
    const headers = { "content-type": "application/graphql-response+json; charset=utf-8" };
    if (kept && identity) known.remember(identity, { keyTail, perEnvironment, operation: "test", headers });
    res.writeHead(200, headers).end(JSON.stringify(result));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await cache.stop();
  await pool.end();
});

const ask = (init: RequestInit & { path?: string; auth?: string }) =>
  fetch(`${url}${init.path ?? "?query=%7Bx%7D"}`, {
    ...init,
    headers: { authorization: `Bearer ${init.auth ?? "ada"}`, ...(init.headers as Record<string, string>) },
  });

describe("answers before grafserv", () => {
  test("the same GET again is answered from the cache with its media type, an ETag, and 304 for that tag", async () => {
    reached.length = 0;
    const first = await ask({ path: "?query=%7Ba%7D" });
    const body = await first.text();
    const second = await ask({ path: "?query=%7Ba%7D" });
    expect(reached).toHaveLength(1);
    expect(await second.text()).toBe(body);
    expect(second.headers.get("content-type")).toBe("application/graphql-response+json; charset=utf-8");
    expect(second.headers.get("cache-control")).toBe("private, no-cache");
    const etag = second.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const notModified = await ask({ path: "?query=%7Ba%7D", headers: { "if-none-match": etag } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    // Another URL, or the same with another Accept header, is not the same request.
    await ask({ path: "?query=%7Bb%7D" });
    await ask({ path: "?query=%7Ba%7D", headers: { accept: "application/json" } });
    expect(reached).toHaveLength(3);
  });

  test("the same POST body again is answered from the cache without an ETag; another body reaches grafserv with its bytes", async () => {
    reached.length = 0;
    const post = (body: string) =>
      ask({ path: "", method: "POST", body, headers: { "content-type": "application/json" } });
    const first = await (await post('{"query":"{ p }"}')).text();
    const again = await post('{"query":"{ p }"}');
    expect(await again.text()).toBe(first);
    expect(again.headers.get("etag")).toBeNull();
    await post('{"query":"{ q }"}');
    expect(reached).toEqual([
      { method: "POST", body: '{"query":"{ p }"}' },
      { method: "POST", body: '{"query":"{ q }"}' },
    ]);
  });

  test("a token that may not read public data, or none, always reaches grafserv", async () => {
    await ask({ path: "?query=%7Bc%7D" });
    reached.length = 0;
    await ask({ path: "?query=%7Bc%7D", auth: "web" });
    await ask({ path: "?query=%7Bc%7D", auth: "revoked" });
    expect(reached).toHaveLength(2);
  });

  test("an answer kept per environment is never given to another environment", async () => {
    perEnvironment = true;
    try {
      await ask({ path: "?query=%7Bd%7D", auth: "ada" });
      reached.length = 0;
      const bob = (await (await ask({ path: "?query=%7Bd%7D", auth: "bob" })).json()) as Answer;
      expect(bob.data.environment).toBe("env-b");
      expect(reached).toHaveLength(1);
      const ada = (await (await ask({ path: "?query=%7Bd%7D", auth: "ada" })).json()) as Answer;
      expect(ada.data.environment).toBe("env-a");
      expect(reached).toHaveLength(1);
    } finally {
      perEnvironment = false;
    }
  });

  test("a change to the answer's data sends the same request to grafserv again", async () => {
    await ask({ path: "?query=%7Be%7D" });
    reached.length = 0;
    await ctx.db.asOwner("select pg_notify('data_changed', 'rss')");
    // Asked again until the notification has arrived: answered from the cache until then, by
    // grafserv once, and from the cache again after that.
    await waitUntil(
      async () => {
        await ask({ path: "?query=%7Be%7D" });
        return reached.length;
      },
      (times) => times > 0,
      "the request to reach grafserv again",
    );
    await ask({ path: "?query=%7Be%7D" });
    expect(reached).toHaveLength(1);
  });
});

describe("the cache's bound", () => {
  test("counts each answer's bytes and key once, and frees them when its data changes", async () => {
    const own = new ResponseCache({ pool, maxBytes: 1024 * 1024, maxAgeMs: 60_000 });
    await own.start();
    try {
      const answer = { data: { value: "x".repeat(1000) } };
      const bytes = Buffer.byteLength(JSON.stringify(answer));
      for (const key of ["k1", "k2"]) own.set(key, answer, ["rail"], own.snapshot(["rail"]));
      own.set("k1", answer, ["rail"], own.snapshot(["rail"]));
      expect(own.bytesHeld).toBe(2 * (bytes + 2));
      await ctx.db.asOwner("select pg_notify('data_changed', 'rail')");
      await waitUntil(
        () => own.bytesHeld,
        (held) => held === 0,
        "the freed bytes",
        2_000,
      );
    } finally {
      await own.stop();
    }
  });
});
