// graphql-sse on /graphql itself (docs/live.md): a request that asks for text/event-stream is a
// subscription over Server-Sent Events, in both of the protocol's modes, while GET and POST of JSON
// stay GraphQL over HTTP (test/api/graphql-over-http.test.ts audits those). The graphql-sse client
// pointed at /graphql receives new P2000 messages in either mode, with the stream's auth rules;
// the single connection mode's requests (PUT, GET, POST, DELETE) are driven by hand too; and a
// method /graphql does not serve is a 405 with Allow and METHOD_NOT_ALLOWED.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { untilHeard, watch } from "../helpers/live-clients.ts";
import { errorOf, useTestService, type GraphQLResponse } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService();
const NEW_MESSAGES = "subscription { p2000Messages { message } }";
const TOKEN_HEADER = "x-graphql-event-stream-token";

let token: string;
beforeAll(async () => {
  token = (await ctx.service.newToken({ name: "sse on /graphql" })).secret;
});

let sequence = 0;
/** Stores one P2000 message as the FLEX reader does (sent now) and returns its text. */
async function store(text = `A2 Ambulance probe ${++sequence} Utrecht 12345`): Promise<string> {
  await storeP2000Pages(ctx.db, [{ message: text, sended: new Date().toISOString(), capcodes: ["0923001"] }]);
  return text;
}

/** Open subscriptions on the instance, from its metrics. */
async function openSubscriptions(): Promise<number> {
  const metrics = await (await fetch(`${ctx.service.url}/metrics`)).text();
  return Number(/^nlis_subscriptions_open (\d+)$/m.exec(metrics)?.[1]);
}

describe.each([
  ["distinct connections", false],
  ["single connection", true],
] as const)("the graphql-sse client at /graphql, %s mode", (mode, singleConnection) => {
  const at = { sseUrl: "", singleConnection };
  beforeAll(() => {
    at.sseUrl = ctx.service.graphqlUrl;
  });

  test("receives each new message, and its stop ends the subscription on the server", async () => {
    const subscriber = watch("sse", ctx.service.graphqlUrl, { token, query: NEW_MESSAGES, ...at });
    try {
      await untilHeard(() => subscriber.events.length, store);
      subscriber.events.length = 0;
      const sent = await store(`P 1 BDH-01 Brand woning Utrecht ${mode}`);
      await waitUntil(
        () => subscriber.events.flatMap((e) => e.p2000Messages.map((m: { message: string }) => m.message)),
        (messages) => messages.includes(sent),
        "the new message",
      );
      expect(subscriber.errors).toEqual([]);
      expect(await openSubscriptions()).toBe(1);
    } finally {
      await subscriber.stop();
    }
    await waitUntil(openSubscriptions, (n) => n === 0, "the subscription to end on the server");
  });

  test("the stream's rules: an API token (401 UNAUTHENTICATED) and subscriptions only (400 BAD_REQUEST)", async () => {
    const anonymous = watch("sse", ctx.service.graphqlUrl, { query: NEW_MESSAGES, ...at });
    const query = watch("sse", ctx.service.graphqlUrl, { token, query: "{ p2000MessagesCount }", ...at });
    await waitUntil(() => anonymous.ended && query.ended, Boolean, "the refusals");
    expect([...anonymous.events, ...query.events]).toEqual([]);
    if (singleConnection) {
      // The client aborts the refused operation's request before its body is read, so only the
      // status reaches the caller (the body is checked by hand below).
      expect([...anonymous.errors, ...query.errors].map((e) => e.message)).toEqual([
        "NetworkError: Server responded with 401: Refused",
        "NetworkError: Server responded with 400: Refused",
      ]);
    } else {
      expect([...anonymous.errors, ...query.errors].map((e) => e.code)).toEqual(["UNAUTHENTICATED", "BAD_REQUEST"]);
    }
  });
});

/** A response body read as text while it arrives, until closed. */
async function openStream(url: string, init: RequestInit) {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  const stream = { response, text: "", close: () => controller.abort() };
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body!) stream.text += decoder.decode(chunk, { stream: true });
    } catch {
      // aborted
    }
  })();
  return stream;
}

