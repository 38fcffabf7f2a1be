// plugins/subscription-guard.ts without a server: every way a subscription ends frees its slot and
// stops its revocation watcher exactly once (issue 43: a next() that threw kept both for good, and
// neither graphql-ws nor graphql-sse calls return() after that), and the end when the database
// goes is SERVICE_UNAVAILABLE with a retry hint rather than an internal error.
import { describe, expect, test } from "@jest/globals";
import { GraphQLError, parse, type ExecutionResult } from "graphql";
import { RETRY_AFTER_SECONDS } from "../../lib/db/availability.ts";
import { SubscriptionSlots } from "../../lib/graphql/subscription-slots.ts";
import { DATABASE_GONE_MESSAGE, SubscriptionGuardPlugin } from "../../plugins/subscription-guard.ts";

/** An execution's results, pushed, failed or ended by the test. */
function execution() {
  const waiting: Array<{ resolve: (r: IteratorResult<ExecutionResult>) => void; reject: (e: unknown) => void }> = [];
  const source: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]() {
      return this;
    },
    next: () => new Promise((resolve, reject) => waiting.push({ resolve, reject })),
    return: async () => {
      waiting.splice(0).forEach((w) => w.resolve({ done: true, value: undefined }));
      return { done: true, value: undefined };
    },
  };
  const reader = async () => {
    while (waiting.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    return waiting.shift()!;
  };
  return {
    source,
    push: async (value: ExecutionResult) => (await reader()).resolve({ done: false, value }),
    fail: async (error: unknown) => (await reader()).reject(error),
    end: async () => (await reader()).resolve({ done: true, value: undefined }),
  };
}

/** The guard with a limit of one subscription per token, and what its subscriptions watch. */
function guard() {
  const slots = new SubscriptionSlots();
  // The service as the plugin reads it: a limit of one subscription per token, and its slots.
  const resolvedPreset = {
    nlis: { api: { subscriptionsPerToken: 1, subscriptionsPerWebClientAddress: 1 }, subscriptionSlots: slots },
  };
  const subscribe = SubscriptionGuardPlugin.grafast!.middleware!.subscribe! as unknown as (
    next: () => unknown,
    event: unknown,
  ) => Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>;
  /** The revocation watchers' api_token_changed iterators still open. */
  const watchers = new Set<object>();
  const context = () => ({
    pgSettings: { role: "visitor", "app.api_token_uuid": "token-1" },
    pgSubscriber: {
      subscribe() {
        const watcher: AsyncIterableIterator<string> = {
          [Symbol.asyncIterator]() {
            return this;
          },
          next: () => new Promise<IteratorResult<string>>(() => {}),
          return: async () => {
            watchers.delete(watcher);
            return { done: true, value: undefined };
          },
        };
        watchers.add(watcher);
        return watcher;
      },
    },
    // The token lives and has no expiry.
    withPgClient: async (_settings: unknown, callback: (client: unknown) => Promise<unknown>) =>
      callback({ query: async () => ({ rows: [{ expires_at: null }] }) }),
  });
  const open = async (variables: Record<string, unknown> = {}) => {
    const results = execution();
    const outcome = await subscribe(() => results.source, {
      args: {
        resolvedPreset,
        contextValue: context(),
        document: parse("subscription ($f: P2000MessageFilterInput) { p2000Messages(filter: $f) { uuid } }"),
        variableValues: variables,
      },
    });
    return { results, outcome };
  };
  return { slots, watchers, open };
}

const LISTEN_LOST = new Error(
  "Underlying pubsub channel interrupted, terminating connection due to risk of missing messages.",
);
const EVENT: ExecutionResult = { data: { p2000Messages: [{ uuid: "m1" }] } };

function iteratorOf(outcome: AsyncIterableIterator<ExecutionResult> | ExecutionResult) {
  expect(Symbol.asyncIterator in outcome).toBe(true);
  return outcome as AsyncIterableIterator<ExecutionResult>;
}

