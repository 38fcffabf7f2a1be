// Live push (docs/live.md) through the real client libraries against the running service: the
// graphql-ws client over WebSocket and the graphql-sse client over SSE receive each new matching
// P2000 message once, whatever stored it; the filter is p2000Messages's; a revoked token's
// subscriptions end; a token holds at most SUBSCRIPTIONS_PER_TOKEN; without an API token nothing
// is pushed; the streams carry subscriptions only; and a second API instance on the same database
// pushes the same messages.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startTestService, useTestService, type TestService } from "../helpers/service.ts";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { watch, webSocketClient, type Transport, type Watch } from "../helpers/live-clients.ts";
import { waitUntil } from "../helpers/wait.ts";
import WebSocket from "ws";

const PER_TOKEN = 3;
const ctx = useTestService(() => ({ api: { subscriptionsPerToken: PER_TOKEN } }));
const NEW_MESSAGES = `subscription ($f: P2000MessageFilterInput) { p2000Messages(filter: $f) { uuid message discipline { name } } }`;

let sequence = 0;
/** Stores pages as the FLEX reader does (one statement, one notification), sent now. */
async function store(...pages: Array<string | [text: string, capcode: string]>): Promise<void> {
  await storeP2000Pages(
    ctx.db,
    pages.map((page) => {
      const [message, capcode] = typeof page === "string" ? [page, "0923001"] : page;
      return { message, sended: new Date().toISOString(), capcodes: [capcode] };
    }),
  );
}

/** Waits until the subscription hears the database: probes are stored until one arrives, then forgotten. */
async function hearing(subscriber: Watch): Promise<void> {
  await waitUntil(
    async () => {
      if (subscriber.events.length === 0) await store(`A2 Ambulance probe ${++sequence} Utrecht 12345`);
      return subscriber.events.length;
    },
    (n) => n > 0,
    "the subscription to hear its first message",
    20_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 300)); // a probe still under way
  subscriber.events.length = 0;
}

/** The messages a subscriber received, without probes: a probe stored for one subscriber may reach another late. */
const messagesOf = (subscriber: Watch) =>
  subscriber.events
    .flatMap((event) => event.p2000Messages as Array<{ message: string }>)
    .map((m) => m.message)
    .filter((message) => !message.includes(" probe "));

/** The events a subscriber received that carry more than probes (a probe may arrive after `hearing`'s grace). */
const eventsOf = (subscriber: Watch) =>
  subscriber.events.filter((event) =>
    (event.p2000Messages as Array<{ message: string }>).some((m) => !m.message.includes(" probe ")),
  );

let token: string;
beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
});

