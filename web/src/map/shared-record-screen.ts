// A share page's address opened in a browser (/incidents/<id>, /traffic/<id>, /nl-alerts/<id>,
// /warnings/<id>; the service renders those pages for link previews and search engines,
// lib/open-data/share-pages/, and they load this application): the record is shown on the live
// map. The page names the map's view of its record in its `map-view` meta tag (a P2000 incident
// opens on the map, its uuid in the map's `incident` parameter, view-state.ts; the others show the
// map with their feed on it), so the id in the address is read by the service alone. The address
// becomes the map's, in place of the share page's, so Back leaves the site as it came.
import type { Screen } from "../context.ts";

/** The map's view the share page names (a path of this origin), or the map itself. */
function mapView(): string {
  const named = document.querySelector<HTMLMetaElement>('meta[name="map-view"]')?.content;
  const url = new URL(named ?? "/", location.href);
  return url.origin === location.origin ? url.pathname + url.search : "/";
}

export const sharedRecordScreen: Screen = (_root, context) => {
  const view = mapView();
  // Once the shell has drawn this screen: it then draws the map's in its place.
  queueMicrotask(() => context.navigate(view, { replace: true }));
  return () => {};
};
