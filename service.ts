// The running service: HTTP (grafserv: /graphql, its WebSocket subscriptions and the Ruru IDE at
// /graphiql; graphql-sse on /graphql by content negotiation and at /graphql/stream; CORS; express
// for the few HTML routes and the feeds per monitor) and the worker, on a prepared database. server.ts and the API tests
// start it the same way.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import express from "express";
import type pg from "pg";
import { postgraphile } from "postgraphile";
import { servicePreset } from "./graphile.config.ts";
import { userTokenFieldsOf } from "./plugins/require-api-token.ts";
import type { AccountDeps } from "./lib/accounts/flows.ts";
import { loadAiDefaults, SHIPPED_AI_DEFAULTS } from "./lib/ai/defaults.ts";
import { ApiTokenCache } from "./lib/auth/api-token-cache.ts";
import { ensureWebClientToken, WebClientToken } from "./lib/auth/web-client-token.ts";
import { authenticateOnce, makeAuthenticate } from "./lib/auth/context.ts";
import { authRoutes } from "./lib/accounts/link-routes.ts";
import type { Config } from "./lib/config.ts";
import type { Database } from "./lib/setup/installation.ts";
import { resilientPool } from "./lib/db/pool.ts";
import { WholePgSubscriber } from "./lib/db/pg-subscriber.ts";
import { feedRoute } from "./lib/monitors/feed-route.ts";
import { pushWorkerRoute } from "./lib/monitors/push-worker-route.ts";
import { RateLimiter } from "./lib/http/rate-limiter.ts";
import { ResponseCache } from "./lib/http/response-cache/store.ts";
import { KnownRequests } from "./lib/http/response-cache/known-requests.ts";
import { SubscriptionSlots } from "./lib/graphql/subscription-slots.ts";
import { ReadReplicas } from "./lib/db/read-replicas.ts";
import { CachedAnswers } from "./lib/http/response-cache/answers.ts";
import { makeGraphqlWsUpgradeHandler } from "./lib/http/graphql-ws-server.ts";
import { prereadBody, PrereadBodyGrafserv } from "./lib/http/preread-body.ts";
import { makeRequestBudgetGuard } from "./lib/http/request-budgets.ts";
import { makeOpsRoutes } from "./lib/http/ops-routes.ts";
import { webRoutes } from "./lib/web/web-routes.ts";
import { OPEN_DATA_CORS, openDataRoutes } from "./lib/open-data/routes.ts";
import { countHttpRequest } from "./lib/ops/http-metrics.ts";
import { configureLog, log } from "./lib/ops/log.ts";
import { makeUnavailableGuard } from "./lib/http/unavailable-guard.ts";
import {
  GRAPHQL_METHODS,
  isGraphqlSseRequest,
  makeGraphqlSseHandler,
  MAX_GRAPHQL_BODY_BYTES,
} from "./lib/http/graphql-sse.ts";
import { GRAPHQL_PATH, GRAPHQL_SSE_PATH } from "./lib/paths.ts";
import { makeCors } from "./lib/http/cors.ts";
import { refuseMethod } from "./lib/http/refusals.ts";
import { authenticateOrUnavailable, requireApiToken, TransportGuard } from "./lib/auth/transport-guard.ts";
import { DatabaseAvailability, RETRY_AFTER_SECONDS } from "./lib/db/availability.ts";
import { jwtSecretFor, webPushFor } from "./lib/db/secrets.ts";
import { startWorker } from "./worker.ts";

export interface Service {
  url: string;
  graphqlUrl: string;
  graphiqlUrl: string | undefined;
  ownerPool: pg.Pool;
  /** Stops accepting requests, lets running requests and jobs finish, then closes the pools. */
  stop(): Promise<void>;
}

/** Connections for GraphQL requests, on the primary and on each read replica. */
const REQUEST_CONNECTIONS = 10;
/** Connections of the open data's reads (share pages, calendars, OGC API Features). */
const OPEN_DATA_CONNECTIONS = 4;

/** Memory for the requests the response cache answers before grafserv (lib/http/response-cache/known-requests.ts). */
const KNOWN_REQUEST_BYTES = 16 * 1024 * 1024;

/**
 * Connections the kernel holds for the service before it accepts them. A crowd connecting at once
 * (ten thousand viewers coming back after a restart) overflowed Node's default of 511: the kernel
 * dropped the rest's handshakes and their clients saw ECONNRESET (bench:subscriptions --web). The
 * kernel caps it at net.core.somaxconn (4096 by default since Linux 5.4).
 */
