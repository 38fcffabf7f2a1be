// The address a request comes from: the socket's peer, or, behind the operator's own proxy
// (TRUST_PROXY), the first address of X-Forwarded-For. The request budgets count by it, and so do
// the web-client credential's subscriptions (plugins/subscription-guard.ts).
import type { IncomingMessage } from "node:http";

export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers["x-forwarded-for"] : undefined;
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
  return first || req.socket.remoteAddress || "unknown";
}
