// The base map: Leaflet over the Netherlands, its signs drawn on canvases, over one of three
// grounds:
// - a configured MapLibre style (MAP_STYLE_URL; base-style-layer.ts, loaded only then);
// - else raster tiles (MAP_TILE_URL; by default PDOK's BRT-Achtergrondkaart, Kadaster, CC BY 4.0)
//   when the browser can reach them, with their attribution;
// - else, and whenever the tiles or the style do not load (no internet, the host down), the offline
//   map: the shipped provinces as land on the sea's colour, with the names of the places
//   (place-labels.ts), so the page works with no internet and in the tests.
// The shipped province and safety-region boundaries are drawn over each. The colours follow the
// system's light or dark preference, also when it changes while the page is open; in the dark
// the tiles are turned grey and dimmed (base-map.css). The container says which ground it shows
// (data-base-map: style, tiles or offline).
//
// Why Leaflet and not MapLibre GL for the map itself: the page draws a few hundred circles, some
// lines and 37 polygons. Leaflet draws those on a 2D canvas in milliseconds, with no worker, no
// WebGL and no shader programs to compile; MapLibre needed 1.5 to 3 s on this machine's software
// WebGL before the first incidents were painted (docs/benchmarks.md, "Web application").
import type { FeatureCollection } from "geojson";
import L from "leaflet";
import "leaflet/dist/leaflet.css";
import type { WebConfig } from "../api/config.ts";
import { t } from "../i18n.ts";
import { safeAttribution } from "./attribution.ts";
import "./base-map.css";
import { baseColours, type BaseColours } from "./colours.ts";
import { loadPlaces, PlaceLabels, type PlacePoint } from "./place-labels.ts";
import "./texts.ts";
// The shipped boundaries, served under names with their content's hash (lib/web/web-build.ts).
import provincesUrl from "../../../data/nl-provinces.geojson";
import regionsUrl from "../../../data/safety-regions.geojson";

/** The country with a little sea around it, as Leaflet's [[south, west], [north, east]]. */
export const NETHERLANDS: L.LatLngBoundsLiteral = [
  [50.7, 3.2],
  [53.6, 7.3],
];

export interface Boundaries {
  provinces: FeatureCollection;
  regions: FeatureCollection;
}

/** The boundaries' one load, shared by every map of the page (the monitor form makes two). */
let sharedLoad: Promise<Boundaries> | null = null;

/**
 * The shipped boundaries, fetched once for all the page's maps (they only read them); a failed load
 * is forgotten, so the next map asks again.
 */
export function loadBoundaries(): Promise<Boundaries> {
  const load = async (url: string) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return (await response.json()) as FeatureCollection;
  };
  sharedLoad ??= Promise.all([load(provincesUrl), load(regionsUrl)]).then(
    ([provinces, regions]) => ({ provinces, regions }),
    (error: unknown) => {
      sharedLoad = null;
      throw error;
    },
  );
  return sharedLoad;
}

/**
 * The map's panes, bottom to top; each has a canvas of its own (Leaflet's preferCanvas makes one
 * renderer per pane). Only the top one, `signs`, takes the pointer: a canvas hides the events of
 * those under it, so everything that can be clicked shares it. The rest let clicks through to the
 * map.
 */
const PANES = {
  land: 300,
  weather: 310,
  boundaries: 320,
  alerts: 330,
  labels: 335,
  tracks: 340,
  signs: 350,
} as const;

const darkQuery = () => matchMedia("(prefers-color-scheme: dark)");

export interface BaseMap {
  map: L.Map;
  /** Resolves once the boundaries are on the map; gives them, for the layers that colour them. */
  ready: Promise<Boundaries>;
  /** Called by a layer after it changed what it draws: the map is marked idle once that is painted. */
  changed(): void;
  /** Shows these bounds, now or (for a map not yet on the page) once the map has a size. */
  fit(bounds: L.LatLngBoundsExpression, options?: L.FitBoundsOptions): void;
  remove(): void;
}