const LISTEN_BACKLOG = 4096;

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** How long an idle kept-alive HTTP connection is kept open (docs/operations.md). */
const KEEP_ALIVE_MS = 65_000;

export async function startService(given: Config, database: Database): Promise<Service> {
  // LOG_LEVEL and LOG_FORMAT are the process's (server.ts sets them before its first line too).
  configureLog(given.log);
  // Web Push's VAPID keys: the configured pair, or the embedded default's kept pair (lib/db/secrets.ts).
  const config: Config = { ...given, delivery: { ...given.delivery, webPush: webPushFor(given) } };
  // Lost connections are reported once per change of state by the availability probe, not per client.
  const availability = new DatabaseAvailability(database.authUrl);
  const report = (error: Error) => availability.notice(error);
  // The worker's jobs and the account flows share the owner pool.
  const ownerPool = resilientPool({ connectionString: database.ownerUrl, max: config.worker.concurrency + 3 }, report);
  // The connections for requests, and one LISTEN each for the API-token cache, the response cache
  // (when it is on) and the subscriptions (PostGraphile's pgSubscriber).
  const authPool = resilientPool({ connectionString: database.authUrl, max: REQUEST_CONNECTIONS + 3 }, report);
  // The open data's reads (docs/open-data.md): anyone may ask them without a token, so they get
  // connections of their own, a few, each statement bounded as GraphQL's are: a burst of crawlers
  // or a slow read waits here and never takes the connections GraphQL's requests use.
  const openDataPool = resilientPool(
    {
      connectionString: database.authUrl,
      max: OPEN_DATA_CONNECTIONS,
      options: `-c statement_timeout=${config.api.statementTimeout}`,
    },
    report,
  );
  availability.start();

  // PROCESS_ROLE: api and worker in one process (the default), or either alone for scale-out
  // (docs/operations.md, Scaling out): N stateless API processes and N workers on one database.
  const worker =
    config.processRole !== "api" ? await startWorker(ownerPool, config.worker, config, availability) : undefined;
  // READ_REPLICA_URLS: the public reads' replicas, checked every second against the primary.
  const replicas = new ReadReplicas({
    ...config.database.readReplicas,
    authUrl: database.authUrl,
    primary: authPool,
    connections: REQUEST_CONNECTIONS,
    log: (line) => log.warning(line),
  });
  const api =
    config.processRole !== "worker"
      ? await startApi(config, ownerPool, authPool, openDataPool, availability, replicas)
      : undefined;
  // /health, /ready and /metrics, before the rate limiter and grafserv; a part this process does
  // not run counts as ready.
  const opsRoutes = makeOpsRoutes({
    pools: { owner: ownerPool, auth: authPool, open_data: openDataPool },
    workerRunning: () => worker?.isRunning() ?? true,
    currentSchema: () => (api ? api.currentSchema() : {}),
    metricsPublic: config.http.metricsPublic,
    replicaStatuses: () => replicas.statuses(),
    subscriptions: api ? () => api.subscriptions.census() : undefined,
  });
  const server = createServer((req, res) => {
    countHttpRequest(req, res);
    if (opsRoutes(req, res)) return;
    if (api) api.handle(req, res);
    else
      res
        .writeHead(404, { "content-type": "text/plain; charset=utf-8" })
        .end("This process runs the worker only (PROCESS_ROLE=worker).\n");
  });
  // An idle kept-alive connection stays open longer than a client or a load balancer keeps it
  // (undici 4 s, proxies typically 60 s), so the client closes it first: with Node's 5 s default a
  // request sent as the server closed the socket was reset (ECONNRESET, seen in CI).
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  // WebSockets (graphql-transport-ws) on /graphql; anything else that asks to upgrade is closed.
  server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (api) api.upgrade(req, socket, head);
    else socket.destroy();
  });
  await api?.ready();
  const address = await listen(server, config.http.port, config.http.host);

  const host = ["0.0.0.0", "::", "127.0.0.1", "::1"].includes(config.http.host) ? "localhost" : config.http.host;
  const url = `http://${host}:${address.port}`;
  let stopping: Promise<void> | undefined;
  return {
    url,
    graphqlUrl: `${url}/graphql`,
    graphiqlUrl: config.api.graphiql && api ? `${url}/graphiql` : undefined,
    ownerPool,
    stop() {
      stopping ??= (async () => {
        // First: from now on connections end because the service (or the process manager, which
        // may stop PostgreSQL beside it) stops them, not because the database is gone.
        await availability.stop();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Subscriptions never end by themselves: their sockets and streams are closed.
        api?.closeStreams();
        await closed;
        await worker?.stop();
        await api?.stop();
        await replicas.stop();
        await Promise.all([ownerPool.end(), authPool.end(), openDataPool.end()]);
      })();
      return stopping;
    },
  };
}

