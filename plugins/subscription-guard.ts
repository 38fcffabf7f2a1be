// What every subscription goes through, whatever its transport (graphql-ws or graphql-sse): a
// limit on the subscriptions one API token holds open on this instance (the web-client
// credential's, which every visitor's page shares, per client address instead); its end as soon
// as its token is revoked or expires (heard on api_token_changed, confirmed by the database); and no
// event that leaves the subscriber nothing (an empty list of new messages, an aircraft no longer
// tracked). Each event's read runs with the token's settings and checks the token too
// (lib/graphql/pg-request-adaptor.ts), so a revocation missed here still ends at the next event.
// However a subscription ends (its execution done or failed, the database gone, the client gone,
// the token revoked, the server stopping), its place and its watcher are freed once
// (lib/graphql/subscription-slots.ts); an end because the database went is SERVICE_UNAVAILABLE
// with a retry hint, as any answer during an outage is (docs/live.md, How a subscription ends).
//
// Identical subscriptions (same document, operation and variables) share one execution on this
// instance, whatever their API token: an event is read once and its result sent to each of them
// (lib/graphql/broadcast.ts), so an app whose users each hold their own token scales like one with
// a shared token (issue 33). The subscriptions are public feeds, the same for every token, so the
// shared execution reads them as no token in particular (crowdSettings): the first subscriber's
// token being revoked ends that subscriber, not the reads of the others. Each subscriber's token
// is still checked when it subscribes, watched for revocation (api_token_changed, confirmed by the
// database) and ended at its expiry by a timer. A subscription whose filter names a monitor (its
// environment's matches), or that reads a station screen (its credential's own), shares only with
// the same token, read with the token's own settings.
import type { IncomingMessage } from "node:http";
import { isAsyncIterable } from "grafast";
import { GraphQLError, print, type DocumentNode, type ExecutionResult } from "graphql";
import type { RequestAuth } from "../lib/auth/context.ts";
import { Broadcast } from "../lib/graphql/broadcast.ts";
import { boundToCredential } from "../lib/graphql/root-fields.ts";
import { isConnectionError } from "../lib/db/availability.ts";
import { describeError } from "../lib/graphql/errors.ts";
import { clientAddress } from "../lib/http/client-address.ts";
import { sharedSubscriptionExecutions } from "../lib/ops/metrics.ts";
import { required, type ServiceRuntime } from "./service-runtime.ts";

declare global {
  namespace Grafast {
    interface Context {
      /** Who holds the request's subscriptions, against SUBSCRIPTIONS_PER_TOKEN (subscriptionHolder). */
      subscriptionHolder?: SubscriptionHolder;
    }
  }
}

/** What SUBSCRIPTIONS_PER_TOKEN counts: an API token, or the web-client credential at one address. */
export interface SubscriptionHolder {
  key: string;
  address?: string;
}

/**
 * The holder of a request's subscriptions: its API token, except the web-client credential, which
 * every visitor's page shares: its subscriptions are counted per client address (as the request
 * budgets count it, X-Forwarded-For under TRUST_PROXY).
 */
export function subscriptionHolder(
  auth: RequestAuth,
  req: IncomingMessage | undefined,
  trustProxy: boolean,
): SubscriptionHolder | undefined {
  if (auth.kind !== "apiToken") return undefined;
  if (!auth.webClient || !req) return { key: auth.apiTokenUuid };
  const address = clientAddress(req, trustProxy);
  return { key: `${auth.apiTokenUuid} ${address}`, address };
}

interface LiveContext {
  subscriptionHolder?: SubscriptionHolder;
  pgSettings?: Record<string, string>;
  pgSubscriber?: { subscribe(topic: string): AsyncIterableIterator<string> };
  withPgClient?: (
    settings: unknown,
    callback: (client: { query(q: { text: string }): Promise<unknown> }) => Promise<unknown>,
  ) => Promise<unknown>;
}

export const TOKEN_REVOKED_MESSAGE =
  "The API token is not valid any more (revoked or expired): this subscription has ended.";

/**
 * Whether each event leaves nothing for its subscribers, by result: identical subscriptions share
 * one result object (lib/graphql/broadcast.ts), so it is looked at once, not once per subscriber.
 */
const nothingIn = new WeakMap<ExecutionResult, boolean>();

/** An event with nothing for its subscriber: every root field null or an empty list. */
function leavesNothing(result: ExecutionResult): boolean {
  let nothing = nothingIn.get(result);
  if (nothing === undefined) {
    nothing =
      !result.errors &&
      result.data != null &&
      Object.values(result.data).every((value) => value == null || (Array.isArray(value) && value.length === 0));
    nothingIn.set(result, nothing);
  }
  return nothing;
}