/**
 * Whether the map has painted everything it was given and stands still, as `data-idle` on its
 * element: people see a settled map, and the browser tests and the bench wait for it. Leaflet
 * redraws a canvas in the next animation frame after a change; a frame asked for after the change
 * runs after that redraw. A configured style is idle when MapLibre says so, tiles when Leaflet has
 * loaded those in view (or given up on them).
 */
function idleMark(container: HTMLElement) {
  let frame = 0;
  // What keeps the map from being idle: its boundaries not yet drawn, a style or tiles loading, a move.
  const waitingFor = new Set(["boundaries"]);
  /** Not idle now; idle in the next frame when nothing is waited for. */
  const changed = () => {
    cancelAnimationFrame(frame);
    container.dataset.idle = "false";
    frame = requestAnimationFrame(() => {
      if (waitingFor.size === 0) container.dataset.idle = "true";
    });
  };
  const set = (reason: string, waiting: boolean) => {
    if (waiting) waitingFor.add(reason);
    else waitingFor.delete(reason);
    changed();
  };
  return {
    changed,
    /** Waiting for `reason` (the boundaries, the style, tiles, place names, a move) or no longer. */
    set,
    stop: () => cancelAnimationFrame(frame),
  };
}

/** Leaflet's zoom buttons are links with role button: Space presses them too, as it would a button. */
function pressedBySpace(control: L.Control): void {
  control.getContainer()?.addEventListener("keydown", (event) => {
    const target = event.target as HTMLElement;
    if (event.key !== " " || target.getAttribute("role") !== "button") return;
    event.preventDefault();
    target.click();
  });
}

/** The boundary lines, styled by the colour scheme. */
function boundaryLayers(boundaries: Boundaries) {
  const regions = L.geoJSON(boundaries.regions, { pane: "boundaries", interactive: false });
  const provinces = L.geoJSON(boundaries.provinces, { pane: "boundaries", interactive: false });
  const paint = (colours: BaseColours) => {
    regions.setStyle({ fill: false, color: colours.regionLine, weight: 0.8, opacity: 1 });
    provinces.setStyle({ fill: false, color: colours.provinceLine, weight: 1.2, opacity: 1 });
  };
  return { layers: [regions, provinces], paint };
}

/** What the service says the base map is (its /web/config.json). */
export type BaseSource = Pick<WebConfig, "mapStyleUrl" | "mapTileUrl" | "mapTileAttribution">;

export type BaseMode = "style" | "tiles" | "offline";

/** Tiles failed in a row before the offline map takes over: before any loaded, and after. */
const TILE_FAILURES_AT_FIRST = 3;
const TILE_FAILURES_LATER = 8;
/** How long the first tile may take before the offline map is drawn instead. */
const TILE_PATIENCE_MS = 15_000;

/**
 * The map starts at once (Leaflet needs no style or worker), and draws the boundaries when they
 * arrive; the screen's data is fetched meanwhile.
 */
