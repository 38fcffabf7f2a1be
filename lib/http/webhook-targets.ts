// Checking a user-named URL's host when it is saved (createChannel, through
// lib/monitors/channel-targets.ts, which checks the URL's shape), so a bad target is a clear
// BAD_USER_INPUT at once rather than a failed delivery later. This is a courtesy, not the guard:
// names can resolve differently at send time, so every request itself goes through
// lib/http/outbound.ts, which checks the address it connects to. WEBHOOK_ALLOW_PRIVATE_TARGETS=true
// lifts the rule for local development.
import { userError } from "../graphql/errors.ts";
import { hostOf, RefusedTarget, resolveTarget } from "./outbound.ts";

/**
 * Resolves a URL's host and refuses it, as a BAD_USER_INPUT, when it does not resolve or any of
 * its addresses is private, loopback or link-local (`what` names the URL in the message).
 */
export async function assertPublicHost(url: URL, what: string): Promise<void> {
  const host = hostOf(url);
  try {
    await resolveTarget(host, { publicOnly: true, what });
  } catch (error) {
    if (error instanceof RefusedTarget) throw userError(error.message, "BAD_USER_INPUT");
    throw userError(`${what} ${host} does not resolve.`, "BAD_USER_INPUT");
  }
}
