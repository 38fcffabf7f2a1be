// While the database does not answer (lib/db/availability.ts), GraphQL requests get HTTP 503 at
// once, with Retry-After and a GraphQL error whose extensions.code is SERVICE_UNAVAILABLE, rather
// than each holding a socket until its connection attempt fails. Other routes (the IDE, health
// endpoints) are left to answer as they can.
import type { IncomingMessage, ServerResponse } from "node:http";
import { RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE, type DatabaseAvailability } from "../db/availability.ts";
import { graphqlErrors } from "../ops/metrics.ts";

const BODY = JSON.stringify({
  errors: [
    {
      message: SERVICE_UNAVAILABLE.message,
      extensions: { code: SERVICE_UNAVAILABLE.code, retryAfter: RETRY_AFTER_SECONDS },
    },
  ],
});

/** Returns true when it answered the request (503); false when the request may go on. */
export function makeUnavailableGuard(availability: DatabaseAvailability) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (availability.isUp || !req.url?.startsWith("/graphql")) return false;
    graphqlErrors.inc({ code: SERVICE_UNAVAILABLE.code });
    res.writeHead(503, {
      "content-type": "application/json; charset=utf-8",
      "retry-after": String(RETRY_AFTER_SECONDS),
      "content-length": Buffer.byteLength(BODY),
    });
    res.end(BODY);
    return true;
  };
}
