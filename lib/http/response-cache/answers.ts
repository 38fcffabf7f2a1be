// The response cache's way through a GraphQL request (issue 33; made one module by issue 46). It
// decides, in one place, whether a request may be answered from memory, under which key, and what
// is kept; the request meets it at three points, and this class is all three:
//
// 1. Before grafserv (`answerBeforeGrafserv`, called by service.ts): a request whose bytes were
//    answered before (known-requests.ts) is answered from the cache without grafserv parsing,
//    validating and planning it. What a cached answer must still pass, it passes here as on
//    grafserv's path: the request budgets and the outage guard ran before (service.ts); the token
//    is the request's one authentication (begun as it arrived, lib/auth/context.ts), and only a
//    valid API token that may read public data is answered here (anything else goes on to grafserv,
//    which refuses it as before); the query limits held for the same document and variables when
//    the answer was made.
// 2. Inside grafast's `execute` (`lookup` and `keep`, called by plugins/response-cache.ts): a
//    query whose every root field has a rule in the schema (lib/graphql/cache-plan.ts, from the
//    SQL's @cacheReads tags), asked with an API token, is looked up; a miss runs the plan and an
//    answer without errors is kept (store.ts says when it may be). The key is the document (by
//    identity: grafserv parses each query text once and keeps it), the operation name, the
//    variables and, when a field is environment-bound or the arguments name a monitor, the
//    token's environment. The answer is kept as the bytes sent.
// 3. After grafserv (`sendKept`, the plugin's processRequest middleware): an answer taken from or
//    put into the cache is sent as the kept bytes, and the request's bytes are remembered so that
//    the same request next time is answered at point 1.
//
// Each answer counts in the metrics as a hit or a miss of its operation; those answered at point 1
// count as an operation too (grafserv's metrics middleware, plugins/graphql-metrics.ts, counts the
// others). A GET is answered with its ETag and `Cache-Control: private, no-cache`, and with 304
// without a body when its If-None-Match names that tag: a poller's unchanged answer costs a hash
// lookup.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { DocumentNode, GraphQLSchema } from "graphql";
import { authenticateOnce, type Authenticate } from "../../auth/context.ts";
import { cachePlanOf } from "../../graphql/cache-plan.ts";
import type { Domain } from "../../graphql/cache-rules.ts";
import { operationLabel } from "../../graphql/operation-label.ts";
import { variablesNameMonitor } from "../../graphql/root-fields.ts";
import {
  graphqlCacheRequests,
  graphqlOperationDuration,
  graphqlOperations,
  measureResponseCache,
} from "../../ops/metrics.ts";
import { ifNoneMatchFails } from "../conditional-requests.ts";
import { prereadBodyOf } from "../preread-body.ts";
import { cacheKey, requestIdentity, type KnownRequests } from "./known-requests.ts";
import type { CachedAnswer, ResponseCache, Snapshot } from "./store.ts";

/** The caching headers of a GET's answer (the client may keep it, and must ask again). */
const CACHE_CONTROL = "private, no-cache";

/** What grafast's execute middleware hands over: the operation and the request's context. */
export interface ExecutionArgs {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
  contextValue?: unknown;
  req?: IncomingMessage;
}

/** An execution the cache may answer or keep: its key and what it reads, worked out once. */
export interface CacheableExecution {
  key: string;
  keyTail: string;
  perEnvironment: boolean;
  domains: readonly Domain[];
  operation: string;
  req?: IncomingMessage;
}

/** A miss: the execution, and where its domains stood as it began. */
export interface PendingAnswer {
  execution: CacheableExecution;
  snapshot: Snapshot;
}

export interface SentAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

export class CachedAnswers {
  /** The answer each request was given from or stored to the cache, for point 3. */
  private readonly answered = new WeakMap<IncomingMessage, { answer: CachedAnswer; execution: CacheableExecution }>();

  private readonly cache: ResponseCache;
  private readonly known: KnownRequests;
  private readonly authenticate: Authenticate;

  constructor(cache: ResponseCache, known: KnownRequests, authenticate: Authenticate) {
    this.cache = cache;
    this.known = known;
    this.authenticate = authenticate;
    measureResponseCache(() => cache.bytesHeld);
  }

  /**
   * Point 1: answers the request from the cache and returns true, or returns false having written
   * nothing (grafserv then answers it). `body` is the POST body read before (../preread-body.ts).
   */
  async answerBeforeGrafserv(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined): Promise<boolean> {
    if (!this.cache.active) return false;
    const identity = requestIdentity(req, body);
    const request = identity === undefined ? undefined : this.known.recall(identity);
    if (!request) return false;
    const started = performance.now();
    const auth = await authenticateOnce(req, this.authenticate).catch(() => undefined);
    if (auth?.kind !== "apiToken" || !auth.publicReads) return false;
    const answer = this.cache.get(cacheKey(request.perEnvironment ? auth.environmentUuid : "", request.keyTail));
    if (!answer) return false;
    const { statusCode, headers, body: sent } = sentAnswer(req, answer, request.headers);
    res.writeHead(statusCode, headers).end(sent);
    const { operation } = request;
    graphqlCacheRequests.inc({ operation, outcome: "hit" });
    graphqlOperations.inc({ operation, outcome: "ok" });
    graphqlOperationDuration.observe({ operation }, (performance.now() - started) / 1000);
    return true;
  }

