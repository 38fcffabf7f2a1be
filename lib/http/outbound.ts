// Every outbound request the service makes on a user's behalf (webhooks, SMS and Telegram
// providers, RSS feeds, and any new channel: ntfy, Discord, MQTT brokers, …) goes through this one
// guard. A user-named URL must reach a public internet host: one that names or resolves to a
// private, loopback, link-local or otherwise special address would let anyone with an account make
// the server call into its own network. The address is checked where the connection gets it: the
// socket's own DNS lookup (`targetLookup`) resolves the name once, refuses it when any answer is
// private, and hands the socket exactly the addresses it checked. Checking first and letting the
// client resolve again would leave a DNS-rebinding gap (a name that answers a public address to the
// check and 127.0.0.1 to the connection). Clients that are not HTTP (an MQTT broker over TCP, TLS or
// WebSocket) take `resolveTargetAddress`'s one checked address and connect to it, with the name as
// TLS servername. `publicOnly: false` (WEBHOOK_ALLOW_PRIVATE_TARGETS, and the service's own
// upstream feeds) skips the check but not the single resolution.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";

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
  // (IPv4-mapped addresses, ::ffff:a.b.c.d, are checked as the IPv4 address they carry: BlockList
  // matches IPv4 rules against them, in either spelling, ::ffff:7f00:1 too.)
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

/** Private, loopback, link-local, CGNAT, multicast, documentation and other special ranges. */
export function isPrivateAddress(address: string): boolean {
  return blocked.check(address, net.isIPv6(address) ? "ipv6" : "ipv4");
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * Where names become addresses and which addresses are off limits. The system's is the default;
 * tests pass their own to play a rebinding DNS server (answers that change between two lookups)
 * without any network, and to let a second loopback address stand in for a public host, so that
 * every connection a test makes stays on this machine.
 */
export interface AddressGuard {
  resolve(host: string): Promise<ResolvedAddress[]>;
  isPrivate(address: string): boolean;
}

export const systemAddressGuard: AddressGuard = {
  resolve: (host) => dns.promises.lookup(host, { all: true }),
  isPrivate: isPrivateAddress,
};

export interface TargetOptions {
  /** Refuse private, loopback and link-local addresses (a user-named target). */
  publicOnly: boolean;
  /** Names the target in a refusal: "Webhook target", "Feed", "MQTT broker"; default "Target". */
  what?: string;
  guard?: AddressGuard;
}

/** A target refused for its address; the message is fit for a user and for the delivery log. */
export class RefusedTarget extends Error {
  constructor(what: string, host: string, address: string) {
    super(`${what} ${host} is a private, loopback or link-local address (${address}); only public hosts are allowed.`);
    this.name = "RefusedTarget";
  }
}

/** A URL's host without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

function check(host: string, addresses: ResolvedAddress[], options: TargetOptions): ResolvedAddress[] {
  if (options.publicOnly) {
    const isPrivate = (options.guard ?? systemAddressGuard).isPrivate;
    const bad = addresses.find((a) => isPrivate(a.address));
    if (bad) throw new RefusedTarget(options.what ?? "Target", host, bad.address);
  }
  return addresses;
}

/**
 * Every address of a host (an IP literal stands for itself), each checked; refused when any is
 * private. DNS errors pass through as they are (ENOTFOUND …).
 */
export async function resolveTarget(host: string, options: TargetOptions): Promise<ResolvedAddress[]> {
  const family = net.isIP(host);
  const addresses = family ? [{ address: host, family }] : await (options.guard ?? systemAddressGuard).resolve(host);
  if (addresses.length === 0) throw Object.assign(new Error(`${host} has no address.`), { code: "ENOTFOUND" });
  return check(host, addresses, options);
}

/**
 * One checked address for a client that is not HTTP (MQTT over TCP, TLS or WebSocket): connect to
 * this address, with `host` as the TLS servername (and the WebSocket's Host header), and never let
 * the client resolve `host` itself.
 */
export async function resolveTargetAddress(host: string, options: TargetOptions): Promise<ResolvedAddress> {
  return (await resolveTarget(host, options))[0];
}

/**
 * A `lookup` for net/tls/http(s)/ws clients: the socket connects to exactly the addresses this
 * resolved and checked. (Sockets skip `lookup` for IP literals: check those with `resolveTarget`.)
 */
export function targetLookup(options: TargetOptions): net.LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const wanted = (lookupOptions as dns.LookupOptions).family;
    resolveTarget(hostname, options)
      .then((all) => {
        const addresses = wanted === 4 || wanted === 6 ? all.filter((a) => a.family === wanted) : all;
        if (addresses.length === 0)
          throw Object.assign(new Error(`${hostname} has no IPv${wanted} address.`), { code: "ENOTFOUND" });
        if ((lookupOptions as dns.LookupOptions).all) (callback as any)(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, "", 0));
  };
}

