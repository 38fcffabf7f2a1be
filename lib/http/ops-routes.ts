// The endpoints of load balancers, orchestrators and Prometheus, answered before the rate limiter
// and grafserv (a probe must never be refused for a budget, nor wait behind GraphQL):
//   GET /health   200 while the process runs (liveness: it needs nothing else);
//   GET /ready    200 or 503 with the checks (lib/ops/readiness.ts), and the read replicas' state
//                 (numbered: their host names stay in the log and /metrics; a replica left out
//                 does not make the instance unready, the primary reads instead), and the
//                 subscriptions' slots held against the subscribers that follow a live execution
//                 (lib/graphql/subscription-slots.ts: more slots than subscribers for longer than a
//                 subscription takes to start are slots nobody will free; reported, not a check,
//                 since queries are served all the same);
//   GET /metrics  Prometheus text (lib/ops/metrics.ts), to loopback callers unless METRICS_PUBLIC.
// /health and /ready reveal only status, so they are public. /metrics names operations, tasks and
// feeds, so by default only a scraper on the same host (or a sidecar) reads it. The caller is told
// by the socket's address, never by X-Forwarded-For, which any client can write.
import { BlockList, isIP } from "node:net";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sampleDatabaseMetrics, type MetricsPools } from "../ops/database-metrics.ts";
import { registry } from "../ops/metrics.ts";
import { log } from "../ops/log.ts";
import { makeReadinessCheck, type ReadinessSources } from "../ops/readiness.ts";
import type { ReplicaStatus } from "../db/read-replicas.ts";
import type { SubscriptionCensus } from "../graphql/subscription-slots.ts";

export interface OpsRouteOptions extends Omit<ReadinessSources, "ownerPool"> {
  pools: MetricsPools;
  /** METRICS_PUBLIC: answer /metrics to callers on other hosts too. */
  metricsPublic: boolean;
  /** The read replicas (READ_REPLICA_URLS), in their order; none when unset. */
  replicaStatuses?: () => ReplicaStatus[];
  /** The API's subscriptions; none in a worker-only process. */
  subscriptions?: () => SubscriptionCensus;
}

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** Whether a socket's remote address is this host (IPv4-mapped IPv6 addresses included). */
export function isLoopback(address: string | undefined): boolean {
  const family = address ? isIP(address) : 0;
  return family !== 0 && loopback.check(address!, family === 4 ? "ipv4" : "ipv6");
}

export function mayReadMetrics(remoteAddress: string | undefined, metricsPublic: boolean): boolean {
  return metricsPublic || isLoopback(remoteAddress);
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    "content-type": contentType,
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    ...extra,
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  send(req, res, status, "application/json; charset=utf-8", JSON.stringify(body));
}

const PATHS = new Set(["/health", "/ready", "/metrics"]);

/** Returns the handler: true when it answered the request, false when the request is not its. */
export function makeOpsRoutes(options: OpsRouteOptions) {
  const readiness = makeReadinessCheck({ ...options, ownerPool: options.pools.owner });

  const answer = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (path === "/health") return sendJson(req, res, 200, { status: "ok" });
    if (path === "/ready") {
      const { ready, checks } = await readiness();
      const replicas = (options.replicaStatuses?.() ?? []).map((status, index) => ({
        replica: index + 1,
        inService: status.inService,
        lagSeconds: status.lagSeconds,
      }));
      return sendJson(req, res, ready ? 200 : 503, {
        status: ready ? "ready" : "not ready",
        checks,
        ...(replicas.length > 0 ? { replicas } : {}),
        ...(options.subscriptions ? { subscriptions: options.subscriptions() } : {}),
      });
    }
    if (!mayReadMetrics(req.socket.remoteAddress, options.metricsPublic)) {
      return send(
        req,
        res,
        403,
        "text/plain; charset=utf-8",
        "/metrics answers callers on this host only; METRICS_PUBLIC=true opens it to others.\n",
      );
    }
    await sampleDatabaseMetrics(options.pools);
    send(req, res, 200, registry.contentType, await registry.metrics());
  };

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = (req.url ?? "").split("?")[0];
    if (!PATHS.has(path)) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(req, res, 405, "text/plain; charset=utf-8", "Use GET.\n", { allow: "GET, HEAD" });
      return true;
    }
    answer(req, res, path).catch((error: unknown) => {
      log.error(`${path} failed: ${(error as Error)?.message ?? String(error)}`, { stack: (error as Error)?.stack });
      if (!res.headersSent) send(req, res, 500, "text/plain; charset=utf-8", "Internal error.\n");
      else res.destroy();
    });
    return true;
  };
}
