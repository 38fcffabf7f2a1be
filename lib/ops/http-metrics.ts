// nlis_http_requests_total: every HTTP request the server answers, counted when its response is
// finished, by route and status. Routes are a fixed set, never the path itself, so a client
// probing random URLs cannot grow the metric.
import type { IncomingMessage, ServerResponse } from "node:http";
import { httpRequests } from "./metrics.ts";

/** The route of a request path; the paths are graphile.config.ts's, service.ts's and lib/http/ops-routes.ts's. */
export function routeOf(url: string | undefined): string {
  const path = (url ?? "").split("?")[0];
  if (path === "/graphql") return "graphql";
  // The IDE's page and its static files (grafserv serves those under /ruru-static/).
  if (path === "/graphiql" || path.startsWith("/ruru-static/")) return "graphiql";
  if (path.startsWith("/auth/")) return "auth";
  if (path === "/respond") return "respond";
  if (path === "/health") return "health";
  if (path === "/ready") return "ready";
  if (path === "/metrics") return "metrics";
  return "other";
}

export function countHttpRequest(req: IncomingMessage, res: ServerResponse): void {
  const route = routeOf(req.url);
  res.once("finish", () => httpRequests.inc({ route, status: String(res.statusCode) }));
}
