// A read of the open data kept in the service's response cache (lib/http/response-cache/store.ts)
// until a data_changed domain it reads announces a change, so a link many chats preview or a
// calendar many apps poll costs one query per change, not one per request.
import type { Domain } from "../graphql/cache-rules.ts";
import type { ResponseCache } from "../http/response-cache/store.ts";

/**
 * The kept value of `key` while it is current; else `read()` now, kept unless it found nothing
 * (keys a client makes up must not push out what people ask for) or a change overtook the read.
 */
export async function keptRead<T>(
  cache: ResponseCache,
  key: string,
  domains: readonly Domain[],
  read: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const kept = cache.get(key);
  if (kept) return JSON.parse(kept.body.toString()) as T;
  const snapshot = cache.snapshot(domains);
  const value = await read();
  if (value !== undefined) cache.set(key, value, domains, snapshot);
  return value;
}
