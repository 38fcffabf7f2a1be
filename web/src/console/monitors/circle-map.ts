// Where a monitor listens: an address (or street, postcode, place) typed with suggestions
// (address-search.ts), or a click on the page's base map, places the centre, and a slider (or a
// typed number) sets the radius in kilometres; the circle is drawn as a polygon of great-circle
// points. Keyboard users type the address, or pan the map with the arrow keys and press "Use the
// map's centre". The same map shows a preview's matches as points. A saved monitor's page shows
// its circle, with its areas, on a small map of its own (area-shapes.ts).
import L from "leaflet";
import { h } from "../../dom.ts";
import { formatNumber, t } from "../../i18n.ts";
import { createBaseMap, loadBoundaries, type BaseSource } from "../../map/base-map.ts";
import type { FormField } from "../form.ts";
import { addressSearch, type Suggestion } from "./address-search.ts";

/** The circle's colour and the preview's points' (also what the browser test looks for). */
const CIRCLE_COLOUR = "#0969da";
export const PREVIEW_POINT_COLOUR = "#d1242f";
const DEFAULT_RADIUS_KM = 5;
const EARTH_RADIUS_KM = 6371.0088;

export interface Place {
  latitude: number;
  longitude: number;
}

export interface CircleMap {
  element: HTMLElement;
  /** The radius as a form field: the API's messages about radius and location go under it. */
  field: FormField<HTMLInputElement>;
  /** The centre, null while none is placed. */
  place(): Place | null;
  radius(): number;
  set(place: Place | null, radiusKm: number | null): void;
  showPoints(points: Array<{ latitude: number; longitude: number; title: string | null }>): void;
  remove(): void;
}

/**
 * A circle on the earth as a ring of 64 points, Leaflet's [latitude, longitude] (great-circle
 * destinations from the centre, as the API measures a monitor's radius).
 */
export function circleRing(centre: Place, radiusKm: number): L.LatLngTuple[] {
  const lat = (centre.latitude * Math.PI) / 180;
  const lon = (centre.longitude * Math.PI) / 180;
  const angular = radiusKm / EARTH_RADIUS_KM;
  const ring: L.LatLngTuple[] = [];
  for (let step = 0; step <= 64; step++) {
    const bearing = (step / 64) * 2 * Math.PI;
    const lat2 = Math.asin(Math.sin(lat) * Math.cos(angular) + Math.cos(lat) * Math.sin(angular) * Math.cos(bearing));
    const lon2 =
      lon +
      Math.atan2(
        Math.sin(bearing) * Math.sin(angular) * Math.cos(lat),
        Math.cos(angular) - Math.sin(lat) * Math.sin(lat2),
      );
    ring.push([(lat2 * 180) / Math.PI, (lon2 * 180) / Math.PI]);
  }
  return ring;
}

/** How a monitor's circle and its areas are drawn, on the form's maps and on the monitor page's. */
export const CIRCLE_STYLE: L.PolylineOptions = {
  pane: "signs",
  interactive: false,
  color: CIRCLE_COLOUR,
  weight: 2,
  fillColor: CIRCLE_COLOUR,
  fillOpacity: 0.12,
};

