// The POST most channel types make: through the outbound guard, with a deadline and a cap on the
// answer read, and any status outside 2xx a DeliveryError with that status, permanent where the
// receiver's documentation says a retry cannot help.
import { outboundRequest } from "../../http/outbound.ts";
import { DeliveryError } from "../notification.ts";

const TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * The usual reading of an HTTP API's refusal: a 4xx says the request or its credentials are wrong,
 * which a retry does not change, except 408 (timeout) and 429 (rate limit); 5xx are retried.
 */
export function refusedForGood(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

export async function postExpectingSuccess(
  url: string,
  headers: Record<string, string>,
  body: string | Buffer,
  publicOnly: boolean,
  /** Whether a status outside 2xx is final; by default every one is retried. */
  permanent: (status: number) => boolean = () => false,
  /**
   * Whether a status says the target is gone for good (a deleted Discord or Slack webhook, a
   * push subscription that expired): the channel is then disabled (DeliveryError.disablesChannel).
   */
  gone: (status: number) => boolean = () => false,
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
      // A burst sends many to the same receiver or push service.
      keepAlive: true,
    });
  } catch (error) {
    throw new DeliveryError((error as Error).message);
  }
  if (result.status < 200 || result.status >= 300) {
    const answer = `HTTP ${result.status}: ${result.body.toString("utf8").slice(0, 200)}`;
    if (gone(result.status))
      throw new DeliveryError(
        `${answer} (the target is gone; the channel is disabled)`,
        result.status,
        true,
        null,
        true,
      );
    throw new DeliveryError(answer, result.status, permanent(result.status));
  }
  return { responseCode: result.status, reply: null };
}