  /**
   * Point 2, before the plan runs: the kept answer's result (a hit), a pending answer to `keep`
   * once the plan has run (a miss), or undefined when this execution is not the cache's.
   */
  lookup(args: ExecutionArgs): { hit: unknown } | { miss: PendingAnswer } | undefined {
    const execution = this.cacheable(args);
    if (!execution) return undefined;
    const hit = this.cache.get(execution.key);
    if (hit) {
      graphqlCacheRequests.inc({ operation: execution.operation, outcome: "hit" });
      if (execution.req) this.answered.set(execution.req, { answer: hit, execution });
      return { hit: JSON.parse(hit.body.toString()) };
    }
    graphqlCacheRequests.inc({ operation: execution.operation, outcome: "miss" });
    return { miss: { execution, snapshot: this.cache.snapshot(execution.domains) } };
  }

  /** Point 2, after the plan ran: keeps a result without errors, if its data has not changed meanwhile. */
  keep({ execution, snapshot }: PendingAnswer, result: { errors?: readonly unknown[] }, contextValue: unknown): void {
    if (result.errors?.length) return;
    // Read on a replica: kept only if the replica had caught up (store.ts).
    const replayed = (contextValue as Grafast.Context | undefined)?.replicaRead?.replayed;
    const kept = this.cache.set(execution.key, result, execution.domains, snapshot, replayed);
    if (kept && execution.req) this.answered.set(execution.req, { answer: kept, execution });
  }

  /**
   * Point 3: the kept bytes to send for a request answered from or into the cache (undefined for
   * any other), and the request remembered for point 1. `headers` are grafserv's for the answer.
   */
  sendKept(req: IncomingMessage | undefined, headers: Record<string, string>): SentAnswer | undefined {
    const kept = req && this.answered.get(req);
    if (!kept) return undefined;
    const { answer, execution } = kept;
    const { "content-length": _length, ...kind } = headers;
    const identity = requestIdentity(req, prereadBodyOf(req));
    if (identity) {
      const { keyTail, perEnvironment, operation } = execution;
      this.known.remember(identity, { keyTail, perEnvironment, operation, headers: kind });
    }
    return sentAnswer(req, answer, kind);
  }

  /** Whether the cache may answer this execution (an API token's read of fields with rules), and its key. */
  private cacheable({
    schema,
    document,
    operationName,
    variableValues,
    contextValue,
    req,
  }: ExecutionArgs): CacheableExecution | undefined {
    if (!this.cache.active) return undefined;
    const settings = (contextValue as { pgSettings?: Record<string, string> } | undefined)?.pgSettings;
    const environment = settings?.["app.environment_uuid"];
    const plan = cachePlanOf(schema, document, operationName);
    // Only API-token reads of an environment: a user's access token reads no public data
    // (lib/auth/transport-guard.ts), and a station screen's credential acts in none
    // (lib/auth/context.ts), so no answer kept for its environment's other tokens reaches it.
    if (!plan || !settings?.["app.api_token_uuid"] || !environment) return undefined;
    const variables = JSON.stringify(variableValues ?? {});
    // The document's own `monitor` arguments are in the plan already; the variables are read here.
    const monitorInVariables = variablesNameMonitor(variables);
    const keyTail = [plan.documentId, operationName ?? "", variables].join("\u0000");
    const perEnvironment = plan.environmentBound || monitorInVariables;
    return {
      key: cacheKey(perEnvironment ? environment : "", keyTail),
      keyTail,
      perEnvironment,
      domains: monitorInVariables ? plan.domainsWithMonitor : plan.domains,
      operation: operationLabel(schema, document, operationName),
      req,
    };
  }
}

/** The response of a kept answer: 304 for a GET that already has it, else 200 with the kept bytes. */
function sentAnswer(req: IncomingMessage, answer: CachedAnswer, headers: Readonly<Record<string, string>>): SentAnswer {
  const isGet = req.method === "GET";
  const caching: Record<string, string> = isGet ? { etag: answer.etag, "cache-control": CACHE_CONTROL } : {};
  if (isGet && ifNoneMatchFails(req.headers["if-none-match"], answer.etag)) {
    return { statusCode: 304, headers: caching, body: Buffer.alloc(0) };
  }
  return {
    statusCode: 200,
    headers: { ...headers, ...caching, "content-length": String(answer.body.length) },
    body: answer.body,
  };
}