const WRONG_METHOD =
  "send GraphQL with POST (or GET for queries); PUT (without a body) and DELETE (with " +
  "X-GraphQL-Event-Stream-Token) are graphql-sse's single connection mode.";

interface Api {
  handle(req: IncomingMessage, res: ServerResponse): void;
  upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void;
  closeStreams(): void;
  /** The slots SUBSCRIPTIONS_PER_TOKEN counts, against the subscribers that follow a live execution. */
  subscriptions: SubscriptionSlots;
  currentSchema(): unknown;
  ready(): Promise<void>;
  stop(): Promise<void>;
}

/** The API side: budgets, the outage guard, grafserv for GraphQL and express for the rest. */
async function startApi(
  config: Config,
  ownerPool: pg.Pool,
  authPool: pg.Pool,
  openDataPool: pg.Pool,
  availability: DatabaseAvailability,
  replicas: ReadReplicas,
): Promise<Api> {
  const jwtSecret = jwtSecretFor(config);
  const accounts: AccountDeps = {
    ownerPool,
    jwtSecret,
    publicUrl: config.delivery.publicUrl,
    magicLinkAllowedOrigins: config.accounts.magicLinkAllowedOrigins,
  };
  const apiTokens = new ApiTokenCache(authPool);
  await apiTokens.start();
  // The web application's credential (docs/web.md): made at the installation's first start, never
  // again once revoked; read again whenever any API token changes (a rotation anywhere).
  await ensureWebClientToken(ownerPool);
  const webClient = new WebClientToken(ownerPool);
  apiTokens.onChange(() => webClient.forget());
  await webClient.secret();
  const authenticate = makeAuthenticate(authPool, jwtSecret, {
    apiTokens,
    webRequireSignIn: config.web.requireSignIn,
  });
  // The API-token rule of every transport; the schema tells it which fields are account queries.
  const guard = new TransportGuard();
  const pgSubscriber = new WholePgSubscriber(authPool);
  const subscriptions = new SubscriptionSlots();
  await replicas.start();
  const responseCache = new ResponseCache({
    pool: authPool,
    ...config.api.responseCache,
    replicas: replicas.configured,
  });
  await responseCache.start();
  const cachedAnswers = new CachedAnswers(responseCache, new KnownRequests(KNOWN_REQUEST_BYTES), authenticate);
  const pgl = postgraphile(
    servicePreset({
      authPool,
      pgSubscriber,
      graphiql: config.api.graphiql,
      service: {
        authenticate,
        guard,
        accounts,
        // WEBHOOK_ALLOW_PRIVATE_TARGETS: checked when a webhook channel is saved, and again on delivery.
        // sendTestNotification sends with the worker's delivery settings.
        monitors: { allowPrivateWebhookTargets: config.delivery.allowPrivateTargets, delivery: config.delivery },
        api: config.api,
        trustProxy: config.http.requestBudgets.trustProxy,
        aiDefaults: loadAiDefaults(config.api.aiDefaultsFile ?? SHIPPED_AI_DEFAULTS),
        subscriptionSlots: subscriptions,
        responseCache: cachedAnswers,
        replicas,
      },
    }),
  );
  const app = express();
  app.disable("x-powered-by");
  app.use(authRoutes(accounts));
  app.use(feedRoute(authPool, config.delivery.publicUrl));
  app.use(pushWorkerRoute());
  app.use(openDataRoutes({ authPool: openDataPool, config, responseCache }));
  // Last: the web application's page answers the paths no route above took.
  app.use(webRoutes({ web: config.web, webClientToken: () => webClient.secret() }));
  // GraphQL requests go straight to grafserv (express would add its routing to every API call);
  // whatever grafserv does not serve falls through to the express app.
  const serv = pgl.createServ((config) => new PrereadBodyGrafserv(config));
  const handleGraphql = serv.createHandler();
  const rateLimiter = new RateLimiter(ownerPool);
  rateLimiter.start();
  const overBudget = makeRequestBudgetGuard(rateLimiter, config.http.requestBudgets, (bearer) =>
    webClient.isWebClient(bearer),
  );
  const unavailable = makeUnavailableGuard(availability);
  // The API's routes a page of another origin may call; not the HTML pages people open (/respond,
  // the IDE) nor /health, /ready and /metrics.
  const cors = makeCors({
    origins: config.http.corsOrigins,
    routes: [
      { path: GRAPHQL_PATH, methods: GRAPHQL_METHODS },
      { path: GRAPHQL_SSE_PATH, methods: GRAPHQL_METHODS },
      { path: "/auth/", methods: ["GET"] },
    ],
  });
  const openDataCors = makeCors(OPEN_DATA_CORS);
  const authenticateStream = (authorization: string | undefined) =>
    authenticateOrUnavailable(authenticate, authorization);
  const handleSse = makeGraphqlSseHandler({
    serv,
    authenticate: authenticateStream,
    guard: (auth, body) => guard.guardOperation(auth, body, "sse"),
    guardReservation: requireApiToken,
  });
  /** A repeated public read from the response cache (lib/http/response-cache/answers.ts), anything else by grafserv. */
  const answerBeforeGrafserv = async (req: IncomingMessage, res: ServerResponse) => {
    let body: Buffer | undefined;
    try {
      body = req.method === "POST" ? await prereadBody(req, MAX_GRAPHQL_BODY_BYTES) : undefined;
    } catch {
      res.destroy(); // the client went away while sending its body: nobody to answer
      return;
    }
    if (!(await cachedAnswers.answerBeforeGrafserv(req, res, body))) void handleGraphql(req, res, () => app(req, res));
  };
  // grafserv's WebSocket server, each shared subscription result serialised once (lib/http/graphql-ws-server.ts).
  const handleUpgrade = serv.resolvedPreset.grafserv?.websockets ? makeGraphqlWsUpgradeHandler(serv) : null;
  // Open WebSockets and event streams, closed when the service stops.
  const streams = new Set<Socket>();
  const holdStream = (socket: Socket) => {
    streams.add(socket);
    socket.once("close", () => streams.delete(socket));
  };
  return {
    handle(req, res) {
      // CORS first: its headers go on every answer below (429 and 503 included), and a preflight
      // costs no budget (a browser that got 429 to one could not read the Retry-After).
      if (cors(req, res) || openDataCors(req, res) || overBudget(req, res) || unavailable(req, res)) return;
      if (isGraphqlSseRequest(req)) {
        holdStream(req.socket);
        void handleSse(req, res);
        return;
      }
      const isGraphqlPath = req.url?.split("?")[0] === GRAPHQL_PATH;
      if (isGraphqlPath && req.method !== "GET" && req.method !== "POST") {
        refuseMethod(req, res, [...GRAPHQL_METHODS, "OPTIONS"], WRONG_METHOD);
        return;
      }
      // Authenticated once, here, as the request arrives (while its body is read); the cache and
      // grafserv's API-token rule read the result (lib/auth/context.ts).
      if (isGraphqlPath) void authenticateOnce(req, authenticate);
      if (isGraphqlPath && responseCache.active) {
        void answerBeforeGrafserv(req, res);
        return;
      }
      void handleGraphql(req, res, () => app(req, res));
    },
    upgrade(req, socket, head) {
      if (!handleUpgrade || !serv.shouldHandleUpgrade(req, socket, head)) {
        socket.destroy();
        return;
      }
      if (!availability.isUp) {
        socket.end(
          `HTTP/1.1 503 Service Unavailable\r\nRetry-After: ${RETRY_AFTER_SECONDS}\r\nConnection: close\r\n\r\n`,
        );
        return;
      }
      holdStream(socket);
      handleUpgrade(req, socket, head);
    },
    closeStreams() {
      for (const socket of streams) socket.destroy();
    },
    subscriptions,
    currentSchema: () => serv.getSchema(),
    ready: async () => {
      await serv.ready();
      // grafserv's ready() does not wait for the schema; the API-token guard learns from it which
      // Query fields need no API token (plugins/require-api-token.ts), so a request served before
      // would be refused (401) for webPushPublicKey or monitorPreview.
      guard.learnUserTokenFields(userTokenFieldsOf(await pgl.getSchema()));
    },
    async stop() {
      await rateLimiter.stop();
      await pgl.release();
      pgSubscriber.release();
      await responseCache.stop();
      await apiTokens.stop();
    },
  };
}
