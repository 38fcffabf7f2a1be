// Drawing an area of one's own on a monitor's map: "Draw an area", then each click on the map is a
// point (keyboard users move the map and add its centre), the outline is drawn as it grows (the
// edge back to the first point dashed: that is where "Finish" closes it), "Undo the last point"
// takes one back, and "Finish the area" (or a click on the first corner, as drawing tools have it)
// closes the ring and hands it over as GeoJSON's
// [[longitude, latitude], …] with the first point repeated last, as query.areas takes a polygon.
// Fewer than 3 points is no area: that is said by the field (onProblem) and drawing goes on. The
// API checks the rest (edges that cross, a point outside the Netherlands) and its message is shown
// by the field as any of its refusals.
import L from "leaflet";
import { h } from "../../dom.ts";
import { formatNumber, t } from "../../i18n.ts";
import { countText } from "../console-texts.ts";
import { CIRCLE_STYLE } from "./circle-map.ts";

/**
 * The most points a drawn area takes: more than anyone clicks by hand, and ten such areas stay
 * within the API's 5,000 points for all of a monitor's polygons (2,000 for one).
 */
const MAX_DRAWN_POINTS = 500;
/** The fewest points of an area (a triangle); the closed ring then has 4. */
const FEWEST_POINTS = 3;
/** About a metre: finer than a click can mean, and the ring's JSON stays short. */
const DECIMALS = 5;
/** A click this near the first corner (in screen pixels) closes the area rather than adding a point. */
const CLOSING_PIXELS = 10;

export interface PolygonDrawing {
  /** The buttons and the drawing's status line, for under the map. */
  element: HTMLElement;
  /** Whether a drawing is under way (its clicks are points, not anything else). */
  drawing(): boolean;
  /** Ends a drawing without an area (the form is drawn again). */
  stop(): void;
}

export function polygonDrawing(
  map: L.Map,
  options: {
    /** The closed ring, [[longitude, latitude], …, the first again]. */
    onFinish(ring: number[][]): void;
    /** Said by the field (null: nothing to say any more). */
    onProblem(message: string | null): void;
    /** The map's drawing changed (the base map marks itself busy until it is painted). */
    changed(): void;
  },
): PolygonDrawing {
  let points: L.LatLng[] = [];
  let active = false;
  // The circle's style (a line has no fill), its outline a little bolder while it is drawn.
  const outline = L.polyline([], { ...CIRCLE_STYLE, weight: 3 });
  const closing = L.polyline([], { ...CIRCLE_STYLE, dashArray: "6 6" });
  const corners = L.layerGroup();

  const start = h("button", { type: "button", id: "monitor-draw-start" }, t("monitors.draw.start"));
  const undo = h("button", { type: "button", id: "monitor-draw-undo" }, t("monitors.draw.undo"));
  const centre = h("button", { type: "button", id: "monitor-draw-centre" }, t("monitors.draw.centre"));
  const finish = h(
    "button",
    { type: "button", id: "monitor-draw-finish", class: "primary" },
    t("monitors.draw.finish"),
  );
  const cancel = h("button", { type: "button", id: "monitor-draw-cancel" }, t("monitors.draw.cancel"));
  const status = h("p", { class: "monitor-draw-status", id: "monitor-draw-status", "aria-live": "polite" });
  const element = h(
    "div",
    { class: "monitor-draw" },
    h("div", { class: "monitor-map-actions" }, start, undo, centre, finish, cancel),
    status,
  );

  function draw(): void {
    const container = map.getContainer();
    container.dataset.drawing = String(active);
    start.hidden = active;
    for (const button of [undo, centre, finish, cancel]) button.hidden = !active;
    undo.disabled = points.length === 0;
    outline.setLatLngs(points);
    closing.setLatLngs(points.length > 1 ? [points[points.length - 1], points[0]] : []);
    corners.clearLayers();
    for (const point of points)
      L.circleMarker(point, { ...CIRCLE_STYLE, radius: 4, fillColor: "#ffffff", fillOpacity: 1 }).addTo(corners);
    options.changed();
  }

  function say(message: string): void {
    status.textContent = message;
  }

  const drawingLine = () =>
    `${countText("monitors.draw.points", points.length)} ${t(points.length >= FEWEST_POINTS ? "monitors.draw.more" : "monitors.draw.next")}`;

  function add(at: L.LatLng): void {
    if (!active) return;
    if (points.length >= MAX_DRAWN_POINTS) {
      options.onProblem(t("monitors.draw.tooMany").replace("{max}", formatNumber(MAX_DRAWN_POINTS)));
      return;
    }
    const point = L.latLng(Number(at.lat.toFixed(DECIMALS)), Number(at.lng.toFixed(DECIMALS)));
    // A second click on the same spot (a double click) is no new point: it would be an edge of no length.
    if (points.length && points[points.length - 1].equals(point)) return;
    points.push(point);
    options.onProblem(null);
    draw();
    say(drawingLine());
  }

  function end(): void {
    active = false;
    points = [];
    // A double click zooms again, as on any map.
    map.doubleClickZoom.enable();
    draw();
  }

  function finishArea(): void {
    if (points.length < FEWEST_POINTS) {
      options.onProblem(
        t("monitors.draw.tooFew")
          .replace("{min}", String(FEWEST_POINTS))
          .replace("{count}", formatNumber(points.length)),
      );
      return;
    }
    const ring = [...points, points[0]].map((point) => [point.lng, point.lat]);
    const count = points.length;
    end();
    options.onFinish(ring);
    say(t("monitors.draw.added").replace("{count}", formatNumber(count)));
    start.focus();
  }

  map.on("click", (event: L.LeafletMouseEvent) => {
    if (!active) return;
    // The first corner clicked again closes the area: as a point it would close the ring twice.
    const nearFirst =
      points.length >= FEWEST_POINTS &&
      map.latLngToContainerPoint(points[0]).distanceTo(event.containerPoint) <= CLOSING_PIXELS;
    if (nearFirst) finishArea();
    else add(event.latlng);
  });
  start.addEventListener("click", () => {
    active = true;
    points = [];
    // Quick clicks are points, not a zoom.
    map.doubleClickZoom.disable();
    options.onProblem(null);
    draw();
    say(t("monitors.draw.begin"));
    // The start button is gone; keyboard users go on with the map's centre.
    centre.focus();
  });
  undo.addEventListener("click", () => {
    points.pop();
    options.onProblem(null);
    draw();
    say(drawingLine());
    // A disabled button loses the focus: keyboard users go on with the map's centre.
    if (undo.disabled) centre.focus();
  });
  centre.addEventListener("click", () => add(map.getCenter()));
  finish.addEventListener("click", finishArea);
  cancel.addEventListener("click", () => {
    end();
    options.onProblem(null);
    say(t("monitors.draw.cancelled"));
    start.focus();
  });

  // In a group, not on the map one by one: a path put on a map that has no view yet queues its
  // pane's canvas behind whatever the page queued before, and a group of areas drawn first then met
  // a canvas with no size (Leaflet's "reading 'min'").
  L.layerGroup([outline, closing, corners]).addTo(map);
  draw();
  return {
    element,
    drawing: () => active,
    stop: end,
  };
}
