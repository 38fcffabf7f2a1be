// A share page's address opened in a browser (/incidents/<id>, /traffic/<id>, /nl-alerts/<id>,
// /warnings/<id>; the service renders those pages for link previews and search engines,
// lib/open-data/share-pages/, and they load this application): the record is shown on the live
// map. A P2000 incident opens there (the map's `incident` parameter, view-state.ts; the id is its
// uuid in 22 base64url characters); the others show the map with their feed on it. The address
// becomes the map's, in place of the share page's, so Back leaves the site as it came.
import type { Screen } from "../context.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHORT_ID = /^[A-Za-z0-9_-]{22}$/;

/** The uuid a share page's id names, or null for one that names none. */
export function uuidOfShareId(id: string): string | null {
  if (UUID.test(id)) return id.toLowerCase();
  if (!SHORT_ID.test(id)) return null;
  const bytes = atob(`${id.replaceAll("-", "+").replaceAll("_", "/")}==`);
  const hex = [...bytes].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const sharedRecordScreen: Screen = (_root, context) => {
  const [, section, id] = location.pathname.split("/");
  const url = new URL("/", location.href);
  const lang = new URLSearchParams(location.search).get("lang");
  if (lang) url.searchParams.set("lang", lang);
  const incident = section === "incidents" && id ? uuidOfShareId(id) : null;
  if (incident) url.searchParams.set("incident", incident);
  // Once the shell has drawn this screen: it then draws the map's in its place.
  queueMicrotask(() => context.navigate(url.pathname + url.search, { replace: true }));
  return () => {};
};
