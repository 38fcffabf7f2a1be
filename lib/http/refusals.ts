// Answers given before GraphQL runs, in the shape of a GraphQL error so that a client reads them as
// it reads any other: { errors: [{ message, extensions: { code } }] }, counted in the error metric.
import type { IncomingMessage, ServerResponse } from "node:http";
import { graphqlErrors } from "../ops/metrics.ts";

export const METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED";
export const PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE";

/** Ends the response with `status` and one error coded `code`. */
export function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  code: string,
  headers: Record<string, string> = {},
  withBody = true,
): void {
  graphqlErrors.inc({ code });
  const body = JSON.stringify({ errors: [{ message, extensions: { code } }] });
  const length = Buffer.byteLength(body);
  res.writeHead(status, { ...headers, "content-type": "application/json; charset=utf-8", "content-length": length });
  res.end(withBody ? body : undefined);
}

/**
 * A method the route does not serve: 405 with the Allow header RFC 9110 asks for and
 * METHOD_NOT_ALLOWED (grafserv answers any method it does not know as a GraphQL error without a
 * code or Allow). `allow` lists the route's methods; `hint` tells the client what to send.
 */
export function refuseMethod(req: IncomingMessage, res: ServerResponse, allow: readonly string[], hint: string): void {
  const method = req.method ?? "GET";
  const message = `${method} is not allowed here: ${hint}`;
  refuse(res, 405, message, METHOD_NOT_ALLOWED, { allow: allow.join(", ") }, method !== "HEAD");
}