export function circleMap(source: BaseSource, search: (text: string) => Promise<Suggestion[]>): CircleMap {
  let centre: Place | null = null;
  /** What the person chose the centre by (a suggestion's label), while it is still there. */
  let named: string | null = null;
  const mapElement = h("div", { class: "map monitor-map" });
  const base = createBaseMap(mapElement, loadBoundaries(), source, t("monitors.map.label"));
  const { map } = base;
  const circle = L.polygon([], CIRCLE_STYLE).addTo(map);
  const previewPoints = L.layerGroup().addTo(map);

  const radiusInput = h("input", { type: "number", id: "monitor-radius", step: "0.1", inputmode: "decimal" });
  radiusInput.value = String(DEFAULT_RADIUS_KM);
  const slider = h("input", {
    type: "range",
    id: "monitor-radius-slider",
    min: "0.5",
    max: "50",
    step: "0.5",
    "aria-label": t("monitors.map.radiusSlider"),
  });
  slider.value = String(DEFAULT_RADIUS_KM);
  const where = h("p", { class: "monitor-place", id: "monitor-place", "aria-live": "polite" });
  const error = h("p", { class: "field-error", id: "monitor-radius-error", hidden: true });
  radiusInput.setAttribute("aria-describedby", `monitor-radius-hint ${where.id} ${error.id}`);
  const useCentre = h("button", { type: "button" }, t("monitors.map.useCentre"));
  const clear = h("button", { type: "button" }, t("monitors.map.clear"));

  const radius = () => Number(radiusInput.value);
  function draw(): void {
    circle.setLatLngs(centre && radius() > 0 ? circleRing(centre, radius()) : []);
    base.changed();
    where.textContent = centre
      ? t(named ? "monitors.map.placedAt" : "monitors.map.placed")
          .replace("{name}", named ?? "")
          .replace("{lat}", centre.latitude.toFixed(5))
          .replace("{lon}", centre.longitude.toFixed(5))
          .replace("{km}", formatNumber(radius()))
      : t("monitors.map.none");
    clear.hidden = !centre;
  }

  function fit(): void {
    if (!centre) return;
    base.fit(L.latLngBounds(circleRing(centre, Math.max(radius(), 0.5))), { padding: [24, 24] });
  }

  const placeAt = (longitude: number, latitude: number, name: string | null = null) => {
    centre = { latitude: Number(latitude.toFixed(5)), longitude: Number(longitude.toFixed(5)) };
    named = name;
    if (!name) address.clear();
    draw();
  };
  const address = addressSearch({
    id: "monitor-address",
    search,
    onChoose(suggestion) {
      placeAt(suggestion.longitude, suggestion.latitude, suggestion.label);
      fit();
    },
  });
  map.on("click", (event) => placeAt(event.latlng.lng, event.latlng.lat));
  useCentre.addEventListener("click", () => {
    const { lng, lat } = map.getCenter();
    placeAt(lng, lat);
  });
  clear.addEventListener("click", () => {
    centre = null;
    named = null;
    address.clear();
    draw();
  });
  slider.addEventListener("input", () => {
    radiusInput.value = slider.value;
    draw();
  });
  radiusInput.addEventListener("input", () => {
    if (radius() > 0) slider.value = String(Math.min(radius(), 50));
    draw();
  });

  const element = h(
    "fieldset",
    { class: "field monitor-circle" },
    h("legend", {}, t("monitors.map.legend")),
    h("p", { class: "field-hint" }, t("monitors.map.how")),
    address.element,
    mapElement,
    h("div", { class: "monitor-map-actions" }, useCentre, clear),
    where,
    h(
      "div",
      { class: "monitor-radius" },
      h("label", { for: radiusInput.id }, t("monitors.map.radius")),
      h("div", { class: "monitor-radius-controls" }, slider, radiusInput, h("span", { "aria-hidden": "true" }, "km")),
    ),
    h("p", { class: "field-hint", id: "monitor-radius-hint" }, t("monitors.map.radiusHint")),
    error,
  );
  draw();

  return {
    element,
    field: {
      element,
      control: radiusInput,
      apiNames: ["radius", "location"],
      setError(message) {
        error.textContent = message ?? "";
        error.hidden = !message;
        if (message) radiusInput.setAttribute("aria-invalid", "true");
        else radiusInput.removeAttribute("aria-invalid");
      },
    },
    place: () => centre,
    radius,
    set(place, radiusKm) {
      centre = place;
      named = null;
      if (radiusKm !== null) {
        radiusInput.value = String(radiusKm);
        slider.value = String(Math.min(radiusKm, 50));
      }
      draw();
      fit();
    },
    showPoints(points) {
      previewPoints.clearLayers();
      for (const item of points) {
        L.circleMarker([item.latitude, item.longitude], {
          pane: "signs",
          interactive: false,
          radius: 6,
          fillColor: PREVIEW_POINT_COLOUR,
          fillOpacity: 1,
          color: "#ffffff",
          weight: 1.5,
          opacity: 1,
        }).addTo(previewPoints);
      }
      base.changed();
      // The matches in view: the circle, or else where the points are.
      if (centre) fit();
      else if (points.length) {
        const bounds = L.latLngBounds(points.map((item): L.LatLngTuple => [item.latitude, item.longitude]));
        base.fit(bounds, { padding: [24, 24], maxZoom: 11 });
      }
    },
    remove: () => base.remove(),
  };
}