export interface OutboundRequestOptions extends TargetOptions {
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** One deadline for the whole exchange, connection to last byte. */
  timeoutMs: number;
  /** The answer's body is read up to this many bytes. */
  maxResponseBytes: number;
  /**
   * Over a kept-alive connection of the target's pool (`keptAliveAgent`), for requests that come
   * in bursts (deliveries); else a fresh connection, whose lookup sees the name's answer of now.
   */
  keepAlive?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /**
   * Why the body is incomplete: larger than maxResponseBytes, still coming at the deadline, or the
   * connection cut before its end (a caller that needs the whole body refuses these).
   */
  truncated: null | "size" | "deadline" | "cut";
}

/** How many connections to one host:port a process keeps open at most (more requests wait). */
export const SOCKETS_PER_HOST = 64;
/** An idle kept-alive connection is closed after this long. */
const IDLE_SOCKET_MS = 15_000;

/**
 * Kept-alive connections (a burst of deliveries to one push service or receiver reuses them rather
 * than opening one a request), in one pool per protocol, check (publicOnly) and address guard. A
 * pooled socket was connected to an address that its own lookup (`targetLookup`, the request's)
 * resolved and checked under the same rules, and a pool hands it only to requests for the same
 * host and port: reusing it carries a check made for that target, never one made under laxer rules
 * or none.
 */
const keptAlive = new WeakMap<AddressGuard, Map<string, http.Agent>>();

function keptAliveAgent(protocol: string, options: TargetOptions): http.Agent {
  const guard = options.guard ?? systemAddressGuard;
  let pools = keptAlive.get(guard);
  if (!pools) keptAlive.set(guard, (pools = new Map()));
  const key = `${protocol}${options.publicOnly ? "public" : "any"}`;
  let agent = pools.get(key);
  if (!agent) {
    const settings = {
      keepAlive: true,
      maxSockets: SOCKETS_PER_HOST,
      timeout: IDLE_SOCKET_MS,
      scheduling: "lifo" as const,
    };
    agent = protocol === "https:" ? new https.Agent(settings) : new http.Agent(settings);
    pools.set(key, agent);
  }
  return agent;
}

/**
 * One HTTP(S) request to a URL, through the guard: no redirects followed (a caller that follows
 * one sends it through here again, so each hop is checked), a fresh connection or a kept-alive one
 * (`keepAlive`), a deadline and a size cap.
 */
export function outboundRequest(target: string | URL, options: OutboundRequestOptions): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(target);
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return reject(new Error(`Only http and https URLs can be requested (${url.protocol}).`));
    const host = hostOf(url);
    try {
      // The socket skips `lookup` for an IP literal: that address is checked here.
      if (net.isIP(host)) check(host, [{ address: host, family: net.isIP(host) }], options);
    } catch (error) {
      return reject(error);
    }
    const body = options.body ?? null;
    const headers: Record<string, string | number> = { ...options.headers };
    if (body !== null) headers["content-length"] = Buffer.byteLength(body);
    const request = (url.protocol === "https:" ? https : http).request(url, {
      method: options.method ?? "GET",
      headers,
      agent: options.keepAlive ? keptAliveAgent(url.protocol, options) : false,
      lookup: targetLookup(options),
    });
    let reading: ((cut: OutboundResponse["truncated"]) => void) | null = null;
    const deadline = setTimeout(() => {
      if (reading) reading("deadline");
      request.destroy(new Error(`No answer within ${options.timeoutMs} ms.`));
    }, options.timeoutMs);
    request.on("error", (error) => {
      clearTimeout(deadline);
      if (!reading) reject(error);
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      reading = (truncated) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
          truncated,
        });
      };
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxResponseBytes) {
          chunks.push(chunk.subarray(0, chunk.length - (size - options.maxResponseBytes)));
          reading!("size");
          response.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on("end", () => reading!(null));
      response.on("error", () => reading!("cut"));
      response.on("close", () => reading!(response.complete ? null : "cut"));
    });
    request.end(body ?? undefined);
  });
}