describe.each<Transport>(["websocket", "sse"])("p2000Messages over %s", (transport) => {
  test("each new matching message arrives once, a batch as one event, filtered as p2000Messages filters", async () => {
    const everything = watch(transport, ctx.service.graphqlUrl, { token, query: NEW_MESSAGES });
    // One capcode by name, as a client following one unit would ask.
    const oneCapcode = watch(transport, ctx.service.graphqlUrl, {
      token,
      query: NEW_MESSAGES,
      variables: { f: { capcode: { names: ["0923002"] } } },
    });
    try {
      await hearing(everything);
      await new Promise((resolve) => setTimeout(resolve, 500)); // probes (another capcode) do not reach the other; give it time
      await store(
        [`P 1 BDH-01 Brand woning Dorpsstraat Utrecht ${transport}`, "0923002"],
        `A1 Ambulance Kerkstraat Utrecht ${transport}`,
        [`P 2 BDH-02 Buitenbrand Stationsweg Utrecht ${transport}`, "0923002"],
      );
      // A DBA's insert is pushed too: the trigger, not the ingestion path, notifies.
      await ctx.db.asOwner(
        `insert into app_public.p2000_messages (message, sended, capcode_names, source)
                            values ($1, now(), '{}', 'dba')`,
        [`P 1 BDH-03 Liftopsluiting Utrecht ${transport}`],
      );
      await waitUntil(
        () => messagesOf(everything).length,
        (n) => n >= 4,
        "four messages",
      );
      await waitUntil(
        () => messagesOf(oneCapcode).length,
        (n) => n >= 2,
        "the two messages of capcode 0923002",
      );
      await new Promise((resolve) => setTimeout(resolve, 500)); // nothing more may come
      expect(eventsOf(everything)).toHaveLength(2); // the batch, then the DBA's insert
      expect(messagesOf(everything).sort()).toEqual([
        `A1 Ambulance Kerkstraat Utrecht ${transport}`,
        `P 1 BDH-01 Brand woning Dorpsstraat Utrecht ${transport}`,
        `P 1 BDH-03 Liftopsluiting Utrecht ${transport}`,
        `P 2 BDH-02 Buitenbrand Stationsweg Utrecht ${transport}`,
      ]);
      expect(messagesOf(oneCapcode).sort()).toEqual([
        `P 1 BDH-01 Brand woning Dorpsstraat Utrecht ${transport}`,
        `P 2 BDH-02 Buitenbrand Stationsweg Utrecht ${transport}`,
      ]);
      expect(eventsOf(oneCapcode)).toHaveLength(1);
      expect(everything.errors).toEqual([]);
    } finally {
      await everything.stop();
      await oneCapcode.stop();
    }
  });

  test("a revoked token's subscription ends with UNAUTHENTICATED", async () => {
    const revocable = await ctx.service.newToken({ name: `revocable ${transport}` });
    const subscriber = watch(transport, ctx.service.graphqlUrl, { token: revocable.secret, query: NEW_MESSAGES });
    try {
      await hearing(subscriber);
      await ctx.db.asOwner("update app_public.api_tokens set revoked_at = now() where uuid = $1", [revocable.uuid]);
      await waitUntil(() => subscriber.ended, Boolean, "the subscription to end", 10_000);
      expect(subscriber.errors.map((e) => e.code)).toEqual(["UNAUTHENTICATED"]);
    } finally {
      await subscriber.stop();
    }
  });

  test("without an API token nothing is pushed: UNAUTHENTICATED", async () => {
    const subscriber = watch(transport, ctx.service.graphqlUrl, { query: NEW_MESSAGES });
    await waitUntil(() => subscriber.ended, Boolean, "the refusal");
    expect(subscriber.errors.map((e) => e.code)).toEqual(["UNAUTHENTICATED"]);
    expect(subscriber.events).toEqual([]);
  });

  test("queries go over HTTP: the stream refuses them with BAD_REQUEST", async () => {
    const subscriber = watch(transport, ctx.service.graphqlUrl, { token, query: "{ p2000MessagesCount }" });
    await waitUntil(() => subscriber.ended, Boolean, "the refusal");
    expect(subscriber.errors.map((e) => e.code)).toEqual(["BAD_REQUEST"]);
  });
});

