// The JSON POST most channel types make: through the outbound guard, with a deadline and a cap
// on the answer read, and any status outside 2xx a DeliveryError with that status.
import { outboundRequest } from "../../http/outbound.ts";
import { DeliveryError } from "../notification.ts";

const TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

export async function postExpectingSuccess(
  url: string,
  headers: Record<string, string>,
  body: string,
  publicOnly: boolean,
) {
  let result;
  try {
    result = await outboundRequest(url, {
      method: "POST",
      headers,
      body,
      timeoutMs: TIMEOUT_MS,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      publicOnly,
    });
  } catch (error) {
    throw new DeliveryError((error as Error).message);
  }
  if (result.status < 200 || result.status >= 300) {
    throw new DeliveryError(`HTTP ${result.status}: ${result.body.toString("utf8").slice(0, 200)}`, result.status);
  }
  return { responseCode: result.status, reply: null };
}
