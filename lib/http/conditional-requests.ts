// If-None-Match as RFC 9110 (13.1.2) has the origin server evaluate it: the condition fails (answer
// 304 to a GET or HEAD) when the header is "*" or lists the current entity tag, compared weakly
// (W/ ignored). express's freshness check (the `fresh` package) is not used for this: it answers
// 200 to every request that also carries Cache-Control: no-cache, which Fetch-based clients,
// Node's fetch among them, add to every conditional request; that directive is for caches on the
// way, not for the origin.
function opaque(tag: string): string {
  return tag.startsWith("W/") ? tag.slice(2) : tag;
}

/** True when a GET with this If-None-Match header should be answered 304 Not Modified. */
export function ifNoneMatchFails(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  // Entity tags are quoted and may hold commas only inside quotes.
  const tags = header.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((tag) => opaque(tag) === opaque(etag));
}
