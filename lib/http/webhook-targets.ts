// Webhook targets must be public internet hosts: a URL that names or resolves to a private,
// loopback, link-local or otherwise special address would let anyone with an account make the
// server call into its own network. Checked when a channel is created, and again at send time
// on the address the connection actually uses (the lookup below), so DNS rebinding cannot slip
// past. WEBHOOK_ALLOW_PRIVATE_TARGETS=true lifts the rule for local development.
import dns from "node:dns";
import net from "node:net";
import { userError } from "../graphql/errors.ts";

const blocked = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  // (IPv4-mapped addresses, ::ffff:a.b.c.d, are checked as the IPv4 address they carry.)
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(network, prefix, "ipv6");

export function isPrivateAddress(address: string): boolean {
  const family = net.isIPv6(address) ? "ipv6" : "ipv4";
  if (family === "ipv6" && address.toLowerCase().startsWith("::ffff:") && net.isIPv4(address.slice(7))) {
    return blocked.check(address.slice(7), "ipv4");
  }
  return blocked.check(address, family);
}

function refused(host: string, address: string, what = "Webhook target") {
  return userError(
    `${what} ${host} is a private, loopback or link-local address (${address}); only public hosts are allowed.`,
    "BAD_USER_INPUT",
  );
}

/** Parses and checks a webhook URL; resolves its host name and checks every address. */
export async function assertPublicWebhookTarget(raw: string, allowPrivate: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw userError("url must be an http(s) URL for a webhook channel.", "BAD_USER_INPUT");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw userError("url must be an http(s) URL for a webhook channel.", "BAD_USER_INPUT");
  }
  if (url.username || url.password) {
    throw userError("url must not contain credentials; use headers instead.", "BAD_USER_INPUT");
  }
  if (!allowPrivate) await assertPublicHost(url, "Webhook target");
}

/**
 * Resolves a URL's host and refuses it when any of its addresses is private, loopback or
 * link-local (`what` names the URL in the message: "Webhook target", "Feed").
 */
export async function assertPublicHost(url: URL, what: string): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw userError(`${what} ${host} does not resolve.`, "BAD_USER_INPUT");
  }
  const bad = addresses.find(isPrivateAddress);
  if (bad) throw refused(host, bad, what);
}

/**
 * A `lookup` for http.request that refuses private addresses: the check applies to the address
 * the socket connects to.
 */
export function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as unknown as dns.LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (bad) return callback(refused(hostname, bad.address) as NodeJS.ErrnoException, "", 0);
      if ((options as dns.LookupOptions).all) return (callback as any)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
