// The base map: MapLibre GL JS over the Netherlands. Without a configured style (MAP_STYLE_URL) it
// draws the shipped province and safety-region boundaries as its own style, so the page works with
// no internet and in the tests; that style has no glyphs or sprites, so it has no text layers (the
// page's labels are HTML). With a style URL, that style is the base and the same boundary sources
// are added on top, its attribution shown by MapLibre's AttributionControl. The colours follow the
// system's light or dark preference, also when it changes while the page is open.
import type { FeatureCollection } from "geojson";
import { Map as MapLibreMap, NavigationControl, type StyleSpecification } from "maplibre-gl";
import "maplibre-gl/dist/maplibre-gl.css";
import { baseColours } from "./colours.ts";

/** The country with a little sea around it. */
export const NETHERLANDS: [[number, number], [number, number]] = [
  [3.2, 50.7],
  [7.3, 53.6],
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

const darkQuery = () => matchMedia("(prefers-color-scheme: dark)");

/** The boundary sources (features keyed by province code and region number, for feature state) and their lines. */
function addBoundaries(map: MapLibreMap, boundaries: Boundaries, offline: boolean): void {
  const colours = baseColours(darkQuery().matches);
  map.addSource("provinces", { type: "geojson", data: boundaries.provinces, promoteId: "code" });
  map.addSource("regions", { type: "geojson", data: boundaries.regions, promoteId: "number" });
  if (offline) {
    // No antialiased outline (a draw and a shader program fewer): the boundary lines are drawn over it.
    map.addLayer({
      id: "land",
      type: "fill",
      source: "provinces",
      paint: { "fill-color": colours.land, "fill-antialias": false },
    });
  }
  map.addLayer({
    id: "region-lines",
    type: "line",
    source: "regions",
    paint: { "line-color": colours.regionLine, "line-width": 0.8 },
  });
  map.addLayer({
    id: "province-lines",
    type: "line",
    source: "provinces",
    paint: { "line-color": colours.provinceLine, "line-width": 1.2 },
  });
}

function offlineStyle(): StyleSpecification {
  return {
    version: 8,
    sources: {},
    layers: [
      {
        id: "background",
        type: "background",
        paint: { "background-color": baseColours(darkQuery().matches).background },
      },
    ],
  };
}

function followColourScheme(map: MapLibreMap, offline: boolean): () => void {
  const query = darkQuery();
  const apply = () => {
    const colours = baseColours(query.matches);
    if (offline) {
      map.setPaintProperty("background", "background-color", colours.background);
      map.setPaintProperty("land", "fill-color", colours.land);
    }
    map.setPaintProperty("region-lines", "line-color", colours.regionLine);
    map.setPaintProperty("province-lines", "line-color", colours.provinceLine);
  };
  query.addEventListener("change", apply);
  return () => query.removeEventListener("change", apply);
}

export interface BaseMap {
  map: MapLibreMap;
  /** Resolves once the style and the boundaries are on the map, so layers can be added. */
  ready: Promise<void>;
  remove(): void;
}

/**
 * The map starts at once: MapLibre's worker (its own 500 KB script to compile) and the style load
 * while the boundaries, and the screen's data, are still on their way.
 */
export function createBaseMap(
  container: HTMLElement,
  boundaries: Promise<Boundaries>,
  styleUrl: string | null,
  label: string,
): BaseMap {
  const offline = styleUrl === null;
  const map = new MapLibreMap({
    container,
    style: styleUrl ?? offlineStyle(),
    bounds: NETHERLANDS,
    fitBoundsOptions: { padding: 8 },
    // The offline style has no attribution of its own; a configured style's is shown compact.
    attributionControl: { compact: true },
    dragRotate: false,
    pitchWithRotate: false,
  });
  // The canvas is keyboard reachable (arrows pan, +/- zoom); its name says what it shows.
  map.getCanvas().setAttribute("aria-label", label);
  map.touchZoomRotate.disableRotation();
  map.addControl(new NavigationControl({ showCompass: false }), "top-right");
  // Whether the map has drawn everything it was given (MapLibre's idle): people see a settled map,
  // and the browser tests wait for it before they look at its pixels.
  map.on("idle", () => (container.dataset.idle = "true"));
  map.on("dataloading", () => (container.dataset.idle = "false"));
  let stopFollowing = () => {};
  // The style is in (style.load, before anything is drawn): sources and layers can be added.
  const styleLoaded = new Promise<void>((resolve) => map.once("style.load", () => resolve()));
  const ready = Promise.all([boundaries, styleLoaded]).then(([loaded]) => {
    addBoundaries(map, loaded, offline);
    stopFollowing = followColourScheme(map, offline);
  });
  return {
    map,
    ready,
    remove: () => {
      stopFollowing();
      map.remove();
    },
  };
}