export function createBaseMap(
  container: HTMLElement,
  boundaries: Promise<Boundaries>,
  source: BaseSource,
  label: string,
): BaseMap {
  const map = L.map(container, {
    preferCanvas: true,
    zoomControl: false,
    // Added below for the tiles and the offline map; a configured style's attribution is added by it.
    attributionControl: false,
    zoomSnap: 0.25,
    zoomDelta: 0.5,
    minZoom: 5,
    maxZoom: 18,
  });
  // The zoom, on the element (the tests read it; 7 shows the country, 12 a city, 16 its streets).
  map.on("zoomend", () => (container.dataset.zoom = String(map.getZoom())));
  // And its centre, "latitude,longitude" (the tests check that a region's choice moved the map there).
  map.on("moveend", () => {
    const centre = map.getCenter();
    container.dataset.centre = `${centre.lat.toFixed(4)},${centre.lng.toFixed(4)}`;
  });
  for (const [name, zIndex] of Object.entries(PANES)) {
    const pane = map.createPane(name);
    pane.style.zIndex = String(zIndex);
    if (name !== "signs") pane.style.pointerEvents = "none";
  }
  // Leaflet reads its element's size when made and on window resizes only. The console makes its
  // map before its form is on the page, and the page's layout changes sizes by itself: the map
  // follows its element's size, and the last bounds asked for are fitted again once it has one.
  // A fit asked for while the map had no size waits for one; once fitted, a later resize (the
  // element hidden and shown again, a screenshot's new viewport) keeps the view people moved to.
  let lastFit: [L.LatLngBoundsExpression, L.FitBoundsOptions] = [NETHERLANDS, { padding: [8, 8] }];
  let fitPending = false;
  const sized = () => container.clientWidth > 0 && container.clientHeight > 0;
  const fit = (bounds: L.LatLngBoundsExpression, options: L.FitBoundsOptions = {}) => {
    lastFit = [bounds, options];
    fitPending = !sized();
    if (!fitPending) map.fitBounds(bounds, { ...options, animate: false });
  };
  fit(...lastFit);
  const resizes = new ResizeObserver(() => {
    map.invalidateSize({ animate: false });
    if (fitPending && sized()) fit(...lastFit);
  });
  resizes.observe(container);
  const zoom = L.control.zoom({ position: "topright", zoomInTitle: t("map.zoomIn"), zoomOutTitle: t("map.zoomOut") });
  pressedBySpace(zoom.addTo(map));
  // How far is far on this map (the offline map has no streets to tell it by); top left, where a
  // long attribution on a phone does not reach.
  L.control.scale({ position: "topleft", imperial: false, maxWidth: 100 }).addTo(map);
  // The map is keyboard reachable (Leaflet's arrows pan, +/- zoom); its name says what it shows.
  container.setAttribute("role", "region");
  container.setAttribute("aria-label", label);

  const idle = idleMark(container);
  container.dataset.idle = "false";
  map.on("movestart zoomstart", () => idle.set("move", true));
  map.on("moveend zoomend", () => idle.set("move", false));

  let stopped = false;
  let colours = baseColours(darkQuery().matches);
  const attribution = L.control.attribution({ prefix: false, position: "bottomright" });
  let attributionShown = false;
  const credit = (html: string) => {
    if (!attributionShown) attribution.addTo(map);
    attributionShown = true;
    attribution.addAttribution(html);
  };
  const setMode = (mode: BaseMode) => {
    container.dataset.baseMap = mode;
  };

  // The offline map: land and place names, made when first needed (the names fetched only then).
  let offlineShown = false;
  let land: L.GeoJSON | undefined;
  let labels: PlaceLabels | undefined;
  let places: Promise<readonly PlacePoint[]> | undefined;
  const paintLand = () => land?.setStyle({ stroke: false, fillColor: colours.land, fillOpacity: 1 });
  const labelColours = () => ({ text: colours.label, halo: colours.labelHalo });
  function showOffline(): void {
    if (offlineShown || stopped) return;
    offlineShown = true;
    setMode("offline");
    credit(t("map.offlineAttribution"));
    idle.set("labels", true);
    boundaries
      .then((loaded) => {
        if (!offlineShown || stopped) return;
        land ??= L.geoJSON(loaded.provinces, { pane: "land", interactive: false });
        paintLand();
        land.addTo(map);
        idle.changed();
      })
      // Said by the screen, which waits for the boundaries too (ready).
      .catch(() => {});
    places ??= loadPlaces();
    places
      .then((list) => {
        if (!offlineShown || stopped) return;
        labels ??= new PlaceLabels(list, labelColours(), "labels", () => idle.changed());
        labels.addTo(map);
      })
      .catch((error: unknown) => console.error("The place names could not be loaded:", error))
      .finally(() => idle.set("labels", false));
  }
  function hideOffline(): void {
    if (!offlineShown) return;
    offlineShown = false;
    attribution.removeAttribution(t("map.offlineAttribution"));
    land?.remove();
    labels?.remove();
  }

  // Raster tiles while they load; the offline map once they fail (and tiles again when the browser
  // says it is back online).
  let stopTiles = () => {};
  function showTiles(url: string): void {
    hideOffline();
    setMode("tiles");
    const tileCredit = source.mapTileAttribution ? safeAttribution(source.mapTileAttribution) : "";
    if (tileCredit) credit(tileCredit);
    const tiles = L.tileLayer(url, { className: "base-tiles", maxZoom: 18 });
    let loadedOne = false;
    let failures = 0;
    let givenUp = false;
    // After Leaflet's handling of the tile in hand is done (a layer removed in its own event fails).
    const giveUp = () => {
      if (givenUp) return;
      givenUp = true;
      setTimeout(offline);
    };
    const offline = () => {
      if (stopped) return;
      stopTiles();
      console.warn("The base map's tiles did not load: the offline map is drawn instead.");
      showOffline();
      window.addEventListener("online", again);
    };
    const again = () => {
      window.removeEventListener("online", again);
      if (!stopped) showTiles(url);
    };
    const patience = setTimeout(() => {
      if (!loadedOne) giveUp();
    }, TILE_PATIENCE_MS);
    tiles.on("tileload", () => {
      loadedOne = true;
      failures = 0;
    });
    tiles.on("tileerror", () => {
      failures++;
      if (failures >= (loadedOne ? TILE_FAILURES_LATER : TILE_FAILURES_AT_FIRST)) giveUp();
    });
    tiles.on("loading", () => idle.set("tiles", true));
    tiles.on("load", () => idle.set("tiles", false));
    stopTiles = () => {
      clearTimeout(patience);
      window.removeEventListener("online", again);
      // Removed before its listeners go: Leaflet unbinds the layer from the map on its "remove".
      tiles.remove();
      tiles.off();
      if (tileCredit) attribution.removeAttribution(tileCredit);
      idle.set("tiles", false);
      stopTiles = () => {};
    };
    tiles.addTo(map);
  }

  let stopStyle = () => {};
  if (source.mapStyleUrl) {
    setMode("style");
    idle.set("style", true);
    const styleFailed = () => {
      idle.set("style", false);
      showOffline();
    };
    // Loaded only when a style is configured: MapLibre is a chunk of its own (lib/web/web-build.ts).
    void import("./base-style-layer.ts")
      .then(async ({ addStyleLayer }) => {
        stopStyle = await addStyleLayer(map, source.mapStyleUrl!, {
          onBusy: (busy) => idle.set("style", busy),
          onFailed: styleFailed,
          isStopped: () => stopped,
        });
      })
      .catch((error: unknown) => {
        // MapLibre's chunk or stylesheet did not come: the offline map instead.
        console.error("The configured base map could not be loaded:", error);
        styleFailed();
      });
  } else if (source.mapTileUrl) showTiles(source.mapTileUrl);
  else showOffline();

  // The colours follow the system's scheme: the sea (the container's background, also under the
  // tiles or a style while they load) at once, the rest once drawn.
  let paintBoundaries: ((colours: BaseColours) => void) | null = null;
  const scheme = darkQuery();
  const applyScheme = () => {
    colours = baseColours(scheme.matches);
    container.style.background = colours.background;
    paintBoundaries?.(colours);
    paintLand();
    labels?.setColours(labelColours());
    idle.changed();
  };
  applyScheme();
  scheme.addEventListener("change", applyScheme);

  const ready = boundaries.then((loaded) => {
    if (stopped) return loaded;
    const { layers, paint } = boundaryLayers(loaded);
    paintBoundaries = paint;
    applyScheme();
    for (const layer of layers) layer.addTo(map);
    idle.set("boundaries", false);
    return loaded;
  });
  return {
    map,
    ready,
    changed: () => idle.changed(),
    fit,
    remove: () => {
      stopped = true;
      resizes.disconnect();
      idle.stop();
      scheme.removeEventListener("change", applyScheme);
      stopTiles();
      stopStyle();
      map.remove();
    },
  };
}
