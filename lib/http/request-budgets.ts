// Every HTTP request spends from two budgets a minute: its client address's and, when it carries
// an API token, that token's, except the web-client credential's (lib/auth/web-client-token.ts):
// every visitor's page shares that one, so its requests spend their addresses' budgets only. A request over either budget is answered here, before any routing,
// authentication or SQL: HTTP 429 with Retry-After and a GraphQL-shaped body whose
// extensions.code is RATE_LIMITED. The token's bucket is named by the token's hash (as stored),
// so no lookup is needed to count it; tokens that are not even well formed count for the address
// only. Counting is shared by all instances (lib/http/rate-limiter.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { hashApiTokenSecret, isWellFormedApiTokenSecret } from "../auth/api-tokens.ts";
import { bearerValue } from "../auth/context.ts";
import { graphqlErrors } from "../ops/metrics.ts";
import { clientAddress } from "./client-address.ts";
import type { RateLimiter } from "./rate-limiter.ts";

export interface RequestBudgets {
  /** Requests a minute per API token. */
  perToken: number;
  /** Requests a minute per client address. */
  perAddress: number;
  /** Take the client address from X-Forwarded-For (set by the operator's own proxy). */
  trustProxy: boolean;
}

/**
 * Returns true when it answered the request (429); false when the request may go on.
 * `isWebClient` tells the web-client credential's secret (no token budget) without a round trip.
 */
export function makeRequestBudgetGuard(
  limiter: RateLimiter,
  budgets: RequestBudgets,
  isWebClient: (bearer: string) => boolean = () => false,
) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const address = limiter.take(`api:address:${clientAddress(req, budgets.trustProxy)}`, budgets.perAddress);
    if (!address.allowed)
      return refuse(
        res,
        address.retryAfterSeconds,
        `this address's budget of ${budgets.perAddress} requests a minute is spent`,
      );
    const bearer = bearerValue(req.headers.authorization);
    if (bearer && isWellFormedApiTokenSecret(bearer) && !isWebClient(bearer)) {
      const token = limiter.take(`api:token:${hashApiTokenSecret(bearer).toString("hex")}`, budgets.perToken);
      if (!token.allowed)
        return refuse(
          res,
          token.retryAfterSeconds,
          `this API token's budget of ${budgets.perToken} requests a minute is spent`,
        );
    }
    return false;
  };
}

function refuse(res: ServerResponse, retryAfterSeconds: number, why: string): true {
  graphqlErrors.inc({ code: "RATE_LIMITED" });
  const body = JSON.stringify({
    errors: [
      {
        message: `Too many requests: ${why}; retry in ${retryAfterSeconds} s.`,
        extensions: { code: "RATE_LIMITED", retryAfter: retryAfterSeconds },
      },
    ],
  });
  res.writeHead(429, {
    "content-type": "application/json; charset=utf-8",
    "retry-after": String(retryAfterSeconds),
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
  return true;
}
