// The map's legend: what the signs' colours and sizes mean, in a small box in the map's corner that
// opens and closes (a disclosure, closed until opened once: it would cover the map). Its swatches are
// drawn with the markers' own colours and radii (colours.ts, incidents-layer.ts), so the legend
// cannot drift from the map.
import L from "leaflet";
import { h } from "../dom.ts";
import { t } from "../i18n.ts";
import { AIRCRAFT_COLOURS, DISCIPLINE_COLOURS, EXERCISE_COLOUR, TRAFFIC_COLOUR, disciplineColour } from "./colours.ts";
import { radiusFor } from "./layers/incidents-layer.ts";

const SVG = "http://www.w3.org/2000/svg";
/** Remembers that the person opened the legend. */
const OPEN = "nlis.legendOpen";

/** A circle as the map draws it, in a small SVG (decorative: the row's text says what it is). */
function swatch(options: {
  radius: number;
  fill: string;
  stroke: string;
  weight: number;
  opacity?: number;
}): SVGElement {
  const size = 2 * 10;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "legend-swatch");
  // A dark disc behind a white outline, so the outline shows on a light legend too.
  if (options.stroke === "#ffffff") {
    const shadow = document.createElementNS(SVG, "circle");
    for (const [name, value] of Object.entries({ cx: 10, cy: 10, r: options.radius + options.weight / 2 + 0.8 }))
      shadow.setAttribute(name, String(value));
    shadow.setAttribute("fill", "#24292f");
    svg.append(shadow);
  }
  const circle = document.createElementNS(SVG, "circle");
  for (const [name, value] of Object.entries({ cx: 10, cy: 10, r: options.radius }))
    circle.setAttribute(name, String(value));
  circle.setAttribute("fill", options.fill);
  circle.setAttribute("fill-opacity", String(options.opacity ?? 0.95));
  circle.setAttribute("stroke", options.stroke);
  circle.setAttribute("stroke-width", String(options.weight));
  svg.append(circle);
  return svg;
}

function row(sign: Node, text: string): HTMLElement {
  return h("li", {}, sign, h("span", {}, text));
}

/** The legend's content: the services' colours, the urgencies' sizes and the other signs. */
export function legendContent(): HTMLElement {
  const neutral = "#8c959f";
  const sized = (rank: number) =>
    swatch({
      radius: radiusFor(rank),
      fill: neutral,
      stroke: rank <= 1 ? "#ffffff" : "#24292f",
      weight: rank <= 1 ? 2.5 : 1,
    });
  const placeSign = h("span", { class: "legend-place-sign", "aria-hidden": "true" }, "3");
  const arrow = h("span", { class: "legend-arrow", "aria-hidden": "true" }, "▲");
  arrow.style.color = AIRCRAFT_COLOURS.trauma;
  return h(
    "div",
    { class: "legend-body" },
    h("h3", {}, t("legend.colours")),
    h(
      "ul",
      {},
      ...Object.keys(DISCIPLINE_COLOURS)
        .filter((slug) => slug !== "dares")
        .map((slug) =>
          row(
            swatch({ radius: 6, fill: disciplineColour(slug), stroke: "#24292f", weight: 1 }),
            t(`discipline.${slug}`),
          ),
        ),
      row(swatch({ radius: 6, fill: disciplineColour(null), stroke: "#24292f", weight: 1 }), t("legend.other")),
      row(
        swatch({ radius: radiusFor(9), fill: EXERCISE_COLOUR, stroke: "#24292f", weight: 1, opacity: 0.6 }),
        t("map.exercise"),
      ),
    ),
    h("h3", {}, t("legend.sizes")),
    h(
      "ul",
      {},
      row(sized(0), t("legend.a0")),
      row(sized(1), t("legend.urgent")),
      row(sized(2), t("legend.lessUrgent")),
      row(sized(3), t("legend.notUrgent")),
    ),
    h("h3", {}, t("legend.more")),
    h(
      "ul",
      {},
      row(placeSign, t("legend.place")),
      row(swatch({ radius: 5, fill: TRAFFIC_COLOUR, stroke: "#ffffff", weight: 2, opacity: 1 }), t("feed.traffic")),
      row(arrow, t("legend.aircraft")),
    ),
  );
}

/** Adds the legend to the map (bottom left); returns it, to take it off again. */
export function addLegend(map: L.Map): L.Control {
  const control = new L.Control({ position: "bottomleft" });
  control.onAdd = () => {
    // A line that opens it, and stays open once opened (remembered in the browser).
    const open = localStorage.getItem(OPEN) === "true";
    const element = h("details", { class: "map-legend", open }, h("summary", {}, t("legend.title")), legendContent());
    element.addEventListener("toggle", () => localStorage.setItem(OPEN, String(element.open)));
    // Never taller than the map (it scrolls within itself then): a phone's map is short.
    const fit = () => (element.style.maxHeight = `${Math.max(120, map.getSize().y - 24)}px`);
    fit();
    map.on("resize", fit);
    // Clicks, scrolls and drags in the legend are the legend's, not the map's.
    L.DomEvent.disableClickPropagation(element);
    L.DomEvent.disableScrollPropagation(element);
    return element;
  };
  return control.addTo(map);
}