describe("a crowd of tokens (issue 33)", () => {
  test("identical subscriptions of different tokens share one execution; revoking the first token ends only its subscription", async () => {
    const first = await ctx.service.newToken({ name: "crowd one" });
    const second = await ctx.service.newToken({ name: "crowd two" });
    const query = `subscription { p2000Messages(filter: { capcode: { names: ["0923005"] } }) { uuid message } }`;
    const onFirst = watch("websocket", ctx.service.graphqlUrl, { token: first.secret, query });
    const onSecond = watch("sse", ctx.service.graphqlUrl, { token: second.secret, query });
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await waitUntil(
        async () =>
          (await (await fetch(`${ctx.service.url}/metrics`)).text()).match(
            /^nlis_subscription_executions (\d+)$/m,
          )?.[1],
        (executions) => executions === "1",
        "one shared execution for the two tokens",
      );
      await store(["P 1 BDH-31 Brand woning Utrecht menigte een", "0923005"]);
      for (const subscriber of [onFirst, onSecond]) {
        await waitUntil(
          () => messagesOf(subscriber).length,
          (n) => n >= 1,
          "the first message",
        );
      }
      await ctx.db.asOwner("update app_public.api_tokens set revoked_at = now() where uuid = $1", [first.uuid]);
      await waitUntil(() => onFirst.ended, Boolean, "the first token's subscription to end", 10_000);
      expect(onFirst.errors.map((e) => e.code)).toEqual(["UNAUTHENTICATED"]);
      await store(["P 1 BDH-32 Brand schuur Utrecht menigte twee", "0923005"]);
      await waitUntil(
        () => messagesOf(onSecond).length,
        (n) => n >= 2,
        "the second message on the other token",
      );
      expect(messagesOf(onSecond)).toEqual([
        "P 1 BDH-31 Brand woning Utrecht menigte een",
        "P 1 BDH-32 Brand schuur Utrecht menigte twee",
      ]);
      expect(onSecond.ended).toBe(false);
      expect(onSecond.errors).toEqual([]);
    } finally {
      await onFirst.stop();
      await onSecond.stop();
    }
  });

  test("a shared result reaches every socket as graphql-ws frames it, also beside another subscription on the same socket", async () => {
    // Raw WebSockets, so that the frames' bytes are seen: the service serialises a shared result once
    // and makes each socket's frame from it (lib/http/graphql-ws-server.ts).
    const shared = `subscription { p2000Messages(filter: { capcode: { names: ["0923007"] } }) { uuid message sended } }`;
    const other = `subscription { p2000Messages(filter: { capcode: { names: ["0923007"] } }) { message } }`;
    const frames = new Map<string, string[]>();
    const open = (subscriptions: Record<string, string>) => {
      const socket = new WebSocket(ctx.service.graphqlUrl.replace(/^http/, "ws"), "graphql-transport-ws");
      socket.on("open", () =>
        socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${token}` } })),
      );
      socket.on("message", (data) => {
        const frame = String(data);
        const { type, id } = JSON.parse(frame) as { type: string; id?: string };
        if (type === "connection_ack")
          for (const [subscriptionId, query] of Object.entries(subscriptions))
            socket.send(JSON.stringify({ id: subscriptionId, type: "subscribe", payload: { query } }));
        if (id) frames.set(id, [...(frames.get(id) ?? []), frame]);
      });
      return socket;
    };
    const sockets = [open({ first: shared }), open({ "second-socket": shared, "its-other": other })];
    try {
      await waitUntil(
        async () => {
          await store([`P 1 BDH-33 Brand woning Utrecht gedeeld ${++sequence}`, "0923007"]);
          return frames.size;
        },
        (n) => n === 3,
        "all three subscriptions to hear",
        20_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 500)); // the last probe's frames
      const [first, second, itsOther] = ["first", "second-socket", "its-other"].map((id) => frames.get(id)!);
      const payloadOf = (frame: string) => frame.slice(frame.indexOf('"payload":'));
      // A socket that subscribed a moment later may have missed an earlier probe: the last page
      // both heard came as the same payload bytes.
      expect(payloadOf(second.at(-1)!)).toBe(payloadOf(first.at(-1)!));
      for (const [id, list] of Object.entries({ first, "second-socket": second, "its-other": itsOther }))
        for (const frame of list) {
          const parsed = JSON.parse(frame) as { payload: unknown };
          // Byte for byte what graphql-ws itself writes: { id, type, payload } in that order.
          expect(frame).toBe(JSON.stringify({ id, type: "next", payload: parsed.payload }));
        }
      const messages = (list: string[]) =>
        list.flatMap(
          (frame) =>
            (JSON.parse(frame) as { payload: { data: { p2000Messages: object[] } } }).payload.data.p2000Messages,
        );
      expect(Object.keys(messages(first)[0]).sort()).toEqual(["message", "sended", "uuid"]);
      expect(messages(itsOther).length).toBeGreaterThan(0);
      expect(messages(itsOther).map((m) => Object.keys(m))).toEqual(messages(itsOther).map(() => ["message"]));
    } finally {
      for (const socket of sockets) socket.terminate();
    }
  });

  test("a subscription ends when its token expires, without an event or an announcement", async () => {
    const expiring = await ctx.service.newToken({ name: "expiring" });
    await ctx.db.asOwner("update app_public.api_tokens set expires_at = now() + interval '3 seconds' where uuid = $1", [
      expiring.uuid,
    ]);
    const subscriber = watch("websocket", ctx.service.graphqlUrl, { token: expiring.secret, query: NEW_MESSAGES });
    try {
      await waitUntil(() => subscriber.ended, Boolean, "the subscription to end at the expiry", 10_000);
      expect(subscriber.errors.map((e) => e.code)).toEqual(["UNAUTHENTICATED"]);
    } finally {
      await subscriber.stop();
    }
  });
});

describe("limits and transports", () => {
  test(`one token holds at most ${PER_TOKEN} subscriptions on an instance; ending one frees a place`, async () => {
    const limited = await ctx.service.newToken({ name: "limited" });
    const open = Array.from({ length: PER_TOKEN }, () =>
      watch("websocket", ctx.service.graphqlUrl, { token: limited.secret, query: NEW_MESSAGES }),
    );
    try {
      await hearing(open[PER_TOKEN - 1]);
      // Identical subscriptions of one token share one execution (seen in the metrics).
      const metrics = await (await fetch(`${ctx.service.url}/metrics`)).text();
      expect(metrics).toMatch(new RegExp(`^nlis_subscriptions_open ${PER_TOKEN}$`, "m"));
      expect(metrics).toMatch(/^nlis_subscription_executions 1$/m);
      const extra = watch("sse", ctx.service.graphqlUrl, { token: limited.secret, query: NEW_MESSAGES });
      await waitUntil(() => extra.ended, Boolean, "the refusal");
      expect(extra.errors.map((e) => e.code)).toEqual(["TOO_MANY_SUBSCRIPTIONS"]);
      await open[0].stop();
      const again = watch("sse", ctx.service.graphqlUrl, { token: limited.secret, query: NEW_MESSAGES });
      open.push(again);
      await hearing(again);
      expect(again.errors).toEqual([]);
    } finally {
      await Promise.all(open.map((subscriber) => subscriber.stop()));
    }
  });

  test("a subscription over plain HTTP is refused with 400 BAD_REQUEST", async () => {
    const { status, body } = await ctx.service.graphql(NEW_MESSAGES, { token });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
  });

  test("a frame the WebSocket cannot read closes that socket, and the service serves on", async () => {
    const socket = new WebSocket(ctx.service.graphqlUrl.replace(/^http/, "ws"), "graphql-transport-ws");
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    // A masked frame with the reserved opcode 3, written past the client library.
    (socket as unknown as { _socket: import("node:net").Socket })._socket.write(Buffer.from([0x83, 0x80, 1, 2, 3, 4]));
    await closed;
    const { status } = await ctx.service.graphql("{ p2000Regions { slug } }", { token });
    expect(status).toBe(200);
  });

  test("a WebSocket that asks for another path is closed", async () => {
    const client = webSocketClient(ctx.service.url + "/elsewhere", token);
    await expect(
      new Promise((resolve, reject) =>
        client.subscribe({ query: NEW_MESSAGES }, { next: resolve, error: reject, complete: () => resolve(undefined) }),
      ),
    ).rejects.toBeDefined();
    await client.dispose();
  });
});

describe("two API instances on one database", () => {
  let second: TestService;
  beforeAll(async () => {
    second = await startTestService(ctx.db, { processRole: "api" });
  });
  afterAll(async () => {
    await second?.stop();
  });

  test("each pushes every new message once to its own subscribers; a revocation ends both", async () => {
    const shared = await ctx.service.newToken({ name: "two instances" });
    const onFirst = watch("websocket", ctx.service.graphqlUrl, { token: shared.secret, query: NEW_MESSAGES });
    const onSecond = watch("sse", second.graphqlUrl, { token: shared.secret, query: NEW_MESSAGES });
    try {
      await hearing(onFirst);
      await hearing(onSecond);
      onFirst.events.length = 0;
      await store("P 1 BDH-07 Brand bedrijfspand Utrecht twee", "P 2 BDH-08 Containerbrand Utrecht twee");
      for (const subscriber of [onFirst, onSecond]) {
        await waitUntil(
          () => messagesOf(subscriber).length,
          (n) => n >= 2,
          "both messages",
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(messagesOf(onFirst).sort()).toEqual([
        "P 1 BDH-07 Brand bedrijfspand Utrecht twee",
        "P 2 BDH-08 Containerbrand Utrecht twee",
      ]);
      expect(messagesOf(onSecond).sort()).toEqual(messagesOf(onFirst).sort());
      await ctx.db.asOwner("update app_public.api_tokens set revoked_at = now() where uuid = $1", [shared.uuid]);
      await waitUntil(() => onFirst.ended && onSecond.ended, Boolean, "both subscriptions to end", 10_000);
      expect([...onFirst.errors, ...onSecond.errors].map((e) => e.code)).toEqual([
        "UNAUTHENTICATED",
        "UNAUTHENTICATED",
      ]);
    } finally {
      await onFirst.stop();
      await onSecond.stop();
    }
  });
});
