// A monitor's areas drawn on a map, as outlines in the circle's colour: its circle (location and
// radius), and each of query.areas that the page has an outline for: circles, drawn polygons,
// provinces and safety regions (areas.ts says why not gemeenten, woonplaatsen and postcode areas).
// The form's map of the areas (area-picker.ts) and the monitor page's small map (areaMap) both
// draw them so.
import type { Feature } from "geojson";
import L from "leaflet";
import { h } from "../../dom.ts";
import { createBaseMap, loadBoundaries, type BaseSource, type Boundaries } from "../../map/base-map.ts";
import type { Area } from "./areas.ts";
import { circleRing, CIRCLE_STYLE, type Place } from "./circle-map.ts";

/** A province's or safety region's shipped outline, by the code the API stores (province code, region number). */
function outlineOf(area: Area, boundaries: Boundaries): Feature | undefined {
  if (area.type === "province") return boundaries.provinces.features.find((f) => f.properties?.code === area.code);
  if (area.type === "region") return boundaries.regions.features.find((f) => f.properties?.number === area.code);
  return undefined;
}

function shapeOf(area: Area, boundaries: Boundaries | null): L.Polygon | L.GeoJSON | null {
  if (area.type === "circle" && area.latitude !== undefined && area.longitude !== undefined && area.radius)
    return L.polygon(circleRing({ latitude: area.latitude, longitude: area.longitude }, area.radius), CIRCLE_STYLE);
  if (area.type === "polygon" && area.coordinates?.[0])
    return L.polygon(
      area.coordinates[0].map(([longitude, latitude]): L.LatLngTuple => [latitude, longitude]),
      CIRCLE_STYLE,
    );
  const outline = boundaries ? outlineOf(area, boundaries) : undefined;
  return outline
    ? L.geoJSON(outline, { pane: CIRCLE_STYLE.pane, interactive: false, style: () => CIRCLE_STYLE })
    : null;
}

/**
 * Draws the areas into `group`, instead of what it held; the provinces and safety regions once
 * `boundaries` are there. Answers the bounds of what it drew (null: nothing).
 */
export function drawAreas(group: L.LayerGroup, areas: Area[], boundaries: Boundaries | null): L.LatLngBounds | null {
  group.clearLayers();
  const bounds = L.latLngBounds([]);
  for (const area of areas) {
    const shape = shapeOf(area, boundaries);
    if (!shape) continue;
    shape.addTo(group);
    bounds.extend(shape.getBounds());
  }
  return bounds.isValid() ? bounds : null;
}

/**
 * A monitor's circle and areas on a small map, to look at (the monitor's page): drawn, and the map
 * zoomed to all of them (again once the provinces' and regions' outlines have come).
 */
export function areaMap(
  source: BaseSource,
  shown: { centre: Place | null; radiusKm: number; areas: Area[] },
  label: string,
): { element: HTMLElement; remove(): void } {
  const element = h("div", { class: "map monitor-map monitor-area-map", id: "monitor-area-map" });
  const base = createBaseMap(element, loadBoundaries(), source, label);
  const group = L.layerGroup().addTo(base.map);
  const all: Area[] = shown.centre
    ? [{ type: "circle", ...shown.centre, radius: Math.max(shown.radiusKm, 0.1) }, ...shown.areas]
    : shown.areas;
  let removed = false;
  const draw = (boundaries: Boundaries | null) => {
    if (removed) return;
    const bounds = drawAreas(group, all, boundaries);
    // Wider on the right, where the zoom buttons are: an area at the edge is not under them.
    if (bounds) base.fit(bounds, { paddingTopLeft: [28, 28], paddingBottomRight: [64, 28] });
    base.changed();
  };
  draw(null);
  void base.ready.then(draw, () => undefined);
  return {
    element,
    remove: () => {
      removed = true;
      base.remove();
    },
  };
}