describe("the subscription guard", () => {
  test("next() throwing because the database went: SERVICE_UNAVAILABLE, then done; the slot and the watcher freed", async () => {
    const { slots, watchers, open } = guard();
    const { results, outcome } = await open();
    const subscriber = iteratorOf(outcome);
    expect(slots.census()).toEqual({ open: 1, live: 1 });
    expect(watchers.size).toBe(1);
    const first = subscriber.next();
    await results.push(EVENT);
    expect(await first).toEqual({ done: false, value: EVENT });

    const ending = subscriber.next();
    await results.fail(LISTEN_LOST);
    const end = (await ending) as IteratorYieldResult<ExecutionResult>;
    expect(end.done).toBe(false);
    expect(end.value.errors!.map((e) => ({ message: e.message, extensions: e.extensions }))).toEqual([
      { message: DATABASE_GONE_MESSAGE, extensions: { code: "SERVICE_UNAVAILABLE", retryAfter: RETRY_AFTER_SECONDS } },
    ]);
    expect(await subscriber.next()).toEqual({ done: true, value: undefined });
    expect(slots.census()).toEqual({ open: 0, live: 0 });
    expect(watchers.size).toBe(0);
    // The token's one place is free again.
    expect(Symbol.asyncIterator in (await open()).outcome).toBe(true);
  });

  test("an event whose reads met the outage ends it the same way: one SERVICE_UNAVAILABLE, then done", async () => {
    const { slots, watchers, open } = guard();
    const { results, outcome } = await open();
    const subscriber = iteratorOf(outcome);
    const ending = subscriber.next();
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    await results.push({ errors: [new GraphQLError(refused.message, { originalError: refused })] });
    const end = (await ending) as IteratorYieldResult<ExecutionResult>;
    expect(end.value.errors!.map((e) => ({ message: e.message, extensions: e.extensions }))).toEqual([
      { message: DATABASE_GONE_MESSAGE, extensions: { code: "SERVICE_UNAVAILABLE", retryAfter: RETRY_AFTER_SECONDS } },
    ]);
    expect(await subscriber.next()).toEqual({ done: true, value: undefined });
    expect(slots.census()).toEqual({ open: 0, live: 0 });
    expect(watchers.size).toBe(0);
  });

  test("next() throwing anything else passes the error on, and frees the slot all the same", async () => {
    const { slots, watchers, open } = guard();
    const { results, outcome } = await open();
    const subscriber = iteratorOf(outcome);
    const ending = subscriber.next();
    await results.fail(new Error("a bug"));
    await expect(ending).rejects.toThrow("a bug");
    expect(slots.census()).toEqual({ open: 0, live: 0 });
    expect(watchers.size).toBe(0);
  });

  test("the execution ending, return() and throw() free the slot once, however often they come", async () => {
    const { slots, watchers, open } = guard();
    const ended = iteratorOf((await open()).outcome);
    // One token, one place: another subscription is refused, whatever it asks.
    const refused = (await open({ f: { disciplines: ["Brandweer"] } })).outcome;
    expect(refused).toMatchObject({ errors: [{ extensions: { code: "TOO_MANY_SUBSCRIPTIONS" } }] });
    expect(slots.census()).toEqual({ open: 1, live: 1 });

    // Done: the execution ends by itself.
    const g = guard();
    const one = await g.open();
    const subscriber = iteratorOf(one.outcome);
    const last = subscriber.next();
    await one.results.end();
    expect(await last).toEqual({ done: true, value: undefined });
    expect(g.slots.census()).toEqual({ open: 0, live: 0 });
    expect(g.watchers.size).toBe(0);

    // return() (the client gone, the server stopping), twice, and next() after it.
    const two = iteratorOf((await g.open()).outcome);
    await Promise.all([two.return!(), two.return!()]);
    expect(await two.next()).toEqual({ done: true, value: undefined });
    expect(g.slots.census()).toEqual({ open: 0, live: 0 });
    expect(g.watchers.size).toBe(0);

    // throw(), then return().
    const three = iteratorOf((await g.open()).outcome);
    await expect(three.throw!(new Error("client error"))).rejects.toThrow("client error");
    await three.return!();
    expect(g.slots.census()).toEqual({ open: 0, live: 0 });
    expect(g.watchers.size).toBe(0);

    // And the first guard's subscription, ended while a next() waits.
    const waiting = ended.next();
    await ended.return!();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(slots.census()).toEqual({ open: 0, live: 0 });
    expect(watchers.size).toBe(0);
  });
});