/**
 * The end of a subscription whose database went away (its LISTEN connection lost, or a read that
 * met the outage): SERVICE_UNAVAILABLE with the retry hint of every other answer during an outage
 * (lib/graphql/errors.ts), the documented way such subscriptions end, not an internal error.
 */
export const DATABASE_GONE_MESSAGE =
  "The database is unavailable, so this subscription has ended: subscribe again in a few seconds and fetch what you missed.";

function databaseGone(error: unknown): GraphQLError {
  return new GraphQLError(DATABASE_GONE_MESSAGE, { extensions: describeError(error).extensions });
}

/**
 * The subscription's results, ended with an UNAUTHENTICATED error when `revoked` settles first, or
 * with SERVICE_UNAVAILABLE when the database goes. A plain iterator rather than an async generator:
 * a generator would only see the client's `return()` at its next event, holding the LISTEN
 * subscription open until then. Every way it ends runs `cleanUp` once: a next() that throws too,
 * since neither graphql-ws nor graphql-sse calls return() after that.
 */
function guardedResults(
  results: AsyncIterator<ExecutionResult>,
  revoked: Promise<void>,
  cleanUp: () => void,
): AsyncIterableIterator<ExecutionResult> {
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    cleanUp();
    await results.return?.();
  };
  // A revocation ends the results, which wakes a waiting next() (its follower answers done): one
  // reaction to `revoked` for the subscription's life, and nothing to add or remove per event
  // (racing each event against it cost two listener changes per subscriber and event).
  let isRevoked = false;
  void revoked.then(() => {
    isRevoked = true;
    void results.return?.();
  });
  const revokedEnd = async (): Promise<IteratorResult<ExecutionResult>> => {
    await end();
    return {
      done: false,
      value: { errors: [new GraphQLError(TOKEN_REVOKED_MESSAGE, { extensions: { code: "UNAUTHENTICATED" } })] },
    };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next(): Promise<IteratorResult<ExecutionResult>> {
      while (!ended) {
        if (isRevoked) return revokedEnd();
        let next: IteratorResult<ExecutionResult>;
        try {
          next = await results.next();
        } catch (error) {
          await end();
          if (!isConnectionError(error)) throw error;
          return { done: false, value: { errors: [databaseGone(error)] } };
        }
        if (isRevoked) return revokedEnd();
        if (next.done) {
          await end();
          break;
        }
        // An event whose reads met the outage ends the subscription as the lost LISTEN connection
        // does: one SERVICE_UNAVAILABLE end, whichever of the two the subscriber hears first.
        const outage = next.value.errors?.find((error) => isConnectionError(error.originalError ?? error));
        if (outage) {
          await end();
          return { done: false, value: { errors: [databaseGone(outage.originalError ?? outage)] } };
        }
        if (!leavesNothing(next.value)) return next;
      }
      return { done: true, value: undefined };
    },
    async return() {
      await end();
      return { done: true, value: undefined };
    },
    async throw(error: unknown) {
      await end();
      throw error;
    },
  };
}

/** setTimeout's longest delay (about 24.8 days): a later expiry is looked at again then. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Settles when the token is found dead: after one of its change announcements, or at its expiry
 * (a timer, set again after each announcement, since an update may move it); never otherwise.
 */
function revocationOf(context: LiveContext, tokenUuid: string): { revoked: Promise<void>; stop: () => void } {
  const changes = context.pgSubscriber!.subscribe("api_token_changed");
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const revoked = new Promise<void>((resolve) => {
    // The request adaptor checks the token as it opens the transaction (XAUTH when it is dead).
    const check = () =>
      context.withPgClient!(context.pgSettings, (client) =>
        client.query({ text: "select app_hidden.current_api_token_expires_at() as expires_at" }),
      ).then(
        (result) => {
          const expiresAt = (result as { rows: Array<{ expires_at: string | Date | null }> }).rows[0]?.expires_at;
          clearTimeout(timer);
          if (expiresAt == null || stopped) return;
          const delay = Math.max(0, new Date(expiresAt).getTime() - Date.now());
          timer = setTimeout(() => void check(), Math.min(delay, LONGEST_TIMER_MS));
          timer.unref();
        },
        (error: { code?: string }) => {
          if (error?.code === "XAUTH") resolve();
        },
      );
    void (async () => {
      await check();
      for await (const changed of changes) if (changed === tokenUuid) await check();
    })().catch(() => {}); // a lost LISTEN connection ends the subscription through its own stream
  });
  return {
    revoked,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      // An iterator that already failed may answer return() with its error again.
      void Promise.resolve(changes.return?.()).catch(() => {});
    },
  };
}

/**
 * Subscriptions that may share an execution: one document, one operation, the same variables; and
 * one token when they name a monitor (`tokenUuid`), any token otherwise (null).
 */
