// The hosts a new channel names must be public internet hosts (unless
// WEBHOOK_ALLOW_PRIVATE_TARGETS): a webhook, Discord or Slack URL, an ntfy or Gotify server, a
// push service's endpoint, an MQTT broker. Checked here at creation, by DNS, so that a member
// hears at once that a target is refused; the delivery checks again on the address it connects
// to. The shapes of the other fields are checked by app_accounts.create_channel.
import { userError } from "../graphql/errors.ts";
import { assertPublicHost } from "../http/webhook-targets.ts";

/** The input fields of CreateChannelInput that name a target. */
export interface ChannelTargetInput {
  url?: string | null;
  serverUrl?: string | null;
  subscription?: { endpoint?: string | null } | null;
}

interface TargetRule {
  /** The input field, as the error names it. */
  field: string;
  read: (input: ChannelTargetInput) => string | null | undefined;
  protocols: string[];
  /** The protocols as the error says them. */
  kind: string;
}

const HTTP = { protocols: ["http:", "https:"], kind: "an http(s)" };
const rules: Record<string, TargetRule> = {
  webhook: { field: "url", read: (i) => i.url, ...HTTP },
  discord: { field: "url", read: (i) => i.url, ...HTTP },
  slack: { field: "url", read: (i) => i.url, ...HTTP },
  // The default (https://ntfy.sh) is the service's own choice; only a member's server is checked.
  ntfy: { field: "serverUrl", read: (i) => i.serverUrl, ...HTTP },
  gotify: { field: "serverUrl", read: (i) => i.serverUrl, ...HTTP },
  webpush: {
    field: "subscription.endpoint",
    read: (i) => i.subscription?.endpoint,
    protocols: ["https:"],
    kind: "an https",
  },
  mqtt: {
    field: "serverUrl",
    read: (i) => i.serverUrl,
    protocols: ["mqtt:", "mqtts:", "ws:", "wss:"],
    kind: "an mqtt://, mqtts://, ws:// or wss://",
  },
};

/** Refuses a channel whose target URL is malformed, carries credentials, or names a private host. */
export async function assertChannelTargets(
  type: string,
  input: ChannelTargetInput,
  allowPrivate: boolean,
): Promise<void> {
  const rule = rules[type];
  const raw = rule?.read(input)?.trim();
  // A missing target is create_channel's to refuse, with the type's own message.
  if (!rule || !raw) return;
  const malformed = () => userError(`${rule.field} must be ${rule.kind} URL for a ${type} channel.`, "BAD_USER_INPUT");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw malformed();
  }
  if (!rule.protocols.includes(url.protocol)) throw malformed();
  if (url.username || url.password) {
    const instead = type === "mqtt" ? "username and password" : type === "webhook" ? "headers" : "the token fields";
    throw userError(`${rule.field} must not contain credentials; use ${instead} instead.`, "BAD_USER_INPUT");
  }
  if (!allowPrivate)
    await assertPublicHost(url, type === "mqtt" ? "Broker" : type === "webhook" ? "Webhook target" : "Target");
}