describe("graphql-sse requests by hand", () => {
  const authorization = () => `Bearer ${token}`;

  test("a GET with Accept: text/event-stream is a subscription over SSE; one asking for JSON a query", async () => {
    const url = new URL(ctx.service.graphqlUrl);
    url.searchParams.set("query", NEW_MESSAGES);
    // Preferred by its q-value over the JSON listed first.
    const stream = await openStream(url.toString(), {
      headers: { accept: "application/json;q=0.5, text/event-stream", authorization: authorization() },
    });
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      await untilHeard(() => (stream.text.includes("event: next") ? 1 : 0), store);
      expect(stream.text).toMatch(/event: next\ndata: \{"data":\{"p2000Messages":\[\{"message":"A2 Ambulance probe/);
    } finally {
      stream.close();
    }
    url.searchParams.set("query", "{ __typename }");
    for (const accept of ["application/json, text/event-stream", "*/*"]) {
      const answer = await fetch(url, { headers: { accept, authorization: authorization() } });
      expect([answer.status, answer.headers.get("content-type")]).toEqual([200, "application/json;charset=utf-8"]);
      expect(await answer.json()).toEqual({ data: { __typename: "Query" } });
    }
  });

  test("a POST that asks for an event stream goes to the stream, whose rules refuse a query", async () => {
    const answer = await fetch(ctx.service.graphqlUrl, {
      method: "POST",
      headers: { accept: "text/event-stream", "content-type": "application/json", authorization: authorization() },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(answer.status).toBe(400);
    expect(errorOf((await answer.json()) as GraphQLResponse["body"]).code).toBe("BAD_REQUEST");
  });

  test("a reservation (PUT) needs an API token: 401 UNAUTHENTICATED without one, nothing reserved", async () => {
    for (const headers of [{}, { authorization: "Bearer nlis_not-a-token" }] as Record<string, string>[]) {
      const reservation = await fetch(ctx.service.graphqlUrl, { method: "PUT", headers });
      expect([reservation.status, errorOf((await reservation.json()) as GraphQLResponse["body"]).code]).toEqual([
        401,
        "UNAUTHENTICATED",
      ]);
    }
  });

  test("single connection mode: PUT reserves, GET streams, POST runs an operation, DELETE stops it", async () => {
    const reservation = await fetch(ctx.service.graphqlUrl, {
      method: "PUT",
      headers: { authorization: authorization() },
    });
    expect([reservation.status, reservation.headers.get("content-type")]).toEqual([201, "text/plain; charset=utf-8"]);
    const streamToken = await reservation.text();
    expect(streamToken).toMatch(/^[0-9a-f-]{36}$/);
    const stream = await openStream(ctx.service.graphqlUrl, {
      headers: { accept: "text/event-stream", [TOKEN_HEADER]: streamToken },
    });
    try {
      expect(stream.response.status).toBe(200);
      const operation = await fetch(ctx.service.graphqlUrl, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: authorization(), [TOKEN_HEADER]: streamToken },
        body: JSON.stringify({ query: NEW_MESSAGES, extensions: { operationId: "op-1" } }),
      });
      expect(operation.status).toBe(202);
      const anonymous = await fetch(ctx.service.graphqlUrl, {
        method: "POST",
        headers: { "content-type": "application/json", [TOKEN_HEADER]: streamToken },
        body: JSON.stringify({ query: NEW_MESSAGES, extensions: { operationId: "op-2" } }),
      });
      expect([anonymous.status, errorOf((await anonymous.json()) as GraphQLResponse["body"]).code]).toEqual([
        401,
        "UNAUTHENTICATED",
      ]);
      await untilHeard(() => (stream.text.includes('"id":"op-1","payload"') ? 1 : 0), store);
      const stop = await fetch(`${ctx.service.graphqlUrl}?operationId=op-1`, {
        method: "DELETE",
        headers: { [TOKEN_HEADER]: streamToken },
      });
      expect(stop.status).toBe(200);
      await waitUntil(
        () => stream.text,
        (text) => text.includes('event: complete\ndata: {"id":"op-1"}'),
        "the operation's complete event",
      );
      await waitUntil(openSubscriptions, (n) => n === 0, "the subscription to end on the server");
    } finally {
      stream.close();
    }
  });
});

describe("methods /graphql does not serve", () => {
  const ALLOW = "GET, POST, PUT, DELETE, OPTIONS";

  test.each([
    ["PATCH", undefined],
    ["DELETE without a stream token", undefined],
    ["PUT with a body (not a reservation)", JSON.stringify({ query: "{ __typename }" })],
  ])("%s: 405 with Allow and METHOD_NOT_ALLOWED", async (what, body) => {
    const method = what.split(" ")[0];
    const answer = await fetch(ctx.service.graphqlUrl, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body,
    });
    expect([answer.status, answer.headers.get("allow")]).toEqual([405, ALLOW]);
    const { message, code } = errorOf((await answer.json()) as GraphQLResponse["body"]);
    expect(code).toBe("METHOD_NOT_ALLOWED");
    expect(message).toContain(`${method} is not allowed here`);
  });

  test("HEAD: 405 with Allow, no body", async () => {
    const answer = await fetch(ctx.service.graphqlUrl, { method: "HEAD" });
    expect([answer.status, answer.headers.get("allow"), await answer.text()]).toEqual([405, ALLOW, ""]);
  });
});