function sharingKey(
  tokenUuid: string | null,
  args: { document: DocumentNode; operationName?: string | null; variableValues?: unknown },
): string {
  const source = args.document.loc?.source.body ?? print(args.document);
  return JSON.stringify([tokenUuid, args.operationName ?? null, source, args.variableValues ?? null]);
}

/** The settings of a shared public read: the request's role and limits, no token or environment. */
function crowdSettings(settings: Record<string, string>): Record<string, string> {
  const {
    "app.api_token_uuid": _token,
    "app.environment_uuid": _environment,
    "app.api_scopes": _scopes,
    ...rest
  } = settings;
  return rest;
}

/** Each service's shared executions, by sharingKey; a pending one is a promise, so that two at once make one. */
const sharedOf = new WeakMap<ServiceRuntime, Map<string, Promise<Broadcast<ExecutionResult> | ExecutionResult>>>();

export const SubscriptionGuardPlugin: GraphileConfig.Plugin = {
  name: "SubscriptionGuardPlugin",
  version: "1.0.0",
  description:
    "Per-token (web client: per-address) subscription limits, the end of a revoked token's subscriptions, and no empty events.",
  grafast: {
    middleware: {
      async subscribe(next, event) {
        const service = required(event.args.resolvedPreset?.nlis);
        const slots = service.subscriptionSlots;
        // SUBSCRIPTIONS_PER_TOKEN; the web-client credential's limit at one address (one map page holds up to 17).
        const { subscriptionsPerToken: perToken, subscriptionsPerWebClientAddress: perWebClientAddress } = service.api;
        let shared = sharedOf.get(service);
        if (!shared) sharedOf.set(service, (shared = new Map()));
        const context = event.args.contextValue as LiveContext;
        const tokenUuid = context.pgSettings?.["app.api_token_uuid"];
        // Without an API token the request was refused before (plugins/require-api-token.ts).
        if (!tokenUuid) return next();
        const { key: holder, address } = context.subscriptionHolder ?? { key: tokenUuid };
        const slot = slots.take(holder, address === undefined ? perToken : perWebClientAddress);
        if (slot === undefined) {
          const who =
            address === undefined
              ? "This API token already holds"
              : `The address ${address} already holds, with the web-client credential,`;
          const most = address === undefined ? "one token" : "one address";
          return {
            errors: [
              new GraphQLError(
                `${who} ${slots.heldBy(holder)} open subscriptions, the most ${most} may hold on one server ` +
                  `(${address === undefined ? "SUBSCRIPTIONS_PER_TOKEN" : "WEB_CLIENT_SUBSCRIPTIONS_PER_ADDRESS"}); end one first.`,
                { extensions: { code: "TOO_MANY_SUBSCRIPTIONS" } },
              ),
            ],
          };
        }
        const crowd = !boundToCredential(event.args.document, event.args.variableValues);
        const key = sharingKey(crowd ? null : tokenUuid, event.args);
        let followed: AsyncIterableIterator<ExecutionResult> | undefined;
        try {
          while (followed === undefined) {
            let execution = shared.get(key);
            if (execution === undefined) {
              // The execution outlives this subscriber: read as no token in particular.
              if (crowd) event.args.contextValue = { ...context, pgSettings: crowdSettings(context.pgSettings!) };
              execution = Promise.resolve(next()).then((result) => {
                if (!isAsyncIterable(result)) return result as ExecutionResult;
                sharedSubscriptionExecutions.inc();
                return new Broadcast(result[Symbol.asyncIterator]() as AsyncIterator<ExecutionResult>, () => {
                  sharedSubscriptionExecutions.dec();
                  shared.delete(key);
                });
              });
              shared.set(key, execution);
              // A refusal (an ExecutionResult) is not shared: the next subscriber tries again.
              void execution.then(
                (outcome) => outcome instanceof Broadcast || shared.delete(key),
                () => shared.delete(key),
              );
            }
            const outcome = await execution;
            if (!(outcome instanceof Broadcast)) {
              slot.free();
              return outcome;
            }
            // A broadcast that closed in between is forgotten; the next attempt starts a new one.
            const following = slots.following();
            followed = outcome.join(following);
            if (followed === undefined) {
              following();
              if (shared.get(key) === execution) shared.delete(key);
            }
          }
          const revocation = revocationOf(context, tokenUuid);
          return guardedResults(followed, revocation.revoked, () => {
            revocation.stop();
            slot.free();
          }) as unknown as Awaited<ReturnType<typeof next>>;
        } catch (error) {
          // Nothing was handed over that could free the slot: free it here (and leave the execution).
          slot.free();
          await followed?.return?.();
          throw error;
        }
      },
    },
  },
};
