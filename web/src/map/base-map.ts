// The base map: Leaflet over the Netherlands, its signs drawn on canvases. Without a configured
// style (MAP_STYLE_URL) it draws the shipped province and safety-region boundaries on the sea's
// colour, so the page works with no internet and in the tests. With a style URL, that MapLibre
// style is drawn under them (base-style-layer.ts, loaded only then) and its attribution is shown.
// The colours follow the system's light or dark preference, also when it changes while the page is
// open.
//
// Why Leaflet and not MapLibre GL for the map itself: the page draws a few hundred circles, some
// lines and 37 polygons. Leaflet draws those on a 2D canvas in milliseconds, with no worker, no
// WebGL and no shader programs to compile; MapLibre needed 1.5 to 3 s on this machine's software
// WebGL before the first incidents were painted (docs/benchmarks.md, "Web application").
import type { FeatureCollection } from "geojson";
import L from "leaflet";
import "leaflet/dist/leaflet.css";
import { t } from "../i18n.ts";
import { baseColours, type BaseColours } from "./colours.ts";
import "./texts.ts";

/** The country with a little sea around it, as Leaflet's [[south, west], [north, east]]. */
const NETHERLANDS: L.LatLngBoundsLiteral = [
  [50.7, 3.2],
  [53.6, 7.3],
];

export interface Boundaries {
  provinces: FeatureCollection;
  regions: FeatureCollection;
}

export async function loadBoundaries(): Promise<Boundaries> {
  const load = async (file: string) => {
    const response = await fetch(`/web/${file}`);
    if (!response.ok) throw new Error(`/web/${file}: ${response.status}`);
    return (await response.json()) as FeatureCollection;
  };
  const [provinces, regions] = await Promise.all([load("nl-provinces.geojson"), load("safety-regions.geojson")]);
  return { provinces, regions };
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
 * runs after that redraw. A configured style is idle when MapLibre says so.
 */
function idleMark(container: HTMLElement) {
  let frame = 0;
  // What keeps the map from being idle: its boundaries not yet drawn, a style loading, a move.
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
    boundariesDrawn: () => set("boundaries", false),
    style: (loading: boolean) => set("style", loading),
    moving: (now: boolean) => set("move", now),
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

/** The boundary layers (the land too without a style), styled by the colour scheme. */
function boundaryLayers(boundaries: Boundaries, offline: boolean) {
  const land = offline ? L.geoJSON(boundaries.provinces, { pane: "land", interactive: false }) : null;
  const regions = L.geoJSON(boundaries.regions, { pane: "boundaries", interactive: false });
  const provinces = L.geoJSON(boundaries.provinces, { pane: "boundaries", interactive: false });
  const paint = (colours: BaseColours) => {
    land?.setStyle({ stroke: false, fillColor: colours.land, fillOpacity: 1 });
    regions.setStyle({ fill: false, color: colours.regionLine, weight: 0.8, opacity: 1 });
    provinces.setStyle({ fill: false, color: colours.provinceLine, weight: 1.2, opacity: 1 });
  };
  return { layers: land ? [land, regions, provinces] : [regions, provinces], paint };
}

/**
 * The map starts at once (Leaflet needs no style or worker), and draws the boundaries when they
 * arrive; the screen's data is fetched meanwhile.
 */
export function createBaseMap(
  container: HTMLElement,
  boundaries: Promise<Boundaries>,
  styleUrl: string | null,
  label: string,
): BaseMap {
  const offline = styleUrl === null;
  const map = L.map(container, {
    preferCanvas: true,
    zoomControl: false,
    // The offline map has nothing to attribute; a configured style's attribution is added by it.
    attributionControl: false,
    zoomSnap: 0.25,
    zoomDelta: 0.5,
    minZoom: 5,
    maxZoom: 18,
  });
  for (const [name, zIndex] of Object.entries(PANES)) {
    const pane = map.createPane(name);
    pane.style.zIndex = String(zIndex);
    if (name !== "signs") pane.style.pointerEvents = "none";
  }
  // Leaflet reads its element's size when made and on window resizes only. The console makes its
  // map before its form is on the page, and the page's layout changes sizes by itself: the map
  // follows its element's size, and the last bounds asked for are fitted again once it has one.
  let lastFit: [L.LatLngBoundsExpression, L.FitBoundsOptions] = [NETHERLANDS, { padding: [8, 8] }];
  const sized = () => container.clientWidth > 0 && container.clientHeight > 0;
  const fit = (bounds: L.LatLngBoundsExpression, options: L.FitBoundsOptions = {}) => {
    lastFit = [bounds, options];
    if (sized()) map.fitBounds(bounds, { ...options, animate: false });
  };
  fit(...lastFit);
  let wasSized = sized();
  const resizes = new ResizeObserver(() => {
    map.invalidateSize({ animate: false });
    if (!wasSized && sized()) fit(...lastFit);
    wasSized = sized();
  });
  resizes.observe(container);
  const zoom = L.control.zoom({ position: "topright", zoomInTitle: t("map.zoomIn"), zoomOutTitle: t("map.zoomOut") });
  pressedBySpace(zoom.addTo(map));
  // The map is keyboard reachable (Leaflet's arrows pan, +/- zoom); its name says what it shows.
  container.setAttribute("role", "region");
  container.setAttribute("aria-label", label);

  const idle = idleMark(container);
  container.dataset.idle = "false";
  map.on("movestart zoomstart", () => idle.moving(true));
  map.on("moveend zoomend", () => idle.moving(false));

  let stopped = false;
  let stopStyle = () => {};
  if (styleUrl) {
    idle.style(true);
    // Loaded only when a style is configured: MapLibre is a chunk of its own (lib/web/web-build.ts).
    void import("./base-style-layer.ts")
      .then(async ({ addStyleLayer }) => {
        stopStyle = await addStyleLayer(map, styleUrl, {
          onBusy: (busy) => idle.style(busy),
          isStopped: () => stopped,
        });
      })
      .catch((error: unknown) => {
        // MapLibre's chunk or stylesheet did not come: the boundaries are drawn without the style.
        console.error("The configured base map could not be loaded:", error);
        idle.style(false);
      });
  }

  // The colours follow the system's scheme: the sea (the container's background, also under a
  // configured style while it loads) at once, the boundaries once they are drawn.
  let paintBoundaries: ((colours: BaseColours) => void) | null = null;
  const scheme = darkQuery();
  const applyScheme = () => {
    const colours = baseColours(scheme.matches);
    container.style.background = colours.background;
    paintBoundaries?.(colours);
    idle.changed();
  };
  applyScheme();
  scheme.addEventListener("change", applyScheme);

  const ready = boundaries.then((loaded) => {
    if (stopped) return loaded;
    const { layers, paint } = boundaryLayers(loaded, offline);
    paintBoundaries = paint;
    applyScheme();
    for (const layer of layers) layer.addTo(map);
    idle.boundariesDrawn();
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
      stopStyle();
      map.remove();
    },
  };
}
